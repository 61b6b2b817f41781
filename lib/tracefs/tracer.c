// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracer.c - the tracer of a session (-p: current_tracer) and its function
 * filters (set_ftrace_filter, set_ftrace_notrace, set_graph_function,
 * max_graph_depth), and where it runs: the instance, or the top level when
 * the kernel allows the tracer only there.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracer.h"
#include "util/internal.h"
#include "tracefs-internal.h"

/* 1 when word is one of the whitespace-separated words of <dir>/<file>, else 0; -1 + message. */
static int file_has_word(const char *dir, const char *file, const char *word)
{
	char path[PATH_MAX], *text, *w, *save = NULL;
	int found = 0;

	if (tm_path(path, sizeof(path), "%s/%s", dir, file))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	for (w = strtok_r(text, " \t\n", &save); w && !found; w = strtok_r(NULL, " \t\n", &save))
		found = !strcmp(w, word);
	free(text);
	return found;
}

static bool has_file(const char *dir, const char *rel)
{
	char path[PATH_MAX];

	return !tm_path(path, sizeof(path), "%s/%s", dir, rel) && !access(path, F_OK);
}

/* options/NAME, or options/NAME without its "no" (as the session's -O reads it). */
static bool has_option(const char *dir, const char *opt)
{
	char rel[PATH_MAX];

	if (!tm_path(rel, sizeof(rel), "options/%s", opt) && has_file(dir, rel))
		return true;
	return !strncmp(opt, "no", 2) && !tm_path(rel, sizeof(rel), "options/%s", opt + 2) &&
	       has_file(dir, rel);
}

/* dir has every file the tracer options write, and every option of options. */
static bool has_all(const char *dir, const struct tm_tracer_opts *t, const char * const *options)
{
	if ((t->filter && !has_file(dir, "set_ftrace_filter")) ||
	    (t->notrace && !has_file(dir, "set_ftrace_notrace")) ||
	    (t->graph && !has_file(dir, "set_graph_function")) ||
	    (t->max_graph_depth >= 0 && !has_file(dir, "max_graph_depth")))
		return false;
	for (; options && *options; options++)
		if (!has_option(dir, *options))
			return false;
	return true;
}

int tm_tracer_place(const char *tracefs, const char *inst_dir, const struct tm_tracer_opts *t,
		    const char * const *options, bool *top)
{
	int in_inst = file_has_word(inst_dir, "available_tracers", t->name), in_top;

	*top = false;
	if (in_inst < 0)
		return -1;
	if (in_inst && has_all(inst_dir, t, options))
		return 0;
	in_top = file_has_word(tracefs, "available_tracers", t->name);
	if (in_top < 0)
		return -1;
	if (!in_inst && !in_top)
		return tm_failx(EINVAL, "unknown tracer '%s' (not in %s/available_tracers; see "
				"tracemap list -t)", t->name, tracefs);
	/* where neither has all, the instance: the missing file's write says what */
	*top = in_top && has_all(tracefs, t, options);
	return 0;
}

int tm_tracer_top_free(const char *tracefs, const char *tracer)
{
	int nop = file_has_word(tracefs, "current_tracer", "nop");

	if (nop < 0)
		return -1;
	if (!nop)
		return tm_failx(EBUSY, "tracer '%s' runs only at the top level here, and %s/"
				"current_tracer is in use (not nop): tracemap leaves it alone",
				tracer, tracefs);
	return 0;
}

/* Write (or append) text to <dir>/<rel>, its text saved first when there is a journal. */
static int put(const char *dir, struct tm_journal *j, const char *rel, const char *text,
	       bool append)
{
	if (tm_journal_save(j, rel))
		return -1;
	return append ? tm_file_append(dir, rel, text) : tm_file_write(dir, rel, text);
}

/* The tracer's refusal: a write to <dir>/<file> failed with err. */
static int refused(const char *dir, const char *tracer, const char *file, int err)
{
	return tm_failx(err, "the kernel refused tracer '%s' (%s/%s: %s)", tracer, dir, file,
			strerror(err));
}

/*
 * Each function or glob written to file (cleared first), the kernel's refusal
 * named; EPERM (function tracing forbidden) is the tracer's refusal. The newline ends the word: the kernel checks a word when it ends,
 * and one still open at close() is applied with its error dropped.
 */
static int set_functions(const char *dir, struct tm_journal *j, const char *tracer,
			 const char *file, const char * const *funcs)
{
	char line[512];

	for (size_t i = 0; funcs && funcs[i]; i++) {
		int ret;

		if ((size_t)snprintf(line, sizeof(line), "%s\n", funcs[i]) >= sizeof(line))
			return tm_failx(EINVAL, "%s: function name too long: '%.40s...'", file,
					funcs[i]);
		ret = put(dir, j, file, line, i > 0);

		if (ret && errno == EPERM)
			return refused(dir, tracer, file, EPERM);
		if (ret && errno == EINVAL)
			return tm_failx(EINVAL, "%s: the kernel refused '%s' (no traceable function "
					"matches it: %s; see tracemap list -f)", file, funcs[i],
					strerror(EINVAL));
		if (ret)
			return -1;
	}
	return 0;
}

int tm_tracer_apply(const char *dir, struct tm_journal *j, const struct tm_tracer_opts *t)
{
	char depth[16];

	/* the filters before the tracer: the kernel never patches in every function */
	if (set_functions(dir, j, t->name, "set_ftrace_filter", t->filter) ||
	    set_functions(dir, j, t->name, "set_ftrace_notrace", t->notrace) ||
	    set_functions(dir, j, t->name, "set_graph_function", t->graph))
		return -1;
	snprintf(depth, sizeof(depth), "%d", t->max_graph_depth);
	if (t->max_graph_depth >= 0 && put(dir, j, "max_graph_depth", depth, false))
		return -1;
	if (!put(dir, j, "current_tracer", t->name, false))
		return 0;
	return refused(dir, t->name, "current_tracer", errno);
}
