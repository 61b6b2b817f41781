// SPDX-License-Identifier: GPL-2.0-only
/*
 * errlog.c - the kernel's reason for a refused tracefs write (a filter, a
 * trigger, a probe), read from the error_log file beside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errlog.h"
#include "util/internal.h"

#define TM_ERRLOG_CMD	"  Command: "

int tm_errlog_clear(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	if (tm_path(path, sizeof(path), "%s/error_log", dir))
		return -1;
	/* opening it for writing with O_TRUNC empties it; kernels before 5.6 have none */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : tm_fail(errno, "clear %s", path);
	close(fd);
	return 0;
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

bool tm_errlog_last(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX], *text, *entry, *p;

	if (len)
		out[0] = '\0';
	if (tm_path(path, sizeof(path), "%s/error_log", dir))
		return false;
	text = tm_read_file(path, NULL);
	if (!text)
		return false;
	/* entries start with "[" at the beginning of a line; take the last one */
	entry = text[0] == '[' ? text : NULL;
	for (p = strstr(text, "\n["); p; p = strstr(p + 1, "\n["))
		entry = p + 1;
	if (entry)
		errlog_format(entry, out, len);
	free(text);
	return len && out[0];
}

int tm_file_put_why(const char *dir, const char *file, const char *text, bool append,
		    char *why, size_t len)
{
	int err;

	if (len)
		why[0] = '\0';
	if (tm_errlog_clear(dir))
		return -1;
	if (!(append ? tm_file_append : tm_file_write)(dir, file, text))
		return 0;
	err = errno;
	tm_errlog_last(dir, why, len);
	errno = err;
	return -1;
}
