// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta-check.c - printk formats and saved cmdlines of a trace.dat file
 * checked line by line before libtraceevent takes them: it trusts this
 * text (one of its parsers reads out of bounds on a malformed line, the
 * other stops at the first bad line), we do not. The saved cmdlines' lines
 * are then handed over one by one, as its parser would register them, so
 * the text is scanned once. kallsyms lines are checked the same way by our
 * own symbol table (ksyms.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "meta-check.h"
#include "trace/tm-trace.h"

/* Append n bytes and keep the text NUL-terminated (the NUL not counted). */
static void out_put(struct tm_buf *o, const char *s, size_t n)
{
	tm_buf_put(o, s, n);
	tm_buf_reserve(o, 1);
	if (!o->err)
		o->data[o->len] = '\0';
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

/*
 * The scan tep_parse_saved_cmdlines() makes of a line (s: len bytes and a
 * NUL): a pid, then the rest is the comm. false when it would stop at the
 * line; else *comm points into s, or is *owned (malloc'ed).
 */
static bool scan_cmdline(const char *s, size_t len, int *pid, const char **comm, char **owned)
{
	size_t i = 0;
	int n;

	*owned = NULL;
	/* "PID COMM" with a pid of at most 9 digits: sscanf below surely agrees */
	for (*pid = 0; i < len && i < 9 && isdigit((unsigned char)s[i]); i++)
		*pid = *pid * 10 + (s[i] - '0');
	if (i && i + 1 < len && s[i] == ' ' && !isspace((unsigned char)s[i + 1])) {
		*comm = s + i + 1;
		return true;
	}
	errno = 0;
	n = sscanf(s, "%d %m[^\n]", pid, owned);
	if (!errno && n == 2 && *owned) {
		*comm = *owned;
		return true;
	}
	free(*owned);
	*owned = NULL;
	return false;
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

/* One line (no '\n', no NUL) to a visitor: NULL when it is kept, else why it is dropped. */
typedef const char *(*visit_fn)(void *ctx, const char *line, size_t len);

/* Each line of b to fn until *err; empty and all-NUL lines go silently. */
static void each_line(struct tm_blob b, const char *what, visit_fn fn, void *ctx,
		      const int *err, const struct tm_meta_warn *w)
{
	size_t pos = 0;

	while (pos < b.len && !*err) {
		const char *line = b.data + pos, *nl = memchr(line, '\n', b.len - pos);
		size_t len = nl ? (size_t)(nl - line) : b.len - pos;
		const char *why = NULL;

		if (len && !tm_meta_all_nul(line, len)) {
			if (memchr(line, '\0', len))
				why = "NUL byte inside";
			else
				why = fn(ctx, line, len);
			if (why)
				tm_meta_warn_line(w, what, b, pos, why);
		}
		pos += len + 1;
	}
}

struct clean {
	struct tm_buf	o;
	line_fn		fn;
};

static const char *clean_line(void *ctx, const char *line, size_t len)
{
	struct clean *c = ctx;
	const char *why = c->fn(&c->o, line, len);

	if (!why)
		out_put(&c->o, "\n", 1);
	return why;
}

/* Lines of b that fn keeps, each ending in '\n'. */
static char *clean_lines(struct tm_blob b, const char *what, line_fn fn,
			 const struct tm_meta_warn *w)
{
	struct clean c = { .fn = fn };

	out_put(&c.o, "", 0);
	each_line(b, what, clean_line, &c, &c.o.err, w);
	if (!c.o.err)
		return (char *)c.o.data;
	tm_buf_free(&c.o);
	tm_fail(ENOMEM, "%s", what);
	return NULL;
}

struct cmdlines {
	struct tm_buf	line;		/* the line, NUL-terminated for sscanf() */
	tm_cmdline_fn	fn;
	void		*ctx;
	int		err;
};

static const char *cmdline_line(void *ctx, const char *line, size_t len)
{
	struct cmdlines *c = ctx;
	const char *comm;
	char *owned;
	int pid;

	c->line.len = 0;
	out_put(&c->line, line, len);
	if (c->line.err) {
		c->err = tm_fail(ENOMEM, "saved cmdlines");
		return NULL;
	}
	if (!scan_cmdline((char *)c->line.data, len, &pid, &comm, &owned))
		return "not \"PID COMM\"";
	c->err = c->fn(c->ctx, pid, comm);
	free(owned);
	return NULL;
}

int tm_meta_each_cmdline(struct tm_blob b, const struct tm_meta_warn *w, tm_cmdline_fn fn,
			 void *ctx)
{
	struct cmdlines c = { .fn = fn, .ctx = ctx };

	each_line(b, "saved cmdlines", cmdline_line, &c, &c.err, w);
	tm_buf_free(&c.line);
	return c.err;
}

char *tm_meta_clean_printk(struct tm_blob b, const struct tm_meta_warn *w)
{
	return clean_lines(b, "printk formats", printk_line, w);
}

