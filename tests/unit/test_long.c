// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_long.c - long recordings without a kernel: page trimming, the flight
 * window (dumps cut to the common window, oldest chunks dropped), rotating
 * spools, writing from memory, LAST_BOOT_INFO, and the reused-instance
 * journal.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/sysinfo.h>
#include <glob.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tracefs.h>

#include "dat/dat-format.h"
#include "dat/dat-internal.h"
#include "util/internal.h"
#include "longrec/longrec-internal.h"
#include "tracefs/meta-internal.h"
#include "tm_fixtures.h"
#include "tm_test.h"
#include "tracefs/tracefs-internal.h"
#include "dat/page.h"
#include "record/record-internal.h"
#include "record/spool.h"
#include "util/tm-error.h"
#include "dat/tm-dat.h"

#define PAGE	4096
#define NCPUS	TM_FIXTURE_CPUS
#define MAXREC	4096

/* Record times of a run of pages. */
struct times {
	uint64_t	ts[MAXREC];
	size_t		n;
};

static void page_times(struct tm_test *t, const void *page, struct times *out)
{
	struct tm_page pg;
	struct tm_rec rec;
	int r;

	TM_REQUIRE(!tm_page_init(&pg, page, PAGE, 8, tm_host_is_big_endian()));
	while ((r = tm_page_next(&pg, &rec)) > 0 && out->n < MAXREC)
		out->ts[out->n++] = rec.ts;
	TM_CHECK(r >= 0);
}

/* A fixture CPU's raw pages (*len bytes); the caller frees. */
static char *raw_pages(char set, int cpu, size_t *len)
{
	char name[64];

	snprintf(name, sizeof(name), "raw/%c.cpu%d.raw", set, cpu);
	return tm_read_file(tm_fixture(name), len);
}

static void raw_times(struct tm_test *t, char set, int cpu, struct times *out)
{
	size_t len;
	char *raw = raw_pages(set, cpu, &len);

	out->n = 0;
	TM_REQUIRE(raw);
	for (size_t off = 0; off + PAGE <= len; off += PAGE)
		page_times(t, raw + off, out);
	free(raw);
}

/* The record times of one CPU of a trace.dat, through the reader's cursor. */
static void dat_times(struct tm_test *t, const char *path, int cpu, struct times *out)
{
	struct tm_dat *dat = tm_dat_open(path);
	struct tm_cursor *cur;
	const void *page;

	out->n = 0;
	TM_REQUIRE(dat);
	cur = tm_cursor_open(dat, 0, cpu);
	while (cur && (page = tm_cursor_next_page(cur)))
		page_times(t, page, out);
	tm_cursor_close(cur);
	tm_dat_close(dat);
}

/* trace-cmd 3.1.6 reads the file without a word on stderr. */
static void trace_cmd_reads(struct tm_test *t, const char *path)
{
	char cmd[4200];
	size_t len;
	int status;
	char *out;

	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>&1 >/dev/null", path);
	out = tm_run(cmd, &len, &status);
	TM_REQUIRE(out);
	TM_CHECK_INT(status, 0);
	TM_CHECK_INT(len, 0);
	free(out);
}

TM_TEST(page_trim_keeps_later_records_and_their_times)
{
	size_t len;
	char *raw = raw_pages('A', 0, &len);
	uint8_t out[PAGE];

	TM_REQUIRE(raw);
	for (size_t off = 0; off + PAGE <= len; off += PAGE) {
		struct times all = { .n = 0 }, kept;

		page_times(t, raw + off, &all);
		for (size_t cut = 0; cut < all.n; cut += 7) {
			int n = tm_page_trim(raw + off, PAGE, 8, tm_host_is_big_endian(),
					     all.ts[cut], out);

			kept.n = 0;
			page_times(t, out, &kept);
			/* records of the same time before the cut stay too */
			TM_CHECK(n >= 0 && (size_t)n == kept.n && kept.n <= all.n - cut);
			for (size_t i = 0; i < kept.n; i++)
				TM_CHECK_INT(kept.ts[i], all.ts[all.n - kept.n + i]);
			TM_CHECK(kept.n && kept.ts[0] >= all.ts[cut]);
		}
		TM_CHECK_INT(tm_page_trim(raw + off, PAGE, 8, tm_host_is_big_endian(),
					  all.ts[all.n - 1] + 1, out), 0);
	}
	free(raw);
}

