package ui

import (
	"testing"

	"github.com/sovviz/sovviz/scene"
)

func TestUndoRedoRestoresScene(t *testing.T) {
	a := NewApp(scene.Default(), "")
	orig := a.Scene.Clone()
	if a.History.CanUndo() || a.History.Dirty() {
		t.Fatal("fresh app has history")
	}
	a.Edit("move first", func(sc *scene.Scene) { sc.Objects[0].Pose.Position[0] += 1 })
	a.Selected = 0
	a.BeginEdit("shape of first")
	a.Scene.Objects[0].Shape.Eps[0] = 0.3
	a.Scene.Objects[0].Shape.Eps[0] = 0.4 // a drag: many frames, one step
	edited := a.Scene.Clone()
	if got := a.History.UndoLabel(); got != "shape of first" {
		t.Fatalf("undo label %q", got)
	}
	if !a.History.Dirty() {
		t.Fatal("edit did not mark the scene dirty")
	}
	if !a.Undo() || !a.Undo() {
		t.Fatal("undo refused")
	}
	if a.Undo() {
		t.Fatal("undo past the first edit")
	}
	if a.Scene.Objects[0] != orig.Objects[0] {
		t.Fatalf("undo did not restore: %+v vs %+v", a.Scene.Objects[0], orig.Objects[0])
	}
	if a.History.Dirty() {
		t.Fatal("undoing every edit should leave the scene clean")
	}
	if !a.Redo() || !a.Redo() || a.Redo() {
		t.Fatal("redo count wrong")
	}
	if a.Scene.Objects[0] != edited.Objects[0] || a.Selected != 0 {
		t.Fatalf("redo did not restore the edit: %+v", a.Scene.Objects[0])
	}
	// A new edit after an undo drops the redo branch.
	a.Undo()
	a.Edit("delete", func(sc *scene.Scene) { sc.Objects = sc.Objects[1:] })
	if a.History.CanRedo() {
		t.Fatal("redo branch kept after a new edit")
	}
	// Edits to the live scene never reach the snapshots.
	a.Scene.Objects[0].Name = "changed"
	a.Undo()
	if a.Scene.Objects[1].Name == "changed" || a.Scene.Objects[0].Name == "changed" {
		t.Fatal("snapshot shares memory with the live scene")
	}
}

func TestHistoryIsBounded(t *testing.T) {
	a := NewApp(scene.Default(), "")
	for i := 0; i < historyLimit+50; i++ {
		a.Edit("nudge", func(sc *scene.Scene) { sc.Objects[0].Pose.Position[1] += 0.01 })
	}
	if n := len(a.History.undo); n != historyLimit {
		t.Fatalf("undo stack %d, want %d", n, historyLimit)
	}
}
