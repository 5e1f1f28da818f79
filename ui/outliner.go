package ui

import (
	"fmt"
	"strings"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/sovviz/sovviz/render/drawlist"
)

// Layout of the left column at the default size (window units).
const (
	leftX       = 8
	leftW       = 330
	outlinerH   = 230
	panelMargin = 6
	viewCubeW   = 132
	viewCubeH   = 162 // padding, the cube's area, two rows of buttons
	// viewCubeTop is the gap between the menu bar and the view-cube window.
	viewCubeTop = 8
	// viewCubeSize is the height of the cube's area in the view-cube window;
	// the cube's half-size is viewCubeSize/(2√3), so that it stays inside
	// it seen from any direction.
	viewCubeSize = 100
)

// viewCubeBottom is the bottom of the view-cube window (window units); the
// shape pads start just below it.
func (a *App) viewCubeBottom() float64 { return a.menuHeight() + viewCubeTop + viewCubeH }

// recWindow remembers the current window's rectangle under key when tests
// ask for it (recordRects).
func (a *App) recWindow(key string) {
	if !a.recordRects {
		return
	}
	if a.rects == nil {
		a.rects = map[string][4]float32{}
	}
	p, s := imgui.WindowPos(), imgui.WindowSize()
	a.rects[key] = [4]float32{p.X, p.Y, p.X + s.X, p.Y + s.Y}
}

// nonConvexColor marks non-convex objects (the overlay's orange).
var nonConvexColor = drawlist.Color{1, 0.6, 0.15, 1}

// menuHeight is the height of the main menu bar.
func (a *App) menuHeight() float64 { return float64(imgui.FrameHeight()) }

// rec remembers the rectangle of the last item under key when tests ask
// for it (recordRects).
func (a *App) rec(key string) {
	if !a.recordRects {
		return
	}
	if a.rects == nil {
		a.rects = map[string][4]float32{}
	}
	p, q := imgui.ItemRectMin(), imgui.ItemRectMax()
	a.rects[key] = [4]float32{p.X, p.Y, q.X, q.Y}
}

// escapeFmt makes text safe for ImGui's printf-style calls.
func escapeFmt(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// drawOutliner lists the objects: visibility toggle, colour swatch, name
// (click selects, double-click renames), non-convex marker; buttons add,
// duplicate and delete.
func (a *App) drawOutliner() {
	top := a.menuHeight() + panelMargin
	imgui.SetNextWindowPosV(vec2(leftX, top), imgui.CondFirstUseEver, vec2(0, 0))
	imgui.SetNextWindowSizeV(vec2(leftW, outlinerH), imgui.CondFirstUseEver)
	if !imgui.BeginV("Outliner", &a.ShowOutliner, 0) {
		imgui.End()
		return
	}
	if imgui.Button("add") {
		a.AddObject()
	}
	a.rec("outliner.add")
	a.setTooltip("add a superovoid near the view's centre (Shift+A)")
	imgui.SameLine()
	has := a.Selected >= 0 && a.Selected < len(a.Scene.Objects)
	imgui.BeginDisabledV(!has)
	if imgui.Button("duplicate") {
		a.DuplicateSelected()
	}
	a.setTooltip("Ctrl+D")
	imgui.SameLine()
	if imgui.Button("delete") {
		a.DeleteObject(a.Selected)
	}
	a.setTooltip("Del")
	imgui.EndDisabled()
	imgui.SameLine()
	imgui.TextDisabled(fmt.Sprintf("%d objects", len(a.Scene.Objects)))

	if imgui.BeginChildStrV("##objects", vec2(0, 0), imgui.ChildFlagsBorders, 0) {
		for i := range a.Scene.Objects {
			if i >= len(a.Scene.Objects) {
				break // deleted from the context menu
			}
			a.outlinerRow(i)
		}
		a.scrollToSel = false
	}
	imgui.EndChild()
	imgui.End()
}

// renameState is the outliner's in-place rename field.
type renameState struct {
	active bool
	index  int // object being renamed
	buf    string
	focus  bool
}

func (a *App) outlinerRow(i int) {
	o := &a.Scene.Objects[i]
	imgui.PushIDInt(int32(i))
	defer imgui.PopID()
	vis := o.Visible
	if imgui.Checkbox("##vis", &vis) {
		label := "hide "
		if vis {
			label = "show "
		}
		a.BeginEdit(label + o.Name)
		a.Scene.Objects[i].Visible = vis
	}
	a.rec(fmt.Sprint("outliner.vis.", i))
	a.setTooltip("visible")
	imgui.SameLine()
	c := o.Color
	imgui.ColorButtonV("##swatch", imgui.NewVec4(float32(c[0]), float32(c[1]), float32(c[2]), float32(c[3])),
		imgui.ColorEditFlagsNoTooltip|imgui.ColorEditFlagsAlphaPreviewHalf, vec2(float64(imgui.FrameHeight()), float64(imgui.FrameHeight())))
	imgui.SameLine()
	if a.rename.active && a.rename.index == i {
		if a.rename.focus {
			imgui.SetKeyboardFocusHere()
			a.rename.focus = false
		}
		imgui.SetNextItemWidth(-1)
		done := imgui.InputTextWithHint("##rename", "name", &a.rename.buf, imgui.InputTextFlagsEnterReturnsTrue|imgui.InputTextFlagsAutoSelectAll, nil)
		if done || imgui.IsItemDeactivated() {
			a.rename.active = false
			if !imgui.IsKeyPressedBool(imgui.KeyEscape) {
				if err := a.RenameObject(i, a.rename.buf); err != nil {
					a.Error = err.Error()
				}
			}
		}
		return
	}
	nc := a.Convexity(i)
	name := o.Name
	if !o.Visible {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.NewVec4(0.55, 0.55, 0.55, 1))
	}
	w := float64(imgui.ContentRegionAvail().X)
	if !nc.Convex {
		w -= 18
	}
	if imgui.SelectableBoolV(name, i == a.Selected, imgui.SelectableFlagsAllowDoubleClick, vec2(w, 0)) {
		a.Selected = i
		if imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
			a.startRename(i)
		}
	}
	if !o.Visible {
		imgui.PopStyleColor()
	}
	a.rec(fmt.Sprint("outliner.row.", i))
	if a.scrollToSel && i == a.Selected {
		imgui.SetScrollHereY()
	}
	if imgui.BeginPopupContextItem() {
		a.Selected = i
		if imgui.MenuItemBool("rename") {
			a.startRename(i)
		}
		if imgui.MenuItemBoolV("duplicate", "Ctrl+D", false, true) {
			a.DuplicateSelected()
		}
		if imgui.MenuItemBoolV("delete", "Del", false, true) {
			a.DeleteObject(i)
		}
		if imgui.MenuItemBoolV("frame", "F", false, true) {
			a.FrameSelection()
		}
		imgui.EndPopup()
	}
	if !nc.Convex {
		imgui.SameLine()
		p := imgui.CursorScreenPos()
		h := float64(imgui.FrameHeight())
		imgui.Dummy(vec2(14, h))
		imgui.WindowDrawList().AddCircleFilled(vec2(float64(p.X)+7, float64(p.Y)+h/2), 5, col(nonConvexColor))
		if imgui.IsItemHovered() {
			imgui.SetTooltip(escapeFmt(fmt.Sprintf("non-convex: hull gap %.3g", nc.HullGap)))
		}
	}
}

func (a *App) startRename(i int) {
	a.rename = renameState{active: true, index: i, buf: a.Scene.Objects[i].Name, focus: true}
}
