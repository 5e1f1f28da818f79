package main

import (
	"strings"
	"testing"
)

func TestParseCPUInfo(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"vague name gets family and model", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n\nprocessor\t: 1\nmodel name\t: other\n", "AMD EPYC (family 25, model 1)"},
		{"numbered name as is", "processor\t: 0\ncpu family\t: 6\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R) Platinum 8175M CPU @ 2.50GHz\n", "Intel(R) Xeon(R) Platinum 8175M CPU @ 2.50GHz"},
		{"first processor only", "model name\t: A\n\nmodel name\t: B\n", "A"},
		{"blanks collapsed", "model name\t:   Some   CPU  9  \n", "Some CPU 9"},
		{"no model name (arm64)", "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n", ""},
		{"empty", "", ""},
		{"table-breaking bar", "model name\t: X|Y 1\n", "X Y 1"},
	} {
		if got := parseCPUInfo(c.text); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func FuzzParseCPUInfo(f *testing.F) {
	f.Add("model name\t: AMD EPYC\ncpu family\t: 25\nmodel\t: 1\n")
	f.Add("processor: 0\n\nmodel name: x")
	f.Fuzz(func(t *testing.T, text string) {
		got := parseCPUInfo(text)
		if strings.ContainsAny(got, "\n\r|") {
			t.Fatalf("%q: %q breaks a report line", text, got)
		}
	})
}
