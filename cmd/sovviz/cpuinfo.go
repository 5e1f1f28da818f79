package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"unicode"
)

// cpuModel names the processor the benchmark ran on, from /proc/cpuinfo
// on Linux ("" where it cannot tell): the same code's medians differ by
// about 1.5x between the project's development machines (README,
// Benchmarks), so a report that says where it ran is worth its line.
func cpuModel() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	return parseCPUInfo(string(b))
}

// parseCPUInfo returns the model name of the first processor block of the
// text of /proc/cpuinfo (up to its first blank line), with its family and
// model numbers when the name has no digit (a virtual machine's "AMD EPYC"
// covers four generations). The result is one line fit for a Markdown
// report: no control characters or '|', single spaces, trimmed.
func parseCPUInfo(text string) string {
	var name, family, model string
	seen := false // a key of the first block was read
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			if seen && strings.TrimSpace(line) == "" {
				break // the end of the first processor's block
			}
			continue
		}
		seen = true
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case k == "model name" && name == "":
			name = v
		case k == "cpu family" && family == "":
			family = v
		case k == "model" && model == "":
			model = v
		}
	}
	name = clean(name)
	if name == "" {
		return ""
	}
	if isNumber(family) && isNumber(model) && !strings.ContainsAny(name, "0123456789") {
		name += " (family " + family + ", model " + model + ")"
	}
	return name
}

// clean makes s one report line: characters that do not print and '|'
// (which would break a Markdown line or table) become spaces, then runs of
// spaces one.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '|' || !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// isNumber reports whether s is a decimal number (cpuinfo's family and
// model fields).
func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}
