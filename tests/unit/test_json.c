// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_json.c - the printf-free pieces of report --json: decimal and hex
 * numbers at their limits, and JSON strings of raw bytes (control bytes,
 * invalid UTF-8, no NUL), checked against spelled-out answers and against
 * a printf-based reference on random bytes.
 */
#include <stdlib.h>

#include "util/json-str.h"
#include "print/print-buf.h"
#include "tm_test.h"

/* tm_put_u64 / tm_put_s64 / tm_put_hex of v as a C string. */
static const char *u64_text(char *out, uint64_t v)
{
	*tm_put_u64(out, v) = '\0';
	return out;
}

static const char *s64_text(char *out, int64_t v)
{
	*tm_put_s64(out, v) = '\0';
	return out;
}

static const char *hex_text(char *out, uint64_t v)
{
	*tm_put_hex(out, v) = '\0';
	return out;
}

TM_TEST(json_numbers_at_their_limits)
{
	char b[TM_NUM_MAX + 1];

	TM_CHECK_STR(u64_text(b, 0), "0");
	TM_CHECK_STR(u64_text(b, 9), "9");
	TM_CHECK_STR(u64_text(b, 10), "10");
	TM_CHECK_STR(u64_text(b, 99), "99");
	TM_CHECK_STR(u64_text(b, 100), "100");
	TM_CHECK_STR(u64_text(b, 1000000007), "1000000007");
	TM_CHECK_STR(u64_text(b, 9999999999999999999ULL), "9999999999999999999");
	TM_CHECK_STR(u64_text(b, 10000000000000000000ULL), "10000000000000000000");
	TM_CHECK_STR(u64_text(b, UINT64_MAX), "18446744073709551615");
	TM_CHECK_STR(s64_text(b, 0), "0");
	TM_CHECK_STR(s64_text(b, -1), "-1");
	TM_CHECK_STR(s64_text(b, -10), "-10");
	TM_CHECK_STR(s64_text(b, INT64_MAX), "9223372036854775807");
	TM_CHECK_STR(s64_text(b, INT64_MIN), "-9223372036854775808");
	TM_CHECK_STR(hex_text(b, 0), "0x0");
	TM_CHECK_STR(hex_text(b, 0xf), "0xf");
	TM_CHECK_STR(hex_text(b, 0x10), "0x10");
	TM_CHECK_STR(hex_text(b, 0xffffffff81000000ULL), "0xffffffff81000000");
	TM_CHECK_STR(hex_text(b, UINT64_MAX), "0xffffffffffffffff");
}

TM_TEST(json_numbers_match_printf)
{
	char b[TM_NUM_MAX + 1], want[32];
	uint64_t base = 1, v;
	int i, k;

	/* each power of two, then of ten, and their neighbours, both signs */
	for (k = 0; k < 64 + 20; k++) {
		base = k < 64 ? (uint64_t)1 << k : k == 64 ? 1 : base * 10;
		for (i = -1; i <= 1; i++) {
			v = base + (uint64_t)(int64_t)i;
			snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
			TM_CHECK_STR(u64_text(b, v), want);
			snprintf(want, sizeof(want), "%lld", (long long)v);
			TM_CHECK_STR(s64_text(b, (int64_t)v), want);
			snprintf(want, sizeof(want), "0x%llx", (unsigned long long)v);
			TM_CHECK_STR(hex_text(b, v), want);
		}
	}
}

/* tm_json_put_str of n bytes of s as a C string (out has room for TM_JSON_STR_MAX(n) + 1). */
static const char *str_text(char *out, const char *s, size_t n)
{
	*tm_json_put_str(out, s, n) = '\0';
	return out;
}

TM_TEST(json_strings_escape_what_json_forbids)
{
	char b[256];

	TM_CHECK_STR(str_text(b, "", 0), "\"\"");
	TM_CHECK_STR(str_text(b, "sched-pipe", 10), "\"sched-pipe\"");
	TM_CHECK_STR(str_text(b, "a\"b\\c", 5), "\"a\\\"b\\\\c\"");
	TM_CHECK_STR(str_text(b, "\n\t\r", 3), "\"\\n\\t\\u000d\"");
	TM_CHECK_STR(str_text(b, "\x01\x1f\x7f", 3), "\"\\u0001\\u001f\\u007f\"");
	TM_CHECK_STR(str_text(b, " ~/", 3), "\" ~/\"");
}

