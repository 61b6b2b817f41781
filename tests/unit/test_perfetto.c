// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_perfetto.c - what Perfetto's importer needs of the Perfetto output's
 * clock pairs where the fixtures cannot show it: two buffers whose first
 * bundles start at the same time still give two distinct pairs (Perfetto
 * skips a pair equal to the last one it took, on any sequence), and the
 * names of the ProcessTree's tasks, task_rename without its pid field.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "util/internal.h"
#include "emit/tm-evout.h"
#include "emit/emit-internal.h"
#include "trace.pb-c.h"
#include "tm_test.h"
#include "dat/dat-internal.h"
#include "emit/perfetto.h"
#include "util/buf.h"
#include "trace/tm-trace.h"
#include "dat/tm-dat.h"
#include "events/tm-events.h"

/*
 * Hands a file's records to the Perfetto output with the instance buffer's
 * times moved by shift, and notes each buffer's first CPU 0 time.
 */
struct shift_output {
	struct tm_evout		base;
	struct tm_evout		*to;
	int64_t			shift;
	uint64_t		first[2];	/* first CPU 0 time of buffers 0 and 1 */
};

static struct shift_output *to_shift(struct tm_evout *out)
{
	return (struct shift_output *)out;
}

static int shift_begin(struct tm_evout *out, const struct tm_evout_info *info)
{
	return tm_evout_begin(to_shift(out)->to, info);
}

static int shift_event(struct tm_evout *out, const struct tm_event_rec *rec)
{
	struct shift_output *s = to_shift(out);
	struct tm_event_rec r = *rec;

	if (r.cpu == 0 && r.buffer < 2 && !s->first[r.buffer])
		s->first[r.buffer] = r.ts;
	if (r.buffer == 1)
		r.ts = (uint64_t)((int64_t)r.ts + s->shift);
	return tm_evout_event(s->to, &r);
}

static int shift_lost(struct tm_evout *out, int buf, int cpu, int64_t missed)
{
	return tm_evout_lost(to_shift(out)->to, buf, cpu, missed);
}

static int shift_end(struct tm_evout *out)
{
	return tm_evout_end(to_shift(out)->to);
}

static void shift_free(struct tm_evout *out)
{
	tm_evout_free(to_shift(out)->to);
}

static const struct tm_evout_ops shift_ops = {
	.begin = shift_begin, .event = shift_event, .lost = shift_lost,
	.end = shift_end, .free = shift_free,
};

/* multi-v7-zstd.dat as a Perfetto trace in memory, the instance moved by shift. */
static Perfetto__Protos__Trace *convert_shifted(struct tm_test *t, int64_t shift,
						uint64_t first[2])
{
	struct shift_output s = { .base.ops = &shift_ops, .shift = shift };
	Perfetto__Protos__Trace *trace = NULL;
	struct tm_run_opts run = { 0 };
	struct tm_events *ev = NULL;
	struct tm_dat *dat;
	char *mem = NULL;
	size_t len = 0;
	FILE *f;

	dat = tm_dat_open(tm_fixture("multi-v7-zstd.dat"));
	f = open_memstream(&mem, &len);
	if (dat)
		ev = tm_events_from_dat(dat, true, NULL, NULL);
	s.to = f ? tm_evout_perfetto_new(f) : NULL;
	TM_CHECK(dat && f && ev && s.to);
	if (dat && ev && s.to)
		TM_CHECK_INT(tm_evout_run_dat(&s.base, dat, tm_events_tep(ev), &run), 0);
	if (f && !fclose(f))
		trace = perfetto__protos__trace__unpack(NULL, len, (uint8_t *)mem);
	TM_CHECK(trace);
	first[0] = s.first[0];
	first[1] = s.first[1];
	if (s.to)
		shift_free(&s.base);
	tm_events_free(ev);
	tm_dat_close(dat);
	free(mem);
	return trace;
}

