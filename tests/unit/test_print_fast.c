// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_print_fast.c - the compiled print formats (print-fast.c) on events
 * made for the test: each form compiles, prints libtraceevent's own text of
 * the same record byte for byte (edge values included), leaves the values
 * it does not cover to libtraceevent, and through the printer a format whose
 * text stops matching libtraceevent's is turned off for good.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "util/internal.h"
#include "print/print-fast.h"
#include "print/print-internal.h"
#include "events/tm-events.h"
#include "trace/tm-trace.h"
#include "tm_test.h"

#define COMMON	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define ID_SYS_ENTER	901
#define ID_NUMBERS	902
#define ID_COND		903
#define ID_FUNC		904
#define ID_STATE	905
#define ID_MODES	906
#define ID_AMBIG	907
#define ID_HRT_START	908
#define ID_HRT_EXPIRE	909
#define ID_SCHED_SWITCH	372	/* the fixture snapshot's, with the sched plugin's handler */

#define STATE_MASK	"((((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) - 1)"

static const char *const formats[] = {
	"name: sys_enter\nID: 901\nformat:\n" COMMON
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], "
	"REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]\n",

	"name: numbers\nID: 902\nformat:\n" COMMON
	"\tfield:unsigned int u;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int i;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long l;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:long s;\toffset:24;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"x=%x X=%X lx=%lx w=%08lx d=%-6d| z=%05d u=%3u ld=%-4ld| "
	"llx=%llx h=%#x q=%.3d\", REC->u, REC->u, REC->l, REC->l, REC->i, REC->i, "
	"REC->u, REC->s, REC->l, REC->u, REC->i\n",

	"name: cond\nID: 903\nformat:\n" COMMON
	"\tfield:int ret;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:bool dead;\toffset:12;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned long mask;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"ret=%s dead=%-8s| mask=%s\", REC->ret ? \"handled\" : \"unhandled\", "
	"REC->dead ? \"true\" : \"false\", (unsigned long)REC->mask ? \"set\" : \"\"\n",

	"name: func\nID: 904\nformat:\n" COMMON
	"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"work %p: function %ps at %pS.\", REC->work, REC->function, REC->function\n",

	/* sched_switch without its plugin: "%s%s" of one field, learnt as one text */
	"name: state\nID: 905\nformat:\n" COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:long prev_state;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:int next_pid;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_state=%s%s ==> next_pid=%d\", REC->prev_comm, "
	"(REC->prev_state & " STATE_MASK ") ? __print_flags(REC->prev_state & " STATE_MASK
	", \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) ? \"+\" : \"\", "
	"REC->next_pid\n",

	/* hrtimer_setup's enum names and timer_start's flags: learnt per field */
	"name: modes\nID: 906\nformat:\n" COMMON
	"\tfield:int clockid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int mode;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"clockid=%s mode=%s flags=%s cpu=%u\", __print_symbolic(REC->clockid, "
	"{ 0, \"CLOCK_REALTIME\" }, { 1, \"CLOCK_MONOTONIC\" }), __print_symbolic(REC->mode, "
	"{ HRTIMER_MODE_ABS, \"ABS\" }, { HRTIMER_MODE_REL, \"REL\" }), "
	"__print_flags(REC->flags & (0x00040000 | 0x00080000), \"|\", { 0x00040000, \"M\" }, "
	"{ 0x00080000, \"D\" }), REC->flags & 0x0003FFFF\n",

	/* the first text can hold the literal after it: " b=" */
	"name: ambig\nID: 907\nformat:\n" COMMON
	"\tfield:unsigned int x;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int y;\toffset:12;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"a=%s b=%s\", __print_flags(REC->x, \" b=\", { 1, \"one\" }, { 2, \"two\" }), "
	"__print_flags(REC->y, \"|\", { 1, \"Y\" })\n",
};

