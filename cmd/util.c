// SPDX-License-Identifier: GPL-2.0-only
/* util.c - error printing and option-argument parsing shared by subcommands. */
#include <errno.h>
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

enum tm_text_compat tm_arg_compat(struct argp_state *state, const char *s)
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
