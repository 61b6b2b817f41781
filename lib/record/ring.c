// SPDX-License-Identifier: GPL-2.0-only
/*
 * ring.c - one CPU's ring buffer: map it (Linux >= 6.10), stage the reader
 * sub-buffer and hand out whole pages; the read() path behind the same API.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <tracefs.h>

#include "util/internal.h"
#include "ring.h"
#include "tracefs/tracefs-internal.h"
#include "trace-mmap.h"
#include "dat/dat-format.h"
#include "dat/page.h"

#define TM_PAGE_HDR	(8 + TM_COMMIT_SIZE)

struct tm_ring {
	int				fd;
	int				cpu;
	size_t				page_size;
	bool				mapped;
	char				reason[96];
	struct tm_trace_buffer_meta	*meta;
	size_t				meta_len;
	uint8_t				*data;
	size_t				data_len;
	uint8_t				*stage;		/* private copy of the reader sub-buffer */
	bool				staged;
	bool				done;		/* reader page already handed out whole */
	uint32_t			stage_id;
	size_t				cursor;		/* data bytes copied into stage */
	unsigned long			commit;		/* commit word matching cursor */
	uint64_t			stage_lost;	/* meta reader.lost_events at the swap */
	bool				partial;	/* live: hand out the staged tail each round */
	uint8_t				*tail;		/* the tail page being handed out */
	size_t				emitted;	/* data bytes of stage already handed out */
	uint64_t			emitted_ts;	/* running time after them */
	bool				stage_bad;	/* impossible commit or records: drop it */
	uint64_t			corrupt;	/* sub-buffers dropped so */
	uint64_t			bytes_out;	/* record bytes handed out (fill estimate) */
	uint32_t			start_id;	/* reader sub-buffer when mapped */
	uint32_t			start_read;	/* its bytes an earlier reader consumed */
	char				path[PATH_MAX];	/* trace_pipe_raw, to map it again */
	bool				can_map;	/* mapped once: tm_ring_unmap() may switch */
	uint32_t			nr_subbufs;	/* as the meta page said (read(): sized) */
	uint64_t			subbufs_lost_base; /* meta pages_lost when first mapped */
	uint64_t			subbufs_lost;	/* pages_lost since, at the last GET_READER */
	bool				subbufs_lost_known; /* the kernel fills pages_lost */
	bool				subbufs_lost_based;
	struct tm_ring_stats		stats;		/* the read() path's fill, once mapped */
	tm_ring_slot_fn			slot;		/* where read() reads (tm_ring_lend()) */
	void				*slot_ctx;
	struct tracefs_cpu		*tcpu;		/* the read() path, on fd */
};

static bool mmap_unsupported(int err)
{
	return err == ENODEV || err == EINVAL || err == EBUSY || err == EOPNOTSUPP ||
	       err == ENOTTY;
}

/* Map meta page and sub-buffers. 1: mapped, 0: use read() (reason set), -1: error. */
static int ring_map(struct tm_ring *r, const char *path)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *p;

	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, r->fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	r->meta = p;
	r->meta_len = pg;
	if (r->meta->meta_page_size > (uint32_t)pg) {
		size_t len = r->meta->meta_page_size;

		munmap(r->meta, r->meta_len);
		r->meta = NULL;
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, r->fd, 0);
		if (p == MAP_FAILED)
			goto fail;
		r->meta = p;
		r->meta_len = len;
	}
	/* the instance owns the size (tm_session_page_size()); the map must agree */
	if (r->meta->subbuf_size != r->page_size) {
		uint32_t said = r->meta->subbuf_size;

		munmap(r->meta, r->meta_len);
		r->meta = NULL;
		return tm_failx(EPROTO, "%s: the meta page says %u-byte sub-buffers, the instance %zu",
				path, said, r->page_size);
	}
	r->nr_subbufs = r->meta->nr_subbufs;
	r->data_len = (size_t)r->meta->subbuf_size * r->meta->nr_subbufs;
	p = mmap(NULL, r->data_len, PROT_READ, MAP_SHARED, r->fd, r->meta->meta_page_size);
	if (p == MAP_FAILED)
		goto fail;
	r->data = p;
	/*
	 * An earlier reader (a previous extract, read()) may have consumed the
	 * reader sub-buffer in part: the first GET_READER moves reader.read past
	 * all of it, so note where the unread bytes begin now.
	 */
	r->start_id = r->meta->reader.id;
	r->start_read = r->meta->reader.read;
	if (!r->subbufs_lost_based) {
		r->subbufs_lost_base = r->meta->pages_lost;
		r->subbufs_lost_based = true;
	}
	return 1;
