// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-json.c - one record as one JSON object: timestamp_ns, [time], cpu, pid,
 * comm, event, system, [buffer], [missed], latency (the flags of report -l, as
 * booleans and depths) and "fields" by name with native types
 * (integers as numbers, char arrays and strings as strings, other arrays as
 * arrays of numbers; stack traces as arrays of {addr, sym}).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
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

/*
 * Output collects in a 4 KiB piece handed to the trace_seq whole (trace_seq
 * has no putmem, and a call per byte was most of --json's time).
 */
struct jout {
	struct trace_seq	*seq;
	size_t			len;
	char			buf[4096];
};

static void j_flush(struct jout *o)
{
	if (!o->len)
		return;
	o->buf[o->len] = '\0';
	trace_seq_puts(o->seq, o->buf);
	o->len = 0;
}

/* n bytes without a NUL, through the flushes. */
static void j_put_slow(struct jout *o, const void *p, size_t n)
{
	size_t k;

	for (; n; n -= k, p = (const char *)p + k) {
		if (o->len + 1 >= sizeof(o->buf))
			j_flush(o);
		k = sizeof(o->buf) - 1 - o->len;
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, p, k);
		o->len += k;
	}
}

/* n bytes without a NUL. */
static inline void j_put(struct jout *o, const void *p, size_t n)
{
	if (o->len + n < sizeof(o->buf)) {
		memcpy(o->buf + o->len, p, n);
		o->len += n;
		return;
	}
	j_put_slow(o, p, n);
}

/* A string literal, its length known at compile time. */
#define j_lit(o, lit)	j_put(o, lit, sizeof(lit) - 1)

static void j_putc(struct jout *o, char c)
{
	if (o->len + 1 >= sizeof(o->buf))
		j_flush(o);
	o->buf[o->len++] = c;
}

