// SPDX-License-Identifier: GPL-2.0-only
/* dat-access.c - read-only accessors of an open trace.dat file and its timestamp adjustment. */
#include <stdint.h>
#include <string.h>

#include "dat-internal.h"
#include "codec.h"
#include "trace/tm-trace.h"

static struct tm_blob dat_blob(const struct tm_text *t)
{
	return (struct tm_blob){ .data = t->data ? t->data : "", .len = t->len,
				 .sec = t->sec, .off = t->off };
}

static const struct dat_buffer *dat_buf(const struct tm_dat *dat, int buf)
{
	return buf >= 0 && buf < dat->nbuf ? &dat->bufs[buf] : NULL;
}

const char *tm_dat_path(const struct tm_dat *dat) { return dat->name; }
int tm_dat_version(const struct tm_dat *dat) { return dat->version; }
bool tm_dat_big_endian(const struct tm_dat *dat) { return dat->big_endian; }
int tm_dat_long_size(const struct tm_dat *dat) { return dat->long_size; }
uint32_t tm_dat_page_size(const struct tm_dat *dat) { return dat->page_size; }
unsigned int tm_dat_commit_size(const struct tm_dat *dat) { return dat->commit_size; }

const char *tm_dat_compression(const struct tm_dat *dat)
{
	return tm_compression_name(dat->comp);
}

const char *tm_dat_compression_version(const struct tm_dat *dat)
{
	return dat->comp_version ? dat->comp_version : "";
}

int tm_dat_cpus(const struct tm_dat *dat)
{
	int i, n = 0;

	if (dat->cpucount >= 0)
		return dat->cpucount;
	if (dat->header_cpus >= 0)
		return dat->header_cpus;
	for (i = 0; i < dat->nbuf; i++)
		if (dat->bufs[i].slots > n)
			n = dat->bufs[i].slots;
	return n;
}

struct tm_blob tm_dat_header_page(const struct tm_dat *dat) { return dat_blob(&dat->header_page); }
struct tm_blob tm_dat_header_event(const struct tm_dat *dat)
{
	return dat_blob(&dat->header_event);
}
size_t tm_dat_ftrace_format_count(const struct tm_dat *dat) { return dat->nftrace; }
size_t tm_dat_system_count(const struct tm_dat *dat) { return dat->nsys; }
struct tm_blob tm_dat_kallsyms(const struct tm_dat *dat) { return dat_blob(&dat->kallsyms); }

char *tm_dat_take_kallsyms(struct tm_dat *dat, struct tm_blob *b)
{
	char *text = dat->kallsyms.data;

	*b = dat_blob(&dat->kallsyms);
	dat->kallsyms.data = NULL;
	dat->kallsyms.len = 0;
	return text;
}
struct tm_blob tm_dat_printk(const struct tm_dat *dat) { return dat_blob(&dat->printk); }
struct tm_blob tm_dat_cmdlines(const struct tm_dat *dat) { return dat_blob(&dat->cmdlines); }
struct tm_blob tm_dat_cpustat(const struct tm_dat *dat) { return dat_blob(&dat->cpustat); }

uint64_t tm_dat_newer_options(const struct tm_dat *dat)
{
	return dat->newer_opts;
}
const char *tm_dat_clock(const struct tm_dat *dat) { return dat->clock; }
bool tm_dat_has_date(const struct tm_dat *dat) { return dat->has_date; }
const char *tm_dat_uname(const struct tm_dat *dat) { return dat->uname; }
const char *tm_dat_tracer_version(const struct tm_dat *dat) { return dat->tracer_version; }
const char *tm_dat_last_boot_info(const struct tm_dat *dat) { return dat->last_boot_info; }
const char *tm_dat_modules(const struct tm_dat *dat) { return dat->modules; }
int tm_dat_buffer_count(const struct tm_dat *dat) { return dat->nbuf; }

struct tm_blob tm_dat_ftrace_format(const struct tm_dat *dat, size_t i)
{
	static const struct tm_text none;