/* Feed set's pages into a sink, CPU by CPU, then cut every CPU. */
static void feed(struct tm_test *t, struct tm_page_sink *sink, char set)
{
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		size_t len;
		char *raw = raw_pages(set, cpu, &len);

		TM_REQUIRE(raw);
		for (size_t off = 0; off + PAGE <= len; off += PAGE)
			TM_CHECK_INT(sink->page(sink->ctx, cpu, raw + off, PAGE), 0);
		free(raw);
		TM_CHECK_INT(sink->cut(sink->ctx, cpu), 0);
	}
}

static int dump(struct tm_flight *f, struct tm_meta *meta, const char *path,
		enum tm_compression c, struct tm_flight_dump_info *info)
{
	struct tm_write_opts wo = { .version = c == TM_COMPRESS_NONE ? 6 : 7,
				    .compression = c, .level = 1, .page_size = PAGE };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), ret;

	if (fd < 0)
		return -1;
	ret = tm_flight_dump(f, fd, meta, &wo, info);
	if (ret)
		fprintf(stderr, "  dump: %s\n", tm_last_error());
	close(fd);
	return ret;
}

/*
 * Every CPU of the dump holds exactly its records from info->start on, and
 * info->start is the dump's first record: a CPU whose older records were
 * dropped never leaves a stretch the others show.
 */
static void check_common_window(struct tm_test *t, const char *path,
				const struct tm_flight_dump_info *info, size_t *in_file)
{
	*in_file = 0;
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		struct times want, got, *all = malloc(sizeof(*all));

		TM_REQUIRE(all);
		raw_times(t, 'A', cpu, all);
		want.n = 0;
		for (size_t i = 0; i < all->n; i++)
			if (all->ts[i] >= info->start)
				want.ts[want.n++] = all->ts[i];
		dat_times(t, path, cpu, &got);
		/* every record from the window's start on: no CPU has a gap in it */
		TM_CHECK_INT(got.n, want.n);
		for (size_t i = 0; i < got.n && i < want.n; i++)
			TM_CHECK_INT(got.ts[i], want.ts[i]);
		TM_CHECK(!got.n || got.ts[0] >= info->start);
		*in_file += got.n;
		free(all);
	}
	TM_CHECK_INT(*in_file, info->events);
}

static void flight_dump_case(struct tm_test *t, enum tm_compression c)
{
	const bool cpus[NCPUS] = { true, true };
	struct tm_flight_opts fo = { .size = 1 << 20, .compression = c, .level = 1,
				     .page_size = PAGE, .chunk_pages = 2, .ncpus = NCPUS,
				     .cpus = cpus };
	struct tm_flight *f = tm_flight_new(&fo);
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	struct tm_flight_dump_info info;
	struct times t0, t1;
	char *dir = tm_scratch_dir(), path[4200];
	struct tm_page_sink sink;
	size_t in_file;

	TM_REQUIRE(f && meta && dir);
	sink = tm_flight_sink(f);
	feed(t, &sink, 'A');
	snprintf(path, sizeof(path), "%s/dump.dat", dir);
	TM_REQUIRE(!dump(f, meta, path, c, &info));
	raw_times(t, 'A', 0, &t0);
	raw_times(t, 'A', 1, &t1);
	/* nothing was dropped: every CPU whole, from the earlier CPU's first record */
	TM_CHECK_INT(info.start, t0.ts[0] < t1.ts[0] ? t0.ts[0] : t1.ts[0]);
	TM_CHECK_INT(info.end, t0.ts[t0.n - 1] > t1.ts[t1.n - 1] ? t0.ts[t0.n - 1]
							      : t1.ts[t1.n - 1]);
	check_common_window(t, path, &info, &in_file);
	/* a CPU that starts later was idle before: nothing trimmed, nothing dropped */
	TM_CHECK_INT(in_file, t0.n + t1.n);
	TM_CHECK_INT(info.trimmed, 0);
	TM_CHECK_INT(info.dropped, 0);
	TM_CHECK(strstr(meta->stats[0].data, "dropped from the flight window: 0\n"));
	trace_cmd_reads(t, path);
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
	tm_flight_free(f);
}

