// SPDX-License-Identifier: GPL-2.0-only
/* sql.c - `tracemap sql`: SQL over trace.dat files (an SQLite database of their events). */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "inputs.h"
#include "fleet.h"
#include "status.h"
#include "tracemap.h"

#define SQL_MAX_INPUTS	CMD_MAX_INPUTS

struct sql_opts {
	const char		*args[SQL_MAX_INPUTS + 1];
	int			nargs;
	const char		*inputs[SQL_MAX_INPUTS];
	int			ninputs;
	const char		*query;
	const char		*output;
	const char		*top;
	enum tm_sql_format	format;
	struct fleet_args	fleet;		/* --clickhouse and what goes with it */
	bool			schema;		/* --schema clickhouse */
	bool			hist;
	bool			show;
	bool			no_plugins;
	bool			quiet;
};

enum {
	OPT_FORMAT = 256,
	OPT_TOP,
	OPT_HIST,
	OPT_SHOW,
	OPT_CLICKHOUSE,
	OPT_CLUSTER,
	OPT_SCHEMA,
	OPT_REPLACE,
	OPT_ACROSS,
	OPT_LIMIT,
};

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "Read FILE (bare FILE arguments also work; several files "
	  "go on one timeline, as in convert)", 0 },
	{ "output", 'o', "DB", 0, "Keep the database as DB (an SQLite file, every table filled; "
	  "replaced only once complete)", 0 },
	{ "format", OPT_FORMAT, "FORMAT", 0, "columns (default: aligned, a header), csv, tsv or "
	  "json (one object per row)", 0 },
	{ "top", OPT_TOP, "NAME", 0, "Run a named query (--top list names them)", 0 },
	{ "hist", OPT_HIST, NULL, 0, "With --top latency or another latency query: the "
	  "distribution as a log2 histogram", 0 },
	{ "show", OPT_SHOW, NULL, 0, "With --top NAME: print its SQL (and --hist's) instead of "
	  "running it; no FILE needed", 0 },
	{ "no-plugins", 'N', NULL, 0, "Do not load libtraceevent plugins", 0 },
	{ "clickhouse", OPT_CLICKHOUSE, "URL", 0, "A ClickHouse server (http://HOST:PORT/DB): "
	  "the files' tables are loaded into it as one trace, all or nothing; QUERY and --top "
	  "are asked of it, over every machine loaded there (tracemap-fleet(1))", 1 },
	{ "cluster", OPT_CLUSTER, "NAME", 0, "With --clickhouse or --schema: sharded tables, "
	  "NAME_local on each server and Distributed ones over cluster NAME", 1 },
	{ "schema", OPT_SCHEMA, "clickhouse", 0, "Print the DDL of the files' tables for "
	  "ClickHouse and query nothing", 1 },
	{ "replace", OPT_REPLACE, NULL, 0, "With --clickhouse: load a trace already loaded "
	  "again", 1 },
	{ "machine", 'm', "NAME", 0, "With --clickhouse: only this machine's rows", 1 },
	{ "across", OPT_ACROSS, NULL, 0, "With --clickhouse --top: answers across machines, "
	  "not per machine", 1 },
	{ "limit", OPT_LIMIT, "N", 0, "With --clickhouse --top: rows of the answer "
	  "(default 20)", 1 },
	{ "quiet", 'q', NULL, 0, "No warnings about damaged input, no progress line", 0 },
	{ 0 }
};

static const char doc[] =
	"Query trace.dat files with SQL (SQLite 3).\v"
	"The arguments are the files, then the QUERY (an argument that is not a file); "
	"without one the query is read from standard input. The tables: one per event type "
	"(sched_switch, sys_enter, print, ...; ts, cpu, tid and the format's fields), events "
	"(every event, fields as JSON), Perfetto's sched_slice (also as sched), thread_state, "
	"thread and process, and syscalls, wakeup_latency, irq, softirq and lost_events; "
	"tracemap-sql(1) describes every column. Only the tables a query reads are filled; "
	"-o fills them all and keeps the file for sqlite3 or any SQLite client.";