TM_TEST(json_strings_keep_valid_utf8_only)
{
	char b[256];

	/* valid 2, 3 and 4 byte sequences as they are */
	TM_CHECK_STR(str_text(b, "\xc2\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9),
		     "\"\xc2\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	/* lone continuation byte, bytes that start nothing */
	TM_CHECK_STR(str_text(b, "\x80\xbf\xc0\xc1\xf5\xff", 6),
		     "\"\\u0080\\u00bf\\u00c0\\u00c1\\u00f5\\u00ff\"");
	/* overlong forms */
	TM_CHECK_STR(str_text(b, "\xc0\xaf", 2), "\"\\u00c0\\u00af\"");
	TM_CHECK_STR(str_text(b, "\xe0\x80\x80", 3), "\"\\u00e0\\u0080\\u0080\"");
	TM_CHECK_STR(str_text(b, "\xf0\x80\x80\x80", 4), "\"\\u00f0\\u0080\\u0080\\u0080\"");
	/* a UTF-16 surrogate and a code point past U+10FFFF */
	TM_CHECK_STR(str_text(b, "\xed\xa0\x80", 3), "\"\\u00ed\\u00a0\\u0080\"");
	TM_CHECK_STR(str_text(b, "\xf4\x90\x80\x80", 4), "\"\\u00f4\\u0090\\u0080\\u0080\"");
	/* a sequence cut by the end of the bytes, or by a plain byte */
	TM_CHECK_STR(str_text(b, "\xe2\x82\xac", 2), "\"\\u00e2\\u0082\"");
	TM_CHECK_STR(str_text(b, "\xe2x\xac", 3), "\"\\u00e2x\\u00ac\"");
}

TM_TEST(json_strings_end_at_nul_or_n)
{
	char b[256];
	const char comm[16] = "0123456789abcdef";	/* a full char[16]: no NUL */

	TM_CHECK_STR(str_text(b, comm, sizeof(comm)), "\"0123456789abcdef\"");
	TM_CHECK_STR(str_text(b, comm, 4), "\"0123\"");
	TM_CHECK_STR(str_text(b, "ab\0cd", 5), "\"ab\"");
	TM_CHECK_STR(str_text(b, "\0ab", 3), "\"\"");
	/* a NUL ends a UTF-8 sequence too */
	TM_CHECK_STR(str_text(b, "\xe2\x82\0", 3), "\"\\u00e2\\u0082\"");
}

/*
 * The oracle: the well-formed UTF-8 byte sequences as the Unicode standard
 * tabulates them (Table 3-7), one row per lead byte range; the second byte's
 * range depends on the lead, the others are always 80..BF. Written from the
 * table, not from json-str.c's decoder, so a mistake in either shows.
 */
static const struct utf8_row {
	unsigned char	lead_lo, lead_hi, second_lo, second_hi, len;
} utf8_table[] = {
	{ 0xc2, 0xdf, 0x80, 0xbf, 2 },
	{ 0xe0, 0xe0, 0xa0, 0xbf, 3 },
	{ 0xe1, 0xec, 0x80, 0xbf, 3 },
	{ 0xed, 0xed, 0x80, 0x9f, 3 },
	{ 0xee, 0xef, 0x80, 0xbf, 3 },
	{ 0xf0, 0xf0, 0x90, 0xbf, 4 },
	{ 0xf1, 0xf3, 0x80, 0xbf, 4 },
	{ 0xf4, 0xf4, 0x80, 0x8f, 4 },
};

static size_t ref_utf8_len(const unsigned char *s, size_t n)
{
	for (size_t r = 0; r < sizeof(utf8_table) / sizeof(utf8_table[0]); r++) {
		const struct utf8_row *t = &utf8_table[r];

		if (s[0] < t->lead_lo || s[0] > t->lead_hi)
			continue;
		if (n < t->len || s[1] < t->second_lo || s[1] > t->second_hi)
			return 0;
		for (size_t k = 2; k < t->len; k++)
			if (s[k] < 0x80 || s[k] > 0xbf)
				return 0;
		return t->len;
	}
	return 0;
}

/* Hand-made cases at the table's edges, with the JSON text they must give. */
TM_TEST(json_strings_keep_exactly_the_well_formed_utf8)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "\xc2\x80", "\"\xc2\x80\"" },			/* U+0080, the first 2-byte */
		{ "\xc1\xbf", "\"\\u00c1\\u00bf\"" },		/* overlong U+007F */
		{ "\xdf\xbf", "\"\xdf\xbf\"" },			/* U+07FF */
		{ "\xe0\x9f\xbf", "\"\\u00e0\\u009f\\u00bf\"" },	/* overlong U+07FF */
		{ "\xe0\xa0\x80", "\"\xe0\xa0\x80\"" },		/* U+0800 */
		{ "\xed\x9f\xbf", "\"\xed\x9f\xbf\"" },		/* U+D7FF */
		{ "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" },	/* U+D800, a surrogate */
		{ "\xef\xbf\xbf", "\"\xef\xbf\xbf\"" },		/* U+FFFF */
		{ "\xf0\x8f\xbf\xbf", "\"\\u00f0\\u008f\\u00bf\\u00bf\"" }, /* overlong */
		{ "\xf0\x90\x80\x80", "\"\xf0\x90\x80\x80\"" },	/* U+10000 */
		{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },	/* U+10FFFF */
		{ "\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"" }, /* past it */
		{ "\xe2\x82", "\"\\u00e2\\u0082\"" },		/* cut short */
		{ "a\"\\\n\t\x01\x7f", "\"a\\\"\\\\\\n\\t\\u0001\\u007f\"" },
	};
	char got[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *end = tm_json_put_str(got, cases[i].in, strlen(cases[i].in));

		*end = '\0';
		TM_CHECK_STR(got, cases[i].want);
	}
}

