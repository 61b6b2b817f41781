/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-outfile.h - how every output file is opened and finished: a regular file
 * (or a new one) may be truncated, written under a temporary and renamed,
 * or removed after a failure; anything else (a device, a FIFO, a pipe,
 * standard output) is written straight through and never truncated,
 * renamed or removed. A symbolic link is followed: its final target is what
 * gets written (and replaced), the link stays.
 */
#ifndef TM_OUTFILE_H
#define TM_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

enum {
	/* a regular file is written as a temporary beside it, renamed over it at the end */
	TM_OUTFILE_REPLACE	= 1 << 0,
	/* a regular file is emptied at open (else: tm_outfile_truncate() when the caller says) */
	TM_OUTFILE_TRUNCATE	= 1 << 1,
};

struct tm_outfile {
	int	fd;
	bool	is_stdout;	/* "-": standard output */
	bool	stream;		/* not a regular file: written straight through */
	bool	owned;		/* a regular file this open created or emptied: removed on failure */
	char	path[PATH_MAX];	/* what is written: a symbolic link's final target */
	char	tmp[PATH_MAX];	/* TM_OUTFILE_REPLACE: the temporary beside path, "" if none */
};

/*
 * True when path ("-" too) names something that exists and is not a
 * regular file (or a link to one): a device, a FIFO, a socket.
 */
bool tm_outfile_is_stream(const char *path);
/*
 * Open path ("-": standard output) for writing with TM_OUTFILE_* flags. A
 * directory is refused. -1 + message naming path.
 */
int tm_outfile_open(struct tm_outfile *out, const char *path, int flags);
/*
 * Finish: ok flushes a regular file to disk (fsync) and renames the
 * temporary over the target; !ok removes the temporary, or the file if
 * owned. Closes the file (never standard output). -1 + message when ok
 * failed (then as !ok).
 */
int tm_outfile_close(struct tm_outfile *out, bool ok);

/*
 * gzip-out.c: a FILE whose bytes go gzip-compressed into dst (which stays
 * open). fclose() writes the end of the gzip stream: EOF when that or an
 * earlier write to dst failed (errno set). NULL + message.
 */
FILE *tm_gzip_open(FILE *dst);

/*
 * zstd-out.c: the same with one zstd frame at level (content checksum on),
 * compressed on a zstd worker thread where libzstd has them.
 */
FILE *tm_zstd_open(FILE *dst, int level);

#endif /* TM_OUTFILE_H */
