// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hostile.c - metadata text, event formats and records that
 * libtraceevent would read out of bounds or crash on: the line checks of
 * meta-check.c, the format checks of format-check.c and the record check of
 * rec-check.c on crafted input (run under ASan too: an out-of-bounds read
 * anywhere fails the run).
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "util/internal.h"
#include "events/meta-check.h"
#include "dat/rec-check.h"
#include "tm_fixtures.h"
#include "tm_test.h"
#include "dat/dat-format.h"
#include "dat/dat-internal.h"
#include "merge/merge-internal.h"
#include "print/print-internal.h"
#include "trace/tm-trace.h"
#include "merge/tm-merge.h"

/* The blob in an exact-size heap copy, so ASan sees any read past its end. */
static struct tm_blob heap_blob(const char *text, size_t len)
{
	char *p = malloc(len ? len : 1);

	memcpy(p, text, len);
	return (struct tm_blob){ .data = p, .len = len, .off = 1000 };
}

typedef char *(*clean_fn)(struct tm_blob b, const struct tm_meta_warn *w);

static char *clean(clean_fn fn, const char *text, size_t len, struct tm_warnings *ws)
{
	struct tm_meta_warn w = { .fn = tm_warn_collect, .ctx = ws, .file = "t.dat" };
	struct tm_blob b = heap_blob(text, len);
	char *out;

	memset(ws, 0, sizeof(*ws));
	out = fn(b, &w);
	free((void *)b.data);
	return out;
}

/* The two findings' shapes: a last line without ':' or ending in ':' (both read past the text). */
TM_TEST(meta_printk_drops_lines_libtraceevent_reads_past)
{
	static const char no_colon[] = "0x1 : \"one\"\n0xfff";
	static const char colon_last[] = "0x1 : \"one\"\n0xffffffff8281a4a3 :";
	struct tm_warnings ws;
	char *out;

	out = clean(tm_meta_clean_printk, no_colon, sizeof(no_colon) - 1, &ws);
	TM_CHECK_STR(out, "0x1 : \"one\"\n");
	TM_CHECK_INT(ws.n, 1);
	TM_CHECK(strstr(ws.last, "t.dat: printk formats at offset 1012: line dropped"));
	free(out);
	out = clean(tm_meta_clean_printk, colon_last, sizeof(colon_last) - 1, &ws);
	TM_CHECK_STR(out, "0x1 : \"one\"\n");
	TM_CHECK_INT(ws.n, 1);
	TM_CHECK(strstr(ws.last, "nothing after the ':'"));
	free(out);
}

/* printk-overflow-1.dat: NULs in the middle of a line; the lines after it are kept. */
TM_TEST(meta_printk_line_with_nul_is_dropped_and_parsing_goes_on)
{
	static const char text[] = "0x1 : \"one\"\n0xfff\0\0\0ff : \"x\"\n0x3 : \"three\"\n\0\0\0";
	struct tm_warnings ws;
	char *out = clean(tm_meta_clean_printk, text, sizeof(text) - 1, &ws);

	TM_CHECK_STR(out, "0x1 : \"one\"\n0x3 : \"three\"\n");
	TM_CHECK_INT(ws.n, 1);
	TM_CHECK(strstr(ws.last, "at offset 1012: line dropped: NUL byte inside"));
	free(out);
}

/* What tep_print_printk() writes to stdout: every registered format, by address. */
static char *registered_formats(struct tep_handle *tep)
{
	FILE *tmp = tmpfile();
	int saved = dup(1);
	char *text = NULL;
	size_t len;

	if (!tmp || saved < 0)
		return NULL;
	fflush(stdout);
	dup2(fileno(tmp), 1);
	tep_print_printk(tep);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	len = (size_t)ftell(tmp);
	text = calloc(1, len + 1);
	rewind(tmp);
	if (text && fread(text, 1, len, tmp) != len) {
		free(text);
		text = NULL;
	}
	fclose(tmp);
	return text;
}

