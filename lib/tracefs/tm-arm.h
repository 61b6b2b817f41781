/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-arm.h - tracing left running in an existing instance (arm.c), above all
 * a persistent one whose buffer survives a reboot: started with its events,
 * stopped, cleared. Nothing else in tracefs is touched.
 */
#ifndef TM_ARM_H
#define TM_ARM_H

#include <stdbool.h>

struct tm_arm_opts {
	const char	*tracefs;
	const char	*instance;	/* an existing instance under instances/ */
	const char	**events;	/* "SYSTEM" or "SYSTEM:EVENT", NULL-terminated */
	bool		force;		/* arm an instance that is not persistent too */
};

/*
 * Enable o->events in o->instance and turn tracing on there, then leave it
 * running. Refused (EPERM) for an instance without last_boot_info (not
 * persistent) unless o->force, and (EEXIST) for one whose buffer holds the
 * previous boot's events (extract them first) unless o->force. -1 + message.
 */
int tm_arm_start(const struct tm_arm_opts *o);
/* Turn tracing off in the instance (its events stay enabled). -1 + message. */
int tm_arm_stop(const char *tracefs, const char *instance);
/* Empty the instance's buffer (write its trace file). -1 + message. */
int tm_arm_clear(const char *tracefs, const char *instance);

#endif /* TM_ARM_H */
