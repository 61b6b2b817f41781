// SPDX-License-Identifier: GPL-2.0-only
/* session.c - tracemap's private instance: create, configure, start/stop, remove. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>

#include "session-events.h"
#include "tracer.h"
#include "probe.h"
#include "tracefs-internal.h"
#include "util/internal.h"
#include "tm-tracefs.h"

struct tm_session {
	char			*tracefs;
	char			name[256];
	char			dir[PATH_MAX];
	struct tracefs_instance	*inst;		/* the instance, or the top level (top) */
	size_t			page_size;
	bool			created;	/* the instance exists: remove it */
	struct tm_journal	*journal;	/* a reused instance: what to restore */
	char			**systems;	/* of the enabled events, NULL-terminated */
	char			**counted;	/* counted -R triggers, set again at start */
	struct tm_probes	*probes;	/* global: removed after the instance */
	char			**quiet;	/* events enabled only to follow task names */
	bool			top;		/* the tracer runs only at the top level: there */
	bool			ftrace_pids;	/* a tracer: pids go to set_ftrace_pid too */
};

int tm_session_set(struct tm_session *s, const char *rel, const char *text)
{
	if (tm_journal_save(s->journal, rel))
		return -1;
	return tm_tfs_write(s->inst, rel, text);
}

int tm_session_append(struct tm_session *s, const char *rel, const char *text)
{
	if (tm_journal_save(s->journal, rel))
		return -1;
	return tm_tfs_append(s->inst, rel, text);
}

int tm_session_set_why(struct tm_session *s, const char *rel, const char *text, char *why,
		       size_t len)
{
	if (tm_journal_save(s->journal, rel))
		return -1;
	return tm_file_put_why(s->inst, rel, text, false, why, len);
}

int tm_session_copy_markers(struct tm_session *s)
{
	return tm_sess_copy_markers(s->inst, s->journal);
}

struct tracefs_instance *tm_session_instance(const struct tm_session *s)
{
	return s->inst;
}

static int sess_write_ul(struct tm_session *s, const char *file, unsigned long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", v);
	return tm_session_set(s, file, buf);
}

/* After a libtracefs setter on <instance>/<rel> (ok: it took it): 0, or -1 + message. */
static int sess_check(struct tm_session *s, const char *rel, const char *what, bool ok)
{
	return ok ? 0 : tm_tfs_fail(s->inst, rel, errno, what);
}

/* An option of the instance: tracefs_option_enable()/_disable(), or its file. */
static int sess_set_option(struct tm_session *s, const char *name, bool on)
{
	enum tracefs_option_id id = tracefs_option_id(name);
	char rel[PATH_MAX];

	if (tm_path(rel, sizeof(rel), "options/%s", name) || tm_journal_save(s->journal, rel))
		return -1;
	/* an option newer than libtracefs 1.6.4's list is written as its file */
	if (id == TRACEFS_OPTION_INVALID)
		return tm_tfs_write(s->inst, rel, on ? "1" : "0");
	return sess_check(s, rel, on ? "write '1' to" : "write '0' to",
			  !(on ? tracefs_option_enable : tracefs_option_disable)(s->inst, id));
}

/* "-O name" sets options/name to 1, "-O noname" sets options/name to 0. */
static int sess_option(struct tm_session *s, const char *opt)
{
	const char *name = opt;
	char rel[PATH_MAX];
	bool on = true;

	if (tm_path(rel, sizeof(rel), "options/%s", opt))
		return -1;
	if (!tracefs_file_exists(s->inst, rel) && !strncmp(opt, "no", 2)) {
		name = opt + 2;
		on = false;
	}
	if (tm_path(rel, sizeof(rel), "options/%s", name))
		return -1;
	if (!*name || strchr(name, '/') || !tracefs_file_exists(s->inst, rel))
		return tm_failx(EINVAL, "unknown tracefs option '%s' (see tracemap list -o)", opt);
	return sess_set_option(s, name, on);
}

/* libtracefs 1.6.4 reads the clock (tracefs_get_clock()) but cannot set it */
static int sess_clock(struct tm_session *s, const char *clock)
{
	if (!tm_session_set(s, "trace_clock", clock))
		return 0;
	if (errno == EINVAL)
		return tm_failx(EINVAL, "unknown trace clock '%s' (see tracemap list -c)", clock);
	return -1;
}

/*
 * The sub-buffer size asked for, or our default where the kernel lets us
 * choose (>= 6.8, not a persistent instance); libtracefs 1.6.4 predates the file.
 */