TM_TEST(flight_dump_covers_the_same_window_on_every_cpu)
{
	flight_dump_case(t, TM_COMPRESS_ZSTD);
	flight_dump_case(t, TM_COMPRESS_NONE);
}

TM_TEST(flight_window_drops_the_oldest_chunks)
{
	const bool cpus[NCPUS] = { true, true };
	/* raw chunks of one page, one mapping of a page each: room for three */
	struct tm_flight_opts fo = { .size = 3 * (PAGE + 4096), .compression = TM_COMPRESS_NONE,
				     .page_size = PAGE, .chunk_pages = 1, .ncpus = NCPUS,
				     .cpus = cpus };
	struct tm_flight *f = tm_flight_new(&fo);
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	struct tm_flight_dump_info info, again;
	char *dir = tm_scratch_dir(), path[4200];
	struct tm_page_sink sink;
	struct times t0, t1;
	size_t in_file;

	TM_REQUIRE(f && meta && dir);
	sink = tm_flight_sink(f);
	feed(t, &sink, 'A');
	snprintf(path, sizeof(path), "%s/dump.dat", dir);
	TM_REQUIRE(!dump(f, meta, path, TM_COMPRESS_NONE, &info));
	raw_times(t, 'A', 0, &t0);
	raw_times(t, 'A', 1, &t1);
	check_common_window(t, path, &info, &in_file);
	TM_CHECK(in_file < t0.n + t1.n);
	TM_CHECK(info.dropped > 0);
	TM_CHECK_INT(in_file + info.dropped + info.trimmed, t0.n + t1.n);
	/* a second dump of the same window writes the same */
	TM_REQUIRE(!dump(f, meta, path, TM_COMPRESS_NONE, &again));
	TM_CHECK_INT(again.events, info.events);
	TM_CHECK_INT(again.start, info.start);
	trace_cmd_reads(t, path);
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
	tm_flight_free(f);
}

/*
 * A quiet CPU's one chunk spans the whole recording while a busy CPU cuts a
 * chunk a page: the busy CPU's older chunks go first, never the quiet one's
 * (dropping it would cut the dump to its last record: nothing left).
 */
TM_TEST(flight_window_keeps_a_quiet_cpus_long_chunk)
{
	const bool cpus[NCPUS] = { true, true };
	/* CPU 0: one chunk of its 5 pages (24 KiB mapped); CPU 1: chunks of a page (8 KiB) */
	struct tm_flight_opts fo = { .size = 24576 + 2 * 8192, .compression = TM_COMPRESS_NONE,
				     .page_size = PAGE, .chunk_pages = 8, .ncpus = NCPUS,
				     .cpus = cpus };
	struct tm_flight *f = tm_flight_new(&fo);
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	struct tm_page_sink sink;
	struct tm_flight_dump_info info;
	char *dir = tm_scratch_dir(), path[4200];
	size_t len0, len1, in_file;
	char *raw0 = raw_pages('A', 0, &len0), *raw1 = raw_pages('A', 1, &len1);
	struct times t0, t1;

	TM_REQUIRE(f && meta && dir && raw0 && raw1);
	sink = tm_flight_sink(f);
	for (size_t off = 0; off + PAGE <= len0; off += PAGE)
		TM_CHECK_INT(sink.page(sink.ctx, 0, raw0 + off, PAGE), 0);
	for (size_t off = 0; off + PAGE <= len1; off += PAGE) {
		if (off + PAGE == len1)	/* the quiet CPU's chunk ends before the last */
			TM_CHECK_INT(sink.cut(sink.ctx, 0), 0);
		TM_CHECK_INT(sink.page(sink.ctx, 1, raw1 + off, PAGE), 0);
		TM_CHECK_INT(sink.cut(sink.ctx, 1), 0);
	}
	snprintf(path, sizeof(path), "%s/dump.dat", dir);
	TM_REQUIRE(!dump(f, meta, path, TM_COMPRESS_NONE, &info));
	raw_times(t, 'A', 0, &t0);
	raw_times(t, 'A', 1, &t1);
	TM_CHECK(info.dropped > 0);
	check_common_window(t, path, &info, &in_file);
	/* both CPUs' last records are in it, the quiet CPU's whole chunk from the start on */
	TM_CHECK(info.start <= t0.ts[t0.n - 1] && info.start <= t1.ts[t1.n - 1]);
	TM_CHECK_INT(in_file + info.dropped + info.trimmed, t0.n + t1.n);
	trace_cmd_reads(t, path);
	tm_scratch_remove(dir);
	free(dir);
	free(raw0);
	free(raw1);
	tm_meta_free(meta);
	tm_flight_free(f);
}