TM_TEST(perfetto_two_sequences_starting_together_get_distinct_clock_pairs)
{
	Perfetto__Protos__FtraceEventBundle *b;
	Perfetto__Protos__Trace *trace;
	int64_t pairs[8], seq_of[8], offs[8];
	uint64_t first[2], min_ts[2] = { UINT64_MAX, UINT64_MAX };
	size_t i, j, n = 0;

	/* a first run finds where each buffer starts, the second aligns them */
	trace = convert_shifted(t, 0, first);
	perfetto__protos__trace__free_unpacked(trace, NULL);
	TM_REQUIRE(first[0] && first[1]);
	trace = convert_shifted(t, (int64_t)(first[0] - first[1]), first);
	TM_REQUIRE(trace);
	for (i = 0; i < trace->n_packet; i++) {
		if (trace->packet[i]->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS)
			continue;
		b = trace->packet[i]->ftrace_events;
		for (j = 0; j < b->n_event && trace->packet[i]->trusted_packet_sequence_id - 1 < 2;
		     j++) {
			uint64_t *m = &min_ts[trace->packet[i]->trusted_packet_sequence_id - 1];

			if (b->event[j]->timestamp < *m)
				*m = b->event[j]->timestamp;
		}
		if (!b->has_ftrace_timestamp)
			continue;
		TM_CHECK(b->has_boot_timestamp);
		if (n < TM_ARRAY_SIZE(pairs)) {
			seq_of[n] = trace->packet[i]->trusted_packet_sequence_id;
			offs[n] = b->boot_timestamp - b->ftrace_timestamp;
			pairs[n++] = b->ftrace_timestamp;
		}
	}
	/* one pair per sequence; the instance's would repeat the top's unless moved on */
	TM_REQUIRE(n == 2);
	TM_CHECK_INT(seq_of[0], 1);
	TM_CHECK_INT(seq_of[1], 2);
	/* each sequence's clock counts from its first record, at boot time offs */
	TM_CHECK(min_ts[0] == 0 && min_ts[1] == 0);
	TM_CHECK(offs[0] > 0 && offs[0] <= (int64_t)first[0]);
	TM_CHECK(offs[1] > 0);
	TM_CHECK(pairs[1] != pairs[0]);
	TM_CHECK(pairs[0] != 0 && pairs[1] != 0);
	perfetto__protos__trace__free_unpacked(trace, NULL);
}

/* The name the task table gives pid, "" when it has none, NULL when pid is not listed. */
static const char *task_name(const struct tm_pf_tasks *tasks, int32_t pid)
{
	const char *comm;
	int32_t p;
	size_t i = 0;

	while (tm_pf_tasks_at(tasks, &i, &p, &comm))
		if (p == pid)
			return comm;
	return NULL;
}

TM_TEST(perfetto_task_names_from_events_outrank_saved_cmdlines)
{
	static const char cmdlines[] = "5 old\n7 seven\n8 eight\n";
	struct tm_pf_tasks *tasks = tm_pf_tasks_new();

	TM_REQUIRE(tasks);
	/* pid 5 runs as "new" (exec'd since its saved cmdline), then idle 0 runs */
	TM_CHECK_INT(tm_pf_tasks_see(tasks, 5, NULL), 0);
	TM_CHECK_INT(tm_pf_tasks_see(tasks, 5, "new"), 0);
	TM_CHECK_INT(tm_pf_tasks_see(tasks, 0, "swapper/0"), 0);
	/* pid 7 only as the common pid of an event without names */
	TM_CHECK_INT(tm_pf_tasks_see(tasks, 7, NULL), 0);
	tm_pf_tasks_cmdlines(tasks, cmdlines, sizeof(cmdlines) - 1);
	TM_CHECK_INT(tm_pf_tasks_count(tasks), 2);
	TM_CHECK_STR(task_name(tasks, 5), "new");
	TM_CHECK_STR(task_name(tasks, 7), "seven");
	TM_CHECK(!task_name(tasks, 8));	/* a saved cmdline no event mentions */
	TM_CHECK(!task_name(tasks, 0));	/* the idle task: Perfetto names it */
	tm_pf_tasks_free(tasks);
}

/* task_rename as kernels without its pid field write it. */
static const char rename_format[] =
	"name: task_rename\nID: 77\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char oldcomm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:char newcomm[16];\toffset:24;\tsize:16;\tsigned:0;\n"
	"\tfield:short oom_score_adj;\toffset:40;\tsize:2;\tsigned:1;\n\n"
	"print fmt: \"oldcomm=%s newcomm=%s oom_score_adj=%hd\", REC->oldcomm, "
	"REC->newcomm, REC->oom_score_adj\n";

TM_TEST(perfetto_task_rename_without_pid_field_renames_the_common_pid)
{
	struct tep_handle *tep = tep_alloc();
	struct tm_event_rec rec = { .ts = 1000 };
	Perfetto__Protos__FtraceEvent *fe = NULL;
	struct tm_pf_tasks *tasks = tm_pf_tasks_new();
	struct tm_pf_events *m = NULL;
	struct tm_pf_desc *desc = NULL;
	struct tm_buf b = { 0 };
	uint8_t data[44] = { 0 };
	uint16_t id = 77;
	int32_t pid = 4242;

	TM_REQUIRE(tep);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	TM_CHECK(!tep_parse_event(tep, rename_format, strlen(rename_format), "task"));
	memcpy(data, &id, sizeof(id));
	memcpy(data + 4, &pid, sizeof(pid));
	memcpy(data + 8, "old", 3);
	memcpy(data + 24, "new", 3);
	rec.data = data;
	rec.size = sizeof(data);
	m = tasks ? tm_pf_events_new(tep, tasks, (struct tm_blob){ .data = "" }) : NULL;
	/* one FtraceEventBundle.event field: tag 0x12, a one-byte length, the event */
	if (m && !tm_pf_event_put(m, &rec, rec.ts, &b, &desc, NULL) && b.len > 2 && b.data[0] == 0x12 &&
	    b.data[1] == b.len - 2)
		fe = perfetto__protos__ftrace_event__unpack(NULL, b.len - 2, b.data + 2);
	TM_REQUIRE(fe);
	TM_CHECK(!desc);
	/* the timestamp, 1000, is the event's last field: 0x08 0xe8 0x07 */
	TM_CHECK(fe->has_timestamp && fe->timestamp == 1000);
	TM_CHECK(b.data[b.len - 3] == 0x08 && b.data[b.len - 2] == 0xe8 &&
		 b.data[b.len - 1] == 0x07);
	TM_CHECK_STR(task_name(tasks, 4242), "new");
	TM_CHECK_INT(fe->event_case, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME);
	if (fe->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME) {
		TM_CHECK(fe->task_rename->has_pid);
		TM_CHECK_INT(fe->task_rename->pid, 4242);
		TM_CHECK_STR(fe->task_rename->newcomm, "new");
	}
	perfetto__protos__ftrace_event__free_unpacked(fe, NULL);
	tm_buf_free(&b);
	tm_pf_events_free(m);
	tm_pf_tasks_free(tasks);
	tep_free(tep);
}

