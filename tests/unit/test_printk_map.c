// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_printk_map.c - our table of kernel strings (printk-map.c) against
 * libtraceevent's: an event printing a `const char *` field with "%s" is
 * printed by libtraceevent after tep_parse_printk_formats() of the text
 * report gives it (tm_meta_clean_printk() of the same bytes), and must show
 * what tm_printk_map_find() answers for that address (its hex digits when
 * the table has none). And which fields are kernel strings.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "events/meta-check.h"
#include "events/printk-map.h"
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
	"0xffffffff82810400 : \"first: second\"\n"
	"0xffffffff82810600 : \"a NUL\0 in it\"\n"
	"0xffffffff82810700 : \"after the NUL\"\n"
	"0x1ffffffffffffffff : \"past 64 bits\"\n"
	"zz : \"not hex\"\n"
	"0xffffffff82810800 : \"newline, no closing quote\\n\n"
	"0xffffffff82810900 : \"one\"\n"
	"0xffffffff82810900 : \"two\"\n"
	"0xffffffff82810900 : \"three\"\n";

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
		0, 0xffffffff82810600, 0xffffffff82810700, 0xffffffffffffffff,
		0xffffffff82810800,
		0xffffffff82810900,	/* three lines: libtraceevent's pick */
	};
	struct tm_blob b = { .data = printk_text, .len = sizeof(printk_text) - 1 };
	struct tep_handle *tep = tep_alloc();
	struct tm_printk_map *m = tm_printk_map_new(b);
	char *clean = tm_meta_clean_printk(b, NULL);
	struct trace_seq s;

	TM_REQUIRE(tep && m && clean);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	TM_REQUIRE(!tep_parse_event(tep, kstr_format, sizeof(kstr_format) - 1, "rcu"));
	TM_REQUIRE(!tep_parse_printk_formats(tep, clean));
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
	TM_CHECK(tm_printk_map_find(m, 0xffffffff82810600) == NULL);	/* its line went */
	TM_CHECK_STR(tm_printk_map_find(m, 0xffffffff82810700), "after the NUL");
	trace_seq_destroy(&s);
	free(clean);
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

/* An event of the given fields and print fmt, parsed; the field named name. */
static const struct tep_format_field *field_of(struct tep_handle *tep, int id,
					       const char *fields, const char *fmt,
					       const char *name)
{
	char text[2048];
	struct tep_event *ev;

	snprintf(text, sizeof(text), "name: e%d\nID: %d\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n%s\n"
		 "print fmt: %s\n", id, id, fields, fmt);
	if (tep_parse_event(tep, text, strlen(text), "t"))
		return NULL;
	ev = tep_find_event(tep, id);
	return ev ? tep_find_field(ev, name) : NULL;
}

TM_TEST(printk_map_kernel_strings_are_pointers_printed_with_s)
{
	static const char action[] =
		"\tfield:const char * action;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:int val;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\tfield:bool start;\toffset:20;\tsize:1;\tsigned:0;\n";
	static const char user[] =
		"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n";
	static const char argv[] =
		"\tfield:const char *const * argv;\toffset:8;\tsize:8;\tsigned:0;\n";
	static const char width[] =
		"\tfield:int w;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:const char * s;\toffset:16;\tsize:8;\tsigned:0;\n";
	struct tep_handle *tep = tep_alloc();
	const struct tep_format_field *f;

	TM_REQUIRE(tep);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	/* suspend_resume's: %s of REC->action, and val after it is not */
	f = field_of(tep, 910, action, "\"%s[%u] %s\", REC->action, (unsigned int)REC->val, "
		     "(REC->start)?\"begin\":\"end\"", "action");
	TM_CHECK(f && tm_field_is_kernel_string(f));
	f = field_of(tep, 911, action, "\"%d %s\", REC->val, REC->action", "action");
	TM_CHECK(f && tm_field_is_kernel_string(f));
	f = field_of(tep, 912, action, "\"%s %d\", REC->action, REC->val", "val");
	TM_CHECK(f && !tm_field_is_kernel_string(f));
	/* a user pointer printed as a number through a cast */
	f = field_of(tep, 913, user, "\"dfd: 0x%08lx, filename: 0x%08lx\", "
		     "((unsigned long)(REC->dfd)), ((unsigned long)(REC->filename))", "filename");
	TM_CHECK(f && !tm_field_is_kernel_string(f));
	f = field_of(tep, 914, argv, "\"argv: 0x%08lx\", ((unsigned long)(REC->argv))", "argv");
	TM_CHECK(f && !tm_field_is_kernel_string(f));
	/* %% takes no argument, %*s takes two: the width, then the string */
	f = field_of(tep, 915, width, "\"100%% %*s\", REC->w, REC->s", "s");
	TM_CHECK(f && tm_field_is_kernel_string(f));
	f = field_of(tep, 916, width, "\"%pS %s\", REC->s, REC->s", "s");
	TM_CHECK(f && tm_field_is_kernel_string(f));
	tep_free(tep);
}
