// SPDX-License-Identifier: GPL-2.0-only
/*
 * session-events.c - resolving -e specs (systems, events, globs, all) and their
 * -f filters and -R triggers: the names matched against libtracefs's lists,
 * each match enabled with tracefs_event_enable().
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "session-events.h"
#include "util/internal.h"
#include "tracefs-internal.h"
#include "errlog.h"

struct tm_ev_match {
	struct tracefs_instance *in;
	char		*dir;		/* its directory, for libtracefs's event lists */
	const struct tm_event_spec *spec;
	int		matched;
	char		***systems;	/* systems with an enabled event, NULL-terminated */
	bool		*markers;	/* set when the spec asks for ftrace:print */
	struct tm_journal *journal;	/* a reused instance's saved settings, or NULL */
	char		***counted;	/* "events/SYS/EV/trigger\nTRIGGER" of counted triggers */
	size_t		nr_counted;
};

/*
 * tracefs_event_systems() of the instance (sys NULL: those with an enable
 * file) or tracefs_system_events() of sys into *out; -1 + message. Every
 * tracefs has both, so NULL (which is also its "none") is an error.
 */
static int ev_list(const struct tm_ev_match *m, const char *sys, char ***out)
{
	errno = 0;
	*out = sys ? tracefs_system_events(m->dir, sys) : tracefs_event_systems(m->dir);
	if (*out)
		return 0;
	return tm_fail(errno && errno != ENOENT ? errno : ENOENT, "list %s/events%s%s", m->dir,
		       sys ? "/" : "", sys ? sys : "");
}

/* name as the anchored regex libtracefs's event calls take: matching only itself. */
static int ev_regex(const char *name, char *re, size_t len)
{
	size_t j = 0;

	for (const char *p = name; *p; p++) {
		if (j + 3 >= len)
			return tm_failx(ENAMETOOLONG, "event name too long: %.40s...", name);
		if (strchr(".[]\\*^$", *p))
			re[j++] = '\\';
		re[j++] = *p;
	}
	re[j] = '\0';
	return 0;
}

int tm_event_enable(struct tracefs_instance *in, const char *sys, const char *ev)
{
	char sys_re[256], ev_re[256], rel[PATH_MAX];

	if (ev_regex(sys, sys_re, sizeof(sys_re)) || (ev && ev_regex(ev, ev_re, sizeof(ev_re))))
		return -1;
	errno = 0;
	if (!tracefs_event_enable(in, sys_re, ev ? ev_re : NULL))
		return 0;
	/* nothing matched: -1 without errno */
	if (tm_path(rel, sizeof(rel), "events/%s%s%s/enable", sys, ev ? "/" : "", ev ? ev : ""))
		return -1;
	return tm_tfs_fail(in, rel, errno ? errno : ENOENT, "write '1' to");
}

/* Add the system of rel ("sys" or "sys/event") to the list unless it is there. */
static int ev_add_system(struct tm_ev_match *m, const char *rel)
{
	size_t n, len = strcspn(rel, "/");
	char **v = *m->systems;

	for (n = 0; v[n]; n++)
		if (strlen(v[n]) == len && !strncmp(v[n], rel, len))
			return 0;
	v = realloc(v, (n + 2) * sizeof(*v));
	if (!v)
		return tm_fail(ENOMEM, "event systems");
	*m->systems = v;
	v[n] = strndup(rel, len);
	v[n + 1] = NULL;
	return v[n] ? 0 : tm_fail(ENOMEM, "event systems");
}

/* Every trigger command Linux knows; a kernel has those its configuration built in. */
static bool ev_trigger_known(const char *cmd, size_t n)
{
	static const char *const known[] = {
		"traceon", "traceoff", "snapshot", "stacktrace", "enable_event",
		"disable_event", "hist", "enable_hist", "disable_hist",
	};

	for (size_t i = 0; i < TM_ARRAY_SIZE(known); i++)
		if (strlen(known[i]) == n && !strncmp(known[i], cmd, n))
			return true;
	return false;
}

/*
 * The kernel logs nothing for a trigger command it does not have (hist,
 * snapshot on kernels built without them) or that does not exist: say
 * which from the trigger file's "# Available triggers:" list.
 */
