package scene

import (
	_ "embed"
	"fmt"
)

//go:embed default.json
var defaultJSON []byte

// DefaultName is the file name the built-in scene reports in errors.
const DefaultName = "built-in default scene"

// Default returns a fresh copy of the built-in scene (scene/default.json):
// three superovoids, one pair separated and one slightly overlapping, so
// that every contact overlay has something to show.
func Default() *Scene {
	s, err := Parse(defaultJSON, DefaultName)
	if err != nil {
		// The file is embedded at build time and checked by the tests.
		panic(fmt.Sprintf("scene: %v", err))
	}
	return s
}

// DefaultJSON returns the bytes of the built-in scene.
func DefaultJSON() []byte { return append([]byte(nil), defaultJSON...) }
