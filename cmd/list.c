// SPDX-License-Identifier: GPL-2.0-only
/*
 * list.c - `tracemap list`: print events, systems, clocks, tracers, options, a
 * format or the instances.
 */
#include <argp.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "tracemap.h"
#include "tracefs/tm-list.h"

enum list_what {
	LIST_DEFAULT,	/* nothing chosen: events */
	LIST_EVENTS,
	LIST_SYSTEMS,
	LIST_CLOCKS,
	LIST_TRACERS,
	LIST_OPTIONS,
	LIST_FORMAT,
	LIST_FUNCTIONS,
	LIST_INSTANCES,
};

struct list_opts {
	enum list_what what;
	const char *pattern;	/* -e or -f REGEX, or the bare argument */
	const char *event;	/* -F EVENT */
	const char *instance;	/* -B NAME, NULL for the top level */
};

static const struct argp_option options[] = {
	{ "events", 'e', "REGEX", OPTION_ARG_OPTIONAL,
	  "Events as SYSTEM:EVENT, only those matching REGEX (POSIX extended, unanchored) "
	  "if given (the default)", 0 },
	{ "systems", 's', NULL, 0, "Event systems", 0 },
	{ "clocks", 'c', NULL, 0, "Trace clocks, the current one in [brackets]", 0 },
	{ "tracers", 't', NULL, 0, "Available tracers", 0 },
	{ "options", 'o', NULL, 0, "Tracing options as NAME VALUE lines (VALUE 0 or 1)", 0 },
	{ "format", 'F', "EVENT", 0,
	  "The format of EVENT (SYSTEM:EVENT, or EVENT if one system has it)", 0 },
	{ "functions", 'f', "REGEX", OPTION_ARG_OPTIONAL,
	  "Functions the function tracers can trace (available_filter_functions, "
	  "always the top level's), only those matching REGEX if given", 0 },
	{ "instances", 'I', NULL, 0, "Instances: buffer size per CPU, whether persistent "
	  "(boot-mapped) and holding the previous boot's events", 0 },
	{ "instance", 'B', "NAME", 0, "Read instance NAME instead of the top level", 0 },
	{ 0 }
};

static const char doc[] =
	"List what the kernel's tracefs offers; changes nothing.\v"
	"Selectors -e -s -c -t -o -F -f -I are mutually exclusive; without one, events are listed. "
	"A bare argument is the -e REGEX (with -f: the -f REGEX).";

static const char examples[] =
	"  tracemap list -e sched:sched_switch\n"
	"  tracemap list -e '^irq:'\n"
	"  tracemap list -F sched_switch\n"
	"  tracemap list -f '^vfs_'\n"
	"  tracemap list -c -B myinstance\n"
	"  tracemap list -I\n";

static void set_what(struct argp_state *state, struct list_opts *o, enum list_what what)
{
	if (o->what != LIST_DEFAULT && o->what != what)
		argp_error(state, "choose one of -e, -s, -c, -t, -o, -F, -f, -I");
	o->what = what;
}

/* The REGEX of -e, of -f, or the bare argument (of -f when -f is given). */
static void set_pattern(struct argp_state *state, struct list_opts *o, const char *arg,
			enum list_what what)
{
	if (o->pattern)
		argp_error(state, "only one REGEX may be given");
	if (what == LIST_EVENTS && o->what == LIST_FUNCTIONS)
		what = LIST_FUNCTIONS;
	set_what(state, o, what);
	o->pattern = arg;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct list_opts *o = state->input;

