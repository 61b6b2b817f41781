/* SPDX-License-Identifier: GPL-2.0-only */
/* record.h - the record subcommand's parsed options, shared by record.c and record-run.c. */
#ifndef TM_CMD_RECORD_H
#define TM_CMD_RECORD_H

#include <stdbool.h>

#include "capture.h"

struct record_opts {
	struct capture_opts	cap;		/* what record shares with stream */
	const char		*output;
	long			file_version;
	enum tm_compression	compression;
	bool			compression_set;
	long			level;
	bool			fixed_level;	/* no faster levels when a CPU falls behind */
	bool			fail_on_loss;
	bool			date;		/* --date: store the DATE option */
};

/* Run a recording; returns the exit code. */
int record_run(const struct record_opts *o);

#endif /* TM_CMD_RECORD_H */
