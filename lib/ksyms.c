// SPDX-License-Identifier: GPL-2.0-only
/*
 * ksyms.c - a file's kallsyms as libtraceevent's function resolver: the
 * lines meta-check.c keeps are scanned in place without sscanf, 16 bytes a
 * symbol, sorted only when the first address is looked up (a file whose
 * events print no symbol never sorts) and a name copied out when it is
 * first asked for. Every lookup answers exactly
 * what libtraceevent 1.7.1 answers after tep_parse_kallsyms() of the same
 * text: the same symbols left out, the same order among symbols that share
 * an address, the same binary search.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "arena.h"
#include "ksyms.h"
#include "meta-check.h"

/* 16 bytes: the name is found again in its line when first asked for. */
struct ksym {
	uint64_t	addr;
	uint32_t	line;		/* offset of the line in the text */
	uint32_t	seq;		/* line order: ties sort latest first */
};

struct tm_ksyms {
	const char	*text;
	size_t		len;
	char		*own;		/* text when it is ours to free */
	struct ksym	*map;		/* map[n] is a sentinel of address 0 */
	size_t		n, cap;
	bool		sorted;
	char		**names;	/* by map index: "name\0mod\0" once looked up */
	struct tm_arena	arena;
};

/* Where the scan put the name and the module ([ms, me - 1), me 0: none). */
struct scan {
	uint64_t	addr;
	char		type;
	int		fs, fe, ms, me;
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * The scan of tep_parse_kallsyms(), "%16llx %c %n%*s%n%*1[\t][%n%*s%n",
 * for the lines shaped as the kernel writes them: "ADDR T NAME" or
 * "ADDR T NAME\t[MOD]". 0 when it applies, -1 to use sscanf.
 */
static int scan_plain(const char *line, int len, struct scan *sc)
{
	int i = 0, d;

	sc->addr = 0;
	while (i < 16 && i < len && (d = hexval((unsigned char)line[i])) >= 0) {
		sc->addr = sc->addr << 4 | (uint64_t)d;
		i++;
	}
	if (!i || i + 3 >= len || line[i] != ' ' || !isalpha((unsigned char)line[i + 1]) ||
	    line[i + 2] != ' ' || isspace((unsigned char)line[i + 3]))
		return -1;
	sc->type = line[i + 1];
	sc->fs = i + 3;
	for (i += 3; i < len && !isspace((unsigned char)line[i]); i++)
		;
	sc->fe = i;
	sc->ms = sc->me = 0;
	if (i + 1 >= len || line[i] != '\t' || line[i + 1] != '[')
		return 0;	/* no module */
	i += 2;
	if (i == len || isspace((unsigned char)line[i]))
		return -1;	/* %s would skip blanks first */
	sc->ms = i;
	while (i < len && !isspace((unsigned char)line[i]))
		i++;
	sc->me = i;
	return 0;
}

/*
 * Scan a line (no '\n', no NUL) as libtraceevent does: 0, -1 where it would
 * stop, -2 out of memory (message set).
 */
static int scan_line(const char *line, size_t len, struct scan *sc)
{
	unsigned long long a;
	char *copy;
	int n;

	if (len < 4096 && !scan_plain(line, (int)len, sc))
		return 0;
	copy = strndup(line, len);
	if (!copy)
		return tm_fail(ENOMEM, "kallsyms") - 1;
	sc->fs = sc->fe = sc->ms = sc->me = 0;
	errno = 0;
	n = sscanf(copy, "%16llx %c %n%*s%n%*1[\t][%n%*s%n", &a, &sc->type, &sc->fs, &sc->fe,
		   &sc->ms, &sc->me);
	free(copy);
	sc->addr = a;
	return errno || n != 2 || !sc->fe ? -1 : 0;
}

static int add_sym(struct tm_ksyms *ks, uint64_t addr, size_t line)
{
	struct ksym *m;

	if (ks->n + 1 >= ks->cap) {
		ks->cap = ks->cap ? ks->cap * 2 : 4096;
		m = realloc(ks->map, ks->cap * sizeof(*m));
		if (!m)
			return tm_fail(ENOMEM, "kallsyms");
		ks->map = m;
	}
	ks->map[ks->n] = (struct ksym){ .addr = addr, .line = (uint32_t)line,
					.seq = (uint32_t)ks->n };
	ks->n++;
	return 0;
}

/* One checked line: registered when libtraceevent would register it. */
static int add_line(void *ctx, const char *line, size_t len)
{
	struct tm_ksyms *ks = ctx;
	struct scan sc;
	int r = scan_line(line, len, &sc);

	if (r)
		return r == -2 ? -1 : 0;	/* meta-check.c drops what does not scan */
	/* libtraceevent leaves out ARM's "$a" mapping symbols and absolute ones */
	if (line[sc.fs] == '$' || sc.type == 'A' || sc.type == 'a')
		return 0;
	return add_sym(ks, sc.addr, (size_t)(line - ks->text));
}

/* Room for a symbol per line (and the sentinel), faulted in at once. */
static int reserve(struct tm_ksyms *ks, struct tm_blob b)
{
	const char *p = b.data, *end = b.data + b.len;
	size_t lines = 1;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		lines++;
		p++;
	}
	ks->cap = lines + 1;
	ks->map = malloc(ks->cap * sizeof(*ks->map));
	if (!ks->map)
		return tm_fail(ENOMEM, "kallsyms");
	tm_prefault(ks->map, ks->cap * sizeof(*ks->map));
	return 0;
}

