// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_printk_map.c - our table of kernel strings (printk-map.c) against
 * libtraceevent's: an event printing a `const char *` field with "%s" is
 * printed by libtraceevent after tep_parse_printk_formats() of the same
 * text, and must show what tm_printk_map_find() answers for that address
 * (its hex digits when the table has none).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "print/printk-map.h"
#include "tm_test.h"

/* rcu_utilization as the kernel has it: one kernel string. */
static const char kstr_format[] =
	"name: rcu_utilization\nID: 901\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"%s\", REC->s\n";

/* Lines as printk_formats has them, and the odd ones tep_parse_printk_formats() takes. */
static const char printk_text[] =
	"0xffffffff8281a5a4 : \"Start context switch\"\n"
	"0xffffffff8281972f : \"thaw_processes\"\n"
	"0xffffffff8281972f : \"thaw_processes\"\n"
	"0xffffffff82810000 : \"a line\\n\"\n"
	"::0xffffffff82810100 : \"after colons\"\n"
	"0xffffffff82810200 : \"no closing quote\n"
	"0xffffffff82810300 : \"a \\\"quoted\\\" word\"\n"
	"0xffffffff82810400 : \"first: second\"\n";

/* What libtraceevent prints for the event's string at addr. */
static void native_text(struct tep_handle *tep, uint64_t addr, struct trace_seq *s)
{
	uint8_t data[16] = { 0 };
	struct tep_record rec = { .data = data, .size = sizeof(data) };

	data[0] = 901 & 0xff;
	data[1] = 901 >> 8;
	memcpy(data + 8, &addr, sizeof(addr));	/* little-endian, as the tep says */
	trace_seq_reset(s);
	tep_print_event(tep, s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
}

TM_TEST(printk_map_answers_what_libtraceevent_prints)
{
	static const uint64_t addrs[] = {
		0xffffffff8281a5a4, 0xffffffff8281972f, 0xffffffff82810000, 0xffffffff82810100,
		0xffffffff82810200, 0xffffffff82810300, 0xffffffff82810400,
		0xffffffff82810500,	/* in no line */
		0,
	};
	struct tm_blob b = { .data = printk_text, .len = sizeof(printk_text) - 1 };
	struct tep_handle *tep = tep_alloc();
	struct tm_printk_map *m = tm_printk_map_new(b);
	char *copy = strdup(printk_text);
	struct trace_seq s;

	TM_REQUIRE(tep && m && copy);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	TM_REQUIRE(!tep_parse_event(tep, kstr_format, sizeof(kstr_format) - 1, "rcu"));
	TM_REQUIRE(!tep_parse_printk_formats(tep, copy));
	trace_seq_init(&s);
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		const char *ours = tm_printk_map_find(m, addrs[i]);
		char hex[20];

		snprintf(hex, sizeof(hex), "%" PRIx64, addrs[i]);
		native_text(tep, addrs[i], &s);
		if (strcmp(s.buffer, ours ? ours : hex))
			fprintf(stderr, "  %#" PRIx64 ": libtraceevent \"%s\", ours \"%s\"\n",
				addrs[i], s.buffer, ours ? ours : hex);
		TM_CHECK(!strcmp(s.buffer, ours ? ours : hex));
	}
	TM_CHECK(tm_printk_map_find(m, 0xffffffff8281a5a4) != NULL);
	TM_CHECK(tm_printk_map_find(m, 0xffffffff82810500) == NULL);
	trace_seq_destroy(&s);
	free(copy);
	tm_printk_map_free(m);
	tep_free(tep);
}

TM_TEST(printk_map_of_nothing_finds_nothing)
{
	struct tm_blob b = { .data = "", .len = 0 };
	struct tm_printk_map *m = tm_printk_map_new(b);

	TM_REQUIRE(m);
	TM_CHECK(tm_printk_map_find(m, 0) == NULL);
	TM_CHECK(tm_printk_map_find(NULL, 1) == NULL);
	tm_printk_map_free(m);
}
