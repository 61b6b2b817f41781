// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_print_funcgraph.c - function_graph through the printer, where the
 * fixture files cannot go: a flush between an entry and its return (stream),
 * a return on another CPU (3.1.6 merges it, current trace-cmd does not), a
 * record of another buffer in between, the markers of long durations; and
 * through the Chrome JSON output: an exit whose entry is not in the file, an
 * exit lost inside a call, the idle tasks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "util/internal.h"
#include "print/print-internal.h"
#include "events/tm-events.h"
#include "emit/tm-evout.h"
#include "emit/emit-internal.h"
#include "tm_test.h"

#define ID_ENTRY	11	/* the fixture snapshot's funcgraph_entry */
#define ID_EXIT		10	/* funcgraph_exit */
#define FN_ADDR		0xffffffff813a8620ULL	/* try_to_wake_up in the fixture's kallsyms */
#define REC_SIZE	40

struct fg_rec {
	uint8_t			data[REC_SIZE];
	struct tm_event_rec	ev;
};

static void fg_set(uint8_t *data, unsigned int off, unsigned int size, uint64_t v)
{
	memcpy(data + off, &v, size);	/* little-endian hosts only, as the fixtures */
}

/* An entry (ns 0) or return (ns: its duration) of FN_ADDR at depth 1, pid 7. */
static void fg_make(struct fg_rec *r, bool exit, uint64_t ns, int cpu, int buf)
{
	uint16_t id = exit ? ID_EXIT : ID_ENTRY;

	memset(r, 0, sizeof(*r));
	memcpy(r->data, &id, 2);
	fg_set(r->data, 4, 4, 7);
	fg_set(r->data, 8, 8, FN_ADDR);
	fg_set(r->data, 16, 4, 1);
	if (exit) {
		fg_set(r->data, 24, 8, 1000);
		fg_set(r->data, 32, 8, 1000 + ns);
	}
	r->ev.data = r->data;
	r->ev.size = exit ? 40 : 24;
	r->ev.cpu = cpu;
	r->ev.buffer = buf;
	r->ev.ts = 1000000000;
}

/* The fixture snapshot's formats with its kallsyms subset; NULL counts a failure. */
static struct tm_events *fg_events(struct tm_test *t)
{
	char dir[4096], ksyms[4096];
	struct tm_events *ev;

	snprintf(dir, sizeof(dir), "%s", tm_fixture("raw/tracefs-snapshot"));
	snprintf(ksyms, sizeof(ksyms), "%s", tm_fixture("raw/kallsyms.subset"));
	ev = tm_events_from_tracefs(dir, NULL, ksyms, false);
	if (!ev)
		t->failures++;
	return ev;
}

/*
 * The event texts (after "funcgraph_entry: " / "funcgraph_exit: ") of recs
 * printed in order, a flush before record flush_at (-1: none). malloc'd.
 */
static char *fg_print(struct tm_test *t, struct fg_rec *recs, int n, int flush_at,
		      enum tm_text_compat compat)
{
	struct tm_print_opts po = { .compat = compat };
	char *out = NULL, *line, *save = NULL, *body = NULL;
	size_t len = 0, blen = 0;
	struct tm_printer *p;
	struct tm_events *ev = fg_events(t);
	FILE *f, *bf;

	if (!ev)
		return strdup("");
	f = open_memstream(&out, &len);
	p = tm_printer_new(ev, &po, f);
	TM_CHECK(p != NULL);
	TM_CHECK(tm_printer_set_buffer(p, 1, "other", NULL) == 0);
	for (int i = 0; p && i < n; i++) {
		if (i == flush_at)
			TM_CHECK(tm_printer_flush(p) == 0);
		TM_CHECK(tm_printer_event(p, &recs[i].ev) == 0);
	}
	tm_printer_free(p);
	fclose(f);
	tm_events_free(ev);
	/* the texts only: the columns before them are not this test's */
	bf = open_memstream(&body, &blen);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *text = strstr(line, "funcgraph_e");

		fprintf(bf, "%s\n", text ? text + 22 : line);
	}
	fclose(bf);
	free(out);
	return body;
}

static void check_text(struct tm_test *t, char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "  got:\n%s  want:\n%s", got, want);
		t->failures++;
	}
	free(got);
}

TM_TEST(print_funcgraph_leaf_is_one_line)
{
	struct fg_rec r[2];

	fg_make(&r[0], false, 0, 0, 0);
	fg_make(&r[1], true, 5416, 0, 0);
	check_text(t, fg_print(t, r, 2, -1, TM_TEXT_TC31),
		   "  5.416 us   |    try_to_wake_up();\n");
}

TM_TEST(print_funcgraph_flush_before_return_leaves_entry_open)
{
	struct fg_rec r[2];

	fg_make(&r[0], false, 0, 0, 0);
	fg_make(&r[1], true, 5416, 0, 0);
	check_text(t, fg_print(t, r, 2, 1, TM_TEXT_TC31),
		   "             |    try_to_wake_up() {\n"
		   "  5.416 us   |    }\n");
}

