/* SPDX-License-Identifier: GPL-2.0-only */
/* record.h - the record subcommand's parsed options, shared by record.c, record-run.c and record-long.c. */
#ifndef TM_CMD_RECORD_H
#define TM_CMD_RECORD_H

#include <stdbool.h>
#include <stdint.h>

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
	/* long recordings: numbered files OUTPUT.0001.dat, ... (record-long.c) */
	uint64_t		flight_bytes;	/* --flight SIZE, 0: none */
	uint64_t		switch_bytes;	/* --switch-output SIZE */
	double			switch_secs;	/* --switch-output TIME */
	bool			switch_signal;	/* --switch-output signal */
	long			max_files;	/* 0: keep all */
	const char		*trigger;	/* --trigger SYSTEM:EVENT[:FILTER] */
	double			post;		/* seconds recorded after a trigger */
	bool			post_set;
	long			max_dumps;	/* 0: no limit */
	double			flush_secs;	/* --flush-interval: spool chunks at least this often */
};

/* True when the options ask for numbered files (flight, rotation, trigger). */
static inline bool record_is_long(const struct record_opts *o)
{
	return o->flight_bytes || o->switch_bytes || o->switch_secs > 0 || o->switch_signal ||
	       o->trigger;
}

/*
 * The one translation of record's options into its file's (record-run.c):
 * the file of a recording and each numbered file of a long one carry the
 * same. date: what record_date() measured.
 */
struct tm_recfile_opts record_file_opts(const struct capture *c, const struct record_opts *o,
					const char *date);
/*
 * --date: the wall-clock offset into date, measured before the buffers are
 * mapped (nothing without --date); -1 after the message.
 */
int record_date(struct capture *c, const struct record_opts *o, char *date, size_t len);

/* Run a recording; returns the exit code. */
int record_run(const struct record_opts *o);
/* Run a recording into numbered files (record_is_long()); returns the exit code. */
int record_long_run(const struct record_opts *o);

/*
 * --flush-interval is split in two: half for a page read in part to reach
 * its spool (the recorder's partial rounds), half for the chunk it joins.
 */
static inline unsigned int record_flush_half_ms(const struct record_opts *o)
{
	return (unsigned int)(o->flush_secs * 500 + 0.5);
}

#endif /* TM_CMD_RECORD_H */
