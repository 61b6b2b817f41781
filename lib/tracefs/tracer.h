/* SPDX-License-Identifier: GPL-2.0-only */
/* tracer.h - a session's tracer and function filters (tracer.c). Private to lib/tracefs. */
#ifndef TM_TRACER_H
#define TM_TRACER_H

#include <stdbool.h>

#include "util/internal.h"
#include "tm-session.h"

struct tm_journal;

/*
 * Where tracer t runs: *top false for the instance inst, true for the top
 * level tracefs, when the instance's available_tracers lacks the tracer or
 * the instance lacks a file or option (of options) t needs and the top
 * level has them. EINVAL + message when neither offers the tracer.
 */
TM_HIDDEN int tm_tracer_place(const char *tracefs, struct tracefs_instance *inst,
			      const struct tm_tracer_opts *t, const char * const *options,
			      bool *top);
/* The top level top runs no tracer (current_tracer nop), or -1 + message (EBUSY). */
TM_HIDDEN int tm_tracer_top_free(struct tracefs_instance *top, const char *tracer);
/*
 * Write t's function filters, max_graph_depth, then current_tracer in in,
 * each file saved in journal j first (NULL: none). A function or tracer the
 * kernel refuses: -1 + one line with the kernel's errno.
 */
TM_HIDDEN int tm_tracer_apply(struct tracefs_instance *in, struct tm_journal *j,
			      const struct tm_tracer_opts *t);

#endif /* TM_TRACER_H */
