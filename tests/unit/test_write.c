// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_write.c - trace.dat files written from the fixtures' raw pages and
 * tracefs snapshot read back by trace-cmd 3.1.6 exactly like its own files.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat/dat-internal.h"
#include "util/internal.h"
#include "tm_test.h"
#include "tm_fixtures.h"
#include "tracefs/meta-internal.h"
#include "tracefs/tracefs-internal.h"
#include "record/spool.h"
#include "dat/codec.h"
#include "util/tm-error.h"
#include "dat/tm-dat.h"

#define PAGE	4096
#define NCPUS	2

/* A text file of the fixtures; the caller frees. */
static char *fixture_text(const char *name, size_t *len)
{
	return tm_read_file(tm_fixture(name), len);
}

/* One CPU's fixture pages fed page by page into a spool in dir. */
static struct tm_spool *fixture_spool(struct tm_test *t, const char *dir, char set, int cpu,
				      enum tm_compression c, size_t chunk_pages)
{
	struct tm_spool_opts o = { .compression = c, .level = 1, .page_size = PAGE,
				   .chunk_pages = chunk_pages };
	char path[4096], name[64];
	struct tm_spool *s = NULL;
	size_t len, off;
	char *raw;

	snprintf(name, sizeof(name), "raw/%c.cpu%d.raw", set, cpu);
	snprintf(path, sizeof(path), "%s/spool.cpu%d", dir, cpu);
	raw = fixture_text(name, &len);
	if (raw)
		s = tm_spool_create(path, &o);
	for (off = 0; s && off + PAGE <= len; off += PAGE)
		TM_CHECK_INT(tm_spool_add_page(s, raw + off), 0);
	if (!s || tm_spool_finish(s)) {
		fprintf(stderr, "  spool: %s\n", tm_last_error());
		t->failures++;
		tm_spool_destroy(s, true);
		s = NULL;
	}
	free(raw);
	return s;
}

struct pipe_copy {
	int	in;
	int	out;
	int	err;
};

/* The reading end of the pipe: copy everything to a file. */
static void *pipe_copier(void *arg)
{
	struct pipe_copy *pc = arg;
	char buf[65536];
	ssize_t n;

	while ((n = read(pc->in, buf, sizeof(buf))) > 0)
		if (tm_write_all(pc->out, buf, n))
			break;
	pc->err = n != 0;
	return NULL;
}

