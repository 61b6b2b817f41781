// SPDX-License-Identifier: GPL-2.0-only
/*
 * ksyms.c - the kernel symbol table: kallsyms lines checked and scanned in
 * place, 16 bytes per symbol, sorted at the first lookup, and libtraceevent's
 * function resolver. The kernel's own lines are read in one pass each, their
 * ends found with their names. libtraceevent 1.7.1 would copy the text
 * twice, scan each line with sscanf(), allocate three blocks per symbol and
 * sort 24-byte entries; its answers are kept exactly (which lines count, the order of
 * symbols sharing an address, the binary search that picks among them).
 */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ksyms.h"
#include "trace/tm-trace.h"

struct tm_ksym {
	uint64_t	addr;
	uint32_t	name;	/* offset of the NUL-terminated name in the text */
	uint32_t	mod;	/* offset of the module's name, 0: none */
};

struct tm_ksyms {
	char		*text;
	struct tm_ksym	*syms;
	size_t		n;
	bool		in_order;	/* addresses came non-decreasing */
	bool		sorted;
	/* a previous boot's addresses (ksyms-boot.c): the ranges that move, or none */
	struct tm_ksym_shift	*shifts;
	size_t		nshift;
	bool		other_boot;	/* addresses are a previous boot's */
};

/* One line as tep_parse_kallsyms() scans it: offsets into the line. */
struct ksym_line {
	unsigned long long	addr;
	char			type;
	size_t			name, name_end;
	size_t			mod, mod_end;	/* mod_end 0: no module */
};

/* Hex digit values plus one; 0 for bytes that are not hex digits. */
#define HEX(c, v)	[c] = (v) + 1
static const uint8_t hex_plus1[256] = {
	HEX('0', 0), HEX('1', 1), HEX('2', 2), HEX('3', 3), HEX('4', 4), HEX('5', 5),
	HEX('6', 6), HEX('7', 7), HEX('8', 8), HEX('9', 9),
	HEX('a', 10), HEX('b', 11), HEX('c', 12), HEX('d', 13), HEX('e', 14), HEX('f', 15),
	HEX('A', 10), HEX('B', 11), HEX('C', 12), HEX('D', 13), HEX('E', 14), HEX('F', 15),
};

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

/* The high bit of each byte of w (all below 0x80) that lies in [lo, hi]: no carries cross. */
static uint64_t bytes_in(uint64_t w, unsigned int lo, unsigned int hi)
{
	return (w + ONES * (0x80 - lo)) & ~(w + ONES * (0x7f - hi)) & HIGHS;
}

/* 8 hex digits at once (what hex_plus1 accepts); false unless all 8 are. */
static bool hex8(const char *s, uint32_t *v)
{
	uint64_t w, n;

	memcpy(&w, s, 8);
	w = le64toh(w);		/* s[0], the first digit, in the low byte */
	if ((w & HIGHS) ||
	    (bytes_in(w, '0', '9') | bytes_in(w | ONES * 0x20, 'a', 'f')) != HIGHS)
		return false;
	/* digit values: low nibble, +9 for letters (bit 6) */
	n = (w & ONES * 0x0f) + ((w >> 6) & ONES) * 9;
	/* pack: pairs of bytes, then of 16-bit and 32-bit halves, first digit on top */
	n = ((n << 4) | (n >> 8)) & 0x00ff00ff00ff00ffULL;
	n = ((n << 8) | (n >> 16)) & 0x0000ffff0000ffffULL;
	*v = (uint32_t)((n << 16) | (n >> 32));
	return true;
}

/* The 16 digits of a 64-bit kernel's address; false unless all are hex digits. */
static bool hex16(const char *s, unsigned long long *v)
{
	uint32_t hi, lo;

	if (!hex8(s, &hi) || !hex8(s + 8, &lo))
		return false;
	*v = (unsigned long long)hi << 32 | lo;
	return true;
}

/*
 * White space is that of the C locale (tracemap never calls setlocale()),
 * as sscanf() sees it: all of it is below 0x21.
 */
static size_t skip_space(const char *s, size_t i, size_t len)
{
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	return i;
}

