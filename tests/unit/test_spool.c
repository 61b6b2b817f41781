// SPDX-License-Identifier: GPL-2.0-only
/* test_spool.c - spool files hold whole-page chunks that decode back to the pages. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "tm_test.h"
#include "dat/dat-format.h"
#include "record/spool-level.h"
#include "record/ring.h"
#include "record/spool.h"
#include "dat/codec.h"
#include "util/tm-error.h"

#define PAGE 4096

/*
 * Feed every page of a fixture file into a new spool, via_slot as the read()
 * path does (each page put where tm_spool_slot() says, then added from
 * there); returns it finished.
 */
static struct tm_spool *spool_feed(struct tm_test *t, const char *path, const char *raw_name,
				   enum tm_compression c, size_t chunk_pages, bool via_slot)
{
	struct tm_spool_opts o = { .compression = c, .level = 1, .page_size = PAGE,
				   .chunk_pages = chunk_pages };
	struct tm_spool *s;
	size_t len, off;
	char *raw;

	unlink(path);
	raw = tm_read_file(tm_fixture(raw_name), &len);
	s = tm_spool_create(path, &o);
	if (!raw || !s) {
		fprintf(stderr, "  %s\n", tm_last_error());
		t->failures++;
		free(raw);
		tm_spool_destroy(s, true);
		return NULL;
	}
	for (off = 0; off + PAGE <= len; off += PAGE) {
		void *page = raw + off;

		if (via_slot) {
			page = tm_spool_slot(s);
			TM_CHECK(page);
			if (!page)
				break;
			memcpy(page, raw + off, PAGE);
		}
		TM_CHECK_INT(tm_spool_add_page(s, page), 0);
	}
	TM_CHECK_INT(tm_spool_finish(s), 0);
	TM_CHECK(!tm_spool_slot(s));	/* finished: takes no more pages */
	free(raw);
	return s;
}

static struct tm_spool *spool_fixture(struct tm_test *t, const char *path, const char *raw_name,
				      enum tm_compression c, size_t chunk_pages)
{
	return spool_feed(t, path, raw_name, c, chunk_pages, false);
}

/* Walk the chunk headers of a spool file, decompress, compare with the pages. */
static void check_chunks(struct tm_test *t, struct tm_spool *s, const char *raw_name,
			 size_t chunk_pages)
{
	struct tm_codec *codec = tm_codec_new(TM_COMPRESS_ZSTD, 1);
	size_t len, flen, off = 0, done = 0;
	char *raw = tm_read_file(tm_fixture(raw_name), &len);
	char *file = tm_read_file(tm_spool_path(s), &flen);
	char *back = malloc(len);
	struct tm_spool_stats st;
	uint32_t chunks = 0;

	TM_REQUIRE(codec && raw && file && back);
	tm_spool_get_stats(s, &st);
	TM_CHECK_INT(st.pages, len / PAGE);
	TM_CHECK_INT(st.raw_bytes, len);
	TM_CHECK_INT(st.file_bytes, flen);
	TM_CHECK_INT(st.chunks, (len / PAGE + chunk_pages - 1) / chunk_pages);
	while (off + TM_DAT_CHUNK_HDR_LEN <= flen) {
		uint32_t c = tm_get32(file + off, false), u = tm_get32(file + off + 4, false);
		size_t want = (len - done) < chunk_pages * PAGE ? len - done : chunk_pages * PAGE;

		TM_CHECK_INT(u, want);	/* whole pages, full chunks but the last */
		TM_REQUIRE(off + TM_DAT_CHUNK_HDR_LEN + c <= flen && done + u <= len);
		TM_CHECK(!memcmp(file + off + 8, "\x28\xb5\x2f\xfd", 4));
		TM_CHECK_INT(tm_codec_decompress(codec, back + done, u, file + off + 8, c), u);
		off += TM_DAT_CHUNK_HDR_LEN + c;
		done += u;
		chunks++;
	}
	TM_CHECK_INT(off, flen);
	TM_CHECK_INT(done, len);
	TM_CHECK_INT(chunks, st.chunks);
	TM_CHECK(!memcmp(raw, back, len));
	free(back);
	free(file);
	free(raw);
	tm_codec_free(codec);
}

/*
 * A zstd spool of the fixture's pages for each chunk size in sizes (via_slot:
 * as the read() path fills it), its chunks checked reads times, then removed.
 */