/* Number of spool files left in dir. */
static size_t spools_in(const char *dir)
{
	char pat[4200];
	glob_t g;
	size_t n;

	snprintf(pat, sizeof(pat), "%s/*.spool", dir);
	if (glob(pat, 0, NULL, &g))
		return 0;
	n = g.gl_pathc;
	globfree(&g);
	return n;
}

/* Write the spools tm_rotor_take() hands out as path; -1 on failure. */
static int rotor_file(struct tm_rotor *r, bool final, struct tm_meta *meta, const char *path)
{
	struct tm_write_opts wo = { .version = 7, .compression = TM_COMPRESS_ZSTD, .level = 1,
				    .page_size = PAGE };
	struct tm_spool **spools;
	int fd, ret = -1;

	if (tm_rotor_take(r, final, &spools))
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ret = tm_spools_write_dat(fd, meta, spools, NCPUS, &wo);
		close(fd);
	}
	tm_rotor_release(r, ret == 0);
	return ret;
}

/* KernelShark 2.2.1 opens a trace.dat only by a name that ends in ".dat". */
TM_TEST(numbered_names_keep_the_dat_extension_last)
{
	static const struct {
		const char	*output;
		unsigned int	n;
		const char	*name;
	} cases[] = {
		{ "trace.dat", 1, "trace.0001.dat" },
		{ "/tmp/run/sw.dat", 12, "/tmp/run/sw.0012.dat" },
		{ "trace.dat", 12345, "trace.12345.dat" },
		{ "out", 2, "out.0002.dat" },
		{ "a.dat.dat", 3, "a.dat.0003.dat" },
		{ "trace.DAT", 1, "trace.DAT.0001.dat" },	/* KernelShark's test is exact */
		{ ".dat", 1, ".dat.0001.dat" },
		{ "dir/.dat", 1, "dir/.dat.0001.dat" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TM_CHECK_INT(tm_longrec_name(buf, sizeof(buf), cases[i].output, cases[i].n), 0);
		TM_CHECK_STR(buf, cases[i].name);
	}
	TM_CHECK_INT(tm_longrec_name(buf, 14, "trace.dat", 1), -1);	/* no room for the NUL */
	TM_CHECK_INT(errno, ENAMETOOLONG);
}

/*
 * A rotor for dir/out.dat fed fixture A's pages of each CPU, at most pages of
 * them (0: all), with a cut after the third: NULL on failure (checked in t).
 */
static struct tm_rotor *rotor_fed(struct tm_test *t, const char *dir, size_t pages)
{
	const bool cpus[NCPUS] = { true, true };
	struct tm_spool_opts so = { .compression = TM_COMPRESS_ZSTD, .level = 1,
				    .page_size = PAGE, .chunk_pages = 2 };
	char base[4200];
	struct tm_rotor *r;
	struct tm_page_sink sink;

	snprintf(base, sizeof(base), "%s/out.dat", dir);
	r = tm_rotor_new(base, &so, NCPUS, cpus);
	if (!r)
		return NULL;
	TM_CHECK_INT(spools_in(dir), NCPUS);
	sink = tm_rotor_sink(r);
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		size_t len;
		char *raw = raw_pages('A', cpu, &len);

		if (!raw)
			continue;
		for (size_t off = 0; off + PAGE <= len && (!pages || off < pages * PAGE);
		     off += PAGE) {
			TM_CHECK_INT(sink.page(sink.ctx, cpu, raw + off, PAGE), 0);
			if (off == 2 * PAGE)	/* the cut: three pages in file 1 */
				TM_CHECK_INT(sink.cut(sink.ctx, cpu), 0);
		}
		free(raw);
	}
	return r;
}

