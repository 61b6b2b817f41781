// SPDX-License-Identifier: GPL-2.0-only
/* events.c - the libtraceevent handle (from a trace.dat or a live tracefs) and -F filters. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "util/internal.h"
#include "ksyms.h"
#include "meta-check.h"
#include "events-internal.h"
#include "dat/tm-dat.h"
#include "tm-events.h"
#include "dat/dat-internal.h"

struct tm_events {
	struct tep_handle	*tep;
	struct tep_plugin_list	*plugins;
	struct tm_ksyms		*ksyms;		/* tep's function resolver, or NULL */
	uint64_t		names_gen;	/* bumped when a reload renamed a task */
};

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* Plugins first: they register print helpers the formats may call. */
static struct tm_events *events_alloc(bool big_endian, int long_size, int page_size,
				      bool no_plugins)
{
	struct tm_events *ev = calloc(1, sizeof(*ev));

	if (!ev) {
		tm_fail(ENOMEM, "event parser");
		return NULL;
	}
	ev->tep = tep_alloc();
	if (!ev->tep) {
		free(ev);
		tm_fail(ENOMEM, "event parser");
		return NULL;
	}
	tep_set_file_bigendian(ev->tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(ev->tep, host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(ev->tep, long_size);
	tep_set_page_size(ev->tep, page_size);
	if (no_plugins)
		tep_set_flag(ev->tep, TEP_DISABLE_PLUGINS);
	else
		ev->plugins = tep_load_plugins(ev->tep);
	return ev;
}

void tm_events_free(struct tm_events *ev)
{
	if (!ev)
		return;
	if (ev->plugins)
		tep_unload_plugins(ev->plugins, ev->tep);
	tep_free(ev->tep);
	tm_ksyms_free(ev->ksyms);
	free(ev);
}

struct tep_handle *tm_events_tep(const struct tm_events *ev)
{
	return ev->tep;
}

const uint64_t *tm_events_names_gen(const struct tm_events *ev)
{
	return &ev->names_gen;
}

/*
 * A format that fails to parse is left out and its events print as unknown,
 * as trace-cmd does. Even TEP_ERRNO__MEM_ALLOC_FAILED says nothing: libtraceevent
 * 1.7.1 also returns it for a malformed "name:" line (a real allocation
 * failure shows at the next allocation anyway).
 */
static void parse_format(struct tm_events *ev, const char *buf, size_t len, const char *sys)
{
	tep_parse_event(ev->tep, buf, len, sys);
}

/* The printk formats, checked (meta-check.c) so that libtraceevent's parser never fails. */
static int load_printk(struct tm_events *ev, struct tm_blob b, const struct tm_meta_warn *w)
{
	char where[160], *s;
	int ret;

	if (!b.len)
		return 0;
	s = tm_meta_clean_printk(b, w);
	if (!s)
		return -1;
	ret = tep_parse_printk_formats(ev->tep, s);
	free(s);
	if (ret >= 0)
		return 0;
	tm_meta_where(where, sizeof(where), "printk formats", b, 0);
	return tm_failx(EINVAL, "%s: libtraceevent cannot parse it", where);
}

static int register_comm(void *ctx, int pid, const char *comm)
{
	struct tm_events *ev = ctx;

	if (tep_register_comm(ev->tep, comm, pid))
		return tm_fail(ENOMEM, "task name of pid %d", pid);
	return 0;
}

/* The saved cmdlines' task names, registered line by line as libtraceevent would. */
static int load_cmdlines(struct tm_events *ev, struct tm_blob b, const struct tm_meta_warn *w)
{
	return tm_meta_each_cmdline(b, w, register_comm, ev);
}

/*
 * Our symbol table from text (malloc'ed, b's bytes and a NUL, taken over)
 * as tep's function resolver; nothing for an empty text.
 */
static int load_kallsyms(struct tm_events *ev, char *text, struct tm_blob b,
			 const struct tm_meta_warn *w)
{
	if (!b.len) {
		free(text);
		return 0;
	}
	ev->ksyms = tm_ksyms_new(text, b, w);
	return ev->ksyms ? tm_ksyms_attach(ev->ksyms, ev->tep) : -1;
}

/* A file's format, unless libtraceevent would crash on it (then left out, with a warning). */
static void parse_dat_format(struct tm_events *ev, struct tm_blob b, const char *sys,
			     const struct tm_meta_warn *w)
{
	const char *why = tm_meta_format_check(b);
	char where[160];

	if (!why) {
		parse_format(ev, b.data, b.len, sys);
		return;
	}
	tm_meta_where(where, sizeof(where), "event format", b, 0);
	tm_meta_warnf(w, "%s (system %s): %s; format left out", where, sys, why);
}

static void dat_formats(struct tm_events *ev, struct tm_dat *dat, const struct tm_meta_warn *w)
{
	size_t i, sys, n;

	for (i = 0; i < tm_dat_ftrace_format_count(dat); i++)
		parse_dat_format(ev, tm_dat_ftrace_format(dat, i), "ftrace", w);
	for (sys = 0; sys < tm_dat_system_count(dat); sys++) {
		const char *name = tm_dat_system_name(dat, sys);

		n = tm_dat_event_format_count(dat, sys);
		for (i = 0; i < n; i++)
			parse_dat_format(ev, tm_dat_event_format(dat, sys, i), name, w);
	}
}

struct tm_events *tm_events_from_dat(struct tm_dat *dat, bool no_plugins, tm_warn_fn warn,
				     void *warn_ctx)
{
	struct tm_meta_warn w = { .fn = warn, .ctx = warn_ctx, .file = tm_dat_path(dat) };
	struct tm_events *ev;
	struct tm_blob hp, ks;
	char *ks_text;

	ev = events_alloc(tm_dat_big_endian(dat), tm_dat_long_size(dat),
			  (int)tm_dat_page_size(dat), no_plugins);
	if (!ev)
		return NULL;
	tep_set_cpus(ev->tep, tm_dat_cpus(dat));
	hp = tm_dat_header_page(dat);
	if (hp.len && tep_parse_header_page(ev->tep, (char *)hp.data, hp.len,
					    tm_dat_long_size(dat))) {
		char where[160];

		tm_meta_where(where, sizeof(where), "header_page", hp, 0);
		tm_failx(EINVAL, "%s: %s: libtraceevent cannot parse it", tm_dat_path(dat), where);
		goto fail;
	}
	dat_formats(ev, dat, &w);
	ks_text = tm_dat_take_kallsyms(dat, &ks);
	if (load_kallsyms(ev, ks_text, ks, &w) ||
	    tm_ksyms_boot(ev->ksyms, tm_dat_last_boot_info(dat), tm_dat_modules(dat), &w) ||
	    load_printk(ev, tm_dat_printk(dat), &w) ||
	    load_cmdlines(ev, tm_dat_cmdlines(dat), &w)) {
		tm_fail_prefix("%s", tm_dat_path(dat));
		goto fail;
	}
	return ev;
fail:
	tm_events_free(ev);
	return NULL;
}

/* A file's format, unless tep has an event of its id (or it has none). */
static void add_dat_format(struct tm_events *ev, struct tm_blob b, const char *sys,
			   const struct tm_meta_warn *w)
{
	long id = tm_dat_format_id(b);

	if (id >= 0 && !tep_find_event(ev->tep, (int)id))
		parse_dat_format(ev, b, sys, w);
}

void tm_events_add_formats(struct tm_events *ev, struct tm_dat *dat, tm_warn_fn warn,
			   void *warn_ctx)
{
	struct tm_meta_warn w = { .fn = warn, .ctx = warn_ctx, .file = tm_dat_path(dat) };
	size_t i, sys;

	for (i = 0; i < tm_dat_ftrace_format_count(dat); i++)
		add_dat_format(ev, tm_dat_ftrace_format(dat, i), "ftrace", &w);
	for (sys = 0; sys < tm_dat_system_count(dat); sys++)
		for (i = 0; i < tm_dat_event_format_count(dat, sys); i++)
			add_dat_format(ev, tm_dat_event_format(dat, sys, i),
				       tm_dat_system_name(dat, sys), &w);
}

/* ---- live tracefs ---- */

typedef int (*load_fn)(struct tm_events *ev, struct tm_blob b, const struct tm_meta_warn *w);

/* The file at path to load as a blob; errors name the path. */
static int load_file(struct tm_events *ev, const char *path, load_fn load)
{
	struct tm_blob b = { 0 };
	size_t len;
	char *s = tm_read_file(path, &len);
	int ret;

	if (!s)
		return -1;
	b.data = s;
	b.len = len;
	ret = load(ev, b, NULL);
	free(s);
	return ret ? tm_fail_prefix("%s", path) : 0;
}

static int load_kallsyms_file(struct tm_events *ev, const char *path)
{
	struct tm_blob b = { 0 };
	size_t len;
	char *s = tm_read_file(path, &len);

	if (!s)
		return -1;
	b.data = s;
	b.len = len;
	return load_kallsyms(ev, s, b, NULL) ? tm_fail_prefix("%s", path) : 0;
}

static int parse_format_file(struct tm_events *ev, const char *path, const char *sys)
{
	size_t len;
	char *s = tm_read_file(path, &len);

	if (!s)
		return errno == ENOENT ? 0 : -1;	/* raced with a module unload */
	parse_format(ev, s, len, sys);
	free(s);
	return 0;
}

static int parse_system(struct tm_events *ev, const char *events_dir, const char *sys)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s/%s", events_dir, sys) >= (int)sizeof(path))
		return tm_failx(ENAMETOOLONG, "path too long: %s/%s", events_dir, sys);
	dir = opendir(path);
	if (!dir)
		return tm_fail(errno, "open %s", path);
	while (!ret && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "enable") ||
		    !strcmp(d->d_name, "filter"))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s/%s/format", events_dir, sys,
			     d->d_name) >= (int)sizeof(path) || access(path, R_OK))
			continue;
		ret = parse_format_file(ev, path, sys);
	}
	closedir(dir);
	return ret;
}

