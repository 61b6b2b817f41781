// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-hrtimer.c - the text libtraceevent's hrtimer plugin prints for
 * hrtimer_start ("hrtimer=0xffff888627c2c468 function=dl_task_timer/0x0
 * expires=433104884965 softexpires=433104884965") and hrtimer_expire_entry
 * ("hrtimer=0x... now=432156054082 function=tick_nohz_handler/0x0"),
 * produced directly. The function is named by libtraceevent's own lookup;
 * the plugin's "/0x..." is the function's start minus the address, as it
 * computes it. An address without a function is left to libtraceevent, as
 * is any record too short for the fields; print.c checks the text against
 * the plugin's on the first records.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "dat/dat-format.h"
#include "print-fast.h"
#include "print-buf.h"

#define FUNC_TEXT_MAX	127	/* the plugin formats the function into 128 bytes */

struct hrtimerfmt {
	struct tm_fastfmt		base;
	bool				is_start;
	const struct tep_format_field	*timer, *function, *now, *expires, *softexpires;
};

/* A number field the plugin reads with tep_read_number_field(). */
static bool num_field(const struct tep_format_field *f)
{
	return f && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

static bool fits(const struct tep_format_field *f, uint32_t size)
{
	return f->offset >= 0 && f->size >= 0 && (uint32_t)f->size <= size &&
	       (uint32_t)f->offset <= size - (uint32_t)f->size;
}

static uint64_t num(const struct hrtimerfmt *f, const struct tep_format_field *fld,
		    const uint8_t *data)
{
	return tm_get_uint(data + fld->offset, (unsigned int)fld->size, f->base.swap);
}

/* " function=name/0x<start - address>", or -1 for libtraceevent's "0x%08llx". */
static int put_function(struct hrtimerfmt *f, struct tm_buf *b, const uint8_t *data)
{
	unsigned long long start;
	uint64_t v = num(f, f->function, data);
	const char *name;
	size_t len;

	if (!tep_find_function_info(f->base.tep, v, &name, &start, NULL) || !name)
		return -1;
	len = strlen(name);
	/* "name/0x" and up to 16 digits must fit the plugin's buffer uncut */
	if (len + 3 + 16 > FUNC_TEXT_MAX || tm_buf_lit(b, " function=") ||
	    tm_buf_reserve(b, len + 3))
		return -1;
	tm_buf_put_reserved(b, name, len);
	tm_buf_put_reserved(b, "/0x", 3);
	return tm_buf_hex(b, start - v);
}

static int hrtimer_render(struct tm_fastfmt *base, struct tm_buf *b, const uint8_t *data,
			  uint32_t size)
{
	struct hrtimerfmt *f = (struct hrtimerfmt *)base;

	if (!fits(f->timer, size) || !fits(f->function, size) ||
	    (f->is_start ? !fits(f->expires, size) || !fits(f->softexpires, size) :
			   !fits(f->now, size)))
		return -1;
	if (tm_buf_lit(b, "hrtimer=0x") || tm_buf_hex(b, num(f, f->timer, data)))
		return -1;
	if (!f->is_start)
		return tm_buf_lit(b, " now=") ||
		       tm_buf_dec(b, num(f, f->now, data), false) ||
		       put_function(f, b, data) ? -1 : 0;
	if (put_function(f, b, data) || tm_buf_lit(b, " expires=") ||
	    tm_buf_dec(b, num(f, f->expires, data), false) ||
	    tm_buf_lit(b, " softexpires=") ||
	    tm_buf_dec(b, num(f, f->softexpires, data), false))
		return -1;
	return 0;
}

static void hrtimer_free(struct tm_fastfmt *base)
{
	free(base);
}

static const struct tm_fastfmt_ops hrtimer_ops = {
	.render = hrtimer_render,
	.free = hrtimer_free,
};

struct tm_fastfmt *tm_hrtimerfmt_compile(struct tep_handle *tep, const struct tep_event *ev,
					 bool swap)
{
	struct tep_event *e = (struct tep_event *)ev;
	struct hrtimerfmt *f;
	bool ok;

	if (strcmp(ev->system, "timer") || tep_get_long_size(tep) != 8)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->base.ops = &hrtimer_ops;
	f->base.tep = tep;
	f->base.swap = swap;
	f->is_start = !strcmp(ev->name, "hrtimer_start");
	/* the plugin prints "timer" when the event has it, else "hrtimer" */
	f->timer = tep_find_field(e, "timer") ?: tep_find_field(e, "hrtimer");
	f->function = tep_find_field(e, "function");
	f->now = tep_find_field(e, "now");
	f->expires = tep_find_field(e, "expires");
	f->softexpires = tep_find_field(e, "softexpires");
	ok = num_field(f->timer) && num_field(f->function) && f->function->size == 8;
	if (f->is_start)
		ok &= num_field(f->expires) && num_field(f->softexpires);
	else
		ok &= !strcmp(ev->name, "hrtimer_expire_entry") && num_field(f->now);
	if (ok)
		return &f->base;
	free(f);
	return NULL;
}
