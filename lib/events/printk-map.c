// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk-map.c - the printk formats of a trace as a sorted table from
 * address to text, built from the text report gives libtraceevent
 * (tm_meta_clean_printk(): lines libtraceevent would misread, or holding a
 * NUL, left out). Each line is read as tep_parse_printk_formats() and
 * tep_register_print_string() read it: the address (strtoull() base 16,
 * unchecked) up to the first ':' after leading ones, one byte skipped, then
 * the text without a leading '"' and, when a closing '"' went, the "\n"
 * escape before it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "meta-check.h"
#include "printk-map.h"
#include "trace/tm-trace.h"

struct printk_entry {
	uint64_t	addr;
	const char	*text;
};

struct tm_printk_map {
	char			*text;		/* the cleaned lines, NULs after each text */
	struct printk_entry	*e;
	size_t			n;
};

/* The text of one line (NUL-terminated in place) into e; false when it has none. */
static bool parse_line(char *line, struct printk_entry *e)
{
	char *colon, *fmt;
	size_t len;

	while (*line == ':')
		line++;
	colon = strchr(line, ':');
	if (!colon || !colon[1])
		return false;
	*colon = '\0';
	e->addr = strtoull(line, NULL, 16);
	fmt = colon + 2;
	if (*fmt == '"')
		fmt++;
	len = strlen(fmt);
	if (len && fmt[len - 1] == '"') {
		fmt[--len] = '\0';
		if (len >= 2 && !strcmp(fmt + len - 2, "\\n"))
			fmt[len - 2] = '\0';
	}
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

	if (m)
		m->text = tm_meta_clean_printk(b, NULL);
	for (p = m && m->text ? m->text : ""; *p; p++)
		lines += *p == '\n';
	if (m && m->text)
		m->e = calloc(lines, sizeof(*m->e));
	if (!m || !m->text || !m->e) {
		tm_printk_map_free(m);
		tm_fail(ENOMEM, "printk formats");
		return NULL;
	}
	for (p = strtok_r(m->text, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		if (m->n < lines && parse_line(p, &m->e[m->n]))
			m->n++;
	/*
	 * libtraceevent keeps the lines newest first and sorts them with the
	 * same comparison (glibc's qsort() is a stable merge sort), so of two
	 * lines with one address its bsearch() finds the same one ours does.
	 */
	for (size_t i = 0; i < m->n / 2; i++) {
		struct printk_entry t = m->e[i];

		m->e[i] = m->e[m->n - 1 - i];
		m->e[m->n - 1 - i] = t;
	}
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

/*
 * A field is a kernel string when it is a pointer of the traced kernel's
 * long size that the event's print fmt prints with %s straight from
 * REC->field: that is when libtraceevent looks its address up in the
 * printk formats. A user pointer (sys_enter_openat's filename, printed
 * "0x%08lx" through a cast) or a char ** is not.
 */
bool tm_field_is_kernel_string(const struct tep_format_field *tf)
{
	const struct tep_event *ev = tf->event;
	const struct tep_print_arg *arg = ev ? ev->print_fmt.args : NULL;
	const char *p = ev ? ev->print_fmt.format : NULL;

	if (!p || !(tf->flags & TEP_FIELD_IS_POINTER) ||
	    (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) ||
	    tf->size != tep_get_long_size(ev->tep))
		return false;
	for (; *p && arg; p++) {
		if (*p != '%' || *++p == '%')
			continue;
		for (; *p && strchr("-+ #0123456789.*hlLzjt", *p); p++)
			if (*p == '*' && !(arg = arg->next))
				return false;	/* the width or precision took the argument */
		if (!*p)
			break;
		if (*p == 's' && arg->type == TEP_PRINT_FIELD && arg->field.name &&
		    !strcmp(arg->field.name, tf->name))
			return true;
		if (*p == 'p')		/* %pS, %pI4, ...: one argument */
			while (isalnum((unsigned char)p[1]))
				p++;
		arg = arg->next;
	}
	return false;
}
