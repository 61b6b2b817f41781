/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * meta-check.h - a trace.dat file's text metadata made safe for libtraceevent
 * (meta-check.c): printk formats and saved cmdlines, line by line (kallsyms:
 * ksyms.h).
 */
#ifndef TM_META_CHECK_H
#define TM_META_CHECK_H

#include "util/internal.h"
#include "tm-events.h"
#include "trace/tm-trace.h"

/* Where warnings go: fn may be NULL (no warnings); file names the input. */
struct tm_meta_warn {
	tm_warn_fn	fn;
	void		*ctx;
	const char	*file;
};

/* "WHAT at offset N" or "WHAT section at offset S (body byte B)" for byte pos of b. */
TM_HIDDEN int tm_meta_where(char *buf, size_t len, const char *what, struct tm_blob b, size_t pos);
/* One warning "FILE: <fmt>" to w (nothing when w or its fn is NULL). */
TM_HIDDEN void tm_meta_warnf(const struct tm_meta_warn *w, const char *fmt, ...) TM_PRINTF(2, 3);
/* "FILE: WHAT at offset N: line dropped: WHY" to w, for the line at byte pos of b. */
TM_HIDDEN void tm_meta_warn_line(const struct tm_meta_warn *w, const char *what,
				 struct tm_blob b, size_t pos, const char *why);
/* True when the n bytes at s are all NUL (such lines are dropped without a word). */
TM_HIDDEN bool tm_meta_all_nul(const char *s, size_t n);

/*
 * A malloc'ed NUL-terminated copy of the blob holding only the lines
 * libtraceevent reads within bounds and without failing; every line
 * dropped gets one warning naming the file and the line's offset. NULL with
 * errno ENOMEM (message set) when out of memory.
 *
 * printk formats: tep_parse_printk_formats() of libtraceevent 1.7.1 reads
 * past its copy of the text on a line without a ':' or with nothing after
 * it, and before the format's copy when the format is shorter than three
 * characters: such lines are dropped, short formats rewritten so they
 * register the same text.
 */
TM_HIDDEN char *tm_meta_clean_printk(struct tm_blob b, const struct tm_meta_warn *w);

/* A task name of the saved cmdlines: 0, or -1 (message set) to stop. */
typedef int (*tm_cmdline_fn)(void *ctx, int pid, const char *comm);
/*
 * The saved cmdlines of b as tep_parse_saved_cmdlines() would register them,
 * without its copy of the text and its sscanf() per line: fn gets the pid
 * and comm of each line in order. It stops at (and fails on) a line without
 * "PID COMM": such a line is dropped with a warning instead. 0, or -1 (fn's,
 * or ENOMEM with its message).
 */
TM_HIDDEN int tm_meta_each_cmdline(struct tm_blob b, const struct tm_meta_warn *w,
				   tm_cmdline_fn fn, void *ctx);

/*
 * format-check.c: NULL when an event format is safe to hand to
 * tep_parse_event() and to print with, else why not. libtraceevent 1.7.1
 * dereferences NULL on a byte that is not printable ASCII, on a
 * __print_flags() or __print_symbolic() whose REC-> field the format does
 * not declare, and on an operator it has no precedence for after a "?:" or
 * an index; its recursive parser overflows the stack on huge expressions;
 * it divides by zero printing a print fmt whose divisor is not a nonzero
 * constant.
 */
TM_HIDDEN const char *tm_meta_format_check(struct tm_blob b);

#endif /* TM_META_CHECK_H */