static void check_zstd_sizes(struct tm_test *t, const size_t *sizes, size_t n, bool via_slot,
			     int reads)
{
	char path[] = "/tmp/tm-spool-test-XXXXXX";
	int fd = mkstemp(path);

	TM_REQUIRE(fd >= 0);
	close(fd);
	for (size_t i = 0; i < n; i++) {
		struct tm_spool *s = spool_feed(t, path, "raw/A.cpu0.raw", TM_COMPRESS_ZSTD,
						sizes[i], via_slot);

		if (!s)
			continue;
		for (int r = 0; r < reads; r++)
			check_chunks(t, s, "raw/A.cpu0.raw", sizes[i]);
		tm_spool_destroy(s, true);
	}
	TM_CHECK(access(path, F_OK) != 0);	/* destroy(remove) unlinked it */
}

TM_TEST(spool_zstd_chunks_decode_back_to_the_pages)
{
	static const size_t sizes[] = { 1, 2, 3, 5, 16 };

	/* twice: reading does not consume */
	check_zstd_sizes(t, sizes, TM_ARRAY_SIZE(sizes), false, 2);
}

TM_TEST(spool_takes_pages_read_into_its_slot)
{
	static const size_t sizes[] = { 1, 3, 16 };

	check_zstd_sizes(t, sizes, TM_ARRAY_SIZE(sizes), true, 1);
}

TM_TEST(spool_none_holds_the_raw_pages)
{
	char path[] = "/tmp/tm-spool-test-XXXXXX";
	struct tm_spool_stats st;
	struct tm_spool *s;
	size_t len, flen;
	char *raw, *file;
	int fd = mkstemp(path);

	TM_REQUIRE(fd >= 0);
	close(fd);
	s = spool_fixture(t, path, "raw/B.cpu1.raw", TM_COMPRESS_NONE, 2);
	TM_REQUIRE(s);
	raw = tm_read_file(tm_fixture("raw/B.cpu1.raw"), &len);
	file = tm_read_file(path, &flen);
	TM_REQUIRE(raw && file);
	tm_spool_get_stats(s, &st);
	TM_CHECK_INT(flen, len);
	TM_CHECK(!memcmp(raw, file, len));
	TM_CHECK_INT(st.pages, 3);
	TM_CHECK_INT(st.file_bytes, len);
	TM_CHECK_INT(st.raw_bytes, len);
	TM_CHECK_INT(st.chunks, 0);
	TM_CHECK_INT(tm_spool_compression(s), TM_COMPRESS_NONE);
	free(raw);
	free(file);
	tm_spool_destroy(s, false);
	TM_CHECK_INT(access(path, F_OK), 0);	/* kept when not asked to remove */
	unlink(path);
}

TM_TEST(spool_refuses_existing_file_and_bad_options)
{
	struct tm_spool_opts o = { .compression = TM_COMPRESS_ZSTD, .level = 1,
				   .page_size = PAGE, .chunk_pages = 4 };
	char path[] = "/tmp/tm-spool-test-XXXXXX";
	int fd = mkstemp(path);

	TM_REQUIRE(fd >= 0);
	close(fd);
	TM_CHECK(tm_spool_create(path, &o) == NULL);
	TM_CHECK_INT(errno, EEXIST);
	TM_CHECK(strstr(tm_last_error(), path) != NULL);
	unlink(path);
	o.chunk_pages = 0;
	TM_CHECK(tm_spool_create(path, &o) == NULL);
	TM_CHECK_INT(errno, EINVAL);
	TM_CHECK(access(path, F_OK) != 0);
}

TM_TEST(spool_refuses_pages_after_finish)
{
	struct tm_spool_opts o = { .compression = TM_COMPRESS_ZSTD, .level = 1,
				   .page_size = PAGE, .chunk_pages = 4 };
	char path[] = "/tmp/tm-spool-test-XXXXXX";
	char page[PAGE] = { 0 };
	struct tm_spool_stats st;
	struct tm_spool *s;
	int fd = mkstemp(path);

	TM_REQUIRE(fd >= 0);
	close(fd);
	unlink(path);
	s = tm_spool_create(path, &o);
	TM_REQUIRE(s);
	TM_CHECK(!tm_spool_finished(s));
	TM_CHECK_INT(tm_spool_add_page(s, page), 0);
	TM_CHECK_INT(tm_spool_finish(s), 0);
	TM_CHECK(tm_spool_finished(s));
	TM_CHECK_INT(tm_spool_add_page(s, page), -1);
	TM_CHECK_INT(tm_spool_finish(s), 0);	/* idempotent: no second partial chunk */
	tm_spool_get_stats(s, &st);
	TM_CHECK_INT(st.pages, 1);
	TM_CHECK_INT(st.chunks, 1);
	tm_spool_destroy(s, true);
}

