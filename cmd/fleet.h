/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fleet.h - what `tracemap fleet` and `tracemap sql --clickhouse` share
 * (fleet-run.c): a trace database loaded into ClickHouse, its DDL, and the
 * queries asked of the server.
 */
#ifndef TM_CMD_FLEET_H
#define TM_CMD_FLEET_H

#include <stdbool.h>

struct sqlite3;

struct fleet_args {
	const char	*sub;		/* the subcommand, for messages */
	const char	*url;		/* --clickhouse */
	const char	*cluster;
	const char	*top;		/* a named query */
	const char	*machine;	/* querying: only this machine's rows */
	const char	*query;		/* one SQL statement */
	long		limit;
	bool		replace, across, traces, quiet;
};

/* The DDL of db's tables on stdout (the database of a->url, else default). */
int fleet_schema(const struct fleet_args *a, struct sqlite3 *db);
/*
 * db loaded into a->url as trace id on machines[0..n) (what: the input, for
 * messages): the summary line unless quiet. An exit status.
 */
int fleet_load(const struct fleet_args *a, struct sqlite3 *db, const char *what,
	       const char *id, const char *const *machines, int n);
/* a->top, a->traces or a->query asked of a->url, the answer on stdout. An exit status. */
int fleet_ask(const struct fleet_args *a);
/* host1.db or host1.dat -> host1, into buf. */
const char *fleet_machine_of_path(const char *path, char *buf, size_t cap);

#endif /* TM_CMD_FLEET_H */