/* tm_spools_write_dat into a pipe whose reader copies to out. */
static int write_via_pipe(int out, const struct tm_meta *meta, struct tm_spool **spools,
			  const struct tm_write_opts *wo)
{
	struct pipe_copy pc = { .out = out };
	pthread_t th;
	int p[2], ret;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pc.in = p[0];
	if (pthread_create(&th, NULL, pipe_copier, &pc)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	ret = tm_spools_write_dat(p[1], meta, spools, NCPUS, wo);
	close(p[1]);
	pthread_join(th, NULL);
	close(p[0]);
	return ret || pc.err ? -1 : 0;
}

/* Write set's data as version/compression; path of the file in out (in dir). */
static int write_fixture(struct tm_test *t, const char *dir, const struct tm_meta *meta,
			 char set, int version, enum tm_compression c, size_t chunk_pages,
			 bool via_pipe, char *out, size_t outlen)
{
	struct tm_write_opts wo = { .version = version, .compression = c, .level = 3,
				    .page_size = PAGE };
	enum tm_compression sc = version == 7 ? c : TM_COMPRESS_NONE;
	struct tm_spool *spools[NCPUS] = { 0 };
	int fd, ret = -1, cpu;

	snprintf(out, outlen, "%s/out-v%d-%s-%zu%s.dat", dir, version, tm_compression_name(c),
		 chunk_pages, via_pipe ? "-pipe" : "");
	for (cpu = 0; cpu < NCPUS; cpu++) {
		spools[cpu] = fixture_spool(t, dir, set, cpu, sc, chunk_pages);
		if (!spools[cpu])
			goto out;
	}
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	TM_CHECK(fd >= 0);
	if (fd < 0)
		goto out;
	ret = via_pipe ? write_via_pipe(fd, meta, spools, &wo)
		       : tm_spools_write_dat(fd, meta, spools, NCPUS, &wo);
	if (ret) {
		fprintf(stderr, "  write %s: %s\n", out, tm_last_error());
		t->failures++;
	}
	close(fd);
out:
	for (cpu = 0; cpu < NCPUS; cpu++)
		tm_spool_destroy(spools[cpu], true);
	return ret;
}

/* Output of `trace-cmd <args> -i path` must equal the expected bytes. */
static void check_cmd(struct tm_test *t, const char *args, const char *path,
		      const char *want, size_t want_len)
{
	char cmd[8192];
	size_t len, i;
	int status;
	char *got;

	snprintf(cmd, sizeof(cmd), "trace-cmd %s -i '%s' 2>&1%s", args, path,
		 strstr(args, "--stat") ? " | sed 's/offset=0x[0-9a-f]*/offset=X/'" : "");
	got = tm_run(cmd, &len, &status);
	TM_REQUIRE(got);
	TM_CHECK_INT(status, 0);
	if (len != want_len || memcmp(got, want, len)) {
		for (i = 0; i < len && i < want_len && got[i] == want[i]; i++)
			;
		fprintf(stderr, "  %s: output differs at byte %zu (%zu vs %zu bytes): '%.60s'\n",
			cmd, i, len, want_len, got + (i < len ? i : 0));
		t->failures++;
	}
	free(got);
}

/* report and report -N like the fixture's; dump --summary and dump -v accept the file. */
static void check_reports(struct tm_test *t, const char *path, const char *fixture)
{
	char name[256], cmd[8192];
	size_t len;
	char *want;

	snprintf(name, sizeof(name), "%s.report.txt", fixture);
	want = fixture_text(name, &len);
	TM_REQUIRE(want);
	check_cmd(t, "report", path, want, len);
	free(want);
	snprintf(name, sizeof(name), "%s.report-noplugins.txt", fixture);
	want = fixture_text(name, &len);
	TM_REQUIRE(want);
	check_cmd(t, "report -N", path, want, len);
	free(want);
	/* dump walks every section by its size: a wrong size or offset fails here */
	snprintf(cmd, sizeof(cmd), "trace-cmd dump --summary -i '%s' >/dev/null 2>&1", path);
	TM_CHECK_INT(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "trace-cmd dump -v -i '%s' 2>&1 | grep -q 'is a valid trace-cmd file'",
		 path);
	TM_CHECK_INT(system(cmd), 0);
}

/*
 * `report --stat` prints the CPUSTAT options and each CPU's data size: the
 * same as for trace-cmd's own file but for the data offsets.
 */
static void check_stats_like(struct tm_test *t, const char *path, const char *fixture_dat)
{
	char cmd[8192];
	size_t len;
	int status;
	char *want;

	snprintf(cmd, sizeof(cmd), "trace-cmd report --stat -i '%s' 2>&1 | "
		 "sed 's/offset=0x[0-9a-f]*/offset=X/'", tm_fixture(fixture_dat));
	want = tm_run(cmd, &len, &status);
	TM_REQUIRE(want && status == 0 && len > 0);
	check_cmd(t, "report --stat", path, want, len);
	free(want);
}

static void check_set(struct tm_test *t, char set, int version, enum tm_compression c,
		      bool via_pipe, const char *fixture, const char *fixture_dat)
{
	static const size_t chunks[] = { 1, 3, 16 };
	struct tm_meta *meta = tm_fixture_meta(t, set);
	char *dir = tm_scratch_dir();
	char out[4096];

	TM_REQUIRE(meta && dir);
	for (size_t i = 0; i < TM_ARRAY_SIZE(chunks); i++) {
		if (write_fixture(t, dir, meta, set, version, c, chunks[i], via_pipe, out,
				  sizeof(out)))
			continue;
		check_reports(t, out, fixture);
		if (i == 0)
			check_stats_like(t, out, fixture_dat);
		if (version == 6 || via_pipe)
			break;	/* none/v6 data does not depend on the chunk size */
	}
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}

TM_TEST(write_v7_zstd_reads_like_trace_cmd_own_file)
{
	check_set(t, 'A', 7, TM_COMPRESS_ZSTD, false, "sched-v7", "sched-v7.dat");
}

TM_TEST(write_v7_none_reads_like_trace_cmd_own_file)
{
	check_set(t, 'A', 7, TM_COMPRESS_NONE, false, "sched-v7", "sched-v7.dat");
}

TM_TEST(write_v6_reads_like_trace_cmd_own_file)
{
	check_set(t, 'A', 6, TM_COMPRESS_NONE, false, "sched-v7", "sched-v6.dat");
}

TM_TEST(write_v7_zstd_through_a_pipe)
{
	check_set(t, 'A', 7, TM_COMPRESS_ZSTD, true, "sched-v7", "sched-v7.dat");
}

TM_TEST(write_v6_through_a_pipe)
{
	check_set(t, 'A', 6, TM_COMPRESS_NONE, true, "sched-v7", "sched-v6.dat");
}

TM_TEST(write_lost_events_v6_and_v7_zstd)
{
	check_set(t, 'B', 6, TM_COMPRESS_NONE, false, "lost-v6", "lost-v6.dat");
	check_set(t, 'B', 7, TM_COMPRESS_ZSTD, false, "lost-v6", "lost-v7-zstd.dat");
}

TM_TEST(meta_snapshot_without_set_event_stores_every_system_but_ftrace)
{
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), out[4096], cmd[8192];
	size_t len;
	int status;
	char *got;

	TM_REQUIRE(meta && dir);
	TM_CHECK_INT(tm_meta_cpus(meta), NCPUS);
	TM_CHECK_INT(tm_meta_event_count(meta), 26);	/* every sched event of the snapshot */
	TM_CHECK_STR(tm_meta_clock(meta), "local");
	TM_CHECK(tm_meta_warning(meta) == NULL);
	/* what trace-cmd sees: 18 ftrace formats, one system (sched), 26 events */
	if (!write_fixture(t, dir, meta, 'A', 7, TM_COMPRESS_ZSTD, 4, false, out, sizeof(out))) {
		snprintf(cmd, sizeof(cmd), "trace-cmd dump --summary -i '%s' 2>&1", out);
		got = tm_run(cmd, &len, &status);
		TM_REQUIRE(got);
		TM_CHECK(strstr(got, "[Ftrace format, 18 events]") != NULL);
		TM_CHECK(strstr(got, "[Events format, 1 systems]") != NULL);
		TM_CHECK(strstr(got, "[Kallsyms, 657 bytes]") != NULL);
		TM_CHECK(strstr(got, "\"local\" clock, 4096 page size, 2 cpus,") != NULL);
		free(got);
	}
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}