/* A clock that stands still: no rate is ever measured, the fill alone decides. */
static uint64_t still_clock(void)
{
	return 0;
}

/* A spool at a fresh temporary path (path: a mkstemp() template); NULL on failure. */
static struct tm_spool *temp_spool(char *path, const struct tm_spool_opts *o)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return NULL;
	close(fd);
	unlink(path);
	return tm_spool_create(path, o);
}

/*
 * The chunks of a finished spool file, each of chunk_pages pages: page i of
 * the spool is page i % npages of raw. Returns how many chunks decoded.
 */
static size_t decode_chunks(struct tm_test *t, const char *path, const char *raw, size_t npages,
			    size_t chunk_pages)
{
	struct tm_codec *codec = tm_codec_new(TM_COMPRESS_ZSTD, 1);
	size_t flen, off = 0, n = 0, size = chunk_pages * PAGE;
	char *file = tm_read_file(path, &flen), *back = malloc(size);

	if (!codec || !file || !back) {
		fprintf(stderr, "  cannot decode %s\n", path);
		t->failures++;
		flen = 0;
	}
	while (off + TM_DAT_CHUNK_HDR_LEN <= flen) {
		uint32_t c = tm_get32(file + off, false);

		TM_CHECK_INT(tm_codec_decompress(codec, back, size, file + off + 8, c), size);
		for (size_t i = 0; i < chunk_pages; i++)
			TM_CHECK(!memcmp(back + i * PAGE,
					 raw + ((n * chunk_pages + i) % npages) * PAGE, PAGE));
		off += TM_DAT_CHUNK_HDR_LEN + c;
		n++;
	}
	free(back);
	free(file);
	tm_codec_free(codec);
	return n;
}

/* A spool in a temporary file, fed the fixture's pages over and over. */
struct feed {
	char		path[32];
	char		*raw;
	size_t		npages;
	struct tm_spool	*s;
};

/* False when the fixture has no whole page or the spool cannot be made. */
static bool feed_open(struct feed *fd, const struct tm_spool_opts *o)
{
	size_t len;

	snprintf(fd->path, sizeof(fd->path), "/tmp/tm-spool-test-XXXXXX");
	fd->raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &len);
	fd->npages = fd->raw ? len / PAGE : 0;
	fd->s = fd->npages ? temp_spool(fd->path, o) : NULL;
	return fd->s != NULL;
}

/* Page i of the feed: the fixture's page i % npages. */
static int feed_page(struct feed *fd, size_t i)
{
	return tm_spool_add_page(fd->s, fd->raw + (i % fd->npages) * PAGE);
}

/* Finish the spool, its stats into st; how many chunks of chunk_pages decode to their pages. */
static size_t feed_close(struct tm_test *t, struct feed *fd, size_t chunk_pages,
			 struct tm_spool_stats *st)
{
	size_t n;

	TM_CHECK_INT(tm_spool_finish(fd->s), 0);
	tm_spool_get_stats(fd->s, st);
	n = decode_chunks(t, tm_spool_path(fd->s), fd->raw, fd->npages, chunk_pages);
	free(fd->raw);
	tm_spool_destroy(fd->s, true);
	return n;
}

/* Feed 16 one-page chunks at the given ring fill levels; every chunk still decodes. */
static void adaptive_run(struct tm_test *t, bool adaptive, struct tm_spool_stats *st)
{
	static const unsigned int fills[] = { 800, 850, 600, 500, 100, 100, 100, 100, 100, 100,
					      100, 100, 100, 950, 100, 100 };
	struct tm_spool_opts o = { .compression = TM_COMPRESS_ZSTD, .level = 3,
				   .adaptive = adaptive, .page_size = PAGE, .chunk_pages = 1,
				   .clock_ns = still_clock };
	struct feed fd;

	TM_REQUIRE(feed_open(&fd, &o));
	for (size_t i = 0; i < TM_ARRAY_SIZE(fills); i++) {
		struct tm_ring_fill f = { .permille = fills[i], .written = 1000.0 * (i + 1) };

		tm_spool_set_fill(fd.s, &f);
		TM_CHECK_INT(feed_page(&fd, i), 0);
	}
	TM_CHECK_INT(feed_close(t, &fd, 1, st), TM_ARRAY_SIZE(fills));
}

