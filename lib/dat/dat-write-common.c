// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-write-common.c - what the v6 and v7 layouts both write: the prologue,
 * options, and the byte moving to the output (a source's file copied, padding).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "dat-format.h"
#include "dat-write-internal.h"
#include "util/meter.h"

#define TM_COPY_BLOCK	(1u << 20)	/* read/write fallback block */
/* copy_file_range request cap: a meter is shown after each (16 a second at 1 GiB/s) */
#define TM_CFR_MAX	(64u << 20)

void tm_write_prologue(struct tm_write_ctx *w, struct tm_buf *b)
{
	char version[2] = { (char)('0' + w->version), '\0' };
	uint8_t tail[2] = { tm_host_is_big_endian(), w->long_size };

	tm_buf_put(b, TM_DAT_MAGIC, TM_DAT_MAGIC_LEN);
	tm_buf_put(b, version, sizeof(version));
	tm_buf_put(b, tail, sizeof(tail));
	tm_buf_put32(b, w->page_size);
}

void tm_buf_option(struct tm_buf *b, uint16_t id, const void *data, uint32_t len)
{
	tm_buf_put16(b, id);
	tm_buf_put32(b, len);
	tm_buf_put(b, data, len);
}

/* LAST_BOOT_INFO (§5, id 24): "<instance>:" and the text, with a NUL, as trace-cmd 3.4 stores it. */
static void write_last_boot_info(struct tm_write_ctx *w, struct tm_buf *b)
{
	const char *name = w->opts->last_boot_instance, *text = w->opts->last_boot_info;
	size_t nlen, tlen;

	if (!text)
		return;
	nlen = name ? strlen(name) : 0;
	tlen = strlen(text);
	tm_buf_put16(b, TM_OPT_LAST_BOOT_INFO);
	tm_buf_put32(b, nlen + 1 + tlen + 1);
	tm_buf_put(b, name, nlen);
	tm_buf_put(b, ":", 1);
	tm_buf_put(b, text, tlen + 1);
}

void tm_write_common_options(struct tm_write_ctx *w, struct tm_buf *b)
{
	const struct tm_meta *m = w->meta;
	char version[256];
	uint64_t id = w->opts->trace_id;
	int cpu;

	if (w->opts->date)	/* first, as trace-cmd queues it (spec §4.8) */
		tm_buf_option(b, TM_OPT_DATE, w->opts->date, strlen(w->opts->date) + 1);
	if (m->trace_clock.len) {
		/* the text with its NUL (our texts are always NUL-terminated) */
		tm_buf_option(b, TM_OPT_TRACECLOCK, m->trace_clock.data,
			      m->trace_clock.len + 1);
	}
	if (m->uname)
		tm_buf_option(b, TM_OPT_UNAME, m->uname, strlen(m->uname) + 1);
	snprintf(version, sizeof(version), "tracemap %s%s%s", TM_VERSION,
		 w->opts->note ? " " : "", w->opts->note ? w->opts->note : "");
	tm_buf_option(b, TM_OPT_VERSION, version, strlen(version) + 1);
	if (!id && getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id))
		id = ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)w;
	tm_buf_option(b, TM_OPT_TRACEID, &id, sizeof(id));
	for (cpu = 0; cpu < m->ncpus; cpu++) {
		char head[32];
		int n;

		if (!m->stats[cpu].len)
			continue;
		n = snprintf(head, sizeof(head), "CPU: %d\n", cpu);
		tm_buf_put16(b, TM_OPT_CPUSTAT);
		tm_buf_put32(b, n + m->stats[cpu].len + 1);
		tm_buf_put(b, head, n);
		tm_buf_put(b, m->stats[cpu].data, m->stats[cpu].len + 1);
	}
	write_last_boot_info(w, b);
}

int tm_write_out(struct tm_write_ctx *w, const void *buf, size_t len)
{
	if (tm_write_all(w->fd, buf, len))
		return tm_fail(errno, "write trace.dat");
	w->pos += len;
	if (w->opts->meter)
		w->opts->meter->p.written += len;
	return 0;
}

int tm_write_pad_to(struct tm_write_ctx *w, uint64_t to)
{
	static const uint8_t zero[4096];
	size_t n;

	while (w->pos < to) {
		n = to - w->pos < sizeof(zero) ? to - w->pos : sizeof(zero);
		if (tm_write_out(w, zero, n))
			return -1;
	}
	return 0;
}

/* n more bytes of a source's file copied: the writer's meter, if any, is shown them. */
static void copy_meter(struct tm_write_ctx *w, uint64_t n)
{
	struct tm_meter *m = w->opts->meter;

	if (!m)
		return;
	m->p.done += n;
	m->p.written += n;
	tm_meter_show(m);
}

static int copy_fallback(struct tm_write_ctx *w, int in, off_t off, uint64_t left,
			    const char *path)
{
	size_t n;

	if (!w->copy_buf) {
		w->copy_buf = malloc(TM_COPY_BLOCK);
		if (!w->copy_buf)
			return tm_fail(ENOMEM, "copy %s", path);
	}
	while (left) {
		n = left < TM_COPY_BLOCK ? left : TM_COPY_BLOCK;
		if (tm_pread_all(in, w->copy_buf, n, off))
			return tm_fail(errno, "read %s", path);
		if (tm_write_all(w->fd, w->copy_buf, n))
			return tm_fail(errno, "write trace.dat");
		off += n;
		left -= n;
		copy_meter(w, n);
	}
	return 0;
}

/* copy_file_range while the file system allows it; the rest by read/write. */
static int copy_file(struct tm_write_ctx *w, int in, uint64_t len, const char *path)
{
	uint64_t left = len;
	loff_t off = 0;
	ssize_t n;

	while (left && w->use_cfr) {
		n = copy_file_range(in, &off, w->fd, NULL, left < TM_CFR_MAX ? left : TM_CFR_MAX, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
			      errno == EOPNOTSUPP || errno == EBADF)) {
			w->use_cfr = false;
			break;
		}
		if (n < 0)
			return tm_fail(errno, "copy %s to trace.dat", path);
		if (n == 0)
			return tm_failx(EIO, "%s is shorter than its %llu bytes", path,
					(unsigned long long)len);
		left -= n;
		copy_meter(w, n);
	}
	if (left && copy_fallback(w, in, off, left, path))
		return -1;
	w->pos += len;
	return 0;
}

/* A source in memory: its pieces in order, exactly its size in all. */
static int write_pieces(struct tm_write_ctx *w, const struct tm_cpu_data *src)
{
	uint64_t done = 0;
	const void *data;
	size_t len;
	int r;

	while ((r = src->next(src->ctx, &data, &len)) > 0) {
		if (len > src->size - done)
			break;
		if (tm_write_out(w, data, len))
			return -1;
		done += len;
	}
	if (r < 0)
		return tm_fail_prefix("trace data of CPU %d", src->cpu);
	if (r > 0 || done != src->size)
		return tm_failx(EIO, "trace data of CPU %d (%s) is not its %llu bytes", src->cpu,
				src->name ? src->name : "memory", (unsigned long long)src->size);
	return 0;
}

int tm_write_blob(struct tm_write_ctx *w, const struct tm_cpu_blob *b)
{
	if (tm_write_pad_to(w, b->offset))
		return -1;
	if (w->compressed) {
		uint32_t count = b->chunks;

		/* the chunk count is host order, like trace-cmd writes it */
		if (tm_write_out(w, &count, sizeof(count)))
			return -1;
	}
	if (b->src->fd < 0)
		return write_pieces(w, b->src);
	return copy_file(w, b->src->fd, b->size, b->src->name);
}