/* Formats shorter than three bytes make tep_register_print_string read before its copy. */
TM_TEST(meta_printk_short_formats_register_the_same_text)
{
	static const char text[] = "0x10 : \"x\"\n0x11 : \"\"\n0x12 : ab\n0x13 : \"\\n\"\n"
				   "0x14 : \"xy\\n\"\n0x15 : \n0x16 : \"long enough\\n\"\n";
	struct tep_handle *tep = tep_alloc();
	struct tm_warnings ws;
	char *out = clean(tm_meta_clean_printk, text, sizeof(text) - 1, &ws), *reg;

	TM_REQUIRE(tep && out);
	TM_CHECK_INT(ws.n, 0);
	TM_CHECK_INT(tep_parse_printk_formats(tep, out), 0);
	reg = registered_formats(tep);
	TM_CHECK_STR(reg, "0000000000000010 x\n0000000000000011 \n0000000000000012 ab\n"
		     "0000000000000013 \n0000000000000014 xy\n0000000000000015 \n"
		     "0000000000000016 long enough\n");
	free(reg);
	free(out);
	tep_free(tep);
}

/* kallsyms lines: test_ksyms.c (our own table checks them). */

/* The saved cmdlines registered straight into tep (tm_meta_each_cmdline()). */
static int to_tep(void *ctx, int pid, const char *comm)
{
	return tep_register_comm(ctx, comm, pid);
}

static int walk_cmdlines(struct tep_handle *tep, const char *text, size_t len,
			 struct tm_warnings *ws)
{
	struct tm_meta_warn w = { .fn = tm_warn_collect, .ctx = ws, .file = "t.dat" };
	struct tm_blob b = heap_blob(text, len);
	int ret;

	memset(ws, 0, sizeof(*ws));
	ret = tm_meta_each_cmdline(b, &w, to_tep, tep);
	free((void *)b.data);
	return ret;
}

/* Both handles name every pid of pids the same. */
static void same_comms(struct tm_test *t, struct tep_handle *a, struct tep_handle *b,
		       const int *pids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		TM_CHECK_STR(tep_data_comm_from_pid(a, pids[i]), tep_data_comm_from_pid(b, pids[i]));
}

/* Lines libtraceevent stops at are dropped with a warning; the others name their pids as its do. */
TM_TEST(meta_cmdlines_keep_what_libtraceevent_reads)
{
	static const char cmdlines[] = "1 systemd\nx y\n42 kworker/0:1\n99999999999 big\n7\n";
	/* what libtraceevent reads of it: an overflowing pid scans (to some value) there too */
	static const char kept[] = "1 systemd\n42 kworker/0:1\n99999999999 big\n";
	struct tep_handle *ours = tep_alloc(), *native = tep_alloc();
	struct tep_cmdline *a, *b;
	struct tm_warnings ws;

	TM_REQUIRE(ours && native);
	TM_CHECK_INT(walk_cmdlines(ours, cmdlines, sizeof(cmdlines) - 1, &ws), 0);
	TM_CHECK_INT(ws.n, 2);
	TM_CHECK(strstr(ws.last, "t.dat: saved cmdlines at offset 1045: line dropped"));
	TM_CHECK_INT(tep_parse_saved_cmdlines(native, kept), 0);
	same_comms(t, ours, native, (const int[]){ 1, 42, 7 }, 3);
	a = tep_data_pid_from_comm(ours, "big", NULL);
	b = tep_data_pid_from_comm(native, "big", NULL);
	TM_CHECK(a && b);
	if (a && b)
		TM_CHECK_INT(tep_cmdline_pid(ours, a), tep_cmdline_pid(native, b));
	tep_free(ours);
	tep_free(native);
}

/*
 * Lines the kernel does not write but libtraceevent reads: white space
 * around and inside, signs, leading zeros, ten digits, a pid named twice
 * (its first name stays), a comm with spaces; both tables hold the same.
 */
