// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet.c - `tracemap fleet`: trace databases (tracemap sql -o's SQLite
 * files) loaded into a ClickHouse server or cluster, their DDL, and the named
 * queries asked of every machine loaded there.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "fleet.h"
#include "tracemap.h"

#define SUB		"fleet"
#define MAX_MACHINES	64

enum {
	OPT_CLICKHOUSE = 0x100,
	OPT_SCHEMA,
	OPT_CLUSTER,
	OPT_REPLACE,
	OPT_TRACE,
	OPT_TOP,
	OPT_ACROSS,
	OPT_LIMIT,
	OPT_TRACES,
};

struct fleet_opts {
	struct fleet_args	a;
	const char		*schema;	/* --schema clickhouse */
	const char		*trace;
	const char		*machines[MAX_MACHINES];
	int			nmachines;
	const char		*dbs[256];
	int			ndbs;
};

static const struct argp_option options[] = {
	{ "clickhouse", OPT_CLICKHOUSE, "URL", 0, "the ClickHouse server, "
	  "http://HOST:PORT/DB (its HTTP interface; port 8123, DB default if left out)", 1 },
	{ "cluster", OPT_CLUSTER, "NAME", 0, "sharded tables: NAME_local MergeTree tables "
	  "on each server, Distributed tables over cluster NAME (remote_servers)", 1 },
	{ "schema", OPT_SCHEMA, "clickhouse", 0, "print the DDL of the databases' tables "
	  "and load nothing (with a cluster, for each of its servers)", 1 },
	{ "machine", 'm', "NAME", 0, "loading: the name of the database's machine (again for "
	  "its machine 1, 2...; default: the file's name without its extension); "
	  "querying: only this machine's rows", 2 },
	{ "trace", OPT_TRACE, "ID", 0, "the trace's id (default: a hash of the database "
	  "file's bytes)", 2 },
	{ "replace", OPT_REPLACE, NULL, 0, "load a trace that is already loaded again", 2 },
	{ "top", OPT_TOP, "NAME", 0, "run a named query on the server: counts, cpu, "
	  "latency, wakeups, runtime, syscalls", 3 },
	{ "across", OPT_ACROSS, NULL, 0, "answers across machines, not per machine", 3 },
	{ "limit", OPT_LIMIT, "N", 0, "rows of a named query's answer (default 20)", 3 },
	{ "traces", OPT_TRACES, NULL, 0, "list the traces loaded on the server", 3 },
	{ "quiet", 'q', NULL, 0, "no summary line", 4 },
	{ 0 }
};

static const char doc[] =
	"Load trace databases (the SQLite files of tracemap sql -o) into a ClickHouse server "
	"over its HTTP interface, one trace per database, all or nothing; print their DDL "
	"for one server or a sharded cluster; ask the loaded fleet the named queries or any "
	"SQL."
	"\vWith DB files: each is loaded as one trace into the server of --clickhouse "
	"(the tables created where missing). A trace is loaded when tracemap_loads lists "
	"it, which is written only after all its rows are in and counted; a trace listed "
	"there is refused unless --replace. Without DB files: --top NAME, --traces or "
	"QUERY (one SQL statement) are run on the server, the answer tab-separated with "
	"a header line.\n\n"
	"Exit status: 0 ok, 1 failure (the server's own error text in one line), "
	"2 usage error.\n"
	"See tracemap-fleet(1).";

static const char examples[] =
	"  tracemap fleet --clickhouse http://127.0.0.1:8123/traces host1.db\n"
	"  tracemap fleet --schema clickhouse --cluster fleet host1.db\n"
	"  tracemap fleet --clickhouse http://ch1:8123/traces --cluster fleet host1.db\n"
	"  tracemap fleet --clickhouse http://ch1:8123/traces --top latency\n"
	"  tracemap fleet --clickhouse http://ch1:8123/traces --top syscalls --across\n";

/* A file, or a word that names none (its open then says so); else a QUERY. */
static bool is_db_file(const char *arg)
{
	return !access(arg, F_OK) || !strpbrk(arg, " \t\n");
}

