// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_print_fast.c - the compiled formats of print-fast.c (array elements,
 * bare hex, %ps/%pS through kallsyms, "?:" over a field) compile, and print
 * libtraceevent's own text of the same record byte for byte; what they
 * cannot print (an address without a symbol) is left to libtraceevent.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "internal.h"
#include "print-fast.h"
#include "tm_test.h"

#define COMMON	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char sys_enter_fmt[] =
	"name: sys_enter\nID: 21\nformat:\n" COMMON
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], "
	"REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]\n";

static const char work_fmt[] =
	"name: work_start\nID: 22\nformat:\n" COMMON
	"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"work struct %p: function %ps at %pS\", REC->work, REC->function, "
	"REC->function\n";

static const char irq_exit_fmt[] =
	"name: irq_exit\nID: 23\nformat:\n" COMMON
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"\n";

/* sched_switch's shape without the plugin: "%s%s" of one field, then a literal. */
static const char switch_fmt[] =
	"name: switch\nID: 24\nformat:\n" COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:unsigned int prev_state;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int next_pid;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_state=%s%s ==> next_pid=%d\", REC->prev_comm, "
	"(REC->prev_state & 0xff) ? __print_flags(REC->prev_state & 0xff, \"|\", "
	"{ 0x01, \"S\" }, { 0x02, \"D\" }, { 0x04, \"T\" }) : \"R\", "
	"REC->prev_state & 0x100 ? \"+\" : \"\", REC->next_pid\n";

static const char ksyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t worker_fn\n"
	"ffffffff81000200 t other_fn\t[mod]\n";

/* One record of event id with the payload words after the common header. */
static void record(uint8_t *buf, uint16_t id, const uint64_t *words, int n)
{
	memset(buf, 0, 8);
	memcpy(buf, &id, 2);
	memcpy(buf + 8, words, (size_t)n * 8);
}

/* Compiled text of the record, or NULL when it is left to libtraceevent. */
static char *fast_text(struct tm_fastfmt *f, const uint8_t *data, uint32_t size)
{
	struct tm_fastbuf b = { 0 };

	if (f->ops->render(f, &b, data, size)) {
		free(b.buf);
		return NULL;
	}
	if (tm_fastbuf_reserve(&b, 1)) {
		free(b.buf);
		return NULL;
	}
	b.buf[b.len] = '\0';
	return b.buf;
}