static int sess_subbuf(struct tm_session *s, const struct tm_session_opts *o)
{
	unsigned long kb = o->subbuf_kb ?: o->default_subbuf_kb;
	char text[32];

	if (!kb || (!o->subbuf_kb && !tracefs_file_exists(s->inst, "buffer_subbuf_size_kb")))
		return 0;
	/* a persistent (boot-mapped) buffer keeps its sub-buffers: the kernel says EBUSY */
	if (!o->subbuf_kb && tracefs_file_exists(s->inst, "last_boot_info"))
		return 0;
	snprintf(text, sizeof(text), "%lu", kb);
	return tm_journal_save(s->journal, "buffer_subbuf_size_kb") ?:
	       tm_subbuf_set(s->inst, text);
}

/* tracing_on. */
static int sess_tracing(struct tm_session *s, bool on)
{
	return tm_journal_save(s->journal, "tracing_on") ?:
	       sess_check(s, "tracing_on", on ? "write '1' to" : "write '0' to",
			  !(on ? tracefs_trace_on : tracefs_trace_off)(s->inst));
}

static int sess_configure(struct tm_session *s, const struct tm_session_opts *o)
{
	if (sess_tracing(s, false))
		return -1;
	if (sess_subbuf(s, o))
		return -1;
	if (o->buffer_kb && (tm_journal_save(s->journal, "buffer_size_kb") ||
			     sess_check(s, "buffer_size_kb", "set the size in",
					!tracefs_instance_set_buffer_size(s->inst, o->buffer_kb, -1))))
		return -1;
	if (o->clock && sess_clock(s, o->clock))
		return -1;
	for (const char * const *opt = o->options; opt && *opt; opt++)
		if (sess_option(s, *opt))
			return -1;
	/* buffer_percent: libtracefs 1.6.4 predates tracefs_instance_set_buffer_percent() */
	if (o->wakeup_percent >= 0 && sess_write_ul(s, "buffer_percent", o->wakeup_percent))
		return -1;
	/* tracefs_instance_set_affinity_raw() gives the bytes written */
	if (o->cpumask && (tm_journal_save(s->journal, "tracing_cpumask") ||
			   sess_check(s, "tracing_cpumask", "write the CPU mask to",
				      tracefs_instance_set_affinity_raw(s->inst, o->cpumask) ==
				      (int)strlen(o->cpumask))))
		return -1;
	if (o->follow_children && sess_set_option(s, "event-fork", true))
		return -1;
	if (tm_sess_enable_events(s->inst, o->events, o->nr_events, &s->systems, &s->counted,
				  s->journal))
		return -1;
	for (size_t i = 0; i < tm_probes_count(s->probes); i++) {
		struct tm_event_spec ev = { .event = tm_probes_event(s->probes, i) };

		if (tm_sess_enable_events(s->inst, &ev, 1, &s->systems, NULL, s->journal))
			return -1;
	}
	if (o->name_events &&
	    tm_sess_enable_name_events(s->inst, &s->systems, &s->quiet, s->journal))
		return -1;
	s->ftrace_pids = o->tracer.name && strcmp(o->tracer.name, "nop");
	if (o->nr_pids && tm_session_add_pids(s, o->pids, o->nr_pids))
		return -1;
	if (o->tracer.name && o->follow_children && sess_set_option(s, "function-fork", true))
		return -1;
	if (o->tracer.name && tm_tracer_apply(s->inst, s->journal, &o->tracer))
		return -1;
	return tm_instance_page_size(s->inst, &s->page_size);
}

/* A name tracefs can hold as one directory. */
static int sess_check_name(const char *name)
{
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	    strlen(name) >= sizeof(((struct tm_session *)0)->name))
		return tm_failx(EINVAL, "bad instance name '%s'", name);
	return 0;
}