TM_TEST(rotor_splits_pages_between_files_without_gap_or_repeat)
{
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), base[4200], f1[4300], f2[4300];
	struct tm_rotor *r;

	TM_REQUIRE(meta && dir);
	snprintf(base, sizeof(base), "%s/out.dat", dir);
	r = rotor_fed(t, dir, 0);
	TM_REQUIRE(r);
	TM_CHECK(tm_rotor_bytes(r) > 0);
	TM_REQUIRE(!tm_longrec_name(f1, sizeof(f1), base, 1));
	TM_REQUIRE(!tm_longrec_name(f2, sizeof(f2), base, 2));
	TM_CHECK_INT(rotor_file(r, false, meta, f1), 0);
	TM_CHECK_INT(rotor_file(r, true, meta, f2), 0);
	TM_CHECK_INT(spools_in(dir), 0);
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		struct times all, a, b;

		raw_times(t, 'A', cpu, &all);
		dat_times(t, f1, cpu, &a);
		dat_times(t, f2, cpu, &b);
		TM_CHECK_INT(a.n + b.n, all.n);
		for (size_t i = 0; i < all.n && a.n + b.n == all.n; i++)
			TM_CHECK_INT(i < a.n ? a.ts[i] : b.ts[i - a.n], all.ts[i]);
		/* what recover of file 2 drops when it rereads the reader sub-buffer */
		TM_REQUIRE(a.n > 0);
		TM_CHECK_INT(tm_rotor_cut_times(r)[cpu], a.ts[a.n - 1]);
	}
	trace_cmd_reads(t, f1);
	trace_cmd_reads(t, f2);
	tm_rotor_free(r);
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}

/*
 * A rotation's note: the number before named at its start, the cut's times
 * appended after it, every CPU's read back, and the rest of the note intact.
 */
TM_TEST(spool_note_keeps_a_rotations_cut_times)
{
	struct tm_spool_info in = {
		.pid = getpid(), .version = 7, .compression = TM_COMPRESS_ZSTD, .level = 3,
		.page_size = PAGE, .ncpus = 3, .instance = "tm-unit-cut",
		.previous = "/x/out.0001.dat",
	};
	const uint64_t cut[3] = { 18446744073709551615ull, 0, 1234567 };
	char *dir = tm_scratch_dir(), prefix[4200];
	struct tm_spool_info got;
	uint64_t ts[3] = { 1, 1, 1 }, one;

	TM_REQUIRE(dir);
	snprintf(prefix, sizeof(prefix), "%s/out.0002.dat", dir);
	TM_CHECK_INT(tm_spool_info_write(prefix, &in), 0);
	TM_CHECK_INT(tm_spool_info_cuts(prefix, ts, 3), 0);
	TM_CHECK(!ts[0] && !ts[1] && !ts[2]);
	TM_CHECK_INT(tm_spool_info_add_cuts(prefix, cut, 3), 0);
	TM_CHECK_INT(tm_spool_info_cuts(prefix, ts, 3), 1);
	for (int cpu = 0; cpu < 3; cpu++)
		TM_CHECK_INT(ts[cpu], cut[cpu]);
	/* a reader of fewer CPUs takes what it has room for */
	TM_CHECK_INT(tm_spool_info_cuts(prefix, &one, 1), 1);
	TM_CHECK_INT(one, cut[0]);
	TM_CHECK_INT(tm_spool_info_read(prefix, &got), 0);
	TM_CHECK_STR(got.previous, in.previous);
	TM_CHECK_INT(got.ncpus, 3);
	TM_CHECK_INT(got.page_size, PAGE);
	TM_CHECK_STR(got.instance, in.instance);
	tm_spool_info_remove(prefix);
	TM_CHECK_INT(tm_spool_info_cuts(prefix, ts, 3), -1);
	TM_CHECK_INT(errno, ENOENT);
	tm_scratch_remove(dir);
	free(dir);
}

