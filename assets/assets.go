// Package assets embeds the files the visualizer needs at run time (the GLSL
// shaders), so that the sovviz binary is self-contained.
package assets

import (
	"embed"
	"fmt"
)

//go:embed shaders/*
var shaders embed.FS

// Shader returns the source of the named shader file in assets/shaders.
func Shader(name string) (string, error) {
	b, err := shaders.ReadFile("shaders/" + name)
	if err != nil {
		return "", fmt.Errorf("assets: shader %q: %w", name, err)
	}
	return string(b), nil
}
