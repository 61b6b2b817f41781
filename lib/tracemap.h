/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracemap.h - the public interface of libtracemap.
 *
 * Conventions: functions return -1 (or NULL) with errno set on failure and
 * keep a one-line description of what failed in tm_last_error(). Nothing in
 * the library exits or prints to stdout.
 */
#ifndef TRACEMAP_H
#define TRACEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/tm-error.h"
#include "util/tm-outfile.h"
#include "util/tm-cleanup.h"
#include "util/tm-fit.h"
#include "trace/tm-trace.h"
#include "tracefs/tm-tracefs.h"
#include "dat/tm-codec.h"
#include "dat/tm-dat.h"
#include "merge/tm-merge.h"
#include "record/tm-spool.h"
#include "dat/tm-write.h"
#include "tracefs/tm-list.h"
#include "tracefs/tm-arm.h"
#include "events/tm-events.h"
#include "print/tm-print.h"
#include "emit/tm-evout.h"
#include "tracefs/tm-session.h"
#include "record/tm-recorder.h"
#include "record/tm-recfile.h"
#include "emit/tm-live.h"
#include "longrec/tm-longrec.h"
#include "salvage/tm-salvage.h"
#include "sql/tm-sql.h"
#include "fleet/tm-fleet.h"

#endif /* TRACEMAP_H */
