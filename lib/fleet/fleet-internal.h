/* SPDX-License-Identifier: GPL-2.0-only */
/* fleet-internal.h - what lib/fleet's sources share: the schema, the encoder, HTTP. */
#ifndef TM_FLEET_INTERNAL_H
#define TM_FLEET_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/internal.h"
#include "util/buf.h"
#include "fleet/tm-fleet.h"

struct sqlite3_stmt;

/* The ClickHouse types a SQLite column becomes. */
enum tm_ch_type {
	TM_CH_INT64,
	TM_CH_FLOAT64,
	TM_CH_STRING,
};

struct tm_fleet_col {
	char			*name;
	enum tm_ch_type		type;
	bool			nullable;
};

struct tm_fleet_table {
	char			*name;
	struct tm_fleet_col	*cols;		/* the SQLite table's columns, in order */
	int			ncols;
	int			machine_col;	/* SQLite's machine column (a number); -1: none */
	int			ts_col;		/* an integer ts column, the sort key; -1: none */
};

struct tm_fleet_schema {
	struct tm_fleet_table	*tables;
	int			ntables;
};

/* ClickHouse's name of a type, with Nullable() when nullable. */
TM_HIDDEN const char *tm_ch_type_name(enum tm_ch_type type, bool nullable);
/* The type of a SQLite declared type, by SQLite's own affinity rules. */
TM_HIDDEN enum tm_ch_type tm_ch_type_of_decl(const char *decl);
/* "`name`" with backticks and backslashes escaped, into b. */
TM_HIDDEN void tm_ch_put_ident(struct tm_buf *b, const char *name);
/* 'text' with quotes and backslashes escaped, into b. */
TM_HIDDEN void tm_ch_put_string(struct tm_buf *b, const char *s);
/* The local table's name of a table: NAME_local with a cluster, else NAME. */
TM_HIDDEN void tm_ch_put_table(struct tm_buf *b, const char *name, const char *cluster);
/* CREATE TABLE statements of one table (';' after each, NUL-terminated) into b. */
TM_HIDDEN void tm_fleet_ddl_table(struct tm_buf *b, const struct tm_fleet_table *t,
				  const char *dbname, const char *cluster);
/* The same for tracemap_loads. */
TM_HIDDEN void tm_fleet_ddl_loads(struct tm_buf *b, const char *dbname, const char *cluster);

/* ClickHouse's binary values: LEB128 lengths, little-endian numbers (rowbinary.c). */
TM_HIDDEN void tm_rb_put_varint(struct tm_buf *b, uint64_t v);
TM_HIDDEN void tm_rb_put_string(struct tm_buf *b, const void *s, size_t len);
TM_HIDDEN void tm_rb_put_int64(struct tm_buf *b, int64_t v);
TM_HIDDEN void tm_rb_put_float64(struct tm_buf *b, double v);

/* A Native block of a table's rows being gathered (native.c). */
struct tm_native_col;
struct tm_native {
	const struct tm_fleet_table	*t;
	struct tm_native_col		*cols;		/* one per SQLite column */
	struct tm_buf			machine;	/* the machine column's values */
	uint64_t			rows;
	int				err;		/* ENOMEM once an append failed */
};

TM_HIDDEN void tm_native_init(struct tm_native *nb, const struct tm_fleet_table *t);
TM_HIDDEN void tm_native_free(struct tm_native *nb);
/* One row of st (SELECT * of the table) on machine. */
TM_HIDDEN void tm_native_add(struct tm_native *nb, struct sqlite3_stmt *st, const char *machine);
/* The bytes the rows gathered take. */
TM_HIDDEN size_t tm_native_bytes(const struct tm_native *nb);
/* The rows gathered as one block (trace on each) appended to out; emptied. -1: ENOMEM. */
TM_HIDDEN int tm_native_flush(struct tm_native *nb, struct tm_buf *out, const char *trace);

/* One table's rows being read and encoded on a thread of their own (stream.c). */
#define TM_FLEET_QUEUE	2		/* blocks the reader may be ahead */
struct tm_fleet_stream {
	const struct tm_fleet_table	*t;
	const struct tm_fleet_load_opts	*o;
	struct sqlite3_stmt		*st;
	struct tm_native		rows_in;	/* the reader's block being gathered */
	uint64_t			rows;		/* read so far (all, once ended) */
	pthread_t			thread;
	pthread_mutex_t			lock;		/* the fields below */
	pthread_cond_t			cond;
	struct tm_buf			queue[TM_FLEET_QUEUE];
	int				head, queued;
	bool				end, stop, started;
	int				err;		/* the reader's failure: errno */
	char				msg[512];	/* and its message */
	struct tm_buf			sending;	/* the request's side: a block */
	size_t				off;		/* sent of it */
};

/* Start reading table t of db (its rows on machines and as trace of o). -1 + message. */
TM_HIDDEN int tm_fleet_stream_start(struct tm_fleet_stream *fs, struct sqlite3 *db,
				    const struct tm_fleet_table *t,
				    const struct tm_fleet_load_opts *o);
/* A tm_ch_fill_fn over fs: the blocks in order, 0 at the end, -1 + the reader's message. */
TM_HIDDEN ssize_t tm_fleet_stream_fill(void *ctx, uint8_t *buf, size_t cap);
/* Stop the reader (wherever it is), free everything. fs->rows stays. */
TM_HIDDEN void tm_fleet_stream_stop(struct tm_fleet_stream *fs);

/*
 * A body source for tm_ch_insert(): up to cap bytes into buf; 0 at the end;
 * -1 with tm_last_error() to abort the request.
 */
typedef ssize_t (*tm_ch_fill_fn)(void *ctx, uint8_t *buf, size_t cap);
/* POST the statement with a streamed body (chunked); -1 with the server's text. */
TM_HIDDEN int tm_ch_insert(struct tm_ch *ch, const char *sql, tm_ch_fill_fn fill, void *ctx);
/* Run a query whose answer is one integer. */
TM_HIDDEN int tm_ch_query_u64(struct tm_ch *ch, const char *sql, uint64_t *out);
/* Does a named query read this table (queries.c)? */
TM_HIDDEN bool tm_fleet_query_reads(const char *table);
/* CREATE DATABASE IF NOT EXISTS of ch's database. */
TM_HIDDEN int tm_ch_create_db(struct tm_ch *ch);
/* The database name of ch. */
TM_HIDDEN const char *tm_ch_db(const struct tm_ch *ch);

#endif /* TM_FLEET_INTERNAL_H */