TM_TEST(spool_adaptive_level_steps_down_while_the_ring_fills_and_back_when_calm)
{
	struct tm_spool_stats st;

	/*
	 * 800: -1; 850: lowest; 600: hold; 500 and below: calm, four calm chunks
	 * per step up (chunks 3-6 lowest, 7-10 at -1, 11-13 chosen); 950: lowest
	 * again for the last three
	 */
	adaptive_run(t, true, &st);
	TM_CHECK_INT(st.chunks, 16);
	TM_CHECK_INT(st.fast_chunks, 13);
	TM_CHECK_INT(st.lowest_level, tm_codec_min_level());
	TM_CHECK_INT(st.vetoed_chunks, 0);
	adaptive_run(t, false, &st);
	TM_CHECK_INT(st.fast_chunks, 0);
}

#define MIB	(1024 * 1024)
#define MS	1000000ull

/* A policy fed like a spool: fill samples, data written at rate per mille a ms. */
struct sim {
	struct tm_level_policy	p;
	uint64_t		now;
	double			written;
	double			rate;
	unsigned int		ms[TM_LEVEL_STEPS];	/* a 1 MiB chunk's time per step */
};

static void sim_sample(struct sim *s, unsigned int fill)
{
	struct tm_ring_fill f = { .permille = fill, .written = s->written };

	tm_level_sample(&s->p, &f, s->now);
}

/* Time passes: ms of writing at the sim's rate, sampled at fill each ms. */
static void sim_wait(struct sim *s, unsigned int ms, unsigned int fill)
{
	for (unsigned int i = 0; i < ms; i++) {
		s->now += MS;
		s->written += s->rate;
		sim_sample(s, fill);
	}
}

/* One 1 MiB chunk: picked at fill, compressed in its step's time (data still comes). */
static int sim_chunk(struct sim *s, unsigned int fill, unsigned int fill_after)
{
	unsigned int ms;
	int level;

	sim_sample(s, fill);
	level = tm_level_pick(&s->p, MIB);
	ms = s->ms[s->p.step];
	tm_level_done(&s->p, MIB, s->now, s->now + ms * MS);
	s->now += ms * MS;
	s->written += s->rate * ms;
	sim_sample(s, fill_after);
	return level;
}

/*
 * Level 9: the first chunk goes at -1 (2 ms), which costs level 9 at 64 ms
 * (zstd's relative speeds). Data comes at 10 per mille a ms: from a fill of
 * 300, 640 more would pass 800, so level 9 is not tried. At 1 per mille a ms
 * it fits (364); measured at 40 ms, a fill of 450 at 10 a ms again says -1.
 */
TM_TEST(spool_level_projection_steps_down_before_a_slow_chunk_would_fill_the_ring)
{
	struct sim s = { .now = MS, .rate = 10, .ms = { 40, 2, 1 } };
	int i, level = 0;

	tm_level_init(&s.p, 9, true);
	sim_wait(&s, 20, 300);
	TM_CHECK_INT(sim_chunk(&s, 300, 300), TM_SPOOL_FAST_LEVEL);
	TM_CHECK(tm_level_cost(&s.p, 0) > 30.0 * MS / MIB);
	for (i = 0; i < 6; i++)
		TM_CHECK_INT(sim_chunk(&s, 300, 300), TM_SPOOL_FAST_LEVEL);
	TM_CHECK(s.p.vetoed >= 1);
	/* a lighter load: the rate falls over the windows; level 9 after a calm spell */
	s.rate = 1;
	sim_wait(&s, 200, 300);
	for (i = 0; i < 5 && level != 9; i++)
		level = sim_chunk(&s, 300, 340);
	TM_CHECK_INT(level, 9);
	/* measured at 40 ms: at 10 a ms from 450 it would pass 800 */
	s.rate = 10;
	sim_wait(&s, 20, 450);
	TM_CHECK_INT(sim_chunk(&s, 450, 450), TM_SPOOL_FAST_LEVEL);
}