	switch (key) {
	case 'e':
		set_what(state, o, LIST_EVENTS);
		if (arg)
			set_pattern(state, o, arg, LIST_EVENTS);
		return 0;
	case 'f':
		set_what(state, o, LIST_FUNCTIONS);
		if (arg)
			set_pattern(state, o, arg, LIST_FUNCTIONS);
		return 0;
	case 's': set_what(state, o, LIST_SYSTEMS); return 0;
	case 'c': set_what(state, o, LIST_CLOCKS); return 0;
	case 't': set_what(state, o, LIST_TRACERS); return 0;
	case 'o': set_what(state, o, LIST_OPTIONS); return 0;
	case 'I': set_what(state, o, LIST_INSTANCES); return 0;
	case 'F':
		set_what(state, o, LIST_FORMAT);
		o->event = arg;
		return 0;
	case 'B':
		o->instance = arg;
		return 0;
	case ARGP_KEY_ARG:
		set_pattern(state, o, arg, LIST_EVENTS);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp list_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[REGEX]",
	.doc = doc,
};

static void print_strv(char **v)
{
	for (; *v; v++)
		puts(*v);
}

/* Events of dir, or (functions) the traceable functions of tracefs dir. */
static int list_matching(const char *dir, const char *pattern, bool functions)
{
	regex_t re;
	char **v;
	int err;

	if (pattern) {
		err = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
		if (err) {
			char msg[128];

			regerror(err, &re, msg, sizeof(msg));
			cmd_err("list", "invalid REGEX '%s': %s", pattern, msg);
			return TM_EXIT_USAGE;
		}
	}
	if (functions)
		v = tm_list_functions(dir, pattern ? &re : NULL);
	else
		v = tm_list_events(dir, pattern ? &re : NULL);
	if (pattern)
		regfree(&re);
	if (!v)
		return cmd_fail("list");
	print_strv(v);
	tm_strv_free(v);
	return TM_EXIT_OK;
}

static int list_clocks(const char *dir)
{
	int current;
	char **v = tm_list_clocks(dir, &current);

	if (!v)
		return cmd_fail("list");
	for (int i = 0; v[i]; i++)
		printf(i == current ? "[%s]\n" : "%s\n", v[i]);
	tm_strv_free(v);
	return TM_EXIT_OK;
}

static int list_format(const char *dir, const char *event)
{
	char *format = tm_list_event_format(dir, event);

	if (!format)
		return cmd_fail("list");
	fputs(format, stdout);
	free(format);
	return TM_EXIT_OK;
}

/* The lists that are plain string vectors. */
static int list_strv(const char *dir, enum list_what what)
{
	char **v;

	switch (what) {
	case LIST_SYSTEMS: v = tm_list_systems(dir); break;
	case LIST_TRACERS: v = tm_list_tracers(dir); break;
	case LIST_INSTANCES: v = tm_list_instances(dir); break;
	default: v = tm_list_options(dir); break;
	}
	if (!v)
		return cmd_fail("list");
	print_strv(v);
	tm_strv_free(v);
	return TM_EXIT_OK;
}

static int list_run(const struct list_opts *o, const char *tracefs, const char *dir)
{
	switch (o->what) {
	case LIST_DEFAULT:
	case LIST_EVENTS:
		return list_matching(dir, o->pattern, false);
	case LIST_FUNCTIONS:
		return list_matching(tracefs, o->pattern, true);
	case LIST_CLOCKS:
		return list_clocks(dir);
	case LIST_FORMAT:
		return list_format(dir, o->event);
	case LIST_INSTANCES:
		return list_strv(tracefs, o->what);
	default:
		return list_strv(dir, o->what);
	}
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	const char *tracefs;
	char *dir;
	int ret;

	if (cmd_parse(&list_argp, argc, argv, 0, &o, examples))
		return TM_EXIT_USAGE;
	tracefs = tm_tracefs_open(false);
	if (!tracefs)
		return cmd_fail("list");
	dir = tm_list_instance_dir(tracefs, o.instance);
	if (!dir)
		return cmd_fail("list");
	ret = list_run(&o, tracefs, dir);
	free(dir);
	if (fflush(stdout) && ret == TM_EXIT_OK) {
		cmd_err("list", "write standard output: %m");
		ret = TM_EXIT_FAIL;
	}
	return ret;
}