/* Index of the first byte below 0x21 in s[i, len), or len: 8 bytes at a time. */
static inline size_t find_low_byte(const char *s, size_t i, size_t len)
{
	uint64_t w, m;

	while (len - i >= 8) {
		memcpy(&w, s + i, 8);
		w = le64toh(w);		/* s[i] in the low byte */
		/* exact up to the first such byte: a borrow needs one below it */
		m = (w - ONES * 0x21) & ~w & HIGHS;
		if (m)
			return i + (size_t)__builtin_ctzll(m) / 8;
		i += 8;
	}
	while (i < len && (unsigned char)s[i] >= 0x21)
		i++;
	return i;
}

/* Past the word at i: to the first byte below 0x21 that is white space too. */
static size_t skip_word(const char *s, size_t i, size_t len)
{
	i = find_low_byte(s, i, len);
	while (i < len && !isspace((unsigned char)s[i]))
		i = find_low_byte(s, i + 1, len);
	return i;
}

/*
 * A module after the name: a tab, '[', then a word (leading white space
 * skipped but kept) whose last byte (the ']') is cut off.
 */
static void scan_module(const char *s, size_t len, struct ksym_line *l)
{
	size_t i = l->name_end, word, end;

	l->mod_end = 0;
	if (i + 1 >= len || s[i] != '\t' || s[i + 1] != '[')
		return;
	word = skip_space(s, i + 2, len);
	end = skip_word(s, word, len);
	if (end > word) {
		l->mod = i + 2;
		l->mod_end = end;
	}
}

/*
 * "ADDR T NAME..." the way the kernel writes it (at most 16 hex digits, one
 * space, a letter, one space, the name): what the sscanf() below reads of
 * it, much faster. False for any other line.
 */
static bool scan_plain(const char *s, size_t len, struct ksym_line *l)
{
	unsigned long long v = 0;
	size_t i = 0;
	unsigned int d;

	if (len > 16 && s[16] == ' ' && hex16(s, &v))
		i = 16;
	while (i < len && i < 16 && (d = hex_plus1[(unsigned char)s[i]])) {
		v = v << 4 | (d - 1);
		i++;
	}
	if (!i || i + 3 >= len || s[i] != ' ' || !isalpha((unsigned char)s[i + 1]) ||
	    s[i + 2] != ' ' || isspace((unsigned char)s[i + 3]))
		return false;
	l->addr = v;
	l->type = s[i + 1];
	l->name = i + 3;
	l->name_end = skip_word(s, l->name, len);
	scan_module(s, len, l);
	return true;
}

/* Any other line (NUL-terminated): libtraceevent's own scan, so odd lines read the same. */
static bool scan_odd(const char *s, struct ksym_line *l)
{
	int name = 0, name_end = 0, mod = 0, mod_end = 0, n;

	errno = 0;
	n = sscanf(s, "%16llx %c %n%*s%n%*1[\t][%n%*s%n", &l->addr, &l->type, &name, &name_end,
		   &mod, &mod_end);
	if (errno || n != 2 || !name_end)
		return false;
	l->name = (size_t)name;
	l->name_end = (size_t)name_end;
	l->mod = (size_t)mod;
	l->mod_end = (size_t)mod_end;
	return true;
}

/* libtraceevent leaves out ARM's '$' mapping symbols and absolute (per-CPU) ones. */
static bool kept(const char *line, const struct ksym_line *l)
{
	return line[l->name] != '$' && l->type != 'A' && l->type != 'a';
}

/* Keep the line scanned at pos (name and module NUL-terminated) unless libtraceevent drops it. */
static void add_sym(struct tm_ksyms *k, size_t pos, const struct ksym_line *l, size_t cap)
{
	char *line = k->text + pos;
	struct tm_ksym *s;

	if (!kept(line, l) || k->n == cap)	/* cap bounds the lines: never full */
		return;
	line[l->name_end] = '\0';
	s = &k->syms[k->n++];
	s->addr = l->addr;
	s->name = (uint32_t)(pos + l->name);
	s->mod = 0;
	if (l->mod_end) {
		line[l->mod_end - 1] = '\0';
		s->mod = (uint32_t)(pos + l->mod);
	}
	if (k->n > 1 && s->addr < s[-1].addr)
		k->in_order = false;
}

