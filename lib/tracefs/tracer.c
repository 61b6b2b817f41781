// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracer.c - the tracer of a session (-p: tracefs_tracer_set()) and its function
 * filters (tracefs_function_filter()/_notrace(), set_graph_function,
 * max_graph_depth), and where it runs: the instance, or the top level when
 * the kernel allows the tracer only there.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "tracer.h"
#include "util/internal.h"
#include "tracefs-internal.h"

/* 1 when the instance's available_tracers has tracer, else 0; -1 + message. */
static int has_tracer(struct tracefs_instance *in, const char *tracer)
{
	char *dir, **all;
	int found = 0;

	/* tracefs_tracers() leaves nop out: every kernel has it */
	if (!strcmp(tracer, "nop"))
		return 1;
	dir = tracefs_instance_get_dir(in);
	if (!dir)
		return tm_fail(ENOMEM, "tracer %s", tracer);
	errno = 0;
	all = tracefs_tracers(dir);
	if (!all && errno)
		found = tm_fail(errno, "read %s/available_tracers", dir);
	for (char **p = all; p && *p; p++)
		found |= !strcmp(*p, tracer);
	tracefs_list_free(all);
	tracefs_put_tracing_file(dir);
	return found;
}

/* options/NAME, or options/NAME without its "no" (as the session's -O reads it). */
static bool has_option(struct tracefs_instance *in, const char *opt)
{
	char rel[PATH_MAX];

	if (!tm_path(rel, sizeof(rel), "options/%s", opt) && tracefs_file_exists(in, rel))
		return true;
	return !strncmp(opt, "no", 2) && !tm_path(rel, sizeof(rel), "options/%s", opt + 2) &&
	       tracefs_file_exists(in, rel);
}

/* in has every file the tracer options write, and every option of options. */
static bool has_all(struct tracefs_instance *in, const struct tm_tracer_opts *t,
		    const char * const *options)
{
	if ((t->filter && !tracefs_file_exists(in, "set_ftrace_filter")) ||
	    (t->notrace && !tracefs_file_exists(in, "set_ftrace_notrace")) ||
	    (t->graph && !tracefs_file_exists(in, "set_graph_function")) ||
	    (t->max_graph_depth >= 0 && !tracefs_file_exists(in, "max_graph_depth")))
		return false;
	for (; options && *options; options++)
		if (!has_option(in, *options))
			return false;
	return true;
}

int tm_tracer_place(const char *tracefs, struct tracefs_instance *inst,
		    const struct tm_tracer_opts *t, const char * const *options, bool *top)
{
	int in_inst = has_tracer(inst, t->name), in_top;
	struct tracefs_instance *root;

	*top = false;
	if (in_inst < 0)
		return -1;
	if (in_inst && has_all(inst, t, options))
		return 0;
	root = tm_tfs_open(tracefs, NULL);
	if (!root)
		return -1;
	in_top = has_tracer(root, t->name);
	/* where neither has all, the instance: the missing file's write says what */
	*top = in_top > 0 && has_all(root, t, options);
	tracefs_instance_free(root);
	if (in_top < 0)
		return -1;
	if (!in_inst && !in_top)
		return tm_failx(EINVAL, "unknown tracer '%s' (not in %s/available_tracers; see "
				"tracemap list -t)", t->name, tracefs);
	return 0;
}

int tm_tracer_top_free(struct tracefs_instance *top, const char *tracer)
{
	char *cur = tm_tfs_read(top, "current_tracer", NULL);
	bool nop;

	if (!cur)
		return -1;
	nop = !strncmp(cur, "nop", 3) && strchr(" \t\n", cur[3]);
	free(cur);
	if (!nop)
		return tm_failx(EBUSY, "tracer '%s' runs only at the top level here, and %s/"
				"current_tracer is in use (not nop): tracemap leaves it alone",
				tracer, tracefs_instance_get_trace_dir(top));
	return 0;
}

/* Write (or append) text to <in>/<rel>, its text saved first when there is a journal. */
static int put(struct tracefs_instance *in, struct tm_journal *j, const char *rel,
	       const char *text, bool append)
{
	if (tm_journal_save(j, rel))
		return -1;
	return append ? tm_tfs_append(in, rel, text) : tm_tfs_write(in, rel, text);
}