static const char examples[] =
	"  tracemap sql trace.dat 'SELECT count(*) FROM sched_switch'\n"
	"  tracemap sql trace.dat 'SELECT name, sum(dur) FROM sched JOIN thread USING(utid) "
	"GROUP BY utid ORDER BY 2 DESC LIMIT 10'\n"
	"  tracemap sql trace.dat --top latency\n"
	"  tracemap sql trace.dat --top latency --hist\n"
	"  tracemap sql trace.dat --format csv < query.sql > out.csv\n"
	"  tracemap sql trace.dat -o trace.sqlite && sqlite3 trace.sqlite .tables\n"
	"  tracemap sql web-17.dat --clickhouse http://ch1:8123/traces --cluster fleet\n"
	"  tracemap sql --clickhouse http://ch1:8123/traces --top wakeups\n";

static bool is_file(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || !stat(path, &st);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct sql_opts *o = state->input;
	int i;

	switch (key) {
	case 'i':
		if (o->ninputs == SQL_MAX_INPUTS)
			argp_error(state, "more than %d input files", SQL_MAX_INPUTS);
		o->inputs[o->ninputs++] = arg;
		return 0;
	case ARGP_KEY_ARG:
		if (o->nargs == SQL_MAX_INPUTS)
			argp_error(state, "more than %d input files", SQL_MAX_INPUTS);
		o->args[o->nargs++] = arg;
		return 0;
	case 'o': o->output = arg; return 0;
	case 'N': o->no_plugins = true; return 0;
	case 'q': o->quiet = true; return 0;
	case OPT_HIST: o->hist = true; return 0;
	case OPT_CLICKHOUSE: o->fleet.url = arg; return 0;
	case OPT_CLUSTER: o->fleet.cluster = arg; return 0;
	case OPT_REPLACE: o->fleet.replace = true; return 0;
	case OPT_ACROSS: o->fleet.across = true; return 0;
	case OPT_LIMIT: o->fleet.limit = arg_long(state, "--limit", arg, 1, 1000000); return 0;
	case 'm': o->fleet.machine = arg; return 0;
	case OPT_SCHEMA:
		if (strcmp(arg, "clickhouse"))
			argp_error(state, "--schema: only clickhouse is known");
		o->schema = true;
		return 0;
	case OPT_SHOW: o->show = true; return 0;
	case OPT_TOP: o->top = arg; return 0;
	case OPT_FORMAT:
		if (!strcmp(arg, "columns"))
			o->format = TM_SQL_COLUMNS;
		else if (!strcmp(arg, "csv"))
			o->format = TM_SQL_CSV;
		else if (!strcmp(arg, "tsv"))
			o->format = TM_SQL_TSV;
		else if (!strcmp(arg, "json"))
			o->format = TM_SQL_JSON;
		else
			argp_error(state, "unknown format '%s' (columns, csv, tsv or json)", arg);
		return 0;
	case ARGP_KEY_END:
		/* the last argument is the query unless it names a file */
		if (o->nargs && (o->nargs > 1 || o->ninputs || o->fleet.url) &&
		    !is_file(o->args[o->nargs - 1]))
			o->query = o->args[--o->nargs];
		for (i = 0; i < o->nargs; i++) {
			if (o->ninputs == SQL_MAX_INPUTS)
				argp_error(state, "more than %d input files", SQL_MAX_INPUTS);
			o->inputs[o->ninputs++] = o->args[i];
		}
		if (!o->ninputs && !(o->top && (o->show || !strcmp(o->top, "list"))) &&
		    !o->fleet.url)
			argp_error(state, "no input file");
		if (o->schema && !o->ninputs)
			argp_error(state, "--schema clickhouse needs the files");
		if (o->fleet.url && !o->ninputs && !o->query && !o->top)
			argp_error(state, "--clickhouse without files: a QUERY or --top NAME");
		if ((o->fleet.cluster || o->fleet.replace || o->fleet.across || o->fleet.machine ||
		     o->fleet.limit) && !o->fleet.url && !o->schema)
			argp_error(state, "--cluster, --replace, --across, --limit, -m go with "
				   "--clickhouse");
		if (o->show && !o->top)
			argp_error(state, "--show goes with --top NAME");
		if (o->query && o->top)
			argp_error(state, "a QUERY and --top: give one of them");
		if (o->hist && !o->top)
			argp_error(state, "--hist goes with --top NAME");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp sql_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "FILE... [QUERY]",
	.doc = doc,
};

/* Standard input as the query; NULL + message. */
static char *read_query(void)
{
	size_t len = 0, cap = 0;
	char *q = NULL, *n;
	size_t got;

	do {
		if (len + 4096 + 1 > cap) {
			cap = cap * 2 + 4096 + 1;
			n = realloc(q, cap);
			if (!n) {
				free(q);
				cmd_err("sql", "reading the query: %s", strerror(ENOMEM));
				return NULL;
			}
			q = n;
		}
		got = fread(q + len, 1, cap - len - 1, stdin);
		len += got;
	} while (got);
	if (ferror(stdin)) {
		cmd_err("sql", "reading the query from standard input: %s", strerror(errno));
		free(q);
		return NULL;
	}
	q[len] = '\0';
	return q;
}

/* --top list: the named queries and what each answers. */
static int list_named(void)
{
	const char *name, *what;
	int i;

	for (i = 0; (name = tm_sql_named_list(i, &what)); i++)
		printf("%-10s %s\n", name, what);
	return TM_EXIT_OK;
}

/* The query, and the histogram's, of --top NAME; -1 when there is no such name. */
static int named_query(const struct sql_opts *o, const char **query, const char **hist)
{
	*query = tm_sql_named(o->top, hist);
	if (!*query) {
		cmd_err("sql", "no named query '%s' (--top list names them)", o->top);
		return -1;
	}
	if (o->hist && !*hist) {
		cmd_err("sql", "--top %s has no histogram", o->top);
		return -1;
	}
	if (!o->hist)
		*hist = NULL;
	return 0;
}

static int run_sql(const struct sql_opts *o, const char *query, const char *hist)
{
	static struct cmd_inputs in;
	struct status_line status;
	struct tm_meter meter;
	struct cmd_warn warn = { .sub = "sql", .quiet = o->quiet, .status = &status };
	const char *queries[2] = { hist ?: query, NULL };
	struct tm_sql_load_opts lo = {
		.queries = hist || query ? queries : NULL,
		.fill_all = o->output,
		.no_plugins = o->no_plugins,
		.warn = cmd_warning,
		.warn_ctx = &warn,
		.meter = status_meter(&status, &meter, "sql", status_wanted(o->quiet, false)),
	};
	struct tm_sql *s = NULL;
	int ret = TM_EXIT_FAIL;
	bool ok = false;

	if (cmd_inputs_open(&in, o->inputs, o->ninputs, "sql"))
		goto out;
	s = tm_sql_new(o->output);
	if (!s) {
		cmd_fail("sql");
		goto out;
	}
	if (tm_sql_load(s, in.dat, in.n, in.machine, in.machines, &lo)) {
		status_clear(&status);
		cmd_fail("sql");
		goto out;
	}
	status_clear(&status);
	cmd_warn_summary(&warn, in.n > 1 ? "the input files" : o->inputs[0], lo.skipped);
	ok = true;
	if (hist && tm_sql_hist(s, hist, NULL, stdout)) {
		cmd_fail("sql");
		goto out;
	}
	if (!hist && query && tm_sql_query(s, query, o->format, stdout)) {
		cmd_fail("sql");
		goto out;
	}
	ret = TM_EXIT_OK;
out:
	/* a query of events alone: the records its scans skipped */
	if (s && tm_sql_skipped(s))
		cmd_warn_summary(&warn, in.n > 1 ? "the input files" : o->inputs[0],
				 tm_sql_skipped(s));
	if (tm_sql_close(s, ok) && ok) {
		cmd_fail("sql");
		ret = TM_EXIT_FAIL;
	}
	cmd_inputs_close(&in);
	return ret;
}

/* The files' machines named after the first file of each: host1.dat -> host1. */
static const char **machine_names(const struct sql_opts *o, const struct cmd_inputs *in,
				  char (*buf)[256])
{
	static const char *names[SQL_MAX_INPUTS];

	for (int m = 0; m < in->machines; m++)
		for (int i = 0; i < in->n; i++)
			if (in->machine[i] == m) {
				names[m] = fleet_machine_of_path(o->inputs[i], buf[m], 256);
				break;
			}
	return names;
}

/*
 * --schema clickhouse, or --clickhouse: the files' database (every table
 * filled) printed as DDL or loaded as one trace, its id a hash of the files;
 * then QUERY or --top asked of the server. Without files only the asking.
 */
static int run_fleet(struct sql_opts *o)
{
	static struct cmd_inputs in;
	static char names[SQL_MAX_INPUTS][256];
	struct tm_sql_load_opts lo = { .no_plugins = o->no_plugins, .warn = cmd_warning };
	struct cmd_warn warn = { .sub = "sql", .quiet = o->quiet };
	struct tm_sql *s = NULL;
	char id[17];
	int ret = TM_EXIT_FAIL;

	o->fleet.sub = "sql";
	o->fleet.quiet = o->quiet;
	o->fleet.query = o->query;
	o->fleet.top = o->top;
	if (!o->ninputs)
		return fleet_ask(&o->fleet);
	lo.warn_ctx = &warn;
	if (cmd_inputs_open(&in, o->inputs, o->ninputs, "sql"))
		goto out;
	if (tm_fleet_trace_id(o->inputs, o->ninputs, id) < 0) {
		cmd_fail("sql");
		goto out;
	}
	s = tm_sql_new(NULL);
	if (!s || tm_sql_load(s, in.dat, in.n, in.machine, in.machines, &lo)) {
		cmd_fail("sql");
		goto out;
	}
	if (o->schema)
		ret = fleet_schema(&o->fleet, tm_sql_db(s));
	else
		ret = fleet_load(&o->fleet, tm_sql_db(s), o->ninputs > 1 ? "the files" :
				 o->inputs[0], id, machine_names(o, &in, names), in.machines);
	if (ret == TM_EXIT_OK && !o->schema && (o->query || o->top))
		ret = fleet_ask(&o->fleet);
out:
	tm_sql_close(s, false);
	cmd_inputs_close(&in);
	return ret;
}

int cmd_sql(int argc, char **argv)
{
	struct sql_opts o = { 0 };
	const char *query, *hist = NULL;
	char *stdin_query = NULL;
	int ret;

	if (cmd_parse(&sql_argp, argc, argv, 0, &o, examples))
		return TM_EXIT_USAGE;
	if (o.top && !strcmp(o.top, "list"))
		return list_named();
	if (o.schema || o.fleet.url)
		return run_fleet(&o);
	query = o.query;
	if (o.top && named_query(&o, &query, &hist))
		return TM_EXIT_USAGE;
	if (o.show) {
		printf("%s;\n", hist ?: query);
		return TM_EXIT_OK;
	}
	if (!query && !o.top && !(o.output && isatty(STDIN_FILENO))) {
		if (isatty(STDIN_FILENO) && !o.output) {
			cmd_err("sql", "no query: give one after the files, on standard input, "
				"or --top NAME");
			return TM_EXIT_USAGE;
		}
		stdin_query = read_query();
		if (!stdin_query)
			return TM_EXIT_FAIL;
		query = stdin_query;
	}
	ret = run_sql(&o, query, hist);
	free(stdin_query);
	return ret;
}