/* The hrtimer plugin's events, in their own system (its handlers go by system and name). */
static const char *const timer_formats[] = {
	"name: hrtimer_start\nID: 908\nformat:\n" COMMON
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 softexpires;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:enum hrtimer_mode mode;\toffset:40;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"hrtimer=%p function=%ps expires=%llu softexpires=%llu mode=%s\", "
	"REC->hrtimer, REC->function, (unsigned long long) REC->expires, "
	"(unsigned long long) REC->softexpires, __print_symbolic(REC->mode, "
	"{ HRTIMER_MODE_ABS, \"ABS\" }, { HRTIMER_MODE_REL, \"REL\" })\n",

	"name: hrtimer_expire_entry\nID: 909\nformat:\n" COMMON
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, "
	"(unsigned long long) REC->now\n",
};

/* A function whose plugin text ("name/0x...") would not fit the plugin's 128 bytes. */
#define LONG_FN_ADDR	0xffffffff821f9600ULL

#define REC_SIZE	64

/* The fixture snapshot's events plus the ones above. */
static struct tm_events *test_events(struct tm_test *t, bool no_plugins)
{
	char dir[4096], ksyms[4096];
	struct tep_event *e;
	struct tm_events *ev;
	size_t i;

	snprintf(dir, sizeof(dir), "%s", tm_fixture("raw/tracefs-snapshot"));
	snprintf(ksyms, sizeof(ksyms), "%s", tm_fixture("raw/kallsyms.subset"));
	ev = tm_events_from_tracefs(dir, NULL, ksyms, no_plugins);
	if (!ev)
		return NULL;
	for (i = 0; i < TM_ARRAY_SIZE(formats); i++)
		TM_CHECK(tep_parse_format(tm_events_tep(ev), &e, formats[i], strlen(formats[i]),
					  "fast") == TEP_ERRNO__SUCCESS);
	for (i = 0; i < TM_ARRAY_SIZE(timer_formats); i++)
		TM_CHECK(tep_parse_format(tm_events_tep(ev), &e, timer_formats[i],
					  strlen(timer_formats[i]), "timer") == TEP_ERRNO__SUCCESS);
	TM_CHECK(tep_register_function(tm_events_tep(ev), (char *)"a_function_whose_name_is_"
		 "far_too_long_for_the_hrtimer_plugins_one_hundred_and_twenty_eight_byte_buffer",
		 LONG_FN_ADDR, NULL) == 0);
	return ev;
}

/* A record of event id: common header (pid 1) and size payload bytes set later. */
static void rec_init(uint8_t *data, uint16_t id)
{
	memset(data, 0, REC_SIZE);
	memcpy(data, &id, 2);
	data[4] = 1;
}

