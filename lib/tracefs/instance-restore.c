// SPDX-License-Identifier: GPL-2.0-only
/*
 * instance-restore.c - the settings of an instance tracemap records through but did
 * not create (--reuse-instance), or of the top level where a tracer runs only
 * there: each file's text before the first change, written back in reverse
 * order at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/sysinfo.h>
#include <tracefs.h>

#include "util/internal.h"
#include "tracefs-internal.h"

struct tm_journal_entry {
	char	*rel;		/* path below the instance directory */
	char	*text;		/* its content before our first write */
};

struct tm_journal {
	struct tracefs_instance	*in;		/* not owned */
	char			*dir;		/* for messages */
	struct tm_journal_entry	*e;
	size_t			n;
};

struct tm_journal *tm_journal_new(struct tracefs_instance *in)
{
	struct tm_journal *j = calloc(1, sizeof(*j));

	if (!j || !(j->dir = tracefs_instance_get_dir(in))) {
		free(j);
		tm_fail(ENOMEM, "instance %s", tracefs_instance_get_name(in) ?: "(top)");
		return NULL;
	}
	j->in = in;
	return j;
}

static bool journal_has(const struct tm_journal *j, const char *rel)
{
	for (size_t i = 0; i < j->n; i++)
		if (!strcmp(j->e[i].rel, rel))
			return true;
	return false;
}

static int journal_add(struct tm_journal *j, const char *rel, char *text)
{
	struct tm_journal_entry *e = realloc(j->e, (j->n + 1) * sizeof(*e));

	if (!e || !(e[j->n].rel = strdup(rel))) {
		if (e)
			j->e = e;
		free(text);
		return tm_fail(ENOMEM, "instance %s", j->dir);
	}
	j->e = e;
	e[j->n++].text = text;
	return 0;
}

/*
 * buffer_size_kb reads "X" when the CPUs' buffers differ in size: then each
 * per_cpu/cpuN/buffer_size_kb is what there is to give back.
 */
static int journal_save_per_cpu_sizes(struct tm_journal *j)
{
	char rel[64];

	for (int cpu = 0; cpu < get_nprocs_conf(); cpu++) {
		if (tm_path(rel, sizeof(rel), "per_cpu/cpu%d/buffer_size_kb", cpu))
			return -1;
		if (tracefs_file_exists(j->in, rel) && tm_journal_save(j, rel))
			return -1;
	}
	return 0;
}

int tm_journal_save(struct tm_journal *j, const char *rel)
{
	char *text;

	if (!j || journal_has(j, rel))
		return 0;
	text = tm_tfs_read(j->in, rel, NULL);
	if (!text || journal_add(j, rel, text))
		return -1;
	if (!strcmp(rel, "buffer_size_kb") && text[0] == 'X')
		return journal_save_per_cpu_sizes(j);
	return 0;
}

/* The selected clock of trace_clock text: the bracketed word (1.6.4 cannot set a clock). */
static int journal_clock(struct tracefs_instance *in, const char *dir, const char *text)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
	char clock[64];

	if (!close || close - open - 1 >= (long)sizeof(clock))
		return tm_failx(EINVAL, "%s/trace_clock: cannot tell its clock from '%.40s'",
				dir, text);
	snprintf(clock, sizeof(clock), "%.*s", (int)(close - open - 1), open + 1);
	return tm_tfs_write(in, "trace_clock", clock);
}

/*
 * set_event and the function lists: cleared when opened for writing, then
 * each line appended; "#### all functions enabled ####" and the like are
 * what an empty function list reads as.
 */
static int journal_lines(struct tracefs_instance *in, const char *rel, char *text)
{
	char *save = NULL, *line;

	if (tm_tfs_write(in, rel, ""))
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#' && tm_tfs_append(in, rel, line))
			return -1;
	return 0;
}

