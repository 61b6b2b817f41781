// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_fleet.c - lib/fleet without a server: Native bytes of SQLite rows,
 * the schema read from a database, the DDL, trace ids, a refused connection.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet/fleet-internal.h"
#include "util/tm-error.h"
#include "tm_test.h"

static sqlite3 *mem_db(const char *sql)
{
	sqlite3 *db = NULL;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

TM_TEST(fleet_rowbinary_strings)
{
	struct tm_buf b = { 0 };
	char big[300];

	memset(big, 'x', sizeof(big));
	tm_rb_put_string(&b, "", 0);
	tm_rb_put_string(&b, "ab", 2);
	tm_rb_put_string(&b, big, 127);
	TM_REQUIRE(!b.err && b.len == 1 + 3 + 128);
	TM_CHECK_INT(b.data[0], 0);
	TM_CHECK_INT(b.data[1], 2);
	TM_CHECK(!memcmp(b.data + 2, "ab", 2));
	TM_CHECK_INT(b.data[4], 127);
	b.len = 0;
	/* 300 = 0b10_0101100: LEB128 0xac 0x02 */
	tm_rb_put_string(&b, big, 300);
	TM_REQUIRE(b.len == 302);
	TM_CHECK_INT(b.data[0], 0xac);
	TM_CHECK_INT(b.data[1], 0x02);
	b.len = 0;
	tm_rb_put_string(&b, big, 128);
	TM_CHECK_INT(b.data[0], 0x80);
	TM_CHECK_INT(b.data[1], 0x01);
	tm_buf_free(&b);
}

TM_TEST(fleet_rowbinary_numbers)
{
	static const uint8_t minus2[8] = { 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t one_half[8] = { 0, 0, 0, 0, 0, 0, 0xe0, 0x3f };
	struct tm_buf b = { 0 };

	tm_rb_put_int64(&b, -2);
	tm_rb_put_float64(&b, 1.5 / 3);
	TM_REQUIRE(b.len == 16);
	TM_CHECK(!memcmp(b.data, minus2, 8));
	TM_CHECK(!memcmp(b.data + 8, one_half, 8));
	tm_buf_free(&b);
}

TM_TEST(fleet_type_of_decl)
{
	TM_CHECK_INT(tm_ch_type_of_decl("INTEGER"), TM_CH_INT64);
	TM_CHECK_INT(tm_ch_type_of_decl("bigint"), TM_CH_INT64);
	TM_CHECK_INT(tm_ch_type_of_decl("TEXT"), TM_CH_STRING);
	TM_CHECK_INT(tm_ch_type_of_decl("VARCHAR(16)"), TM_CH_STRING);
	TM_CHECK_INT(tm_ch_type_of_decl("JSON"), TM_CH_STRING);
	TM_CHECK_INT(tm_ch_type_of_decl("BLOB"), TM_CH_STRING);
	TM_CHECK_INT(tm_ch_type_of_decl(""), TM_CH_STRING);
	TM_CHECK_INT(tm_ch_type_of_decl("REAL"), TM_CH_FLOAT64);
	TM_CHECK_INT(tm_ch_type_of_decl("DOUBLE PRECISION"), TM_CH_FLOAT64);
	TM_CHECK_STR(tm_ch_type_name(TM_CH_INT64, true), "Nullable(Int64)");
	TM_CHECK_STR(tm_ch_type_name(TM_CH_STRING, false), "String");
}

TM_TEST(fleet_schema_and_rows)
{
	sqlite3 *db = mem_db(
		"CREATE TABLE ev (ts INTEGER NOT NULL, cpu INTEGER, machine INTEGER, "
		"comm TEXT, f REAL);"
		"INSERT INTO ev VALUES (7, NULL, 1, 'ab', 0.5);"
		"CREATE VIEW v AS SELECT ts FROM ev;");
	struct tm_fleet_schema *s;
	struct tm_fleet_table *tb;
	struct tm_native nb;
	struct tm_buf b = { 0 };
	sqlite3_stmt *st = NULL;
	/* one Native block: 6 columns, 1 row; SQLite's machine column is replaced */
	static const uint8_t want[] = {
		6, 1,
		5, 't', 'r', 'a', 'c', 'e', 6, 'S', 't', 'r', 'i', 'n', 'g', 1, 'T',
		7, 'm', 'a', 'c', 'h', 'i', 'n', 'e', 6, 'S', 't', 'r', 'i', 'n', 'g', 2, 'm', '1',
		2, 't', 's', 5, 'I', 'n', 't', '6', '4', 7, 0, 0, 0, 0, 0, 0, 0,
		/* NULL: the null map's 1, then a zero in its place */
		3, 'c', 'p', 'u', 15, 'N', 'u', 'l', 'l', 'a', 'b', 'l', 'e', '(', 'I', 'n', 't',
		'6', '4', ')', 1, 0, 0, 0, 0, 0, 0, 0, 0,
		4, 'c', 'o', 'm', 'm', 16, 'N', 'u', 'l', 'l', 'a', 'b', 'l', 'e', '(', 'S', 't',
		'r', 'i', 'n', 'g', ')', 0, 2, 'a', 'b',
		1, 'f', 17, 'N', 'u', 'l', 'l', 'a', 'b', 'l', 'e', '(', 'F', 'l', 'o', 'a', 't',
		'6', '4', ')', 0, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f,
	};

	TM_REQUIRE(db);
	s = tm_fleet_schema_read(db);
	TM_REQUIRE(s);
	/* tables only: the view is not loaded */
	TM_REQUIRE(s->ntables == 1);
	tb = &s->tables[0];
	TM_CHECK_STR(tb->name, "ev");
	TM_CHECK_INT(tb->ncols, 5);
	TM_CHECK_INT(tb->machine_col, 2);
	TM_CHECK_INT(tb->ts_col, 0);
	TM_CHECK(!tb->cols[0].nullable);
	TM_CHECK(tb->cols[1].nullable);
	TM_CHECK_INT(tb->cols[4].type, TM_CH_FLOAT64);
	TM_REQUIRE(sqlite3_prepare_v2(db, "SELECT * FROM ev", -1, &st, NULL) == SQLITE_OK);
	TM_REQUIRE(sqlite3_step(st) == SQLITE_ROW);
	tm_native_init(&nb, tb);
	tm_native_add(&nb, st, "m1");
	TM_CHECK(!tm_native_flush(&nb, &b, "T"));
	TM_CHECK_INT(nb.rows, 0);
	tm_native_free(&nb);
	TM_CHECK_INT(b.len, sizeof(want));
	TM_CHECK(b.len == sizeof(want) && !memcmp(b.data, want, sizeof(want)));
	tm_buf_free(&b);
	sqlite3_finalize(st);

	tm_fleet_ddl_table(&b, tb, "db", "c");
	tm_buf_put(&b, "", 1);
	TM_CHECK_STR((char *)b.data,
		"CREATE TABLE IF NOT EXISTS `db`.`ev_local` (`trace` String, `machine` String, "
		"`ts` Int64, `cpu` Nullable(Int64), `comm` Nullable(String), "
		"`f` Nullable(Float64)) ENGINE = MergeTree() PARTITION BY trace "
		"ORDER BY (trace, ts);\n"
		"CREATE TABLE IF NOT EXISTS `db`.`ev` AS `db`.`ev_local` ENGINE = "
		"Distributed('c', 'db', 'ev_local', cityHash64(trace));\n");
	tm_buf_free(&b);
	tm_fleet_schema_free(s);
	sqlite3_close(db);
}

/* The column bytes of block b after its two counts and the header of column name. */
static const uint8_t *native_column(const struct tm_buf *b, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i + n + 1 < b->len; i++)
		if (b->data[i] == n && !memcmp(b->data + i + 1, name, n))
			return b->data + i + 1 + n + 1 + b->data[i + 1 + n];
	return NULL;
}

TM_TEST(fleet_native_values)
{
	/* what a column holds beyond its declared type, and strings past one length byte */
	sqlite3 *db = mem_db(
		"CREATE TABLE ev (s TEXT, n INTEGER NOT NULL, f REAL NOT NULL);"
		"INSERT INTO ev VALUES (printf('%.300c', 'x'), '12', 3);"
		"INSERT INTO ev VALUES (x'00ff41', -5, -0.25);"
		"INSERT INTO ev VALUES (42, 9007199254740993, 2.5);"
		"INSERT INTO ev VALUES (NULL, 0, 0);");
	struct tm_fleet_schema *s;
	struct tm_native nb;
	struct tm_buf b = { 0 }, want = { 0 };
	sqlite3_stmt *st = NULL;
	const uint8_t *col;
	char big[300];

	TM_REQUIRE(db);
	s = tm_fleet_schema_read(db);
	TM_REQUIRE(s && s->ntables == 1);
	TM_REQUIRE(sqlite3_prepare_v2(db, "SELECT * FROM ev", -1, &st, NULL) == SQLITE_OK);
	tm_native_init(&nb, &s->tables[0]);
	while (sqlite3_step(st) == SQLITE_ROW)
		tm_native_add(&nb, st, "m");
	TM_CHECK_INT(nb.rows, 4);
	TM_REQUIRE(!tm_native_flush(&nb, &b, "T"));
	tm_native_free(&nb);
	sqlite3_finalize(st);

	/* s: the null map, then 300 x's, the blob's bytes, an integer's text, nothing */
	memset(big, 'x', sizeof(big));
	tm_buf_put(&want, "\0\0\0\1", 4);
	tm_rb_put_string(&want, big, 300);
	tm_rb_put_string(&want, "\0\xff" "A", 3);
	tm_rb_put_string(&want, "42", 2);
	tm_rb_put_string(&want, "", 0);
	col = native_column(&b, "s");
	TM_REQUIRE(col && col + want.len <= b.data + b.len);
	TM_CHECK(!memcmp(col, want.data, want.len));
	/* n: a text of digits stored in an INTEGER column as its number */
	want.len = 0;
	for (int i = 0; i < 4; i++)
		tm_rb_put_int64(&want, (int64_t[]){ 12, -5, 9007199254740993LL, 0 }[i]);
	col = native_column(&b, "n");
	TM_REQUIRE(col && col + want.len <= b.data + b.len);
	TM_CHECK(!memcmp(col, want.data, want.len));
	/* f: an integer stored in a REAL column as a double; the last column ends the block */
	want.len = 0;
	for (int i = 0; i < 4; i++)
		tm_rb_put_float64(&want, (double[]){ 3, -0.25, 2.5, 0 }[i]);
	col = native_column(&b, "f");
	TM_REQUIRE(col && col + want.len == b.data + b.len);
	TM_CHECK(!memcmp(col, want.data, want.len));
	tm_buf_free(&want);
	tm_buf_free(&b);
	tm_fleet_schema_free(s);
	sqlite3_close(db);
}

TM_TEST(fleet_schema_refused)
{
	sqlite3 *db = mem_db("CREATE TABLE ev (ts INTEGER, trace TEXT); INSERT INTO ev VALUES (1, 2);");

	TM_REQUIRE(db);
	TM_CHECK(!tm_fleet_schema_read(db));
	TM_CHECK(strstr(tm_last_error(), "trace"));
	sqlite3_close(db);
	db = mem_db("CREATE TABLE x_local (ts INTEGER); INSERT INTO x_local VALUES (1);");
	TM_REQUIRE(db);
	TM_CHECK(!tm_fleet_schema_read(db));
	sqlite3_close(db);
	db = mem_db("CREATE VIEW v AS SELECT 1; CREATE TABLE empty (ts INTEGER);");
	TM_REQUIRE(db);
	TM_CHECK(!tm_fleet_schema_read(db));
	TM_CHECK(strstr(tm_last_error(), "no table with rows"));
	sqlite3_close(db);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

TM_TEST(fleet_trace_id)
{
	char a[] = "/tmp/tm-fleet-idXXXXXX", b[] = "/tmp/tm-fleet-idXXXXXX";
	char ida[17], idb[17], idab[17], idba[17];
	const char *pa[1] = { a }, *pab[2] = { a, b }, *pba[2] = { b, a };
	int fa = mkstemp(a), fb = mkstemp(b);

	TM_REQUIRE(fa >= 0 && fb >= 0);
	close(fa);
	close(fb);
	TM_REQUIRE(!write_file(a, "the first trace, 32 bytes or more") &&
		   !write_file(b, "the second trace"));
	TM_CHECK(!tm_fleet_trace_id(pa, 1, ida));
	TM_CHECK_INT(strlen(ida), 16);
	TM_CHECK(!tm_fleet_trace_id(pa, 1, idb));
	TM_CHECK_STR(ida, idb);
	TM_CHECK(!tm_fleet_trace_id(pab, 2, idab));
	TM_CHECK(!tm_fleet_trace_id(pba, 2, idba));
	TM_CHECK(strcmp(ida, idab));
	TM_CHECK(strcmp(idab, idba));
	TM_REQUIRE(!write_file(a, "the first trace, 32 bytes or morf"));
	TM_CHECK(!tm_fleet_trace_id(pa, 1, idb));
	TM_CHECK(strcmp(ida, idb));
	unlink(a);
	TM_CHECK(tm_fleet_trace_id(pa, 1, ida) < 0);
	TM_CHECK(strstr(tm_last_error(), a));
	unlink(b);
}

TM_TEST(fleet_url_and_refused_connection)
{
	struct tm_ch *ch;

	TM_CHECK(!tm_ch_open("ftp://x/y"));
	TM_CHECK(!tm_ch_open("http://h:1/bad-db"));
	ch = tm_ch_open("clickhouse://127.0.0.1");
	TM_REQUIRE(ch);
	TM_CHECK_STR(tm_ch_name(ch), "127.0.0.1:8123/default");
	tm_ch_close(ch);
	/* port 1 on loopback: nothing listens */
	ch = tm_ch_open("http://127.0.0.1:1/db");
	TM_REQUIRE(ch);
	TM_CHECK(tm_ch_run(ch, "SELECT 1", NULL) < 0);
	TM_CHECK(strstr(tm_last_error(), "127.0.0.1:1/db: SELECT 1: "));
	TM_CHECK(!strchr(tm_last_error(), '\n'));
	tm_ch_close(ch);
}
