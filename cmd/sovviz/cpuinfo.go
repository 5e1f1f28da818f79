package main

import (
	"os"
	"runtime"
	"strings"
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

// parseCPUInfo returns the first processor's model name from the text of
// /proc/cpuinfo, with its family and model numbers when the name alone is
// vague (a virtual machine's "AMD EPYC" covers four generations).
func parseCPUInfo(text string) string {
	var name, family, model string
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			if strings.TrimSpace(line) == "" && name != "" {
				break // the end of the first processor's block
			}
			continue
		}
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
	name = strings.Join(strings.Fields(name), " ") // runs of blanks, as some kernels pad
	name = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == '|' {
			return ' ' // nothing that breaks a Markdown line or table
		}
		return r
	}, name)
	if name == "" {
		return ""
	}
	if family != "" && model != "" && !strings.ContainsAny(name, "0123456789") {
		name += " (family " + family + ", model " + model + ")"
	}
	return name
}