static void ev_trigger_why(struct tracefs_instance *in, const char *sys, const char *ev,
			   const char *trigger, char *why, size_t len)
{
	const char *cmd = trigger + (trigger[0] == '!');
	size_t n = strcspn(cmd, ": .");
	char *text, *avail, *nl;
	bool found = false;

	text = tracefs_event_file_read(in, sys, ev, "trigger", NULL);
	avail = text ? strstr(text, "# Available triggers:\n# ") : NULL;
	if (!avail) {
		free(text);
		return;
	}
	avail += strlen("# Available triggers:\n# ");
	nl = strchr(avail, '\n');
	if (nl)
		*nl = '\0';
	for (char *w = avail; *w; w += strcspn(w, " "), w += strspn(w, " "))
		found |= strcspn(w, " ") == n && !strncmp(w, cmd, n);
	if (!found && ev_trigger_known(cmd, n))
		snprintf(why, len, "%.*s triggers are not built into this kernel (it has: %s)",
			 (int)n, cmd, avail);
	else if (!found)
		snprintf(why, len, "unknown trigger command '%.*s' (this kernel has: %s)", (int)n,
			 cmd, avail);
	free(text);
}

/* text into events/<sys>[/<ev>]/<file> (truncating); -1 + message. */
static int ev_put(struct tm_ev_match *m, const char *sys, const char *ev, const char *file,
		  const char *text)
{
	char rel[PATH_MAX], what[160];
	int n;

	if (tm_path(rel, sizeof(rel), "events/%s%s%s/%s", sys, ev ? "/" : "", ev ? ev : "", file))
		return -1;
	/* 1.6.4's event file calls need an event: a system's file is the instance's */
	if (!ev)
		return tm_tfs_write(m->in, rel, text);
	errno = 0;
	n = tracefs_event_file_write(m->in, sys, ev, file, text);
	if (n >= 0 && (size_t)n == strlen(text))
		return 0;
	snprintf(what, sizeof(what), "write '%.120s' to", text);
	return tm_tfs_fail(m->in, rel, n < 0 ? errno : EIO, what);
}

/*
 * Write text to events/<sys>[/<ev>]/<file>; the kernel's refusal (EINVAL)
 * becomes "bad <what> '<text>' for event '<sys:event>': <error_log's reason>".
 */
static int ev_write(struct tm_ev_match *m, const char *sys, const char *ev, const char *file,
		    const char *what, const char *text)
{
	char why[256];
	int err;

	why[0] = '\0';
	if (tm_errlog_clear(m->in))
		return -1;
	if (!ev_put(m, sys, ev, file, text))
		return 0;
	err = errno;
	if (err != EINVAL)
		return -1;
	tm_errlog_last(m->in, why, sizeof(why));
	if (!*why && ev && !strcmp(file, "trigger"))
		ev_trigger_why(m->in, sys, ev, text, why, sizeof(why));
	/* 6.1 logs no reason for a trigger's filter */
	if (!*why)
		snprintf(why, sizeof(why), "%s (no reason in error_log)", strerror(EINVAL));
	return tm_failx(EINVAL, "bad %s '%s' for event '%s%s%s': %s", what, text, sys,
			ev ? ":" : "", ev ? ev : "", why);
}

/*
 * A counted trigger: traceon/traceoff/snapshot/stacktrace:N, or
 * enable_event/disable_event/enable_hist/disable_hist:SYS:EVENT:N (the
 * count field all digits, before any " if" filter).
 */
static bool ev_trigger_counted(const char *t)
{
	size_t len = strcspn(t, " "), f, i = 0;
	unsigned int want = strncmp(t, "enable_", 7) && strncmp(t, "disable_", 8) ? 1 : 3;

	for (f = 0; f < want && i < len; i++)
		if (t[i] == ':')
			f++;
	if (f < want || i == len)
		return false;
	for (f = i; f < len && t[f] != ':'; f++)
		if (t[f] < '0' || t[f] > '9')
			return false;
	return f > i;
}

/*
 * Note a counted trigger set on sys:ev. It fires on setup's events too,
 * while tracing is still off, and would spend its count on events no one
 * records: tm_sess_rearm_counted() sets it again once tracing is on.
 */
