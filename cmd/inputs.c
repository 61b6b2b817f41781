// SPDX-License-Identifier: GPL-2.0-only
/* inputs.c - the trace.dat files of convert and sql, opened on one timeline. */
#include "cmd.h"
#include "inputs.h"
#include "dat/tm-dat.h"

void cmd_inputs_close(struct cmd_inputs *in)
{
	while (in->n)
		tm_dat_close(in->dat[--in->n]);
}

int cmd_inputs_open(struct cmd_inputs *in, const char *const *paths, int n, const char *sub)
{
	for (in->n = 0; in->n < n; in->n++) {
		in->dat[in->n] = tm_dat_open(paths[in->n]);
		if (!in->dat[in->n])
			goto fail;
	}
	in->machines = tm_dat_machines(in->dat, in->n, in->machine);
	if (in->machines >= 0)
		return 0;
fail:
	cmd_fail(sub);
	cmd_inputs_close(in);
	return TM_EXIT_FAIL;
}
