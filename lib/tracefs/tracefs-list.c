// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs-list.c - read-only listing of an instance's events, systems, clocks, tracers,
 * options, and of the functions the function tracers can trace.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "util/internal.h"
#include "tracefs-internal.h"
#include "tm-list.h"
#include "tm-tracefs.h"

/* A growing NULL-terminated string vector. */
struct tm_strv {
	char **v;
	size_t n;
	size_t cap;
};

static int strv_add(struct tm_strv *s, char *str)
{
	char **tmp;

	if (!str)
		return -1;
	if (s->n + 2 > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		tmp = realloc(s->v, s->cap * sizeof(*tmp));
		if (!tmp) {
			free(str);
			return -1;
		}
		s->v = tmp;
	}
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
	return 0;
}

static int strv_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and hand over the vector (an empty one is a valid, empty list). */
static char **strv_finish(struct tm_strv *s)
{
	if (!s->v) {
		s->v = calloc(1, sizeof(*s->v));
		if (!s->v)
			return NULL;
	}
	qsort(s->v, s->n, sizeof(*s->v), strv_cmp);
	return s->v;
}

/* An instance directory (or the top level) as libtracefs's "tracing dir" of its files. */
static struct tracefs_instance *list_open(const char *dir)
{
	struct tracefs_instance *in = tracefs_instance_alloc(dir, NULL);

	if (!in)
		tm_fail(errno ? errno : ENOENT, "open %s", dir);
	return in;
}

/* A libtracefs list (NULL: none) added to s, each filtered and made by fmt. */
static int strv_add_list(struct tm_strv *s, char **list, const char *prefix,
			 const regex_t *filter)
{
	char *name;

	for (char **p = list; p && *p; p++) {
		if (asprintf(&name, "%s%s%s", prefix ? prefix : "", prefix ? ":" : "", *p) < 0)
			return tm_fail(ENOMEM, "list");
		if (filter && regexec(filter, name, 0, NULL, 0)) {
			free(name);
			continue;
		}
		if (strv_add(s, name))
			return tm_fail(ENOMEM, "list");
	}
	return 0;
}

char *tm_list_instance_dir(const char *tracefs, const char *instance)
{
	struct tracefs_instance *in;
	char *path = NULL, *dir;

	if (instance && (!*instance || strchr(instance, '/') || !strcmp(instance, ".") ||
			 !strcmp(instance, ".."))) {
		tm_failx(EINVAL, "invalid instance name '%s'", instance);
		return NULL;
	}
	errno = 0;
	in = tracefs_instance_alloc(tracefs, instance);
	if (!in) {
		tm_fail(errno ? errno : ENOTDIR, "no instance '%s' (%s%s%s)",
			instance ? instance : "(top)", tracefs, instance ? "/instances/" : "",
			instance ? instance : "");
		return NULL;
	}
	dir = tracefs_instance_get_dir(in);
	path = dir ? strdup(dir) : NULL;
	tracefs_put_tracing_file(dir);
	tracefs_instance_free(in);
	if (!path)
		tm_fail(ENOMEM, "instance %s", instance ? instance : "(top)");
	return path;
}

/* tracefs_event_systems(), and ftrace, which has no enable file (libtracefs wants one). */
static int add_systems(const char *dir, struct tm_strv *s)
{
	char **list, **ftrace;
	int ret;

	errno = 0;
	list = tracefs_event_systems(dir);
	if (!list)
		return tm_fail(errno ? errno : ENOENT, "list %s/events", dir);
	ret = strv_add_list(s, list, NULL, NULL);
	tracefs_list_free(list);
	ftrace = tracefs_system_events(dir, "ftrace");
	if (!ret && ftrace && strv_add(s, strdup("ftrace")))
		ret = tm_fail(ENOMEM, "list %s/events", dir);
	tracefs_list_free(ftrace);
	return ret;
}

char **tm_list_systems(const char *dir)
{
	struct tm_strv s = { 0 };

	if (add_systems(dir, &s))
		goto fail;
	if (strv_finish(&s))
		return s.v;
	tm_fail(ENOMEM, "list %s/events", dir);
fail:
	tm_strv_free(s.v);
	return NULL;
}

char **tm_list_events(const char *dir, const regex_t *filter)
{
	struct tm_strv s = { 0 };
	char **systems, **events;

	systems = tm_list_systems(dir);
	if (!systems)
		return NULL;
	for (char **sys = systems; *sys; sys++) {
		int ret;

		events = tracefs_system_events(dir, *sys);
		ret = strv_add_list(&s, events, *sys, filter);
		tracefs_list_free(events);
		if (ret)
			goto fail;
	}
	if (!strv_finish(&s)) {
		tm_fail(ENOMEM, "list events of %s", dir);
		goto fail;
	}
	tm_strv_free(systems);
	return s.v;
fail:
	tm_strv_free(systems);
	tm_strv_free(s.v);
	return NULL;
}

