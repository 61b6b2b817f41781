// SPDX-License-Identifier: GPL-2.0-only
/*
 * recorder.c - one thread per CPU: poll() until the buffer_percent watermark
 * or a timeout, drain the ring into the sink, count pages and loss flags, and
 * a final drain at stop.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "util/internal.h"
#include "ring.h"
#include "tm-recorder.h"
#include "dat/dat-format.h"
#include "record-internal.h"
#include "dat/page.h"
#include "util/tm-error.h"

#define TM_DEFAULT_TIMEOUT_MS	250
/*
 * A CPU that drains this many sub-buffers of records in a window is busy;
 * after this many windows in a row of less than one, quiet again. A window
 * is at least TM_REC_PATH_WINDOW_NS: the rounds of a busy CPU can be many
 * and short, those of a quiet one end at the poll() timeout.
 */
#define TM_REC_BUSY_SUBBUFS	8
#define TM_REC_QUIET_WINDOWS	4
#define TM_REC_PATH_WINDOW_NS	(250 * 1000 * 1000ull)

struct tm_rec_cpu {
	struct tm_recorder		*rec;
	int				cpu;
	struct tm_ring			*ring;
	pthread_t			thread;
	bool				started;
	pid_t				tid;
	int				kick_fd;	/* eventfd: a cut request */
	unsigned int			cut_done;	/* last cut served (under rec->lock) */
	uint64_t			partial_at;	/* last round that handed out a partial page */
	unsigned int			quiet;		/* quiet windows in a row on read() */
	uint64_t			win_ns;		/* the path window began then, */
	uint64_t			win_bytes;	/* at this st.data_bytes */
	struct tm_cpu_record_stats	st;
	char				err[512];
};

struct tm_recorder {
	struct tm_page_sink	sink;
	int			ncpus;
	int			timeout_ms;
	int			reader_nice;	/* tm_recorder_opts.reader_nice */
	bool			emit_partial;
	bool			read_when_busy;
	size_t			page_size;
	uint64_t		partial_ns;	/* tm_recorder_opts.partial_ms */
	int			wake_fd;	/* eventfd: stop request */
	atomic_bool		stop;
	atomic_bool		failed;
	atomic_uint		cut_gen;	/* cuts asked for */
	pthread_mutex_t		lock;		/* cut_done of the CPUs */
	pthread_cond_t		cut_cond;	/* a cut was served, or a thread failed */
	sem_t			ready;
	bool			sem_ok;
	struct tm_rec_cpu	*cpus;
};

/*
 * Page accounting: the header's loss flags, and for a page copied out of the
 * mapping (walk) one pass over the record lengths, so that a page a racing
 * writer made impossible (a record running past the commit) is counted and
 * never reaches the file. A page read() handed over was built by the kernel
 * under its reader lock, where no writer reaches: for the file it is checked
 * by its commit word, its records not walked again (~4 ns an event, 5% of the
 * recorder's CPU on a saturated CPU, which is on read()). The event count is
 * not taken here: it comes from the kernel (per_cpu/cpuN/stats "read events",
 * which counts exactly what the reader was handed).
 */
bool tm_record_stats_add_page(struct tm_cpu_record_stats *st, const void *page, size_t size,
			      bool walk)
{
	struct tm_page pg;

	if (tm_page_init(&pg, page, size, sizeof(unsigned long), tm_host_is_big_endian())) {
		st->corrupt_pages++;
		return false;
	}
	if (walk && tm_page_check(&pg) < 0) {
		st->corrupt_pages++;
		return false;
	}
	st->pages++;
	st->data_bytes += pg.len;
	/* one writer (this thread); the status line reads it while we write */
	__atomic_store_n(&st->raw_bytes, st->raw_bytes + size, __ATOMIC_RELAXED);
	if (pg.lost) {
		st->lost_pages++;
		if (pg.lost > 0)
			st->lost_stored += pg.lost;
		else
			st->lost_unknown++;
	}
	return true;
}

