/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * status.h - the one-line live status on a terminal (status.c): of record
 * and stream while they capture (capture-status.c feeds it), and the
 * progress of convert, recover, extract and report (the library's meter).
 */
#ifndef TM_CMD_STATUS_H
#define TM_CMD_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/tm-progress.h"

#define STATUS_SAMPLES	8	/* enough for one second at 4 refreshes a second */

struct status_line {
	const char	*sub;		/* "record", "convert", ...: first on the line */
	bool		on;
	bool		shown;		/* a line is on the screen */
	bool		color;		/* the terminal takes ANSI attributes */
	double		start, next;	/* monotonic seconds */
	/*
	 * Bytes written so far, -1 when unknown (a pipe). NULL: the library's
	 * count in the progress, or none for a capture.
	 */
	int64_t		(*written)(void *ctx);
	void		*ctx;
	struct { double t; uint64_t events; } samples[STATUS_SAMPLES];
	int		nsamples;
};

/* What one redraw shows. */
struct status_values {
	uint64_t	events;
	uint64_t	read;		/* bytes of input read; 0: no "MB read" yet */
	uint64_t	total;		/* bytes to read in all, for a percent and the time left; 0: none */
	int64_t		written;	/* bytes of output; -1: not shown */
	bool		ratio;		/* read / written shown as the compression (record) */
	int		fill;		/* fullest buffer in percent; -1: not shown */
	int64_t		lost;		/* events lost; -1: not shown */
};

/*
 * Whether to show the line: stderr is a terminal and not -q (and, with
 * stdout_must_not_be_tty, stdout is not the terminal the output goes to).
 */
bool status_wanted(bool quiet, bool stdout_must_not_be_tty);
/* Start the clock; off unless on. */
void status_start(struct status_line *st, const char *sub, bool on);
/* Milliseconds until the next refresh is due (at most 4 a second), or -1 when off. */
int status_due_ms(const struct status_line *st);
/* Whether a redraw is due now; if so the next one is due a period later. */
bool status_due(struct status_line *st);
/* Draw the line in place of the one on the screen. */
void status_draw(struct status_line *st, const struct status_values *v);
/* A tm_progress_fn (ctx: a struct status_line): redraws with p when due. */
void status_progress(void *ctx, const struct tm_progress *p);
/*
 * Start st for long work and make meter show on it: meter, or NULL when the
 * line is off (so the library keeps no counts for nothing).
 */
struct tm_meter *status_meter(struct status_line *st, struct tm_meter *meter, const char *sub,
			      bool on);
/* A written() for output to a FILE * (ctx): its position, -1 for a pipe. */
int64_t status_file_written(void *ctx);
/* Erase the line (before the summary or any other message). */
void status_clear(struct status_line *st);

#endif /* TM_CMD_STATUS_H */