TM_TEST(meta_cmdlines_register_as_libtraceevent_does)
{
	static const char text[] =
		"123 foo bar \n  77   spaced\tx\n-5 neg\n+9 plus\n0012 lead\n2147483647 max\n"
		"5 first\n6 b\n5 second\n\t8\ttab\n1000000000 ten\n999999999 nine\n0 swapper\n";
	static const int pids[] = { 123, 77, -5, 9, 12, 2147483647, 5, 6, 8, 1000000000,
				    999999999, 0, 4 };
	struct tep_handle *ours = tep_alloc(), *native = tep_alloc();
	struct tm_warnings ws;

	TM_REQUIRE(ours && native);
	TM_CHECK_INT(walk_cmdlines(ours, text, sizeof(text) - 1, &ws), 0);
	TM_CHECK_INT(ws.n, 0);
	TM_CHECK_INT(tep_parse_saved_cmdlines(native, text), 0);
	same_comms(t, ours, native, pids, TM_ARRAY_SIZE(pids));
	TM_CHECK_STR(tep_data_comm_from_pid(ours, 123), "foo bar ");
	tep_free(ours);
	tep_free(native);
}

static int count_comm(void *ctx, int pid, const char *comm)
{
	(void)pid;
	(void)comm;
	(*(int *)ctx)++;
	return 0;
}

TM_TEST(meta_v7_warnings_name_the_section)
{
	struct tm_meta_warn w;
	struct tm_warnings ws = { 0 };
	struct tm_blob b = heap_blob("bad\n", 4);
	int n = 0;

	w = (struct tm_meta_warn){ .fn = tm_warn_collect, .ctx = &ws, .file = "t.dat" };
	b.sec = 5000;
	b.off = 12;
	TM_CHECK_INT(tm_meta_each_cmdline(b, &w, count_comm, &n), 0);
	TM_CHECK_INT(n, 0);
	TM_CHECK(strstr(ws.last, "t.dat: saved cmdlines section at offset 5000 (body byte 12): "
			"line dropped"));
	free((void *)b.data);
}

/* ---- records checked before libtraceevent reads them (rec-check.c, merge.c) ---- */

static struct tm_events *snapshot(void)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", tm_fixture("raw/tracefs-snapshot"));
	return tm_events_from_tracefs(dir, NULL, NULL, false);
}

/* A sched_process_exec payload (id 365): filename at 20, its __data_loc word at 8. */
static void exec_record(uint8_t *rec, uint16_t loc_off, uint16_t loc_len)
{
	memset(rec, 0, 32);
	tm_put16(rec, 365);
	tm_put32(rec + 4, 77);				/* common_pid */
	tm_put32(rec + 8, (uint32_t)loc_len << 16 | loc_off);
	tm_put32(rec + 12, 77);
	memcpy(rec + 20, "/bin/true", 10);
}

/* Each record in an exact-size heap copy: ASan sees any read past it. */
static const char *check_heap(struct tm_reccheck *c, const void *data, uint32_t size)
{
	void *copy = malloc(size ? size : 1);
	const char *why;

	memcpy(copy, data, size);
	why = tm_reccheck(c, copy, size);
	free(copy);
	return why;
}

TM_TEST(reccheck_passes_good_records_and_names_the_bad_field)
{
	struct tm_events *ev = snapshot();
	struct tm_reccheck *c;
	uint8_t rec[64] = { 0 };
	const char *why;

	TM_REQUIRE(ev);
	c = tm_reccheck_new(tm_events_tep(ev));
	TM_REQUIRE(c);
	exec_record(rec, 20, 10);
	TM_CHECK(check_heap(c, rec, 32) == NULL);
	/* print-dataloc-1.dat: a __data_loc length far past the record */
	exec_record(rec, 20, 168);
	why = check_heap(c, rec, 32);
	TM_CHECK(why && strstr(why, "sched_process_exec: field filename (__data_loc offset 20, "
				"length 168) runs past the record's 32 bytes"));
	exec_record(rec, 40, 0);
	TM_CHECK(check_heap(c, rec, 32) != NULL);
	/* shorter than the fixed fields: old_pid ends at 20 */
	exec_record(rec, 20, 10);
	why = check_heap(c, rec, 16);
	TM_CHECK(why && strstr(why, "field old_pid (offset 16, size 4) runs past the record's "
				"16 bytes"));
	/* print-dataloc-1.dat: ftrace print (id 5) shorter than its char buf[] at 16 */
	memset(rec, 0, sizeof(rec));
	tm_put16(rec, 5);
	why = check_heap(c, rec, 12);
	TM_CHECK(why && strstr(why, "print: field ip (offset 8, size 8) runs past"));
	TM_CHECK(check_heap(c, rec, 16) == NULL);
	/* not even the common fields; an id without a format needs only them */
	TM_CHECK(check_heap(c, rec, 4) != NULL);
	tm_put16(rec, 9999);
	TM_CHECK(check_heap(c, rec, 8) == NULL);
	tm_reccheck_free(c);
	tm_events_free(ev);
}

