// SPDX-License-Identifier: GPL-2.0-only
/*
 * errlog.c - the kernel's reason for a refused tracefs write (a filter, a
 * trigger, a probe): tracefs_error_last() of the instance, made one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "errlog.h"
#include "tracefs-internal.h"

#define TM_ERRLOG_CMD	"  Command: "

int tm_errlog_clear(struct tracefs_instance *in)
{
	/* kernels before 5.6 have no error_log: nothing to clear */
	if (!tracefs_error_clear(in) || errno == ENOENT)
		return 0;
	return tm_tfs_fail(in, "error_log", errno, "clear");
}

/* The line starting at p, without its newline, into a NUL-terminated copy. */
static char *errlog_line(const char *p)
{
	return strndup(p, strcspn(p, "\n"));
}

/* The caret line under "  Command: ": the command's index the caret points at, or -1. */
static long errlog_caret(const char *line)
{
	const char *caret = strchr(line, '^');
	long col;

	if (!caret || strspn(line, " ") != (size_t)(caret - line))
		return -1;
	col = (long)(caret - line) - (long)strlen(TM_ERRLOG_CMD);
	return col >= 0 ? col : -1;
}

/*
 * One entry: "[ts] LOCATION: error: REASON", "  Command: CMD", a caret line.
 * Writes "REASON (position N: CMD-before ^CMD-after)" into out.
 */
static void errlog_format(const char *entry, char *out, size_t len)
{
	const char *reason = entry, *cmd_at, *nl, *e;
	size_t head = strcspn(entry, "\n");
	char *why = NULL, *cmd = NULL, *caret = NULL;
	long pos = -1;

	/* "[ts] event filter parse error: error: REASON": the last "error: " of the line */
	for (e = strstr(entry, "error: "); e && e < entry + head; e = strstr(e + 1, "error: "))
		reason = e + strlen("error: ");
	why = errlog_line(reason);
	nl = strchr(reason, '\n');
	cmd_at = nl && !strncmp(nl + 1, TM_ERRLOG_CMD, strlen(TM_ERRLOG_CMD)) ? nl + 1 : NULL;
	if (cmd_at) {
		cmd = errlog_line(cmd_at + strlen(TM_ERRLOG_CMD));
		nl = strchr(cmd_at, '\n');
		caret = nl ? errlog_line(nl + 1) : NULL;
		pos = caret ? errlog_caret(caret) : -1;
	}
	if (why && cmd && pos >= 0 && (size_t)pos <= strlen(cmd))
		snprintf(out, len, "%s (position %ld: %.*s^%s)", why, pos, (int)pos, cmd, cmd + pos);
	else
		snprintf(out, len, "%s", why ? why : "");
	free(why);
	free(cmd);
	free(caret);
}

bool tm_errlog_last(struct tracefs_instance *in, char *out, size_t len)
{
	char *entry;

	if (len)
		out[0] = '\0';
	/* the newest entry, as the kernel wrote it; ours is one line */
	entry = tracefs_error_last(in);
	if (entry)
		errlog_format(entry, out, len);
	free(entry);
	return len && out[0];
}

int tm_file_put_why(struct tracefs_instance *in, const char *file, const char *text, bool append,
		    char *why, size_t len)
{
	int err;

	if (len)
		why[0] = '\0';
	if (tm_errlog_clear(in))
		return -1;
	if (!(append ? tm_tfs_append : tm_tfs_write)(in, file, text))
		return 0;
	err = errno;
	tm_errlog_last(in, why, len);
	errno = err;
	return -1;
}