static int ev_note_counted(struct tm_ev_match *m, const char *sys, const char *ev,
			   const char *trigger)
{
	char note[PATH_MAX];

	if (!m->counted || !ev_trigger_counted(trigger))
		return 0;
	if (snprintf(note, sizeof(note), "events/%s/%s/trigger\n%s", sys, ev, trigger) >=
	    (int)sizeof(note))
		return tm_failx(ENAMETOOLONG, "trigger '%.40s...' too long", trigger);
	return tm_strv_push(m->counted, &m->nr_counted, note) ? tm_fail(ENOMEM, "triggers") : 0;
}

/* Every -R trigger on one event, or (ev NULL) on each event of a system. */
static int ev_triggers(struct tm_ev_match *m, const char *sys, const char *ev)
{
	char **events;
	int ret = 0;

	if (ev) {
		for (size_t i = 0; !ret && i < m->spec->nr_triggers; i++)
			ret = ev_write(m, sys, ev, "trigger", "trigger", m->spec->triggers[i]) ?:
			      ev_note_counted(m, sys, ev, m->spec->triggers[i]);
		return ret;
	}
	if (ev_list(m, sys, &events))
		return -1;
	for (char **e = events; !ret && *e; e++)
		ret = ev_triggers(m, sys, *e);
	tracefs_list_free(events);
	return ret;
}

/*
 * Save the filters a filter on one event replaces, or for a system (ev
 * NULL) every event's of it (the system file sets them all).
 */
static int ev_save_filters(struct tm_ev_match *m, const char *sys, const char *ev)
{
	char file[PATH_MAX], **events;
	int ret = 0;

	if (!m->journal)
		return 0;
	if (ev)
		return tm_path(file, sizeof(file), "events/%s/%s/filter", sys, ev) ?:
		       tm_journal_save(m->journal, file);
	if (ev_list(m, sys, &events))
		return -1;
	for (char **e = events; !ret && *e; e++)
		ret = ev_save_filters(m, sys, *e);
	tracefs_list_free(events);
	return ret;
}

/* Enable one event (a whole system: ev NULL), with its filter and triggers. */
static int ev_enable(struct tm_ev_match *m, const char *sys, const char *ev)
{
	if (m->spec->filter && (ev_save_filters(m, sys, ev) ||
				ev_write(m, sys, ev, "filter", "filter", m->spec->filter)))
		return -1;
	if (m->spec->nr_triggers && ev_triggers(m, sys, ev))
		return -1;
	if (tm_event_enable(m->in, sys, ev))
		return -1;
	m->matched++;
	return ev_add_system(m, sys);
}

/* The events of sys whose names match pat, each enabled. */
static int ev_scan_events(struct tm_ev_match *m, const char *sys, const char *pat)
{
	char **events;
	int ret = 0;

	if (ev_list(m, sys, &events))
		return -1;
	for (char **e = events; !ret && *e; e++)
		if (!fnmatch(pat, *e, 0))
			ret = ev_enable(m, sys, *e);
	tracefs_list_free(events);
	return ret;
}

/*
 * The systems (those with an enable file) whose names match pat: each
 * enabled whole, or with ev_pat the matching events of each.
 */
static int ev_scan(struct tm_ev_match *m, const char *pat, const char *ev_pat)
{
	char **systems;
	int ret = 0;

	if (ev_list(m, NULL, &systems))
		return -1;
	for (char **sys = systems; !ret && *sys; sys++) {
		if (fnmatch(pat, *sys, 0))
			continue;
		ret = ev_pat ? ev_scan_events(m, *sys, ev_pat) : ev_enable(m, *sys, NULL);
	}
	tracefs_list_free(systems);
	return ret;
}

/* ftrace:function and the function graph events come only from a tracer, never from -e. */
static bool ev_is_tracer_event(const char *spec)
{
	const char *ev = strchr(spec, ':') ? strchr(spec, ':') + 1 : spec;

	return (!strchr(spec, ':') || !strncmp(spec, "ftrace:", 7)) &&
	       (!strcmp(ev, "function") || !strncmp(ev, "funcgraph_", 10));
}

