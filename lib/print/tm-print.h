/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-print.h - the options of the trace-cmd compatible text and JSON
 * printer, which the outputs of tm-evout.h wrap (the printer itself is
 * private: print-internal.h).
 */
#ifndef TM_PRINT_H
#define TM_PRINT_H

#include <stdbool.h>

/* Whose text to print: the zero value is current trace-cmd's. */
enum tm_text_compat {
	TM_TEXT_CURRENT,	/* trace-cmd 3.2-3.4: latency column, prev_state letters of the format */
	TM_TEXT_TC31,		/* trace-cmd 3.1.6 (Debian 12) with its libtraceevent 1.7 plugins */
};

/* The function_graph options of trace-cmd (-O fgraph:NAME), bits of tm_print_opts.fgraph. */
#define TM_FGRAPH_TAIL		0x1	/* tailprint: the function's name after "}" */
#define TM_FGRAPH_DEPTH		0x2	/* depth: " (depth)" */
#define TM_FGRAPH_RETVAL_SKIP	0x4	/* retval-skip: no "(ret=...)" */
#define TM_FGRAPH_RETVAL_DEC	0x8	/* retval-dec: every return value in decimal */
#define TM_FGRAPH_RETVAL_HEX	0x10	/* retval-hex: every return value in hex */

struct tm_print_opts {
	bool			nsec;		/* -t: all nine decimals */
	bool			raw;		/* -R: field=value of every field */
	bool			json;		/* one JSON object per line */
	bool			wall_clock;	/* times are ns since the epoch (DATE): JSON adds "time" */
	bool			tep_only;	/* no compiled formats: libtraceevent's text (tests) */
	bool			latency;	/* -l: "%8.8s-%-5d %3d" task and CPU, then the flags */
	enum tm_text_compat	compat;
	unsigned int		fgraph;		/* TM_FGRAPH_* */
	/*
	 * -F: records the printer leaves out (NULL: none). Applied by the
	 * printer, after function_graph's look at the next record, which
	 * trace-cmd takes before filtering.
	 */
	struct tm_filter	*filter;
};

/*
 * A plugin option as trace-cmd's -O takes it, [PLUGIN:]NAME[=VALUE]:
 * function_graph's (fgraph:tailprint, depth, retval-skip, retval-dec,
 * retval-hex) into o, the others to libtraceevent's plugins (function's
 * parent, indent, offset...), for the handles loaded after the call.
 * Unknown names are ignored, as trace-cmd does. -1 + message: ENOMEM.
 */
int tm_print_plugin_option(struct tm_print_opts *o, const char *opt);

#endif /* TM_PRINT_H */
