package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/sovviz/sovviz/scene"
)

// dialogKind is the file dialog being shown.
type dialogKind uint8

const (
	dialogNone dialogKind = iota
	dialogOpen
	dialogSaveAs
)

// dirEntry is one line of the file dialog's listing.
type dirEntry struct {
	name string
	dir  bool
}

// fileState is the state of the file dialog, the unsaved-changes prompt
// and the window title.
type fileState struct {
	dialog     dialogKind
	openDialog bool // open the dialog's popup this frame
	dir        string
	path       string // the dialog's path field
	entries    []dirEntry
	listed     string // directory the entries are of
	listErr    string
	overwrite  bool // the dialog asks whether to replace path

	// The unsaved-changes prompt: what will be done (pending) once the
	// edits are saved or discarded, and its description.
	askUnsaved  bool
	openAsk     bool
	pending     func()
	pendingWhat string
	// afterSave runs after the save-as dialog saved (the prompt's Save
	// for a scene without a file).
	afterSave func()

	title string // the window title set last
}

// OpenScene loads a scene file and shows it. A file that does not load
// leaves the current scene as it was and shows the error (which names the
// file, the field and the reason) in the error dialog.
func (a *App) OpenScene(path string) error {
	sc, err := scene.Load(path)
	if err != nil {
		a.Error = err.Error()
		return err
	}
	a.SetScene(sc, path)
	return nil
}

// SaveScene writes the scene, with the current view, to path (atomically:
// scene.Save) and makes path the scene's file. A failure keeps everything
// as it was and shows the error.
func (a *App) SaveScene(path string) error {
	if path == "" {
		err := errors.New("save: no file name given")
		a.Error = err.Error()
		return err
	}
	prev := a.Scene.Camera
	a.StoreCamera()
	if err := scene.Save(path, a.Scene); err != nil {
		a.Scene.Camera = prev
		a.Error = err.Error()
		return err
	}
	a.Path = path
	a.History.MarkSaved()
	return nil
}

// Save saves to the scene's file, or asks for one (the built-in scene).
func (a *App) Save() {
	if a.Path == "" {
		a.ShowFileDialog(true)
		return
	}
	_ = a.SaveScene(a.Path) // the error is shown
}

// ShowFileDialog opens the save-as (save true) or open dialog in the
// directory of the scene's file, or the working directory.
func (a *App) ShowFileDialog(save bool) {
	f := &a.files
	f.dialog = dialogOpen
	if save {
		f.dialog = dialogSaveAs
	}
	f.openDialog = true
	f.overwrite = false
	f.dir, f.path = ".", ""
	if a.Path != "" {
		f.dir = filepath.Dir(a.Path)
		if save {
			f.path = a.Path
		}
	}
	if abs, err := filepath.Abs(f.dir); err == nil {
		f.dir = abs
	}
	f.listed = ""
}

// ConfirmUnsaved runs action (quitting, opening another scene) now when
// the scene has no unsaved edits, and otherwise asks first: Save (then
// act), Discard (act) or Cancel (nothing). what describes the action.
func (a *App) ConfirmUnsaved(what string, action func()) {
	if !a.History.Dirty() {
		action()
		return
	}
	a.files.askUnsaved, a.files.openAsk = true, true
	a.files.pending, a.files.pendingWhat = action, what
}

// RequestQuit quits, asking first when there are unsaved edits (Ctrl+Q,
// File > Quit, closing the window).
func (a *App) RequestQuit() {
	a.ConfirmUnsaved("quit", func() { a.quit = true })
}

// NewScene replaces the scene by an empty one (asking about unsaved edits).
func (a *App) NewScene() {
	a.ConfirmUnsaved("start a new scene", func() { a.SetScene(scene.New(), "") })
}

// listDir reads the folders and *.json files of dir, folders first, both
// sorted; hidden entries are left out.
func listDir(dir string) ([]dirEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []dirEntry
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		isDir := de.IsDir()
		if de.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		if isDir || strings.EqualFold(filepath.Ext(name), ".json") {
			out = append(out, dirEntry{name: name, dir: isDir})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].dir != out[j].dir {
			return out[i].dir
		}
		return out[i].name < out[j].name
	})
	return out, nil
}

// dialogTarget resolves the dialog's path field against its directory.
func (f *fileState) dialogTarget() string {
	p := strings.TrimSpace(f.path)
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(f.dir, p)
	}
	return filepath.Clean(p)
}