/* Say plainly why, and what records them. */
static int ev_tracer_refusal(const char *spec)
{
	return tm_failx(EINVAL, "'%s' events come from the function tracer, not from an event "
			"to enable: record them with -p function (or -p function_graph)", spec);
}

/*
 * ftrace:print (trace_marker lines) has no enable file: it is always on in
 * an instance, but sees only the instance's own trace_marker. True when spec
 * names it (all, ftrace, print, or globs matching ftrace:print).
 */
static bool ev_names_print(const char *spec)
{
	const char *colon = strchr(spec, ':');
	char sys[256];

	if (!strcmp(spec, "all"))
		return true;
	if (!colon)
		return !fnmatch(spec, "ftrace", 0) || !fnmatch(spec, "print", 0);
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - spec), spec);
	return !fnmatch(*sys ? sys : "*", "ftrace", 0) &&
	       !fnmatch(colon[1] ? colon + 1 : "*", "print", 0);
}

/* ftrace:print asked for: the instance copies the top level's markers too. */
static int ev_want_markers(struct tm_ev_match *m)
{
	if (m->spec->filter && !m->matched)
		return tm_failx(EINVAL, "bad filter '%s' for event 'ftrace:print': ftrace "
				"events take no filter", m->spec->filter);
	*m->markers = true;
	m->matched++;
	return ev_add_system(m, "ftrace");
}

static int ev_apply(struct tm_ev_match *base, const struct tm_event_spec *spec, bool *markers)
{
	struct tm_ev_match m = *base;
	char sys[256];
	const char *colon = strchr(spec->event, ':');
	int ret;

	m.spec = spec;
	m.markers = markers;
	if (!*spec->event || strchr(spec->event, '/'))
		return tm_failx(EINVAL, "bad event name '%s'", spec->event);
	/* the journal restores text settings; a trigger is undone by "!trigger", not so */
	if (m.journal && spec->nr_triggers)
		return tm_failx(EINVAL, "-R %s for '%s': event triggers are set only in "
				"tracemap's own instance, not in a reused one", spec->triggers[0],
				spec->event);
	if (!strcmp(spec->event, "all")) {
		ret = ev_scan(&m, "*", NULL);
	} else if (colon) {
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - spec->event), spec->event);
		ret = ev_scan(&m, *sys ? sys : "*", colon[1] ? colon + 1 : "*");
	} else {
		/* a system name first, as trace-cmd does; else an event of any system */
		ret = ev_scan(&m, spec->event, NULL);
		if (!ret && !m.matched)
			ret = ev_scan(&m, "*", spec->event);
	}
	if (!ret && ev_names_print(spec->event))
		ret = ev_want_markers(&m);
	if (ret)
		return -1;
	if (!m.matched && ev_is_tracer_event(spec->event))
		return ev_tracer_refusal(spec->event);
	if (!m.matched)
		return tm_failx(ENOENT, "unknown event '%s' (no event matches it; see tracemap list -e)",
				spec->event);
	return 0;
}

/* A reused instance may have events of its own enabled: their systems count too. */
static int ev_systems_of_set_event(struct tm_ev_match *m)
{
	char *text, *line, *save = NULL;
	int ret = 0;

	text = tm_tfs_read(m->in, "set_event", NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line && !ret; line = strtok_r(NULL, "\n", &save))
		if (strchr(line, ':'))
			ret = ev_add_system(m, line);
	free(text);
	return ret;
}

/*
 * Linux >= 6.17 copies the top level's markers; older kernels only the
 * instance's own. The option is newer than libtracefs 1.6.4's list: its file.
 */
int tm_sess_copy_markers(struct tracefs_instance *in, struct tm_journal *journal)
{
	if (!tracefs_file_exists(in, "options/copy_trace_marker"))
		return 0;
	if (tm_journal_save(journal, "options/copy_trace_marker"))
		return -1;
	return tm_tfs_write(in, "options/copy_trace_marker", "1");
}