fail:
	if (!mmap_unsupported(errno))
		return tm_fail(errno, "mmap %s (raise 'ulimit -l' or use --no-mmap)", path);
	snprintf(r->reason, sizeof(r->reason), "mmap: %s", strerror(errno));
	if (r->meta)
		munmap(r->meta, r->meta_len);
	r->meta = NULL;
	return 0;
}

struct tm_ring *tm_ring_open(const char *dir, int cpu, size_t page_size, bool use_mmap)
{
	struct tm_ring *r = calloc(1, sizeof(*r));
	char path[PATH_MAX];
	int m = 0;

	if (!r) {
		tm_fail(ENOMEM, "ring cpu%d", cpu);
		return NULL;
	}
	r->cpu = cpu;
	r->page_size = page_size;
	r->stats.fd = -1;
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->fd = tm_tfs_open_file(dir, path + strlen(dir) + 1, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		tm_fail(errno, "open %s", path);
		goto fail;
	}
	/*
	 * read() through libtracefs: straight into the slot lent, no copy. Not
	 * tracefs_cpu_open(): 1.6.4 sizes its reads from header_page (a page),
	 * not the instance's sub-buffer size.
	 */
	r->tcpu = tracefs_cpu_alloc_fd(r->fd, (int)page_size, true);
	if (!r->tcpu) {
		tm_fail(ENOMEM, "ring cpu%d", cpu);
		goto fail;
	}
	if (use_mmap)
		m = ring_map(r, path);
	else
		snprintf(r->reason, sizeof(r->reason), "--no-mmap");
	if (m < 0)
		goto fail;
	r->mapped = m == 1;
	r->can_map = r->mapped;
	if (r->page_size < TM_PAGE_HDR + 8) {
		tm_failx(EINVAL, "%s: bad sub-buffer size %zu", path, r->page_size);
		goto fail;
	}
	/* the fill on the read() path (adaptive levels): its stats and its size */
	tm_ring_stats_open(&r->stats, dir, cpu);
	if (!r->mapped)
		r->nr_subbufs = tm_ring_stats_subbufs(dir, cpu, page_size - TM_PAGE_HDR);
	r->stage = calloc(1, r->page_size);
	if (r->mapped && r->stage)
		r->tail = calloc(1, r->page_size);
	if (!r->stage || (r->mapped && !r->tail)) {
		tm_fail(ENOMEM, "ring cpu%d", cpu);
		goto fail;
	}
	return r;
fail:
	tm_ring_close(r);
	return NULL;
}

void tm_ring_close(struct tm_ring *r)
{
	if (!r)
		return;
	if (r->data)
		munmap(r->data, r->data_len);
	if (r->meta)
		munmap(r->meta, r->meta_len);
	if (r->tcpu)
		tracefs_cpu_free_fd(r->tcpu);	/* not the fd: ours */
	if (r->fd >= 0)
		close(r->fd);
	tm_ring_stats_close(&r->stats);
	free(r->stage);
	free(r->tail);
	free(r);
}

void tm_ring_reread_reader(struct tm_ring *r)
{
	r->start_read = 0;
}

int tm_ring_set_partial(struct tm_ring *r, bool on)
{
	if (on && !r->tail) {
		r->tail = calloc(1, r->page_size);
		if (!r->tail)
			return tm_fail(ENOMEM, "ring cpu%d", r->cpu);
	}
	r->partial = on;
	return 0;
}

int tm_ring_fd(const struct tm_ring *r)
{
	return r->fd;
}

bool tm_ring_mapped(const struct tm_ring *r)
{
	return r->mapped;
}

const char *tm_ring_fallback_reason(const struct tm_ring *r)
{
	return r->mapped ? NULL : r->reason;
}

/*
 * The meta page's pages_lost, as of the last GET_READER (the kernel updates
 * the meta page there). Kernels with the pKVM remotes series' names fill it
 * and pages_touched (7.3: the sub-buffers the writer went past unread, and
 * those it wrote to); 6.10-6.18 leave both 0. A kernel that fills them has
 * touched a page once anything was written: until then, unknown.
 */