/*
 * The bug this policy replaced: the rate was the fill's growth across a
 * chunk's compression. A reader that drains the ring between fast chunks
 * sees no growth, the rate decayed to nothing, and level 19 was taken again
 * after each calm spell (one chunk of it took a second and ran the ring
 * over). Written data, not the fill, now gives the rate.
 */
TM_TEST(spool_level_projection_keeps_the_rate_when_the_reader_keeps_the_fill_flat)
{
	struct sim s = { .now = MS, .rate = 20, .ms = { 1000, 1, 1 } };

	tm_level_init(&s.p, 19, true);
	sim_wait(&s, 20, 100);
	TM_CHECK_INT(sim_chunk(&s, 100, 100), TM_SPOOL_FAST_LEVEL);
	for (int i = 0; i < 50; i++) {
		TM_CHECK(sim_chunk(&s, 100, 100) != 19);
		sim_wait(&s, 2, 100);
	}
	TM_CHECK(s.p.rate > 19.0 / MS);
}

/*
 * After four calm chunks the fill alone would step back towards level 9; the
 * projection refuses while data comes at 22 per mille a ms (880 in a 40 ms
 * level-9 chunk), and goes back up once the load is lighter.
 */
TM_TEST(spool_level_projection_goes_back_up_only_when_the_slow_level_fits)
{
	struct sim s = { .now = MS, .rate = 22, .ms = { 40, 1, 1 } };
	int i;

	tm_level_init(&s.p, 9, true);
	sim_wait(&s, 20, 50);
	TM_CHECK_INT(sim_chunk(&s, 50, 72), TM_SPOOL_FAST_LEVEL);
	/* 930: the lowest level */
	TM_CHECK_INT(sim_chunk(&s, 930, 952), tm_codec_min_level());
	/* drained to 100 between chunks, data still coming at 22 a ms */
	for (i = 0; i < 12; i++)
		TM_CHECK(sim_chunk(&s, 100, 100) != 9);
	TM_CHECK(s.p.vetoed >= 1);
	/* a lighter load: 2 a ms; level 9 fits again (100 + 2 x its cost) */
	s.rate = 2;
	for (i = 0; i < 40 && tm_level_of_step(&s.p, s.p.step) != 9; i++) {
		sim_chunk(&s, 100, 100);
		sim_wait(&s, 10, 100);
	}
	TM_CHECK_INT(tm_level_of_step(&s.p, s.p.step), 9);
}

/*
 * Byte pricing. Level 1 (1 ms a MiB) writes 3% of the raw bytes; zstd's
 * lowest level (a fifth of that time) writes all of them. Data comes at 200
 * per mille a ms. With writes measured at 1 ns a byte, a full ring's chunk
 * goes at -1, not the lowest level: 2 ms a MiB of writing and writeback cost
 * more than compression saves. At 0.1 ns a byte the lowest level is the
 * cheapest, and is taken.
 */
TM_TEST(spool_level_price_counts_the_bytes_a_faster_level_writes)
{
	struct sim s = { .now = MS, .rate = 200, .ms = { 1, 1, 1 } };

	tm_level_init(&s.p, 1, true);
	sim_wait(&s, 20, 100);
	TM_CHECK_INT(sim_chunk(&s, 100, 100), 1);
	tm_level_written(&s.p, MIB, MIB * 3 / 100, MIB * 3 / 100);
	TM_CHECK(tm_level_price(&s.p, 2) > tm_level_price(&s.p, 0));
	TM_CHECK_INT(sim_chunk(&s, 930, 930), TM_SPOOL_FAST_LEVEL);

	tm_level_init(&s.p, 1, true);
	TM_CHECK_INT(sim_chunk(&s, 100, 100), 1);
	tm_level_written(&s.p, MIB, MIB * 3 / 100, MIB * 3 / 1000);
	TM_CHECK_INT(sim_chunk(&s, 930, 930), tm_codec_min_level());
}

/*
 * A late reader is no slow compressor: data comes at 0.5 per mille a ms and
 * a level-1 chunk takes 1 ms (0.5 per mille), so a ring found 930 per mille
 * full (the reader was not scheduled) keeps level 1: no faster level would
 * keep it 10 per mille emptier. At 50 a ms the same fill sends the chunk to
 * the lowest level, as before.
 */