/* pid lists: written whole, one line each becomes a space-separated list ("no pid": none). */
static int journal_pids(struct tracefs_instance *in, const char *rel, char *text)
{
	if (!strncmp(text, "no pid", 6))
		return tm_tfs_write(in, rel, "");
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return tm_tfs_write(in, rel, text);
}

static bool is_one_of(const char *s, const char * const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * A buffer size's text back: "1408"; "7 (expanded: 1408)", a top-level buffer
 * not yet expanded, which no write can restore: the size it expands to; "X",
 * CPUs of different sizes: nothing here, their per_cpu files were saved too.
 */
static int journal_buffer(struct tracefs_instance *in, const char *rel, int cpu,
			  const char *text)
{
	const char *expanded = strstr(text, "(expanded: ");
	unsigned long kb;

	if (text[0] == 'X')
		return 0;
	kb = strtoul(expanded ? expanded + strlen("(expanded: ") : text, NULL, 10);
	if (!tracefs_instance_set_buffer_size(in, kb, cpu))
		return 0;
	return tm_tfs_fail(in, rel, errno, "write back");
}

/* buffer_size_kb or per_cpu/cpuN/buffer_size_kb: its CPU in *cpu (-1: all). */
static bool is_buffer_size(const char *rel, int *cpu)
{
	*cpu = -1;
	if (!strcmp(rel, "buffer_size_kb"))
		return true;
	return sscanf(rel, "per_cpu/cpu%d/buffer_size_kb", cpu) == 1 &&
	       ends_with(rel, "/buffer_size_kb");
}

/* Write one saved text back, in the form its file takes. */
static int journal_put(struct tm_journal *j, struct tm_journal_entry *e)
{
	static const char * const lines[] = { "set_event", "set_ftrace_filter",
		"set_ftrace_notrace", "set_graph_function", "set_graph_notrace", NULL };
	static const char * const pids[] = { "set_event_pid", "set_event_notrace_pid",
		"set_ftrace_pid", "set_ftrace_notrace_pid", NULL };
	char *nl;
	int cpu;

	if (!strcmp(e->rel, "trace_clock"))
		return journal_clock(j->in, j->dir, e->text);
	if (is_one_of(e->rel, lines))
		return journal_lines(j->in, e->rel, e->text);
	if (is_one_of(e->rel, pids))
		return journal_pids(j->in, e->rel, e->text);
	/* an event's enable reads "1*" or "0*" while a trigger soft-disables it */
	if (ends_with(e->rel, "/enable") && (e->text[0] == '0' || e->text[0] == '1'))
		e->text[1] = '\0';
	if (ends_with(e->rel, "/filter") && !strncmp(e->text, "none", 4))
		return tm_tfs_write(j->in, e->rel, "0");
	if (is_buffer_size(e->rel, &cpu))
		return journal_buffer(j->in, e->rel, cpu, e->text);
	nl = strchr(e->text, '\n');
	if (nl)
		*nl = '\0';
	if (!strcmp(e->rel, "buffer_subbuf_size_kb"))
		return tm_subbuf_set(j->in, e->text);
	return tm_tfs_write(j->in, e->rel, e->text);
}

int tm_journal_restore(struct tm_journal *j)
{
	int ret = 0;

	if (!j)
		return 0;
	/*
	 * Newest first: what was changed later may depend on what came before.
	 * The buffer size goes last: setting the sub-buffer size resizes the
	 * buffer to whole sub-buffers of the new size.
	 */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = j->n; i-- > 0;) {
			int cpu;

			if ((pass == 1) != is_buffer_size(j->e[i].rel, &cpu))
				continue;
			if (journal_put(j, &j->e[i]) && !ret)
				ret = tm_fail_prefix("restore instance %s", j->dir);
		}
	}
	return ret;
}

void tm_journal_free(struct tm_journal *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++) {
		free(j->e[i].rel);
		free(j->e[i].text);
	}
	free(j->e);
	tracefs_put_tracing_file(j->dir);
	free(j);
}
