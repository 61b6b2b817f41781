// SPDX-License-Identifier: GPL-2.0-only
/* session.c - tracemap's private instance: create, configure, start/stop, remove. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session-events.h"
#include "tracer.h"
#include "uprobe.h"
#include "tracefs-internal.h"
#include "util/internal.h"
#include "tm-tracefs.h"

struct tm_session {
	char			*tracefs;
	char			name[256];
	char			dir[PATH_MAX];
	size_t			page_size;
	bool			created;	/* the instance exists: remove it */
	struct tm_journal	*journal;	/* a reused instance: what to restore */
	char			**systems;	/* of the enabled events, NULL-terminated */
	struct tm_uprobes	*uprobes;	/* global: removed after the instance */
	char			**quiet;	/* events enabled only to follow task names */
	bool			top;		/* the tracer runs only at the top level: there */
	bool			ftrace_pids;	/* a tracer: pids go to set_ftrace_pid too */
};

int tm_session_set(struct tm_session *s, const char *rel, const char *text)
{
	if (tm_journal_save(s->journal, rel))
		return -1;
	return tm_file_write(s->dir, rel, text);
}

int tm_session_append(struct tm_session *s, const char *rel, const char *text)
{
	if (tm_journal_save(s->journal, rel))
		return -1;
	return tm_file_append(s->dir, rel, text);
}

int tm_session_set_why(struct tm_session *s, const char *rel, const char *text, char *why,
		       size_t len)
{
	if (tm_journal_save(s->journal, rel))
		return -1;
	return tm_file_put_why(s->dir, rel, text, false, why, len);
}

int tm_session_copy_markers(struct tm_session *s)
{
	return tm_sess_copy_markers(s->dir, s->journal);
}

static int sess_write_ul(struct tm_session *s, const char *file, unsigned long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", v);
	return tm_session_set(s, file, buf);
}

/* "-O name" sets options/name to 1, "-O noname" sets options/name to 0. */
static int sess_option(struct tm_session *s, const char *opt)
{
	const char *dir = s->dir;
	char rel[PATH_MAX], path[PATH_MAX];
	const char *name = opt, *val = "1";

	if (tm_path(path, sizeof(path), "%s/options/%s", dir, opt))
		return -1;
	if (access(path, F_OK) && !strncmp(opt, "no", 2)) {
		name = opt + 2;
		val = "0";
	}
	if (tm_path(rel, sizeof(rel), "options/%s", name) ||
	    tm_path(path, sizeof(path), "%s/%s", dir, rel))
		return -1;
	if (!*name || strchr(name, '/') || access(path, F_OK))
		return tm_failx(EINVAL, "unknown tracefs option '%s' (see tracemap list -o)", opt);
	return tm_session_set(s, rel, val);
}

static int sess_clock(struct tm_session *s, const char *clock)
{
	if (!tm_session_set(s, "trace_clock", clock))
		return 0;
	if (errno == EINVAL)
		return tm_failx(EINVAL, "unknown trace clock '%s' (see tracemap list -c)", clock);
	return -1;
}

/* The sub-buffer size asked for, or our default where the kernel lets us choose (>= 6.8). */
static int sess_subbuf(struct tm_session *s, const struct tm_session_opts *o)
{
	char path[PATH_MAX];

	if (o->subbuf_kb)
		return sess_write_ul(s, "buffer_subbuf_size_kb", o->subbuf_kb);
	if (!o->default_subbuf_kb)
		return 0;
	if (tm_path(path, sizeof(path), "%s/buffer_subbuf_size_kb", s->dir))
		return -1;
	if (access(path, F_OK))
		return 0;
	return sess_write_ul(s, "buffer_subbuf_size_kb", o->default_subbuf_kb);
}

static int sess_configure(struct tm_session *s, const struct tm_session_opts *o)
{
	if (tm_session_set(s, "tracing_on", "0"))
		return -1;
	if (sess_subbuf(s, o))
		return -1;
	if (o->buffer_kb && sess_write_ul(s, "buffer_size_kb", o->buffer_kb))
		return -1;
	if (o->clock && sess_clock(s, o->clock))
		return -1;
	for (const char * const *opt = o->options; opt && *opt; opt++)
		if (sess_option(s, *opt))
			return -1;
	if (o->wakeup_percent >= 0 && sess_write_ul(s, "buffer_percent", o->wakeup_percent))
		return -1;
	if (o->cpumask && tm_session_set(s, "tracing_cpumask", o->cpumask))
		return -1;
	if (o->follow_children && tm_session_set(s, "options/event-fork", "1"))
		return -1;
	if (tm_sess_enable_events(s->dir, o->events, o->nr_events, &s->systems, s->journal))
		return -1;
	for (size_t i = 0; i < tm_uprobes_count(s->uprobes); i++) {
		struct tm_event_spec ev = { .event = tm_uprobes_event(s->uprobes, i) };

		if (tm_sess_enable_events(s->dir, &ev, 1, &s->systems, s->journal))
			return -1;
	}
	if (o->name_events &&
	    tm_sess_enable_name_events(s->dir, &s->systems, &s->quiet, s->journal))
		return -1;
	s->ftrace_pids = o->tracer.name && strcmp(o->tracer.name, "nop");
	if (o->nr_pids && tm_session_add_pids(s, o->pids, o->nr_pids))
		return -1;
	if (o->tracer.name && o->follow_children &&
	    tm_session_set(s, "options/function-fork", "1"))
		return -1;
	if (o->tracer.name && tm_tracer_apply(s->dir, s->journal, &o->tracer))
		return -1;
	return tm_instance_page_size(s->dir, &s->page_size);
}

