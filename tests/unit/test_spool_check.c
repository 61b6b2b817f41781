// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_spool_check.c - what a recording that did not end normally leaves: a
 * spool whose write failed keeps its whole chunks (salvage), and a spool with
 * a torn tail is cut back to them (tm_spool_check_file).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "tm_test.h"
#include "tracefs/meta-internal.h"
#include "record/spool.h"
#include "util/tm-error.h"
#include "util/tm-progress.h"

#define PAGE 4096

static off_t file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? -1 : sb.st_size;
}

static struct tm_spool *new_spool(char *path, enum tm_compression c, size_t chunk_pages)
{
	struct tm_spool_opts o = { .compression = c, .level = 1, .page_size = PAGE,
				   .chunk_pages = chunk_pages };
	int fd = mkstemp(path);

	if (fd < 0)
		return NULL;
	close(fd);
	unlink(path);
	return tm_spool_create(path, &o);
}

static bool any_id(const uint8_t *ids)
{
	for (size_t i = 0; i < TM_META_MAX_IDS / 8; i++)
		if (ids[i])
			return true;
	return false;
}

static void count_shows(void *ctx, const struct tm_progress *p)
{
	(void)p;
	(*(int *)ctx)++;
}

TM_TEST(spool_check_cuts_a_torn_chunk_and_notes_the_event_ids)
{
	struct tm_spool_opts o = { .compression = TM_COMPRESS_ZSTD, .page_size = PAGE,
				   .chunk_pages = 1 };
	char path[] = "/tmp/tm-spool-check-XXXXXX";
	uint8_t torn[18] = { 0x88, 0x13, 0, 0, 0, 0x20, 0, 0 };	/* 5000 bytes promised */
	uint8_t *ids = calloc(TM_META_MAX_IDS / 8, 1);
	struct tm_spool_stats st, got;
	struct tm_spool *s = new_spool(path, TM_COMPRESS_ZSTD, 2);
	size_t len;
	char *raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &len);
	uint64_t dropped = 0;
	int fd, shows = 0;
	struct tm_meter meter = { .fn = count_shows, .ctx = &shows };

	TM_REQUIRE(s && raw && ids);
	for (size_t off = 0; off + PAGE <= len; off += PAGE)
		TM_CHECK_INT(tm_spool_add_page(s, raw + off), 0);
	TM_CHECK_INT(tm_spool_finish(s), 0);
	tm_spool_get_stats(s, &st);
	/* the recorder died while appending a chunk */
	fd = open(path, O_WRONLY | O_APPEND);
	TM_REQUIRE(fd >= 0);
	TM_CHECK_INT(write(fd, torn, sizeof(torn)), sizeof(torn));
	close(fd);
	/* read only: the same last record as the writer noted, nothing cut */
	TM_CHECK_INT(tm_spool_check_file(path, &o, &got, NULL, NULL, NULL), 0);
	TM_CHECK(st.last_ts > 0);
	TM_CHECK_INT(got.last_ts, st.last_ts);
	TM_CHECK_INT(got.file_bytes, st.file_bytes);
	TM_CHECK_INT(file_size(path), st.file_bytes + sizeof(torn));
	TM_CHECK_INT(tm_spool_check_file(path, &o, &got, &dropped, ids, &meter), 0);
	TM_CHECK_INT(dropped, sizeof(torn));
	/* the meter saw every sound chunk, once each, and A's 430 records of CPU 0 */
	TM_CHECK_INT(shows, st.chunks);
	TM_CHECK_INT(meter.p.done, st.file_bytes);
	TM_CHECK_INT(meter.p.events, 430);
	TM_CHECK_INT(got.pages, len / PAGE);
	TM_CHECK_INT(got.chunks, st.chunks);
	TM_CHECK_INT(got.file_bytes, st.file_bytes);
	TM_CHECK_INT(file_size(path), st.file_bytes);
	TM_CHECK(any_id(ids));
	tm_spool_destroy(s, true);
	free(raw);
	free(ids);
}

TM_TEST(spool_salvage_keeps_the_whole_chunks_written_before_a_failed_write)
{
	struct tm_spool_opts o = { .compression = TM_COMPRESS_NONE, .page_size = PAGE,
				   .chunk_pages = 1 };
	char path[] = "/tmp/tm-spool-check-XXXXXX";
	struct rlimit old, lim;
	struct tm_spool_stats st, got;
	struct tm_spool *s = new_spool(path, TM_COMPRESS_NONE, 1);
	size_t len;
	char *raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &len), *file;
	void (*old_xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
	uint64_t dropped = 0;
	int r = 0;

	TM_REQUIRE(s && raw && !getrlimit(RLIMIT_FSIZE, &old));
	/* a file system with room for two pages and a bit: the third is written in part */
	lim = old;
	lim.rlim_cur = 2 * PAGE + 100;
	TM_REQUIRE(!setrlimit(RLIMIT_FSIZE, &lim));
	for (size_t off = 0; off + PAGE <= len && !r; off += PAGE)
		r = tm_spool_add_page(s, raw + off);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, old_xfsz);
	TM_CHECK_INT(r, -1);
	TM_CHECK_INT(tm_spool_error(s), EFBIG);
	TM_CHECK(strstr(tm_last_error(), "File too large") != NULL);
	TM_CHECK_INT(tm_spool_add_page(s, raw), -1);	/* no more pages after it */
	TM_CHECK_INT(tm_spool_finish(s), -1);
	TM_CHECK_INT(tm_spool_salvage(s), 0);
	TM_CHECK(tm_spool_finished(s));
	tm_spool_get_stats(s, &st);
	TM_CHECK_INT(st.file_bytes, 2 * PAGE);
	TM_CHECK_INT(file_size(path), 2 * PAGE);	/* the part-written page cut off */
	TM_CHECK_INT(tm_spool_check_file(path, &o, &got, &dropped, NULL, NULL), 0);
	TM_CHECK_INT(got.pages, 2);
	TM_CHECK_INT(dropped, 0);
	file = tm_read_file(path, NULL);
	TM_CHECK(file && !memcmp(raw, file, 2 * PAGE));
	tm_spool_destroy(s, true);
	free(file);
	free(raw);
}
