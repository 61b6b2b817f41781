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
	struct tm_journal *journal;	/* a reused instance's saved settings, or NULL */
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

/* Add the system of rel ("sys", "sys/event", "sys:event") to the list unless it is there. */
static int tm_ev_add_system(struct tm_ev_match *m, const char *rel)
{
	size_t n, len = strcspn(rel, "/:");
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

/*
 * Save the filters a filter on events/<rel> replaces: the event's, or for a
 * system every event's of it (the system file sets them all).
 */
static int tm_ev_save_filters(struct tm_ev_match *m, const char *rel)
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
		if (tm_is_subdir(path, d->d_name))
			ret = tm_path(file, sizeof(file), "events/%s/%s/filter", rel, d->d_name) ?:
			      tm_journal_save(m->journal, file);
	}
	closedir(dir);
	return ret;
}

/* Enable events/<rel> (a system or system/event) and set its filter. */
static int tm_ev_enable(struct tm_ev_match *m, const char *rel)
{
	char file[PATH_MAX];

	if (m->filter) {
		if (tm_ev_save_filters(m, rel) ||
		    tm_path(file, sizeof(file), "events/%s/filter", rel))
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

static int tm_ev_apply(const char *dir, const struct tm_event_spec *spec, char ***systems,
		       struct tm_journal *journal)
{
	struct tm_ev_match m = { .dir = dir, .spec = spec->event, .filter = spec->filter,
				 .systems = systems, .journal = journal };
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
	if (ret)
		return -1;
	if (!m.matched)
		return tm_failx(ENOENT, "unknown event '%s' (no event matches it; see tracemap list -e)",
				spec->event);
	return 0;
}

/* A reused instance may have events of its own enabled: their systems count too. */
static int tm_ev_systems_of_set_event(const char *dir, char ***systems)
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
			ret = tm_ev_add_system(&m, line);
	free(text);
	return ret;
}

int tm_sess_enable_events(const char *dir, const struct tm_event_spec *specs, size_t n,
			  char ***systems, struct tm_journal *journal)
{
	/* set_event holds every enable state: restoring it undoes all of ours */
	if (n && tm_journal_save(journal, "set_event"))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (tm_ev_apply(dir, &specs[i], systems, journal))
			return -1;
	return journal ? tm_ev_systems_of_set_event(dir, systems) : 0;
}
