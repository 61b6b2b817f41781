/* SPDX-License-Identifier: GPL-2.0-only */
/* tm-error.h - the message of the library's last failure on this thread (error.c). */
#ifndef TM_ERROR_H
#define TM_ERROR_H

/* error.c: the last failure of this thread, as one line without a newline. */
const char *tm_last_error(void);

#endif /* TM_ERROR_H */
