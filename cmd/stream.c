// SPDX-License-Identifier: GPL-2.0-only
/* stream.c - placeholder until the subcommand lands (replaced by its issue). */
#include "cmd.h"

int cmd_stream(int argc, char **argv)
{
	(void)argc;
	tm_cmd_err("stream", "not implemented yet");
	(void)argv;
	return TM_EXIT_FAIL;
}
