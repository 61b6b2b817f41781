// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-vevents.c - the generic table of every event as a virtual table (a
 * one-off query's): each scan is one pass over the files through
 * tm_evrun_next(), a row per record made when SQLite asks for it, its
 * fields' JSON only when the query reads that column. No row is inserted,
 * so a query of every event costs one read of the files plus its own work
 * (docs/PERFORMANCE.md, "sql"). Used only when every statement reads it
 * once as its plan's first loop (tm_sql_vevents_once()); otherwise, and
 * for -o, events is a plain table filled by the load. A query that only
 * groups it by a few columns gets its rows counted and grouped instead
 * (sql-vgroup.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit-internal.h"
#include "emit/tm-evout.h"
#include "events/field.h"
#include "events/tm-events.h"
#include "dat/dat-internal.h"
#include "dat/tm-dat.h"
#include "print/print-internal.h"
#include "sql-internal.h"
#include "tm-sql.h"
#include "util/tm-error.h"

#define VEV_MODULE	"tracemap_events"
#define VEV_MARK	"tm_events_scan"	/* the plan's idxStr: a scan of this table */
#define VEV_PLAN_ROWS	512			/* a bigger plan is not checked: plain table */

/* One machine's files and decoding. */
struct vev_machine {
	struct tm_dat		**files;
	int			nfiles;
	struct tep_handle	*tep;
	struct tm_common	common;
	struct tep_event	**byid;		/* event by id, NULL: none */
	struct tm_jsonfmt	**json;		/* by id, made on first use */
	int			nids;
	bool			warned;		/* its first scan is done: no more warnings */
	uint64_t		skipped;	/* records that scan skipped (it warned) */
};

struct sql_vevents {
	struct tm_sql		*s;
	struct vev_machine	*m;
	struct tm_events	**ev;		/* [machine], owned */
	int			machines;
	double			rows;		/* the planner's estimate */
	tm_warn_fn		warn;		/* NULL: every scan silent */
	void			*warn_ctx;
	bool			no_grouping;	/* a query names a rowid: plain scans */
};

struct vev_table {
	sqlite3_vtab		base;
	struct sql_vevents	*v;
};

struct vev_cursor {
	sqlite3_vtab_cursor	base;
	struct sql_vevents	*v;
	int			m;		/* the machine being read */
	struct tm_evrun		*run;
	struct tm_event_rec	rec;
	int			type;
	sqlite3_int64		rowid;
	bool			eof;
	struct tm_buf		json;
	unsigned int		grouped;	/* a grouped scan's order (TM_VG_*), else 0 */
	struct tm_vgroup	group;
};

/* Columns after the six of every row (sql-schema.c's events). */
enum { VEV_TS, VEV_CPU, VEV_TID, VEV_SYSTEM, VEV_NAME, VEV_FIELDS, VEV_MORE };

static int vev_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		       sqlite3_vtab **out, char **err)
{
	struct sql_vevents *v = aux;
	struct vev_table *t;
	struct sql_buf b = { 0 };
	int rc;

	(void)argc, (void)argv;
	if (tm_sql_table_sql(v->s, "events", "x", &b)) {
		free(b.s);
		*err = sqlite3_mprintf("%s", tm_last_error());
		return SQLITE_ERROR;
	}
	rc = sqlite3_declare_vtab(db, b.s);
	free(b.s);
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->v = v;
	*out = &t->base;
	return SQLITE_OK;
}

static int vev_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/*
 * Every plan is a full pass (constraints are SQLite's to check), priced
 * high so that the planner reads the files in its outermost loop; its
 * idxNum the order of a grouped scan (TM_VG_*), else 0.
 */
static int vev_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	struct sql_vevents *v = ((struct vev_table *)vt)->v;
	unsigned int col[VEV_MORE + 1] = {
		[VEV_CPU] = TM_VG_CPU, [VEV_SYSTEM] = TM_VG_SYSTEM, [VEV_NAME] = TM_VG_NAME,
		[VEV_MORE] = v->s->multi ? TM_VG_MACHINE : 0,
	};

	info->idxNum = v->no_grouping ? 0 : (int)tm_vgroup_plan(info, col, VEV_MORE + 1);
	info->orderByConsumed = info->idxNum != 0;
	info->idxStr = (char *)VEV_MARK;
	info->needToFreeIdxStr = 0;
	info->estimatedRows = (sqlite3_int64)v->rows;
	info->estimatedCost = v->rows * 16;
	return SQLITE_OK;
}