TM_TEST(spool_level_a_late_reader_keeps_the_level)
{
	struct sim s = { .now = MS, .rate = 0.5, .ms = { 1, 1, 1 } };

	tm_level_init(&s.p, 1, true);
	sim_wait(&s, 40, 100);
	TM_CHECK_INT(sim_chunk(&s, 100, 100), 1);
	sim_wait(&s, 40, 930);
	TM_CHECK_INT(sim_chunk(&s, 930, 930), 1);
	TM_CHECK_INT(sim_chunk(&s, 930, 930), 1);
	s.rate = 50;
	sim_wait(&s, 40, 930);
	TM_CHECK_INT(sim_chunk(&s, 930, 930), tm_codec_min_level());
}

/*
 * The probe's -1 is no fall-behind: at a calm fill the next chunk is at the
 * chosen level again, not after FILL_CALM chunks (which the record summary
 * counted as chunks where the compressor fell behind).
 */
TM_TEST(spool_level_probe_does_not_hold_the_fast_step)
{
	struct sim s = { .now = MS, .rate = 0, .ms = { 40, 2, 1 } };

	tm_level_init(&s.p, 9, true);
	sim_wait(&s, 20, 100);
	TM_CHECK_INT(sim_chunk(&s, 100, 100), TM_SPOOL_FAST_LEVEL);
	TM_CHECK(s.p.probe);
	TM_CHECK_INT(sim_chunk(&s, 100, 100), 9);
	TM_CHECK(!s.p.probe);
	/* a high fill still steps down after the probe */
	tm_level_init(&s.p, 9, true);
	TM_CHECK_INT(sim_chunk(&s, 100, 100), TM_SPOOL_FAST_LEVEL);
	TM_CHECK_INT(sim_chunk(&s, 850, 850), TM_SPOOL_FAST_LEVEL);
	TM_CHECK(!s.p.probe);
}

/* A clock the test sets; each read then moves it on by fake_step (time passing in zstd). */
struct fake_clock {
	uint64_t	now;
	uint64_t	step;
};

static struct fake_clock fake_clock;	/* tm_spool_opts.clock_ns takes no context */

static uint64_t fake_clock_ns(void)
{
	uint64_t now = fake_clock.now;

	fake_clock.now += fake_clock.step;
	return now;
}

/*
 * Two 64-page chunks at level 9, data written at 5 per mille a ms, the ring
 * at 100. The first (the probe at -1) measures nothing on the still clock;
 * the second goes at level 9, in steps, and each step takes 200 ms: by the
 * first step's end the ring is projected at 1100, so the chunk is stopped
 * and done again at the lowest level. Both chunks decode to their pages.
 * --fixed-level never stops a chunk.
 */
static void stop_run(struct tm_test *t, bool adaptive, struct tm_spool_stats *st)
{
	struct tm_spool_opts o = { .compression = TM_COMPRESS_ZSTD, .level = 9,
				   .adaptive = adaptive, .page_size = PAGE, .chunk_pages = 64,
				   .clock_ns = fake_clock_ns };
	struct feed fd;

	fake_clock = (struct fake_clock){ .now = MS };
	TM_REQUIRE(feed_open(&fd, &o));
	for (size_t i = 0; i < 128; i++) {
		struct tm_ring_fill f = { .permille = 100, .written = 100.0 * (i + 1) };

		fake_clock.now += 20 * MS;
		tm_spool_set_fill(fd.s, &f);
		if (i == 127)
			fake_clock.step = 200 * MS;
		TM_CHECK_INT(feed_page(&fd, i), 0);
	}
	TM_CHECK_INT(feed_close(t, &fd, 64, st), 2);
}

TM_TEST(spool_level_slow_chunk_is_stopped_when_the_ring_would_run_over)
{
	struct tm_spool_stats st;

	stop_run(t, true, &st);
	TM_CHECK_INT(st.chunks, 2);
	TM_CHECK_INT(st.stopped_chunks, 1);
	TM_CHECK_INT(st.fast_chunks, 1);
	TM_CHECK_INT(st.lowest_level, tm_codec_min_level());
	stop_run(t, false, &st);
	TM_CHECK_INT(st.chunks, 2);
	TM_CHECK_INT(st.stopped_chunks, 0);
	TM_CHECK_INT(st.fast_chunks, 0);
}

