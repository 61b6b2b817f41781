// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_printk.c - libFuzzer target, differential: the input as a trace's
 * printk formats through our table of kernel strings (lib/events/printk-map.c)
 * and through libtraceevent's own (tep_parse_printk_formats() of the lines
 * report hands it). An rcu_utilization-like event printing a `const char *`
 * with %s must print, for every address a line names, one before and one
 * after, what tm_printk_map_find() answers (its hex digits when nothing).
 * An input holding a NUL only goes through ours (memory safety).
 * Run: bash tests/fuzz/run.sh 60 printk.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "fuzz-text.h"
#include "util/internal.h"
#include "events/meta-check.h"
#include "events/printk-map.h"

static const char kstr_format[] =
	"name: kstr\nID: 901\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"%s\", REC->s\n";

static void same_text(struct tep_handle *tep, struct tm_printk_map *m, uint64_t addr,
		      struct trace_seq *s)
{
	struct tep_record rec = { .size = 16 };
	uint8_t data[16] = { 901 & 0xff, 901 >> 8 };
	const char *ours = tm_printk_map_find(m, addr);
	char hex[20];

	memcpy(data + 8, &addr, sizeof(addr));
	rec.data = data;
	trace_seq_reset(s);
	tep_print_event(tep, s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
	snprintf(hex, sizeof(hex), "%" PRIx64, addr);
	if (strcmp(s->buffer, ours ? ours : hex))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_blob b = { .data = (const char *)data, .len = size };
	struct tm_printk_map *m = tm_printk_map_new(b);
	struct tep_handle *nat, *unused;
	char *text, *clean, *lines, *line, *save;
	struct trace_seq s;
	int probes = 0;

	if (!m)
		abort();
	text = fuzz_text(data, size, &nat, &unused);
	if (!text) {
		tm_printk_map_free(m);
		return 0;
	}
	/* report's text for libtraceevent, and a copy of it to walk for addresses */
	clean = tm_meta_clean_printk(b, NULL);
	lines = clean ? strdup(clean) : NULL;
	tep_set_long_size(nat, 8);
	tep_set_file_bigendian(nat, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(nat, TEP_LITTLE_ENDIAN);
	if (!lines || tep_parse_event(nat, kstr_format, sizeof(kstr_format) - 1, "t"))
		abort();
	tep_parse_printk_formats(nat, clean);
	trace_seq_init(&s);
	same_text(nat, m, 0, &s);
	same_text(nat, m, UINT64_MAX, &s);
	for (line = strtok_r(lines, "\n", &save); line && probes < 64;
	     line = strtok_r(NULL, "\n", &save), probes++) {
		uint64_t a;

		while (*line == ':')
			line++;
		a = strtoull(line, NULL, 16);
		for (int d = -1; d <= 1; d++)
			same_text(nat, m, a + (uint64_t)d, &s);
	}
	trace_seq_destroy(&s);
	free(lines);
	free(clean);
	free(text);
	tep_free(nat);
	tep_free(unused);
	tm_printk_map_free(m);
	return 0;
}
