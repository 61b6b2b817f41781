// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - one table's rows as an insert's body: read from SQLite and
 * encoded into Native blocks on a thread of their own, two blocks ahead of
 * the request, so that reading the next rows overlaps sending (and the
 * server's writing of) the last ones. Reading SQLite is most of the loader's
 * own time.
 */
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "fleet-internal.h"
#include "util/tm-error.h"

#define STREAM_BLOCK_ROWS	65536		/* rows a Native block holds at most */
#define STREAM_BLOCK_BYTES	(4u << 20)	/* or the bytes, whichever comes first */

/* The machine's name of a row: its number's name, the number, or the one name. */
static const char *stream_machine(struct tm_fleet_stream *fs, char num[24])
{
	const struct tm_fleet_load_opts *o = fs->o;
	int col = fs->t->machine_col;
	const char *name = o->nmachines ? o->machines[0] : "";

	if (col >= 0 && sqlite3_column_type(fs->st, col) == SQLITE_INTEGER) {
		int64_t m = sqlite3_column_int64(fs->st, col);

		if (m >= 0 && m < o->nmachines) {
			name = o->machines[m];
		} else {
			snprintf(num, 24, "%" PRId64, m);
			name = num;
		}
	} else if (col >= 0 && sqlite3_column_type(fs->st, col) != SQLITE_NULL) {
		name = (const char *)sqlite3_column_text(fs->st, col);
	}
	return name ? name : "";
}

/* The next rows as one block's columns; *end at the table's end. -1 + message. */
static int stream_rows(struct tm_fleet_stream *fs, bool *end)
{
	char num[24];

	/* the bytes summed over the columns every 256 rows: a block ends near its size */
	while (fs->rows_in.rows < STREAM_BLOCK_ROWS &&
	       ((fs->rows_in.rows & 255) || tm_native_bytes(&fs->rows_in) < STREAM_BLOCK_BYTES)) {
		int rc = sqlite3_step(fs->st);

		if (rc == SQLITE_DONE) {
			*end = true;
			break;
		}
		if (rc != SQLITE_ROW)
			return tm_failx(EIO, "reading table %s: %s", fs->t->name,
					sqlite3_errmsg(sqlite3_db_handle(fs->st)));
		tm_native_add(&fs->rows_in, fs->st, stream_machine(fs, num));
		fs->rows++;
	}
	return 0;
}

/*
 * The next rows as one block in out. The connection's mutex is held for the
 * whole block: SQLite takes it (a serialized build's) in every step and every
 * column read, which was half the loader's time; held here, each of those is
 * a recursive relock of a mutex this thread owns, no atomic operation. (NULL,
 * a no-op, on a connection opened without one: tm_fleet_db_open()'s.)
 */
static int stream_block(struct tm_fleet_stream *fs, struct tm_buf *out, bool *end)
{
	sqlite3_mutex *m = sqlite3_db_mutex(sqlite3_db_handle(fs->st));
	int ret;

	sqlite3_mutex_enter(m);
	ret = stream_rows(fs, end);
	sqlite3_mutex_leave(m);
	return ret < 0 ? ret : tm_native_flush(&fs->rows_in, out, fs->o->trace);
}

/* The reader thread: blocks into the queue until the end, a failure or stop. */
static void *stream_reader(void *arg)
{
	struct tm_fleet_stream *fs = arg;
	bool end = false;

	while (!end) {
		struct tm_buf b = { 0 };
		int ret = stream_block(fs, &b, &end);

		pthread_mutex_lock(&fs->lock);
		if (ret < 0) {
			fs->err = errno ? errno : EIO;
			snprintf(fs->msg, sizeof(fs->msg), "%s", tm_last_error());
		}
		while (!fs->err && !fs->stop && fs->queued == TM_FLEET_QUEUE)
			pthread_cond_wait(&fs->cond, &fs->lock);
		if (fs->err || fs->stop) {
			pthread_cond_broadcast(&fs->cond);
			pthread_mutex_unlock(&fs->lock);
			tm_buf_free(&b);
			return NULL;
		}
		fs->queue[(fs->head + fs->queued++) % TM_FLEET_QUEUE] = b;
		fs->end = end;
		pthread_cond_broadcast(&fs->cond);
		pthread_mutex_unlock(&fs->lock);
	}
	return NULL;
}

int tm_fleet_stream_start(struct tm_fleet_stream *fs, sqlite3 *db,
			  const struct tm_fleet_table *t, const struct tm_fleet_load_opts *o)
{
	char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"", t->name);
	int rc;

	memset(fs, 0, sizeof(*fs));
	fs->t = t;
	fs->o = o;
	tm_native_init(&fs->rows_in, t);
	rc = sql ? sqlite3_prepare_v2(db, sql, -1, &fs->st, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return tm_failx(EIO, "reading table %s: %s", t->name, sqlite3_errmsg(db));
	pthread_mutex_init(&fs->lock, NULL);
	pthread_cond_init(&fs->cond, NULL);
	rc = pthread_create(&fs->thread, NULL, stream_reader, fs);
	if (rc) {
		pthread_cond_destroy(&fs->cond);
		pthread_mutex_destroy(&fs->lock);
		return tm_fail(rc, "table %s: a reader thread", t->name);
	}
	fs->started = true;
	return 0;
}

/* The next queued block as the one being sent; false at the end or on failure. */
static bool stream_next(struct tm_fleet_stream *fs)
{
	bool got = false;

	pthread_mutex_lock(&fs->lock);
	while (!fs->queued && !fs->err && !fs->end)
		pthread_cond_wait(&fs->cond, &fs->lock);
	if (fs->queued) {
		tm_buf_free(&fs->sending);
		fs->sending = fs->queue[fs->head];
		fs->head = (fs->head + 1) % TM_FLEET_QUEUE;
		fs->queued--;
		fs->off = 0;
		got = true;
		pthread_cond_broadcast(&fs->cond);
	}
	pthread_mutex_unlock(&fs->lock);
	return got;
}

ssize_t tm_fleet_stream_fill(void *ctx, uint8_t *buf, size_t cap)
{
	struct tm_fleet_stream *fs = ctx;
	size_t got = 0;

	while (got < cap) {
		size_t n;

		if (fs->off == fs->sending.len) {
			if (stream_next(fs))
				continue;
			/* the end, or the reader's failure (a queued block goes first) */
			if (fs->err)
				return tm_failx(fs->err, "%s", fs->msg);
			break;
		}
		n = fs->sending.len - fs->off;
		if (n > cap - got)
			n = cap - got;
		memcpy(buf + got, fs->sending.data + fs->off, n);
		fs->off += n;
		got += n;
	}
	return got;
}

void tm_fleet_stream_stop(struct tm_fleet_stream *fs)
{
	if (fs->started) {
		pthread_mutex_lock(&fs->lock);
		fs->stop = true;
		pthread_cond_broadcast(&fs->cond);
		pthread_mutex_unlock(&fs->lock);
		pthread_join(fs->thread, NULL);
		pthread_cond_destroy(&fs->cond);
		pthread_mutex_destroy(&fs->lock);
	}
	for (; fs->queued; fs->queued--, fs->head = (fs->head + 1) % TM_FLEET_QUEUE)
		tm_buf_free(&fs->queue[fs->head]);
	tm_buf_free(&fs->sending);
	sqlite3_finalize(fs->st);
	tm_native_free(&fs->rows_in);
	fs->st = NULL;
	fs->started = false;
}