/* A format whose field can never be inside a record: every record of it is refused. */
TM_TEST(reccheck_refuses_events_with_impossible_fields)
{
	static const char fmt[] =
		"name: bad\nID: 900\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int far;\toffset:70000;\tsize:4;\tsigned:1;\n"
		"\tfield:__rel_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%d %s\", REC->far, __get_rel_str(name)\n";
	static const char rel[] =
		"name: rel\nID: 901\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:__rel_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%s\", __get_rel_str(name)\n";
	struct tep_handle *tep = tep_alloc();
	struct tm_reccheck *c;
	uint8_t rec[32] = { 0 };
	const char *why;

	TM_REQUIRE(tep);
	TM_REQUIRE(tep_parse_event(tep, fmt, sizeof(fmt) - 1, "t") == 0);
	TM_REQUIRE(tep_parse_event(tep, rel, sizeof(rel) - 1, "t") == 0);
	c = tm_reccheck_new(tep);
	TM_REQUIRE(c);
	tm_put16(rec, 900);
	why = check_heap(c, rec, sizeof(rec));
	TM_CHECK(why && strstr(why, "bad: field far at offset 70000, size 4, cannot be inside"));
	/* __rel_loc offsets count from the end of the field (12 here) */
	tm_put16(rec, 901);
	tm_put32(rec + 8, 4u << 16 | 0);
	memcpy(rec + 12, "abc", 4);
	TM_CHECK(check_heap(c, rec, 16) == NULL);
	tm_put32(rec + 8, 4u << 16 | 4);
	TM_CHECK(check_heap(c, rec, 16) != NULL);
	TM_CHECK(check_heap(c, rec, 20) == NULL);
	tm_reccheck_free(c);
	tep_free(tep);
}

/*
 * kernel_stack says caller[8], the kernel writes the frames it has: a stack
 * record ends inside the array (record -T); any other trailing array must be whole.
 */
TM_TEST(reccheck_lets_ftrace_stacks_end_inside_their_caller_array)
{
	static const char stack[] =
		"name: kernel_stack\nID: 4\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
		"print fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";
	static const char other[] =
		"name: arr\nID: 902\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:unsigned long caller[8];\toffset:8;\tsize:64;\tsigned:0;\n\n"
		"print fmt: \"%lx\", REC->caller[0]\n";
	struct tep_handle *tep = tep_alloc();
	struct tm_reccheck *c;
	uint8_t rec[80] = { 0 };
	const char *why;

	TM_REQUIRE(tep);
	TM_REQUIRE(tep_parse_event(tep, stack, sizeof(stack) - 1, "ftrace") == 0);
	TM_REQUIRE(tep_parse_event(tep, other, sizeof(other) - 1, "t") == 0);
	c = tm_reccheck_new(tep);
	TM_REQUIRE(c);
	/* six frames: 64 bytes, as the kernel writes them */
	tm_put16(rec, 4);
	TM_CHECK(check_heap(c, rec, 64) == NULL);
	/* the fields before the array must be there */
	why = check_heap(c, rec, 8);
	TM_CHECK(why && strstr(why, "kernel_stack: field") && strstr(why, "runs past"));
	/* another system's trailing array is no stack: it must be whole */
	tm_put16(rec, 902);
	why = check_heap(c, rec, 64);
	TM_CHECK(why && strstr(why, "arr: field caller (offset 8, size 64) runs past"));
	TM_CHECK(check_heap(c, rec, 72) == NULL);
	tm_reccheck_free(c);
	tep_free(tep);
}

struct one_page {
	uint8_t	*page;
	bool	given;
};