static int vev_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct vev_cursor *c = calloc(1, sizeof(*c));

	if (!c)
		return SQLITE_NOMEM;
	c->v = ((struct vev_table *)vt)->v;
	c->eof = true;
	*out = &c->base;
	return SQLITE_OK;
}

static int vev_close(sqlite3_vtab_cursor *cur)
{
	struct vev_cursor *c = (struct vev_cursor *)cur;

	tm_evrun_free(c->run);
	tm_buf_free(&c->json);
	tm_vgroup_free(&c->group);
	free(c);
	return SQLITE_OK;
}

static int vev_error(struct vev_cursor *c)
{
	sqlite3_free(c->base.pVtab->zErrMsg);
	c->base.pVtab->zErrMsg = sqlite3_mprintf("events: %s", tm_last_error());
	c->eof = true;
	return SQLITE_ERROR;
}

/* The next record, from the next machine's files once a machine's end. */
static int vev_scan(struct vev_cursor *c)
{
	struct tm_run_opts o = { 0 };
	struct vev_machine *vm;
	int r;

	for (;;) {
		if (!c->run) {
			if (c->m >= c->v->machines) {
				c->eof = true;
				return SQLITE_OK;
			}
			vm = &c->v->m[c->m];
			o.machine = c->m;
			o.machines = c->v->machines;
			if (!vm->warned) {
				o.warn = c->v->warn;
				o.warn_ctx = c->v->warn_ctx;
				o.skipped = &vm->skipped;
				vm->warned = true;
			}
			c->run = tm_evrun_open(vm->files, vm->nfiles, vm->tep, &o);
			if (!c->run)
				return vev_error(c);
		}
		r = tm_evrun_next(c->run, &c->rec);
		if (r < 0)
			return vev_error(c);
		if (r > 0)
			break;
		tm_evrun_free(c->run);
		c->run = NULL;
		c->m++;
	}
	vm = &c->v->m[c->m];
	c->type = tm_common_type(vm->tep, &vm->common, c->rec.data, c->rec.size);
	c->rowid++;
	return SQLITE_OK;
}

static int vev_next(sqlite3_vtab_cursor *cur)
{
	struct vev_cursor *c = (struct vev_cursor *)cur;

	if (!c->grouped)
		return vev_scan(c);
	c->eof = !tm_vgroup_next(&c->group);
	c->rowid++;
	return SQLITE_OK;
}

static struct tep_event *vev_event(const struct vev_machine *vm, int type)
{
	return type >= 0 && type < vm->nids ? vm->byid[type] : NULL;
}

/* A grouped scan: the whole pass counted, then its first row. */
static int vev_count(struct vev_cursor *c)
{
	struct tm_vgroup_row *r;
	struct tep_event *ev;
	bool created;
	int rc;

	tm_vgroup_free(&c->group);
	for (rc = vev_scan(c); rc == SQLITE_OK && !c->eof; rc = vev_scan(c)) {
		r = tm_vgroup_count(&c->group, c->m, c->rec.cpu, c->type, &created);
		if (!r)
			return vev_error(c);
		if (created && (ev = vev_event(&c->v->m[c->m], c->type))) {
			r->system = ev->system;
			r->name = ev->name;
		}
	}
	if (rc != SQLITE_OK)
		return rc;
	c->eof = !tm_vgroup_start(&c->group, c->grouped);
	c->rowid = 1;
	return SQLITE_OK;
}

static int vev_filter(sqlite3_vtab_cursor *cur, int num, const char *str, int argc,
		      sqlite3_value **argv)
{
	struct vev_cursor *c = (struct vev_cursor *)cur;

	(void)num, (void)str, (void)argc, (void)argv;
	tm_evrun_free(c->run);
	c->run = NULL;
	c->m = 0;
	c->rowid = 0;
	c->eof = false;
	c->grouped = (unsigned int)num;
	return c->grouped ? vev_count(c) : vev_scan(c);
}

static int vev_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct vev_cursor *)cur)->eof;
}