static void ring_note_subbufs_lost(struct tm_ring *r)
{
	uint64_t lost = __atomic_load_n(&r->meta->pages_lost, __ATOMIC_RELAXED);

	if (__atomic_load_n(&r->meta->pages_touched, __ATOMIC_RELAXED))
		r->subbufs_lost_known = true;
	if (lost < r->subbufs_lost_base)	/* the buffer was reset */
		r->subbufs_lost_base = lost;
	r->subbufs_lost = lost - r->subbufs_lost_base;
}

bool tm_ring_subbufs_lost(const struct tm_ring *r, uint64_t *n)
{
	*n = r->subbufs_lost;
	return r->subbufs_lost_known;
}

uint64_t tm_ring_corrupt_pages(const struct tm_ring *r)
{
	return r->corrupt;
}

/* The staged sub-buffer cannot be walked: count it once, hand out nothing more of it. */
static void ring_stage_corrupt(struct tm_ring *r)
{
	if (!r->stage_bad)
		r->corrupt++;
	r->stage_bad = true;
}

/*
 * How full the ring is, per mille, as of the last GET_READER: the events
 * not yet read (meta page: written - overrun - read) times the mean bytes
 * per event handed out so far, over the ring's data capacity; and all the
 * events written (meta page `entries`, which reads never lower) in the same
 * unit. The read() path has no meta page: per_cpu/cpuN/stats says the same
 * where the ring was mapped once (its geometry is known), else 0.
 */
static void ring_fill_of(const struct tm_ring *r, uint64_t written, uint64_t overrun,
			 uint64_t read, struct tm_ring_fill *fill)
{
	double per_event, backlog;

	if (r->nr_subbufs < 2 || !read || !r->bytes_out)
		return;
	/* per mille of the data capacity per event */
	per_event = (double)r->bytes_out / read * 1000 /
		    ((double)(r->nr_subbufs - 1) * (r->page_size - TM_PAGE_HDR));
	fill->written = (double)written * per_event;
	if (written <= overrun + read)
		return;
	backlog = (double)(written - overrun - read) * per_event;
	fill->permille = backlog >= 1000 ? 1000 : (unsigned int)backlog;
}

void tm_ring_fill(struct tm_ring *r, struct tm_ring_fill *fill)
{
	const volatile struct tm_trace_buffer_meta *m = r->meta;
	uint64_t written, overrun, read;

	*fill = (struct tm_ring_fill){ 0 };
	if (r->mapped)
		ring_fill_of(r, m->entries, m->overrun, m->read, fill);
	else if (tm_ring_stats_get(&r->stats, &written, &overrun, &read))
		ring_fill_of(r, written, overrun, read, fill);
}

/*
 * Hand out stage bytes [emitted, cursor) as a page of their own (spec §7.7):
 * its time stamp is the running time before the first of them, so every
 * delta stays right. The lost flags belong to the first piece only.
 */
static int ring_time_after(struct tm_ring *r, const uint8_t *page, uint64_t *ts);

static int ring_emit_tail(struct tm_ring *r, bool complete, tm_ring_emit_fn emit, void *ctx)
{
	size_t len = r->cursor - r->emitted;
	unsigned long commit = len;

	memcpy(r->tail, &r->emitted_ts, 8);
	memcpy(r->tail + TM_PAGE_HDR, r->stage + TM_PAGE_HDR + r->emitted, len);
	memset(r->tail + TM_PAGE_HDR + len, 0, r->page_size - TM_PAGE_HDR - len);
	memcpy(r->tail + 8, &commit, TM_COMMIT_SIZE);
	if (ring_time_after(r, r->tail, &r->emitted_ts)) {
		ring_stage_corrupt(r);
		return 0;
	}
	r->emitted = r->cursor;
	if (complete) {
		r->staged = false;
		r->cursor = 0;
		r->emitted = 0;
	}
	return emit(ctx, r->tail, r->page_size);
}

/* The running time after the last record of a page. */
static int ring_time_after(struct tm_ring *r, const uint8_t *page, uint64_t *ts)
{
	struct tm_page pg;
	struct tm_rec rec;
	int ret;

	if (tm_page_init(&pg, page, r->page_size, TM_COMMIT_SIZE, tm_host_is_big_endian()))
		return tm_fail_prefix("cpu%d", r->cpu);
	while ((ret = tm_page_next(&pg, &rec)) > 0)
		;
	if (ret < 0)
		return tm_fail_prefix("cpu%d", r->cpu);
	*ts = pg.ts;
	return 0;
}