struct tm_ksyms *tm_ksyms_new(struct tm_blob b, char *own, const struct tm_meta_warn *w)
{
	struct tm_ksyms *ks = calloc(1, sizeof(*ks));

	if (!ks) {
		free(own);
		tm_fail(ENOMEM, "kallsyms");
		return NULL;
	}
	ks->text = b.data;
	ks->len = b.len;
	ks->own = own;
	if (b.len > UINT32_MAX) {
		tm_failx(EFBIG, "kallsyms of %zu bytes: at most 4 GiB", b.len);
		goto fail;
	}
	if (reserve(ks, b) || tm_meta_each_kallsyms(b, w, add_line, ks) || add_sym(ks, 0, 0))
		goto fail;
	ks->n--;	/* room for the sentinel */
	return ks;
fail:
	tm_ksyms_free(ks);
	return NULL;
}

void tm_ksyms_free(struct tm_ksyms *ks)
{
	if (!ks)
		return;
	tm_arena_free(&ks->arena);
	free(ks->names);
	free(ks->map);
	free(ks->own);
	free(ks);
}

size_t tm_ksyms_count(const struct tm_ksyms *ks)
{
	return ks->n;
}

/*
 * libtraceevent prepends each symbol to a list and sorts the list's array
 * with glibc's (stable, merge) qsort: among equal addresses the later line
 * comes first.
 */
static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq > y->seq ? -1 : x->seq < y->seq;
}

/* A file in address order (the usual) only needs its runs of equal addresses turned round. */
static void reverse_ties(struct ksym *m, size_t n)
{
	size_t i = 0, j, k;
	struct ksym t;

	while (i < n) {
		for (j = i + 1; j < n && m[j].addr == m[i].addr; j++)
			;
		for (k = 0; k < (j - i) / 2; k++) {
			t = m[i + k];
			m[i + k] = m[j - 1 - k];
			m[j - 1 - k] = t;
		}
		i = j;
	}
}

static int ksyms_sort(struct tm_ksyms *ks)
{
	size_t i;

	for (i = 1; i < ks->n && ks->map[i - 1].addr <= ks->map[i].addr; i++)
		;
	if (i < ks->n)
		qsort(ks->map, ks->n, sizeof(*ks->map), ksym_cmp);
	else
		reverse_ties(ks->map, ks->n);
	ks->map[ks->n] = (struct ksym){ 0 };
	ks->names = calloc(ks->n + 1, sizeof(*ks->names));
	if (!ks->names)
		return -1;
	ks->sorted = true;
	return 0;
}

/*
 * glibc's bsearch() with libtraceevent's comparison: a symbol matches an
 * address equal to its own, or above it and below the next one's (the
 * sentinel's 0 ends the last symbol at its own address).
 */
static ssize_t ksyms_find(struct tm_ksyms *ks, uint64_t addr)
{
	size_t l = 0, u = ks->n, i;
	const struct ksym *m;

	if (!ks->sorted && ksyms_sort(ks))
		return -1;
	while (l < u) {
		i = (l + u) / 2;
		m = &ks->map[i];
		if (addr == m->addr || (addr > m->addr && addr < m[1].addr))
			return (ssize_t)i;
		if (addr < m->addr)
			u = i;
		else
			l = i + 1;
	}
	return -1;
}

/* "name\0mod\0" of symbol i (mod empty: none), copied from its line once. */
static const char *sym_name(struct tm_ksyms *ks, size_t i)
{
	const char *line = ks->text + ks->map[i].line, *nl;
	struct scan sc;
	size_t len, mlen;
	char *s;

	if (ks->names[i])
		return ks->names[i];
	nl = memchr(line, '\n', ks->len - ks->map[i].line);
	len = nl ? (size_t)(nl - line) : ks->len - ks->map[i].line;
	if (scan_line(line, len, &sc))
		return NULL;
	/* libtraceevent cuts the module's last byte (its ']') */
	mlen = sc.me ? (size_t)(sc.me - 1 - sc.ms) : 0;
	s = tm_arena_alloc(&ks->arena, (size_t)(sc.fe - sc.fs) + mlen + 2);
	if (!s)
		return NULL;
	memcpy(s, line + sc.fs, (size_t)(sc.fe - sc.fs));
	memcpy(s + sc.fe - sc.fs + 1, line + sc.ms, mlen);
	ks->names[i] = s;
	return s;
}

const char *tm_ksyms_lookup(struct tm_ksyms *ks, uint64_t addr, uint64_t *start)
{
	ssize_t i = ksyms_find(ks, addr);

	if (i < 0)
		return NULL;
	*start = ks->map[i].addr;
	return sym_name(ks, (size_t)i);
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct tm_ksyms *ks = priv;
	ssize_t i = ksyms_find(ks, *addrp);
	const char *name = i < 0 ? NULL : sym_name(ks, (size_t)i);

	if (!name)
		return NULL;
	*addrp = ks->map[i].addr;
	*modp = name[strlen(name) + 1] ? (char *)name + strlen(name) + 1 : NULL;
	return (char *)name;
}

int tm_ksyms_attach(struct tm_ksyms *ks, struct tep_handle *tep)
{
	if (tep_set_function_resolver(tep, resolve, ks))
		return tm_fail(ENOMEM, "kallsyms");
	return 0;
}
