// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs-list.c - read-only listing of an instance's events, systems, clocks, tracers,
 * options, and of the functions the function tracers can trace.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "tm-list.h"

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

static bool is_dir_at(int dfd, const char *name)
{
	struct stat st;

	return !fstatat(dfd, name, &st, 0) && S_ISDIR(st.st_mode);
}

/* Names of the subdirectories of path, without "." and "..". */
static int subdirs(const char *path, struct tm_strv *out)
{
	struct dirent *d;
	DIR *dir;
	int ret = -1;

	dir = opendir(path);
	if (!dir)
		return tm_fail(errno, "open %s", path);
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !is_dir_at(dirfd(dir), d->d_name))
			continue;
		if (strv_add(out, strdup(d->d_name))) {
			tm_fail(ENOMEM, "list %s", path);
			goto out;
		}
	}
	ret = 0;
out:
	closedir(dir);
	return ret;
}

char *tm_list_instance_dir(const char *tracefs, const char *instance)
{
	char *path = NULL;
	struct stat st;
	int n;

	if (!instance)
		n = asprintf(&path, "%s", tracefs);
	else if (!*instance || strchr(instance, '/') || !strcmp(instance, ".") ||
		 !strcmp(instance, "..")) {
		tm_failx(EINVAL, "invalid instance name '%s'", instance);
		return NULL;
	} else
		n = asprintf(&path, "%s/instances/%s", tracefs, instance);
	if (n < 0) {
		tm_fail(ENOMEM, "instance %s", instance ? instance : "(top)");
		return NULL;
	}
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		tm_fail(errno ? errno : ENOTDIR, "no instance '%s' (%s)",
			instance ? instance : "(top)", path);
		free(path);
		return NULL;
	}
	return path;
}

char **tm_list_systems(const char *dir)
{
	struct tm_strv s = { 0 };
	char path[PATH_MAX];

	if (tm_path(path, sizeof(path), "%s/events", dir) || subdirs(path, &s))
		goto fail;
	if (strv_finish(&s))
		return s.v;
	tm_fail(ENOMEM, "list %s", path);
fail:
	tm_strv_free(s.v);
	return NULL;
}

/* Add "system:event" for each event directory of one system that filter matches. */
static int add_system_events(const char *dir, const char *system, const regex_t *filter,
				struct tm_strv *out)
{
	struct tm_strv ev = { 0 };
	char path[PATH_MAX], *name;
	int ret = -1;

	if (tm_path(path, sizeof(path), "%s/events/%s", dir, system) || subdirs(path, &ev))
		return -1;
	for (size_t i = 0; i < ev.n; i++) {
		if (asprintf(&name, "%s:%s", system, ev.v[i]) < 0) {
			tm_fail(ENOMEM, "list %s", path);
			goto out;
		}
		if (filter && regexec(filter, name, 0, NULL, 0)) {
			free(name);
			continue;
		}
		if (strv_add(out, name)) {
			tm_fail(ENOMEM, "list %s", path);
			goto out;
		}
	}
	ret = 0;
out:
	tm_strv_free(ev.v);
	return ret;
}

char **tm_list_events(const char *dir, const regex_t *filter)
{
	struct tm_strv s = { 0 };
	char **systems;

	systems = tm_list_systems(dir);
	if (!systems)
		return NULL;
	for (char **sys = systems; *sys; sys++)
		if (add_system_events(dir, *sys, filter, &s))
			goto fail;
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
	char path[PATH_MAX], *buf, *tok, *save = NULL;

	if (tm_path(path, sizeof(path), "%s/%s", dir, file))
		return NULL;
	buf = tm_read_file(path, NULL);
	if (!buf)
		return NULL;
	for (tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		if (strv_add(s, strdup(tok))) {
			tm_fail(ENOMEM, "read %s", path);
			free(buf);
			tm_strv_free(s->v);
			return NULL;
		}
	}
	free(buf);
	if (!s->v && !(s->v = calloc(1, sizeof(*s->v))))
		tm_fail(ENOMEM, "read %s", path);
	return s->v;
}

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

char **tm_list_functions(const char *tracefs, const regex_t *filter)
{
	struct tm_strv s = { 0 };
	char path[PATH_MAX], *buf, *line, *save = NULL;
	bool ok = true;

	if (tm_path(path, sizeof(path), "%s/available_filter_functions", tracefs))
		return NULL;
	buf = tm_read_file(path, NULL);
	if (!buf)
		return NULL;
	for (line = strtok_r(buf, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save))
		if (!filter || !regexec(filter, line, 0, NULL, 0))
			ok = !strv_add(&s, strdup(line));
	free(buf);
	if (ok && strv_finish(&s))
		return s.v;
	tm_fail(ENOMEM, "read %s", path);
	tm_strv_free(s.v);
	return NULL;
}

char **tm_list_tracers(const char *dir)
{
	struct tm_strv s = { 0 };

	if (!file_words(dir, "available_tracers", &s))
		return NULL;
	return strv_finish(&s);
}

/* "NAME VALUE" for one options/NAME file. */
static char *option_line(const char *path, const char *name)
{
	char file[PATH_MAX], *value, *line = NULL;

	if (tm_path(file, sizeof(file), "%s/%s", path, name))
		return NULL;
	value = tm_read_file(file, NULL);
	if (!value)
		return NULL;
	value[strcspn(value, "\n")] = '\0';
	if (asprintf(&line, "%s %s", name, value) < 0) {
		tm_fail(ENOMEM, "read %s", file);
		line = NULL;
	}
	free(value);
	return line;
}

char **tm_list_options(const char *dir)
{
	struct tm_strv s = { 0 };
	char path[PATH_MAX], *line;
	struct dirent *d;
	DIR *od;

	if (tm_path(path, sizeof(path), "%s/options", dir))
		return NULL;
	od = opendir(path);
	if (!od) {
		tm_fail(errno, "open %s", path);
		return NULL;
	}
	while ((d = readdir(od))) {
		if (d->d_name[0] == '.')
			continue;
		line = option_line(path, d->d_name);
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
	return s.v;
fail:
	if (od)
		closedir(od);
	tm_strv_free(s.v);
	return NULL;
}

/* The system holding a bare event name; ambiguous or unknown names fail. */
static char *event_system(const char *dir, const char *event)
{
	char **systems, path[PATH_MAX], found_in[256] = "", *system = NULL;
	int found = 0;

	systems = tm_list_systems(dir);
	if (!systems)
		return NULL;
	for (char **sys = systems; *sys; sys++) {
		if (tm_path(path, sizeof(path), "%s/events/%s/%s/format", dir, *sys, event) ||
		    access(path, F_OK))
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

char *tm_list_event_format(const char *dir, const char *event)
{
	char path[PATH_MAX], *system, *name, *sep, *format = NULL;

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
		system = event_system(dir, event);
		if (!system)
			return NULL;
		name = (char *)event;
	}
	if (!*system || !*name || strchr(name, '/') || strchr(name, ':') || *system == '.' ||
	    *name == '.') {
		tm_failx(ENOENT, "unknown event '%s' (see 'tracemap list -e')", event);
		goto out;
	}
	if (tm_path(path, sizeof(path), "%s/events/%s/%s/format", dir, system, name) ||
	    access(path, F_OK)) {
		tm_failx(ENOENT, "unknown event '%s' (see 'tracemap list -e')", event);
		goto out;
	}
	format = tm_read_file(path, NULL);
out:
	free(system);
	return format;
}
