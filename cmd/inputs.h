/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inputs.h - the trace.dat files a subcommand reads on one timeline
 * (convert, sql): opened, the machine of each (tm_dat_machines()), closed.
 */
#ifndef TM_CMD_INPUTS_H
#define TM_CMD_INPUTS_H

/* Input files convert and sql take at the most. */
#define CMD_MAX_INPUTS	4096

struct tm_dat;

struct cmd_inputs {
	struct tm_dat	*dat[CMD_MAX_INPUTS];
	int		machine[CMD_MAX_INPUTS];	/* dat[i]'s machine: 0, 1, ... */
	int		n, machines;
};

/*
 * Open paths[0..n) into in and tell each one's machine; on failure print
 * "tracemap SUB: message", close what was opened and return TM_EXIT_FAIL.
 */
int cmd_inputs_open(struct cmd_inputs *in, const char *const *paths, int n, const char *sub);
/* Close every file of in. */
void cmd_inputs_close(struct cmd_inputs *in);

#endif /* TM_CMD_INPUTS_H */