static char *tep_text(struct tep_handle *tep, const uint8_t *data, uint32_t size)
{
	struct tep_record r = { .data = (void *)data, .size = (int)size };
	struct trace_seq s;
	char *out;

	trace_seq_init(&s);
	tep_print_event(tep, &s, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	out = strdup(s.buffer);
	trace_seq_destroy(&s);
	return out;
}

/* ok, after saying what differed; frees both texts. */
static int verdict(const char *what, unsigned int v, int ok, char *fast, char *ref)
{
	if (!ok)
		fprintf(stderr, "  %s %#x: compiled \"%s\", libtraceevent \"%s\"\n", what, v,
			fast ? fast : "(left to libtraceevent)", ref ? ref : "");
	free(fast);
	free(ref);
	return ok;
}

/* 1 when the compiled text equals libtraceevent's (or, with left, it declined). */
static int same_text(struct tm_test *t, struct tep_handle *tep, uint16_t id,
		     const uint64_t *words, int n, bool left)
{
	struct tep_event *ev = tep_find_event(tep, id);
	struct tm_fastfmt *f = ev ? tm_fastfmt_compile(tep, ev, false) : NULL;
	uint8_t data[8 + 8 * 8];
	char *fast, *ref;
	int ok;

	TM_CHECK(f != NULL);
	if (!f)
		return 0;
	record(data, id, words, n);
	fast = fast_text(f, data, (uint32_t)(8 + 8 * n));
	ref = tep_text(tep, data, (uint32_t)(8 + 8 * n));
	ok = left ? !fast : fast && ref && !strcmp(fast, ref);
	tm_fastfmt_free(f);
	return verdict("event", id, ok, fast, ref);
}

/*
 * A learnt piece: the first record of a value goes to libtraceevent and
 * teaches its text; the next record of that value prints it, and its line
 * equals libtraceevent's.
 */
static int learns_text(struct tm_test *t, struct tep_handle *tep, uint32_t state, int32_t pid)
{
	struct tep_event *ev = tep_find_event(tep, 24);
	struct tm_fastfmt *f = ev ? tm_fastfmt_compile(tep, ev, false) : NULL;
	uint8_t data[32] = { 24, 0 };
	char *fast, *ref;
	int ok;

	TM_CHECK(f != NULL);
	if (!f)
		return 0;
	memcpy(data + 8, "bash", 5);
	memcpy(data + 24, &state, 4);
	memcpy(data + 28, &pid, 4);
	ref = tep_text(tep, data, sizeof(data));
	fast = fast_text(f, data, sizeof(data));
	ok = !fast && ref;	/* not known yet */
	free(fast);
	if (ref)
		f->ops->learn(f, data, sizeof(data), ref, strlen(ref));
	pid++;
	memcpy(data + 28, &pid, 4);
	free(ref);
	ref = tep_text(tep, data, sizeof(data));
	fast = fast_text(f, data, sizeof(data));
	ok = ok && fast && ref && !strcmp(fast, ref);
	tm_fastfmt_free(f);
	return verdict("prev_state", state, ok, fast, ref);
}

TM_TEST(print_fast_learns_one_field_texts_from_libtraceevent)
{
	struct tep_handle *tep = tep_alloc();
	const uint32_t states[] = { 0, 1, 2, 3, 0x100, 0x101, 0x40 };
	size_t i;

	TM_REQUIRE(tep);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	TM_REQUIRE(!tep_parse_event(tep, switch_fmt, strlen(switch_fmt), "sched"));
	for (i = 0; i < TM_ARRAY_SIZE(states); i++)
		TM_CHECK(learns_text(t, tep, states[i], 100 + (int32_t)i));
	tep_free(tep);
}

TM_TEST(print_fast_new_formats_print_libtraceevent_text)
{
	struct tep_handle *tep = tep_alloc();
	const uint64_t sys[] = { 59, 0x7fff627357c0, 0, 1, 0xffffffffffffffff, 0x10, 0xabc };
	const uint64_t sys_neg[] = { (uint64_t)-1, 0, 0, 0, 0, 0, 0 };
	const uint64_t work_in[] = { 0xffff8881020dd840, 0xffffffff81000123 };
	const uint64_t work_at[] = { 0xffff8881020dd840, 0xffffffff81000100 };
	const uint64_t work_mod[] = { 0x1, 0xffffffff81000200 };
	const uint64_t work_none[] = { 0xffff8881020dd840, 0x1000 };
	const uint64_t irq_yes[] = { 0x0000000100000019ULL };	/* irq 25, ret 1 */
	const uint64_t irq_no[] = { 0x000000000000001aULL };	/* irq 26, ret 0 */

	TM_REQUIRE(tep);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	TM_REQUIRE(!tep_parse_event(tep, sys_enter_fmt, strlen(sys_enter_fmt), "raw_syscalls"));
	TM_REQUIRE(!tep_parse_event(tep, work_fmt, strlen(work_fmt), "workqueue"));
	TM_REQUIRE(!tep_parse_event(tep, irq_exit_fmt, strlen(irq_exit_fmt), "irq"));
	TM_REQUIRE(!tep_parse_kallsyms(tep, ksyms));
	TM_CHECK(same_text(t, tep, 21, sys, 7, false));
	TM_CHECK(same_text(t, tep, 21, sys_neg, 7, false));
	TM_CHECK(same_text(t, tep, 22, work_in, 2, false));
	TM_CHECK(same_text(t, tep, 22, work_at, 2, false));
	TM_CHECK(same_text(t, tep, 22, work_mod, 2, false));
	TM_CHECK(same_text(t, tep, 22, work_none, 2, true));
	TM_CHECK(same_text(t, tep, 23, irq_yes, 1, false));
	TM_CHECK(same_text(t, tep, 23, irq_no, 1, false));
	tep_free(tep);
}
