// SPDX-License-Identifier: GPL-2.0-only
/*
 * status.c - the one-line live status on a terminal, for record and stream
 * (capture-status.c gives the values) and for the long work of convert,
 * recover, extract and report (the library's meter): the subcommand, elapsed
 * time, percent of the input read, events/s over the last second, events,
 * MB read -> MB written, then the fullest CPU buffer or the time left, and
 * events lost (highlighted). Fitted to the terminal's width by dropping whole
 * fields, least important first (enum status_rank; never the loss count).
 * Redrawn in place at most 4 times a second and erased before anything else
 * is printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "status.h"
#include "util/tm-fit.h"

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

/*
 * The fields by importance, most first: what the line cannot fit is dropped
 * whole, least important first (tm_fit_fields()). The loss count is never
 * dropped: a recording that loses events must say so at any width.
 */
enum status_rank {
	RANK_LOST,		/* 0: never dropped */
	RANK_SUB,		/* "record 12.3s": what runs, for how long */
	RANK_FILL_LEFT,		/* "buffer 45%" (losses to come), "1m05s left" */
	RANK_PERCENT,		/* "45%" of the input read */
	RANK_EVENTS,		/* "1.23M events" */
	RANK_BYTES,		/* "12.3 MB read -> 4.5 MB" */
	RANK_RATE,		/* "12.3k ev/s" */
	RANK_RATIO,		/* "(2.7x)", the compression */
};

/* The fields in the order shown; each one's text is "" when it is not shown. */
enum status_field {
	F_SUB, F_PERCENT, F_RATE, F_EVENTS, F_BYTES, F_RATIO, F_FILL, F_LEFT, F_LOST,
	F_COUNT
};

static const struct tm_fit_field status_layout[F_COUNT] = {
	[F_SUB]		= { .rank = RANK_SUB },
	[F_PERCENT]	= { .rank = RANK_PERCENT },
	[F_RATE]	= { .rank = RANK_RATE },
	[F_EVENTS]	= { .rank = RANK_EVENTS },
	[F_BYTES]	= { .rank = RANK_BYTES },
	[F_RATIO]	= { .rank = RANK_RATIO, .attached = true },	/* "... MB (2.7x)" */
	[F_FILL]	= { .rank = RANK_FILL_LEFT },
	[F_LEFT]	= { .rank = RANK_FILL_LEFT },
	[F_LOST]	= { .rank = RANK_LOST },
};

#define STATUS_TEXT	64
#define SET_TEXT(t, f, ...)	snprintf((t)[f], STATUS_TEXT, __VA_ARGS__)

/* "12.3 MB read -> 4.5 MB", "(2.7x)": nothing before the first byte is read. */
static void status_bytes(char t[][STATUS_TEXT], const struct status_values *v)
{
	int n;

	if (!v->read)
		return;
	n = SET_TEXT(t, F_BYTES, "%.1f MB read", v->read / 1048576.0);
	if (v->written >= 0 && n < STATUS_TEXT)
		snprintf(t[F_BYTES] + n, STATUS_TEXT - n, " -> %.1f MB", v->written / 1048576.0);
	if (v->ratio && v->written > 0)
		SET_TEXT(t, F_RATIO, "(%.1fx)", (double)v->read / v->written);
}

/* The time left at the pace so far, once some input is read. */
static void status_left(char t[][STATUS_TEXT], const struct status_values *v, double elapsed)
{
	char left[24];

	if (!v->total || !v->read || v->read >= v->total)
		return;
	duration(left, sizeof(left), elapsed * (v->total - v->read) / v->read);
	SET_TEXT(t, F_LEFT, "%s left", left);
}

static void status_texts(char t[][STATUS_TEXT], struct status_line *st,
			 const struct status_values *v, double now)
{
	char num[16];

	memset(t, 0, F_COUNT * STATUS_TEXT);
	SET_TEXT(t, F_SUB, "%s %.1fs", st->sub, now - st->start);
	if (v->total)
		SET_TEXT(t, F_PERCENT, "%llu%%", (unsigned long long)
		    (v->read >= v->total ? 100 : v->read * 100 / v->total));
	human(num, sizeof(num), status_rate(st, now, v->events));
	SET_TEXT(t, F_RATE, "%s ev/s", num);
	human(num, sizeof(num), (double)v->events);
	SET_TEXT(t, F_EVENTS, "%s events", num);
	status_bytes(t, v);
	if (v->fill >= 0)
		SET_TEXT(t, F_FILL, "buffer %d%%", v->fill);
	status_left(t, v, now - st->start);
	if (v->lost >= 0)
		SET_TEXT(t, F_LOST, v->lost ? "LOST %lld" : "lost 0", (long long)v->lost);
}

void status_draw(struct status_line *st, const struct status_values *v)
{
	char t[F_COUNT][STATUS_TEXT];
	struct tm_fit_field f[F_COUNT];
	int room = term_columns() - 1;	/* the last column would wrap on some terminals */
	bool shown = false;

	status_texts(t, st, v, mono_s());
	for (int i = 0; i < F_COUNT; i++) {
		f[i] = status_layout[i];
		f[i].text = t[i][0] ? t[i] : NULL;
	}
	fputs("\r\033[K", stderr);
	if (tm_fit_fields(f, F_COUNT, room) > room) {
		/* narrower than the loss count alone: that much of it, never a wrap */
		fprintf(stderr, "%.*s", room > 0 ? room : 0, t[F_LOST]);
		goto out;
	}
	for (int i = 0; i < F_COUNT; i++) {
		if (!f[i].kept)
			continue;
		if (shown)
			fputs(f[i].attached ? " " : "  ", stderr);
		if (i == F_LOST && v->lost > 0 && st->color)
			fprintf(stderr, "\033[1;7m%s\033[0m", f[i].text);	/* bold, reversed */
		else
			fputs(f[i].text, stderr);
		shown = true;
	}
out:
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