/*
 * Finish the staged page: our commit word, a lost count if the kernel left
 * none, zeros. With complete false (live mode) the page is handed out as it
 * is so far and the stage stays: later rounds hand out only what follows.
 */
static int ring_emit_stage(struct tm_ring *r, bool complete, tm_ring_emit_fn emit, void *ctx)
{
	unsigned long commit = r->commit;
	size_t end = TM_PAGE_HDR + r->cursor;
	uint32_t flags = (uint32_t)commit;

	if (r->emitted)
		return ring_emit_tail(r, complete, emit, ctx);

	if (r->stage_lost && !(flags & TM_PAGE_MISSED_EVENTS)) {
		/* early mmap kernels did not flag the page: do it as read() would */
		commit |= (unsigned long)TM_PAGE_MISSED_EVENTS;
		if (end + TM_COMMIT_SIZE <= r->page_size) {
			unsigned long n = r->stage_lost;

			memcpy(r->stage + end, &n, TM_COMMIT_SIZE);
			commit |= TM_PAGE_MISSED_STORED;
		}
		flags = (uint32_t)commit;
	}
	if ((flags & TM_PAGE_MISSED_STORED) && end + TM_COMMIT_SIZE <= r->page_size)
		end += TM_COMMIT_SIZE;
	if (!complete) {
		/* a copy: new data lands in the stage right after the cursor */
		memcpy(r->tail, r->stage, end);
		memset(r->tail + end, 0, r->page_size - end);
		memcpy(r->tail + 8, &commit, TM_COMMIT_SIZE);
		if (ring_time_after(r, r->tail, &r->emitted_ts)) {
			ring_stage_corrupt(r);
			return 0;
		}
		r->emitted = r->cursor;
		return emit(ctx, r->tail, r->page_size);
	}
	memset(r->stage + end, 0, r->page_size - end);
	memcpy(r->stage + 8, &commit, TM_COMMIT_SIZE);
	r->staged = false;
	r->cursor = 0;
	return emit(ctx, r->stage, r->page_size);
}

/*
 * A new reader sub-buffer the writer has left (commit == data capacity, the
 * tail padded by the kernel) is final and, while it is the reader, nothing
 * writes to it: hand it out straight from the mapping, with no staging copy.
 * A lost count the kernel did not store needs the staged path.
 */
static bool ring_direct(const struct tm_ring *r, unsigned long commit, size_t len)
{
	return len == r->page_size - TM_PAGE_HDR &&
	       (!r->meta->reader.lost_events || ((uint32_t)commit & TM_PAGE_MISSED_EVENTS));
}

/*
 * The first reader sub-buffer is the one an earlier reader left in part
 * (skip bytes consumed): stage it as if those bytes had been handed
 * out already, so only what follows them goes out, as a page of its own whose
 * time stamp is the running time after them. 0, or -1 when the page is corrupt.
 */
static int ring_skip_read(struct tm_ring *r, const uint8_t *sub, size_t len, size_t skip)
{
	unsigned long commit;

	if (skip > len)
		skip = len;
	commit = skip;

	memcpy(r->tail, sub, 8);
	memcpy(r->tail + TM_PAGE_HDR, sub + TM_PAGE_HDR, skip);
	memset(r->tail + TM_PAGE_HDR + skip, 0, r->page_size - TM_PAGE_HDR - skip);
	memcpy(r->tail + 8, &commit, TM_COMMIT_SIZE);
	if (ring_time_after(r, r->tail, &r->emitted_ts))
		return -1;
	r->cursor = skip;
	r->emitted = skip;
	return 0;
}

/*
 * Copy what is new on the reader sub-buffer id, up to limit bytes of its
 * data. 2: the page was handed out whole, 1: bytes copied, 0: none, -1: error.
 */
