// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-json.c - one record as one JSON object: timestamp_ns, timestamp_sec,
 * timestamp_nsec, [time], cpu, pid, comm, event, system, [buffer], [missed],
 * latency (the flags of report -l, as booleans and depths) and "fields"
 * (print-json-fields.c). The parts that are the same for every record of an
 * event type come escaped from print-json-event.c; a record costs copies of
 * them and its values, written straight into the printer's buffer.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <traceevent/event-parse.h>

#include "print-json.h"
#include "print-internal.h"
#include "trace/tm-trace.h"
#include "print-buf.h"

static char *put_bool(char *o, bool v)
{
	if (v) {
		memcpy(o, "true", 4);
		return o + 4;
	}
	memcpy(o, "false", 5);
	return o + 5;
}

/* ",\"latency\":{...}": the flags as booleans, the preempt and migrate-disable depths. */
static char *put_latency(const struct tm_jsonfmt *f, char *o, const struct tm_event_rec *rec)
{
	struct tep_record r = { .data = (void *)rec->data, .size = (int)rec->size };
	const uint8_t *d = rec->data;
	int flags = f->flags_off >= 0 && (uint32_t)f->flags_off < rec->size ?
		    d[f->flags_off] : tep_data_flags(f->tep, &r);
	int pc = f->pc_off >= 0 && (uint32_t)f->pc_off < rec->size ?
		 d[f->pc_off] : tep_data_preempt_count(f->tep, &r);

	memcpy(o, ",\"latency\":{\"irqs_off\":", 23);
	o = put_bool(o + 23, flags & TRACE_FLAG_IRQS_OFF);
	memcpy(o, ",\"need_resched\":", 16);
	o = put_bool(o + 16, flags & TRACE_FLAG_NEED_RESCHED);
	memcpy(o, ",\"hardirq\":", 11);
	o = put_bool(o + 11, flags & TRACE_FLAG_HARDIRQ);
	memcpy(o, ",\"softirq\":", 11);
	o = put_bool(o + 11, flags & TRACE_FLAG_SOFTIRQ);
	memcpy(o, ",\"preempt_depth\":", 17);
	o = tm_put_u64(o + 17, (unsigned int)pc & 0xf);
	memcpy(o, ",\"migrate_disable\":", 19);
	o = tm_put_u64(o + 19, ((unsigned int)pc >> 4) & 0xf);
	*o++ = '}';
	return o;
}

/* v with exactly nine digits, zero-filled. */
static char *put_nine(char *o, uint32_t v)
{
	int i;

	for (i = 8; i >= 0; i--) {
		o[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return o + 9;
}

/* ",\"time\":\"2025-05-01T12:34:56.123456789Z\"" of ns since the epoch; the day once a second. */
static char *put_time(struct tm_json_clock *c, char *o, uint64_t ns)
{
	uint64_t sec = ns / 1000000000ULL;
	time_t t = (time_t)sec;
	struct tm tm;

	if (!c->valid || c->sec != sec) {
		c->valid = true;
		c->sec = sec;
		c->len = gmtime_r(&t, &tm) ? strftime(c->day, sizeof(c->day),
						       "%Y-%m-%dT%H:%M:%S", &tm) : 0;
	}
	memcpy(o, ",\"time\":", 8);
	o += 8;
	if (!c->len) {
		memcpy(o, "null", 4);
		return o + 4;
	}
	*o++ = '"';
	memcpy(o, c->day, c->len);
	o += c->len;
	*o++ = '.';
	o = put_nine(o, (uint32_t)(ns % 1000000000ULL));
	memcpy(o, "Z\"", 2);
	return o + 2;
}

/* Everything before the fields: at most this much besides comm, head and buffer. */
#define TM_JSON_HEAD_MAX	512

int tm_jsonfmt_put(const struct tm_jsonfmt *f, struct tm_buf *b, const struct tm_json_rec *jr)
{
	const struct tm_event_rec *rec = jr->rec;
	char *o;

	if (tm_buf_reserve(b, TM_JSON_HEAD_MAX + jr->comm_len + f->head_len + jr->buffer_len))
		return -1;
	o = b->text + b->len;
	memcpy(o, "{\"timestamp_ns\":", 16);
	o = tm_put_u64(o + 16, rec->ts);
	/*
	 * ns since the epoch (--date) or after 104 days of uptime pass 2^53,
	 * where a parser with doubles (jq 1.6, JavaScript) rounds them: the same
	 * instant as two numbers that stay exact
	 */
	memcpy(o, ",\"timestamp_sec\":", 17);
	o = tm_put_u64(o + 17, rec->ts / 1000000000ULL);
	memcpy(o, ",\"timestamp_nsec\":", 18);
	o = tm_put_u64(o + 18, rec->ts % 1000000000ULL);
	if (jr->clock)
		o = put_time(jr->clock, o, rec->ts);
	memcpy(o, ",\"cpu\":", 7);
	o = tm_put_s64(o + 7, rec->cpu);
	memcpy(o, ",\"pid\":", 7);
	o = tm_put_s64(o + 7, jr->pid);
	memcpy(o, ",\"comm\":", 8);
	memcpy(o + 8, jr->comm, jr->comm_len);
	o = put_piece(o + 8 + jr->comm_len, f->head, f->head_len);
	if (jr->buffer) {
		memcpy(o, jr->buffer, jr->buffer_len);
		o += jr->buffer_len;
	}
	if (rec->missed) {
		memcpy(o, ",\"missed\":", 10);
		o = tm_put_s64(o + 10, rec->missed);
	}
	if (f->latency)
		o = put_latency(f, o, rec);
	memcpy(o, ",\"fields\":", 10);
	b->len = (size_t)(o + 10 - b->text);
	if (tm_jsonfmt_put_fields(f, b, rec->data, rec->size) || tm_buf_reserve(b, 2))
		return -1;
	memcpy(b->text + b->len, "}\n", 2);
	b->len += 2;
	return 0;
}