static bool wanted_system(const char *sys, const char *const *systems)
{
	if (!systems || !strcmp(sys, "ftrace"))
		return true;
	for (; *systems; systems++)
		if (!strcmp(*systems, sys))
			return true;
	return false;
}

static int parse_systems(struct tm_events *ev, const char *events_dir, const char *const *systems)
{
	struct dirent *d;
	DIR *dir = opendir(events_dir);
	int ret = 0;

	if (!dir)
		return tm_fail(errno, "open %s", events_dir);
	while (!ret && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || d->d_type == DT_REG)
			continue;
		if (wanted_system(d->d_name, systems))
			ret = parse_system(ev, events_dir, d->d_name);
	}
	closedir(dir);
	return ret;
}

struct tm_events *tm_events_from_tracefs(const char *tracefs_dir, const char *const *systems,
					 const char *kallsyms, bool no_plugins)
{
	char path[PATH_MAX];
	struct tm_events *ev;
	size_t len;
	char *hp;

	ev = events_alloc(host_big_endian(), (int)sizeof(long), (int)sysconf(_SC_PAGESIZE),
			  no_plugins);
	if (!ev)
		return NULL;
	tep_set_cpus(ev->tep, (int)sysconf(_SC_NPROCESSORS_CONF));
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs_dir);
	hp = tm_read_file(path, &len);
	if (!hp)
		goto fail;
	if (tep_parse_header_page(ev->tep, hp, len, (int)sizeof(long))) {
		free(hp);
		tm_failx(EINVAL, "cannot parse %s", path);
		goto fail;
	}
	free(hp);
	snprintf(path, sizeof(path), "%s/events", tracefs_dir);
	if (parse_systems(ev, path, systems))
		goto fail;
	if (kallsyms && load_kallsyms_file(ev, kallsyms))
		goto fail;
	snprintf(path, sizeof(path), "%s/printk_formats", tracefs_dir);
	if (load_file(ev, path, load_printk))
		goto fail;
	snprintf(path, sizeof(path), "%s/saved_cmdlines", tracefs_dir);
	if (load_file(ev, path, load_cmdlines))
		goto fail;
	return ev;