static int ring_copy(struct tm_ring *r, uint32_t id, size_t limit, tm_ring_emit_fn emit,
		     void *ctx)
{
	const uint8_t *sub = r->data + (size_t)id * r->page_size;
	size_t resume = id == r->start_id ? r->start_read : 0;
	unsigned long commit;
	size_t len, end;

	commit = __atomic_load_n((const unsigned long *)(sub + 8), __ATOMIC_ACQUIRE);
	len = (uint32_t)commit & TM_PAGE_COMMIT_LEN_MASK;
	if (len > limit) {
		/* the writer is on it: no stored lost count yet, only the flag */
		len = limit;
		commit = (commit & ~(unsigned long)(TM_PAGE_COMMIT_LEN_MASK | TM_PAGE_MISSED_STORED)) |
			 len;
	}
	r->start_read = 0;	/* only the first reader sub-buffer can be the one left */
	if (!r->staged && !resume && ring_direct(r, commit, len)) {
		r->staged = true;
		r->stage_bad = false;
		r->done = true;
		r->stage_id = id;
		r->cursor = len;
		r->bytes_out += len;
		return emit(ctx, sub, r->page_size) ? -1 : 2;
	}
	if (!r->staged) {
		r->staged = true;
		r->stage_bad = false;
		r->stage_id = id;
		r->cursor = 0;
		r->stage_lost = r->meta->reader.lost_events;
		/* an empty page may still carry lost-event flags; never keep a stale word */
		r->commit = commit;
		memcpy(r->stage, sub, 8);
	}
	/* a commit past the sub-buffer: never copy from it (counted, dropped) */
	if (len > r->page_size - TM_PAGE_HDR)
		ring_stage_corrupt(r);
	else if (resume && ring_skip_read(r, sub, len, resume))
		ring_stage_corrupt(r);
	if (r->stage_bad || len <= r->cursor)
		return 0;
	r->bytes_out += len - r->cursor;
	memcpy(r->stage, sub, 8);	/* page timestamp */
	memcpy(r->stage + TM_PAGE_HDR + r->cursor, sub + TM_PAGE_HDR + r->cursor, len - r->cursor);
	end = TM_PAGE_HDR + len;
	if (((uint32_t)commit & TM_PAGE_MISSED_STORED) && end + TM_COMMIT_SIZE <= r->page_size)
		memcpy(r->stage + end, sub + end, TM_COMMIT_SIZE);
	r->cursor = len;
	r->commit = commit;
	return 1;
}

/*
 * The staged reader sub-buffer is not full: the writer is still on it. Each
 * GET_READER walks the events written since the last one, one by one with
 * interrupts off, and they are a few: asking again at once only chases the
 * writer across the page it is filling (cache lines bouncing between the two
 * CPUs; measured at 10x the kernel time per event under saturation). What
 * follows waits for the next wakeup, by when whole sub-buffers are ready.
 */
static bool ring_writer_on_reader(const struct tm_ring *r)
{
	return r->staged && !r->done && r->cursor < r->page_size - TM_PAGE_HDR;
}

/* Nothing staged any more: the next reader sub-buffer starts afresh. */
static void ring_stage_clear(struct tm_ring *r)
{
	r->staged = false;
	r->done = false;
	r->cursor = 0;
	r->emitted = 0;
}

/* The staged page holds records not handed out yet. */
static bool ring_stage_pending(const struct tm_ring *r)
{
	return r->staged && !r->stage_bad && !r->done && r->cursor > r->emitted;
}

/*
 * GET_READER, and the reader sub-buffer's id: when the kernel swapped in a
 * new one, the staged page is complete and goes out (*pages counts it).
 * 1: swapped, 0: the same reader, -1 + message.
 */
static int ring_get_reader(struct tm_ring *r, uint32_t *id, int *pages,
			   tm_ring_emit_fn emit, void *ctx)
{
	while (ioctl(r->fd, TM_TRACE_MMAP_IOCTL_GET_READER) < 0)
		if (errno != EINTR)
			return tm_fail(errno, "cpu%d: GET_READER ioctl", r->cpu);
	*id = __atomic_load_n(&r->meta->reader.id, __ATOMIC_ACQUIRE);
	ring_note_subbufs_lost(r);
	if (*id >= r->meta->nr_subbufs)
		return tm_failx(EIO, "cpu%d: reader sub-buffer %u out of range", r->cpu, *id);
	if (!r->staged || *id == r->stage_id)
		return 0;
	if (!r->stage_bad && !r->done && (r->cursor > r->emitted || !r->emitted)) {
		if (ring_emit_stage(r, true, emit, ctx))
			return -1;
		(*pages)++;
	}
	ring_stage_clear(r);
	return 1;
}

static int ring_drain_mapped(struct tm_ring *r, bool final, tm_ring_emit_fn emit, void *ctx)
{
	int pages = 0, ret;

	for (;;) {
		uint32_t id;
		int swapped = ring_get_reader(r, &id, &pages, emit, ctx);

		if (swapped < 0)
			return -1;
		ret = ring_copy(r, id, SIZE_MAX, emit, ctx);
		if (ret < 0)
			return -1;
		pages += ret == 2;
		if (!ret && !swapped)
			break;
		if (!final && ring_writer_on_reader(r))
			break;
	}
	if ((final || r->partial) && ring_stage_pending(r)) {
		if (ring_emit_stage(r, final, emit, ctx))
			return -1;
		pages++;
	}
	return pages;
}

