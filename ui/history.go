package ui

import "github.com/sovviz/sovviz/scene"

// historyLimit bounds the undo stack; a scene of a few hundred objects is a
// few tens of kilobytes, so this is a few megabytes at worst.
const historyLimit = 200

// snapshot is the state an undo step restores: the whole scene (a deep
// copy) and the selection.
type snapshot struct {
	label    string
	scene    *scene.Scene
	selected int
}

// History is the undo/redo stack of scene edits. Every edit, however it is
// made (inspector field, ε/T pad, gizmo drag, add, delete, load), first
// records a snapshot of the scene with App.BeginEdit; undoing restores it.
// Snapshots make every edit undoable without an inverse operation per kind
// of edit, and a continuous drag records one step, not one per frame.
type History struct {
	undo, redo []snapshot
	// dirty counts edits since the last save or load (for the title bar and
	// the "unsaved changes" prompt); undo and redo move it back and forth.
	dirty int
}

// CanUndo reports whether there is an edit to undo; UndoLabel names it.
func (h *History) CanUndo() bool { return len(h.undo) > 0 }

// CanRedo reports whether there is an undone edit to redo.
func (h *History) CanRedo() bool { return len(h.redo) > 0 }

// UndoLabel is the label of the edit Undo would revert ("" when none).
func (h *History) UndoLabel() string {
	if len(h.undo) == 0 {
		return ""
	}
	return h.undo[len(h.undo)-1].label
}

// RedoLabel is the label of the edit Redo would apply again ("" when none).
func (h *History) RedoLabel() string {
	if len(h.redo) == 0 {
		return ""
	}
	return h.redo[len(h.redo)-1].label
}

// Dirty reports whether the scene has edits that were not saved.
func (h *History) Dirty() bool { return h.dirty != 0 }

// MarkSaved records that the scene as it is now is saved.
func (h *History) MarkSaved() { h.dirty = 0 }

// Clear forgets every step (a new scene was loaded).
func (h *History) Clear() {
	h.undo, h.redo, h.dirty = nil, nil, 0
}

// BeginEdit records the scene as it is now, before an edit described by
// label ("move finger2", "shape of palm"): call it once, just before
// changing a.Scene. A drag calls it when the drag starts (ImGui's
// IsItemActivated), not every frame, so that one undo reverts the whole drag.
func (a *App) BeginEdit(label string) {
	h := &a.History
	h.undo = append(h.undo, snapshot{label: label, scene: a.Scene.Clone(), selected: a.Selected})
	if len(h.undo) > historyLimit {
		copy(h.undo, h.undo[1:])
		h.undo[len(h.undo)-1] = snapshot{}
		h.undo = h.undo[:len(h.undo)-1]
	}
	h.redo = h.redo[:0]
	h.dirty++
}

// Edit records an undo step and applies fn to the scene.
func (a *App) Edit(label string, fn func(sc *scene.Scene)) {
	a.BeginEdit(label)
	fn(a.Scene)
}

// Undo reverts the last edit; it reports false when there is none.
func (a *App) Undo() bool {
	if !a.step(&a.History.undo, &a.History.redo) {
		return false
	}
	a.History.dirty--
	return true
}

// Redo applies the last undone edit again; it reports false when there is
// none.
func (a *App) Redo() bool {
	if !a.step(&a.History.redo, &a.History.undo) {
		return false
	}
	a.History.dirty++
	return true
}

// step restores the newest snapshot of from, after pushing the current
// state onto to under the same label.
func (a *App) step(from, to *[]snapshot) bool {
	if len(*from) == 0 {
		return false
	}
	s := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	*to = append(*to, snapshot{label: s.label, scene: a.Scene.Clone(), selected: a.Selected})
	a.restore(s)
	return true
}

// restore puts a snapshot's scene in place, keeping the camera and the
// caches: meshes and contact warm starts are keyed by shape and index and
// refresh themselves on the next Update.
func (a *App) restore(s snapshot) {
	a.Scene = s.scene.Clone()
	a.Selected = s.selected
	if a.Selected >= len(a.Scene.Objects) {
		a.Selected = -1
	}
}