static void rec_set(uint8_t *data, unsigned int off, unsigned int size, uint64_t v)
{
	memcpy(data + off, &v, size);	/* little-endian hosts only, as the fixtures */
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

/* The compiled text of a record, or NULL when it is left to libtraceevent. */
static char *fast_text(struct tm_fastfmt *f, const uint8_t *data, uint32_t size)
{
	struct tm_buf b = { 0 };

	if (f->ops->render(f, &b, data, size) || tm_buf_reserve(&b, 1)) {
		free(b.text);
		return NULL;
	}
	b.text[b.len] = '\0';
	return b.text;
}

/* The compiled text equals libtraceevent's (declined: only when may_decline). */
static void check_same(struct tm_test *t, struct tm_fastfmt *f, struct tep_handle *tep,
		       const uint8_t *data, bool may_decline)
{
	char *fast = fast_text(f, data, REC_SIZE), *ref = tep_text(tep, data, REC_SIZE);

	if (fast ? strcmp(fast, ref) != 0 : !may_decline) {
		fprintf(stderr, "  compiled \"%s\"\n  libtraceevent \"%s\"\n",
			fast ? fast : "(declined)", ref);
		t->failures++;
	}
	free(fast);
	free(ref);
}

static struct tm_fastfmt *compile(struct tep_handle *tep, int id)
{
	struct tep_event *e = tep_find_event(tep, id);

	return e ? tm_fastfmt_compile(tep, e, false) : NULL;
}

TM_TEST(print_fast_array_elements_print_as_libtraceevent)
{
	static const uint64_t vals[] = { 0, 1, 0x7ffc159d1320, UINT64_MAX, 0x8000000000000000 };
	struct tm_events *ev = test_events(t, true);
	struct tep_handle *tep = ev ? tm_events_tep(ev) : NULL;
	struct tm_fastfmt *f = tep ? compile(tep, ID_SYS_ENTER) : NULL;
	uint8_t data[REC_SIZE];
	size_t i, a;

	TM_REQUIRE(f);
	for (i = 0; i < TM_ARRAY_SIZE(vals); i++) {
		rec_init(data, ID_SYS_ENTER);
		rec_set(data, 8, 8, i == 3 ? (uint64_t)-2 : vals[i]);
		for (a = 0; a < 6; a++)
			rec_set(data, 16 + 8 * (unsigned int)a, 8, vals[(i + a) % 5]);
		check_same(t, f, tep, data, false);
	}
	tm_fastfmt_free(f);
	tm_events_free(ev);
}

TM_TEST(print_fast_numbers_with_width_and_flags_print_as_libtraceevent)
{
	static const uint64_t vals[] = {
		0, 1, 9, 12345, 0x7fffffff, 0x80000000, 0xffffffff, UINT64_MAX, 0xdeadbeefcafe,
	};
	struct tm_events *ev = test_events(t, true);
	struct tep_handle *tep = ev ? tm_events_tep(ev) : NULL;
	struct tm_fastfmt *f = tep ? compile(tep, ID_NUMBERS) : NULL;
	uint8_t data[REC_SIZE];
	size_t i;

	TM_REQUIRE(f);
	for (i = 0; i < TM_ARRAY_SIZE(vals); i++) {
		rec_init(data, ID_NUMBERS);
		rec_set(data, 8, 4, vals[i]);
		rec_set(data, 12, 4, vals[(i + 3) % TM_ARRAY_SIZE(vals)]);
		rec_set(data, 16, 8, vals[(i + 5) % TM_ARRAY_SIZE(vals)]);
		rec_set(data, 24, 8, (uint64_t)0 - vals[i]);
		check_same(t, f, tep, data, false);
	}
	tm_fastfmt_free(f);
	tm_events_free(ev);
}

TM_TEST(print_fast_conditions_print_as_libtraceevent)
{
	static const uint64_t vals[] = { 0, 1, 0x80, 0xff00, 0x80000000, 0x100000000, UINT64_MAX };
	struct tm_events *ev = test_events(t, true);
	struct tep_handle *tep = ev ? tm_events_tep(ev) : NULL;
	struct tm_fastfmt *f = tep ? compile(tep, ID_COND) : NULL;
	uint8_t data[REC_SIZE];
	size_t i;

	TM_REQUIRE(f);
	for (i = 0; i < TM_ARRAY_SIZE(vals); i++) {
		rec_init(data, ID_COND);
		rec_set(data, 8, 4, vals[i]);
		rec_set(data, 12, 1, vals[(i + 1) % TM_ARRAY_SIZE(vals)]);
		rec_set(data, 16, 8, vals[(i + 2) % TM_ARRAY_SIZE(vals)]);
		check_same(t, f, tep, data, false);
	}
	tm_fastfmt_free(f);
	tm_events_free(ev);
}

/* Functions by the fixture's trimmed kallsyms; addresses outside them go to libtraceevent. */
TM_TEST(print_fast_function_names_print_as_libtraceevent)
{
	static const uint64_t addrs[] = {
		0xffffffff813a8620, 0xffffffff813a8631, 0xffffffff81000000, 0xffffffff81000005,
		0xffffffff821f94a0, 0xffffffff821f9500, 0xffffffff81498a90 + 0x170,
	};
	static const uint64_t unnamed[] = { 0x1000, 0xffffffff80000000 };
	struct tm_events *ev = test_events(t, true);
	struct tep_handle *tep = ev ? tm_events_tep(ev) : NULL;
	struct tm_fastfmt *f = tep ? compile(tep, ID_FUNC) : NULL;
	uint8_t data[REC_SIZE];
	char *text;
	size_t i;

	TM_REQUIRE(f);
	for (i = 0; i < TM_ARRAY_SIZE(addrs) + TM_ARRAY_SIZE(unnamed); i++) {
		rec_init(data, ID_FUNC);
		rec_set(data, 8, 8, 0xffff888627c2c468 + i);
		rec_set(data, 16, 8, i < TM_ARRAY_SIZE(addrs) ? addrs[i] :
			unnamed[i - TM_ARRAY_SIZE(addrs)]);
		check_same(t, f, tep, data, i >= TM_ARRAY_SIZE(addrs));
		text = fast_text(f, data, REC_SIZE);
		TM_CHECK((text != NULL) == (i < TM_ARRAY_SIZE(addrs)));
		free(text);
	}
	tm_fastfmt_free(f);
	tm_events_free(ev);
}

/*
 * A record through the compiled format as the printer does it: compiled
 * text, or libtraceevent's which the format may learn from. Returns whether
 * the compiled format printed it; the text must be libtraceevent's either way.
 */
static bool print_learning(struct tm_test *t, struct tm_fastfmt *f, struct tep_handle *tep,
			   const uint8_t *data)
{
	char *fast = fast_text(f, data, REC_SIZE), *ref = tep_text(tep, data, REC_SIZE);
	bool compiled = fast != NULL;

	if (fast && strcmp(fast, ref)) {
		fprintf(stderr, "  compiled \"%s\"\n  libtraceevent \"%s\"\n", fast, ref);
		t->failures++;
	}
	if (!fast)
		f->ops->learn(f, data, REC_SIZE, ref, strlen(ref));
	free(fast);
	free(ref);
	return compiled;
}

static void state_rec(uint8_t *data, uint64_t state)
{
	rec_init(data, ID_STATE);
	memcpy(data + 8, "bash", 5);
	rec_set(data, 24, 8, state);
	rec_set(data, 32, 4, 4242);
}

/* A new value goes to libtraceevent once, then prints from the text it taught. */
TM_TEST(print_fast_learnt_texts_print_as_libtraceevent)
{
	static const uint64_t states[] = { 0, 1, 2, 3, 8, 9, 0x20, 0x29, UINT64_MAX };
	struct tm_events *ev = test_events(t, true);
	struct tep_handle *tep = ev ? tm_events_tep(ev) : NULL;
	struct tm_fastfmt *f = tep ? compile(tep, ID_STATE) : NULL;
	uint8_t data[REC_SIZE];
	size_t i;

	TM_REQUIRE(f);
	for (i = 0; i < TM_ARRAY_SIZE(states); i++) {
		state_rec(data, states[i]);
		TM_CHECK(!print_learning(t, f, tep, data));
		TM_CHECK(print_learning(t, f, tep, data));
		data[8] = 'z';	/* the other pieces still print */
		rec_set(data, 32, 4, (uint64_t)-1);
		TM_CHECK(print_learning(t, f, tep, data));
	}
	tm_fastfmt_free(f);
	tm_events_free(ev);
}

static void modes_rec(uint8_t *data, uint32_t clockid, uint32_t mode, uint32_t flags)
{
	rec_init(data, ID_MODES);
	rec_set(data, 8, 4, clockid);
	rec_set(data, 12, 4, mode);
	rec_set(data, 16, 4, flags);
}

/*
 * Several new values in one line: the first is learnt when the literal after
 * it occurs once in the rest of the line, the others from later records.
 */
TM_TEST(print_fast_several_new_values_are_learnt_one_by_one)
{
	struct tm_events *ev = test_events(t, true);
	struct tep_handle *tep = ev ? tm_events_tep(ev) : NULL;
	struct tm_fastfmt *f = tep ? compile(tep, ID_MODES) : NULL;
	struct tm_fastfmt *g = tep ? compile(tep, ID_AMBIG) : NULL;
	uint8_t data[REC_SIZE];
	int i;

	TM_REQUIRE(f && g);
	modes_rec(data, 1, 9, 0x00080000 | 35);
	for (i = 0; i < 3; i++)
		TM_CHECK(!print_learning(t, f, tep, data));
	TM_CHECK(print_learning(t, f, tep, data));
	modes_rec(data, 7, 9, 0x00040000);	/* an unnamed clock: libtraceevent's 0x7 */
	TM_CHECK(!print_learning(t, f, tep, data));
	TM_CHECK(!print_learning(t, f, tep, data));
	TM_CHECK(print_learning(t, f, tep, data));
	/* "a=one b=two b=Y": x's text is not certain while y is new too */
	rec_init(data, ID_AMBIG);
	rec_set(data, 8, 4, 3);
	rec_set(data, 12, 4, 1);
	TM_CHECK(!print_learning(t, g, tep, data));
	TM_CHECK(!print_learning(t, g, tep, data));
	rec_set(data, 8, 4, 1);
	TM_CHECK(!print_learning(t, g, tep, data));	/* learns x=1 */
	TM_CHECK(!print_learning(t, g, tep, data));	/* learns y=1 */
	TM_CHECK(print_learning(t, g, tep, data));
	rec_set(data, 8, 4, 3);
	TM_CHECK(!print_learning(t, g, tep, data));	/* x=3 alone: "one b=two" */
	TM_CHECK(print_learning(t, g, tep, data));
	tm_fastfmt_free(f);
	tm_fastfmt_free(g);
	tm_events_free(ev);
}

/* A plugin-like handler registered mid-run: libtraceevent's text changes under the printer. */
static int other_text(struct trace_seq *s, struct tep_record *r, struct tep_event *e, void *ctx)
{
	(void)r;
	(void)e;
	(void)ctx;
	return trace_seq_puts(s, "other text");
}

/*
 * The lines of n records printed by a fresh printer (compiled formats, or
 * libtraceevent only); from record switch_at on, event id has other_text as
 * its handler.
 */
static char *print_all(struct tm_test *t, bool tep_only, uint8_t (*recs)[REC_SIZE], int n,
		       int switch_at, int id, bool plugins)
{
	struct tm_print_opts opts = { .tep_only = tep_only, .compat = TM_TEXT_TC31 };
	struct tm_events *ev = test_events(t, !plugins);
	struct tm_event_rec rec = { .size = REC_SIZE };
	struct tm_printer *p = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int i;

	if (ev && f)
		p = tm_printer_new(ev, &opts, f);
	for (i = 0; p && i < n; i++) {
		if (i == switch_at)
			tep_register_event_handler(tm_events_tep(ev), id, NULL, NULL, other_text,
						   NULL);
		rec.ts = 1000000000ULL + (uint64_t)i * 1000;
		rec.data = recs[i];
		TM_CHECK(tm_printer_event(p, &rec) == 0);
	}
	if (p)
		TM_CHECK(tm_printer_flush(p) == 0);
	tm_printer_free(p);
	if (f)
		fclose(f);
	tm_events_free(ev);
	return out;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; s && (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* Records of event id among n. */
static size_t count_id(uint8_t (*recs)[REC_SIZE], int n, int id)
{
	size_t c = 0;
	uint16_t type;
	int i;

	for (i = 0; i < n; i++) {
		memcpy(&type, recs[i], 2);
		c += type == id;
	}
	return c;
}

/*
 * Through the printer: the same lines as libtraceevent's, past the checks
 * (more than 256 records) too; and when libtraceevent's text changes during
 * the checks, the compiled format gives way and every later line is its.
 */
static void check_printer(struct tm_test *t, uint8_t (*recs)[REC_SIZE], int n, int id,
			  bool plugins)
{
	char *fast = print_all(t, false, recs, n, -1, id, plugins);
	char *ref = print_all(t, true, recs, n, -1, id, plugins);

	TM_REQUIRE(fast && ref);
	TM_CHECK(n > 256 && strlen(fast) > 0);
	TM_CHECK(!strcmp(fast, ref));
	free(fast);
	free(ref);
	fast = print_all(t, false, recs, n, 100, id, plugins);
	ref = print_all(t, true, recs, n, 100, id, plugins);
	TM_REQUIRE(fast && ref);
	TM_CHECK(!strcmp(fast, ref));
	TM_CHECK_INT(count(fast, "other text"), count_id(recs + 100, n - 100, id));
	free(fast);
	free(ref);
}

TM_TEST(print_fast_forms_through_the_printer)
{
	static const int ids[] = {
		ID_SYS_ENTER, ID_NUMBERS, ID_COND, ID_FUNC, ID_STATE, ID_MODES, ID_AMBIG,
	};
	static uint8_t recs[300][REC_SIZE];
	int i;

	for (i = 0; i < 300; i++) {
		rec_init(recs[i], (uint16_t)ids[i % TM_ARRAY_SIZE(ids)]);
		rec_set(recs[i], 8, 8, (uint64_t)i * 0x10001);
		rec_set(recs[i], 16, 8, 0xffffffff813a8620 + (uint64_t)i * 0x4000);
		rec_set(recs[i], 24, 8, (uint64_t)-i);
		rec_set(recs[i], 56, 8, (uint64_t)i);
		if (ids[i % TM_ARRAY_SIZE(ids)] == ID_STATE)
			state_rec(recs[i], (uint64_t)i % 17);
		if (ids[i % TM_ARRAY_SIZE(ids)] == ID_MODES)
			modes_rec(recs[i], i % 3, i % 4, (uint32_t)i << 16 | (i % 2));
		if (ids[i % TM_ARRAY_SIZE(ids)] == ID_AMBIG)
			rec_set(recs[i], 8, 8, (uint64_t)(i % 4) << 32 | (i % 3));
	}
	for (i = 0; i < (int)TM_ARRAY_SIZE(ids); i++)
		check_printer(t, recs, 300, ids[i], false);
}

/* A sched_switch from bash to swapper/0. */
static void switch_rec(uint8_t *data, uint64_t state)
{
	rec_init(data, ID_SCHED_SWITCH);
	memcpy(data + 8, "bash", 5);
	rec_set(data, 24, 4, 4242);
	rec_set(data, 28, 4, 120);
	rec_set(data, 32, 8, state);
	memcpy(data + 40, "swapper/0", 10);
	rec_set(data, 60, 4, 120);
}

/*
 * A value first seen long after the checks: the text learnt from
 * libtraceevent's line for it (record 600) is checked the first time the
 * compiled format prints it (601). libtraceevent's text changed in between,
 * so the format gives way, and every later line is libtraceevent's.
 */
static void check_learnt_late(struct tm_test *t, void (*set)(uint8_t *, uint64_t), int id,
			      bool plugins)
{
	static uint8_t recs[700][REC_SIZE];
	char *fast, *ref;
	int i;

	for (i = 0; i < 700; i++)
		set(recs[i], i < 600 ? 1 : 2);
	fast = print_all(t, false, recs, 700, 601, id, plugins);
	ref = print_all(t, true, recs, 700, 601, id, plugins);
	TM_REQUIRE(fast && ref);
	TM_CHECK(!strcmp(fast, ref));
	TM_CHECK_INT(count(fast, "other text"), 99);
	free(fast);
	free(ref);
}

TM_TEST(print_fast_text_learnt_after_the_checks_is_checked_once)
{
	check_learnt_late(t, state_rec, ID_STATE, false);
	/* the sched plugin's prev_state texts (print-sched.c) */
	check_learnt_late(t, switch_rec, ID_SCHED_SWITCH, true);
}

static void hrtimer_rec(uint8_t *data, int id, uint64_t timer, uint64_t fn, uint64_t t)
{
	rec_init(data, (uint16_t)id);
	rec_set(data, 8, 8, timer);
	rec_set(data, id == ID_HRT_START ? 16 : 24, 8, fn);
	rec_set(data, id == ID_HRT_START ? 24 : 16, 8, t);
	rec_set(data, 32, 8, t + 50000);
	rec_set(data, 40, 4, 9);
}

/*
 * With plugins, hrtimer_start and hrtimer_expire_entry print the hrtimer
 * plugin's text; an address without a function, or one whose text the
 * plugin would cut, is left to libtraceevent.
 */
TM_TEST(print_fast_hrtimer_plugin_text_prints_as_libtraceevent)
{
	static const uint64_t fns[] = {
		0xffffffff813a8620, 0xffffffff813a8631, 0xffffffff81000000, 0xffffffff821f94a8,
	};
	static const uint64_t declined[] = { 0x1000, LONG_FN_ADDR + 8 };
	static const int ids[] = { ID_HRT_START, ID_HRT_EXPIRE };
	struct tm_events *ev = test_events(t, false);
	struct tep_handle *tep = ev ? tm_events_tep(ev) : NULL;
	struct tm_fastfmt *f;
	uint8_t data[REC_SIZE];
	size_t i, k;
	uint64_t fn;
	char *text;

	TM_REQUIRE(tep);
	for (k = 0; k < TM_ARRAY_SIZE(ids); k++) {
		TM_CHECK(tep_find_event(tep, ids[k])->handler != NULL);
		f = tm_hrtimerfmt_compile(tep, tep_find_event(tep, ids[k]), false);
		TM_REQUIRE(f);
		for (i = 0; i < TM_ARRAY_SIZE(fns) + TM_ARRAY_SIZE(declined); i++) {
			fn = i < TM_ARRAY_SIZE(fns) ? fns[i] : declined[i - TM_ARRAY_SIZE(fns)];
			hrtimer_rec(data, ids[k], 0xffff888627c2c468 + i * 8, fn, 432156054082 + i);
			check_same(t, f, tep, data, i >= TM_ARRAY_SIZE(fns));
			text = fast_text(f, data, REC_SIZE);
			TM_CHECK((text != NULL) == (i < TM_ARRAY_SIZE(fns)));
			/* the plugin's text, not the print format's */
			TM_CHECK(i || (text && strstr(text, " function=try_to_wake_up/0x0")));
			free(text);
		}
		tm_fastfmt_free(f);
	}
	tm_events_free(ev);
}

TM_TEST(print_fast_hrtimer_plugin_through_the_printer)
{
	static uint8_t recs[300][REC_SIZE];
	int i;

	for (i = 0; i < 300; i++)
		hrtimer_rec(recs[i], i % 2 ? ID_HRT_START : ID_HRT_EXPIRE, (uint64_t)i * 0x40,
			    0xffffffff813a8620 + (uint64_t)i * 0x4000, 1000000 + (uint64_t)i);
	check_printer(t, recs, 300, ID_HRT_START, true);
	check_printer(t, recs, 300, ID_HRT_EXPIRE, true);
	/* without plugins, the print formats (%ps, enum names learnt) */
	check_printer(t, recs, 300, ID_HRT_START, false);
	check_printer(t, recs, 300, ID_HRT_EXPIRE, false);
}