fail:
	tm_events_free(ev);
	return NULL;
}

/*
 * Name pid comm from now on: 1 when that changed its name, 0 when it had
 * it already, -1 with ENOMEM. tep_register_comm() keeps the first name of a
 * pid, so a renamed task needs an override.
 */
static int set_comm(struct tm_events *ev, int pid, const char *comm)
{
	if (!strcmp(tep_data_comm_from_pid(ev->tep, pid), comm))
		return 0;
	if (tep_override_comm(ev->tep, comm, pid))
		return tm_fail(ENOMEM, "task name of pid %d", pid);
	return 1;
}

int tm_events_set_comm(struct tm_events *ev, int pid, const char *comm)
{
	int r = set_comm(ev, pid, comm);

	/* printers cache task columns: a new generation makes them look names up again */
	if (r > 0)
		ev->names_gen++;
	return r;
}

/* One "pid comm" line of saved_cmdlines: 1 when it named the pid anew. */
static int reload_line(struct tm_events *ev, const char *line,
		       bool (*skip)(void *ctx, int pid), void *ctx)
{
	char *comm = NULL;
	int pid, ret = 0;

	if (sscanf(line, "%d %m[^\n]", &pid, &comm) != 2)
		return tm_failx(EINVAL, "cannot parse the saved cmdlines");
	if (!skip || !skip(ctx, pid))
		ret = set_comm(ev, pid, comm);
	free(comm);
	return ret;
}

int tm_events_reload_cmdlines(struct tm_events *ev, const char *tracefs_dir)
{
	return tm_events_reload_cmdlines_skip(ev, tracefs_dir, NULL, NULL);
}

int tm_events_reload_cmdlines_skip(struct tm_events *ev, const char *tracefs_dir,
				   bool (*skip)(void *ctx, int pid), void *ctx)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	bool renamed = false;
	int ret = 0, r;

	snprintf(path, sizeof(path), "%s/saved_cmdlines", tracefs_dir);
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		r = reload_line(ev, line, skip, ctx);
		if (r < 0)
			ret = -1;
		renamed |= r > 0;
	}
	free(text);
	/* printers cache task columns: a new generation makes them look names up again */
	if (renamed)
		ev->names_gen++;
	return ret;
}

