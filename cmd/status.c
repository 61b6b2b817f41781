// SPDX-License-Identifier: GPL-2.0-only
/*
 * status.c - the one-line live status on a terminal, for record and stream
 * (capture-status.c gives the values) and for the long work of convert,
 * recover, extract and report (the library's meter): the subcommand, elapsed
 * time, percent of the input read, events/s over the last second, events,
 * MB read -> MB written, then the fullest CPU buffer or the time left, and
 * events lost (highlighted). Redrawn in place at most 4 times a second and
 * erased before anything else is printed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

void status_start(struct status_line *st, const char *sub, bool on)
{
	const char *term = getenv("TERM");

	memset(st, 0, sizeof(*st));
	st->sub = sub;
	st->on = on;
	st->color = term && *term && strcmp(term, "dumb");
	st->start = mono_s();
	st->next = st->start + STATUS_PERIOD;
}

int status_due_ms(const struct status_line *st)
{
	double left;

	if (!st->on)
		return -1;
	left = st->next - mono_s();
	return left > 0 ? (int)(left * 1000) + 1 : 0;
}

bool status_due(struct status_line *st)
{
	double now;

	if (!st->on)
		return false;
	now = mono_s();
	if (now < st->next)
		return false;
	st->next = now + STATUS_PERIOD;
	return true;
}

/* Events per second over about the last second (since the start before that). */
static double status_rate(struct status_line *st, double now, uint64_t events)
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

/* 42 -> "42s", 185 -> "3m05s", 7300 -> "2h01m" */
static void duration(char *buf, size_t len, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);

	if (t < 60)
		snprintf(buf, len, "%lus", t);
	else if (t < 3600)
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
}

static int term_columns(void)
{
	struct winsize ws;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 10)
		return ws.ws_col;
	return 80;
}

/* Append to the line at *n, never past its end (*n may pass it: the text was cut). */
static void __attribute__((format(printf, 4, 5))) put(char *line, size_t size, int *n,
						      const char *fmt, ...)
{
	va_list ap;

	if (*n >= (int)size)
		return;
	va_start(ap, fmt);
	*n += vsnprintf(line + *n, size - *n, fmt, ap);
	va_end(ap);
}

/* "  12.3 MB read -> 4.5 MB (2.7x)": nothing before the first byte is read. */
static void put_bytes(char *line, size_t size, int *n, const struct status_values *v)
{
	if (!v->read)
		return;
	put(line, size, n, "  %.1f MB read", v->read / 1048576.0);
	if (v->written >= 0)
		put(line, size, n, " -> %.1f MB", v->written / 1048576.0);
	if (v->ratio && v->written > 0)
		put(line, size, n, " (%.1fx)", (double)v->read / v->written);
}

/* The time left at the pace so far, once some input is read. */
static void put_left(char *line, size_t size, int *n, const struct status_values *v,
		     double elapsed)
{
	char left[32];

	if (!v->total || !v->read || v->read >= v->total)
		return;
	duration(left, sizeof(left), elapsed * (v->total - v->read) / v->read);
	put(line, size, n, "  %s left", left);
}

void status_draw(struct status_line *st, const struct status_values *v)
{
	char line[256], rate[16], events[16], lost[64] = "";
	double now = mono_s();
	int n = 0, cols = term_columns(), room;

	human(rate, sizeof(rate), status_rate(st, now, v->events));
	human(events, sizeof(events), (double)v->events);
	put(line, sizeof(line), &n, "%s %.1fs", st->sub, now - st->start);
	if (v->total)
		put(line, sizeof(line), &n, "  %llu%%", (unsigned long long)
		    (v->read >= v->total ? 100 : v->read * 100 / v->total));
	put(line, sizeof(line), &n, "  %s ev/s  %s events", rate, events);
	put_bytes(line, sizeof(line), &n, v);
	if (v->fill >= 0)
		put(line, sizeof(line), &n, "  buffer %d%%", v->fill);
	put_left(line, sizeof(line), &n, v, now - st->start);
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	if (v->lost > 0 && st->color)
		snprintf(lost, sizeof(lost), "  \033[1;7mLOST %lld\033[0m", (long long)v->lost);
	else if (v->lost >= 0)
		snprintf(lost, sizeof(lost), v->lost ? "  LOST %lld" : "  lost 0",
			 (long long)v->lost);
	room = cols - 1 - (v->lost >= 0 ? 20 : 0);	/* room for the loss count: never wrap */
	if (n > room)
		n = room > 0 ? room : 0;
	fprintf(stderr, "\r\033[K%.*s%s", n, line, lost);
	fflush(stderr);
	st->shown = true;
}

void status_progress(void *ctx, const struct tm_progress *p)
{
	struct status_line *st = ctx;
	struct status_values v = {
		.events = p->events, .read = p->done, .total = p->total,
		.written = (int64_t)p->written, .fill = -1, .lost = -1,
	};

	if (!status_due(st))
		return;
	if (st->written)
		v.written = st->written(st->ctx);
	status_draw(st, &v);
}

struct tm_meter *status_meter(struct status_line *st, struct tm_meter *meter, const char *sub,
			      bool on)
{
	status_start(st, sub, on);
	*meter = (struct tm_meter){ .fn = status_progress, .ctx = st };
	return on ? meter : NULL;
}

int64_t status_file_written(void *ctx)
{
	struct stat st;
	off_t pos;

	/* a device (/dev/null) seeks to 0 for ever: no size to show */
	if (fstat(fileno(ctx), &st) || !S_ISREG(st.st_mode))
		return -1;
	pos = ftello(ctx);
	return pos < 0 ? -1 : (int64_t)pos;
}

void status_clear(struct status_line *st)
{
	if (!st->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	st->shown = false;
}