/* The match state every spec starts from; its dir freed with ev_done(). */
static int ev_begin(struct tm_ev_match *m, struct tracefs_instance *in, char ***systems,
		    struct tm_journal *journal)
{
	*m = (struct tm_ev_match){ .in = in, .systems = systems, .journal = journal };
	m->dir = tracefs_instance_get_dir(in);
	return m->dir ? 0 : tm_fail(ENOMEM, "events");
}

static int ev_done(struct tm_ev_match *m, int ret)
{
	tracefs_put_tracing_file(m->dir);
	return ret;
}

int tm_sess_enable_events(struct tracefs_instance *in, const struct tm_event_spec *specs,
			  size_t n, char ***systems, char ***counted, struct tm_journal *journal)
{
	struct tm_ev_match m;
	bool markers = false;

	/* set_event holds every enable state: restoring it undoes all of ours */
	if ((n && tm_journal_save(journal, "set_event")) || ev_begin(&m, in, systems, journal))
		return -1;
	m.counted = counted;
	while (counted && *counted && (*counted)[m.nr_counted])
		m.nr_counted++;
	for (size_t i = 0; i < n; i++)
		if (ev_apply(&m, &specs[i], &markers))
			return ev_done(&m, -1);
	if (markers && tm_sess_copy_markers(in, journal))
		return ev_done(&m, -1);
	return ev_done(&m, journal ? ev_systems_of_set_event(&m) : 0);
}

/* The events that carry a task's new name: exec, prctl/comm renames, new tasks. */
static const char *const tm_name_events[] = {
	"sched/sched_process_exec", "task/task_rename", "task/task_newtask",
};

/* Enable sys:ev unless it is on already (asked for): 1 when enabled here. */
static int ev_enable_quietly(struct tracefs_instance *in, const char *sys, const char *ev)
{
	char sys_re[256], ev_re[256];
	enum tracefs_enable_state st;

	if (!tracefs_event_file_exists(in, sys, ev, "enable"))
		return 0;	/* a kernel without this event */
	if (ev_regex(sys, sys_re, sizeof(sys_re)) || ev_regex(ev, ev_re, sizeof(ev_re)))
		return -1;
	st = tracefs_event_is_enabled(in, sys_re, ev_re);
	if (st == TRACEFS_ERROR)
		return tm_failx(EIO, "read the state of event %s:%s", sys, ev);
	if (st == TRACEFS_ALL_ENABLED)
		return 0;
	return tm_event_enable(in, sys, ev) ? -1 : 1;
}

int tm_sess_enable_name_events(struct tracefs_instance *in, char ***systems, char ***quiet,
			       struct tm_journal *journal)
{
	struct tm_ev_match m = { .in = in, .systems = systems };
	size_t n = 0;

	if (tm_journal_save(journal, "set_event"))
		return -1;

	for (size_t i = 0; i < TM_ARRAY_SIZE(tm_name_events); i++) {
		char sys[64], name[128];
		const char *ev = strchr(tm_name_events[i], '/') + 1;
		int r;

		snprintf(sys, sizeof(sys), "%.*s", (int)(ev - 1 - tm_name_events[i]),
			 tm_name_events[i]);
		r = ev_enable_quietly(in, sys, ev);
		if (r <= 0) {
			if (r < 0)
				return -1;
			continue;
		}
		snprintf(name, sizeof(name), "%s:%s", sys, ev);
		if (ev_add_system(&m, sys) || tm_strv_push(quiet, &n, name))
			return tm_fail(ENOMEM, "event %s", name);
	}
	return 0;
}

int tm_sess_rearm_counted(struct tracefs_instance *in, char *const *counted)
{
	char rel[PATH_MAX], off[PATH_MAX];
	const char *nl;

	for (; counted && *counted; counted++) {
		nl = strchr(*counted, '\n');
		if (!nl || tm_path(rel, sizeof(rel), "%.*s", (int)(nl - *counted), *counted) ||
		    tm_path(off, sizeof(off), "!%s", nl + 1))
			return tm_failx(EINVAL, "trigger note '%.60s'", *counted);
		/* "!TRIGGER" removes it whatever its count left; then it is set anew */
		if (tm_tfs_append(in, rel, off) || tm_tfs_append(in, rel, nl + 1))
			return -1;
	}
	return 0;
}