/* A name tracefs can hold as one directory. */
static int sess_check_name(const char *name)
{
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	    strlen(name) >= sizeof(((struct tm_session *)0)->name))
		return tm_failx(EINVAL, "bad instance name '%s'", name);
	return 0;
}

/* instances/tracemap-<pid>, or the name asked for: made, or (reuse) taken as it is. */
static int sess_make_instance(struct tm_session *s, const struct tm_session_opts *o)
{
	if (o->name) {
		if (sess_check_name(o->name))
			return -1;
		snprintf(s->name, sizeof(s->name), "%s", o->name);
	} else {
		tm_instance_name(s->name, sizeof(s->name), getpid());
	}
	if (tm_path(s->dir, sizeof(s->dir), "%s/instances/%s", s->tracefs, s->name))
		return -1;
	if (!mkdir(s->dir, 0750)) {
		s->created = true;
		return 0;
	}
	if (errno != EEXIST || !o->name)
		return tm_fail(errno, "create instance %s", s->dir);
	if (!o->reuse)
		return tm_failx(EEXIST, "instance %s exists (--reuse-instance records through it "
				"and restores what tracemap changes)", s->name);
	s->journal = tm_journal_new(s->dir);
	return s->journal ? 0 : -1;
}

/*
 * A tracer the kernel allows only at the top level: our instance goes, and
 * the recording runs at the top level with every file saved before it changes.
 */
static int sess_move_top(struct tm_session *s, const struct tm_session_opts *o)
{
	if (o->name)
		return tm_failx(EINVAL, "tracer '%s' runs only at the top level on this kernel, "
				"not in instance %s (without -B tracemap records there)",
				o->tracer.name, o->name);
	if (tm_dir_remove(s->dir, "instance", 0))
		return -1;
	s->created = false;
	s->name[0] = '\0';
	snprintf(s->dir, sizeof(s->dir), "%s", s->tracefs);
	if (tm_tracer_top_free(s->tracefs, o->tracer.name))
		return -1;
	s->top = true;
	s->journal = tm_journal_new(s->dir);
	return s->journal ? 0 : -1;
}

/* Where the tracer runs: the instance made for it, or (moved) the top level. */
static int sess_place_tracer(struct tm_session *s, const struct tm_session_opts *o)
{
	bool top;

	if (!o->tracer.name)
		return 0;
	if (tm_tracer_place(s->tracefs, s->dir, &o->tracer, o->options, &top))
		return -1;
	return top ? sess_move_top(s, o) : 0;
}

struct tm_session *tm_session_create(const char *tracefs, const struct tm_session_opts *opts)
{
	struct tm_session *s = calloc(1, sizeof(*s));

	if (!s) {
		tm_fail(ENOMEM, "session");
		return NULL;
	}
	s->tracefs = strdup(tracefs);
	s->systems = calloc(1, sizeof(*s->systems));
	s->quiet = calloc(1, sizeof(*s->quiet));
	if (!s->tracefs || !s->systems || !s->quiet) {
		tm_fail(ENOMEM, "session");
		goto fail;
	}
	if (sess_make_instance(s, opts) || sess_place_tracer(s, opts))
		goto fail;
	if (opts->nr_uprobes) {
		char group[64];

		snprintf(group, sizeof(group), "tracemap_%d", (int)getpid());
		s->uprobes = tm_uprobes_create(tracefs, group, opts->uprobes, opts->nr_uprobes);
		if (!s->uprobes)
			goto fail;
	}
	if (sess_configure(s, opts))
		goto fail;
	return s;
fail:
	tm_session_destroy(s);
	return NULL;
}

int tm_session_remove(struct tm_session *s, int wait_ms)
{
	int ret;

	/* tracing off first; every fd and mapping of ours must be closed by now */
	if (s->created) {
		tm_file_write(s->dir, "tracing_on", "0");
		if (tm_dir_remove(s->dir, "instance", wait_ms))
			return -1;
		s->created = false;
		return 0;
	}
	if (!s->journal)
		return 0;
	/* a reused instance gets its settings back, once */
	tm_file_write(s->dir, "tracing_on", "0");
	ret = tm_journal_restore(s->journal);
	tm_journal_free(s->journal);
	s->journal = NULL;
	return ret;
}