/* The tracer's refusal: a write to <in>/<file> failed with err. */
static int refused(struct tracefs_instance *in, const char *tracer, const char *file, int err)
{
	char *path = tracefs_instance_get_file(in, file);

	tm_failx(err, "the kernel refused tracer '%s' (%s: %s)", tracer, path ? path : file,
		 strerror(err));
	tracefs_put_tracing_file(path);
	errno = err;
	return -1;
}

/* funcs[i] refused with err (r: libtracefs's 1 for "nothing matched"). */
static int function_refused(struct tracefs_instance *in, const char *tracer, const char *file,
			    const char *func, int r, int err)
{
	char what[600];

	if (err == EPERM) {
		/* the tracer itself was taken: its function file refused */
		char *path = tracefs_instance_get_file(in, file);

		tm_failx(EPERM, "the kernel refused the function filter '%s' of tracer '%s' "
			 "(%s: %s)", func, tracer, path ? path : file, strerror(EPERM));
		tracefs_put_tracing_file(path);
		errno = EPERM;
		return -1;
	}
	if (err == EINVAL || (r > 0 && !err))
		return tm_failx(EINVAL, "%s: the kernel refused '%s' (no traceable function "
				"matches it: %s; see tracemap list -f)", file, func,
				strerror(EINVAL));
	snprintf(what, sizeof(what), "write '%.500s' to", func);
	return tm_tfs_fail(in, file, err, what);
}

/*
 * set_ftrace_filter or (notrace) set_ftrace_notrace through libtracefs, which
 * checks each glob against available_filter_functions first: cleared with
 * the first, the rest added. EPERM (function tracing forbidden) is the
 * tracer's refusal.
 */
static int set_functions(struct tracefs_instance *in, struct tm_journal *j, const char *tracer,
			 bool notrace, const char * const *funcs)
{
	const char *file = notrace ? "set_ftrace_notrace" : "set_ftrace_filter";

	for (size_t i = 0; funcs && funcs[i]; i++) {
		int r;

		if (tm_journal_save(j, file))
			return -1;
		errno = 0;
		r = (notrace ? tracefs_function_notrace : tracefs_function_filter)
			(in, funcs[i], NULL, i ? 0 : TRACEFS_FL_RESET);
		if (r)
			return function_refused(in, tracer, file, funcs[i], r, errno);
	}
	return 0;
}

/*
 * set_graph_function, which libtracefs 1.6.4 does not write: each function
 * or glob (cleared first), the newline ending the word (the kernel checks a
 * word when it ends; one still open at close() is applied with its error dropped).
 */
static int set_graph(struct tracefs_instance *in, struct tm_journal *j, const char *tracer,
		     const char * const *funcs)
{
	char line[512];

	for (size_t i = 0; funcs && funcs[i]; i++) {
		const char *file = "set_graph_function";
		int ret;

		if ((size_t)snprintf(line, sizeof(line), "%s\n", funcs[i]) >= sizeof(line))
			return tm_failx(EINVAL, "%s: function name too long: '%.40s...'", file,
					funcs[i]);
		ret = put(in, j, file, line, i > 0);
		if (ret)
			return function_refused(in, tracer, file, funcs[i], 0, errno);
	}
	return 0;
}

int tm_tracer_apply(struct tracefs_instance *in, struct tm_journal *j,
		    const struct tm_tracer_opts *t)
{
	char depth[16];

	/* the filters before the tracer: the kernel never patches in every function */
	if (set_functions(in, j, t->name, false, t->filter) ||
	    set_functions(in, j, t->name, true, t->notrace) ||
	    set_graph(in, j, t->name, t->graph))
		return -1;
	snprintf(depth, sizeof(depth), "%d", t->max_graph_depth);
	/* max_graph_depth: no libtracefs 1.6.4 call */
	if (t->max_graph_depth >= 0 && put(in, j, "max_graph_depth", depth, false))
		return -1;
	if (tm_journal_save(j, "current_tracer"))
		return -1;
	errno = 0;
	if (!tracefs_tracer_set(in, TRACEFS_TRACER_CUSTOM, t->name))
		return 0;
	/* libtracefs says ENODEV for the kernel's EINVAL (no such tracer) */
	return refused(in, t->name, "current_tracer", errno == ENODEV ? EINVAL : errno);
}
