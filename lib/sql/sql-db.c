// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-db.c - the SQLite database behind `tracemap sql`: opened as a private
 * temporary or as a hidden temporary beside -o's path, renamed over it
 * once complete; statements, rows and tables for the other sql-*.c files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sql-internal.h"
#include "tm-sql.h"

/*
 * The page cache SQLite may keep (KiB): past it pages go to the database
 * file (the private temporary's is unlinked), which bounds memory on any
 * trace size.
 */
#define SQL_CACHE_KIB	65536

int tm_sql_fail(struct tm_sql *s, const char *what)
{
	int code = s->db ? sqlite3_extended_errcode(s->db) : SQLITE_NOMEM;
	int primary = code & 0xff;

	if (primary == SQLITE_FULL)
		return tm_failx(ENOSPC, "%s: %s: disk full", what, s->path ?: "temporary database");
	if (primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN)
		return tm_failx(EIO, "%s: %s: %s", what, s->path ?: "temporary database",
				sqlite3_errmsg(s->db));
	return tm_failx(EINVAL, "%s: %s", what, s->db ? sqlite3_errmsg(s->db) : "out of memory");
}

int tm_sql_exec(struct tm_sql *s, const char *sql)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return tm_sql_fail(s, "sql");
	return 0;
}

sqlite3_stmt *tm_sql_prepare(struct tm_sql *s, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
		tm_sql_fail(s, "sql");
		return NULL;
	}
	return st;
}

int tm_sql_row(struct tm_sql *s, sqlite3_stmt *st, int machine, const char *types, ...)
{
	va_list ap;
	int i = 1, rc;
	int64_t v;
	const char *t;

	va_start(ap, types);
	for (; *types; types++, i++) {
		switch (*types) {
		case 'i':
			sqlite3_bind_int64(st, i, va_arg(ap, int64_t));
			break;
		case 'I':
			v = va_arg(ap, int64_t);
			if (v == SQL_NULL)
				sqlite3_bind_null(st, i);
			else
				sqlite3_bind_int64(st, i, v);
			break;
		case 't':
			t = va_arg(ap, const char *);
			if (t)
				sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(st, i);
			break;
		default:
			sqlite3_bind_null(st, i);
			break;
		}
	}
	va_end(ap);
	if (s->multi)
		sqlite3_bind_int64(st, i, machine);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : tm_sql_fail(s, "insert");
}

sqlite3_stmt *tm_sql_insert(struct tm_sql *s, const char *name, int n)
{
	struct sql_buf b = { 0 };
	sqlite3_stmt *st = NULL;
	int i;

	n += s->multi;
	if (!tm_sql_buf_printf(&b, "INSERT INTO \"%s\" VALUES (?", name)) {
		for (i = 1; i < n && !tm_sql_buf_printf(&b, ",?"); i++)
			;
		if (i == n && !tm_sql_buf_printf(&b, ")"))
			st = tm_sql_prepare(s, b.s);
	}
	free(b.s);
	return st;
}

int tm_sql_buf_printf(struct sql_buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;
	char *p;

	for (;;) {
		room = b->cap - b->len;
		va_start(ap, fmt);
		n = b->s ? vsnprintf(b->s + b->len, room, fmt, ap) : -1;
		va_end(ap);
		if (n >= 0 && (size_t)n < room) {
			b->len += (size_t)n;
			return 0;
		}
		p = realloc(b->s, b->cap * 2 + (n > 0 ? (size_t)n : 0) + 256);
		if (!p)
			return tm_fail(ENOMEM, "sql");
		b->s = p;
		b->cap = b->cap * 2 + (n > 0 ? (size_t)n : 0) + 256;
	}
}

/* The hidden temporary of path: ".NAME.tmp-PID" beside it. */
static char *tmp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0;
	char *t = NULL;

	if (asprintf(&t, "%.*s.%s.tmp-%d", dir, path, path + dir, (int)getpid()) < 0)
		return NULL;
	return t;
}

static int db_pragmas(struct tm_sql *s)
{
	char sql[128];

	snprintf(sql, sizeof(sql),
		 "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
		 "PRAGMA cache_size=-%d;"
		 "PRAGMA locking_mode=EXCLUSIVE", SQL_CACHE_KIB);
	return tm_sql_exec(s, sql);
}

struct tm_sql *tm_sql_new(const char *path)
{
	struct tm_sql *s = calloc(1, sizeof(*s));
	const char *file = "";

	if (!s) {
		tm_fail(ENOMEM, "sql");
		return NULL;
	}
	if (path) {
		s->path = strdup(path);
		s->tmp = tmp_name(path);
		if (!s->path || !s->tmp) {
			tm_fail(ENOMEM, "sql");
			goto fail;
		}
		unlink(s->tmp);
		tm_cleanup_add(s->tmp);
		file = s->tmp;
	}
	if (sqlite3_open_v2(file, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		tm_sql_fail(s, "open");
		goto fail;
	}
	if (!db_pragmas(s))
		return s;
fail:
	tm_sql_close(s, false);
	return NULL;
}

static void tabs_free(struct tm_sql *s)
{
	int i, c;

	for (i = 0; i < s->ntabs; i++) {
		for (c = 0; c < s->tabs[i].ncols; c++)
			free(s->tabs[i].cols[c]);
		free(s->tabs[i].cols);
		free(s->tabs[i].isnum);
		free(s->tabs[i].name);
	}
	free(s->tabs);
}

/* The finished temporary on disk before its rename makes it the database. */
static int sync_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = fsync(fd);
	close(fd);
	return r;
}

struct sqlite3 *tm_sql_db(struct tm_sql *s)
{
	return s->db;
}

int tm_sql_close(struct tm_sql *s, bool ok)
{
	sqlite3_stmt *st;
	int r = 0;

	if (!s)
		return 0;
	while (s->db && (st = sqlite3_next_stmt(s->db, NULL)))
		sqlite3_finalize(st);
	if (s->db && sqlite3_close(s->db) != SQLITE_OK && ok)
		r = tm_failx(EIO, "close %s: %s", s->path ?: "database", sqlite3_errmsg(s->db));
	if (s->tmp && ok && !r && sync_file(s->tmp))
		r = tm_fail(errno, "sync %s", s->tmp);
	if (s->tmp && ok && !r && rename(s->tmp, s->path))
		r = tm_fail(errno, "rename %s to %s", s->tmp, s->path);
	if (s->tmp && (!ok || r))
		unlink(s->tmp);
	if (s->tmp)
		tm_cleanup_remove(s->tmp);
	tabs_free(s);
	free(s->scratch.s);
	free(s->path);
	free(s->tmp);
	free(s);
	return r;
}
