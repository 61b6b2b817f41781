// SPDX-License-Identifier: GPL-2.0-only
/* meta-events.c - header_page/header_event and the event formats a recording stores. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "meta-internal.h"
#include "util/internal.h"
#include "tracefs-internal.h"

/* <instance>/<rel> into t; -1 + message. */
static int text_read(struct tm_text *t, struct tracefs_instance *in, const char *rel)
{
	t->data = tm_tfs_read(in, rel, &t->len);
	return t->data ? 0 : -1;
}

/* Append the format of <sys>:<event> to an array of texts. */
static int format_add(struct tm_text **arr, size_t *n, struct tracefs_instance *top,
		      const char *sys, const char *event)
{
	struct tm_text *tmp, t;
	char rel[4096];
	int size = 0;

	if (tm_path(rel, sizeof(rel), "events/%s/%s/format", sys, event))
		return -1;
	errno = 0;
	t.data = tracefs_event_file_read(top, sys, event, "format", &size);
	if (!t.data)
		return tm_tfs_fail(top, rel, errno ? errno : ENOENT, "open");
	t.len = (size_t)size;
	tmp = realloc(*arr, (*n + 1) * sizeof(**arr));
	if (!tmp) {
		free(t.data);
		return tm_fail(ENOMEM, "read %s", rel);
	}
	*arr = tmp;
	(*arr)[(*n)++] = t;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* tracefs_system_events() of sys, sorted by name (NULL: none, or -1 + message). */
static int system_events(struct tracefs_instance *top, const char *sys, char ***out)
{
	const char *dir = tracefs_instance_get_trace_dir(top);

	errno = 0;
	*out = tracefs_system_events(dir, sys);
	if (!*out && errno && errno != ENOENT)
		return tm_fail(errno, "list %s/events/%s", dir, sys);
	if (*out)
		qsort(*out, tracefs_list_size(*out), sizeof(**out), name_cmp);
	return 0;
}

/* Every event of a system (directories holding a format file), by name. */
static int formats_of_system(struct tm_text **arr, size_t *n, struct tracefs_instance *top,
			     const char *sys)
{
	char **events;
	int ret = 0;

	if (system_events(top, sys, &events))
		return -1;
	for (char **e = events; !ret && e && *e; e++)
		if (tracefs_event_file_exists(top, sys, *e, "format"))
			ret = format_add(arr, n, top, sys, *e);
	tracefs_list_free(events);
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

static int is_dir_entry(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

/*
 * No set_event (a snapshot directory): every system but ftrace, whole. Its
 * systems have no enable file, which tracefs_event_systems() requires.
 */
static int meta_all_events(struct tm_meta *meta, struct tracefs_instance *top)
{
	const char *tracefs = tracefs_instance_get_trace_dir(top);
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
		ret = sys ? formats_of_system(&sys->formats, &sys->nformats, top, sys->name) : -1;
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return ret;
}

/* One "system:event" line of set_event. ftrace events are stored apart, always. */
static int meta_add_enabled(struct tm_meta *meta, struct tracefs_instance *top, char *line)
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
	return format_add(&sys->formats, &sys->nformats, top, line, colon + 1);
}

static int meta_enabled_events(struct tm_meta *meta, struct tracefs_instance *top,
			       char *set_event)
{
	char *save = NULL, *line;

	for (line = strtok_r(set_event, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (meta_add_enabled(meta, top, line))
			return -1;
	}
	return 0;
}

/* The instance's set_event, NULL when it has none (a snapshot directory) or on error. */
static char *meta_set_event(const char *tracefs, const char *instance)
{
	const char *name = instance && *instance ? instance : NULL;
	struct tracefs_instance *in = tm_tfs_open(tracefs, name);
	char *text;

	if (!in)
		return NULL;
	text = tm_tfs_read(in, "set_event", NULL);
	tracefs_instance_free(in);
	return text;
}

static int read_events(struct tm_meta *meta, struct tracefs_instance *top, const char *tracefs,
		       const char *instance)
{
	char *set_event;
	int ret;

	if (text_read(&meta->header_page, top, "events/header_page") ||
	    text_read(&meta->header_event, top, "events/header_event") ||
	    formats_of_system(&meta->ftrace, &meta->nftrace, top, "ftrace"))
		return -1;
	set_event = meta_set_event(tracefs, instance);
	if (!set_event)
		return errno == ENOENT ? meta_all_events(meta, top) : -1;
	ret = meta_enabled_events(meta, top, set_event);
	free(set_event);
	return ret;
}

int tm_meta_read_events(struct tm_meta *meta, const char *tracefs, const char *instance)
{
	struct tracefs_instance *top = tm_tfs_open(tracefs, NULL);
	int ret;

	if (!top)
		return -1;
	ret = read_events(meta, top, tracefs, instance);
	tracefs_instance_free(top);
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
static int meta_add_if_wanted(struct tm_meta *meta, struct tracefs_instance *top,
			      const char *sys, const char *event, const uint8_t *ids)
{
	struct tm_meta_system *s;
	unsigned long id;
	char *text;

	text = tracefs_event_file_read(top, sys, event, "id", NULL);
	if (!text)
		return 0;	/* not an event directory */
	id = strtoul(text, NULL, 10);
	free(text);
	if (!id_set(ids, id) || meta_has_id(meta, (long)id))
		return 0;
	s = system_get(meta, sys);
	return s ? format_add(&s->formats, &s->nformats, top, sys, event) : -1;
}

/* Each event of each system (ftrace's are stored apart, always). */
static int add_ids(struct tm_meta *meta, struct tracefs_instance *top, const uint8_t *ids)
{
	const char *tracefs = tracefs_instance_get_trace_dir(top);
	char **systems, **events;
	int ret = 0;

	errno = 0;
	systems = tracefs_event_systems(tracefs);
	if (!systems)
		return tm_fail(errno ? errno : ENOENT, "list %s/events", tracefs);
	qsort(systems, tracefs_list_size(systems), sizeof(*systems), name_cmp);
	for (char **sys = systems; !ret && *sys; sys++) {
		if (!strcmp(*sys, "ftrace") || (ret = system_events(top, *sys, &events)))
			continue;
		for (char **e = events; !ret && e && *e; e++)
			ret = meta_add_if_wanted(meta, top, *sys, *e, ids);
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	return ret;
}

int tm_meta_add_ids(struct tm_meta *meta, const char *tracefs, const uint8_t *ids)
{
	struct tracefs_instance *top = tm_tfs_open(tracefs, NULL);
	int ret;

	if (!top)
		return -1;
	ret = add_ids(meta, top, ids);
	tracefs_instance_free(top);
	return ret;
}
