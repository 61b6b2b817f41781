// SPDX-License-Identifier: GPL-2.0-only
/* util.c - error printing and option-argument parsing shared by subcommands. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "status.h"
#include "tracemap.h"

/*
 * Messages quote names and text from input files: control bytes (a newline
 * above all) go out as \xNN so every message stays one line.
 */
void cmd_err(const char *sub, const char *fmt, ...)
{
	char msg[1024];
	const char *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "tracemap%s%s: ", sub ? " " : "", sub ? sub : "");
	for (p = msg; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
	fputc('\n', stderr);
}

void cmd_warning(void *ctx, const char *msg)
{
	struct cmd_warn *w = ctx;

	if (w->quiet)
		return;
	if (w->shown == TM_CMD_MAX_WARNINGS) {
		w->hidden++;
		return;
	}
	w->shown++;
	if (w->status)
		status_clear(w->status);	/* the next redraw puts it back below */
	cmd_err(w->sub, "warning: %s", msg);
}

void cmd_warn_summary(const struct cmd_warn *w, const char *file, uint64_t skipped)
{
	if (w->quiet || (!skipped && !w->hidden))
		return;
	cmd_err(w->sub, "warning: %s: %llu records skipped (fields outside the record), "
		   "%u more warnings not shown", file, (unsigned long long)skipped, w->hidden);
}

int cmd_fail(const char *sub)
{
	cmd_err(sub, "%s", tm_last_error());
	return TM_EXIT_FAIL;
}

int cmd_fail_output(const char *sub, const char *name, int err)
{
	if (err != ENOSPC && err != EDQUOT && err != EFBIG)
		return cmd_fail(sub);
	cmd_err(sub, "write %s: %s", name, strerror(err));
	return TM_EXIT_FAIL;
}

long arg_long(struct argp_state *state, const char *what, const char *s, long min, long max)
{
	long v = 0;

	if (!parse_long(s, min, max, &v))
		argp_error(state, "bad %s '%s' (expected %ld-%ld)", what, s, min, max);
	return v;
}

enum tm_text_compat arg_compat(struct argp_state *state, const char *s)
{
	static const char *const current[] = { "3.2", "3.3", "3.4", "current" };
	size_t i;

	if (!strcmp(s, "3.1") || !strcmp(s, "3.1.6"))
		return TM_TEXT_TC31;
	for (i = 0; i < sizeof(current) / sizeof(current[0]); i++)
		if (!strcmp(s, current[i]))
			return TM_TEXT_CURRENT;
	argp_error(state, "bad --compat '%s' (expected 3.1 or 3.4)", s);
	return TM_TEXT_CURRENT;
}

enum tm_compression arg_compression(struct argp_state *state, const char *s)
{
	enum tm_compression c = TM_COMPRESS_NONE;

	if (tm_compression_parse(s, &c))
		argp_error(state, "%s", tm_last_error());
	return c;
}

long arg_file_version(struct argp_state *state, const char *s)
{
	int oldest, newest;
	long v;

	tm_dat_version_range(&oldest, &newest);
	v = arg_long(state, "file version", s, oldest, newest);
	if (!tm_dat_version_supported((int)v))
		argp_error(state, "unsupported file version %ld", v);
	return v;
}

bool parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* A number (decimals allowed) and the suffix after it; false if there is no number. */
static bool parse_number(const char *s, double *v, const char **suffix)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || !isfinite(*v))
		return false;
	*suffix = end;
	return true;
}

bool parse_size(const char *s, bool need_unit, uint64_t *out)
{
	static const char units[] = "BKMG";
	const char *suffix, *u;
	double v;

	if (!parse_number(s, &v, &suffix))
		return false;
	if (!*suffix && !need_unit) {
		u = units;
	} else {
		u = suffix[0] && !suffix[1] ? strchr(units, toupper((unsigned char)*suffix)) : NULL;
		if (!u || (*suffix == 'm' && need_unit))
			return false;	/* 'm' is minutes where a time is allowed too */
	}
	v *= (double)(1ull << (10 * (u - units)));
	if (v < 1 || v > (double)(1ull << 50))
		return false;
	*out = (uint64_t)v;
	return true;
}

bool parse_seconds(const char *s, bool need_unit, double *out)
{
	static const struct { char unit; double secs; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	const char *suffix;
	double v;

	if (!parse_number(s, &v, &suffix))
		return false;
	if (!*suffix && !need_unit) {
		*out = v;
		return v <= 1e7;
	}
	for (size_t i = 0; suffix[0] && !suffix[1] && i < sizeof(units) / sizeof(units[0]); i++) {
		if (*suffix == units[i].unit) {
			*out = v * units[i].secs;
			return *out <= 1e7;
		}
	}
	return false;
}