/* Scan the line at pos (len bytes, no '\n', no NUL): why it is dropped, or NULL. */
static const char *add_line(struct tm_ksyms *k, size_t pos, size_t len, size_t cap)
{
	char *line = k->text + pos;
	struct ksym_line l;

	line[len] = '\0';	/* its '\n', or the text's NUL */
	if (!scan_plain(line, len, &l) && !scan_odd(line, &l))
		return "not \"ADDRESS TYPE NAME\"";
	add_sym(k, pos, &l, cap);
	return NULL;
}

static bool is_letter(char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26;
}

/*
 * Nearly every line is the kernel's "ADDR T NAME\n": 16 hex digits, a
 * letter between single spaces, a name of bytes above 0x20. Such a line is
 * read in one pass, its end found with its name, as scan_lines() and
 * add_line() would read it. Returns the bytes taken (with the '\n'); 0 for
 * any other line (a module, a short address, odd white space, the last
 * line without '\n'), which then goes the general way.
 */
static size_t add_kernel_line(struct tm_ksyms *k, size_t pos, size_t rest, size_t cap)
{
	char *line = k->text + pos;
	struct ksym_line l;

	if (rest < 21 || line[16] != ' ' || !is_letter(line[17]) || line[18] != ' ' ||
	    (unsigned char)line[19] < 0x21 || !hex16(line, &l.addr))
		return 0;
	l.name_end = find_low_byte(line, 19, rest);
	if (l.name_end == rest || line[l.name_end] != '\n')
		return 0;
	l.type = line[17];
	l.name = 19;
	l.mod_end = 0;
	line[l.name_end] = '\0';
	add_sym(k, pos, &l, cap);
	return l.name_end + 1;
}

/* Each line once; empty and all-NUL lines go silently, as in meta-check.c. */
static void scan_lines(struct tm_ksyms *k, struct tm_blob b, size_t cap,
		       const struct tm_meta_warn *w)
{
	size_t pos = 0;

	while (pos < b.len) {
		size_t taken = add_kernel_line(k, pos, b.len - pos, cap);
		char *line = k->text + pos, *nl;
		const char *why;
		size_t len;
		bool nul;

		if (taken) {
			pos += taken;
			continue;
		}
		nl = memchr(line, '\n', b.len - pos);
		len = nl ? (size_t)(nl - line) : b.len - pos;
		nul = memchr(line, '\0', len) != NULL;
		if (!len || (nul && tm_meta_all_nul(line, len)))
			why = NULL;
		else if (nul)
			why = "NUL byte inside";
		else
			why = add_line(k, pos, len, cap);
		if (why)
			tm_meta_warn_line(w, "kallsyms", b, pos, why);
		pos += len + 1;
	}
}

struct tm_ksyms *tm_ksyms_new(char *text, struct tm_blob b, const struct tm_meta_warn *w)
{
	struct tm_ksyms *k = calloc(1, sizeof(*k));
	/* a kept line takes 3 bytes and a '\n'; room never touched costs no memory */
	size_t cap = b.len / 4 + 1;
	char where[160];

	if (!k)
		goto nomem;
	k->text = text;
	k->in_order = true;
	if (b.len >= UINT32_MAX) {
		tm_meta_where(where, sizeof(where), "kallsyms", b, 0);
		tm_failx(EFBIG, "%s: %zu bytes, more than a symbol table holds", where, b.len);
		goto fail;
	}
	k->syms = tm_alloc_big(cap * sizeof(*k->syms));
	if (!k->syms)
		goto nomem;
	scan_lines(k, b, cap, w);
	return k;
nomem:
	tm_fail(ENOMEM, "kallsyms");
fail:
	if (!k)
		free(text);
	tm_ksyms_free(k);
	return NULL;
}

void tm_ksyms_free(struct tm_ksyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->shifts);
	free(k->text);
	free(k);
}

size_t tm_ksyms_count(const struct tm_ksyms *k)
{
	return k->n;
}

/*
 * libtraceevent prepends each symbol to a list, then sorts the array made
 * from it by address with glibc's stable merge sort: at one address the
 * later line comes first.
 */
static int ksym_cmp(const void *a, const void *b)
{
	const struct tm_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name > y->name ? -1 : x->name < y->name;
}