/* The whitespace-separated words of <dir>/<file>. */
static char **file_words(const char *dir, const char *file, struct tm_strv *s)
{
	struct tracefs_instance *in = list_open(dir);
	char *buf, *tok, *save = NULL;

	buf = in ? tm_tfs_read(in, file, NULL) : NULL;
	tracefs_instance_free(in);
	if (!buf)
		return NULL;
	for (tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		if (strv_add(s, strdup(tok))) {
			tm_fail(ENOMEM, "read %s/%s", dir, file);
			free(buf);
			tm_strv_free(s->v);
			return NULL;
		}
	}
	free(buf);
	if (!s->v && !(s->v = calloc(1, sizeof(*s->v))))
		tm_fail(ENOMEM, "read %s/%s", dir, file);
	return s->v;
}

/* Every clock in the kernel's order: libtracefs 1.6.4 reads only the selected one. */
char **tm_list_clocks(const char *dir, int *current)
{
	struct tm_strv s = { 0 };
	size_t len;

	*current = -1;
	if (!file_words(dir, "trace_clock", &s))
		return NULL;
	/* the kernel order is kept: the selected clock is the one in brackets */
	for (size_t i = 0; i < s.n; i++) {
		len = strlen(s.v[i]);
		if (len >= 2 && s.v[i][0] == '[' && s.v[i][len - 1] == ']') {
			memmove(s.v[i], s.v[i] + 1, len - 2);
			s.v[i][len - 2] = '\0';
			*current = (int)i;
		}
	}
	return s.v;
}

/* Whole lines, "name [module]": tracefs_filter_functions() gives the names alone. */
char **tm_list_functions(const char *tracefs, const regex_t *filter)
{
	struct tracefs_instance *in = list_open(tracefs);
	struct tm_strv s = { 0 };
	char *buf, *line, *save = NULL;
	bool ok = true;

	buf = in ? tm_tfs_read(in, "available_filter_functions", NULL) : NULL;
	tracefs_instance_free(in);
	if (!buf)
		return NULL;
	for (line = strtok_r(buf, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save))
		if (!filter || !regexec(filter, line, 0, NULL, 0))
			ok = !strv_add(&s, strdup(line));
	free(buf);
	if (ok && strv_finish(&s))
		return s.v;
	tm_fail(ENOMEM, "read %s/available_filter_functions", tracefs);
	tm_strv_free(s.v);
	return NULL;
}

char **tm_list_tracers(const char *dir)
{
	struct tm_strv s = { 0 };
	char **list;

	errno = 0;
	list = tracefs_tracers(dir);
	if (!list && errno) {
		tm_fail(errno, "open %s/available_tracers", dir);
		return NULL;
	}
	/* tracefs_tracers() leaves nop out: every kernel has it */
	if (strv_add_list(&s, list, NULL, NULL) || strv_add(&s, strdup("nop"))) {
		tracefs_list_free(list);
		tm_strv_free(s.v);
		return NULL;
	}
	tracefs_list_free(list);
	return strv_finish(&s);
}

/* "NAME VALUE" for one options/NAME file. */
static char *option_line(struct tracefs_instance *in, const char *name)
{
	char rel[PATH_MAX], *value, *line = NULL;

	if (tm_path(rel, sizeof(rel), "options/%s", name))
		return NULL;
	value = tm_tfs_read(in, rel, NULL);
	if (!value)
		return NULL;
	value[strcspn(value, "\n")] = '\0';
	if (asprintf(&line, "%s %s", name, value) < 0) {
		tm_fail(ENOMEM, "read %s", rel);
		line = NULL;
	}
	free(value);
	return line;
}

/* Every options/ file: libtracefs 1.6.4 knows only the options of its own list. */
char **tm_list_options(const char *dir)
{
	struct tracefs_instance *in;
	struct tm_strv s = { 0 };
	char path[PATH_MAX], *line;
	struct dirent *d;
	DIR *od;

	if (tm_path(path, sizeof(path), "%s/options", dir) || !(in = list_open(dir)))
		return NULL;
	od = opendir(path);
	if (!od) {
		tm_fail(errno, "open %s", path);
		tracefs_instance_free(in);
		return NULL;
	}
	while ((d = readdir(od))) {
		if (d->d_name[0] == '.')
			continue;
		line = option_line(in, d->d_name);
		if (!line)
			goto fail;
		if (strv_add(&s, line)) {
			tm_fail(ENOMEM, "list %s", path);
			goto fail;
		}
	}
	closedir(od);
	od = NULL;
	if (!strv_finish(&s)) {
		tm_fail(ENOMEM, "list %s", path);
		goto fail;
	}
	tracefs_instance_free(in);
	return s.v;
fail:
	if (od)
		closedir(od);
	tracefs_instance_free(in);
	tm_strv_free(s.v);
	return NULL;
}

