package ui

import (
	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/sovviz/sovviz/render/drawlist"
)

// drawMenuBar is the main menu: File, Edit, View, Object.
func (a *App) drawMenuBar() {
	if !imgui.BeginMainMenuBar() {
		return
	}
	if imgui.BeginMenu("File") {
		if imgui.MenuItemBoolV("New", "Ctrl+N", false, true) {
			a.NewScene()
		}
		if imgui.MenuItemBoolV("Open...", "Ctrl+O", false, true) {
			a.ConfirmUnsaved("open another scene", func() { a.ShowFileDialog(false) })
		}
		if imgui.MenuItemBoolV("Save", "Ctrl+S", false, true) {
			a.Save()
		}
		if imgui.MenuItemBoolV("Save As...", "Ctrl+Shift+S", false, true) {
			a.ShowFileDialog(true)
		}
		imgui.Separator()
		if imgui.MenuItemBoolV("Quit", "Ctrl+Q", false, true) {
			a.RequestQuit()
		}
		imgui.EndMenu()
	}
	if imgui.BeginMenu("Edit") {
		h := &a.History
		if imgui.MenuItemBoolV(menuLabel("Undo", h.UndoLabel()), "Ctrl+Z", false, h.CanUndo()) {
			a.Undo()
		}
		if imgui.MenuItemBoolV(menuLabel("Redo", h.RedoLabel()), "Ctrl+Y", false, h.CanRedo()) {
			a.Redo()
		}
		imgui.Separator()
		has := a.Selected >= 0 && a.Selected < len(a.Scene.Objects)
		if imgui.MenuItemBoolV("Add superovoid", "Shift+A", false, true) {
			a.AddObject()
		}
		if imgui.MenuItemBoolV("Duplicate", "Ctrl+D", false, has) {
			a.DuplicateSelected()
		}
		if imgui.MenuItemBoolV("Delete", "Del", false, has) {
			a.DeleteObject(a.Selected)
		}
		if imgui.MenuItemBoolV("Rename", "F2", false, has) {
			a.ShowOutliner = true
			a.startRename(a.Selected)
		}
		if imgui.MenuItemBoolV("Deselect", "Esc", false, has) {
			a.Selected = -1
		}
		imgui.EndMenu()
	}
	if imgui.BeginMenu("View") {
		imgui.MenuItemBoolPtr("Outliner", "", &a.ShowOutliner)
		imgui.MenuItemBoolPtr("Inspector", "", &a.ShowInspector)
		imgui.MenuItemBoolPtr("Overlays and solver", "", &a.ShowOverlays)
		if a.Pads != nil {
			imgui.MenuItemBoolPtr("Shape pads", "", &a.Pads.Open)
		}
		imgui.MenuItemBoolPtr("Gizmo toolbar", "", &a.ShowToolbar)
		imgui.MenuItemBoolPtr("Parameter space", "", &a.Scene.Overlays.ParamPanel)
		imgui.MenuItemBoolPtr("Status line", "", &a.ShowStatus)
		imgui.Separator()
		if imgui.MenuItemBoolV("Frame selection", "F", false, true) {
			a.FrameSelection()
		}
		if imgui.MenuItemBoolV("Frame all", "Home", false, true) {
			a.FrameAll()
		}
		for _, v := range []struct {
			view drawlist.View
			name string
			key  string
		}{{drawlist.Front, "Front", "1"}, {drawlist.Back, "Back", "Ctrl+1"}, {drawlist.Right, "Right", "3"},
			{drawlist.Left, "Left", "Ctrl+3"}, {drawlist.Top, "Top", "7"}, {drawlist.Bottom, "Bottom", "Ctrl+7"}, {drawlist.Persp, "Perspective", ""}} {
			if imgui.MenuItemBoolV(v.name, v.key, a.Camera.CurrentView() == v.view, true) {
				a.Camera.SetView(v.view)
			}
		}
		if imgui.MenuItemBoolV("Orthographic", "5", a.Camera.Ortho, true) {
			a.Camera.Ortho = !a.Camera.Ortho
		}
		imgui.MenuItemBoolPtr("X-ray", "X", &a.Scene.Overlays.XRay)
		imgui.EndMenu()
	}
	if imgui.BeginMenu("Gizmo") {
		if imgui.MenuItemBoolV("Move", "T", a.Gizmo.Op == GizmoTranslate, true) {
			a.Gizmo.Op = GizmoTranslate
		}
		if imgui.MenuItemBoolV("Rotate", "R", a.Gizmo.Op == GizmoRotate, true) {
			a.Gizmo.Op = GizmoRotate
		}
		imgui.MenuItemBoolPtr("Local axes", "L", &a.Gizmo.Local)
		imgui.MenuItemBoolPtr("Snap", "hold Ctrl", &a.Gizmo.Snap)
		imgui.MenuItemBoolPtr("Hide gizmo", "", &a.Gizmo.Hidden)
		imgui.EndMenu()
	}
	imgui.EndMainMenuBar()
}

// menuLabel is "Undo move finger2" (with a stable ImGui id).
func menuLabel(verb, what string) string {
	if what == "" {
		return verb + "##" + verb
	}
	return verb + " " + what + "##" + verb
}

// editShortcuts handles the editing keys (called when ImGui does not want
// the keyboard): undo/redo, files, add/duplicate/delete/rename, gizmo
// mode. It reports whether a key was used.
func (a *App) editShortcuts(ctrl, shift bool, pressed func(keys ...imgui.Key) bool) bool {
	if a.files.dialog != dialogNone || a.files.askUnsaved || a.Error != "" {
		return true // a modal dialog is open: keys are its own
	}
	has := a.Selected >= 0 && a.Selected < len(a.Scene.Objects)
	switch {
	case ctrl && shift && pressed(imgui.KeyZ), ctrl && pressed(imgui.KeyY):
		a.Redo()
	case ctrl && pressed(imgui.KeyZ):
		a.Undo()
	case ctrl && shift && pressed(imgui.KeyS):
		a.ShowFileDialog(true)
	case ctrl && pressed(imgui.KeyS):
		a.Save()
	case ctrl && pressed(imgui.KeyO):
		a.ConfirmUnsaved("open another scene", func() { a.ShowFileDialog(false) })
	case ctrl && pressed(imgui.KeyN):
		a.NewScene()
	case ctrl && pressed(imgui.KeyQ):
		a.RequestQuit()
	case ctrl && pressed(imgui.KeyD):
		a.DuplicateSelected()
	case shift && pressed(imgui.KeyA):
		a.AddObject()
	case has && pressed(imgui.KeyDelete):
		a.DeleteObject(a.Selected)
	case has && pressed(imgui.KeyF2):
		a.ShowOutliner = true
		a.startRename(a.Selected)
	case pressed(imgui.KeyEscape):
		a.Selected = -1
	case !ctrl && pressed(imgui.KeyT):
		a.Gizmo.Op = GizmoTranslate
	case !ctrl && pressed(imgui.KeyR):
		a.Gizmo.Op = GizmoRotate
	case !ctrl && pressed(imgui.KeyL):
		a.Gizmo.Local = !a.Gizmo.Local
	default:
		return false
	}
	return true
}
