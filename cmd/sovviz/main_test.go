package main

import (
	"strings"
	"testing"
)

// Bad flags and commands exit 2 and say what is wrong exactly once.
func TestBadFlagsAndCommands(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-foo"}, "unknown flag -foo"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"query", "-timing", "abc"}, `invalid value "abc" for flag -timing`},
		{[]string{"bench", "-n", "x"}, `invalid value "x" for flag -n`},
		{[]string{"mesh", "-nope"}, "flag provided but not defined: -nope"},
		{[]string{"render", "-size"}, "flag needs an argument: -size"},
		{[]string{"query", "-method", "newton"}, `-method "newton"`},
	} {
		var out, errb strings.Builder
		code := dispatch(c.args, strings.NewReader(""), &out, &errb)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", c.args, code, errb.String())
		}
		if n := strings.Count(errb.String(), c.want); n != 1 {
			t.Errorf("%v: stderr says %q %d times, want once:\n%s", c.args, c.want, n, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%v: wrote to stdout: %q", c.args, out.String())
		}
	}
}