static int put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ok = fd >= 0 && !tm_write_all(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return ok;
}

static size_t meta_nftrace(const struct tm_meta *m)
{
	return m->nftrace;
}

static const char *meta_system(const struct tm_meta *m, size_t i)
{
	return i < m->nsystems ? m->systems[i].name : NULL;
}

/* A directory laid out like tracefs: the snapshot's events plus our own files. */
static char *fake_tracefs(const char *set_event, const char *kallsyms)
{
	char *dir = tm_scratch_dir(), path[4096], events[PATH_MAX];
	int ok = 1;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/events", dir);
	ok &= realpath(tm_fixture("raw/tracefs-snapshot/events"), events) && !symlink(events, path);
	snprintf(path, sizeof(path), "%s/trace_clock", dir);
	ok &= put_file(path, "local [global] counter\n");
	snprintf(path, sizeof(path), "%s/set_event", dir);
	ok &= put_file(path, set_event);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	ok &= put_file(path, kallsyms);
	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	ok &= !mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/per_cpu/cpu1", dir);
	ok &= !mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/per_cpu/cpu1/stats", dir);
	ok &= put_file(path, "entries: 0\noverrun: 7\n");
	if (!ok) {
		tm_scratch_remove(dir);
		free(dir);
		return NULL;
	}
	return dir;
}

TM_TEST(meta_stores_only_enabled_events_and_never_ftrace_in_events)
{
	char *dir = fake_tracefs("sched:sched_switch\nftrace:print\nsched:sched_wakeup\n",
				 "ffffffff81000000 T _stext\n");
	struct tm_meta *meta;

	TM_REQUIRE(dir);
	meta = tm_meta_collect(dir, NULL, NCPUS);
	TM_CHECK(meta);
	if (!meta) {
		fprintf(stderr, "  %s\n", tm_last_error());
		goto out;
	}
	/* tm_meta_collect reads the machine's /proc/kallsyms, not the directory's */
	TM_CHECK(meta->kallsyms.len > 1000);
	TM_CHECK_INT(meta->stats[0].len, 0);	/* no per_cpu/cpu0/stats: stored empty */
	TM_CHECK_STR(meta->stats[1].data, "entries: 0\noverrun: 7\n");
	TM_CHECK_INT(tm_meta_event_count(meta), 2);
	TM_CHECK_STR(tm_meta_clock(meta), "global");
	TM_CHECK_INT(meta_nftrace(meta), 18);
	TM_CHECK_STR(meta_system(meta, 0), "sched");
	TM_CHECK(meta_system(meta, 1) == NULL);
	tm_meta_free(meta);
out:
	tm_scratch_remove(dir);
	free(dir);
}