/* The sink's slot for the CPU's next page (tm_ring_lend()). */
static void *rec_slot(void *ctx)
{
	struct tm_rec_cpu *c = ctx;

	return c->rec->sink.slot(c->rec->sink.ctx, c->cpu);
}

/*
 * Whether a page's records are walked before the sink: pages copied out of
 * the mapping always; read()'s only for a sink that lends no slot (flight,
 * stream), which walks every page itself and would fail the recording on a
 * bad one, so the check costs it little and keeps such a page a counted loss.
 */
static bool rec_walks(const struct tm_rec_cpu *c)
{
	return tm_ring_mapped(c->ring) || !c->rec->sink.slot;
}

/* Page accounting, then the sink; a corrupt page is counted and dropped. */
static int rec_emit(void *ctx, const void *page, size_t size)
{
	struct tm_rec_cpu *c = ctx;

	if (!tm_record_stats_add_page(&c->st, page, size, rec_walks(c)))
		return 0;
	if (c->rec->sink.fill) {
		struct tm_ring_fill fill;

		tm_ring_fill(c->ring, &fill);
		c->rec->sink.fill(c->rec->sink.ctx, c->cpu, &fill);
	}
	return c->rec->sink.page(c->rec->sink.ctx, c->cpu, page, size);
}

static int rec_round(struct tm_rec_cpu *c, bool final)
{
	struct tm_recorder *rec = c->rec;

	if (tm_ring_drain(c->ring, final, rec_emit, c) < 0)
		return -1;
	if (rec->sink.flush && rec->sink.flush(rec->sink.ctx, c->cpu))
		return -1;
	return 0;
}

static uint64_t rec_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * A round that hands out the page read in part too, when partial_ns passed
 * since the last one: what the ring gave us reaches the sink within that
 * time even on a CPU too quiet to fill a page (the rest of that page follows
 * as a page of its own).
 */
static int rec_round_timed(struct tm_rec_cpu *c)
{
	struct tm_recorder *rec = c->rec;
	uint64_t now;

	if (!rec->partial_ns || rec->emit_partial)
		return rec_round(c, false);
	now = rec_now_ns();
	if (now - c->partial_at < rec->partial_ns)
		return rec_round(c, false);
	c->partial_at = now;
	if (tm_ring_set_partial(c->ring, true) || rec_round(c, false))
		return -1;
	return tm_ring_set_partial(c->ring, false);
}

/* Everything so far to the sink, the partial page too, then the sink's cut. */
static int rec_cut(struct tm_rec_cpu *c, unsigned int gen)
{
	struct tm_recorder *rec = c->rec;

	if (tm_ring_set_partial(c->ring, true))
		return -1;
	if (rec_round(c, false))
		return -1;
	if (!rec->emit_partial && tm_ring_set_partial(c->ring, false))
		return -1;
	if (rec->sink.cut && rec->sink.cut(rec->sink.ctx, c->cpu))
		return -1;
	pthread_mutex_lock(&rec->lock);
	c->cut_done = gen;
	pthread_cond_broadcast(&rec->cut_cond);
	pthread_mutex_unlock(&rec->lock);
	return 0;
}

/*
 * After a round, once a window has passed: a busy mapped CPU goes over to
 * read(), a CPU on read() since then goes back once quiet (a ring the
 * kernel refuses to map again stays on read()).
 */
static int rec_pick_path(struct tm_rec_cpu *c)
{
	size_t sub = c->rec->page_size;
	uint64_t now, drained;

	if (!c->rec->read_when_busy)
		return 0;
	now = rec_now_ns();
	if (now - c->win_ns < TM_REC_PATH_WINDOW_NS)
		return 0;
	/* record bytes drained per TM_REC_PATH_WINDOW_NS */
	drained = (uint64_t)((double)(c->st.data_bytes - c->win_bytes) * TM_REC_PATH_WINDOW_NS /
			     (double)(now - c->win_ns));
	c->win_ns = now;
	c->win_bytes = c->st.data_bytes;
	if (tm_ring_mapped(c->ring)) {
		if (drained < TM_REC_BUSY_SUBBUFS * sub)
			return 0;
		c->quiet = 0;
		c->st.read_spells++;
		return tm_ring_unmap(c->ring, rec_emit, c);
	}
	if (!c->st.read_spells || drained >= sub) {
		c->quiet = 0;
		return 0;
	}
	if (++c->quiet >= TM_REC_QUIET_WINDOWS) {
		c->quiet = 0;
		if (tm_ring_remap(c->ring))
			c->st.remaps++;
		else
			c->st.remap_refused = true;
	}
	return 0;
}

