// SPDX-License-Identifier: GPL-2.0-only
/* session-events.c - resolving -e specs (systems, events, globs, all) and their -f filters. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session-events.h"
#include "util/internal.h"
#include "tracefs-internal.h"

struct tm_ev_match {
	const char	*dir;		/* instance directory */
	const struct tm_event_spec *spec;
	int		matched;
	char		***systems;	/* systems with an enabled event, NULL-terminated */
	bool		*markers;	/* set when the spec asks for ftrace:print */
	struct tm_journal *journal;	/* a reused instance's saved settings, or NULL */
};

static bool is_subdir(const char *parent, const char *name)
{
	char path[PATH_MAX];

	if (name[0] == '.')
		return false;
	if (tm_path(path, sizeof(path), "%s/%s/enable", parent, name))
		return false;
	return !access(path, F_OK);
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

/* "sys:event" (or "sys") of rel "sys/event" for messages. */
static void ev_display(const char *rel, char *name, size_t len)
{
	char *slash;

	snprintf(name, len, "%s", rel);
	slash = strchr(name, '/');
	if (slash)
		*slash = ':';
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
static void ev_trigger_why(const char *dir, const char *file, const char *trigger,
			      char *why, size_t len)
{
	char path[PATH_MAX], *text, *avail, *nl;
	const char *cmd = trigger + (trigger[0] == '!');
	size_t n = strcspn(cmd, ": .");
	bool found = false;

	if (tm_path(path, sizeof(path), "%s/%s", dir, file))
		return;
	text = tm_read_file(path, NULL);
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

/*
 * Write text to events/<rel>/<file>; the kernel's refusal (EINVAL) becomes
 * "bad <what> '<text>' for event '<sys:event>': <error_log's reason>".
 */
static int ev_write(struct tm_ev_match *m, const char *rel, const char *file,
		       const char *what, const char *text)
{
	char path[PATH_MAX], name[PATH_MAX], why[256];

	if (tm_path(path, sizeof(path), "events/%s/%s", rel, file))
		return -1;
	if (!tm_file_put_why(m->dir, path, text, false, why, sizeof(why)))
		return 0;
	if (errno != EINVAL)
		return -1;
	ev_display(rel, name, sizeof(name));
	if (!*why && !strcmp(file, "trigger"))
		ev_trigger_why(m->dir, path, text, why, sizeof(why));
	return tm_failx(EINVAL, "bad %s '%s' for event '%s'%s%s", what, text, name,
			*why ? ": " : "", why);
}

/* Every -R trigger on events/<rel>: one event, or each event of a system. */
static int ev_triggers(struct tm_ev_match *m, const char *rel)
{
	char path[PATH_MAX], sub[PATH_MAX];
	struct dirent *d;
	int ret = 0;
	DIR *dir;

	if (strchr(rel, '/')) {
		for (size_t i = 0; !ret && i < m->spec->nr_triggers; i++)
			ret = ev_write(m, rel, "trigger", "trigger", m->spec->triggers[i]);
		return ret;
	}
	if (tm_path(path, sizeof(path), "%s/events/%s", m->dir, rel))
		return -1;
	dir = opendir(path);
	if (!dir)
		return tm_fail(errno, "open %s", path);
	while (!ret && (d = readdir(dir)))
		if (is_subdir(path, d->d_name))
			ret = tm_path(sub, sizeof(sub), "%s/%s", rel, d->d_name) ?:
			      ev_triggers(m, sub);
	closedir(dir);
	return ret;
}

/*
 * Save the filters a filter on events/<rel> replaces: the event's, or for a
 * system every event's of it (the system file sets them all).
 */
static int ev_save_filters(struct tm_ev_match *m, const char *rel)
{
	char path[PATH_MAX], file[PATH_MAX];
	struct dirent *d;
	int ret = 0;
	DIR *dir;

	if (!m->journal)
		return 0;
	if (strchr(rel, '/'))
		return tm_path(file, sizeof(file), "events/%s/filter", rel) ?:
		       tm_journal_save(m->journal, file);
	if (tm_path(path, sizeof(path), "%s/events/%s", m->dir, rel))
		return -1;
	dir = opendir(path);
	if (!dir)
		return tm_fail(errno, "open %s", path);
	while (!ret && (d = readdir(dir))) {
		if (is_subdir(path, d->d_name))
			ret = tm_path(file, sizeof(file), "events/%s/%s/filter", rel, d->d_name) ?:
			      tm_journal_save(m->journal, file);
	}
	closedir(dir);
	return ret;
}

/* Enable events/<rel> (a system or system/event), with its filter and triggers. */
static int ev_enable(struct tm_ev_match *m, const char *rel)
{
	char file[PATH_MAX];

	if (m->spec->filter && (ev_save_filters(m, rel) ||
				ev_write(m, rel, "filter", "filter", m->spec->filter)))
		return -1;
	if (m->spec->nr_triggers && ev_triggers(m, rel))
		return -1;
	if (tm_path(file, sizeof(file), "events/%s/enable", rel) ||
	    tm_file_write(m->dir, file, "1"))
		return -1;
	m->matched++;
	return ev_add_system(m, rel);
}

/*
 * The directories of events/ (sys NULL) or events/<sys> whose names match
 * pat. Under events/ with ev_pat, the matching events of each matching
 * system are enabled; otherwise each match itself (a whole system, or an
 * event of sys).
 */
static int ev_scan(struct tm_ev_match *m, const char *sys, const char *pat,
		      const char *ev_pat)
{
	char path[PATH_MAX], rel[PATH_MAX];
	struct dirent *d;
	int ret = 0;
	DIR *dir;

	if (sys ? tm_path(path, sizeof(path), "%s/events/%s", m->dir, sys)
		: tm_path(path, sizeof(path), "%s/events", m->dir))
		return -1;
	dir = opendir(path);
	if (!dir)
		return tm_fail(errno, "open %s", path);
	while (!ret && (d = readdir(dir))) {
		if (!is_subdir(path, d->d_name) || fnmatch(pat, d->d_name, 0))
			continue;
		if (sys)
			ret = tm_path(rel, sizeof(rel), "%s/%s", sys, d->d_name) ?:
			      ev_enable(m, rel);
		else if (ev_pat)
			ret = ev_scan(m, d->d_name, ev_pat, NULL);
		else
			ret = ev_enable(m, d->d_name);
	}
	closedir(dir);
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

static int ev_apply(const char *dir, const struct tm_event_spec *spec, char ***systems,
		       bool *markers, struct tm_journal *journal)
{
	struct tm_ev_match m = { .dir = dir, .spec = spec, .systems = systems,
				 .markers = markers, .journal = journal };
	char sys[256];
	const char *colon = strchr(spec->event, ':');
	int ret;

	if (!*spec->event || strchr(spec->event, '/'))
		return tm_failx(EINVAL, "bad event name '%s'", spec->event);
	/* the journal restores text settings; a trigger is undone by "!trigger", not so */
	if (journal && spec->nr_triggers)
		return tm_failx(EINVAL, "-R %s for '%s': event triggers are set only in "
				"tracemap's own instance, not in a reused one", spec->triggers[0],
				spec->event);
	if (!strcmp(spec->event, "all")) {
		ret = ev_scan(&m, NULL, "*", NULL);
	} else if (colon) {
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - spec->event), spec->event);
		ret = ev_scan(&m, NULL, *sys ? sys : "*", colon[1] ? colon + 1 : "*");
	} else {
		/* a system name first, as trace-cmd does; else an event of any system */
		ret = ev_scan(&m, NULL, spec->event, NULL);
		if (!ret && !m.matched)
			ret = ev_scan(&m, NULL, "*", spec->event);
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
static int ev_systems_of_set_event(const char *dir, char ***systems)
{
	struct tm_ev_match m = { .dir = dir, .systems = systems };
	char path[PATH_MAX], *text, *line, *save = NULL;
	int ret = 0;

	if (tm_path(path, sizeof(path), "%s/set_event", dir))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line && !ret; line = strtok_r(NULL, "\n", &save))
		if (strchr(line, ':'))
			ret = ev_add_system(&m, line);
	free(text);
	return ret;
}

/* Linux >= 6.17 copies the top level's markers; older kernels only the instance's own. */
int tm_sess_copy_markers(const char *dir, struct tm_journal *journal)
{
	char path[PATH_MAX];

	if (tm_path(path, sizeof(path), "%s/options/copy_trace_marker", dir) ||
	    access(path, F_OK))
		return 0;
	if (tm_journal_save(journal, "options/copy_trace_marker"))
		return -1;
	return tm_file_write(dir, "options/copy_trace_marker", "1");
}

int tm_sess_enable_events(const char *dir, const struct tm_event_spec *specs, size_t n,
			  char ***systems, struct tm_journal *journal)
{
	bool markers = false;

	/* set_event holds every enable state: restoring it undoes all of ours */
	if (n && tm_journal_save(journal, "set_event"))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (ev_apply(dir, &specs[i], systems, &markers, journal))
			return -1;
	if (markers && tm_sess_copy_markers(dir, journal))
		return -1;
	return journal ? ev_systems_of_set_event(dir, systems) : 0;
}

/* The events that carry a task's new name: exec, prctl/comm renames, new tasks. */
static const char *const tm_name_events[] = {
	"sched/sched_process_exec", "task/task_rename", "task/task_newtask",
};

/* Enable events/<rel> unless it is on already (asked for): 1 when enabled here. */
static int ev_enable_quietly(const char *dir, const char *rel)
{
	char file[PATH_MAX], path[PATH_MAX], *text;
	bool on;

	if (tm_path(file, sizeof(file), "events/%s/enable", rel) ||
	    tm_path(path, sizeof(path), "%s/%s", dir, file))
		return -1;
	if (access(path, F_OK))
		return 0;	/* a kernel without this event */
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	on = text[0] == '1';
	free(text);
	if (on)
		return 0;
	return tm_file_write(dir, file, "1") ? -1 : 1;
}

int tm_sess_enable_name_events(const char *dir, char ***systems, char ***quiet,
			       struct tm_journal *journal)
{
	struct tm_ev_match m = { .dir = dir, .systems = systems };
	size_t n = 0;

	if (tm_journal_save(journal, "set_event"))
		return -1;

	for (size_t i = 0; i < TM_ARRAY_SIZE(tm_name_events); i++) {
		const char *rel = tm_name_events[i];
		char name[128];
		int r = ev_enable_quietly(dir, rel);

		if (r <= 0) {
			if (r < 0)
				return -1;
			continue;
		}
		snprintf(name, sizeof(name), "%s", rel);
		name[strcspn(name, "/")] = ':';
		if (ev_add_system(&m, rel) || tm_strv_push(quiet, &n, name))
			return tm_fail(ENOMEM, "event %s", name);
	}
	return 0;
}
