/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-fast.h - compiled event formats that skip libtraceevent's general
 * interpreter: simple print formats (print-fast.c) and the sched and hrtimer
 * plugins' handlers (print-sched.c, print-hrtimer.c). Private to print.c, which checks every format
 * against libtraceevent's output on its first records before trusting it, and
 * every text a format learnt from libtraceevent the first time it prints it.
 */
#ifndef TM_PRINT_FAST_H
#define TM_PRINT_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/internal.h"

struct tep_event;
struct tep_handle;

struct tm_fastfmt;

struct tm_fastfmt_ops {
	/* Append the event text: 0 done, -1 this record needs libtraceevent. */
	int	(*render)(struct tm_fastfmt *f, struct tm_buf *b, const uint8_t *data,
			  uint32_t size);
	/* Optional: learn from libtraceevent's text of a record render refused. */
	void	(*learn)(struct tm_fastfmt *f, const uint8_t *data, uint32_t size,
			 const char *text, size_t len);
	/*
	 * With learn: the record render printed (setting unconfirmed) matched
	 * libtraceevent's line, so the learnt texts it used are confirmed.
	 */
	void	(*confirm)(struct tm_fastfmt *f, const uint8_t *data, uint32_t size);
	/*
	 * Optional: the last render's text was printed without libtraceevent
	 * (whose plugin would have had side effects of its own): do the plugin's
	 * side effects for that record.
	 */
	void	(*commit)(struct tm_fastfmt *f);
	void	(*free)(struct tm_fastfmt *f);
};

struct tm_fastfmt {
	const struct tm_fastfmt_ops	*ops;
	struct tep_handle		*tep;
	bool				swap;	/* file byte order differs from ours */
	uint64_t			*comm_gen; /* bumped when a comm is registered */
	const bool			*cmdlines_ready; /* libtraceevent looked a name up */
	bool				unconfirmed; /* render used a text not confirmed yet */
};

/* print-fast.c: the compiled format of a plain event (no handler), or NULL for libtraceevent. */
TM_HIDDEN struct tm_fastfmt *tm_fastfmt_compile(struct tep_handle *tep,
						const struct tep_event *ev, bool swap);
/* print-fast.c: free a compiled format of either kind (NULL is fine). */
TM_HIDDEN void tm_fastfmt_free(struct tm_fastfmt *f);
/* print-sched.c: the sched_switch / sched_wakeup plugin handlers, or NULL. */
TM_HIDDEN struct tm_fastfmt *tm_schedfmt_compile(struct tep_handle *tep,
						 const struct tep_event *ev, bool swap);
/* print-hrtimer.c: the hrtimer_start / hrtimer_expire_entry plugin handlers, or NULL. */
TM_HIDDEN struct tm_fastfmt *tm_hrtimerfmt_compile(struct tep_handle *tep,
						   const struct tep_event *ev, bool swap);

#endif /* TM_PRINT_FAST_H */