int tm_session_destroy(struct tm_session *s)
{
	int ret = 0;

	if (!s)
		return 0;
	if (tm_session_remove(s, 0))
		ret = -1;
	/* a probe is busy while an instance enables it: only after the rmdir */
	if (tm_uprobes_destroy(s->uprobes) && !ret)
		ret = -1;
	tm_journal_free(s->journal);
	tm_strv_free(s->systems);
	tm_strv_free(s->quiet);
	free(s->tracefs);
	free(s);
	return ret;
}

const char *tm_session_tracefs(const struct tm_session *s)
{
	return s->tracefs;
}

const char *tm_session_name(const struct tm_session *s)
{
	return s->name;
}

const char *tm_session_dir(const struct tm_session *s)
{
	return s->dir;
}

bool tm_session_top_level(const struct tm_session *s)
{
	return s->top;
}

size_t tm_session_page_size(const struct tm_session *s)
{
	return s->page_size;
}

const char *const *tm_session_event_systems(const struct tm_session *s)
{
	return (const char *const *)s->systems;
}

const char *const *tm_session_quiet_events(const struct tm_session *s)
{
	return (const char *const *)s->quiet;
}

static int sess_pids(struct tm_session *s, const char *file, const pid_t *pids, size_t n)
{
	char *buf;
	size_t len = 0, cap = n * 12 + 1;
	int ret;

	if (!n)
		return 0;
	buf = malloc(cap);
	if (!buf)
		return tm_fail(ENOMEM, "%s", file);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += snprintf(buf + len, cap - len, "%s%d", i ? " " : "", (int)pids[i]);
	ret = tm_session_append(s, file, buf);
	free(buf);
	return ret;
}

/* With a tracer, its functions follow the pid lists too (set_ftrace_pid, ..._notrace_pid). */
static int sess_ftrace_pids(struct tm_session *s, const char *file, const pid_t *pids, size_t n)
{
	char path[PATH_MAX];

	if (!s->ftrace_pids || tm_path(path, sizeof(path), "%s/%s", s->dir, file) ||
	    access(path, F_OK))
		return 0;
	return sess_pids(s, file, pids, n);
}

int tm_session_add_pids(struct tm_session *s, const pid_t *pids, size_t n)
{
	return sess_pids(s, "set_event_pid", pids, n) ?:
	       sess_ftrace_pids(s, "set_ftrace_pid", pids, n);
}

int tm_session_add_notrace_pids(struct tm_session *s, const pid_t *pids, size_t n)
{
	return sess_pids(s, "set_event_notrace_pid", pids, n) ?:
	       sess_ftrace_pids(s, "set_ftrace_notrace_pid", pids, n);
}

int tm_session_start(struct tm_session *s)
{
	return tm_session_set(s, "tracing_on", "1");
}

int tm_session_stop(struct tm_session *s)
{
	return tm_session_set(s, "tracing_on", "0");
}

static void kstat_line(struct tm_cpu_kstats *st, const char *key, uint64_t v)
{
	if (!strcmp(key, "entries"))
		st->entries = v;
	else if (!strcmp(key, "overrun"))
		st->overrun = v;
	else if (!strcmp(key, "commit overrun"))
		st->commit_overrun = v;
	else if (!strcmp(key, "dropped events"))
		st->dropped = v;
	else if (!strcmp(key, "read events"))
		st->read = v;
	else if (!strcmp(key, "bytes"))
		st->bytes = v;
}

int tm_session_buffer_kb(const struct tm_session *s, unsigned long *kb)
{
	char path[PATH_MAX], *text, *end;

	if (tm_path(path, sizeof(path), "%s/buffer_size_kb", s->dir))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	*kb = strtoul(text, &end, 10);
	free(text);
	if (end == text || !*kb)
		return tm_failx(EINVAL, "%s: no size", path);
	return 0;
}

void tm_cpu_kstats_parse(char *text, struct tm_cpu_kstats *st)
{
	char *line, *save = NULL;

	memset(st, 0, sizeof(*st));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		kstat_line(st, line, strtoull(colon + 1, NULL, 10));
	}
}

int tm_session_cpu_stats(const struct tm_session *s, int cpu, struct tm_cpu_kstats *st)
{
	char path[PATH_MAX], *text;

	memset(st, 0, sizeof(*st));
	if (tm_path(path, sizeof(path), "%s/per_cpu/cpu%d/stats", s->dir, cpu))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	tm_cpu_kstats_parse(text, st);
	free(text);
	return 0;
}
