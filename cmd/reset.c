// SPDX-License-Identifier: GPL-2.0-only
/*
 * reset.c - `tracemap reset`: name, and with --stale remove, instances and
 * probe groups (tracemap_PID: uprobes, kprobes) of dead tracemap runs; name the spools such a
 * run left in the current directory and $TMPDIR (`tracemap recover` saves them).
 */
#include <argp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tracemap.h"

struct reset_opts {
	bool stale;	/* remove; without it only say what would go */
};

static const struct argp_option options[] = {
	{ "stale", 's', NULL, 0,
	  "Remove the instances/tracemap-PID directories and tracemap_PID uprobes and kprobes "
	  "whose tracemap process is gone", 0 },
	{ 0 }
};

static const char doc[] =
	"Find instances, uprobes and kprobes left behind by tracemap processes that no longer "
	"run.\v"
	"Without --stale this is a dry run: it prints what it would remove and removes "
	"nothing. Instances and probes of running tracemap processes and those of other "
	"tools are never touched. Spools a killed recording left in the current directory "
	"or $TMPDIR are named, never removed: 'tracemap recover OUTPUT' saves them.";

static const char examples[] =
	"  tracemap reset\n"
	"  tracemap reset --stale\n";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct reset_opts *o = state->input;

	(void)arg;
	switch (key) {
	case 's':
		o->stale = true;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp reset_argp = {
	.options = options,
	.parser = parse_opt,
	.doc = doc,
};

/*
 * The spool set of a killed recording whose instance is name: its ring holds
 * the rest of that recording, which `recover` takes; NULL if none.
 */
static const struct tm_orphan *ring_owner(struct tm_orphan *const *sets, const char *name)
{
	for (int i = 0; i < 3; i++)
		for (const struct tm_orphan *o = sets[i]; o && o->prefix; o++)
			if (!strcmp(o->instance, name))
				return o;
	return NULL;
}

/* Say why an instance stays; true when it does. */
static bool keep_for_recover(struct tm_orphan *const *sets, const char *name)
{
	const struct tm_orphan *o = ring_owner(sets, name);

	if (!o)
		return false;
	cmd_err("reset", "%s kept: its ring holds the rest of the killed recording %s; "
		"'tracemap recover %s' saves it and removes the instance", name, o->prefix,
		o->prefix);
	return true;
}

/* Remove each stale instance, going on past failures; TM_EXIT_FAIL if any failed. */
static int remove_all(const char *tracefs, char **stale, struct tm_orphan *const *sets)
{
	int ret = TM_EXIT_OK;

	for (char **name = stale; *name; name++) {
		if (keep_for_recover(sets, *name))
			continue;
		if (tm_instance_remove(tracefs, *name)) {
			ret = cmd_fail("reset");
			continue;
		}
		printf("removed %s\n", *name);
	}
	return ret;
}

/*
 * Is the probe group/EVENT tracemap_PID's, whose instance tracemap-PID is
 * kept for recover? Its instance enables it: it stays with it.
 */
static bool probe_kept(struct tm_orphan *const *sets, const char *ev)
{
	char name[64];

	return tm_probe_instance(ev, name, sizeof(name)) && ring_owner(sets, name);
}

/* Stale probes of kind, after the instances (a probe an instance enables is busy). */
static int reset_probes(const char *tracefs, enum tm_probe_kind kind, bool remove,
			struct tm_orphan *const *sets)
{
	char **stale = tm_probe_list_stale(tracefs, kind);
	const char *what = tm_probe_kind_name(kind);
	int ret = TM_EXIT_OK;

	if (!stale)
		return cmd_fail("reset");
	for (char **ev = stale; *ev; ev++) {
		if (probe_kept(sets, *ev))
			cmd_err("reset", "%s %s kept with its instance", what, *ev);
		else if (!remove)
			printf("would remove %s %s\n", what, *ev);
		else if (tm_probe_remove_event(tracefs, kind, *ev))
			ret = cmd_fail("reset");
		else
			printf("removed %s %s\n", what, *ev);
	}
	tm_strv_free(stale);
	return ret;
}

/* Is prefix a set of list? */
static bool has_set(const struct tm_orphan *list, const char *prefix)
{
	for (const struct tm_orphan *o = list; o && o->prefix; o++)
		if (!strcmp(o->prefix, prefix))
			return true;
	return false;
}

/*
 * Name the spools of dead recorders in sets[i] (never removed: recover saves
 * them), each set once: the registry's may be in the directories too.
 */
static void report_spools(struct tm_orphan *const *sets, int i)
{
	const struct tm_orphan *list = sets[i];

	if (!list)
		return;	/* an unreadable directory holds nothing we can name */
	for (const struct tm_orphan *o = list; o->prefix; o++) {
		if (!o->files || (i == 2 && (has_set(sets[0], o->prefix) ||
					     has_set(sets[1], o->prefix))))
			continue;
		cmd_err("reset", "%s%s: spools of a killed recording (tracemap pid %d); "
			   "'tracemap recover %s' makes them a trace.dat", o->first,
			   o->files > 1 ? " and more" : "", (int)o->pid, o->prefix);
	}
}

/*
 * The killed recordings' spool sets of the current directory, of $TMPDIR
 * and of the registry (wherever -o put them).
 */
static void find_spool_sets(struct tm_orphan *sets[3])
{
	const char *tmp = getenv("TMPDIR");
	char *cwd = realpath(".", NULL), *tdir;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	tdir = realpath(tmp, NULL);
	sets[0] = tm_spools_orphaned(".");
	sets[1] = tdir && (!cwd || strcmp(cwd, tdir)) ? tm_spools_orphaned(tdir) : NULL;
	sets[2] = tm_spools_registered();
	free(cwd);
	free(tdir);
}

int cmd_reset(int argc, char **argv)
{
	struct reset_opts o = { 0 };
	struct tm_orphan *sets[3];
	const char *tracefs;
	char **stale;
	int ret = TM_EXIT_OK;

	if (cmd_parse(&reset_argp, argc, argv, 0, &o, examples))
		return TM_EXIT_USAGE;
	tracefs = tm_tracefs_open(o.stale);
	if (!tracefs)
		return cmd_fail("reset");
	stale = tm_instance_list_stale(tracefs);
	if (!stale)
		return cmd_fail("reset");
	find_spool_sets(sets);
	if (!stale[0]) {
		cmd_err("reset", "no stale tracemap instances in %s/instances", tracefs);
	} else if (o.stale) {
		ret = remove_all(tracefs, stale, sets);
	} else {
		int doomed = 0;

		for (char **name = stale; *name; name++)
			if (!keep_for_recover(sets, *name) && ++doomed)
				printf("would remove %s\n", *name);
		fflush(stdout);
		if (doomed)
			cmd_err("reset", "dry run: 'tracemap reset --stale' removes them");
		else
			cmd_err("reset", "dry run: 'tracemap reset --stale' would keep them all");
	}
	if (o.stale)
		tm_spools_registry_prune();
	tm_strv_free(stale);
	for (int kind = 0; kind < TM_PROBE_KINDS; kind++)
		if (reset_probes(tracefs, kind, o.stale, sets))
			ret = TM_EXIT_FAIL;
	for (int i = 0; i < 3; i++)
		report_spools(sets, i);
	for (int i = 0; i < 3; i++)
		tm_orphans_free(sets[i]);
	return ret;
}
