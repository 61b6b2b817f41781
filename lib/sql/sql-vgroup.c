// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-vgroup.c - the generic table's grouped scan. SQLite groups (GROUP BY,
 * DISTINCT) by sorting every row: n log n, spilling sorted runs to a file
 * past 64 MiB, 2.4x report's time on 11.7 M events. When a query groups
 * events by columns of few values (machine, cpu, system, name) and reads no
 * other column, the virtual table counts its rows per (machine, cpu, event
 * type) in its one pass over the files, then hands each counted row out as
 * often as it occurred, sorted as the plan's ORDER BY asks (more than the
 * grouping SQLite asks for: with an ORDER BY equal to its GROUP BY, SQLite
 * 3.40 takes grouped rows for sorted ones), and tells SQLite so
 * (orderByConsumed): the query's answer is the same, its sort of every row
 * is gone. Memory: one entry per distinct (machine, cpu, type).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sql-internal.h"

#define TM_VG_TERM_MASK	((1u << TM_VG_ORDER_BITS) - 1)

/*
 * The map's key of (machine, cpu, type): 22, 24 and 17 bits (type + 1, so
 * that -1 fits); -1 + message when one does not fit.
 */
static int row_key(int machine, int cpu, int type, int64_t *key)
{
	if (machine < 0 || machine >= 1 << 22 || cpu < 0 || cpu >= 1 << 24 || type < -1 ||
	    type >= (1 << 17) - 1)
		return tm_failx(ERANGE, "sql events: machine %d, cpu %d, event type %d out of "
				"range", machine, cpu, type);
	*key = (int64_t)machine << 41 | (int64_t)cpu << 17 | (int64_t)(type + 1);
	return 0;
}

static struct tm_vgroup_row *new_row(struct tm_vgroup *g, int64_t key, int machine, int cpu,
				     int type)
{
	struct tm_vgroup_row *rows, *r;
	size_t cap;

	if (g->n == g->cap) {
		cap = g->cap ? g->cap * 2 : 64;
		rows = realloc(g->rows, cap * sizeof(*rows));
		if (!rows) {
			tm_fail(ENOMEM, "sql events");
			return NULL;
		}
		g->rows = rows;
		g->cap = cap;
	}
	if (tm_sql_map_put(&g->index, key, (uint32_t)g->n))
		return NULL;
	r = &g->rows[g->n++];
	memset(r, 0, sizeof(*r));
	r->machine = machine;
	r->cpu = cpu;
	r->type = type;
	return r;
}

struct tm_vgroup_row *tm_vgroup_count(struct tm_vgroup *g, int machine, int cpu, int type,
				      bool *created)
{
	struct tm_vgroup_row *r = g->last;
	int64_t key = 0;
	uint32_t i;

	*created = false;
	/* records come in runs of one CPU and often one type */
	if (r && r->machine == machine && r->cpu == cpu && r->type == type) {
		r->count++;
		return r;
	}
	if (row_key(machine, cpu, type, &key))
		return NULL;
	if (tm_sql_map_get(&g->index, key, &i)) {
		r = &g->rows[i];
	} else {
		if (!(r = new_row(g, key, machine, cpu, type)))
			return NULL;
		*created = true;
	}
	r->count++;
	g->last = r;
	return r;
}

/* NULL first, then by bytes: SQLite's BINARY order, the columns' collation. */
static int text_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int int_cmp(int a, int b)
{
	return (a > b) - (a < b);
}

static int term_cmp(const struct tm_vgroup_row *a, const struct tm_vgroup_row *b,
		    unsigned int col)
{
	switch (col) {
	case TM_VG_MACHINE: return int_cmp(a->machine, b->machine);
	case TM_VG_CPU: return int_cmp(a->cpu, b->cpu);
	case TM_VG_SYSTEM: return text_cmp(a->system, b->system);
	default: return text_cmp(a->name, b->name);
	}
}

/* By the order's terms (TM_VG_ORDER_BITS each, the first lowest), as SQLite would. */
static int row_cmp(const void *pa, const void *pb, void *ctx)
{
	unsigned int order = *(const unsigned int *)ctx, term;
	int d;

	for (; (term = order & TM_VG_TERM_MASK); order >>= TM_VG_ORDER_BITS) {
		d = term_cmp(pa, pb, term & TM_VG_COLUMN);
		if (d)
			return term & TM_VG_DESC ? -d : d;
	}
	return 0;
}

bool tm_vgroup_start(struct tm_vgroup *g, unsigned int order)
{
	/* the map indexes rows by position: sorted, it is no use */
	tm_sql_map_free(&g->index);
	g->last = NULL;
	if (g->n)
		qsort_r(g->rows, g->n, sizeof(*g->rows), row_cmp, &order);
	g->at = 0;
	g->left = g->n ? g->rows[0].count : 0;
	return g->n > 0;
}

bool tm_vgroup_next(struct tm_vgroup *g)
{
	if (g->left > 1) {
		g->left--;
		return true;
	}
	if (++g->at >= g->n)
		return false;
	g->left = g->rows[g->at].count;
	return true;
}

const struct tm_vgroup_row *tm_vgroup_row(const struct tm_vgroup *g)
{
	return g->at < g->n ? &g->rows[g->at] : NULL;
}

void tm_vgroup_free(struct tm_vgroup *g)
{
	free(g->rows);
	tm_sql_map_free(&g->index);
	memset(g, 0, sizeof(*g));
}

unsigned int tm_vgroup_plan(sqlite3_index_info *info, const unsigned int *col, int ncol)
{
	sqlite3_uint64 used = info->colUsed;
	unsigned int order = 0;
	int i, c;

	/* a grouping (GROUP BY, DISTINCT) or an order, of few terms */
	if (info->nOrderBy < 1 || info->nOrderBy > TM_VG_TERMS)
		return 0;
	for (c = 0; c < 64; c++)
		if (used & ((sqlite3_uint64)1 << c) && (c >= ncol || !col[c]))
			return 0;
	for (i = 0; i < info->nOrderBy; i++) {
		c = info->aOrderBy[i].iColumn;
		if (c < 0 || c >= ncol || !col[c])
			return 0;
		order |= (col[c] | (info->aOrderBy[i].desc ? TM_VG_DESC : 0))
			 << (i * TM_VG_ORDER_BITS);
	}
	return order;
}

/* Does sql name a rowid (rowid, oid, _rowid_), in any case, as a word? */
bool tm_vgroup_rowid_named(const char *sql)
{
	static const char *const words[] = { "rowid", "oid", "_rowid_" };
	const char *p;
	size_t i, n;

	for (p = sql; p && *p; p++) {
		if (p > sql && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
			n = strlen(words[i]);
			if (!strncasecmp(p, words[i], n) &&
			    !isalnum((unsigned char)p[n]) && p[n] != '_')
				return true;
		}
	}
	return false;
}