void tm_ring_lend(struct tm_ring *r, tm_ring_slot_fn slot, void *ctx)
{
	r->slot = slot;
	r->slot_ctx = ctx;
}

/* The consumer's slot for the next page, else the ring's own buffer. */
static uint8_t *ring_read_buf(struct tm_ring *r)
{
	uint8_t *buf = r->slot ? r->slot(r->slot_ctx) : NULL;

	return buf ?: r->stage;
}

/*
 * How many pages a round may read(), -1 for no limit. A read() takes even the
 * page the writer is still filling out of the kernel, and until its chunk is
 * written that page lives only in our memory: a SIGKILL would lose what the
 * ring had kept. So, as on the mapped path, a round takes whole pages only
 * (as many as the unread bytes of the CPU's stats fill), unless it is the
 * last or one that hands out the page in part (tm_ring_set_partial()).
 */
static long ring_read_budget(struct tm_ring *r, bool final)
{
	uint64_t bytes;

	if (final || r->partial || !tm_ring_stats_unread(&r->stats, &bytes))
		return -1;
	return (long)(bytes / (r->page_size - TM_PAGE_HDR));
}

static int ring_drain_read(struct tm_ring *r, bool final, tm_ring_emit_fn emit, void *ctx)
{
	long budget = ring_read_budget(r, final);	/* -1 counts down, never to 0 */
	int pages = 0;
	uint8_t *buf;
	ssize_t n = 0;

	while (budget-- &&
	       (n = tm_ring_read_cpu(r->tcpu, buf = ring_read_buf(r), r->page_size)) > 0) {
		unsigned long commit;

		memcpy(&commit, buf + 8, TM_COMMIT_SIZE);
		r->bytes_out += (uint32_t)commit & TM_PAGE_COMMIT_LEN_MASK;
		if (emit(ctx, buf, r->page_size))
			return -1;
		pages++;
	}
	if (n < 0)
		return tm_fail_prefix("cpu%d", r->cpu);
	return pages;
}

int tm_ring_drain(struct tm_ring *r, bool final, tm_ring_emit_fn emit, void *ctx)
{
	if (r->mapped)
		return ring_drain_mapped(r, final, emit, ctx);
	return ring_drain_read(r, final, emit, ctx);
}

/* Unmap meta page and sub-buffers: the kernel's buffer is no longer mapped. */
static void ring_unmap_all(struct tm_ring *r)
{
	if (r->data)
		munmap(r->data, r->data_len);
	if (r->meta)
		munmap(r->meta, r->meta_len);
	r->data = NULL;
	r->meta = NULL;
	r->mapped = false;
}

int tm_ring_unmap(struct tm_ring *r, tm_ring_emit_fn emit, void *ctx)
{
	uint32_t id, upto;
	int pages = 0;

	if (!r->mapped)
		return 0;
	/*
	 * A last GET_READER marks the reader sub-buffer read up to the writer;
	 * the meta page says how far (reader.read). Take exactly that much:
	 * records the writer adds after it are read()'s, not ours twice.
	 */
	if (ring_get_reader(r, &id, &pages, emit, ctx) < 0)
		return -1;
	upto = __atomic_load_n(&r->meta->reader.read, __ATOMIC_ACQUIRE);
	if (!r->done && ring_copy(r, id, upto, emit, ctx) < 0)
		return -1;
	if (ring_stage_pending(r) && ring_emit_stage(r, true, emit, ctx))
		return -1;
	ring_stage_clear(r);
	ring_unmap_all(r);
	snprintf(r->reason, sizeof(r->reason), "busy");
	return 0;
}

bool tm_ring_remap(struct tm_ring *r)
{
	if (r->mapped || !r->can_map)
		return r->mapped;
	if (ring_map(r, r->path) != 1) {
		int err = errno;

		ring_unmap_all(r);
		r->can_map = false;	/* refused now: stays on read() */
		snprintf(r->reason, sizeof(r->reason), "mapping it again: %s", strerror(err));
		return false;
	}
	r->mapped = true;
	r->staged = false;
	return true;
}
