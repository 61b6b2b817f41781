// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm.c - `tracemap arm`: tracing started in an existing instance and left
 * running after tracemap exits (trace-cmd start -B), stopped, cleared. A
 * persistent instance is the one the kernel gives a last_boot_info file;
 * others are armed only when asked for, so that no buffer that dies with
 * the machine is mistaken for one that survives it. Each file is saved in a
 * journal before its first write: a refusal halfway puts them all back.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "util/internal.h"
#include "util/tm-error.h"
#include "tracefs-internal.h"
#include "tm-arm.h"

static int check_persistent(struct tracefs_instance *in, const struct tm_arm_opts *o)
{
	char *prev;
	int persistent = tm_instance_last_boot(in, &prev);
	bool previous = prev;

	free(prev);
	if (persistent < 0)
		return -1;
	if (o->force)
		return 0;
	if (!persistent)
		return tm_failx(EPERM, "instance %s is not persistent (no last_boot_info: its "
				"buffer is not reserved at boot and dies with the machine); "
				"--force arms it anyway", o->instance);
	if (previous)
		return tm_failx(EEXIST, "instance %s holds the previous boot's events: "
				"'tracemap extract -B %s' them first (--force discards them)",
				o->instance, o->instance);
	return 0;
}

/* The system and event (NULL: the whole system) of "SYSTEM[:EVENT]", in buf. */
static int event_split(const char *spec, char *buf, size_t size, char **ev)
{
	if (snprintf(buf, size, "%s", spec) >= (int)size)
		return tm_failx(ENAMETOOLONG, "event %s: name too long", spec);
	*ev = strchr(buf, ':');
	if (*ev)
		*(*ev)++ = '\0';
	if (*ev && !**ev)
		*ev = NULL;
	return 0;
}

/* rel (events/SYS[/EVENT]/FILE) of an event spec; -1 + message if it has no such file. */
static int event_file(struct tracefs_instance *in, const char *spec, const char *file,
		      char *rel, size_t size)
{
	char buf[256], *ev;

	if (event_split(spec, buf, sizeof(buf), &ev))
		return -1;
	if (!*buf || strchr(buf, '/') || (ev && strchr(ev, '/')) ||
	    tm_path(rel, size, "events/%s%s%s/%s", buf, ev ? "/" : "", ev ?: "", file) ||
	    !tracefs_file_exists(in, rel))
		return tm_failx(ENOENT, "event %s: no such event in instance %s", spec,
				tracefs_instance_get_name(in));
	return 0;
}

/* "noNAME" is NAME off where options/noNAME does not exist; NULL if neither does. */
static const char *option_name(struct tracefs_instance *in, const char *opt, bool *on)
{
	char rel[PATH_MAX];

	*on = true;
	if (!*opt || strchr(opt, '/'))
		return NULL;
	if (!tm_path(rel, sizeof(rel), "options/%s", opt) && tracefs_file_exists(in, rel))
		return opt;
	*on = false;
	if (!strncmp(opt, "no", 2) && opt[2] &&
	    !tm_path(rel, sizeof(rel), "options/%s", opt + 2) && tracefs_file_exists(in, rel))
		return opt + 2;
	return NULL;
}

/* word is one of the words of the instance's file rel ("[local] global ..."). */
static int has_word(struct tracefs_instance *in, const char *rel, const char *word)
{
	char *text = tm_tfs_read(in, rel, NULL), *save = NULL;
	int found = 0;

	if (!text)
		return -1;
	for (char *w = strtok_r(text, " \t\n[]", &save); w && !found;
	     w = strtok_r(NULL, " \t\n[]", &save))
		found = !strcmp(w, word);
	free(text);
	return found;
}

/* Every name o gives exists in the instance: nothing is written before this holds. */
static int arm_check(struct tracefs_instance *in, const struct tm_arm_opts *o)
{
	char rel[PATH_MAX];
	bool on;
	int r;

	for (size_t i = 0; i < o->nevents; i++)
		if (event_file(in, o->events[i].spec, "enable", rel, sizeof(rel)))
			return -1;
	for (const char **p = o->options; p && *p; p++)
		if (!option_name(in, *p, &on))
			return tm_failx(EINVAL, "unknown tracefs option '%s' in instance %s "
					"(see tracemap list -o)", *p, o->instance);
	if (o->tracer) {
		r = has_word(in, "available_tracers", o->tracer);
		if (r <= 0)
			return r ?: tm_failx(EINVAL, "tracer %s: not offered in instance %s (see "
					     "tracemap list -t)", o->tracer, o->instance);
	}
	if (o->clock) {
		r = has_word(in, "trace_clock", o->clock);
		if (r <= 0)
			return r ?: tm_failx(EINVAL, "unknown trace clock '%s' (see tracemap "
					     "list -c)", o->clock);
	}
	return 0;
}

