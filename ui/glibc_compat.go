package ui

// cimgui-go's prebuilt cimgui.a was compiled against glibc >= 2.38, where
// sscanf is redirected to __isoc23_sscanf. Older glibc (Debian 12 has 2.36)
// lacks that symbol, so the link fails; this weak forwarder to vsscanf
// supplies it and yields to the real one where glibc has it.

/*
#include <stdarg.h>
#include <stdio.h>

__attribute__((weak)) int __isoc23_sscanf(const char *s, const char *format, ...) {
	va_list ap;
	va_start(ap, format);
	int n = vsscanf(s, format, ap);
	va_end(ap);
	return n;
}
*/
import "C"
