// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-query.c - the statements of a query, one after the other, their rows
 * printed as aligned columns (widths from the first SQL_WIDTH_ROWS rows),
 * CSV, TSV or JSON lines; SQLite's message with the line and column of the
 * error in the query.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/json-str.h"
#include "sql-internal.h"
#include "tm-sql.h"

#define SQL_WIDTH_ROWS	1000	/* rows held to find the columns' widths */
#define SQL_MAX_WIDTH	60	/* wider cells make their column no wider */

int tm_sql_query_fail(struct tm_sql *s, const char *sql, const char *stmt, int off)
{
	const char *at = stmt + (off > 0 ? off : 0), *p;
	int line = 1, col = 1;

	for (p = sql; p < at && *p; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	return tm_failx(EINVAL, "query:%d:%d: %s", line, col, sqlite3_errmsg(s->db));
}

/* ---- columns ---- */

struct grid {
	int	ncols;
	int	*width;
	bool	*right;		/* numbers: right-aligned */
	char	**cells;	/* held rows, ncols each; NULL: SQL NULL */
	int	nrows;
};

static int cell_width(const char *c)
{
	int w = 0;

	for (; c && *c; c++)
		if ((*c & 0xc0) != 0x80)	/* UTF-8 continuation bytes take no column */
			w++;
	return w;
}

static void put_cell(FILE *f, const char *c, int width, bool right, bool last)
{
	int pad = width - cell_width(c);

	if (right)
		fprintf(f, "%*s%s", pad > 0 ? pad : 0, "", c ?: "");
	else if (last)
		fputs(c ?: "", f);
	else
		fprintf(f, "%s%*s", c ?: "", pad > 0 ? pad : 0, "");
	fputs(last ? "\n" : "  ", f);
}

static void grid_header(const struct grid *g, sqlite3_stmt *st, FILE *f)
{
	int i, j;

	for (i = 0; i < g->ncols; i++)
		put_cell(f, sqlite3_column_name(st, i), g->width[i], g->right[i], i == g->ncols - 1);
	for (i = 0; i < g->ncols; i++) {
		for (j = 0; j < g->width[i]; j++)
			fputc('-', f);
		fputs(i == g->ncols - 1 ? "\n" : "  ", f);
	}
}

static void grid_row(const struct grid *g, char **cells, FILE *f)
{
	int i;

	for (i = 0; i < g->ncols; i++)
		put_cell(f, cells[i], g->width[i], g->right[i], i == g->ncols - 1);
}

static char *cell_of(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? strdup((const char *)t) : NULL;
}

static void grid_free(struct grid *g)
{
	int i;

	for (i = 0; g->cells && i < g->nrows * g->ncols; i++)
		free(g->cells[i]);
	free(g->cells);
	free(g->width);
	free(g->right);
}

/* Hold a row of st, widening the columns. */
static int grid_hold(struct grid *g, sqlite3_stmt *st)
{
	char **row = g->cells + (size_t)g->nrows * (size_t)g->ncols;
	int i, w, type;

	for (i = 0; i < g->ncols; i++) {
		type = sqlite3_column_type(st, i);
		row[i] = type == SQLITE_NULL ? NULL : cell_of(st, i);
		if (type != SQLITE_NULL && !row[i])
			return tm_fail(ENOMEM, "query");
		if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
			g->right[i] = true;
		w = cell_width(row[i]);
		if (w > g->width[i] && w <= SQL_MAX_WIDTH)
			g->width[i] = w;
	}
	g->nrows++;
	return 0;
}

static int print_columns(struct tm_sql *s, sqlite3_stmt *st, FILE *f)
{
	struct grid g = { .ncols = sqlite3_column_count(st) };
	int i, rc = SQLITE_ROW, r = 0;
	bool shown = false;
	char **row;

	g.width = calloc((size_t)g.ncols, sizeof(*g.width));
	g.right = calloc((size_t)g.ncols, sizeof(*g.right));
	g.cells = calloc((size_t)g.ncols * SQL_WIDTH_ROWS, sizeof(*g.cells));
	row = calloc((size_t)g.ncols, sizeof(*row));
	if (!g.width || !g.right || !g.cells || !row) {
		r = tm_fail(ENOMEM, "query");
		goto out;
	}
	for (i = 0; i < g.ncols; i++)
		g.width[i] = cell_width(sqlite3_column_name(st, i));
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (g.nrows < SQL_WIDTH_ROWS) {
			r = grid_hold(&g, st);
			continue;
		}
		if (!shown) {
			grid_header(&g, st, f);
			for (i = 0; i < g.nrows; i++)
				grid_row(&g, g.cells + (size_t)i * (size_t)g.ncols, f);
			shown = true;
		}
		for (i = 0; i < g.ncols; i++)
			row[i] = (char *)sqlite3_column_text(st, i);
		grid_row(&g, row, f);
	}
	if (!r && rc != SQLITE_DONE)
		r = -1;
	if (!r && !shown) {
		grid_header(&g, st, f);
		for (i = 0; i < g.nrows; i++)
			grid_row(&g, g.cells + (size_t)i * (size_t)g.ncols, f);
	}
out:
	(void)s;
	free(row);
	grid_free(&g);
	return r;
}