TM_TEST(meta_warns_when_kallsyms_addresses_are_zero)
{
	static const char zeros[] = "0000000000000000 T _stext\n0000000000000000 t foo\t[mod]\n";
	char *dir = fake_tracefs("sched:sched_switch\n", zeros), path[4096];
	struct tm_meta_opts o = { .ncpus = NCPUS, .kallsyms = path };
	struct tm_meta *meta;

	TM_REQUIRE(dir);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	o.tracefs = dir;
	meta = tm_meta_collect_opts(&o);
	TM_CHECK(meta);
	if (!meta)
		goto out;
	TM_CHECK_STR(tm_meta_warning(meta), "kallsyms addresses read as zero (kptr_restrict?): "
		     "symbols will not resolve");
	TM_CHECK_INT(tm_meta_set_kallsyms(meta, "ffffffff81000000 T _stext\n", 26), 0);
	TM_CHECK(tm_meta_warning(meta) == NULL);
	tm_meta_free(meta);
out:
	tm_scratch_remove(dir);
	free(dir);
}

TM_TEST(meta_fails_on_an_enabled_event_without_format)
{
	char *dir = fake_tracefs("sched:no_such_event\n", "");
	struct tm_meta *meta;

	TM_REQUIRE(dir);
	meta = tm_meta_collect(dir, NULL, NCPUS);
	TM_CHECK(meta == NULL);
	TM_CHECK_INT(errno, ENOENT);
	TM_CHECK(strstr(tm_last_error(), "sched/no_such_event/format") != NULL);
	tm_meta_free(meta);
	tm_scratch_remove(dir);
	free(dir);
}

TM_TEST(write_refuses_unfinished_or_mismatched_spools)
{
	struct tm_spool_opts so = { .compression = TM_COMPRESS_NONE, .level = 1,
				    .page_size = PAGE, .chunk_pages = 4 };
	struct tm_write_opts wo = { .version = 7, .compression = TM_COMPRESS_ZSTD, .level = 3,
				    .page_size = PAGE };
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), path[4096];
	struct tm_spool *spools[NCPUS] = { 0 };
	char page[PAGE] = { 0 };
	int fd;

	TM_REQUIRE(meta && dir);
	snprintf(path, sizeof(path), "%s/spool", dir);
	spools[1] = tm_spool_create(path, &so);
	TM_REQUIRE(spools[1]);
	TM_CHECK_INT(tm_spool_add_page(spools[1], page), 0);
	snprintf(path, sizeof(path), "%s/out.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	TM_REQUIRE(fd >= 0);
	TM_CHECK_INT(tm_spools_write_dat(fd, meta, spools, NCPUS, &wo), -1);
	TM_CHECK(strstr(tm_last_error(), "CPU 1 was not finished") != NULL);
	TM_CHECK_INT(tm_spool_finish(spools[1]), 0);
	TM_CHECK_INT(tm_spools_write_dat(fd, meta, spools, NCPUS, &wo), -1);	/* none vs zstd */
	TM_CHECK(strstr(tm_last_error(), "CPU 1 is none") != NULL);
	wo.version = 5;
	TM_CHECK_INT(tm_spools_write_dat(fd, meta, spools, NCPUS, &wo), -1);
	TM_CHECK_INT(errno, EINVAL);
	/* offsets count from byte 0: a file positioned elsewhere is refused */
	wo.version = 6;
	TM_CHECK_INT(write(fd, "x", 1), 1);
	TM_CHECK_INT(tm_spools_write_dat(fd, meta, spools, NCPUS, &wo), -1);
	TM_CHECK(strstr(tm_last_error(), "offset 1") != NULL);
	TM_CHECK_INT(lseek(fd, 0, SEEK_SET), 0);
	TM_CHECK_INT(tm_spools_write_dat(fd, meta, spools, NCPUS, &wo), 0);	/* v6 takes raw pages */
	close(fd);
	tm_spool_destroy(spools[1], true);
	tm_meta_free(meta);
	tm_scratch_remove(dir);
	free(dir);
}

