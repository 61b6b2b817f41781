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

/* error.c: the last failure of this thread, as one line without a newline. */
const char *tm_last_error(void);

#include "tm-tracefs.h"
#include "tm-codec.h"
#include "tm-page.h"
#include "tm-dat.h"
#include "tm-spool.h"
#include "tm-write.h"
#include "tm-list.h"
#include "tm-events.h"
#include "tm-evout.h"
#include "tm-record.h"
#include "tm-live.h"
#include "tm-long.h"
#include "tm-recover.h"

#endif /* TRACEMAP_H */
