// SPDX-License-Identifier: GPL-2.0-only
/*
 * schema.c - a SQLite trace database's tables as ClickHouse will hold them,
 * read from sqlite_master and PRAGMA table_info: names, types, nullability;
 * empty tables left out unless a named query reads them.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fleet-internal.h"

/*
 * Without the connection's mutex: one thread at a time uses it (the load's
 * reader thread only while the main thread waits on the request), and a
 * serialized connection's mutex, taken in every step and column read, was
 * half the loader's time.
 */
struct sqlite3 *tm_fleet_db_open(const char *path)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		tm_failx(rc == SQLITE_CANTOPEN ? ENOENT : EINVAL, "%s: %s", path,
			 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

void tm_fleet_db_close(struct sqlite3 *db)
{
	sqlite3_close(db);
}

enum tm_ch_type tm_ch_type_of_decl(const char *decl)
{
	/* https://sqlite.org/datatype3.html#determination_of_column_affinity */
	if (!decl || !*decl)
		return TM_CH_STRING;
	if (strcasestr(decl, "INT"))
		return TM_CH_INT64;
	if (strcasestr(decl, "CHAR") || strcasestr(decl, "CLOB") || strcasestr(decl, "TEXT") ||
	    strcasestr(decl, "BLOB") || strcasestr(decl, "JSON"))
		return TM_CH_STRING;
	if (strcasestr(decl, "REAL") || strcasestr(decl, "FLOA") || strcasestr(decl, "DOUB"))
		return TM_CH_FLOAT64;
	/* NUMERIC affinity: a number that may have a fraction */
	return TM_CH_FLOAT64;
}

/* No control byte nor ';': the DDL's statements are split at ";\n". */
static bool schema_ident_ok(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == ';' || *p == 0x7f)
			return false;
	return *name != '\0';
}

static int schema_sqlite_fail(sqlite3 *db, const char *what)
{
	return tm_failx(EINVAL, "%s: %s", what, sqlite3_errmsg(db));
}

/* The columns of table t->name (a table or a view). */
static int schema_columns(sqlite3 *db, struct tm_fleet_table *t)
{
	sqlite3_stmt *st = NULL;
	char *sql = sqlite3_mprintf("PRAGMA table_info(\"%w\")", t->name);
	int rc, cap = 0;

	if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(sql);
		return schema_sqlite_fail(db, t->name);
	}
	sqlite3_free(sql);
	t->ts_col = -1;
	t->machine_col = -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *decl = (const char *)sqlite3_column_text(st, 2);
		struct tm_fleet_col *c;

		if (t->ncols == cap) {
			void *p = realloc(t->cols, (cap = cap ? 2 * cap : 16) * sizeof(*c));

			if (!p)
				break;
			t->cols = p;
		}
		c = &t->cols[t->ncols];
		c->name = strdup(name ? name : "");
		c->type = tm_ch_type_of_decl(decl);
		c->nullable = !sqlite3_column_int(st, 3) && !sqlite3_column_int(st, 5);
		if (!c->name)
			break;
		if (!strcmp(c->name, "trace") || !schema_ident_ok(c->name)) {
			sqlite3_finalize(st);
			tm_failx(EINVAL, "%s: column '%s': %s", t->name, c->name,
				 *c->name ? "a name the loader reserves or cannot quote"
					  : "no name");
			free(c->name);
			return -1;
		}
		if (!strcmp(c->name, "machine"))
			t->machine_col = t->ncols;
		if (!strcmp(c->name, "ts") && c->type == TM_CH_INT64)
			t->ts_col = t->ncols;
		t->ncols++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW ? tm_fail(ENOMEM, "%s", t->name)
					: schema_sqlite_fail(db, t->name);
	if (!t->ncols)
		return tm_failx(EINVAL, "%s: no columns", t->name);
	return 0;
}

/* A table name ClickHouse takes as is and that never ends like our local tables. */
static bool schema_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!schema_ident_ok(name) || n > 200 || !strcmp(name, TM_FLEET_LOADS))
		return false;
	if (n > 6 && !strcmp(name + n - 6, "_local"))
		return false;
	return true;
}

/*
 * Is a table worth a ClickHouse table: rows, or one the named queries read
 * (it must exist on every shard for a Distributed query)? lib/sql makes a
 * table of every event format the file knows, most of them empty.
 */
static int schema_wanted(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	char *sql;
	int rc;

	if (tm_fleet_query_reads(name))
		return 1;
	sql = sqlite3_mprintf("SELECT 1 FROM \"%w\" LIMIT 1", name);
	if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(sql);
		return schema_sqlite_fail(db, name);
	}
	sqlite3_free(sql);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return schema_sqlite_fail(db, name);
	return rc == SQLITE_ROW;
}

static int schema_add_table(sqlite3 *db, struct tm_fleet_schema *s, const char *name)
{
	struct tm_fleet_table *t;
	void *p;
	int wanted = schema_wanted(db, name);

	if (wanted <= 0)
		return wanted;
	if (!schema_name_ok(name))
		return tm_failx(EINVAL, "table %s: a name this loader reserves", name);
	p = realloc(s->tables, (s->ntables + 1) * sizeof(*s->tables));
	if (!p)
		return tm_fail(ENOMEM, "%s", name);
	s->tables = p;
	t = &s->tables[s->ntables++];
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	if (!t->name)
		return tm_fail(ENOMEM, "%s", name);
	return schema_columns(db, t);
}

struct tm_fleet_schema *tm_fleet_schema_read(struct sqlite3 *db)
{
	static const char list[] =
		"SELECT name FROM sqlite_master WHERE type = 'table' "
		"AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";
	struct tm_fleet_schema *s = calloc(1, sizeof(*s));
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_ERROR;

	if (!s)
		return tm_fail(ENOMEM, "schema"), NULL;
	if (sqlite3_prepare_v2(db, list, -1, &st, NULL) != SQLITE_OK) {
		schema_sqlite_fail(db, "the database's tables");
		goto fail;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (schema_add_table(db, s, (const char *)sqlite3_column_text(st, 0)) < 0)
			goto fail;
	if (rc != SQLITE_DONE) {
		schema_sqlite_fail(db, "the database's tables");
		goto fail;
	}
	sqlite3_finalize(st);
	if (!s->ntables) {
		tm_failx(EINVAL, "the database has no table with rows");
		tm_fleet_schema_free(s);
		return NULL;
	}
	return s;
fail:
	sqlite3_finalize(st);
	tm_fleet_schema_free(s);
	return NULL;
}

void tm_fleet_schema_free(struct tm_fleet_schema *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->ntables; i++) {
		for (int j = 0; j < s->tables[i].ncols; j++)
			free(s->tables[i].cols[j].name);
		free(s->tables[i].cols);
		free(s->tables[i].name);
	}
	free(s->tables);
	free(s);
}
