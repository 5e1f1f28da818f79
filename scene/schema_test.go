package scene

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// schemaPath is the JSON Schema published for users.
const schemaPath = "../docs/scene.schema.json"

// validator checks a JSON value against the subset of JSON Schema the scene
// schema uses: type, enum, required, properties, additionalProperties
// (false), items, minItems, maxItems, minimum, maximum, exclusiveMinimum,
// minLength, maxLength and local $ref. Unknown keywords fail the test, so
// the schema cannot silently use something this validator ignores.
type validator struct {
	root map[string]any
}

var knownKeywords = map[string]bool{
	"$schema": true, "$id": true, "$defs": true, "$ref": true, "title": true, "description": true,
	"type": true, "enum": true, "required": true, "properties": true, "additionalProperties": true,
	"items": true, "minItems": true, "maxItems": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "minLength": true, "maxLength": true,
}

func loadSchema(t testing.TB) *validator {
	t.Helper()
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatalf("%s: %v", schemaPath, err)
	}
	return &validator{root: root}
}

// validate returns the violations of v against schema s at path p.
func (vd *validator) validate(s map[string]any, v any, p string) []string {
	var errs []string
	bad := func(format string, args ...any) {
		errs = append(errs, p+": "+fmt.Sprintf(format, args...))
	}
	for k := range s {
		if !knownKeywords[k] {
			bad("schema uses keyword %q unknown to the test validator", k)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		target, err := vd.resolve(ref)
		if err != nil {
			bad("%v", err)
		} else {
			errs = append(errs, vd.validate(target, v, p)...)
		}
	}
	if typ, ok := s["type"].(string); ok && !hasType(v, typ) {
		bad("%v is not of type %s", v, typ)
		return errs
	}
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				found = true
			}
		}
		if !found {
			bad("%v not in enum %v", v, enum)
		}
	}
	switch x := v.(type) {
	case float64:
		if m, ok := s["minimum"].(float64); ok && x < m {
			bad("%v < minimum %v", x, m)
		}
		if m, ok := s["maximum"].(float64); ok && x > m {
			bad("%v > maximum %v", x, m)
		}
		if m, ok := s["exclusiveMinimum"].(float64); ok && x <= m {
			bad("%v <= exclusiveMinimum %v", x, m)
		}
	case string:
		if m, ok := s["minLength"].(float64); ok && float64(len([]rune(x))) < m {
			bad("length < %v", m)
		}
		if m, ok := s["maxLength"].(float64); ok && float64(len([]rune(x))) > m {
			bad("length > %v", m)
		}
	case []any:
		if m, ok := s["minItems"].(float64); ok && float64(len(x)) < m {
			bad("%d items < minItems %v", len(x), m)
		}
		if m, ok := s["maxItems"].(float64); ok && float64(len(x)) > m {
			bad("%d items > maxItems %v", len(x), m)
		}
		if is, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				errs = append(errs, vd.validate(is, e, fmt.Sprintf("%s[%d]", p, i))...)
			}
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, ok := x[r.(string)]; !ok {
					bad("missing required %q", r)
				}
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, ok := props[k].(map[string]any)
			if !ok {
				if ap, set := s["additionalProperties"].(bool); set && !ap {
					bad("additional property %q", k)
				}
				continue
			}
			errs = append(errs, vd.validate(ps, x[k], p+"."+k)...)
		}
	}
	return errs
}

func (vd *validator) resolve(ref string) (map[string]any, error) {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return nil, fmt.Errorf("unsupported $ref %q", ref)
	}
	defs, _ := vd.root["$defs"].(map[string]any)
	d, ok := defs[name].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("$ref %q not found", ref)
	}
	return d, nil
}

func hasType(v any, typ string) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	}
	return false
}

func (vd *validator) check(data []byte) []string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return []string{err.Error()}
	}
	return vd.validate(vd.root, v, "$")
}

// exampleFiles returns scenes/*.json.
func exampleFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../scenes/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("expected at least 4 example scenes in ../scenes, found %v", files)
	}
	return files
}

// TestSchemaValidatesScenes: every example, the default scene and the
// canonical output of Marshal validate against the published schema.
func TestSchemaValidatesScenes(t *testing.T) {
	vd := loadSchema(t)
	inputs := map[string][]byte{"default.json": defaultJSON}
	for _, f := range exampleFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = data
	}
	for name, data := range inputs {
		for _, e := range vd.check(data) {
			t.Errorf("%s: %s", name, e)
		}
		s, err := Parse(data, name)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range vd.check(out) {
			t.Errorf("Marshal(%s): %s", name, e)
		}
	}
	// Random scenes cover the fields the examples leave at one value.
	for i := 0; i < 50; i++ {
		out, err := Marshal(randomScene(int64(i)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range vd.check(out) {
			t.Errorf("random scene %d: %s", i, e)
		}
	}
}

// TestSchemaAgreesOnBadFiles: the validator is not vacuous — files the
// schema can judge (types, ranges, unknown fields, missing fields) are
// rejected by both the schema and the loader.
func TestSchemaAgreesOnBadFiles(t *testing.T) {
	vd := loadSchema(t)
	for _, tc := range errorCases {
		if !tc.schema {
			continue
		}
		data := []byte(tc.file)
		if _, err := Parse(data, "x.json"); err == nil {
			t.Errorf("%s: loader accepted it", tc.name)
		}
		if len(vd.check(data)) == 0 {
			t.Errorf("%s: schema accepted it", tc.name)
		}
	}
}