/* The system holding a bare event name; ambiguous or unknown names fail. */
static char *event_system(struct tracefs_instance *in, const char *dir, const char *event)
{
	char **systems, found_in[256] = "", *system = NULL;
	int found = 0;

	systems = tm_list_systems(dir);
	if (!systems)
		return NULL;
	for (char **sys = systems; *sys; sys++) {
		if (!tracefs_event_file_exists(in, *sys, event, "format"))
			continue;
		if (found++)
			strncat(found_in, ", ", sizeof(found_in) - strlen(found_in) - 1);
		strncat(found_in, *sys, sizeof(found_in) - strlen(found_in) - 1);
		if (!system)
			system = strdup(*sys);
	}
	tm_strv_free(systems);
	if (found == 1 && system)
		return system;
	free(system);
	if (found > 1)
		tm_failx(EINVAL, "event '%s' is in several systems (%s): name it SYSTEM:EVENT",
			 event, found_in);
	else
		tm_failx(ENOENT, "unknown event '%s' (see 'tracemap list -e')", event);
	return NULL;
}

static char *event_format(struct tracefs_instance *in, const char *dir, const char *event)
{
	char rel[PATH_MAX], *system, *name, *sep, *format = NULL;

	system = strdup(event);
	if (!system) {
		tm_fail(ENOMEM, "event %s", event);
		return NULL;
	}
	sep = strpbrk(system, ":/");
	if (sep) {
		*sep = '\0';
		name = sep + 1;
	} else {
		free(system);
		system = event_system(in, dir, event);
		if (!system)
			return NULL;
		name = (char *)event;
	}
	if (!*system || !*name || strchr(name, '/') || strchr(name, ':') || *system == '.' ||
	    *name == '.' || !tracefs_event_file_exists(in, system, name, "format")) {
		tm_failx(ENOENT, "unknown event '%s' (see 'tracemap list -e')", event);
		goto out;
	}
	if (!tm_path(rel, sizeof(rel), "events/%s/%s/format", system, name))
		format = tm_tfs_read(in, rel, NULL);
out:
	free(system);
	return format;
}

char *tm_list_event_format(const char *dir, const char *event)
{
	struct tracefs_instance *in = list_open(dir);
	char *format;

	if (!in)
		return NULL;
	format = event_format(in, dir, event);
	tracefs_instance_free(in);
	return format;
}

/*
 * One instance: its per-CPU buffer size, and whether it is persistent (the
 * kernel gives a boot-mapped instance, and only one, a last_boot_info file)
 * and holds a previous boot's events (that file says anything but "# Current").
 */
static char *instance_line(const char *tracefs, const char *name)
{
	char dir[PATH_MAX], *size, *boot, *line = NULL, *nl;
	struct tracefs_instance *in;
	bool persistent, previous;

	if (tm_path(dir, sizeof(dir), "%s/instances/%s", tracefs, name))
		return NULL;
	in = list_open(dir);
	if (!in)
		return NULL;
	size = tracefs_instance_file_read(in, "buffer_size_kb", NULL);
	/* unreadable: persistent, its boot unknown */
	persistent = tm_instance_last_boot(in, &boot) != 0;
	previous = boot;
	if (size && (nl = strchr(size, '\n')))
		*nl = '\0';
	if (asprintf(&line, "%s %s KiB%s%s", name, size ? size : "?",
		     persistent ? " persistent" : "",
		     previous ? ", holds the previous boot's events" : "") < 0)
		line = NULL;
	free(size);
	free(boot);
	tracefs_instance_free(in);
	return line;
}

char **tm_list_instances(const char *tracefs)
{
	struct tm_strv s = { 0 };
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (tm_path(dir, sizeof(dir), "%s/instances", tracefs))
		return NULL;
	d = opendir(dir);
	if (!d) {
		tm_fail(errno, "open %s", dir);
		return NULL;
	}
	while ((de = readdir(d))) {
		char *line;

		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		line = instance_line(tracefs, de->d_name);
		if (!line || strv_add(&s, line)) {
			free(line);
			closedir(d);
			tm_strv_free(s.v);
			return NULL;
		}
	}
	closedir(d);
	return strv_finish(&s);
}
