// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-json.c - one record as one JSON object: timestamp_ns, [time], cpu, pid,
 * comm, event, system, [buffer], [missed], latency (the flags of report -l, as
 * booleans and depths) and "fields" by name with native types
 * (integers as numbers, char arrays and strings as strings, other arrays as
 * arrays of numbers; stack traces as arrays of {addr, sym}).
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "field.h"
#include "print-internal.h"

/* Length of a valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = s[0] & (0x3f >> (len - 1));
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* A JSON string of the bytes up to the first NUL or n; bad UTF-8 bytes as \u00XX. */
static void json_str(struct trace_seq *s, const char *str, size_t n)
{
	const unsigned char *p = (const unsigned char *)str;
	size_t i = 0, u;

	trace_seq_putc(s, '"');
	while (i < n && p[i]) {
		unsigned char c = p[i];

		if (c == '"' || c == '\\') {
			trace_seq_putc(s, '\\');
			trace_seq_putc(s, (char)c);
		} else if (c == '\n') {
			trace_seq_puts(s, "\\n");
		} else if (c == '\t') {
			trace_seq_puts(s, "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			trace_seq_printf(s, "\\u%04x", c);
		} else if (c < 0x80) {
			trace_seq_putc(s, (char)c);
		} else if ((u = utf8_len(p + i, n - i))) {
			trace_seq_printf(s, "%.*s", (int)u, (const char *)p + i);
			i += u;
			continue;
		} else {
			trace_seq_printf(s, "\\u%04x", c);
		}
		i++;
	}
	trace_seq_putc(s, '"');
}

static void json_num(struct tep_handle *tep, struct trace_seq *s, const uint8_t *ptr,
		     unsigned int size, bool is_signed)
{
	unsigned long long v = tep_read_number(tep, ptr, (int)size);

	if (!is_signed) {
		trace_seq_printf(s, "%llu", v);
		return;
	}
	switch (size) {
	case 1:
		trace_seq_printf(s, "%d", (int8_t)v);
		break;
	case 2:
		trace_seq_printf(s, "%d", (int16_t)v);
		break;
	case 4:
		trace_seq_printf(s, "%d", (int32_t)v);
		break;
	default:
		trace_seq_printf(s, "%lld", (long long)v);
	}
}

static void json_array(struct tep_handle *tep, struct trace_seq *s, const uint8_t *ptr,
		       unsigned int len, unsigned int esize, bool is_signed)
{
	unsigned int i;

	if (esize != 1 && esize != 2 && esize != 4 && esize != 8)
		esize = 1;
	trace_seq_putc(s, '[');
	for (i = 0; i + esize <= len; i += esize) {
		if (i)
			trace_seq_putc(s, ',');
		json_num(tep, s, ptr + i, esize, is_signed);
	}
	trace_seq_putc(s, ']');
}

/*
 * ftrace's kernel_stack/user_stack "caller": the format declares 8 entries
 * but the record holds as many as the stack had, up to the record's end or
 * a -1 entry (where trace-cmd's text stops too). Each frame as
 * {"addr":"0x...","sym":NAME or null}: hex strings keep all 64 bits.
 */
static void json_stack(struct tep_handle *tep, struct trace_seq *s,
		       const struct tep_format_field *f, const uint8_t *data, uint32_t size)
{
	int long_size = tep_get_long_size(tep);
	uint32_t off = (uint32_t)f->offset;
	bool first = true;

	if (long_size != 4 && long_size != 8)
		long_size = 8;
	trace_seq_putc(s, '[');
	for (; off <= size && size - off >= (uint32_t)long_size; off += long_size) {
		unsigned long long addr = tep_read_number(tep, data + off, long_size);
		const char *sym;

		if (long_size == 8 ? addr == ~0ULL : addr == 0xffffffffULL)
			break;
		sym = tep_find_function(tep, addr);
		trace_seq_printf(s, "%s{\"addr\":\"0x%llx\",\"sym\":", first ? "" : ",", addr);
		if (sym)
			json_str(s, sym, strlen(sym));
		else
			trace_seq_puts(s, "null");
		trace_seq_putc(s, '}');
		first = false;
	}
	trace_seq_putc(s, ']');
}

static bool is_stack_field(const struct tep_event *ev, const struct tep_format_field *f)
{
	return !strcmp(ev->system, "ftrace") && !strcmp(f->name, "caller") &&
	       (!strcmp(ev->name, "kernel_stack") || !strcmp(ev->name, "user_stack"));
}

static void json_field(struct tep_handle *tep, struct trace_seq *s,
		       const struct tep_format_field *f, const uint8_t *data, uint32_t size)
{
	bool is_signed = tm_field_is_signed(f);
	const uint8_t *p;
	uint32_t len;

	if (!tm_field_bytes(tep, f, data, size, &p, &len)) {
		trace_seq_puts(s, "null");
		return;
	}
	if (tm_field_is_string(f)) {
		json_str(s, (const char *)p, len);
		return;
	}
	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		json_array(tep, s, p, len, f->elementsize, is_signed);
		return;
	}
	if (len == 1 || len == 2 || len == 4 || len == 8)
		json_num(tep, s, p, len, is_signed);
	else
		json_array(tep, s, p, len, 1, false);
}