TM_TEST(print_funcgraph_return_on_other_cpu_merges_only_in_31)
{
	struct fg_rec r[2];

	fg_make(&r[0], false, 0, 0, 0);
	fg_make(&r[1], true, 15000, 1, 0);
	check_text(t, fg_print(t, r, 2, -1, TM_TEXT_TC31),
		   "+ 15.000 us  |    try_to_wake_up();\n");
	check_text(t, fg_print(t, r, 2, -1, TM_TEXT_CURRENT),
		   "             |    try_to_wake_up() {\n"
		   "+ 15.000 us  |    }\n");
}

TM_TEST(print_funcgraph_other_buffer_between_keeps_order)
{
	struct fg_rec r[3];

	fg_make(&r[0], false, 0, 0, 0);
	fg_make(&r[1], true, 2000000, 0, 1);	/* buffer 1's own return: printed */
	fg_make(&r[2], true, 150000, 0, 0);
	check_text(t, fg_print(t, r, 3, -1, TM_TEXT_TC31),
		   "! 150.000 us |    try_to_wake_up();\n"
		   "# 2000.000 us |    }\n");
}

TM_TEST(print_funcgraph_markers_and_long_durations)
{
	struct fg_rec r[3];

	fg_make(&r[0], true, 1000000001, 0, 0);
	fg_make(&r[1], true, 12345678901234ULL, 0, 0);
	fg_make(&r[2], true, 10000, 0, 0);
	check_text(t, fg_print(t, r, 3, -1, TM_TEXT_TC31),
		   "$ 1000000 us |    }\n"
		   "$ 12345678901 us |    }\n"
		   "  10.000 us  |    }\n");
}

/* ---- Chrome JSON ---- */

/* fg_make's record of pid at depth, at ts. */
static void fg_make_at(struct fg_rec *r, bool exit, int pid, int depth, uint64_t ns, uint64_t ts)
{
	fg_make(r, exit, ns, 0, 0);
	fg_set(r->data, 4, 4, (uint64_t)pid);
	fg_set(r->data, 16, 4, (uint64_t)depth);
	r->ev.ts = ts;
}

/* The Chrome JSON document recs make, malloc'd. */
static char *fg_chrome(struct tm_test *t, struct fg_rec *recs, int n)
{
	struct tm_evout_info info = { .ncpus = 1, .cpu_slots = 1 };
	struct tm_events *ev = fg_events(t);
	struct tm_evout *o;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (!ev)
		return strdup("");
	info.tep = tm_events_tep(ev);
	f = open_memstream(&out, &len);
	o = tm_evout_chrome_new(f);
	TM_CHECK(o && tm_evout_begin(o, &info) == 0);
	for (int i = 0; o && i < n; i++)
		TM_CHECK(tm_evout_event(o, &recs[i].ev) == 0);
	TM_CHECK(o && tm_evout_end(o) == 0);
	tm_evout_free(o);
	fclose(f);
	tm_events_free(ev);
	return out;
}

static int count(const char *doc, const char *what)
{
	int n = 0;

	for (const char *p = doc; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

TM_TEST(chrome_funcgraph_exit_without_entry_is_x_of_kernel_duration)
{
	struct fg_rec r[1];
	char *doc;

	fg_make_at(&r[0], true, 7, 2, 5416, 1000000000);
	doc = fg_chrome(t, r, 1);
	TM_CHECK_INT(count(doc, "{\"ph\":\"X\",\"name\":\"try_to_wake_up\",\"cat\":\"funcgraph\","
			   "\"pid\":7,\"tid\":7,\"ts\":999994.584,\"dur\":5.416,"
			   "\"args\":{\"depth\":2,\"func\":\"0xffffffff813a8620\"}}"), 1);
	TM_CHECK_INT(count(doc, "\"ph\":\"E\""), 0);
	free(doc);
}

TM_TEST(chrome_funcgraph_lost_exit_closes_with_its_caller)
{
	struct fg_rec r[3];
	char *doc;

	fg_make_at(&r[0], false, 7, 0, 0, 1000);
	fg_make_at(&r[1], false, 7, 1, 0, 2000);	/* its exit lost */
	fg_make_at(&r[2], true, 7, 0, 3000, 4000);
	doc = fg_chrome(t, r, 3);
	TM_CHECK_INT(count(doc, "\"ph\":\"B\""), 2);
	/* both open calls end at the caller's exit */
	TM_CHECK_INT(count(doc, "{\"ph\":\"E\",\"name\":\"try_to_wake_up\",\"cat\":\"funcgraph\","
			   "\"pid\":7,\"tid\":7,\"ts\":4.000,\"args\":{}}"), 2);
	TM_CHECK_INT(count(doc, "\"ph\":\"X\",\"name\":\"try"), 0);
	free(doc);
}

TM_TEST(chrome_funcgraph_idle_tasks_keep_instants)
{
	struct fg_rec r[2];
	char *doc;

	fg_make_at(&r[0], false, 0, 0, 0, 1000);
	fg_make_at(&r[1], true, 0, 0, 500, 2000);
	doc = fg_chrome(t, r, 2);
	TM_CHECK_INT(count(doc, "\"cat\":\"funcgraph\""), 0);
	TM_CHECK_INT(count(doc, "{\"ph\":\"i\",\"name\":\"funcgraph_e"), 2);
	free(doc);
}
