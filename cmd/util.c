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
#include "tracemap.h"

void tm_cmd_err(const char *sub, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tracemap%s%s: ", sub ? " " : "", sub ? sub : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int tm_cmd_fail(const char *sub)
{
	tm_cmd_err(sub, "%s", tm_last_error());
	return TM_EXIT_FAIL;
}

long tm_arg_long(struct argp_state *state, const char *what, const char *s, long min, long max)
{
	long v = 0;

	if (!tm_parse_long(s, min, max, &v))
		argp_error(state, "bad %s '%s' (expected %ld-%ld)", what, s, min, max);
	return v;
}

long tm_arg_file_version(struct argp_state *state, const char *s)
{
	int oldest, newest;
	long v;

	tm_dat_version_range(&oldest, &newest);
	v = tm_arg_long(state, "file version", s, oldest, newest);
	if (!tm_dat_version_supported((int)v))
		argp_error(state, "unsupported file version %ld", v);
	return v;
}

bool tm_parse_long(const char *s, long min, long max, long *out)
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
static bool tm_parse_number(const char *s, double *v, const char **suffix)
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

bool tm_parse_size(const char *s, bool need_unit, uint64_t *out)
{
	static const char units[] = "BKMG";
	const char *suffix, *u;
	double v;

	if (!tm_parse_number(s, &v, &suffix))
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

bool tm_parse_seconds(const char *s, bool need_unit, double *out)
{
	static const struct { char unit; double secs; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	const char *suffix;
	double v;

	if (!tm_parse_number(s, &v, &suffix))
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