static const void *one_page_next(void *ctx)
{
	struct one_page *p = ctx;

	if (p->given)
		return NULL;
	p->given = true;
	return p->page;
}

static int one_page_where(void *ctx, char *buf, size_t len)
{
	(void)ctx;
	return snprintf(buf, len, "t.dat: CPU 3: page at offset 4096");
}

/* Append a data record of size bytes (a multiple of 4, <= 112) at *off of page. */
static void page_add(uint8_t *page, size_t *off, const void *data, uint32_t size)
{
	tm_put32(page + 16 + *off, size / 4);	/* type_len = words, delta 0 */
	memcpy(page + 16 + *off + 4, data, size);
	*off += 4 + size;
	tm_put64(page + 8, *off);
}

/* The merge skips a record the check refuses, warns once with its place, prints the rest. */
TM_TEST(merge_skips_records_libtraceevent_cannot_read)
{
	struct tm_events *ev = snapshot();
	struct one_page src_page = { .page = calloc(1, 4096) };
	struct tm_page_source src = {
		.cpu = 3, .page_size = 4096, .commit_size = 8,
		.next_page = one_page_next, .where = one_page_where, .ctx = &src_page,
	};
	struct tm_print_opts po = { 0 };
	struct tm_merge *m = tm_merge_new();
	struct tm_printer *p;
	struct tm_event_rec rec;
	struct tm_warnings ws = { 0 };
	uint8_t data[32];
	size_t off = 0;
	FILE *f = fopen("/dev/null", "w");
	int n = 0, r;

	TM_REQUIRE(ev && m && f && src_page.page);
	exec_record(data, 20, 10);
	page_add(src_page.page, &off, data, 32);
	exec_record(data, 20, 168);
	page_add(src_page.page, &off, data, 32);
	exec_record(data, 20, 10);
	page_add(src_page.page, &off, data, 32);
	p = tm_printer_new(ev, &po, f);
	TM_REQUIRE(p);
	TM_CHECK_INT(tm_merge_add(m, &src), 0);
	TM_CHECK_INT(tm_merge_check_records(m, tm_events_tep(ev), tm_warn_collect, &ws), 0);
	while ((r = tm_merge_next(m, &rec)) > 0) {
		TM_CHECK_INT(tm_printer_event(p, &rec), 0);
		n++;
	}
	TM_CHECK_INT(r, 0);
	TM_CHECK_INT(n, 2);
	TM_CHECK_INT(tm_merge_skipped(m), 1);
	TM_CHECK_INT(ws.n, 1);
	TM_CHECK(strstr(ws.last, "t.dat: CPU 3: page at offset 4096: record at page offset 52: "
			"sched_process_exec: field filename"));
	TM_CHECK(strstr(ws.last, "; record skipped"));
	tm_printer_free(p);
	tm_merge_free(m);
	tm_events_free(ev);
	free(src_page.page);
	fclose(f);
}

