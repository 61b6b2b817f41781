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

struct tm_ev_match {
	const char	*dir;		/* instance directory */
	const char	*spec;
	const char	*filter;
	int		matched;
	char		***systems;	/* systems with an enabled event, NULL-terminated */
	bool		*markers;	/* set when the spec asks for ftrace:print */
};

static bool tm_is_subdir(const char *parent, const char *name)
{
	char path[PATH_MAX];

	if (name[0] == '.')
		return false;
	if (tm_path(path, sizeof(path), "%s/%s/enable", parent, name))
		return false;
	return !access(path, F_OK);
}

/* Add the system of rel ("sys" or "sys/event") to the list unless it is there. */
static int tm_ev_add_system(struct tm_ev_match *m, const char *rel)
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

/* Enable events/<rel> (a system or system/event) and set its filter. */
static int tm_ev_enable(struct tm_ev_match *m, const char *rel)
{
	char file[PATH_MAX];

	if (m->filter) {
		if (tm_path(file, sizeof(file), "events/%s/filter", rel))
			return -1;
		if (tm_file_write(m->dir, file, m->filter)) {
			if (errno == EINVAL) {
				char name[PATH_MAX], *slash;

				snprintf(name, sizeof(name), "%s", rel);
				slash = strchr(name, '/');
				if (slash)
					*slash = ':';
				return tm_failx(EINVAL, "bad filter '%s' for event '%s'",
						m->filter, name);
			}
			return -1;
		}
	}
	if (tm_path(file, sizeof(file), "events/%s/enable", rel) ||
	    tm_file_write(m->dir, file, "1"))
		return -1;
	m->matched++;
	return tm_ev_add_system(m, rel);
}

/*
 * The directories of events/ (sys NULL) or events/<sys> whose names match
 * pat. Under events/ with ev_pat, the matching events of each matching
 * system are enabled; otherwise each match itself (a whole system, or an
 * event of sys).
 */
static int tm_ev_scan(struct tm_ev_match *m, const char *sys, const char *pat,
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
		if (!tm_is_subdir(path, d->d_name) || fnmatch(pat, d->d_name, 0))
			continue;
		if (sys)
			ret = tm_path(rel, sizeof(rel), "%s/%s", sys, d->d_name) ?:
			      tm_ev_enable(m, rel);
		else if (ev_pat)
			ret = tm_ev_scan(m, d->d_name, ev_pat, NULL);
		else
			ret = tm_ev_enable(m, d->d_name);
	}
	closedir(dir);
	return ret;
}

/*
 * ftrace:print (trace_marker lines) has no enable file: it is always on in
 * an instance, but sees only the instance's own trace_marker. True when spec
 * names it (all, ftrace, print, or globs matching ftrace:print).
 */
static bool tm_ev_names_print(const char *spec)
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
static int tm_ev_want_markers(struct tm_ev_match *m)
{
	if (m->filter && !m->matched)
		return tm_failx(EINVAL, "bad filter '%s' for event 'ftrace:print': ftrace "
				"events take no filter", m->filter);
	*m->markers = true;
	m->matched++;
	return tm_ev_add_system(m, "ftrace");
}

static int tm_ev_apply(const char *dir, const struct tm_event_spec *spec, char ***systems,
		       bool *markers)
{
	struct tm_ev_match m = { .dir = dir, .spec = spec->event, .filter = spec->filter,
				 .systems = systems, .markers = markers };
	char sys[256];
	const char *colon = strchr(spec->event, ':');
	int ret;

	if (!*spec->event || strchr(spec->event, '/'))
		return tm_failx(EINVAL, "bad event name '%s'", spec->event);
	if (!strcmp(spec->event, "all")) {
		ret = tm_ev_scan(&m, NULL, "*", NULL);
	} else if (colon) {
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - spec->event), spec->event);
		ret = tm_ev_scan(&m, NULL, *sys ? sys : "*", colon[1] ? colon + 1 : "*");
	} else {
		/* a system name first, as trace-cmd does; else an event of any system */
		ret = tm_ev_scan(&m, NULL, spec->event, NULL);
		if (!ret && !m.matched)
			ret = tm_ev_scan(&m, NULL, "*", spec->event);
	}
	if (!ret && tm_ev_names_print(spec->event))
		ret = tm_ev_want_markers(&m);
	if (ret)
		return -1;
	if (!m.matched)
		return tm_failx(ENOENT, "unknown event '%s' (no event matches it; see tracemap list -e)",
				spec->event);
	return 0;
}

int tm_sess_enable_events(const char *dir, const struct tm_event_spec *specs, size_t n,
			  char ***systems)
{
	bool markers = false;
	char path[PATH_MAX];

	for (size_t i = 0; i < n; i++)
		if (tm_ev_apply(dir, &specs[i], systems, &markers))
			return -1;
	/* Linux >= 6.17; older kernels record only the instance's own trace_marker */
	if (!markers || tm_path(path, sizeof(path), "%s/options/copy_trace_marker", dir) ||
	    access(path, F_OK))
		return 0;
	return tm_file_write(dir, "options/copy_trace_marker", "1");
}
