/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-progress.h - how far long work is (convert, report, recover, extract):
 * the counters the library keeps while it works and the hook it hands them
 * to. The library never shows them; the caller's hook does, when it likes.
 */
#ifndef TM_PROGRESS_H
#define TM_PROGRESS_H

#include <stdint.h>

struct tm_progress {
	uint64_t	done;		/* bytes of input (CPU data) consumed so far */
	uint64_t	total;		/* bytes of input in all; 0: unknown */
	uint64_t	events;		/* events read so far */
	uint64_t	written;	/* bytes of output so far, where the library writes it */
};

/*
 * Called from the working thread every few thousand events, chunk or copy
 * step, so it must be cheap: a hook that draws something decides itself
 * whether it is time to.
 */
typedef void (*tm_progress_fn)(void *ctx, const struct tm_progress *p);

/* A hook with the counters it is shown; long work takes a pointer to one (NULL: none). */
struct tm_meter {
	tm_progress_fn		fn;		/* NULL: nothing is reported */
	void			*ctx;
	struct tm_progress	p;		/* kept by the library while it works */
};

#endif /* TM_PROGRESS_H */