/* The fields' JSON of the cursor's record ({} when its event has none). */
static int vev_fields(struct vev_cursor *c, sqlite3_context *ctx)
{
	struct vev_machine *vm = &c->v->m[c->m];
	struct tep_event *ev = vev_event(vm, c->type);

	if (!ev) {
		sqlite3_result_null(ctx);
		return SQLITE_OK;
	}
	if (!vm->json[c->type] && !(vm->json[c->type] = tm_jsonfmt_new(vm->tep, ev)))
		return SQLITE_NOMEM;
	c->json.len = 0;
	if (tm_jsonfmt_put_fields(vm->json[c->type], &c->json, c->rec.data, c->rec.size))
		return SQLITE_NOMEM;
	sqlite3_result_text(ctx, c->json.text, (int)c->json.len, SQLITE_TRANSIENT);
	return SQLITE_OK;
}

/* A grouped scan's columns: only those tm_vgroup_plan() allows are read. */
static int vev_group_column(const struct vev_cursor *c, sqlite3_context *ctx, int col)
{
	const struct tm_vgroup_row *r = tm_vgroup_row(&c->group);
	const char *text;

	if (!r)
		return SQLITE_ERROR;
	if (col == VEV_CPU || col == VEV_MORE) {
		sqlite3_result_int64(ctx, col == VEV_CPU ? r->cpu : r->machine);
		return SQLITE_OK;
	}
	text = col == VEV_NAME ? r->name : col == VEV_SYSTEM ? r->system : NULL;
	if (text)
		sqlite3_result_text(ctx, text, -1, SQLITE_STATIC);
	else
		sqlite3_result_null(ctx);
	return SQLITE_OK;
}

static int vev_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct vev_cursor *c = (struct vev_cursor *)cur;
	struct vev_machine *vm;
	const struct tep_event *ev;
	const struct tm_evout_info *info;
	const char *buf;

	if (c->grouped)
		return vev_group_column(c, ctx, col);
	vm = &c->v->m[c->m];
	ev = vev_event(vm, c->type);
	switch (col) {
	case VEV_TS:
		sqlite3_result_int64(ctx, (sqlite3_int64)c->rec.ts);
		return SQLITE_OK;
	case VEV_CPU:
		sqlite3_result_int64(ctx, c->rec.cpu);
		return SQLITE_OK;
	case VEV_TID:
		sqlite3_result_int64(ctx, tm_common_pid(vm->tep, &vm->common, c->rec.data,
							 c->rec.size));
		return SQLITE_OK;
	case VEV_SYSTEM:
	case VEV_NAME:
		if (ev)
			sqlite3_result_text(ctx, col == VEV_NAME ? ev->name : ev->system, -1,
					    SQLITE_STATIC);
		else
			sqlite3_result_null(ctx);
		return SQLITE_OK;
	case VEV_FIELDS:
		return vev_fields(c, ctx);
	}
	/* machine where there are several, then buffer where there are several */
	if (col == VEV_MORE && c->v->s->multi) {
		sqlite3_result_int64(ctx, c->m);
		return SQLITE_OK;
	}
	info = tm_evrun_info(c->run);
	buf = c->rec.buffer < info->nbuffers ? info->buffers[c->rec.buffer].name : NULL;
	sqlite3_result_text(ctx, buf ?: "", -1, SQLITE_STATIC);
	return SQLITE_OK;
}

static int vev_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct vev_cursor *)cur)->rowid;
	return SQLITE_OK;
}

static const sqlite3_module vev_module = {
	.iVersion = 0,
	.xCreate = vev_connect,
	.xConnect = vev_connect,
	.xBestIndex = vev_best_index,
	.xDisconnect = vev_disconnect,
	.xDestroy = vev_disconnect,
	.xOpen = vev_open,
	.xClose = vev_close,
	.xFilter = vev_filter,
	.xNext = vev_next,
	.xEof = vev_eof,
	.xColumn = vev_column,
	.xRowid = vev_rowid,
};

/* ---- the machines ---- */