static int rec_loop(struct tm_rec_cpu *c)
{
	struct tm_recorder *rec = c->rec;
	struct pollfd pfd[3] = {
		{ .fd = tm_ring_fd(c->ring), .events = POLLIN },
		{ .fd = rec->wake_fd, .events = POLLIN },
		{ .fd = c->kick_fd, .events = POLLIN },
	};
	unsigned int gen;
	uint64_t n;

	/* the first window counts the first round: a burst may be all in it */
	c->win_ns = rec_now_ns();
	c->win_bytes = c->st.data_bytes;
	while (!atomic_load(&rec->stop)) {
		if (poll(pfd, 3, rec->timeout_ms) < 0 && errno != EINTR)
			return tm_fail(errno, "cpu%d: poll", c->cpu);
		if (atomic_load(&rec->stop))
			break;
		/* the request itself is cut_gen: the eventfd only wakes us */
		if ((pfd[2].revents & POLLIN) && read(c->kick_fd, &n, sizeof(n)) < 0 &&
		    errno != EAGAIN)
			return tm_fail(errno, "cpu%d: cut request", c->cpu);
		gen = atomic_load(&rec->cut_gen);
		if (gen != c->cut_done) {
			if (rec_cut(c, gen))
				return -1;
			continue;
		}
		if (rec_round_timed(c) || rec_pick_path(c))
			return -1;
	}
	return rec_round(c, true);
}

/*
 * The reader's nice value, where the process may set it (a user without
 * CAP_SYS_NICE keeps the process's): with 200 busy tasks on its CPU (perf
 * bench messaging), a reader at nice 0 got its turn too late and its ring
 * ran over in 2 of 4 repetitions; at -10, in none. It does the same work
 * either way, only sooner.
 */
static void rec_thread_nice(struct tm_rec_cpu *c)
{
	if (c->rec->reader_nice != TM_READER_NICE_KEEP)
		setpriority(PRIO_PROCESS, (id_t)c->tid, c->rec->reader_nice);
	errno = 0;
	c->st.nice = getpriority(PRIO_PROCESS, (id_t)c->tid);
}

static void *rec_thread(void *arg)
{
	struct tm_rec_cpu *c = arg;
	struct tm_recorder *rec = c->rec;

	c->tid = gettid();
	rec_thread_nice(c);
	sem_post(&rec->ready);
	if (rec_loop(c)) {
		c->st.error = errno ? errno : EIO;
		snprintf(c->err, sizeof(c->err), "%s", tm_last_error());
		atomic_store(&rec->failed, true);
		pthread_mutex_lock(&rec->lock);
		pthread_cond_broadcast(&rec->cut_cond);	/* a waiting cut gives up */
		pthread_mutex_unlock(&rec->lock);
	}
	return NULL;
}

