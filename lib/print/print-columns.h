/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-columns.h - the writers of a text line's fixed columns (task, pid,
 * CPU, time, buffer name): padded text, integers, zero-filled digits and the
 * time column's seconds. Each writes at o, which has room for the line (the
 * printer reserved it), and returns the end. Inline: they run for every
 * event. Private to the printer (print.c).
 */
#ifndef TM_PRINT_COLUMNS_H
#define TM_PRINT_COLUMNS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "print-buf.h"

/* Append s right-aligned (width > 0) or left-aligned (width < 0) in |width| columns. */
static inline char *tm_col_padded(char *o, const char *s, size_t len, int width)
{
	size_t w = (size_t)(width < 0 ? -width : width);

	if (width > 0)
		for (; w > len; w--)
			*o++ = ' ';
	tm_copy_small(o, s, len);
	o += len;
	if (width < 0)
		for (; w > len; w--)
			*o++ = ' ';
	return o;
}

static inline char *tm_col_uint(char *o, uint64_t v, int width)
{
	char tmp[24], *s = tm_utoa_end(v, tmp + sizeof(tmp));

	return tm_col_padded(o, s, (size_t)(tmp + sizeof(tmp) - s), width);
}

static inline char *tm_col_int(char *o, int64_t v, int width)
{
	char tmp[24], *s;

	if (v >= 0)
		return tm_col_uint(o, (uint64_t)v, width);
	s = tm_utoa_end((uint64_t)0 - (uint64_t)v, tmp + sizeof(tmp));
	*--s = '-';
	return tm_col_padded(o, s, (size_t)(tmp + sizeof(tmp) - s), width);
}

/* The last n digits of v, zero-filled, two at a time (32-bit divisions are cheaper). */
static inline char *tm_col_zeroed(char *o, uint32_t v, int n)
{
	char *e = o + n;

	for (; e - o >= 2; v /= 100) {
		e -= 2;
		memcpy(e, tm_digit_pair((unsigned int)(v % 100)), 2);
	}
	if (e > o)
		*--e = (char)('0' + v % 10);
	return o + n;
}

/* The seconds part of the time column as last printed. */
struct tm_secs_cache {
	uint64_t	secs;
	unsigned int	len;		/* 0: nothing yet */
	char		text[32];	/* "%5llu.": at most 21 bytes */
};

/* "%5llu." of the seconds, from the last line's text while they are the same (c may be NULL). */
static inline char *tm_col_seconds(struct tm_secs_cache *c, char *o, uint64_t secs)
{
	char *s;

	if (!c || c->secs != secs || !c->len) {
		s = tm_col_uint(c ? c->text : o, secs, 5);
		*s++ = '.';
		if (!c)
			return s;
		c->secs = secs;
		c->len = (unsigned int)(s - c->text);
	}
	memcpy(o, c->text, sizeof(c->text));	/* o has room: the caller reserved a line */
	return o + c->len;
}

/* t as seconds and prec decimals, or "%12llu" when it is not more than one second. */
static inline char *tm_col_fraction(struct tm_secs_cache *c, char *o, uint64_t t, uint64_t p10,
				    int prec)
{
	if (p10 < t)
		return tm_col_zeroed(tm_col_seconds(c, o, t / p10), (uint32_t)(t % p10), prec);
	return tm_col_uint(o, t, 12);
}

/* Copy n bytes in 8-byte words: both sides have room up to the next multiple of 8. */
static inline char *tm_col_words(char *d, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 8)
		__builtin_memcpy(d + i, s + i, 8);
	return d + n;
}

#endif /* TM_PRINT_COLUMNS_H */
