/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-output.h - how every output file is opened and finished: a regular file
 * (or a new one) may be truncated, written under a temporary and renamed,
 * or removed after a failure; anything else (a device, a FIFO, a pipe,
 * standard output) is written straight through and never truncated,
 * renamed or removed. A symbolic link is followed: its final target is what
 * gets written (and replaced), the link stays.
 */
#ifndef TM_OUTPUT_H
#define TM_OUTPUT_H

#include <limits.h>
#include <stdbool.h>

enum {
	/* a regular file is written as a temporary beside it, renamed over it at the end */
	TM_OUTPUT_REPLACE	= 1 << 0,
	/* a regular file is emptied at open (else: tm_output_truncate() when the caller says) */
	TM_OUTPUT_TRUNCATE	= 1 << 1,
};

struct tm_output {
	int	fd;
	bool	is_stdout;	/* "-": standard output */
	bool	stream;		/* not a regular file: written straight through */
	bool	owned;		/* a regular file this open created or emptied: removed on failure */
	char	path[PATH_MAX];	/* what is written: a symbolic link's final target */
	char	tmp[PATH_MAX];	/* TM_OUTPUT_REPLACE: the temporary beside path, "" if none */
};

/*
 * True when path ("-" too) names something that exists and is not a
 * regular file (or a link to one): a device, a FIFO, a socket.
 */
bool tm_output_is_stream(const char *path);
/*
 * Open path ("-": standard output) for writing with TM_OUTPUT_* flags. A
 * directory is refused. -1 + message naming path.
 */
int tm_output_open(struct tm_output *out, const char *path, int flags);
/* Empty a regular file and rewind it; nothing for a stream. -1 + message. */
int tm_output_truncate(struct tm_output *out);
/*
 * Finish: ok flushes a regular file to disk (fsync) and renames the
 * temporary over the target; !ok removes the temporary, or the file if
 * owned. Closes the file (never standard output). -1 + message when ok
 * failed (then as !ok).
 */
int tm_output_close(struct tm_output *out, bool ok);

#endif /* TM_OUTPUT_H */
