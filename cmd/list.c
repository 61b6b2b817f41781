// SPDX-License-Identifier: GPL-2.0-only
/* list.c - placeholder until the subcommand lands (replaced by its issue). */
#include "cmd.h"

int cmd_list(int argc, char **argv)
{
	(void)argc;
	tm_cmd_err("list", "not implemented yet");
	(void)argv;
	return TM_EXIT_FAIL;
}