static void TM_PRINTF(2, 3) j_printf(struct jout *o, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		j_put(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* A JSON string of the bytes up to the first NUL or n; bad UTF-8 bytes as \u00XX. */
static void json_str(struct jout *s, const char *str, size_t n)
{
	const unsigned char *p = (const unsigned char *)str;
	size_t i = 0, u, run;

	j_putc(s, '"');
	while (i < n && p[i]) {
		unsigned char c = p[i];

		/* a run of printable ASCII needing no escape goes out in one piece */
		for (run = i; run < n && p[run] >= 0x20 && p[run] < 0x7f && p[run] != '"' &&
		     p[run] != '\\'; run++)
			;
		if (run > i) {
			j_put(s, p + i, run - i);
			i = run;
			continue;
		}
		if (c == '"' || c == '\\') {
			j_putc(s, '\\');
			j_putc(s, (char)c);
		} else if (c == '\n') {
			j_lit(s, "\\n");
		} else if (c == '\t') {
			j_lit(s, "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			j_printf(s, "\\u%04x", c);
		} else if ((u = utf8_len(p + i, n - i))) {
			j_put(s, p + i, u);
			i += u;
			continue;
		} else {
			j_printf(s, "\\u%04x", c);
		}
		i++;
	}
	j_putc(s, '"');
}

/* Decimal of v (negative when neg) without printf: most of a JSON line is numbers. */
static void json_dec(struct jout *s, uint64_t v, bool neg)
{
	char tmp[24], *e = tmp + sizeof(tmp) - 1;

	*e = '\0';
	if (neg)
		v = (uint64_t)0 - v;
	do {
		*--e = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		*--e = '-';
	j_put(s, e, (size_t)(tmp + sizeof(tmp) - 1 - e));
}

static void json_int(struct jout *s, int64_t v)
{
	json_dec(s, (uint64_t)v, v < 0);
}

static void json_num(struct tep_handle *tep, struct jout *s, const uint8_t *ptr,
		     unsigned int size, bool is_signed)
{
	unsigned long long v = tep_read_number(tep, ptr, (int)size);

	if (!is_signed) {
		json_dec(s, v, false);
		return;
	}
	switch (size) {
	case 1:
		json_int(s, (int8_t)v);
		break;
	case 2:
		json_int(s, (int16_t)v);
		break;
	case 4:
		json_int(s, (int32_t)v);
		break;
	default:
		json_int(s, (int64_t)v);
	}
}

static void json_array(struct tep_handle *tep, struct jout *s, const uint8_t *ptr,
		       unsigned int len, unsigned int esize, bool is_signed)
{
	unsigned int i;

	if (esize != 1 && esize != 2 && esize != 4 && esize != 8)
		esize = 1;
	j_putc(s, '[');
	for (i = 0; i + esize <= len; i += esize) {
		if (i)
			j_putc(s, ',');
		json_num(tep, s, ptr + i, esize, is_signed);
	}
	j_putc(s, ']');
}

/*
 * ftrace's kernel_stack/user_stack "caller": the format declares 8 entries
 * but the record holds as many as the stack had, up to the record's end or
 * a -1 entry (where trace-cmd's text stops too). Each frame as
 * {"addr":"0x...","sym":NAME or null}: hex strings keep all 64 bits.
 */
static void json_stack(struct tep_handle *tep, struct jout *s,
		       const struct tep_format_field *f, const uint8_t *data, uint32_t size)
{
	int long_size = tep_get_long_size(tep);
	uint32_t off = (uint32_t)f->offset;
	bool first = true;

	if (long_size != 4 && long_size != 8)
		long_size = 8;
	j_putc(s, '[');
	for (; off <= size && size - off >= (uint32_t)long_size; off += long_size) {
		unsigned long long addr = tep_read_number(tep, data + off, long_size);
		const char *sym;

		if (long_size == 8 ? addr == ~0ULL : addr == 0xffffffffULL)
			break;
		sym = tep_find_function(tep, addr);
		j_printf(s, "%s{\"addr\":\"0x%llx\",\"sym\":", first ? "" : ",", addr);
		if (sym)
			json_str(s, sym, strlen(sym));
		else
			j_lit(s, "null");
		j_putc(s, '}');
		first = false;
	}
	j_putc(s, ']');
}

static bool is_stack_event(const struct tep_event *ev)
{
	return !strcmp(ev->system, "ftrace") &&
	       (!strcmp(ev->name, "kernel_stack") || !strcmp(ev->name, "user_stack"));
}

static void json_field(struct tep_handle *tep, struct jout *s,
		       const struct tep_format_field *f, const uint8_t *data, uint32_t size)
{
	bool is_signed = tm_field_is_signed(f);
	const uint8_t *p;
	uint32_t len;

	if (!tm_field_bytes(tep, f, data, size, &p, &len)) {
		j_lit(s, "null");
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

static void json_fields(struct tep_handle *tep, struct jout *s, const struct tep_event *ev,
			const void *data, uint32_t size)
{
	bool stack = ev && is_stack_event(ev);
	const struct tep_format_field *f;

	j_putc(s, '{');
	for (f = ev ? ev->format.fields : NULL; f; f = f->next) {
		if (f != ev->format.fields)
			j_putc(s, ',');
		json_str(s, f->name, strlen(f->name));
		j_putc(s, ':');
		if (stack && !strcmp(f->name, "caller"))
			json_stack(tep, s, f, data, size);
		else
			json_field(tep, s, f, data, size);
	}
	j_putc(s, '}');
}

void tm_json_fields(struct tep_handle *tep, struct trace_seq *seq, const struct tep_event *ev,
		    const void *data, uint32_t size)
{
	struct jout o = { .seq = seq };

	json_fields(tep, &o, ev, data, size);
	j_flush(&o);
}

void tm_json_str(struct trace_seq *seq, const char *str, size_t n)
{
	struct jout o = { .seq = seq };

	json_str(&o, str, n);
	j_flush(&o);
}

/* "2025-05-01T12:34:56.123456789Z" of ns since the epoch. */
static void json_iso_time(struct jout *s, uint64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000ULL);
	struct tm tm;
	char day[32];

	if (!gmtime_r(&sec, &tm) || !strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm)) {
		j_lit(s, "null");
		return;
	}
	j_printf(s, "\"%s.%09lluZ\"", day, (unsigned long long)(ns % 1000000000ULL));
}

static void json_event(struct tep_handle *tep, struct jout *s, const struct tm_event_rec *rec,
		       const char *comm, const char *buffer_name, bool wall_clock)
{
	struct tep_record r = { .data = (void *)rec->data, .size = (int)rec->size };
	struct tep_event *ev = tep_find_event_by_record(tep, &r);

	j_lit(s, "{\"timestamp_ns\":");
	json_dec(s, rec->ts, false);
	if (wall_clock) {
		j_lit(s, ",\"time\":");
		json_iso_time(s, rec->ts);
	}
	j_lit(s, ",\"cpu\":");
	json_int(s, rec->cpu);
	j_lit(s, ",\"pid\":");
	json_int(s, tep_data_pid(tep, &r));
	j_lit(s, ",\"comm\":");
	json_str(s, comm ? comm : "", comm ? strlen(comm) : 0);
	j_lit(s, ",\"event\":");
	json_str(s, ev ? ev->name : "[UNKNOWN EVENT]", ev ? strlen(ev->name) : 15);
	j_lit(s, ",\"system\":");
	json_str(s, ev ? ev->system : "", ev ? strlen(ev->system) : 0);
	if (buffer_name) {
		j_lit(s, ",\"buffer\":");
		json_str(s, buffer_name, strlen(buffer_name));
	}
	if (rec->missed)
		j_printf(s, ",\"missed\":%lld", (long long)rec->missed);
	j_flush(s);
	tm_latency_json(tep, s->seq, &r);
	j_lit(s, ",\"fields\":");
	json_fields(tep, s, ev, rec->data, rec->size);
	j_putc(s, '}');
}

void tm_json_event(struct tep_handle *tep, struct trace_seq *seq, const struct tm_event_rec *rec,
		   const char *comm, const char *buffer_name, bool wall_clock)
{
	struct jout o = { .seq = seq };

	json_event(tep, &o, rec, comm, buffer_name, wall_clock);
	j_flush(&o);
}