struct tm_recorder *tm_recorder_create(const char *instance_dir, size_t page_size,
				       const struct tm_recorder_opts *opts,
				       const struct tm_page_sink *sink)
{
	struct tm_recorder *rec = calloc(1, sizeof(*rec));
	cpu_set_t allowed;

	if (!rec) {
		tm_fail(ENOMEM, "recorder");
		return NULL;
	}
	rec->wake_fd = -1;
	rec->sink = *sink;
	rec->ncpus = opts->ncpus;
	rec->emit_partial = opts->emit_partial;
	rec->partial_ns = (uint64_t)opts->partial_ms * 1000000;
	rec->reader_nice = opts->reader_nice;
	rec->read_when_busy = opts->read_when_busy && opts->use_mmap;
	rec->page_size = page_size;
	pthread_mutex_init(&rec->lock, NULL);
	pthread_cond_init(&rec->cut_cond, NULL);
	rec->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : TM_DEFAULT_TIMEOUT_MS;
	rec->cpus = calloc(opts->ncpus, sizeof(*rec->cpus));
	if (!rec->cpus) {
		tm_fail(ENOMEM, "recorder");
		goto fail;
	}
	for (int cpu = 0; cpu < opts->ncpus; cpu++)
		rec->cpus[cpu].kick_fd = -1;
	if (sem_init(&rec->ready, 0, 0)) {
		tm_fail(errno, "recorder: sem_init");
		goto fail;
	}
	rec->sem_ok = true;
	rec->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rec->wake_fd < 0) {
		tm_fail(errno, "recorder: eventfd");
		goto fail;
	}
	if (opts->pin && sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);	/* unknown: leave every thread to the scheduler */
	for (int cpu = 0; cpu < opts->ncpus; cpu++) {
		struct tm_rec_cpu *c = &rec->cpus[cpu];

		c->rec = rec;
		c->cpu = cpu;
		if (!opts->cpus[cpu])
			continue;
		c->kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (c->kick_fd < 0) {
			tm_fail(errno, "recorder: eventfd");
			goto fail;
		}
		c->ring = tm_ring_open(instance_dir, cpu, page_size, opts->use_mmap);
		if (!c->ring)
			goto fail;
		if (opts->emit_partial && tm_ring_set_partial(c->ring, true))
			goto fail;
		if (sink->slot)
			tm_ring_lend(c->ring, rec_slot, c);
		c->st.traced = true;
		c->st.mapped = tm_ring_mapped(c->ring);
		/* a CPU the user's affinity (taskset, cpuset) leaves out stays theirs */
		c->st.pinned = opts->pin && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed);
	}
	return rec;
fail:
	tm_recorder_destroy(rec);
	return NULL;
}

/* The CPU's thread, on that CPU when pinned; 0 or an errno. */
static int rec_thread_create(struct tm_rec_cpu *c)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	if (!c->st.pinned)
		return pthread_create(&c->thread, NULL, rec_thread, c);
	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	err = pthread_attr_init(&attr);
	if (err)
		return err;
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(&c->thread, &attr, rec_thread, c);
	pthread_attr_destroy(&attr);
	if (err == EINVAL) {
		/* the CPU went offline or out of our cpuset meanwhile: unpinned */
		c->st.pinned = false;
		err = pthread_create(&c->thread, NULL, rec_thread, c);
	}
	return err;
}