/* ---- -F filters: shown if any plain filter matches and no -v filter does ---- */

struct tm_filter {
	struct tep_handle	*tep;
	struct tep_event_filter	*show[16];
	struct tep_event_filter	*hide[16];
	int			nshow, nhide;
	int			stack_ids[2];	/* ftrace kernel_stack, user_stack; -1: none */
	bool			*last_shown;	/* per CPU: its last filtered record was shown */
	int			ncpus;
};

static int stack_event_id(struct tep_handle *tep, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "ftrace", name);

	return ev ? ev->id : -1;
}

struct tm_filter *tm_filter_new(struct tep_handle *tep)
{
	struct tm_filter *f = calloc(1, sizeof(*f));

	if (!f) {
		tm_fail(ENOMEM, "filter");
		return NULL;
	}
	f->tep = tep;
	f->stack_ids[0] = stack_event_id(tep, "kernel_stack");
	f->stack_ids[1] = stack_event_id(tep, "user_stack");
	return f;
}

int tm_filter_add(struct tm_filter *f, const char *expr, bool invert)
{
	struct tep_event_filter *tf;
	char msg[256];
	int ret;

	if ((invert ? f->nhide : f->nshow) >= 16)
		return tm_failx(E2BIG, "too many filters (at most 16 per kind)");
	tf = tep_filter_alloc(f->tep);
	if (!tf)
		return tm_fail(ENOMEM, "filter");
	ret = tep_filter_add_filter_str(tf, expr);
	if (ret < 0) {
		msg[0] = '\0';
		tep_strerror(f->tep, ret, msg, sizeof(msg));
		tep_filter_free(tf);
		return tm_failx(EINVAL, "bad filter '%s': %s", expr, msg);
	}
	if (invert)
		f->hide[f->nhide++] = tf;
	else
		f->show[f->nshow++] = tf;
	return 0;
}

static void fill_record(struct tep_record *r, const struct tm_event_rec *rec)
{
	memset(r, 0, sizeof(*r));
	r->ts = rec->ts;
	r->cpu = rec->cpu;
	r->size = (int)rec->size;
	r->data = (void *)rec->data;
	r->missed_events = rec->missed;
}

/* True when one of the filters matches r or has no opinion on any event (FILTER_NONE). */
static bool any_matches(struct tep_event_filter *const *set, int n, struct tep_record *r)
{
	for (int i = 0; i < n; i++) {
		int ret = tep_filter_match(set[i], r);

		if (ret == FILTER_MATCH || ret == FILTER_NONE)
			return true;
	}
	return false;
}

/* Room for cpu in last_shown; false (stack traces then follow no event) without memory. */
static bool track_cpu(struct tm_filter *f, int cpu)
{
	bool *v;

	if (cpu < 0)
		return false;
	if (cpu < f->ncpus)
		return true;
	v = realloc(f->last_shown, (size_t)(cpu + 1) * sizeof(*v));
	if (!v)
		return false;
	memset(v + f->ncpus, 0, (size_t)(cpu + 1 - f->ncpus) * sizeof(*v));
	f->last_shown = v;
	f->ncpus = cpu + 1;
	return true;
}

/* A kernel or user stack trace right after a shown record of its CPU. */
static bool stack_of_shown(struct tm_filter *f, struct tep_record *r)
{
	int id = tep_data_type(f->tep, r);

	if (id < 0 || (id != f->stack_ids[0] && id != f->stack_ids[1]))
		return false;
	return track_cpu(f, r->cpu) && f->last_shown[r->cpu];
}

/*
 * trace-cmd 3.1.6's rules: a record passes the plain filters when one of
 * them matches or has no opinion (FILTER_NONE), or when it is a stack trace
 * and its CPU's last record that got past them was shown; then any -v
 * filter that matches hides it. Records the plain filters reject do not
 * change what a following stack trace sees.
 */
bool tm_filter_pass(struct tm_filter *f, const struct tm_event_rec *rec)
{
	struct tep_record r;
	bool hidden;

	if (!f || (!f->nshow && !f->nhide))
		return true;
	fill_record(&r, rec);
	if (f->nshow && !any_matches(f->show, f->nshow, &r) && !stack_of_shown(f, &r))
		return false;
	hidden = any_matches(f->hide, f->nhide, &r);
	if (track_cpu(f, rec->cpu))
		f->last_shown[rec->cpu] = !hidden;
	return !hidden;
}

void tm_filter_free(struct tm_filter *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->nshow; i++)
		tep_filter_free(f->show[i]);
	for (i = 0; i < f->nhide; i++)
		tep_filter_free(f->hide[i]);
	free(f->last_shown);
	free(f);
}