void tm_json_fields(struct tep_handle *tep, struct trace_seq *s, const struct tep_event *ev,
		    const void *data, uint32_t size)
{
	const struct tep_format_field *f;

	trace_seq_putc(s, '{');
	for (f = ev ? ev->format.fields : NULL; f; f = f->next) {
		if (f != ev->format.fields)
			trace_seq_putc(s, ',');
		json_str(s, f->name, strlen(f->name));
		trace_seq_putc(s, ':');
		if (is_stack_field(ev, f))
			json_stack(tep, s, f, data, size);
		else
			json_field(tep, s, f, data, size);
	}
	trace_seq_putc(s, '}');
}

void tm_json_str(struct trace_seq *s, const char *str, size_t n)
{
	json_str(s, str, n);
}

/* "2025-05-01T12:34:56.123456789Z" of ns since the epoch. */
static void json_iso_time(struct trace_seq *s, uint64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000ULL);
	struct tm tm;
	char day[32];

	if (!gmtime_r(&sec, &tm) || !strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm)) {
		trace_seq_puts(s, "null");
		return;
	}
	trace_seq_printf(s, "\"%s.%09lluZ\"", day, (unsigned long long)(ns % 1000000000ULL));
}

void tm_json_event(struct tep_handle *tep, struct trace_seq *s, const struct tm_event_rec *rec,
		   const char *comm, const char *buffer_name, bool wall_clock)
{
	struct tep_record r = { .data = (void *)rec->data, .size = (int)rec->size };
	struct tep_event *ev = tep_find_event_by_record(tep, &r);

	trace_seq_printf(s, "{\"timestamp_ns\":%" PRIu64, rec->ts);
	if (wall_clock) {
		trace_seq_puts(s, ",\"time\":");
		json_iso_time(s, rec->ts);
	}
	trace_seq_printf(s, ",\"cpu\":%d,\"pid\":%d,\"comm\":", rec->cpu, tep_data_pid(tep, &r));
	json_str(s, comm ? comm : "", comm ? strlen(comm) : 0);
	trace_seq_puts(s, ",\"event\":");
	json_str(s, ev ? ev->name : "[UNKNOWN EVENT]", ev ? strlen(ev->name) : 15);
	trace_seq_puts(s, ",\"system\":");
	json_str(s, ev ? ev->system : "", ev ? strlen(ev->system) : 0);
	if (buffer_name) {
		trace_seq_puts(s, ",\"buffer\":");
		json_str(s, buffer_name, strlen(buffer_name));
	}
	if (rec->missed)
		trace_seq_printf(s, ",\"missed\":%lld", (long long)rec->missed);
	tm_latency_json(tep, s, &r);
	trace_seq_puts(s, ",\"fields\":");
	tm_json_fields(tep, s, ev, rec->data, rec->size);
	trace_seq_putc(s, '}');
}
