// SPDX-License-Identifier: GPL-2.0-only
/* tracemap.c - the tracemap command: global options and subcommand dispatch. */
#include <argp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tracemap.h"

const char *argp_program_version = "tracemap " TM_VERSION;

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	/*
	 * Its outputs can be made again from its inputs: a stop signal removes
	 * the hidden temporaries it writes (tm-cleanup.h). Not extract (what it
	 * read is gone from the kernel) nor record and stream (their own handlers).
	 */
	bool remade;
};

static const struct subcommand subcommands[] = {
	{ "record", cmd_record, false },
	{ "report", cmd_report, true },
	{ "convert", cmd_convert, true },
	{ "sql",    cmd_sql, true },
	{ "stream", cmd_stream, false },
	{ "list",   cmd_list, false },
	{ "reset",  cmd_reset, false },
	{ "extract", cmd_extract, false },
	{ "arm", cmd_arm, false },
	{ "recover", cmd_recover, true },
	{ "fleet", cmd_fleet, false },
};

static const char doc[] =
	"tracemap -- record the Linux ftrace ring buffer through mmap, "
	"into trace.dat files that trace-cmd reads\v"
	"Subcommands:\n"
	"  record    record ftrace events into a trace.dat file\n"
	"  report    print the events of a trace.dat file\n"
	"  convert   turn a trace.dat file into a Perfetto trace or Chrome JSON\n"
	"  sql       query trace.dat files with SQL (SQLite)\n"
	"  stream    print events live as they happen\n"
	"  list      list events, systems, clocks, tracers, options\n"
	"  reset     remove instances left by dead tracemap processes\n"
	"  extract   write what an existing buffer holds into a trace.dat file\n"
	"  arm       start tracing in a (persistent) instance and leave it running\n"
	"  recover   make a trace.dat of the spools a killed recording left\n"
	"  fleet     load trace databases into ClickHouse, ask the fleet\n"
	"  help SUBCOMMAND   show a subcommand's options\n"
	"\nExamples:\n"
	"  tracemap record -e sched -- sleep 1\n"
	"  tracemap report trace.dat\n"
	"  tracemap convert trace.dat -o trace.pftrace\n"
	"  tracemap stream -e sched -F -- sleep 1 | grep sleep\n"
	"\nSee tracemap(1) and tracemap-SUBCOMMAND(1).";

struct dispatch {
	int sub_index;		/* argv index of the subcommand, 0 if none */
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct dispatch *d = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_ARG:
		/* everything from the subcommand on belongs to it */
		d->sub_index = state->next - 1;
		state->next = state->argc;
		return 0;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "missing subcommand");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp top_argp = {
	.parser = parse_opt,
	.args_doc = "SUBCOMMAND [OPTION...]",
	.doc = doc,
};

static const struct subcommand *find_subcommand(const char *name)
{
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

static int unknown_subcommand(const char *name)
{
	fprintf(stderr, "tracemap: unknown subcommand '%s'\n"
		"Try 'tracemap --help' for the list of subcommands.\n", name);
	return TM_EXIT_USAGE;
}

/* Run sub with argv[0] = "tracemap <name>" followed by its own arguments. */
static int run_subcommand(const struct subcommand *sub, int argc, char **argv)
{
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "tracemap %s", sub->name);
	argv[0] = name;
	if (sub->remade)
		tm_cleanup_on_stop_signals();
	ret = sub->run(argc, argv);
	fflush(stdout);
	return ret;
}

static int run_help(int argc, char **argv)
{
	const struct subcommand *sub;
	char *help_argv[3];

	if (argc < 2) {
		/* the same text as --help, default options included (argp exits 0) */
		char *top[] = { (char *)"tracemap", (char *)"--help", NULL };
		struct dispatch d = { 0 };

		argp_parse(&top_argp, 2, top, 0, NULL, &d);
		return TM_EXIT_OK;
	}
	sub = find_subcommand(argv[1]);
	if (!sub)
		return unknown_subcommand(argv[1]);
	help_argv[0] = argv[1];
	help_argv[1] = (char *)"--help";
	help_argv[2] = NULL;
	return run_subcommand(sub, 2, help_argv);
}

int main(int argc, char **argv)
{
	struct dispatch d = { 0 };
	const struct subcommand *sub;
	char **sub_argv;

	argp_err_exit_status = TM_EXIT_USAGE;
	argp_parse(&top_argp, argc, argv, ARGP_IN_ORDER, NULL, &d);
	if (!d.sub_index)
		return TM_EXIT_USAGE;
	sub_argv = argv + d.sub_index;
	if (!strcmp(sub_argv[0], "help"))
		return run_help(argc - d.sub_index, sub_argv);
	sub = find_subcommand(sub_argv[0]);
	if (!sub)
		return unknown_subcommand(sub_argv[0]);
	return run_subcommand(sub, argc - d.sub_index, sub_argv);
}
