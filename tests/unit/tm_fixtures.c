// SPDX-License-Identifier: GPL-2.0-only
/* tm_fixtures.c - the shared fixture helpers of tm_fixtures.h. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <traceevent/event-parse.h>

#include "util/internal.h"
#include "tracefs/meta-internal.h"
#include "tm_fixtures.h"
#include "util/tm-error.h"

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

void tm_scratch_remove(const char *dir)
{
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

char *tm_scratch_dir(void)
{
	static const char tmpl[] = "/tmp/tm-unit-test-XXXXXX";
	char *dir = malloc(sizeof(tmpl));

	if (dir) {
		memcpy(dir, tmpl, sizeof(tmpl));
		if (!mkdtemp(dir)) {
			free(dir);
			dir = NULL;
		}
	}
	return dir;
}

struct tm_meta *tm_fixture_meta(struct tm_test *t, char set)
{
	char snap[4096], syms[4096], name[64];
	struct tm_meta_opts o = { .ncpus = TM_FIXTURE_CPUS };
	struct tm_meta *meta;
	size_t len;
	char *text;

	snprintf(snap, sizeof(snap), "%s", tm_fixture("raw/tracefs-snapshot"));
	snprintf(syms, sizeof(syms), "%s", tm_fixture("raw/kallsyms.subset"));
	o.tracefs = snap;
	o.kallsyms = syms;
	meta = tm_meta_collect_opts(&o);
	if (!meta) {
		fprintf(stderr, "  meta: %s\n", tm_last_error());
		t->failures++;
		return NULL;
	}
	for (int cpu = 0; cpu < TM_FIXTURE_CPUS; cpu++) {
		char *body;

		snprintf(name, sizeof(name), "raw/%c.stats%d", set, cpu);
		text = tm_read_file(tm_fixture(name), &len);
		/* the fixture holds the whole CPUSTAT text: drop its "CPU: N" line */
		body = text ? strchr(text, '\n') : NULL;
		TM_CHECK(body && !tm_meta_set_stats(meta, cpu, body + 1, len - (body + 1 - text)));
		free(text);
	}
	snprintf(name, sizeof(name), "raw/%c.trace_clock", set);
	text = tm_read_file(tm_fixture(name), &len);
	TM_CHECK(text && !tm_meta_set_trace_clock(meta, text, len));
	free(text);
	return meta;
}

char *tm_run(const char *cmd, size_t *len, int *status)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	FILE *f = popen(cmd, "r");
	size_t got;

	if (!f || !buf) {
		if (f)
			pclose(f);
		free(buf);
		return NULL;
	}
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *tmp = realloc(buf, cap * 2);

			if (!tmp)
				break;
			buf = tmp;
			cap *= 2;
		}
	}
	*status = pclose(f);
	*len = n;
	return buf;
}

/* An event printing one address both ways, and ftrace's kernel_stack (as this kernel has it). */
const char tm_sym_format[] =
	"name: symtest\nID: 900\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"%pS %ps\", (void *)REC->ip, (void *)REC->ip\n";
const char tm_stack_format[] =
	"name: kernel_stack\nID: 4\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
	"print fmt: \"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" \"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" "
	"\"\\t=> %ps\\n\\t=> %ps\\n\", (void *)REC->caller[0], (void *)REC->caller[1], "
	"(void *)REC->caller[2], (void *)REC->caller[3], (void *)REC->caller[4], "
	"(void *)REC->caller[5], (void *)REC->caller[6], (void *)REC->caller[7]\n";

void tm_warn_collect(void *ctx, const char *msg)
{
	struct tm_warnings *w = ctx;

	w->n++;
	snprintf(w->last, sizeof(w->last), "%s", msg);
}

struct tep_handle *tm_sym_tep(void)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_parse_event(tep, tm_sym_format, sizeof(tm_sym_format) - 1, "test");
	tep_parse_event(tep, tm_stack_format, sizeof(tm_stack_format) - 1, "ftrace");
	return tep;
}
