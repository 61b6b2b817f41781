/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-arm.h - tracing left running in an existing instance (arm.c), above all
 * a persistent one whose buffer survives a reboot: started with its events,
 * filters, options, clock and tracer, stopped, cleared. Nothing else in
 * tracefs is touched.
 */
#ifndef TM_ARM_H
#define TM_ARM_H

#include <stdbool.h>
#include <stddef.h>

struct tm_arm_event {
	const char	*spec;		/* "SYSTEM" or "SYSTEM:EVENT" */
	const char	*filter;	/* the kernel's filter syntax, or NULL */
};

struct tm_arm_opts {
	const char			*tracefs;
	const char			*instance;	/* an existing instance under instances/ */
	const struct tm_arm_event	*events;
	size_t				nevents;
	const char			**options;	/* "NAME" or "noNAME", NULL-terminated */
	const char			*clock;		/* NULL: the instance's own */
	const char			*tracer;	/* NULL: the instance's own */
	bool				force;		/* arm an instance that is not persistent too */
};

/*
 * Set o's options, events with their filters, tracer and clock in
 * o->instance, turn tracing on there, and leave it running. Every name is
 * checked before anything is written; a write the kernel refuses puts every
 * file written back as it was (the clock is written last, and only when it
 * changes: a new clock empties the buffer). Refused (EPERM) for an instance
 * without last_boot_info (not persistent) unless o->force, and (EEXIST) for
 * one whose buffer holds the previous boot's events (extract them first)
 * unless o->force. -1 + message.
 */
int tm_arm_start(const struct tm_arm_opts *o);
/* Turn tracing off in the instance (its events stay enabled). -1 + message. */
int tm_arm_stop(const char *tracefs, const char *instance);
/* Empty the instance's buffer (write its trace file). -1 + message. */
int tm_arm_clear(const char *tracefs, const char *instance);

#endif /* TM_ARM_H */