// drawFileDialog is the modal open / save-as dialog: a path field and the
// folders and *.json files of the current directory (no native dialogs
// exist under GLFW). Clicking a folder enters it, clicking a file puts it
// in the field, double-clicking or Enter opens or saves.
func (a *App) drawFileDialog() {
	f := &a.files
	if f.dialog == dialogNone {
		return
	}
	title := "Open scene##filedialog"
	verb := "Open"
	if f.dialog == dialogSaveAs {
		title, verb = "Save scene as##filedialog", "Save"
	}
	if f.openDialog {
		imgui.OpenPopupStr(title)
		f.openDialog = false
	}
	ds := imgui.CurrentIO().DisplaySize()
	imgui.SetNextWindowSizeV(vec2(min(640, float64(ds.X)-40), min(460, float64(ds.Y)-60)), imgui.CondAppearing)
	open := true
	if !imgui.BeginPopupModalV(title, &open, 0) {
		if !open {
			f.dialog = dialogNone
		}
		return
	}
	if f.listed != f.dir {
		f.entries, f.listErr = nil, ""
		es, err := listDir(f.dir)
		if err != nil {
			f.listErr = err.Error()
		}
		f.entries, f.listed = es, f.dir
	}
	imgui.TextUnformatted("folder: " + f.dir)
	if imgui.Button("up") {
		f.dir = filepath.Dir(f.dir)
	}
	imgui.SameLine()
	imgui.TextDisabled("folders and *.json files")
	act := false
	listH := float64(imgui.ContentRegionAvail().Y) - 2*float64(imgui.FrameHeightWithSpacing()) - 8
	if imgui.BeginChildStrV("##files", vec2(0, max(listH, 60)), imgui.ChildFlagsBorders, 0) {
		if f.listErr != "" {
			imgui.TextUnformatted(f.listErr)
		}
		for _, e := range f.entries {
			label := e.name
			if e.dir {
				label += "/"
			}
			sel := !e.dir && f.dialogTarget() == filepath.Join(f.dir, e.name)
			if imgui.SelectableBoolV(label, sel, imgui.SelectableFlagsAllowDoubleClick, vec2(0, 0)) {
				if e.dir {
					f.dir = filepath.Join(f.dir, e.name)
				} else {
					f.path = e.name
					f.overwrite = false
					if imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
						act = true
					}
				}
			}
		}
	}
	imgui.EndChild()
	imgui.SetNextItemWidth(-1)
	if imgui.InputTextWithHint("##path", "file name or path", &f.path, imgui.InputTextFlagsEnterReturnsTrue, nil) {
		act = true
	}
	if imgui.IsItemEdited() {
		f.overwrite = false
	}
	target := f.dialogTarget()
	if f.overwrite {
		imgui.TextUnformatted(filepath.Base(target) + " exists. Replace it?")
		imgui.SameLine()
		if imgui.Button("Replace") {
			act = true
		}
	} else {
		imgui.BeginDisabledV(target == "")
		if imgui.Button(verb) {
			act = true
		}
		imgui.EndDisabled()
	}
	imgui.SameLine()
	if imgui.Button("Cancel") || imgui.IsKeyPressedBool(imgui.KeyEscape) {
		f.dialog = dialogNone
		f.afterSave = nil
		imgui.CloseCurrentPopup()
	}
	if act && target != "" {
		if st, err := os.Stat(target); err == nil && st.IsDir() {
			f.dir, f.path = target, ""
		} else if f.dialog == dialogOpen {
			f.dialog = dialogNone
			imgui.CloseCurrentPopup()
			a.ConfirmUnsaved("open "+filepath.Base(target), func() { _ = a.OpenScene(target) })
		} else {
			if !strings.EqualFold(filepath.Ext(target), ".json") {
				target += ".json"
			}
			if _, err := os.Stat(target); err == nil && !f.overwrite && target != a.Path {
				f.overwrite = true
				f.path = target
			} else {
				f.dialog = dialogNone
				imgui.CloseCurrentPopup()
				if a.SaveScene(target) == nil && f.afterSave != nil {
					f.afterSave()
				}
				f.afterSave = nil
			}
		}
	}
	imgui.EndPopup()
}

// drawUnsavedPrompt asks what to do with unsaved edits before the pending
// action (quit, open, new): Save, Discard or Cancel.
func (a *App) drawUnsavedPrompt() {
	f := &a.files
	if !f.askUnsaved {
		return
	}
	const title = "Unsaved changes"
	if f.openAsk {
		imgui.OpenPopupStr(title)
		f.openAsk = false
	}
	if !imgui.BeginPopupModalV(title, nil, imgui.WindowFlagsAlwaysAutoResize) {
		return
	}
	name := "The built-in scene"
	if a.Path != "" {
		name = filepath.Base(a.Path)
	}
	imgui.TextUnformatted(name + " has unsaved changes.")
	imgui.TextUnformatted("Save them before you " + f.pendingWhat + "?")
	done := func() {
		f.askUnsaved = false
		imgui.CloseCurrentPopup()
	}
	if imgui.Button("Save") {
		act := f.pending
		done()
		if a.Path == "" {
			a.files.afterSave = act
			a.ShowFileDialog(true)
		} else if a.SaveScene(a.Path) == nil {
			act()
		}
	}
	imgui.SameLine()
	a.rec("unsaved.save")
	if imgui.Button("Discard") {
		act := f.pending
		done()
		act()
	}
	a.rec("unsaved.discard")
	imgui.SameLine()
	if imgui.Button("Cancel") || imgui.IsKeyPressedBool(imgui.KeyEscape) {
		done()
	}
	a.rec("unsaved.cancel")
	imgui.EndPopup()
}

// updateTitle puts the scene's file name in the window title, with a *
// while there are unsaved edits.
func (a *App) updateTitle() {
	if a.win == nil {
		return
	}
	t := a.WindowTitle()
	if t != a.files.title {
		a.files.title = t
		a.win.SetTitle(t)
	}
}

// WindowTitle is "sovviz — name" with a trailing " *" while the scene has
// unsaved edits.
func (a *App) WindowTitle() string {
	name := "built-in scene"
	if a.Path != "" {
		name = filepath.Base(a.Path)
	}
	t := "sovviz — " + name
	if a.History.Dirty() {
		t += " *"
	}
	return t
}