static int machine_init(struct vev_machine *vm, struct tm_dat *const *dats, int n,
			const int *machine, int m, struct tm_events *ev, double *rows)
{
	struct tep_event **all;
	int i, k, b, cpu;

	vm->tep = tm_events_tep(ev);
	vm->warned = true;	/* the load warns, unless tm_sql_vevents_warn() */
	tm_common_init(&vm->common, vm->tep);
	vm->files = calloc((size_t)n, sizeof(*vm->files));
	if (!vm->files)
		return -1;
	for (i = 0; i < n; i++) {
		if (machine[i] != m)
			continue;
		vm->files[vm->nfiles++] = dats[i];
		for (b = 0; b < tm_dat_buffer_count(dats[i]); b++)
			for (cpu = 0; cpu < tm_dat_buffer_cpus(dats[i], b); cpu++)
				*rows += (double)tm_dat_buffer_cpu_size(dats[i], b, cpu) / 32;
	}
	all = tep_list_events(vm->tep, TEP_EVENT_SORT_ID);
	for (i = 0; all && all[i]; i++)
		if (all[i]->id >= vm->nids)
			vm->nids = all[i]->id + 1;
	vm->byid = calloc((size_t)vm->nids + 1, sizeof(*vm->byid));
	vm->json = calloc((size_t)vm->nids + 1, sizeof(*vm->json));
	if (!vm->byid || !vm->json)
		return -1;
	for (k = 0; all && all[k]; k++)
		if (all[k]->id >= 0)
			vm->byid[all[k]->id] = all[k];
	return 0;
}

/* The module's client data, freed by SQLite when the connection closes. */
static void vevents_free(void *data)
{
	struct sql_vevents *v = data;
	int m, i;

	if (!v)
		return;
	for (m = 0; v->m && m < v->machines; m++) {
		for (i = 0; v->m[m].json && i < v->m[m].nids; i++)
			tm_jsonfmt_free(v->m[m].json[i]);
		free(v->m[m].json);
		free(v->m[m].byid);
		free(v->m[m].files);
	}
	for (m = 0; v->ev && m < v->machines; m++)
		tm_events_free(v->ev[m]);
	free(v->ev);
	free(v->m);
	free(v);
}

struct sql_vevents *tm_sql_vevents_new(struct tm_sql *s, struct tm_dat *const *dats, int n,
				       const int *machine, int machines, struct tm_events **ev)
{
	struct sql_vevents *v = calloc(1, sizeof(*v));
	int m;

	if (!v) {
		for (m = 0; m < machines; m++)
			tm_events_free(ev[m]);
		free(ev);
		tm_fail(ENOMEM, "sql events");
		return NULL;
	}
	v->ev = ev;
	v->s = s;
	v->machines = machines;
	if (!(v->m = calloc((size_t)machines, sizeof(*v->m))))
		goto nomem;
	for (m = 0; m < machines; m++)
		if (machine_init(&v->m[m], dats, n, machine, m, ev[m], &v->rows))
			goto nomem;
	if (v->rows < 1)
		v->rows = 1;
	/* SQLite frees v with the connection, or now if it refuses the module */
	if (sqlite3_create_module_v2(s->db, VEV_MODULE, &vev_module, v, vevents_free) !=
	    SQLITE_OK) {
		tm_sql_fail(s, "sql events");
		return NULL;
	}
	return v;
nomem:
	vevents_free(v);
	tm_fail(ENOMEM, "sql events");
	return NULL;
}

void tm_sql_vevents_warn(struct sql_vevents *v, tm_warn_fn warn, void *ctx)
{
	int m;

	v->warn = warn;
	v->warn_ctx = ctx;
	for (m = 0; m < v->machines; m++)
		v->m[m].warned = false;
}

uint64_t tm_sql_skipped(const struct tm_sql *s)
{
	uint64_t n = 0;
	int m;

	for (m = 0; s->vev && m < s->vev->machines; m++)
		n += s->vev->m[m].skipped;
	return n;
}

struct tep_handle *tm_sql_vevents_tep(const struct sql_vevents *v, int m)
{
	return v->m[m].tep;
}

int tm_sql_vevents_swap(struct tm_sql *s, bool virt)
{
	struct sql_buf b = { 0 };
	int r;

	if (tm_sql_exec(s, "DROP TABLE events"))
		return -1;
	if (virt)
		return tm_sql_exec(s, "CREATE VIRTUAL TABLE events USING " VEV_MODULE);
	r = tm_sql_table_sql(s, "events", "events", &b) ?: tm_sql_exec(s, b.s);
	free(b.s);
	return r;
}