/*
 * An event of 32 fields (too many to describe: a GenericFtraceEvent) whose
 * first is a `const char *` into the kernel: its text from the printk
 * formats, an unknown address as its hex digits, the other fields numbers.
 */
static const char wide_head[] =
	"name: wide\nID: 78\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n";
static const char wide_tail[] = "\nprint fmt: \"%s\", REC->s\n";

static void kstr_generic_case(struct tm_test *t, uint64_t addr, const char *want)
{
	static const char printk[] = "0xffffffff8281a5a4 : \"Start context switch\"\n";
	struct tep_handle *tep = tep_alloc();
	struct tm_pf_tasks *tasks = tm_pf_tasks_new();
	struct tm_event_rec rec = { .ts = 1000 };
	Perfetto__Protos__FtraceEvent *fe = NULL;
	struct tm_pf_events *m = NULL;
	struct tm_pf_desc *desc = NULL;
	struct tm_buf fmt = { 0 }, b = { 0 };
	uint8_t data[16 + 31 * 4] = { 0 };
	uint16_t id = 78;
	char line[128];

	TM_REQUIRE(tep && tasks);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tm_buf_put(&fmt, wide_head, sizeof(wide_head) - 1);
	for (int i = 0; i < 31; i++) {
		snprintf(line, sizeof(line), "\tfield:int f%d;\toffset:%d;\tsize:4;\tsigned:1;\n",
			 i, 16 + 4 * i);
		tm_buf_put(&fmt, line, strlen(line));
	}
	tm_buf_put(&fmt, wide_tail, sizeof(wide_tail) - 1);
	TM_REQUIRE(!fmt.err);
	TM_CHECK(!tep_parse_event(tep, (const char *)fmt.data, fmt.len, "test"));
	memcpy(data, &id, sizeof(id));
	memcpy(data + 8, &addr, sizeof(addr));
	data[16] = 7;
	rec.data = data;
	rec.size = sizeof(data);
	m = tm_pf_events_new(tep, tasks, (struct tm_blob){ .data = printk, .len = sizeof(printk) - 1 });
	/* one FtraceEventBundle.event field: tag 0x12, a two-byte length, the event */
	if (m && !tm_pf_event_put(m, &rec, rec.ts, &b, &desc, NULL) && b.len > 3 &&
	    b.data[0] == 0x12 && (b.data[1] & 0x80) && !(b.data[2] & 0x80) &&
	    (size_t)((b.data[1] & 0x7f) | b.data[2] << 7) == b.len - 3)
		fe = perfetto__protos__ftrace_event__unpack(NULL, b.len - 3, b.data + 3);
	TM_REQUIRE(fe);
	TM_CHECK(!desc);
	TM_CHECK_INT(fe->event_case, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC);
	if (fe->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC) {
		Perfetto__Protos__GenericFtraceEvent *g = fe->generic;

		TM_REQUIRE(g->n_field == 32);
		TM_CHECK_STR(g->field[0]->name, "s");
		TM_CHECK_INT(g->field[0]->value_case,
			     PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE);
		if (g->field[0]->value_case ==
		    PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE)
			TM_CHECK_STR(g->field[0]->str_value, want);
		TM_CHECK_INT(g->field[1]->value_case,
			     PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE);
		TM_CHECK_INT(g->field[1]->int_value, 7);
	}
	perfetto__protos__ftrace_event__free_unpacked(fe, NULL);
	tm_buf_free(&b);
	tm_buf_free(&fmt);
	tm_pf_events_free(m);
	tm_pf_tasks_free(tasks);
	tep_free(tep);
}

TM_TEST(perfetto_generic_kernel_string_field_is_its_text)
{
	kstr_generic_case(t, 0xffffffff8281a5a4ULL, "Start context switch");
	kstr_generic_case(t, 0xffffffff82810500ULL, "ffffffff82810500");
}