/* fuzz-report finding: a __print_flags field the format lacks crashed tep_parse_event. */
TM_TEST(meta_format_check_refuses_flags_of_a_missing_field)
{
	static const char head[] =
		"name: t\nID: 7\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:long prev_state;\toffset:24;\tsize:8;\tsigned:1;\n\n";
	static const char *const fmts[] = {
		"print fmt: \"%s\", __print_flags(REC->prev_state, \"|\", { 1, \"S\" })\n",
		"print fmt: \"%s\", __print_symbolic(REC->prev_comm[0], { 1, \"S\" })\n",
		"print fmt: \"%s\", __print_flags(REC->irev_state, \"|\", { 1, \"S\" })\n",
		"print fmt: \"%s\", __print_symbolic(REC->prev, { 1, \"S\" })\n",
		"print fmt: \"%s\", __print_flags(1, \"|\", { 1, \"S\" })\n",
		"print fmt: \"%d\", REC->prev_state / (0x000UL)\n",
		"print fmt: \"%d\", REC->prev_state % 0\n",
		/* fuzz-report finding: an unknown name evaluates to 0 */
		"print fmt: \"%d\", REC->targ%t_cpu\n",
		"print fmt: \"%d\", 1000 / REC->prev_state\n",
		/* mutation-test finding: strtoull("008", NULL, 0) is 0 */
		"print fmt: \"%d\", (0x0000/008 | 0x10)\n",
		"print fmt: \"%d\", REC->prev_state / 0x\n",
		/* -1 as a signed divisor: INT64_MIN / -1 traps */
		"print fmt: \"%d\", REC->prev_state / 18446744073709551615\n",
		/* mutation-test finding: a byte the tokenizer cannot read after '[' */
		"\tfield:char x[\x7f;\toffset:32;\tsize:1;\tsigned:0;\nprint fmt: \"%d\", 1\n",
	};
	/* formats that pass: '%' in the strings, divisors that are nonzero constants */
	static const char *const good[] = {
		"print fmt: \"%d %0d\", REC->prev_state / 1000L\n",
		"print fmt: \"%d\", REC->prev_state / 0x10\n",
		"print fmt: \"%d %d\", REC->prev_state / (1000), REC->prev_state % (u64)250\n",
		"print fmt: \"%d\", REC->prev_state / sizeof(u64)\n",
	};
	char text[1024];
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(fmts); i++) {
		struct tm_blob b;

		snprintf(text, sizeof(text), "%s%s", head, fmts[i]);
		b = heap_blob(text, strlen(text));
		TM_CHECK((tm_meta_format_check(b) == NULL) == (i < 2));
		free((void *)b.data);
	}
	for (i = 0; i < TM_ARRAY_SIZE(good); i++) {
		struct tm_blob b;

		snprintf(text, sizeof(text), "%s%s", head, good[i]);
		b = heap_blob(text, strlen(text));
		TM_CHECK(tm_meta_format_check(b) == NULL);
		free((void *)b.data);
	}
}

/* The format of test t with print fmt line pf: NULL if tm_meta_format_check() passes it. */
static const char *check_print_fmt(const char *pf)
{
	static const char head[] =
		"name: t\nID: 7\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:long s;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield:int a[4];\toffset:16;\tsize:16;\tsigned:1;\n\nprint fmt: ";
	size_t hlen = strlen(head), plen = strlen(pf);
	char *text = malloc(hlen + plen);
	struct tm_blob b = { .data = text, .len = hlen + plen };
	const char *why;

	memcpy(text, head, hlen);
	memcpy(text + hlen, pf, plen);
	why = tm_meta_format_check(b);
	free(text);
	return why;
}

/*
 * fuzz-report finding (print-cond-op-1.dat: sched_switch's `? "+" : "". REC->next_comm`):
 * libtraceevent 1.7.1 dereferences NULL parsing an operator it has no precedence for right
 * after the operand of a ?: or an index; its recursive parser overflows the stack on huge
 * expressions.
 */
TM_TEST(meta_format_check_refuses_what_crashes_the_print_fmt_parser)
{
	static const char *const bad[] = {
		"\"%s %d\", REC->s & 1 ? \"+\" : \"\". REC->a[0]\n",
		"\"%d\", REC->s ? 1 : REC->a[0]\n",
		"\"%d\", REC->a[0][1]\n",
		"\"%d\", REC->a[0] = 1\n",
		"\"%d\", REC->s ? 1 : (int) (2) ; 3\n",
		"\"%d\", REC->s ? 1 : \"a\"\n \"b\" -> c\n",
		"\"%d\", REC->s ? 1 : 2 >>= 3\n",
	};
	/* kernel shapes: the sched_switch ternary, an index in arithmetic, kvm_mmu's statement expression */
	static const char *const good[] = {
		"\"%s\", REC->s & 1 ? \"+\" : \"\", REC->a[0]\n",
		"\"%d\", REC->a[0] + 1, (REC->s ? 1 : 2) + 3, REC->s ? 1 : -2 . 3\n",
		"\"%s\", ({ static const char *x[] = { \"-\", \"w\" }; union r role; "
		"role.word = REC->s; f(p, \"%s\", x[role.access], 0); p; })\n",
		"\"a ? : . [\", REC->s ? \"\\\"\" : \"x\", REC->s\n",
		"\"%d\", REC->s ? 1 : 2 ++ 3, REC->s ? 1 : 2 :: 3\n",
	};
	char *deep;
	size_t i, n = 70;

	for (i = 0; i < TM_ARRAY_SIZE(bad); i++)
		TM_CHECK(check_print_fmt(bad[i]) != NULL);
	for (i = 0; i < TM_ARRAY_SIZE(good); i++)
		TM_CHECK(check_print_fmt(good[i]) == NULL);
	/* 70 parentheses deep (kernel formats: at most 13) */
	deep = malloc(2 * n + 8);
	memset(deep, '(', n);
	deep[n] = '1';
	memset(deep + n + 1, ')', n);
	strcpy(deep + 2 * n + 1, "\n");
	TM_CHECK(strstr(check_print_fmt(deep) ?: "", "deeper parentheses"));
	n = 60;
	memset(deep, '(', n);
	deep[n] = '1';
	memset(deep + n + 1, ')', n);
	strcpy(deep + 2 * n + 1, "\n");
	TM_CHECK(check_print_fmt(deep) == NULL);
	free(deep);
}

