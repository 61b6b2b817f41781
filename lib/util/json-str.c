// SPDX-License-Identifier: GPL-2.0-only
/*
 * json-str.c - JSON strings of raw record bytes (task names, char arrays,
 * __data_loc strings, symbols): plain ASCII is copied in one tight loop,
 * everything else byte by byte, so any record yields valid JSON.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "json-str.h"

/* Bytes copied as they are: printable ASCII but '"' (0x22) and '\\' (0x5c). */
static const uint8_t plain[256] = {
	[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7e] = 1,
};

/* Length of a valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = s[0] & (0x3f >> (len - 1));
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and code points past U+10FFFF */
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

/*
 * Whether all 8 bytes of w are plain, without a branch per byte: none below
 * 0x20 (NUL included), none above 0x7e, none '"' or '\\'. Each test sets
 * the high bit of some byte exactly when some byte fails it.
 */
static inline bool plain_word(uint64_t w)
{
	uint64_t low = (w - ONES * 0x20) & ~w;
	uint64_t high = (w + ONES * (127 - 126)) | w;
	uint64_t q = w ^ (ONES * '"'), bs = w ^ (ONES * '\\');

	return !(((low | high) & HIGHS) | ((q - ONES) & ~q & HIGHS) |
		 ((bs - ONES) & ~bs & HIGHS));
}

/* One byte that is not plain and starts no UTF-8 sequence. */
static char *put_escaped(char *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	*o++ = '\\';
	switch (c) {
	case '"':
	case '\\':
		*o++ = (char)c;
		return o;
	case '\n':
		*o++ = 'n';
		return o;
	case '\t':
		*o++ = 't';
		return o;
	}
	memcpy(o, "u00", 3);
	o[3] = hex[c >> 4];
	o[4] = hex[c & 15];
	return o + 5;
}

char *tm_json_put_str(char *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, u;

	*o++ = '"';
	for (;;) {
		for (; n - i >= 8; i += 8, o += 8) {
			uint64_t w;

			memcpy(&w, p + i, 8);
			if (!plain_word(w))
				break;
			memcpy(o, &w, 8);
		}
		while (i < n && plain[p[i]])
			*o++ = (char)p[i++];
		if (i == n || !p[i])
			break;
		u = p[i] >= 0x80 ? utf8_len(p + i, n - i) : 0;
		if (u) {
			memcpy(o, p + i, u);
			o += u;
			i += u;
		} else {
			o = put_escaped(o, p[i++]);
		}
	}
	*o++ = '"';
	return o;
}
