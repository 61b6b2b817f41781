// SPDX-License-Identifier: GPL-2.0-only
/*
 * latch.c - --trigger SYSTEM:EVENT[:FILTER]: a one-shot kernel event
 * trigger in the instance latches the first matching event; user space
 * looks at the trigger's count only, never at the events themselves.
 *
 * The latch is `stacktrace:1 if FILTER` on the event: the kernel evaluates
 * FILTER for every occurrence, records one kernel stack after the first
 * match and counts the trigger down to 0, which a read of the event's
 * trigger file shows. traceoff would stop the recording and snapshot cannot
 * work on a mapped buffer; hist triggers are not built into every kernel.
 * The event itself is enabled in the instance (with FILTER) unless it is
 * already, so it is in the trace.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "util/internal.h"
#include "tm-longrec.h"
#include "tracefs/tracefs-internal.h"

struct tm_latch {
	struct tm_session	*sess;
	char			*system;
	char			*event;
	char			*filter;	/* NULL: every occurrence */
	char			rel[PATH_MAX];	/* events/<system>/<event>/trigger */
	char			cmd[PATH_MAX + 32];
	bool			armed;
};

/* "SYSTEM:EVENT[:FILTER]": the names are plain (no globs), the filter is the rest. */
static int latch_parse(struct tm_latch *t, const char *spec)
{
	const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t elen = c2 ? (size_t)(c2 - c1 - 1) : (c1 ? strlen(c1 + 1) : 0);

	if (!c1 || c1 == spec || !elen)
		return tm_failx(EINVAL, "bad trigger '%s' (expected SYSTEM:EVENT[:FILTER])", spec);
	t->system = strndup(spec, c1 - spec);
	t->event = strndup(c1 + 1, elen);
	t->filter = c2 && c2[1] ? strdup(c2 + 1) : NULL;
	if (!t->system || !t->event || (c2 && c2[1] && !t->filter))
		return tm_fail(ENOMEM, "trigger");
	if (strpbrk(t->system, "/*?[") || strpbrk(t->event, "/*?["))
		return tm_failx(EINVAL, "bad trigger '%s': name one event, without globs", spec);
	return 0;
}

/*
 * The kernel refused FILTER, in the event's filter file or in the trigger:
 * its reason from error_log, worded as -f and -R word theirs.
 */
static int latch_bad_filter(const struct tm_latch *t, const char *why)
{
	return tm_failx(EINVAL, "bad filter '%s' for event '%s:%s'%s%s", t->filter, t->system,
			t->event, *why ? ": " : "", why);
}

/* The event records in the instance: enabled (with the filter) unless it is already. */
static int latch_enable_event(struct tm_latch *t)
{
	struct tracefs_instance *in = tm_session_instance(t->sess);
	char rel[PATH_MAX], *state;
	bool on;

	/*
	 * ftrace events are always recorded; print's markers, as with -e
	 * ftrace:print, also when an application writes the top-level trace_marker
	 */
	if (!strcmp(t->system, "ftrace"))
		return strcmp(t->event, "print") ? 0 : tm_session_copy_markers(t->sess);
	if (!tracefs_event_file_exists(in, t->system, t->event, "enable"))
		return tm_failx(ENOENT, "unknown trigger event '%s:%s' (see tracemap list -e)",
				t->system, t->event);
	if (tm_path(rel, sizeof(rel), "events/%s/%s/enable", t->system, t->event))
		return -1;
	state = tm_tfs_read(in, rel, NULL);
	if (!state)
		return -1;
	on = state[0] == '1';
	free(state);
	if (on)
		return 0;
	if (t->filter) {
		char frel[PATH_MAX], why[256];

		if (tm_path(frel, sizeof(frel), "events/%s/%s/filter", t->system, t->event))
			return -1;
		if (tm_session_set_why(t->sess, frel, t->filter, why, sizeof(why)))
			return errno == EINVAL ? latch_bad_filter(t, why) : -1;
	}
	return tm_event_enable(in, t->system, t->event);
}

/* Append a command to the trigger file (O_TRUNC would drop every other trigger). */
static int latch_write(struct tm_latch *t, const char *cmd)
{
	char why[256];

	if (!tm_file_put_why(tm_session_instance(t->sess), t->rel, cmd, true, why, sizeof(why)))
		return 0;
	/* the kernel logs a reason for a filter it cannot parse */
	if (errno == EINVAL && t->filter && *why)
		return latch_bad_filter(t, why);
	/* 6.1 logs no reason for a trigger's filter */
	if (errno == EINVAL)
		return tm_failx(EINVAL, "the kernel refused trigger '%s' on %s:%s: %s (no reason "
				"in error_log)", cmd, t->system, t->event, strerror(EINVAL));
	if (errno == EEXIST)
		return tm_failx(EEXIST, "%s:%s has a stacktrace trigger already: --trigger needs "
				"its own", t->system, t->event);
	if (errno == ENOENT)
		return tm_failx(ENOENT, "unknown trigger event '%s:%s' (see tracemap list -e)",
				t->system, t->event);
	return -1;
}

struct tm_latch *tm_latch_arm(struct tm_session *s, const char *spec)
{
	struct tm_latch *t = calloc(1, sizeof(*t));

	if (!t) {
		tm_fail(ENOMEM, "trigger");
		return NULL;
	}
	t->sess = s;
	if (latch_parse(t, spec) ||
	    tm_path(t->rel, sizeof(t->rel), "events/%s/%s/trigger", t->system, t->event))
		goto fail;
	snprintf(t->cmd, sizeof(t->cmd), "stacktrace:1%s%s", t->filter ? " if " : "",
		 t->filter ? t->filter : "");
	if (latch_enable_event(t) || latch_write(t, t->cmd))
		goto fail;
	t->armed = true;
	return t;
fail:
	tm_latch_free(t);
	return NULL;
}

int tm_latch_fired(struct tm_latch *t)
{
	char *text, *p;
	int ret;

	text = tm_tfs_read(tm_session_instance(t->sess), t->rel, NULL);
	if (!text)
		return -1;
	/* "stacktrace:count=0 if ..." once it fired; the kernel counts it down itself */
	p = strstr(text, "stacktrace:count=");
	if (p)
		ret = strtoul(p + strlen("stacktrace:count="), NULL, 10) == 0;
	else
		ret = tm_failx(ENOENT, "the trigger on %s:%s was removed", t->system, t->event);
	free(text);
	return ret;
}

int tm_latch_rearm(struct tm_latch *t)
{
	if (latch_write(t, "!stacktrace"))
		return -1;
	t->armed = false;
	if (latch_write(t, t->cmd))
		return -1;
	t->armed = true;
	return 0;
}

void tm_latch_free(struct tm_latch *t)
{
	if (!t)
		return;
	if (t->armed)
		tm_tfs_append(tm_session_instance(t->sess), t->rel, "!stacktrace");
	free(t->system);
	free(t->event);
	free(t->filter);
	free(t);
}
