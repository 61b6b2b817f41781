/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd.h - what the subcommands share: entry points and error printing. */
#ifndef TM_CMD_H
#define TM_CMD_H

#include <argp.h>
#include <stdbool.h>
#include <stdint.h>

#include "print/tm-print.h"

/* Exit codes: 0 ok, 1 runtime failure, 2 usage error, 3 events lost (--fail-on-loss). */
enum {
	TM_EXIT_OK	= 0,
	TM_EXIT_FAIL	= 1,
	TM_EXIT_USAGE	= 2,
	TM_EXIT_LOST	= 3,
};

/* Each subcommand gets argv[0] = "tracemap <name>" so argp names it in messages. */
int cmd_list(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_sql(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_stream(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_arm(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_fleet(int argc, char **argv);

/*
 * argp_parse() of a subcommand: --help prints argp's text, then "Examples:"
 * and examples (lines "  tracemap SUB ...\n") unwrapped, so that each can be
 * copied; --usage and --version as argp's. flags as argp_parse()'s.
 */
error_t cmd_parse(const struct argp *argp, int argc, char **argv, unsigned int flags,
		     void *input, const char *examples);

/* "tracemap <sub>: <fmt>\n" on stderr. */
void cmd_err(const char *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print tm_last_error() as "tracemap <sub>: <message>" and return TM_EXIT_FAIL. */
int cmd_fail(const char *sub);
/*
 * cmd_fail() for a failure while writing the output named name: one the
 * disk refused (errno err ENOSPC, EDQUOT, EFBIG) is said as "write
 * NAME: <errno text>", since the library's message cannot name the file.
 */
int cmd_fail_output(const char *sub, const char *name, int err);

/*
 * The library's warnings about bad input it worked around (a line dropped,
 * a record skipped): the first TM_CMD_MAX_WARNINGS as "tracemap <sub>:
 * warning: ...", then only counted; nothing when quiet.
 */
#define TM_CMD_MAX_WARNINGS	20
struct status_line;
struct cmd_warn {
	const char		*sub;
	bool			quiet;
	unsigned int		shown, hidden;
	struct status_line	*status;	/* erased before a warning; NULL: none */
};
/* A tm_warn_fn; ctx is a struct cmd_warn. */
void cmd_warning(void *ctx, const char *msg);
/* At the end: "FILE: N records skipped (...), M more warnings not shown" if either is nonzero. */
void cmd_warn_summary(const struct cmd_warn *w, const char *file, uint64_t skipped);

/* Strict integer parsing for option arguments: whole string, in [min, max]. */
bool parse_long(const char *s, long min, long max, long *out);
/*
 * A size: a number with B, K, M or G (binary units: K = 1024; lower case
 * too, but 'm' only without need_unit, where no time is allowed), or plain
 * bytes without need_unit. 1 byte to 1 PiB.
 */
bool parse_size(const char *s, bool need_unit, uint64_t *out);
/* A time: a number with s, m, h or d, or plain seconds without need_unit; at most 1e7 s. */
bool parse_seconds(const char *s, bool need_unit, double *out);
/* parse_long() of an option argument, or argp_error() "bad <what> '<s>' (expected min-max)". */
long arg_long(struct argp_state *state, const char *what, const char *s, long min, long max);
/* --compat VERSION: 3.1 (3.1.6's text) or 3.4 (also 3.2, 3.3: current), else argp_error(). */
enum tm_text_compat arg_compat(struct argp_state *state, const char *s);
/* --compression: zstd or none (tm_compression_parse()), or argp_error(). */
enum tm_compression arg_compression(struct argp_state *state, const char *s);
/* --file-version: a version this tracemap writes, or argp_error(). */
long arg_file_version(struct argp_state *state, const char *s);

#endif /* TM_CMD_H */
