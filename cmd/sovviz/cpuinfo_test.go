package main

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestParseCPUInfo(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"vague name gets family and model", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n\nprocessor\t: 1\nmodel name\t: other\n", "AMD EPYC (family 25, model 1)"},
		{"numbered name as is", "processor\t: 0\ncpu family\t: 6\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R) Platinum 8175M CPU @ 2.50GHz\n", "Intel(R) Xeon(R) Platinum 8175M CPU @ 2.50GHz"},
		{"first processor only", "model name\t: A\n\nmodel name\t: B\n", "A"},
		{"no name in the first block", "processor\t: 0\n\nmodel name\t: B\n", ""},
		{"leading blank lines", "\n\nmodel name\t: A\n", "A"},
		{"blanks collapsed", "model name\t:   Some   CPU  9  \n", "Some CPU 9"},
		{"no model name (arm64)", "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n", ""},
		{"empty", "", ""},
		{"table-breaking bar", "model name\t: X | Y 1\n", "X Y 1"},
		{"control characters", "model name\t: A\x01\x02B 1\r\n", "A B 1"},
		{"only a bar", "model name\t: |\ncpu family\t: 25\nmodel\t: 1\n", ""},
		{"bar at the end", "model name\t: A|\ncpu family\t: 25\nmodel\t: 1\n", "A (family 25, model 1)"},
		// The fuzz test's find: a family that is no number is left out.
		{"family not a number", "model name:A\ncpu family:|\nmodel:0", "A"},
		{"a C1 control character", "model name:\u0090A 1", "A 1"},
		{"family with a return", "model name\t: AMD EPYC\ncpu family\t: 2\r5\nmodel\t: 1\n", "AMD EPYC"},
	} {
		if got := parseCPUInfo(c.text); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func FuzzParseCPUInfo(f *testing.F) {
	f.Add("model name\t: AMD EPYC\ncpu family\t: 25\nmodel\t: 1\n")
	f.Add("processor: 0\n\nmodel name: x")
	f.Add("model name:A\ncpu family:|\nmodel:0")
	f.Fuzz(func(t *testing.T, text string) {
		got := parseCPUInfo(text)
		if !utf8.ValidString(got) || got != strings.TrimSpace(got) || strings.Contains(got, "  ") || strings.ContainsRune(got, '|') ||
			strings.IndexFunc(got, unicode.IsControl) >= 0 {
			t.Fatalf("%q: %q is not one clean report line", text, got)
		}
	})
}
