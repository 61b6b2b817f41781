// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk-map.c - the printk formats of a trace as a sorted table from
 * address to text. Each line is read as tep_parse_printk_formats() and
 * tep_register_print_string() read it: the address up to the first ':'
 * (after leading ones), one byte skipped after it, then the text without a
 * leading '"', a trailing '"' and the "\n" escape before it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "printk-map.h"

struct printk_entry {
	uint64_t	addr;
	const char	*text;
};

struct tm_printk_map {
	char			*text;		/* the lines, NULs written after each text */
	struct printk_entry	*e;
	size_t			n;
};

/* The text of one line (NUL-terminated in place) into e; false when it has none. */
static bool parse_line(char *line, struct printk_entry *e)
{
	char *colon, *fmt, *end;
	size_t len;

	while (*line == ':')
		line++;
	colon = strchr(line, ':');
	if (!colon || !colon[1])
		return false;
	*colon = '\0';
	errno = 0;
	e->addr = strtoull(line, &end, 16);
	if (errno || end == line)
		return false;
	fmt = colon + 2;
	if (*fmt == '"')
		fmt++;
	len = strlen(fmt);
	if (len && fmt[len - 1] == '"')
		fmt[--len] = '\0';
	if (len >= 2 && !strcmp(fmt + len - 2, "\\n"))
		fmt[len - 2] = '\0';
	e->text = fmt;
	return true;
}

static int by_addr(const void *a, const void *b)
{
	const struct printk_entry *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct tm_printk_map *tm_printk_map_new(struct tm_blob b)
{
	struct tm_printk_map *m = calloc(1, sizeof(*m));
	size_t lines = 1;
	char *p, *save;

	for (size_t i = 0; i < b.len; i++)
		lines += b.data[i] == '\n';
	if (m) {
		m->text = malloc(b.len + 1);
		m->e = calloc(lines, sizeof(*m->e));
	}
	if (!m || !m->text || !m->e) {
		tm_printk_map_free(m);
		tm_fail(ENOMEM, "printk formats");
		return NULL;
	}
	if (b.len)
		memcpy(m->text, b.data, b.len);
	m->text[b.len] = '\0';
	for (p = strtok_r(m->text, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		if (m->n < lines && parse_line(p, &m->e[m->n]))
			m->n++;
	qsort(m->e, m->n, sizeof(*m->e), by_addr);
	return m;
}

void tm_printk_map_free(struct tm_printk_map *m)
{
	if (!m)
		return;
	free(m->text);
	free(m->e);
	free(m);
}

const char *tm_printk_map_find(const struct tm_printk_map *m, uint64_t addr)
{
	struct printk_entry key = { .addr = addr }, *e;

	if (!m || !m->n)
		return NULL;
	e = bsearch(&key, m->e, m->n, sizeof(*m->e), by_addr);
	return e ? e->text : NULL;
}
