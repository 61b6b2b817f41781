// SPDX-License-Identifier: GPL-2.0-only
/*
 * status.c - the one-line live status of record and stream on a terminal:
 * elapsed time, events/s over the last second, events, raw MB read -> MB
 * written (ratio), the fullest CPU buffer, events lost (highlighted).
 * Redrawn in place at most 4 times a second and erased before the summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "status.h"

#define STATUS_PERIOD	0.25	/* seconds between redraws */

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

bool status_wanted(bool quiet, bool stdout_must_not_be_tty)
{
	if (quiet || !isatty(STDERR_FILENO))
		return false;
	return !stdout_must_not_be_tty || !isatty(STDOUT_FILENO);
}

void status_init(struct capture_status *st, const struct capture *c, bool on)
{
	const char *term = getenv("TERM");

	memset(st, 0, sizeof(*st));
	st->on = on;
	st->color = term && *term && strcmp(term, "dumb");
	st->start = mono_s();
	st->next = st->start + STATUS_PERIOD;
	if (on && tm_session_buffer_kb(c->sess, &st->buffer_kb))
		st->buffer_kb = 0;	/* no fill level then */
}

int status_due_ms(const struct capture_status *st)
{
	double left;

	if (!st->on)
		return -1;
	left = st->next - mono_s();
	return left > 0 ? (int)(left * 1000) + 1 : 0;
}

struct status_sums {
	uint64_t	events, raw, lost, fullest_bytes;
};

static void status_sum(const struct capture *c, struct status_sums *s)
{
	memset(s, 0, sizeof(*s));
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		struct tm_cpu_kstats k;

		if (!c->cpus[cpu])
			continue;
		s->raw += tm_recorder_raw_bytes(c->rec, cpu);
		if (tm_session_cpu_stats(c->sess, cpu, &k))
			continue;
		s->events += k.read;	/* what this CPU's reader was handed */
		s->lost += k.overrun + k.dropped + k.commit_overrun;
		if (k.bytes > s->fullest_bytes)
			s->fullest_bytes = k.bytes;
	}
}

/* Events per second over about the last second (since the start before that). */
static double status_rate(struct capture_status *st, double now, uint64_t events)
{
	int i, oldest = 0;
	double dt;

	if (st->nsamples == STATUS_SAMPLES) {
		memmove(st->samples, st->samples + 1, sizeof(st->samples[0]) * (STATUS_SAMPLES - 1));
		st->nsamples--;
	}
	st->samples[st->nsamples].t = now;
	st->samples[st->nsamples++].events = events;
	for (i = st->nsamples - 1; i >= 0; i--) {
		oldest = i;
		if (now - st->samples[i].t >= 1.0)
			break;
	}
	dt = now - (oldest ? st->samples[oldest].t : st->start);
	if (dt <= 0)
		return 0;
	return (events - (oldest ? st->samples[oldest].events : 0)) / dt;
}

/* 1234 -> "1234", 12345 -> "12.3k", 1234567 -> "1.23M" */
static void human(char *buf, size_t len, double v)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

static int term_columns(void)
{
	struct winsize ws;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 10)
		return ws.ws_col;
	return 80;
}

static void status_draw(struct capture_status *st, const struct capture *c, double now)
{
	struct status_sums s;
	char line[256], rate[16], events[16], lost[64];
	int n, cols = term_columns();

	status_sum(c, &s);
	human(rate, sizeof(rate), status_rate(st, now, s.events));
	human(events, sizeof(events), (double)s.events);
	n = snprintf(line, sizeof(line), "%s %.1fs  %s ev/s  %s events  %.1f MB read", c->sub,
		     now - st->start, rate, events, s.raw / 1048576.0);
	if (st->written && n < (int)sizeof(line)) {
		uint64_t w = st->written(st->ctx);

		n += snprintf(line + n, sizeof(line) - n, " -> %.1f MB (%.1fx)", w / 1048576.0,
			      w ? (double)s.raw / w : 0.0);
	}
	if (st->buffer_kb && n < (int)sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "  buffer %llu%%",
			      (unsigned long long)(s.fullest_bytes * 100 / (st->buffer_kb * 1024)));
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	if (n > cols - 1 - 20)	/* room for the loss count: never wrap */
		n = cols - 1 - 20 > 0 ? cols - 1 - 20 : 0;
	if (s.lost && st->color)
		snprintf(lost, sizeof(lost), "  \033[1;7mLOST %llu\033[0m", (unsigned long long)s.lost);
	else
		snprintf(lost, sizeof(lost), s.lost ? "  LOST %llu" : "  lost 0",
			 (unsigned long long)s.lost);
	fprintf(stderr, "\r\033[K%.*s%s", n, line, lost);
	fflush(stderr);
	st->shown = true;
}

void status_tick(struct capture_status *st, const struct capture *c)
{
	double now;

	if (!st->on)
		return;
	now = mono_s();
	if (now < st->next)
		return;
	st->next = now + STATUS_PERIOD;
	status_draw(st, c, now);
}

void status_clear(struct capture_status *st)
{
	if (!st->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	st->shown = false;
}
