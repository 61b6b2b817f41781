// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm.c - `tracemap arm`: start tracing in an existing (persistent) instance
 * and leave it running, as trace-cmd start -B does; --stop, --clear.
 */
#include <argp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "tracemap.h"

#define SUB		"arm"
#define MAX_EVENTS	64
#define MAX_OPTIONS	64

enum { OPT_STOP = 0x100, OPT_CLEAR, OPT_FORCE };

struct arm_opts {
	const char		*instance;
	struct tm_arm_event	events[MAX_EVENTS];
	int			nevents;
	const char		*options[MAX_OPTIONS + 1];
	int			noptions;
	const char		*clock, *tracer;
	bool			stop, clear, force;
};

static const struct argp_option options[] = {
	{ "instance", 'B', "NAME", 0, "the instance (required): instances/NAME", 0 },
	{ "event", 'e', "SYSTEM[:EVENT]", 0, "enable an event or a system (repeatable)", 0 },
	{ "filter", 'f', "FILTER", 0, "filter for the preceding -e (kernel syntax)", 0 },
	{ "option", 'O', "OPTION", 0, "set a tracefs option in the instance, 'noOPTION' "
	  "clears it (e.g. stacktrace; repeatable)", 0 },
	{ "clock", 'C', "CLOCK", 0, "trace clock (local, global, mono, ...)", 0 },
	{ "tracer", 'p', "TRACER", 0, "run TRACER in the instance (see tracemap list -t)", 0 },
	{ "force", OPT_FORCE, NULL, 0, "arm an instance that is not persistent, or discard "
	  "the previous boot's events a persistent one holds", 0 },
	{ "stop", OPT_STOP, NULL, 0, "turn tracing off in the instance", 0 },
	{ "clear", OPT_CLEAR, NULL, 0, "empty the instance's buffer", 0 },
	{ 0 }
};

static const char doc[] =
	"Start tracing in an existing instance and leave it running after tracemap exits "
	"(like trace-cmd start -B): for a persistent instance, whose buffer the kernel "
	"keeps across a warm reboot (reserve_mem= and trace_instance= on its command line)."
	"\vAn instance that is not persistent is refused unless --force, and so is a "
	"persistent one that still holds the previous boot's events (extract them first). "
	"Nothing outside the instance changes. 'tracemap list -I' shows the instances. "
	"Every name is checked before anything is written, and a setting the kernel refuses "
	"puts back all that was written. Exit status: 0 ok, 1 failure, 2 usage error. See tracemap-arm(1).";

static const char examples[] =
	"  tracemap arm -B boot_map -e sched -e irq\n"
	"  tracemap arm -B boot_map -e sched:sched_switch -f 'prev_pid != 0' "
	"-O stacktrace -C mono\n"
	"  tracemap arm --stop -B boot_map\n"
	"  tracemap arm --clear -B boot_map\n";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct arm_opts *o = state->input;
	bool arming;

	switch (key) {
	case 'B': o->instance = arg; break;
	case 'e':
		if (o->nevents == MAX_EVENTS)
			argp_error(state, "at most %d -e", MAX_EVENTS);
		o->events[o->nevents++].spec = arg;
		break;
	case 'f':
		if (!o->nevents)
			argp_error(state, "-f FILTER needs an -e before it");
		if (o->events[o->nevents - 1].filter)
			argp_error(state, "one -f for each -e");
		o->events[o->nevents - 1].filter = arg;
		break;
	case 'O':
		if (o->noptions == MAX_OPTIONS)
			argp_error(state, "at most %d -O", MAX_OPTIONS);
		o->options[o->noptions++] = arg;
		break;
	case 'C': o->clock = arg; break;
	case 'p': o->tracer = arg; break;
	case OPT_FORCE: o->force = true; break;
	case OPT_STOP: o->stop = true; break;
	case OPT_CLEAR: o->clear = true; break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (!o->instance || !*o->instance)
			argp_error(state, "-B NAME is required");
		arming = o->nevents || o->noptions || o->clock || o->tracer;
		if (o->stop + o->clear + arming > 1)
			argp_error(state, "choose one of arming (-e, -O, -C, -p), --stop, --clear");
		if (!o->stop && !o->clear && !arming)
			argp_error(state, "nothing to arm: give -e SYSTEM[:EVENT], -O, -C or -p");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_arm(int argc, char **argv)
{
	const struct argp argp = { .options = options, .parser = parse_opt, .doc = doc };
	struct arm_opts o = { 0 };
	struct tm_arm_opts ao = { 0 };
	int ret;

	if (cmd_parse(&argp, argc, argv, 0, &o, examples))
		return TM_EXIT_USAGE;
	ao.tracefs = tm_tracefs_open(true);
	if (!ao.tracefs)
		return cmd_fail(SUB);
	if (o.stop)
		ret = tm_arm_stop(ao.tracefs, o.instance);
	else if (o.clear)
		ret = tm_arm_clear(ao.tracefs, o.instance);
	else {
		ao.instance = o.instance;
		ao.events = o.events;
		ao.nevents = o.nevents;
		ao.options = o.options;
		ao.clock = o.clock;
		ao.tracer = o.tracer;
		ao.force = o.force;
		ret = tm_arm_start(&ao);
	}
	return ret ? cmd_fail(SUB) : TM_EXIT_OK;
}