/* Where libtracefs made or found the instance (the tracefs of tm_tracefs_open()). */
static int sess_inst_dir(struct tm_session *s)
{
	char *dir = tracefs_instance_get_dir(s->inst);
	int ret;

	if (!dir)
		return tm_fail(ENOMEM, "instance %s", s->name);
	ret = tm_path(s->dir, sizeof(s->dir), "%s", dir);
	tracefs_put_tracing_file(dir);
	return ret;
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
	/* tracefs_instance_create() takes an existing instance as it is: is_new tells */
	errno = 0;
	s->inst = tracefs_instance_create(s->name);
	if (!s->inst)
		return tm_fail(errno ? errno : ENOMEM, "create instance %s", s->dir);
	s->created = tracefs_instance_is_new(s->inst);
	if (sess_inst_dir(s))
		return -1;
	if (s->created)
		return 0;
	if (!o->name)
		return tm_fail(EEXIST, "create instance %s", s->dir);
	if (!o->reuse)
		return tm_failx(EEXIST, "instance %s exists (--reuse-instance records through it "
				"and restores what tracemap changes)", s->name);
	s->journal = tm_journal_new(s->inst);
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
	if (tm_instance_destroy(s->inst, 0))
		return -1;
	tracefs_instance_free(s->inst);
	s->created = false;
	s->name[0] = '\0';
	snprintf(s->dir, sizeof(s->dir), "%s", s->tracefs);
	s->inst = tm_tfs_open(s->tracefs, NULL);
	if (!s->inst || tm_tracer_top_free(s->inst, o->tracer.name))
		return -1;
	s->top = true;
	s->journal = tm_journal_new(s->inst);
	return s->journal ? 0 : -1;
}

/* Where the tracer runs: the instance made for it, or (moved) the top level. */
static int sess_place_tracer(struct tm_session *s, const struct tm_session_opts *o)
{
	bool top;

	if (!o->tracer.name)
		return 0;
	if (tm_tracer_place(s->tracefs, s->inst, &o->tracer, o->options, &top))
		return -1;
	return top ? sess_move_top(s, o) : 0;
}

/*
 * The uprobes, then the kprobes, in group tracemap_<pid> (global: what was
 * made goes again in tm_session_destroy(), after the instance).
 */
static int sess_probes(struct tm_session *s, const struct tm_session_opts *o)
{
	char group[64];

	if (!o->nr_uprobes && !o->nr_kprobes)
		return 0;
	snprintf(group, sizeof(group), "tracemap_%d", (int)getpid());
	s->probes = tm_probes_new(group, o->nr_uprobes + o->nr_kprobes);
	if (!s->probes)
		return -1;
	for (size_t i = 0; i < o->nr_uprobes; i++)
		if (tm_uprobe_add(s->probes, o->uprobes[i]))
			return -1;
	for (size_t i = 0; i < o->nr_kprobes; i++)
		if (tm_kprobe_add(s->probes, o->kprobes[i]))
			return -1;
	return 0;
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
	s->counted = calloc(1, sizeof(*s->counted));
	s->quiet = calloc(1, sizeof(*s->quiet));
	if (!s->tracefs || !s->systems || !s->counted || !s->quiet) {
		tm_fail(ENOMEM, "session");
		goto fail;
	}
	if (sess_make_instance(s, opts) || sess_place_tracer(s, opts))
		goto fail;
	if (sess_probes(s, opts) || sess_configure(s, opts))
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
		tracefs_trace_off(s->inst);
		if (tm_instance_destroy(s->inst, wait_ms))
			return -1;
		s->created = false;
		return 0;
	}
	if (!s->journal)
		return 0;
	/* a reused instance gets its settings back, once */
	tracefs_trace_off(s->inst);
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
	if (tm_probes_destroy(s->probes) && !ret)
		ret = -1;
	tm_journal_free(s->journal);
	tracefs_instance_free(s->inst);
	tm_strv_free(s->systems);
	tm_strv_free(s->counted);
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
	if (!s->ftrace_pids || !tracefs_file_exists(s->inst, file))
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
	return sess_tracing(s, true) ?: tm_sess_rearm_counted(s->inst, s->counted);
}

int tm_session_stop(struct tm_session *s)
{
	return sess_tracing(s, false);
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
	ssize_t size;

	/* every CPU's buffer has the instance's size: CPU 0's */
	errno = 0;
	size = tracefs_instance_get_buffer_size(s->inst, 0);
	if (size < 0)
		return tm_tfs_fail(s->inst, "per_cpu/cpu0/buffer_size_kb", errno, "read");
	if (!size)
		return tm_failx(EINVAL, "%s/per_cpu/cpu0/buffer_size_kb: no size", s->dir);
	*kb = (unsigned long)size;
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
	char rel[64], *text;

	/* 1.6.4 has no reader of the stats file (tracefs_instance_get_stat() came later) */
	memset(st, 0, sizeof(*st));
	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	text = tm_tfs_read(s->inst, rel, NULL);
	if (!text)
		return -1;
	tm_cpu_kstats_parse(text, st);
	free(text);
	return 0;
}