/* Bytes of the regular files matching dir/pattern. */
static off_t bytes_in(const char *dir, const char *pattern)
{
	char pat[4300];
	struct stat st;
	glob_t g;
	off_t n = 0;

	snprintf(pat, sizeof(pat), "%s/%s", dir, pattern);
	if (glob(pat, 0, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (!stat(g.gl_pathv[i], &st))
			n += st.st_size;
	globfree(&g);
	return n;
}

/*
 * A numbered file that cannot be written (/dev/full: ENOSPC) keeps its spools
 * and, once the rotor is freed, the next number's, the pages after the cut
 * written out: nothing recorded is lost.
 */
TM_TEST(rotor_keeps_every_spool_when_a_file_fails)
{
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir();
	struct tm_rotor *r;

	TM_REQUIRE(meta && dir);
	/* three pages before the cut, the fourth after it */
	r = rotor_fed(t, dir, 4);
	TM_REQUIRE(r);
	TM_CHECK_INT(rotor_file(r, false, meta, "/dev/full"), -1);
	TM_CHECK_INT(errno, ENOSPC);
	TM_CHECK_INT(spools_in(dir), 2 * NCPUS);
	TM_CHECK(bytes_in(dir, "out.0001.dat.cpu*.spool") > 0);
	/* the next number's single pages sit in a partial chunk until the free */
	tm_rotor_free(r);
	TM_CHECK_INT(spools_in(dir), 2 * NCPUS);
	TM_CHECK(bytes_in(dir, "out.0002.dat.cpu0.spool") > 0);
	TM_CHECK(bytes_in(dir, "out.0002.dat.cpu1.spool") > 0);
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}

/* A source in memory that hands out its bytes in two pieces. */
struct halves {
	const uint8_t	*data;
	size_t		len;
	int		next;
};

static int halves_next(void *ctx, const void **data, size_t *len)
{
	struct halves *h = ctx;

	if (h->next == 2)
		return 0;
	*data = h->data + (h->next ? h->len / 2 : 0);
	*len = h->next ? h->len - h->len / 2 : h->len / 2;
	h->next++;
	return 1;
}

TM_TEST(write_data_from_memory_checks_the_size)
{
	struct tm_write_opts wo = { .version = 6, .page_size = PAGE };
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), path[4200];
	struct times want, got;
	struct halves h;
	struct tm_cpu_data cd;
	size_t len;
	char *raw = raw_pages('A', 1, &len);
	int fd;

	TM_REQUIRE(meta && dir && raw);
	snprintf(path, sizeof(path), "%s/mem.dat", dir);
	h = (struct halves){ .data = (const uint8_t *)raw, .len = len };
	cd = (struct tm_cpu_data){ .cpu = 1, .size = len, .page_size = PAGE, .fd = -1,
				   .next = halves_next,
				   .ctx = &h };
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	TM_REQUIRE(fd >= 0);
	TM_CHECK_INT(tm_dat_write_data(fd, meta, &cd, 1, NCPUS, &wo), 0);
	close(fd);
	raw_times(t, 'A', 1, &want);
	dat_times(t, path, 1, &got);
	TM_CHECK_INT(got.n, want.n);
	trace_cmd_reads(t, path);
	/* a source that hands out less than it said fails the file */
	h.next = 0;
	cd.size = len + PAGE;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	TM_REQUIRE(fd >= 0);
	TM_CHECK_INT(tm_dat_write_data(fd, meta, &cd, 1, NCPUS, &wo), -1);
	TM_CHECK_INT(errno, EIO);
	close(fd);
	free(raw);
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}

TM_TEST(last_boot_info_option_as_trace_cmd_3_4_stores_it)
{
	static const char info[] = "10c00000\t[kernel]\nffffffffc00ca000\tusb_serial_simple\n";
	static const char want[] = "boot_mapped:10c00000\t[kernel]\nffffffffc00ca000\t"
				   "usb_serial_simple\n";
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), path[4200];

	TM_REQUIRE(meta && dir);
	for (int version = 6; version <= 7; version++) {
		struct tm_write_opts wo = { .version = version, .page_size = PAGE,
					    .last_boot_instance = "boot_mapped",
					    .last_boot_info = info };
		struct tm_dat *dat;
		size_t flen;
		char *file, *p;
		int fd;

		snprintf(path, sizeof(path), "%s/boot-v%d.dat", dir, version);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		TM_REQUIRE(fd >= 0);
		TM_CHECK_INT(tm_dat_write_data(fd, meta, NULL, 0, NCPUS, &wo), 0);
		close(fd);
		/* on disk: u16 24, u32 size with the NUL, "<instance>:" + the text, NUL */
		file = tm_read_file(path, &flen);
		TM_REQUIRE(file);
		p = memmem(file, flen, want, sizeof(want));
		TM_CHECK(p && p - file >= 6);
		if (p && p - file >= 6) {
			TM_CHECK_INT(tm_get16(p - 6, false), TM_OPT_LAST_BOOT_INFO);
			TM_CHECK_INT(tm_get32(p - 4, false), sizeof(want));
		}
		free(file);
		dat = tm_dat_open(path);
		TM_REQUIRE(dat);
		TM_CHECK_STR(tm_dat_last_boot_info(dat), want);
		tm_dat_close(dat);
		trace_cmd_reads(t, path);
	}
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}