	return dat_blob(i < dat->nftrace ? &dat->ftrace[i] : &none);
}

const char *tm_dat_system_name(const struct tm_dat *dat, size_t sys)
{
	return sys < dat->nsys ? dat->sys[sys].name : NULL;
}

long tm_dat_format_id(struct tm_blob f)
{
	const char *p = memmem(f.data, f.len, "\nID: ", 5);
	const char *end = (const char *)f.data + f.len, *digits;
	long id = 0;

	if (!p)
		return -1;
	for (digits = p += 5; p < end && *p >= '0' && *p <= '9' && id < INT32_MAX; p++)
		id = id * 10 + (*p - '0');
	return p > digits ? id : -1;
}

size_t tm_dat_event_format_count(const struct tm_dat *dat, size_t sys)
{
	return sys < dat->nsys ? dat->sys[sys].nformats : 0;
}

struct tm_blob tm_dat_event_format(const struct tm_dat *dat, size_t sys, size_t i)
{
	static const struct tm_text none;

	if (sys >= dat->nsys || i >= dat->sys[sys].nformats)
		return dat_blob(&none);
	return dat_blob(&dat->sys[sys].formats[i]);
}

bool tm_dat_trace_id(const struct tm_dat *dat, uint64_t *id)
{
	if (dat->has_trace_id && id)
		*id = dat->trace_id;
	return dat->has_trace_id;
}

bool tm_dat_tsc2nsec(const struct tm_dat *dat)
{
	return dat->tsc_mult != 0;
}

/* trace-cmd's mul_u64_u32_shr: the product is 96 bits wide, keep it exact. */
static uint64_t dat_tsc_to_ns(const struct tm_dat *dat, uint64_t ts)
{
	unsigned __int128 v = (unsigned __int128)ts * dat->tsc_mult;

	return dat->tsc_shift >= 128 ? 0 : (uint64_t)(v >> dat->tsc_shift);
}

uint64_t tm_dat_adjust_ts_nodate(const struct tm_dat *dat, uint64_t ts)
{
	if (dat->tsc_mult)
		ts = dat_tsc_to_ns(dat, ts);
	return ts + dat->ts_offset;
}

uint64_t tm_dat_adjust_ts(const struct tm_dat *dat, uint64_t ts)
{
	return tm_dat_adjust_ts_nodate(dat, ts) + dat->date_offset;
}

const char *tm_dat_buffer_name(const struct tm_dat *dat, int buf)
{
	const struct dat_buffer *b = dat_buf(dat, buf);

	return b ? b->name : NULL;
}

const char *tm_dat_buffer_clock(const struct tm_dat *dat, int buf)
{
	const struct dat_buffer *b = dat_buf(dat, buf);

	if (!b)
		return NULL;
	return b->clock ? b->clock : dat->clock;
}

uint32_t tm_dat_buffer_page_size(const struct tm_dat *dat, int buf)
{
	const struct dat_buffer *b = dat_buf(dat, buf);

	return b ? b->page_size : 0;
}

int tm_dat_buffer_cpus(const struct tm_dat *dat, int buf)
{
	const struct dat_buffer *b = dat_buf(dat, buf);

	return b ? b->slots : 0;
}

bool tm_dat_buffer_is_text(const struct tm_dat *dat, int buf)
{
	const struct dat_buffer *b = dat_buf(dat, buf);

	return b && b->text;
}

/* The entry of one CPU (entries are sorted by CPU id), or NULL. */
const struct dat_cpu *tm_dat_find_cpu(const struct tm_dat *dat, int buf, int cpu)
{
	const struct dat_buffer *b = dat_buf(dat, buf);
	int lo = 0, hi, mid;

	if (!b)
		return NULL;
	hi = b->ncpu;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->cpus[mid].cpu == cpu)
			return &b->cpus[mid];
		if (b->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

uint64_t tm_dat_buffer_cpu_size(const struct tm_dat *dat, int buf, int cpu)
{
	const struct dat_cpu *c = tm_dat_find_cpu(dat, buf, cpu);

	return c ? c->raw : 0;
}
