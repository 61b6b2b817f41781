// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta-check.c - printk formats and saved cmdlines of a trace.dat file
 * checked line by line before libtraceevent parses them: it trusts this
 * text (one of its parsers reads out of bounds on a malformed line, the
 * other stops at the first bad line), we do not. kallsyms lines are checked
 * the same way by our own symbol table (ksyms.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "meta-check.h"

/* Append n bytes and keep the text NUL-terminated (the NUL not counted). */
static void out_put(struct tm_buf *o, const char *s, size_t n)
{
	tm_buf_put(o, s, n);
	tm_buf_reserve(o, 1);
	if (!o->err)
		o->data[o->len] = '\0';
}

/* Take back what was appended since start (a line that failed its check). */
static void out_undo(struct tm_buf *o, size_t start)
{
	if (o->err)
		return;
	o->len = start;
	o->data[start] = '\0';
}

/*
 * Check one line (no '\n', no NUL) and append what libtraceevent should
 * see of it to o. NULL when it was kept, else why it was dropped (nothing
 * appended).
 */
typedef const char *(*line_fn)(struct tm_buf *o, const char *line, size_t len);

/*
 * tep_parse_printk_formats() splits a line at its first ':' (after leading
 * ones) with strtok_r() and skips one byte after it; then
 * tep_register_print_string() drops a leading '"', and looks at the last
 * byte and the two before it. Without a ':' or with nothing after it the
 * format pointer lands after the line's NUL (past the text on its last
 * line: libtraceevent 1.7.1 bug); a format shorter than three bytes makes
 * it read before its copy. Those short formats are rewritten here as
 * "ADDR: \"TEXT\\n\"", which registers the same TEXT safely.
 */
static const char *printk_line(struct tm_buf *o, const char *line, size_t len)
{
	size_t i = 0, j, flen;
	const char *fmt;

	while (i < len && line[i] == ':')
		i++;
	if (i == len)
		return "no address";
	for (j = i; j < len && line[j] != ':'; j++)
		;
	if (j == len)
		return "no ':' after the address";
	if (len - j - 1 == 0)
		return "nothing after the ':'";
	fmt = line + j + 2;
	flen = len - j - 2;
	if (flen && fmt[0] == '"') {
		fmt++;
		flen--;
	}
	if (flen >= 3) {
		out_put(o, line, len);
		return NULL;
	}
	/* what libtraceevent means to keep: no closing quote (then no "\n" fits) */
	if (flen && fmt[flen - 1] == '"')
		flen--;
	out_put(o, line, j + 1);
	out_put(o, " \"", 2);
	out_put(o, fmt, flen);
	out_put(o, "\\n\"", 3);
	return NULL;
}

/* The scan tep_parse_saved_cmdlines() makes: a pid, then the rest is the comm. */
static const char *cmdline_line(struct tm_buf *o, const char *line, size_t len)
{
	size_t start = o->len, i = 0;
	char *comm = NULL;
	int pid, n;

	out_put(o, line, len);
	/* "PID COMM" with a pid of at most 9 digits: sscanf below surely agrees */
	while (i < len && i < 9 && isdigit((unsigned char)line[i]))
		i++;
	if (i && i + 1 < len && line[i] == ' ' && !isspace((unsigned char)line[i + 1]))
		return NULL;
	if (o->err)
		return NULL;	/* reported by clean_lines() */
	errno = 0;
	n = sscanf((char *)o->data + start, "%d %m[^\n]", &pid, &comm);
	free(comm);
	if (!errno && n == 2 && comm)
		return NULL;
	out_undo(o, start);
	return "not \"PID COMM\"";
}

int tm_meta_where(char *buf, size_t len, const char *what, struct tm_blob b, size_t pos)
{
	if (b.sec)
		return snprintf(buf, len, "%s section at offset %llu (body byte %llu)", what,
				(unsigned long long)b.sec, (unsigned long long)(b.off + pos));
	return snprintf(buf, len, "%s at offset %llu", what, (unsigned long long)(b.off + pos));
}

void tm_meta_warn_line(const struct tm_meta_warn *w, const char *what, struct tm_blob b,
		       size_t pos, const char *why)
{
	char where[160];

	if (!w || !w->fn)
		return;
	tm_meta_where(where, sizeof(where), what, b, pos);
	tm_meta_warnf(w, "%s: line dropped: %s", where, why);
}

void tm_meta_warnf(const struct tm_meta_warn *w, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int n;

	if (!w || !w->fn)
		return;
	n = snprintf(msg, sizeof(msg), "%s: ", w->file);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = (int)sizeof(msg) - 1;	/* a file name that fills the line */
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	w->fn(w->ctx, msg);
}

bool tm_meta_all_nul(const char *s, size_t n)
{
	while (n && !*s) {
		s++;
		n--;
	}
	return !n;
}

/* Lines of b that fn keeps, each ending in '\n'; empty and all-NUL lines go silently. */
static char *clean_lines(struct tm_blob b, const char *what, line_fn fn,
			 const struct tm_meta_warn *w)
{
	struct tm_buf o = { 0 };
	size_t pos = 0;

	out_put(&o, "", 0);
	while (pos < b.len && !o.err) {
		const char *line = b.data + pos, *nl = memchr(line, '\n', b.len - pos);
		size_t len = nl ? (size_t)(nl - line) : b.len - pos;
		const char *why = NULL;

		if (len && !tm_meta_all_nul(line, len)) {
			if (memchr(line, '\0', len))
				why = "NUL byte inside";
			else if (!(why = fn(&o, line, len)))
				out_put(&o, "\n", 1);
			if (why)
				tm_meta_warn_line(w, what, b, pos, why);
		}
		pos += len + 1;
	}
	if (!o.err)
		return (char *)o.data;
	tm_buf_free(&o);
	tm_fail(ENOMEM, "%s", what);
	return NULL;
}

char *tm_meta_clean_printk(struct tm_blob b, const struct tm_meta_warn *w)
{
	return clean_lines(b, "printk formats", printk_line, w);
}

char *tm_meta_clean_cmdlines(struct tm_blob b, const struct tm_meta_warn *w)
{
	return clean_lines(b, "saved cmdlines", cmdline_line, w);
}
