// SPDX-License-Identifier: GPL-2.0-only
/* meta-events.c - header_page/header_event and the event formats a recording stores. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "meta-internal.h"
#include "util/internal.h"

static int text_read(struct tm_text *t, const char *path)
{
	t->data = tm_read_file(path, &t->len);
	return t->data ? 0 : -1;
}

/* Append events/<sys>/<event>/format to an array of texts. */
static int format_add(struct tm_text **arr, size_t *n, const char *tracefs,
			 const char *sys, const char *event)
{
	struct tm_text *tmp, t;
	char path[4096];

	if (tm_path(path, sizeof(path), "%s/events/%s/%s/format", tracefs, sys, event))
		return -1;
	if (text_read(&t, path))
		return -1;
	tmp = realloc(*arr, (*n + 1) * sizeof(**arr));
	if (!tmp) {
		free(t.data);
		return tm_fail(ENOMEM, "read %s", path);
	}
	*arr = tmp;
	(*arr)[(*n)++] = t;
	return 0;
}

static int is_dir_entry(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

/* Every event of a system (directories holding a format file), by name. */
static int formats_of_system(struct tm_text **arr, size_t *n, const char *tracefs,
				const char *sys)
{
	struct dirent **names = NULL;
	char path[4096];
	int count, i, ret = 0;

	if (tm_path(path, sizeof(path), "%s/events/%s", tracefs, sys))
		return -1;
	count = scandir(path, &names, is_dir_entry, alphasort);
	if (count < 0)
		return tm_fail(errno, "list %s", path);
	for (i = 0; i < count; i++) {
		struct stat st;

		if (ret)
			continue;
		ret = tm_path(path, sizeof(path), "%s/events/%s/%s/format", tracefs, sys,
			      names[i]->d_name);
		if (ret || stat(path, &st))
			continue;	/* "enable", "filter" and friends have no format */
		ret = format_add(arr, n, tracefs, sys, names[i]->d_name);
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return ret;
}

static struct tm_meta_system *system_get(struct tm_meta *meta, const char *name)
{
	struct tm_meta_system *tmp;
	size_t i;

	for (i = 0; i < meta->nsystems; i++)
		if (!strcmp(meta->systems[i].name, name))
			return &meta->systems[i];
	tmp = realloc(meta->systems, (meta->nsystems + 1) * sizeof(*tmp));
	if (!tmp)
		goto nomem;
	meta->systems = tmp;
	tmp = &meta->systems[meta->nsystems];
	memset(tmp, 0, sizeof(*tmp));
	tmp->name = strdup(name);
	if (!tmp->name)
		goto nomem;
	meta->nsystems++;
	return tmp;
nomem:
	tm_fail(ENOMEM, "event system %s", name);
	return NULL;
}

/* No set_event (a snapshot directory): every system but ftrace, whole. */
static int meta_all_events(struct tm_meta *meta, const char *tracefs)
{
	struct dirent **names = NULL;
	struct tm_meta_system *sys;
	char path[4096];
	int count, i, ret = 0;

	if (tm_path(path, sizeof(path), "%s/events", tracefs))
		return -1;
	count = scandir(path, &names, is_dir_entry, alphasort);
	if (count < 0)
		return tm_fail(errno, "list %s", path);
	for (i = 0; i < count && !ret; i++) {
		if (!strcmp(names[i]->d_name, "ftrace"))
			continue;
		sys = system_get(meta, names[i]->d_name);
		ret = sys ? formats_of_system(&sys->formats, &sys->nformats, tracefs,
						 sys->name) : -1;
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return ret;
}

/* One "system:event" line of set_event. ftrace events are stored apart, always. */
static int meta_add_enabled(struct tm_meta *meta, const char *tracefs, char *line)
{
	struct tm_meta_system *sys;
	char *colon = strchr(line, ':');

	if (!colon || colon == line || !colon[1])
		return tm_failx(EINVAL, "set_event: unexpected line '%s'", line);
	*colon = '\0';
	if (!strcmp(line, "ftrace"))
		return 0;
	sys = system_get(meta, line);
	if (!sys)
		return -1;
	return format_add(&sys->formats, &sys->nformats, tracefs, line, colon + 1);
}

static int meta_enabled_events(struct tm_meta *meta, const char *tracefs, char *set_event)
{
	char *save = NULL, *line;

	for (line = strtok_r(set_event, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (meta_add_enabled(meta, tracefs, line))
			return -1;
	}
	return 0;
}

int tm_meta_read_events(struct tm_meta *meta, const char *tracefs, const char *instance)
{
	char path[4096];
	char *set_event;
	int ret;

	if (tm_path(path, sizeof(path), "%s/events/header_page", tracefs))
		return -1;
	if (text_read(&meta->header_page, path))
		return -1;
	if (tm_path(path, sizeof(path), "%s/events/header_event", tracefs))
		return -1;
	if (text_read(&meta->header_event, path))
		return -1;
	if (formats_of_system(&meta->ftrace, &meta->nftrace, tracefs, "ftrace"))
		return -1;
	if (tm_path(path, sizeof(path), "%s%s%s/set_event", tracefs,
		    instance && *instance ? "/instances/" : "", instance ? instance : ""))
		return -1;
	set_event = tm_read_file(path, NULL);
	if (!set_event)
		return errno == ENOENT ? meta_all_events(meta, tracefs) : -1;
	ret = meta_enabled_events(meta, tracefs, set_event);
	free(set_event);
	return ret;
}

static bool id_set(const uint8_t *ids, unsigned long id)
{
	return id < TM_META_MAX_IDS && (ids[id / 8] & (1u << (id % 8)));
}

/* The "ID: n" line of a format text; -1 without one. */
static long format_id(const struct tm_text *t)
{
	const char *p = t->data ? strstr(t->data, "\nID: ") : NULL;

	return p ? strtol(p + 5, NULL, 10) : -1;
}

/* Whether the format of id is stored already. */
static bool meta_has_id(const struct tm_meta *meta, long id)
{
	for (size_t i = 0; i < meta->nsystems; i++)
		for (size_t j = 0; j < meta->systems[i].nformats; j++)
			if (format_id(&meta->systems[i].formats[j]) == id)
				return true;
	return false;
}

/* One events/<sys>/<event>: its format when its id is wanted and missing. */
static int meta_add_if_wanted(struct tm_meta *meta, const char *tracefs, const char *sys,
				 const char *event, const uint8_t *ids)
{
	struct tm_meta_system *s;
	char path[4096], *text;
	unsigned long id;

	if (tm_path(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, event))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return 0;	/* not an event directory */
	id = strtoul(text, NULL, 10);
	free(text);
	if (!id_set(ids, id) || meta_has_id(meta, (long)id))
		return 0;
	s = system_get(meta, sys);
	return s ? format_add(&s->formats, &s->nformats, tracefs, sys, event) : -1;
}

int tm_meta_add_ids(struct tm_meta *meta, const char *tracefs, const uint8_t *ids)
{
	struct dirent **sys = NULL, **ev = NULL;
	char path[4096];
	int nsys, nev, i, j, ret = 0;

	if (tm_path(path, sizeof(path), "%s/events", tracefs))
		return -1;
	nsys = scandir(path, &sys, is_dir_entry, alphasort);
	if (nsys < 0)
		return tm_fail(errno, "list %s", path);
	for (i = 0; i < nsys; i++) {
		if (ret || !strcmp(sys[i]->d_name, "ftrace") ||
		    tm_path(path, sizeof(path), "%s/events/%s", tracefs, sys[i]->d_name))
			continue;
		nev = scandir(path, &ev, is_dir_entry, alphasort);
		for (j = 0; j < nev; j++) {
			if (!ret)
				ret = meta_add_if_wanted(meta, tracefs, sys[i]->d_name,
							    ev[j]->d_name, ids);
			free(ev[j]);
		}
		free(ev);
		ev = NULL;
	}
	for (i = 0; i < nsys; i++)
		free(sys[i]);
	free(sys);
	return ret;
}