/* The report of a file holding CPU 1 only: the fixture's report without CPU 0. */
static void check_only_cpu1(struct tm_test *t, const char *dir, const struct tm_meta *meta,
			    int version, struct tm_spool **spools)
{
	/* page_size 0: taken from header_page (data at 16, 4080 bytes) */
	struct tm_write_opts wo = { .version = version, .compression = TM_COMPRESS_ZSTD,
				    .level = 3 };
	char path[4096], cmd[8192];
	int fd;

	snprintf(path, sizeof(path), "%s/out%d.dat", dir, version);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	TM_REQUIRE(fd >= 0);
	TM_CHECK_INT(tm_spools_write_dat(fd, meta, spools, NCPUS, &wo), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "bash -c \"diff <(trace-cmd report -i '%s' 2>&1) "
		 "<(grep -v '\\[000\\]' '%s')\" >/dev/null", path,
		 tm_fixture("sched-v7.report.txt"));
	TM_CHECK_INT(system(cmd), 0);
}

/* Spools that are NULL or empty: the CPU gets no data entry, the rest reads as before. */
TM_TEST(write_leaves_out_cpus_without_data)
{
	struct tm_spool_opts so = { .compression = TM_COMPRESS_ZSTD, .level = 1,
				    .page_size = PAGE, .chunk_pages = 8 };
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), path[4096];
	struct tm_spool *spools[NCPUS] = { 0 };

	TM_REQUIRE(meta && dir);
	/* v7: CPU 0 has a spool that was finished without a page */
	snprintf(path, sizeof(path), "%s/empty", dir);
	spools[0] = tm_spool_create(path, &so);
	TM_CHECK(spools[0] && !tm_spool_finish(spools[0]));
	spools[1] = fixture_spool(t, dir, 'A', 1, TM_COMPRESS_ZSTD, 8);
	if (spools[0] && spools[1])
		check_only_cpu1(t, dir, meta, 7, spools);
	tm_spool_destroy(spools[0], true);
	tm_spool_destroy(spools[1], true);
	/* v6: CPU 0 has no spool at all */
	spools[0] = NULL;
	spools[1] = fixture_spool(t, dir, 'A', 1, TM_COMPRESS_NONE, 8);
	if (spools[1])
		check_only_cpu1(t, dir, meta, 6, spools);
	tm_spool_destroy(spools[1], true);
	tm_meta_free(meta);
	tm_scratch_remove(dir);
	free(dir);
}

static void count_shows(void *ctx, const struct tm_progress *p)
{
	(void)p;
	(*(int *)ctx)++;
}

/* recover's meter: every spool byte copied, every file byte written, shown per copy. */
TM_TEST(write_meter_counts_the_spool_bytes_copied_and_the_file_written)
{
	int shows = 0;
	struct tm_meter meter = { .fn = count_shows, .ctx = &shows };
	struct tm_write_opts wo = { .version = 6, .page_size = PAGE, .meter = &meter };
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), path[4096];
	struct tm_spool *spools[NCPUS] = { 0 };
	uint64_t spooled = 0;
	struct stat sb;
	int fd, cpu;

	TM_REQUIRE(meta && dir);
	for (cpu = 0; cpu < NCPUS; cpu++) {
		struct tm_spool_stats st;

		spools[cpu] = fixture_spool(t, dir, 'A', cpu, TM_COMPRESS_NONE, 1);
		TM_REQUIRE(spools[cpu]);
		tm_spool_get_stats(spools[cpu], &st);
		spooled += st.file_bytes;
	}
	snprintf(path, sizeof(path), "%s/metered.dat", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	TM_REQUIRE(fd >= 0);
	TM_CHECK_INT(tm_spools_write_dat(fd, meta, spools, NCPUS, &wo), 0);
	TM_CHECK(!fstat(fd, &sb));
	close(fd);
	TM_CHECK_INT(meter.p.done, spooled);
	TM_CHECK_INT(meter.p.written, sb.st_size);
	TM_CHECK(shows >= NCPUS);
	for (cpu = 0; cpu < NCPUS; cpu++)
		tm_spool_destroy(spools[cpu], true);
	tm_meta_free(meta);
	tm_scratch_remove(dir);
	free(dir);
}