/* The projected fill: the last sample plus the rate since; unknown rate, never overdue. */
TM_TEST(spool_level_overdue_projects_the_fill_from_the_last_sample)
{
	struct sim s = { .now = MS, .rate = 7.5, .ms = { 40, 1, 1 } };

	tm_level_init(&s.p, 9, true);
	TM_CHECK(!tm_level_overdue(&s.p, s.now + 1000 * MS));	/* no rate yet */
	sim_wait(&s, 20, 435);
	TM_CHECK(!tm_level_overdue(&s.p, s.now + 40 * MS));	/* 735 */
	TM_CHECK(tm_level_overdue(&s.p, s.now + 50 * MS));	/* 810 */
	/* only a slow level's chunk may be stopped, and only when adaptive */
	TM_CHECK(tm_level_may_stop(&s.p));
	s.p.step = 1;
	TM_CHECK(!tm_level_may_stop(&s.p));
	tm_level_init(&s.p, 1, true);
	TM_CHECK(!tm_level_may_stop(&s.p));
	tm_level_init(&s.p, 9, false);
	TM_CHECK(!tm_level_may_stop(&s.p));
}

/* --fixed-level: the projection never changes the level, the first chunk included. */
TM_TEST(spool_level_fixed_ignores_the_projection)
{
	struct sim s = { .now = MS, .rate = 50, .ms = { 40, 1, 1 } };
	int i;

	tm_level_init(&s.p, 9, false);
	sim_wait(&s, 20, 700);
	for (i = 0; i < 6; i++)
		TM_CHECK_INT(sim_chunk(&s, 700, 1000), 9);
	TM_CHECK_INT(s.p.vetoed, 0);
}

static uint64_t tick_now;	/* the clock of the tick test */

static uint64_t tick_clock(void)
{
	return tick_now;
}

/*
 * A chunk that is not full goes to the file once its first page is
 * max_age_ns old (what bounds a killed recorder's loss), not before; with
 * max_age_ns 0 only a full chunk is written.
 */
TM_TEST(spool_tick_writes_a_chunk_once_its_first_page_is_old)
{
	struct tm_spool_opts o = { .compression = TM_COMPRESS_ZSTD, .level = 1,
				   .page_size = PAGE, .chunk_pages = 256,
				   .clock_ns = tick_clock, .max_age_ns = 1000000000 };
	char path[] = "/tmp/tm-spool-test-XXXXXX", path2[] = "/tmp/tm-spool-test-XXXXXX";
	char page[PAGE] = { 0 };
	struct tm_spool_stats st;
	struct tm_spool *s;

	tick_now = 5000000000;
	s = temp_spool(path, &o);
	TM_REQUIRE(s);
	TM_CHECK_INT(tm_spool_tick(s), 0);		/* nothing gathered: nothing to write */
	TM_CHECK_INT(tm_spool_add_page(s, page), 0);
	tick_now += 600000000;
	TM_CHECK_INT(tm_spool_add_page(s, page), 0);
	TM_CHECK_INT(tm_spool_tick(s), 0);
	tm_spool_get_stats(s, &st);
	TM_CHECK_INT(st.chunks, 0);			/* 0.6 s: still gathering */
	tick_now += 400000000;
	TM_CHECK_INT(tm_spool_tick(s), 0);
	tm_spool_get_stats(s, &st);
	TM_CHECK_INT(st.chunks, 1);			/* 1.0 s: written, both pages */
	TM_CHECK(st.file_bytes > TM_DAT_CHUNK_HDR_LEN);
	TM_CHECK_INT(tm_spool_tick(s), 0);
	tm_spool_get_stats(s, &st);
	TM_CHECK_INT(st.chunks, 1);			/* and no empty chunk after it */
	tm_spool_destroy(s, true);

	o.max_age_ns = 0;
	s = temp_spool(path2, &o);
	TM_REQUIRE(s);
	TM_CHECK_INT(tm_spool_add_page(s, page), 0);
	tick_now += 60000000000;
	TM_CHECK_INT(tm_spool_tick(s), 0);
	tm_spool_get_stats(s, &st);
	TM_CHECK_INT(st.chunks, 0);
	tm_spool_destroy(s, true);
}