/* Create dir/rel with text (parents too). */
static void put_file(struct tm_test *t, const char *dir, const char *rel, const char *text)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	TM_REQUIRE(fd >= 0);
	TM_CHECK_INT(tm_write_all(fd, text, strlen(text)), 0);
	close(fd);
}

static void check_file(struct tm_test *t, const char *dir, const char *rel, const char *want)
{
	char path[4200], *text;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	text = tm_read_file(path, NULL);
	TM_CHECK_STR(text, want);
	free(text);
}

TM_TEST(journal_writes_each_setting_back_in_its_file_form)
{
	static const char *const files[][3] = {
		/* file, its text before, what restoring writes into a plain file */
		{ "tracing_on", "1\n", "1" },
		{ "trace_clock", "[local] global counter\n", "local" },
		/* a top level not expanded yet: the size it expands to */
		{ "buffer_size_kb", "7 (expanded: 1408)\n", "1408" },
		/*
		 * a line each, appended as libtracefs does (no O_APPEND: tracefs keeps
		 * no offset), so in a plain file the shorter second overwrites the start
		 */
		{ "set_event", "sched:sched_switch\nirq:irq\n", "irq:irqched_switch" },
		{ "set_event_pid", "12\n34\n", "12 34 " },
		{ "events/sched/sched_switch/filter", "none\n", "0" },
		{ "events/irq/filter", "irq > 3\n", "irq > 3" },
	};
	char *dir = tm_scratch_dir();
	struct tracefs_instance *in;
	struct tm_journal *j;

	TM_REQUIRE(dir);
	in = tm_tfs_open(dir, NULL);
	TM_REQUIRE(in);
	j = tm_journal_new(in);
	TM_REQUIRE(j);
	for (size_t i = 0; i < TM_ARRAY_SIZE(files); i++) {
		put_file(t, dir, files[i][0], files[i][1]);
		TM_CHECK_INT(tm_journal_save(j, files[i][0]), 0);
		put_file(t, dir, files[i][0], "changed");
		/* only the text before the first change is kept */
		TM_CHECK_INT(tm_journal_save(j, files[i][0]), 0);
	}
	TM_CHECK_INT(tm_journal_restore(j), 0);
	for (size_t i = 0; i < TM_ARRAY_SIZE(files); i++)
		check_file(t, dir, files[i][0], files[i][2]);
	tm_journal_free(j);
	tracefs_instance_free(in);
	tm_scratch_remove(dir);
	free(dir);
}

/* "X": the CPUs' buffers differ; each per_cpu size goes back, "X" is never written. */
TM_TEST(journal_gives_back_each_cpus_buffer_size)
{
	char *dir = tm_scratch_dir();
	struct tracefs_instance *in;
	struct tm_journal *j;

	TM_REQUIRE(dir);
	put_file(t, dir, "buffer_size_kb", "X\n");
	put_file(t, dir, "per_cpu/cpu0/buffer_size_kb", "512\n");
	put_file(t, dir, "per_cpu/cpu1/buffer_size_kb", "1024\n");
	in = tm_tfs_open(dir, NULL);
	TM_REQUIRE(in);
	j = tm_journal_new(in);
	TM_REQUIRE(j);
	TM_CHECK_INT(tm_journal_save(j, "buffer_size_kb"), 0);
	put_file(t, dir, "buffer_size_kb", "2048");
	put_file(t, dir, "per_cpu/cpu0/buffer_size_kb", "2048");
	put_file(t, dir, "per_cpu/cpu1/buffer_size_kb", "2048");
	TM_CHECK_INT(tm_journal_restore(j), 0);
	check_file(t, dir, "per_cpu/cpu0/buffer_size_kb", "512");
	if (get_nprocs_conf() > 1)
		check_file(t, dir, "per_cpu/cpu1/buffer_size_kb", "1024");
	check_file(t, dir, "buffer_size_kb", "2048");
	tm_journal_free(j);
	tracefs_instance_free(in);
	tm_scratch_remove(dir);
	free(dir);
}