/* Write rel, saved in the journal first. */
static int arm_set(struct tracefs_instance *in, struct tm_journal *j, const char *rel,
		   const char *text)
{
	return tm_journal_save(j, rel) ?: tm_tfs_write(in, rel, text);
}

/* Each event of a system saved (its enable, its filter when one is written). */
static int save_system(struct tracefs_instance *in, struct tm_journal *j, const char *sys,
		       bool filter)
{
	char *dir = tracefs_instance_get_dir(in), rel[PATH_MAX], **evs;
	int ret = 0;

	if (!dir)
		return tm_fail(ENOMEM, "system %s", sys);
	errno = 0;
	evs = tracefs_system_events(dir, sys);
	tracefs_put_tracing_file(dir);
	if (!evs && errno)
		return tm_fail(errno, "list the events of system %s", sys);
	for (char **e = evs; e && *e && !ret; e++) {
		ret = tm_path(rel, sizeof(rel), "events/%s/%s/enable", sys, *e) ?:
		      tm_journal_save(j, rel);
		if (!ret && filter)
			ret = tm_path(rel, sizeof(rel), "events/%s/%s/filter", sys, *e) ?:
			      tm_journal_save(j, rel);
	}
	tracefs_list_free(evs);
	return ret;
}

/* An event or system: its filter, then its enable. */
static int arm_event(struct tracefs_instance *in, struct tm_journal *j,
		     const struct tm_arm_event *e)
{
	char rel[PATH_MAX], buf[256], *ev;

	if (event_split(e->spec, buf, sizeof(buf), &ev))
		return -1;
	/*
	 * A system's own files are not saved: its enable reads "X" when its
	 * events differ, and writing either sets each event's, saved here first.
	 */
	if (!ev) {
		if (save_system(in, j, buf, e->filter))
			return -1;
		j = NULL;
	}
	if (e->filter && (event_file(in, e->spec, "filter", rel, sizeof(rel)) ||
			  arm_set(in, j, rel, e->filter)))
		return -1;
	return event_file(in, e->spec, "enable", rel, sizeof(rel)) ?: arm_set(in, j, rel, "1");
}

/* The clock, only when it changes: writing trace_clock empties the buffer. */
static int arm_clock(struct tracefs_instance *in, struct tm_journal *j, const char *clock)
{
	char *cur = tracefs_get_clock(in);
	bool same = cur && !strcmp(cur, clock);

	free(cur);
	return same ? 0 : arm_set(in, j, "trace_clock", clock);
}

static int arm_apply(struct tracefs_instance *in, struct tm_journal *j,
		     const struct tm_arm_opts *o)
{
	char rel[PATH_MAX];
	const char *name;
	bool on;

	for (const char **p = o->options; p && *p; p++) {
		name = option_name(in, *p, &on);
		if (tm_path(rel, sizeof(rel), "options/%s", name) ||
		    arm_set(in, j, rel, on ? "1" : "0"))
			return -1;
	}
	for (size_t i = 0; i < o->nevents; i++)
		if (arm_event(in, j, &o->events[i]))
			return -1;
	if (o->tracer && arm_set(in, j, "current_tracer", o->tracer))
		return -1;
	if (o->clock && arm_clock(in, j, o->clock))
		return -1;
	return arm_set(in, j, "tracing_on", "1");
}

/* After a refusal: every file written goes back; the refusal is the message. */
static int arm_undo(struct tm_journal *j, const char *instance)
{
	char why[512];
	int err = errno;

	snprintf(why, sizeof(why), "%s", tm_last_error());
	if (tm_journal_restore(j))
		return tm_failx(err, "%s; putting instance %s back failed too: %s", why,
				instance, tm_last_error());
	return tm_failx(err, "%s (instance %s left as it was)", why, instance);
}

int tm_arm_start(const struct tm_arm_opts *o)
{
	struct tracefs_instance *in = tm_tfs_open(o->tracefs, o->instance);
	struct tm_journal *j = NULL;
	int ret = -1;

	if (!in)
		return -1;
	if (check_persistent(in, o) || arm_check(in, o))
		goto out;
	j = tm_journal_new(in);
	if (!j)
		goto out;
	ret = arm_apply(in, j, o);
	if (ret)
		arm_undo(j, o->instance);
out:
	tm_journal_free(j);
	tracefs_instance_free(in);
	return ret;
}

/* One file of the instance written: nothing else is touched. */
static int arm_write(const char *tracefs, const char *instance, const char *rel,
		     const char *text)
{
	struct tracefs_instance *in = tm_tfs_open(tracefs, instance);
	int ret;

	if (!in)
		return -1;
	ret = tm_tfs_write(in, rel, text);
	tracefs_instance_free(in);
	return ret;
}

int tm_arm_stop(const char *tracefs, const char *instance)
{
	return arm_write(tracefs, instance, "tracing_on", "0");
}

int tm_arm_clear(const char *tracefs, const char *instance)
{
	/* an open of trace with O_TRUNC empties the buffer */
	return arm_write(tracefs, instance, "trace", "");
}