/* Lines in address order (the kernel's) only need each run of one address reversed. */
static void ksyms_sort(struct tm_ksyms *k)
{
	size_t i = 0, j;

	k->sorted = true;
	if (!k->in_order) {
		qsort(k->syms, k->n, sizeof(*k->syms), ksym_cmp);
		return;
	}
	while (i < k->n) {
		for (j = i + 1; j < k->n && k->syms[j].addr == k->syms[i].addr; j++)
			;
		for (size_t a = i, b = j - 1; a < b; a++, b--) {
			struct tm_ksym t = k->syms[a];

			k->syms[a] = k->syms[b];
			k->syms[b] = t;
		}
		i = j;
	}
}

/*
 * libtraceevent's search: glibc's bsearch() over the sorted symbols with a
 * comparison that matches addr equal to a symbol's address, or between it
 * and the next one's (0 after the last symbol). Among symbols sharing an
 * address the probe order picks one, so the steps are the same here.
 */
static const struct tm_ksym *ksyms_search(const struct tm_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n, i;

	while (lo < hi) {
		const struct tm_ksym *s;
		uint64_t next;

		i = (lo + hi) / 2;
		s = &k->syms[i];
		next = i + 1 < k->n ? s[1].addr : 0;
		if (addr == s->addr || (addr > s->addr && addr < next))
			return s;
		if (addr < s->addr)
			hi = i;
		else
			lo = i + 1;
	}
	return NULL;
}

static const char *ksym_parts(const struct tm_ksyms *k, const struct tm_ksym *s,
			      uint64_t *addr, const char **mod)
{
	if (addr)
		*addr = s->addr;
	if (mod)
		*mod = s->mod ? k->text + s->mod : NULL;
	return k->text + s->name;
}

static const struct tm_ksym *ksyms_lookup(struct tm_ksyms *k, uint64_t addr)
{
	if (!k->sorted)
		ksyms_sort(k);
	return ksyms_search(k, addr);
}

const char *tm_ksyms_find(struct tm_ksyms *k, uint64_t addr, uint64_t *start, const char **mod)
{
	const struct tm_ksym *s = ksyms_lookup(k, addr);

	return s ? ksym_parts(k, s, start, mod) : NULL;
}

const char *tm_ksyms_at(struct tm_ksyms *k, size_t i, uint64_t *addr, const char **mod)
{
	if (!k->sorted)
		ksyms_sort(k);
	return i < k->n ? ksym_parts(k, &k->syms[i], addr, mod) : NULL;
}

/* The shift of the range holding addr (an address of the boot that wrote the trace). */
static bool ksyms_shift_of(const struct tm_ksyms *k, uint64_t addr, int64_t *delta)
{
	for (size_t i = 0; i < k->nshift; i++) {
		if (addr >= k->shifts[i].lo && addr < k->shifts[i].hi) {
			*delta = k->shifts[i].delta;
			return true;
		}
	}
	return false;
}

int tm_ksyms_other_boot(struct tm_ksyms *k, const struct tm_ksym_shift *shifts, size_t n)
{
	struct tm_ksym_shift *c = NULL;

	if (n) {
		c = malloc(n * sizeof(*c));
		if (!c)
			return tm_fail(ENOMEM, "kallsyms of the previous boot");
		memcpy(c, shifts, n * sizeof(*c));
	}
	free(k->shifts);
	k->shifts = c;
	k->nshift = n;
	k->other_boot = true;
	return 0;
}

/*
 * tep_func_resolver_t: *addrp in, the symbol's start out, *modp its module
 * (libtraceevent set it to NULL before the call). In a trace of a previous
 * boot an address is moved by its range's shift first and the start moved
 * back, so that offsets stay right; an address in no range has no symbol. The strings live in the
 * table's text, so they stay valid as long as the table.
 */
static char *ksyms_resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct tm_ksyms *k = priv;
	const struct tm_ksym *s;
	int64_t delta = 0;

	if (k->other_boot && !ksyms_shift_of(k, *addrp, &delta))
		return NULL;
	s = ksyms_lookup(k, *addrp + (uint64_t)delta);
	if (!s)
		return NULL;
	*addrp = s->addr - (uint64_t)delta;
	if (s->mod)
		*modp = k->text + s->mod;
	return k->text + s->name;
}

int tm_ksyms_attach(struct tm_ksyms *k, struct tep_handle *tep)
{
	if (tep_set_function_resolver(tep, ksyms_resolve, k))
		return tm_fail(ENOMEM, "kallsyms resolver");
	return 0;
}