/*
 * 6.1's thermal and devfreq formats divide by a field the ?: before it checks:
 * "REC->total_time == 0 ? 0 : (100 * REC->busy_time) / REC->total_time".
 * libtraceevent evaluates only the branch taken. The same division anywhere
 * the guard does not cover still is refused.
 */
TM_TEST(meta_format_check_passes_divisions_a_zero_test_guards)
{
	static const char *const good[] = {
		"\"%d\", REC->s == 0 ? 0 : (100 * REC->a[0]) / REC->s\n",
		"\"%d %d\", REC->a[1], (REC->s == 0) ? 0 : 9 % (REC->s)\n",
		"\"%d\", REC->s == 0 ? (1) : 7 + 100 / REC->s\n",
	};
	static const char *const bad[] = {
		"\"%d\", REC->s == 0 ? 0 : 100 / REC->a\n",
		"\"%d\", REC->s == 0 ? 100 / REC->s : 0\n",
		"\"%d\", REC->s == 1 ? 0 : 100 / REC->s\n",
		"\"%d\", REC->s != 0 ? 0 : 100 / REC->s\n",
		"\"%d\", (REC->s == 0 ? 0 : 1) + 100 / REC->s\n",
		"\"%d %d\", REC->s == 0 ? 0 : 1, 100 / REC->s\n",
		"\"%d\", REC->s == 0 ? 0 ? 1 : 2 : 100 / REC->s\n",
		"\"%d\", REC->ss == 0 ? 0 : 100 / REC->s\n",
		"\"%d\", 5 + REC->s == 0 ? 0 : 100 / REC->s\n",
	};
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(good); i++)
		TM_CHECK(check_print_fmt(good[i]) == NULL);
	for (i = 0; i < TM_ARRAY_SIZE(bad); i++)
		TM_CHECK(strstr(check_print_fmt(bad[i]) ?: "", "divides"));
}

/* Every format file matching pattern passes; how many there were. */
static size_t formats_pass(struct tm_test *t, const char *pattern)
{
	glob_t g;
	size_t i, n;

	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		size_t len;
		char *text = tm_read_file(g.gl_pathv[i], &len);
		struct tm_blob b = { .data = text, .len = len };
		const char *why = text ? tm_meta_format_check(b) : "unreadable";

		if (why)
			fprintf(stderr, "  %s: %s\n", g.gl_pathv[i], why);
		TM_CHECK(why == NULL);
		free(text);
	}
	n = g.gl_pathc;
	globfree(&g);
	return n;
}

/*
 * No false alarm on real formats: every format of the fixture tracefs
 * snapshot passes, and of the running kernel (read only) where tracefs is
 * readable. 6.1's: tests/report-vm.bats (the guest's files hold all of them).
 */
TM_TEST(meta_format_check_passes_kernel_formats)
{
	char pattern[4096];

	snprintf(pattern, sizeof(pattern), "%s/events/*/*/format",
		 tm_fixture("raw/tracefs-snapshot"));
	TM_CHECK(formats_pass(t, pattern) > 40);
	formats_pass(t, "/sys/kernel/tracing/events/*/*/format");
}