static size_t ref_json_str(char *o, const unsigned char *p, size_t n)
{
	size_t i = 0, u, len = 0;

	o[len++] = '"';
	while (i < n && p[i]) {
		unsigned char c = p[i];

		if (c == '"' || c == '\\')
			len += (size_t)sprintf(o + len, "\\%c", c);
		else if (c == '\n')
			len += (size_t)sprintf(o + len, "\\n");
		else if (c == '\t')
			len += (size_t)sprintf(o + len, "\\t");
		else if (c < 0x20 || c == 0x7f)
			len += (size_t)sprintf(o + len, "\\u%04x", c);
		else if (c < 0x80)
			o[len++] = (char)c;
		else if ((u = ref_utf8_len(p + i, n - i))) {
			memcpy(o + len, p + i, u);
			len += u;
			i += u;
			continue;
		} else {
			len += (size_t)sprintf(o + len, "\\u%04x", c);
		}
		i++;
	}
	o[len++] = '"';
	return len;
}

TM_TEST(json_strings_match_the_table_reference)
{
	static const unsigned char pool[] = {
		'a', 'Z', ' ', '"', '\\', '\n', '\t', 0x01, 0x7f, 0x80, 0xbf, 0xc2, 0xa9,
		0xe2, 0x82, 0xac, 0xed, 0xa0, 0xf0, 0x9f, 0x98, 0xf4, 0x90, 0xff, 0x00,
	};
	unsigned char in[64];
	char got[TM_JSON_STR_MAX(64) + 8], want[TM_JSON_STR_MAX(64) + 8];
	unsigned int seed = 12345;
	size_t n, i, glen, wlen;
	int round, bad = 0;

	for (round = 0; round < 20000; round++) {
		n = (size_t)(rand_r(&seed) % 65);
		for (i = 0; i < n; i++)
			in[i] = rand_r(&seed) % 4 ? pool[rand_r(&seed) % sizeof(pool)]
						  : (unsigned char)rand_r(&seed);
		glen = (size_t)(tm_json_put_str(got, (const char *)in, n) - got);
		wlen = ref_json_str(want, in, n);
		if (glen > TM_JSON_STR_MAX(n) || glen != wlen || memcmp(got, want, wlen))
			bad++;
	}
	TM_CHECK_INT(bad, 0);
	/* the worst case fills the room exactly */
	memset(in, 0x01, sizeof(in));
	TM_CHECK_INT(tm_json_put_str(got, (const char *)in, sizeof(in)) - got,
		     TM_JSON_STR_MAX(sizeof(in)));
}