int tm_recorder_start(struct tm_recorder *rec, pid_t *tids, size_t *ntids)
{
	sigset_t all, old;
	int started = 0, err = 0;

	*ntids = 0;
	/* signals belong to the main thread (cmd/), never to a recorder thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (int cpu = 0; cpu < rec->ncpus && !err; cpu++) {
		struct tm_rec_cpu *c = &rec->cpus[cpu];

		if (!c->ring)
			continue;
		err = rec_thread_create(c);
		if (err)
			break;
		c->started = true;
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (int i = 0; i < started; i++)
		while (sem_wait(&rec->ready) && errno == EINTR)
			;
	for (int cpu = 0; cpu < rec->ncpus; cpu++)
		if (rec->cpus[cpu].started)
			tids[(*ntids)++] = rec->cpus[cpu].tid;
	if (err)
		return tm_fail(err, "recorder: start thread");
	return 0;
}

/* The message of the first CPU whose thread failed. */
static const char *recorder_error(const struct tm_recorder *rec)
{
	for (int cpu = 0; cpu < rec->ncpus; cpu++)
		if (rec->cpus[cpu].st.error)
			return rec->cpus[cpu].err;
	return NULL;
}

/* True once every running thread served cut gen (or one failed); under rec->lock. */
static bool rec_cut_served(const struct tm_recorder *rec, unsigned int gen)
{
	for (int cpu = 0; cpu < rec->ncpus; cpu++)
		if (rec->cpus[cpu].started && rec->cpus[cpu].cut_done != gen)
			return false;
	return true;
}

int tm_recorder_cut(struct tm_recorder *rec)
{
	unsigned int gen = atomic_fetch_add(&rec->cut_gen, 1) + 1;
	uint64_t one = 1;

	for (int cpu = 0; cpu < rec->ncpus; cpu++) {
		struct tm_rec_cpu *c = &rec->cpus[cpu];

		if (c->started && write(c->kick_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
			return tm_fail(errno, "recorder: cut cpu%d", cpu);
	}
	pthread_mutex_lock(&rec->lock);
	while (!rec_cut_served(rec, gen) && !tm_recorder_failed(rec))
		pthread_cond_wait(&rec->cut_cond, &rec->lock);
	pthread_mutex_unlock(&rec->lock);
	if (tm_recorder_failed(rec))
		return tm_failx(EIO, "%s", recorder_error(rec));
	return 0;
}

int tm_recorder_stop(struct tm_recorder *rec)
{
	uint64_t one = 1;

	atomic_store(&rec->stop, true);
	if (write(rec->wake_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		return tm_fail(errno, "recorder: wake threads");
	for (int cpu = 0; cpu < rec->ncpus; cpu++) {
		struct tm_rec_cpu *c = &rec->cpus[cpu];

		if (c->started)
			pthread_join(c->thread, NULL);
		c->started = false;
	}
	if (tm_recorder_failed(rec))
		return tm_failx(EIO, "%s", recorder_error(rec));
	return 0;
}

bool tm_recorder_failed(const struct tm_recorder *rec)
{
	return atomic_load(&((struct tm_recorder *)rec)->failed);
}

void tm_recorder_get_stats(const struct tm_recorder *rec, int cpu,
			   struct tm_cpu_record_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (cpu >= 0 && cpu < rec->ncpus) {
		*st = rec->cpus[cpu].st;
		if (rec->cpus[cpu].ring) {
			st->corrupt_pages += tm_ring_corrupt_pages(rec->cpus[cpu].ring);
			st->subbufs_lost_known = tm_ring_subbufs_lost(rec->cpus[cpu].ring,
								      &st->subbufs_lost);
		}
	}
}

uint64_t tm_recorder_raw_bytes(const struct tm_recorder *rec, int cpu)
{
	if (cpu < 0 || cpu >= rec->ncpus)
		return 0;
	/* the CPU's thread adds to it; an aligned 64-bit load sees whole values */
	return __atomic_load_n(&rec->cpus[cpu].st.raw_bytes, __ATOMIC_RELAXED);
}

const char *tm_recorder_fallback_reason(const struct tm_recorder *rec, int cpu)
{
	if (cpu < 0 || cpu >= rec->ncpus || !rec->cpus[cpu].ring)
		return NULL;
	return tm_ring_fallback_reason(rec->cpus[cpu].ring);
}

void tm_recorder_destroy(struct tm_recorder *rec)
{
	if (!rec)
		return;
	if (rec->cpus) {
		bool running = false;

		for (int cpu = 0; cpu < rec->ncpus; cpu++)
			running |= rec->cpus[cpu].started;
		if (running)
			tm_recorder_stop(rec);
		for (int cpu = 0; cpu < rec->ncpus; cpu++) {
			tm_ring_close(rec->cpus[cpu].ring);
			if (rec->cpus[cpu].kick_fd >= 0)
				close(rec->cpus[cpu].kick_fd);
		}
		free(rec->cpus);
	}
	if (rec->wake_fd >= 0)
		close(rec->wake_fd);
	pthread_mutex_destroy(&rec->lock);
	pthread_cond_destroy(&rec->cut_cond);
	if (rec->sem_ok)
		sem_destroy(&rec->ready);
	free(rec);
}