/* tracemap's own reader gets back exactly the pages that went into the spools. */
TM_TEST(write_roundtrip_through_tm_dat_reader)
{
	static const struct { int version; enum tm_compression c; } kinds[] = {
		{ 7, TM_COMPRESS_ZSTD }, { 7, TM_COMPRESS_NONE }, { 6, TM_COMPRESS_NONE },
	};
	struct tm_meta *meta = tm_fixture_meta(t, 'B');
	char *dir = tm_scratch_dir(), out[4096], name[64];

	TM_REQUIRE(meta && dir);
	for (size_t k = 0; k < TM_ARRAY_SIZE(kinds); k++) {
		struct tm_dat *dat;

		if (write_fixture(t, dir, meta, 'B', kinds[k].version, kinds[k].c, 2, false, out,
				  sizeof(out)))
			continue;
		dat = tm_dat_open(out);
		TM_CHECK(dat);
		if (!dat) {
			fprintf(stderr, "  %s\n", tm_last_error());
			continue;
		}
		TM_CHECK_INT(tm_dat_version(dat), kinds[k].version);
		TM_CHECK_STR(tm_dat_compression(dat), tm_compression_name(kinds[k].c));
		TM_CHECK_INT(tm_dat_cpus(dat), NCPUS);
		TM_CHECK_STR(tm_dat_clock(dat), "local");
		for (int cpu = 0; cpu < NCPUS; cpu++) {
			struct tm_cursor *cur = tm_dat_buffer_count(dat) > 0 ?
						tm_cursor_open(dat, 0, cpu) : NULL;
			size_t len, off = 0;
			const void *page;
			char *raw;

			snprintf(name, sizeof(name), "raw/B.cpu%d.raw", cpu);
			raw = fixture_text(name, &len);
			TM_CHECK(cur && raw);
			while (cur && raw && (page = tm_cursor_next_page(cur))) {
				TM_CHECK(off < len && !memcmp(page, raw + off, PAGE));
				off += PAGE;
			}
			TM_CHECK_INT(off, len);
			tm_cursor_close(cur);
			free(raw);
		}
		tm_dat_close(dat);
	}
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}

/* The size a v7 BUFFER option stores for a CPU at off: its entry is u32 cpu, u64 off, u64 size. */
static bool stored_cpu_size(const uint8_t *file, size_t len, int cpu, uint64_t off,
			    uint64_t *size)
{
	uint8_t key[12];
	uint32_t id = (uint32_t)cpu;
	size_t i;

	memcpy(key, &id, 4);
	memcpy(key + 4, &off, 8);
	for (i = 0; i + sizeof(key) + 8 <= len; i++) {
		if (!memcmp(file + i, key, sizeof(key))) {
			memcpy(size, file + i + sizeof(key), 8);
			return true;
		}
	}
	return false;
}

/* trace-cmd >= 3.2 counts the chunk count in a compressed CPU's size (spec §4.6): so do we. */
TM_TEST(write_v7_zstd_size_counts_the_chunk_count)
{
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), out[4096];
	const struct dat_cpu *c;
	struct tm_dat *dat = NULL;
	uint8_t *file = NULL;
	uint64_t stored = 0;
	size_t len;
	int cpu;

	TM_REQUIRE(meta && dir);
	if (!write_fixture(t, dir, meta, 'A', 7, TM_COMPRESS_ZSTD, 2, false, out, sizeof(out))) {
		dat = tm_dat_open(out);
		file = (uint8_t *)tm_read_file(out, &len);
	}
	TM_CHECK(dat && file);
	for (cpu = 0; dat && file && cpu < NCPUS; cpu++) {
		c = tm_dat_find_cpu(dat, 0, cpu);
		TM_REQUIRE(c && c->chunks > 1);
		/* the reader's size is the chunks' bytes, read back from the headers */
		TM_CHECK(stored_cpu_size(file, len, cpu, c->off, &stored));
		TM_CHECK_INT(stored, c->size + 4);
	}
	free(file);
	tm_dat_close(dat);
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}