/* ---- CSV, TSV, JSON lines ---- */

static void put_csv(FILE *f, const char *c)
{
	if (!c || !strpbrk(c, ",\"\r\n")) {
		fputs(c ?: "", f);
		return;
	}
	fputc('"', f);
	for (; *c; c++) {
		if (*c == '"')
			fputc('"', f);
		fputc(*c, f);
	}
	fputc('"', f);
}

static void put_tsv(FILE *f, const char *c)
{
	for (; c && *c; c++) {
		if (*c == '\t')
			fputs("\\t", f);
		else if (*c == '\n')
			fputs("\\n", f);
		else if (*c == '\r')
			fputs("\\r", f);
		else if (*c == '\\')
			fputs("\\\\", f);
		else
			fputc(*c, f);
	}
}

static int put_json_str(FILE *f, const char *c, size_t n)
{
	char *o = malloc(TM_JSON_STR_MAX(n)), *end;

	if (!o)
		return tm_fail(ENOMEM, "query");
	end = tm_json_put_str(o, c, n);
	fwrite(o, 1, (size_t)(end - o), f);
	free(o);
	return 0;
}

static int put_json_row(sqlite3_stmt *st, FILE *f)
{
	int i, n = sqlite3_column_count(st), type;
	const char *name;

	fputc('{', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		name = sqlite3_column_name(st, i);
		if (put_json_str(f, name, strlen(name)))
			return -1;
		fputc(':', f);
		type = sqlite3_column_type(st, i);
		if (type == SQLITE_NULL)
			fputs("null", f);
		else if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
			fputs((const char *)sqlite3_column_text(st, i), f);
		else if (put_json_str(f, (const char *)sqlite3_column_text(st, i),
				      (size_t)sqlite3_column_bytes(st, i)))
			return -1;
	}
	fputs("}\n", f);
	return 0;
}

static void put_sep_row(sqlite3_stmt *st, FILE *f, bool csv, bool header)
{
	int i, n = sqlite3_column_count(st);
	const char *c;

	for (i = 0; i < n; i++) {
		if (i)
			fputc(csv ? ',' : '\t', f);
		c = header ? sqlite3_column_name(st, i) : (const char *)sqlite3_column_text(st, i);
		if (csv)
			put_csv(f, c);
		else
			put_tsv(f, c);
	}
	fputc('\n', f);
}

static int print_rows(struct tm_sql *s, sqlite3_stmt *st, enum tm_sql_format fmt, FILE *f)
{
	int rc;

	if (fmt == TM_SQL_COLUMNS)
		return print_columns(s, st, f);
	if (fmt != TM_SQL_JSON)
		put_sep_row(st, f, fmt == TM_SQL_CSV, true);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (fmt == TM_SQL_JSON) {
			if (put_json_row(st, f))
				return -1;
		} else {
			put_sep_row(st, f, fmt == TM_SQL_CSV, false);
		}
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

int tm_sql_query(struct tm_sql *s, const char *sql, enum tm_sql_format fmt, FILE *f)
{
	const char *p = sql, *tail;
	sqlite3_stmt *st;
	int r, rc;

	while (p && *p) {
		st = NULL;
		if (sqlite3_prepare_v2(s->db, p, -1, &st, &tail) != SQLITE_OK)
			return tm_sql_query_fail(s, sql, p, sqlite3_error_offset(s->db));
		if (!st) {
			p = tail;
			continue;
		}
		if (sqlite3_column_count(st)) {
			r = print_rows(s, st, fmt, f);
		} else {
			rc = sqlite3_step(st);
			r = rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
		}
		if (r && sqlite3_errcode(s->db) != SQLITE_OK && sqlite3_errcode(s->db) != SQLITE_DONE &&
		    sqlite3_errcode(s->db) != SQLITE_ROW)
			tm_sql_query_fail(s, sql, p, -1);
		sqlite3_finalize(st);
		if (r)
			return -1;
		p = tail;
	}
	if (fflush(f) || ferror(f))
		return tm_fail(errno ?: EIO, "write output");
	return 0;
}
