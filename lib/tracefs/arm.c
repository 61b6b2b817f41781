// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm.c - `tracemap arm`: tracing started in an existing instance and left
 * running after tracemap exits (trace-cmd start -B), stopped, cleared. A
 * persistent instance is the one the kernel gives a last_boot_info file;
 * others are armed only when asked for, so that no buffer that dies with
 * the machine is mistaken for one that survives it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "util/internal.h"
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

/* "SYSTEM" or "SYSTEM:EVENT" enabled; an unknown one is an error naming it. */
static int enable_event(struct tracefs_instance *in, const char *spec)
{
	char *sys = strdup(spec), *ev;
	int ret;

	if (!sys)
		return tm_fail(ENOMEM, "event %s", spec);
	ev = strchr(sys, ':');
	if (ev)
		*ev++ = '\0';
	errno = 0;
	ret = tracefs_event_enable(in, sys, ev && *ev ? ev : NULL);
	free(sys);
	if (ret)
		return tm_failx(errno ? errno : ENOENT, "event %s: no such event in instance %s",
				spec, tracefs_instance_get_name(in));
	return 0;
}

int tm_arm_start(const struct tm_arm_opts *o)
{
	struct tracefs_instance *in = tm_tfs_open(o->tracefs, o->instance);
	int ret = -1;

	if (!in)
		return -1;
	if (check_persistent(in, o))
		goto out;
	for (const char **e = o->events; e && *e; e++)
		if (enable_event(in, *e))
			goto out;
	ret = tm_tfs_write(in, "tracing_on", "1");
out:
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
