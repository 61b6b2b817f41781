/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * meta-internal.h - a recording's metadata (struct tm_meta, trace/) collected
 * from tracefs by meta.c and meta-events.c. Private to the library.
 */
#ifndef TM_META_INTERNAL_H
#define TM_META_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"
#include "trace/trace-internal.h"

/* meta-events.c: header files, ftrace formats and the enabled events' formats; -1 + message. */
TM_HIDDEN int tm_meta_read_events(struct tm_meta *meta, const char *tracefs,
				  const char *instance);
/*
 * meta-events.c: also the formats of the events whose ids are set in ids
 * (a bitmap of TM_META_MAX_IDS bits) and not stored yet; -1 + message.
 */
#define TM_META_MAX_IDS	65536
TM_HIDDEN int tm_meta_add_ids(struct tm_meta *meta, const char *tracefs, const uint8_t *ids);

/*
 * Metadata functions only the unit tests call (tm_meta_collect() uses the
 * defaults); they build files from a directory laid out like tracefs.
 */

/* Where tm_meta_collect_opts() reads from. */
struct tm_meta_opts {
	const char	*tracefs;	/* tracefs, or a directory laid out like it */
	const char	*instance;	/* NULL or "": the top level */
	int		ncpus;		/* stats of cpus [0, ncpus) */
	const char	*kallsyms;	/* file stored as kallsyms; NULL: /proc/kallsyms */
	const uint8_t	*ids;		/* NULL, or event ids met in the data (tm_meta_add_ids) */
};

/*
 * Like tm_meta_collect(), from any directory laid out like tracefs. Without
 * a set_event file every event system under events/ (except ftrace) is
 * stored whole; missing printk_formats, saved_cmdlines and per_cpu stats are
 * stored empty. The event formats always come from <tracefs>/events.
 */
TM_HIDDEN struct tm_meta *tm_meta_collect_opts(const struct tm_meta_opts *opts);

#endif /* TM_META_INTERNAL_H */
