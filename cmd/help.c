// SPDX-License-Identifier: GPL-2.0-only
/*
 * help.c - a subcommand's argp_parse() with --help, --usage and --version of
 * our own, so that --help can print the examples after argp's text as they
 * are written: argp wraps doc text at 79 columns, mid-command.
 */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"

enum {
	OPT_HELP = '?',
	OPT_VERSION = 'V',
	OPT_USAGE = 0x7f00,
};

/* argp's own three, with its wording, in its last group */
static const struct argp_option help_options[] = {
	{ "help", OPT_HELP, NULL, 0, "Give this help list", -1 },
	{ "usage", OPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ "version", OPT_VERSION, NULL, 0, "Print program version", -1 },
	{ 0 }
};

struct help_input {
	void		*input;		/* the subcommand's */
	const char	*examples;
};

static error_t help_parse(int key, char *arg, struct argp_state *state)
{
	const struct help_input *h = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = h->input;
		return 0;
	case OPT_HELP:
		argp_state_help(state, state->out_stream, ARGP_HELP_STD_HELP & ~ARGP_HELP_EXIT_OK);
		if (h->examples)
			fprintf(state->out_stream, "\nExamples:\n%s", h->examples);
		exit(fflush(state->out_stream) ? TM_EXIT_FAIL : TM_EXIT_OK);
	case OPT_USAGE:
		argp_state_help(state, state->out_stream, ARGP_HELP_USAGE | ARGP_HELP_EXIT_OK);
		return 0;
	case OPT_VERSION:
		fprintf(state->out_stream, "%s\n", argp_program_version);
		exit(fflush(state->out_stream) ? TM_EXIT_FAIL : TM_EXIT_OK);
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

error_t cmd_parse(const struct argp *sub, int argc, char **argv, unsigned int flags,
		     void *input, const char *examples)
{
	/* the subcommand's options and parser as the one child; its texts on top */
	struct argp body = { .options = sub->options, .parser = sub->parser,
			     .children = sub->children };
	const struct argp_child children[] = { { &body, 0, NULL, 0 }, { 0 } };
	const struct argp top = {
		.options = help_options, .parser = help_parse, .args_doc = sub->args_doc,
		.doc = sub->doc, .children = children,
	};
	struct help_input h = { .input = input, .examples = examples };

	return argp_parse(&top, argc, argv, flags | ARGP_NO_HELP, NULL, &h);
}
