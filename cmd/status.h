/* SPDX-License-Identifier: GPL-2.0-only */
/* status.h - the live status line of record and stream on a terminal (status.c). */
#ifndef TM_CMD_STATUS_H
#define TM_CMD_STATUS_H

#include <stdbool.h>
#include <stdint.h>

struct capture;

#define STATUS_SAMPLES	8	/* enough for one second at 4 refreshes a second */

struct capture_status {
	bool		on;
	bool		shown;		/* a line is on the screen */
	bool		color;		/* the terminal takes ANSI attributes */
	double		start, next;	/* monotonic seconds */
	unsigned long	buffer_kb;	/* per CPU, for the fill level */
	/* bytes written so far (record: the spools), NULL: not shown */
	uint64_t	(*written)(void *ctx);
	void		*ctx;
	struct { double t; uint64_t events; } samples[STATUS_SAMPLES];
	int		nsamples;
};

/*
 * Whether to show the line: stderr is a terminal and not -q (for stream
 * also: stdout is not the terminal its events go to).
 */
bool status_wanted(bool quiet, bool stdout_must_not_be_tty);
/* Start the clock; off unless on. Reads the instance's buffer size. */
void status_init(struct capture_status *st, const struct capture *c, bool on);
/* Milliseconds until the next refresh is due (at most 4 a second), or -1 when off. */
int status_due_ms(const struct capture_status *st);
/* Redraw the line if due. */
void status_tick(struct capture_status *st, const struct capture *c);
/* Erase the line (before the summary or any other message). */
void status_clear(struct capture_status *st);

#endif /* TM_CMD_STATUS_H */