/* --top NAME: one of the named queries, else a usage error listing them. */
static void check_query_name(struct argp_state *state, const char *name)
{
	const char *const *names = tm_fleet_query_names();
	char list[256] = "";

	for (int i = 0; names[i]; i++) {
		if (!strcmp(names[i], name))
			return;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 i ? ", " : "", names[i]);
	}
	argp_error(state, "--top: no query named '%s' (%s)", name, list);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct fleet_opts *o = state->input;

	switch (key) {
	case OPT_CLICKHOUSE: o->a.url = arg; return 0;
	case OPT_CLUSTER: o->a.cluster = arg; return 0;
	case OPT_SCHEMA:
		if (strcmp(arg, "clickhouse"))
			argp_error(state, "--schema: only clickhouse is known");
		o->schema = arg;
		return 0;
	case 'm':
		if (o->nmachines == MAX_MACHINES)
			argp_error(state, "at most %d --machine", MAX_MACHINES);
		o->machines[o->nmachines++] = arg;
		return 0;
	case OPT_TRACE: o->trace = arg; return 0;
	case OPT_REPLACE: o->a.replace = true; return 0;
	case OPT_TOP:
		check_query_name(state, arg);
		o->a.top = arg;
		return 0;
	case OPT_ACROSS: o->a.across = true; return 0;
	case OPT_LIMIT: o->a.limit = arg_long(state, "--limit", arg, 1, 1000000); return 0;
	case OPT_TRACES: o->a.traces = true; return 0;
	case 'q': o->a.quiet = true; return 0;
	case ARGP_KEY_ARG:
		if (is_db_file(arg)) {
			if (o->ndbs == (int)(sizeof(o->dbs) / sizeof(o->dbs[0])))
				argp_error(state, "too many databases");
			o->dbs[o->ndbs++] = arg;
		} else if (!o->a.query) {
			o->a.query = arg;
		} else {
			argp_error(state, "one QUERY only");
		}
		return 0;
	case ARGP_KEY_END:
		if (o->ndbs && (o->a.top || o->a.traces || o->a.query))
			argp_error(state, "load databases or ask queries, not both");
		if (!o->ndbs && o->schema)
			argp_error(state, "--schema needs a database");
		if (!o->schema && !o->a.url)
			argp_error(state, "--clickhouse URL is needed");
		if (!o->ndbs && !o->a.top && !o->a.traces && !o->a.query)
			argp_error(state, "nothing to do: DB files, --top, --traces or QUERY");
		if (o->trace && o->ndbs > 1)
			argp_error(state, "--trace names one database's trace");
		/* querying: -m is the machine asked about */
		if (!o->ndbs && o->nmachines)
			o->a.machine = o->machines[0];
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp fleet_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[DB...] [QUERY]",
	.doc = doc,
};

/* One database as one trace: its id the file's hash unless --trace. */
static int fleet_load_file(const struct fleet_opts *o, const char *path)
{
	const char *one[1] = { path }, *single[1];
	struct sqlite3 *db = tm_fleet_db_open(path);
	char id[17], name[256];
	int ret;

	if (!db)
		return cmd_fail(SUB);
	if (!o->trace && tm_fleet_trace_id(one, 1, id) < 0) {
		cmd_err(SUB, "%s", tm_last_error());
		tm_fleet_db_close(db);
		return TM_EXIT_FAIL;
	}
	single[0] = fleet_machine_of_path(path, name, sizeof(name));
	ret = fleet_load(&o->a, db, path, o->trace ? o->trace : id,
			 o->nmachines ? o->machines : single, o->nmachines ? o->nmachines : 1);
	tm_fleet_db_close(db);
	return ret;
}

static int fleet_schema_file(const struct fleet_opts *o, const char *path)
{
	struct sqlite3 *db = tm_fleet_db_open(path);
	int ret;

	if (!db)
		return cmd_fail(SUB);
	ret = fleet_schema(&o->a, db);
	tm_fleet_db_close(db);
	return ret;
}

int cmd_fleet(int argc, char **argv)
{
	struct fleet_opts o = { .a.sub = SUB };
	int ret = TM_EXIT_OK;

	cmd_parse(&fleet_argp, argc, argv, 0, &o, examples);
	if (!o.ndbs)
		return fleet_ask(&o.a);
	for (int i = 0; i < o.ndbs; i++) {
		int r = o.schema ? fleet_schema_file(&o, o.dbs[i]) : fleet_load_file(&o, o.dbs[i]);

		if (r != TM_EXIT_OK)
			ret = r;
	}
	return ret;
}
