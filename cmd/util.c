// SPDX-License-Identifier: GPL-2.0-only
/* util.c - error printing and option-argument parsing shared by subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tracemap.h"

/*
 * Messages quote names and text from input files: control bytes (a newline
 * above all) go out as \xNN so every message stays one line.
 */
void tm_cmd_err(const char *sub, const char *fmt, ...)
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

void tm_cmd_warning(void *ctx, const char *msg)
{
	struct tm_cmd_warn *w = ctx;

	if (w->quiet)
		return;
	if (w->shown == TM_CMD_MAX_WARNINGS) {
		w->hidden++;
		return;
	}
	w->shown++;
	tm_cmd_err(w->sub, "warning: %s", msg);
}

void tm_cmd_warn_summary(const struct tm_cmd_warn *w, const char *file, uint64_t skipped)
{
	if (w->quiet || (!skipped && !w->hidden))
		return;
	tm_cmd_err(w->sub, "warning: %s: %llu records skipped (fields outside the record), "
		   "%u more warnings not shown", file, (unsigned long long)skipped, w->hidden);
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
