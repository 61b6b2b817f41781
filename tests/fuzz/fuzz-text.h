/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz-text.h - for the differential targets (fuzz_ksyms.c, fuzz_cmdlines.c):
 * the input as the C string libtraceevent's parsers read, and its handles.
 */
#ifndef TM_FUZZ_TEXT_H
#define TM_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

/*
 * A NUL-terminated copy of the input, and two fresh handles; NULL (nothing
 * made) when the input holds a NUL, as libtraceevent would read only up to it.
 */
static inline char *fuzz_text(const uint8_t *data, size_t size, struct tep_handle **a,
			      struct tep_handle **b)
{
	char *text;

	if (memchr(data, '\0', size))
		return NULL;
	text = malloc(size + 1);
	*a = tep_alloc();
	*b = tep_alloc();
	if (!text || !*a || !*b)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

#endif /* TM_FUZZ_TEXT_H */