/* ---- does a query read it in one pass? ---- */

struct plan_row {
	int	id, parent;
	bool	loop;		/* a SCAN or SEARCH */
	bool	once;		/* a header whose body runs once (not CORRELATED) */
};

static const struct plan_row *plan_find(const struct plan_row *rows, int n, int id)
{
	int i;

	for (i = 0; i < n; i++)
		if (rows[i].id == id)
			return &rows[i];
	return NULL;
}

/*
 * Row i (a scan of events) runs once: the first loop among its siblings,
 * under headers that each run once, up to the top.
 */
static bool plan_once(const struct plan_row *rows, int n, int i)
{
	const struct plan_row *p;
	int k;

	for (k = 0; k < i; k++)
		if (rows[k].loop && rows[k].parent == rows[i].parent)
			return false;
	for (p = plan_find(rows, n, rows[i].parent); p; p = plan_find(rows, n, p->parent))
		if (!p->once || p->loop)
			return false;
	return true;
}

/* One statement (len bytes of text): 1 once or not at all, 0 otherwise, -1 error. */
static int statement_once(struct tm_sql *s, const char *text, int len)
{
	struct plan_row rows[VEV_PLAN_ROWS];
	sqlite3_stmt *st = NULL;
	char *eqp = sqlite3_mprintf("EXPLAIN QUERY PLAN %.*s", len, text);
	const char *detail;
	int n = 0, i, ok = 1;
	bool ours[VEV_PLAN_ROWS];

	if (!eqp)
		return tm_fail(ENOMEM, "sql events");
	if (sqlite3_prepare_v2(s->db, eqp, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(eqp);
		return 0;	/* not for the plan: let the plain table be what it reads */
	}
	sqlite3_free(eqp);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		if (n == VEV_PLAN_ROWS) {
			ok = 0;
			break;
		}
		detail = (const char *)sqlite3_column_text(st, 3) ?: "";
		rows[n].id = sqlite3_column_int(st, 0);
		rows[n].parent = sqlite3_column_int(st, 1);
		rows[n].loop = !strncmp(detail, "SCAN ", 5) || !strncmp(detail, "SEARCH ", 7);
		rows[n].once = !strstr(detail, "CORRELATED");
		ours[n] = strstr(detail, "VIRTUAL TABLE INDEX ") &&
			  strstr(detail, ":" VEV_MARK);
		n++;
	}
	sqlite3_finalize(st);
	for (i = 0; i < n && ok; i++)
		if (ours[i] && !plan_once(rows, n, i))
			ok = 0;
	return ok;
}

/* Past the word w and the blanks after it, or NULL when p does not start with it. */
static const char *skip_word(const char *p, const char *w)
{
	size_t n = strlen(w);

	while (isspace((unsigned char)*p))
		p++;
	if (strncasecmp(p, w, n) || !isspace((unsigned char)p[n]))
		return NULL;
	return p + n;
}

/*
 * The statement an EXPLAIN [QUERY PLAN] shows (its plan is the one the
 * statement gets, so that the user sees the table it really reads); NULL
 * when there is none to be found.
 */
static const char *explained(const char *text)
{
	const char *p = skip_word(text, "explain"), *q;

	if (!p)
		return NULL;
	q = skip_word(p, "query");
	return q && (q = skip_word(q, "plan")) ? q : p;
}

int tm_sql_vevents_once(struct tm_sql *s, const char *sql)
{
	const char *tail, *text;
	sqlite3_stmt *st;
	int r;

	if (tm_vgroup_rowid_named(sql))
		s->vev->no_grouping = true;
	for (; sql && *sql; sql = tail) {
		st = NULL;
		if (sqlite3_prepare_v2(s->db, sql, -1, &st, &tail) != SQLITE_OK)
			return 0;
		text = st && sqlite3_stmt_isexplain(st) ? explained(sql) : sql;
		sqlite3_finalize(st);
		if (!st) {
			if (tail == sql)
				break;
			continue;
		}
		if (!text)
			return 0;
		r = statement_once(s, text, (int)(tail - text));
		if (r <= 0)
			return r;
	}
	return 1;
}
