/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spool.h - one CPU's pages gathered into zstd chunks and appended to its
 * spool file (spool*.c): the functions only lib/ and the tests call; the
 * types cmd/ sees are in tm-spool.h.
 */
#ifndef TM_SPOOL_PRIV_H
#define TM_SPOOL_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "record/tm-spool.h"
#include "ring.h"
#include "util/tm-progress.h"

/*
 * Append one whole page (page_size bytes); compresses when a chunk fills.
 * A page read into tm_spool_slot() is taken where it is. -1 + message.
 */
TM_HIDDEN int tm_spool_add_page(struct tm_spool *spool, const void *page);
/*
 * Where the next page goes in the chunk being gathered: a reader may read it
 * there and add it without a copy. Valid until the next call that adds,
 * ticks, cuts or finishes; NULL when the spool takes no more pages.
 */
TM_HIDDEN void *tm_spool_slot(struct tm_spool *spool);
/*
 * Write the chunk being gathered if its first page is opts.max_age_ns old
 * (the recorder calls it after every drain round, quiet CPUs included).
 * -1 + message.
 */
TM_HIDDEN int tm_spool_tick(struct tm_spool *spool);
/*
 * spool-check.c: check the spool file at path (pages and chunks as opts say)
 * chunk by chunk, decompressing each and parsing its pages, and cut it after
 * the last whole, sound chunk. *st gets what it holds then, *dropped the
 * bytes cut off; the event ids met are set in ids (a bitmap of 65536 bits).
 * meter (NULL: none) is shown each chunk's bytes and events as they are
 * checked. With dropped NULL the file is only read, never cut, and ids may
 * be NULL. -1 + message when it cannot be opened or cut.
 */
TM_HIDDEN int tm_spool_check_file(const char *path, const struct tm_spool_opts *opts,
				  struct tm_spool_stats *st, uint64_t *dropped, uint8_t *ids,
				  struct tm_meter *meter);
/* How its chunks are stored. */
TM_HIDDEN enum tm_compression tm_spool_compression(const struct tm_spool *spool);
/*
 * Create (O_EXCL, mode 0600) the spool file at path (with opts->sink: no
 * file, path may be NULL, chunks go to the sink). Spool file contents:
 * compressed: chunks back to back, each u32 compressed size, u32 uncompressed
 * size (host order), one independent zstd frame of whole pages; none: the raw
 * pages. Either way it is exactly a trace.dat CPU blob minus the chunk count.
 * NULL + message naming the path (EEXIST: a spool is left from an earlier run).
 */
TM_HIDDEN struct tm_spool *tm_spool_create(const char *path, const struct tm_spool_opts *opts);
/*
 * Compress and write the pages gathered so far as a (short) chunk of their
 * own now; the spool goes on. -1 + message.
 */
TM_HIDDEN int tm_spool_cut(struct tm_spool *spool);
/* Close; unlink the file too when remove is true (NULL is fine). */
TM_HIDDEN void tm_spool_destroy(struct tm_spool *spool, bool remove);
/* errno of the file write that failed (ENOSPC, EDQUOT, ...), 0 while none did. */
TM_HIDDEN int tm_spool_error(const struct tm_spool *spool);
/* fd of the spool file, for the writer (read from offset 0); -1 without a file. */
TM_HIDDEN int tm_spool_fd(const struct tm_spool *spool);
/* Bytes written so far, read while another thread appends (live status). */
TM_HIDDEN uint64_t tm_spool_file_bytes(const struct tm_spool *s);
/* Compress and write a partial last chunk. Call once, at stop. -1 + message. */
TM_HIDDEN int tm_spool_finish(struct tm_spool *spool);
/* True once tm_spool_finish succeeded (the writer requires it). */
TM_HIDDEN bool tm_spool_finished(const struct tm_spool *spool);
/* Pages, bytes and chunks so far. */
TM_HIDDEN void tm_spool_get_stats(const struct tm_spool *spool, struct tm_spool_stats *st);
/* Size of the pages it holds. */
TM_HIDDEN size_t tm_spool_page_size(const struct tm_spool *spool);
/* The spool file's path ("memory" without a file). */
TM_HIDDEN const char *tm_spool_path(const struct tm_spool *spool);
/*
 * At stop, for a spool whose file write failed (a full disk), now or
 * before: finish it as its file stands, the whole chunks written before the
 * failure (pages not written are dropped; tm_spool_error() says why). Any
 * other spool is finished by tm_spool_finish(). -1 + message when that fails
 * for another reason than a write.
 */
TM_HIDDEN int tm_spool_salvage(struct tm_spool *spool);
/* The CPU's ring-buffer fill level in per mille, for the adaptive level. Cannot fail. */
TM_HIDDEN void tm_spool_set_fill(struct tm_spool *spool, const struct tm_ring_fill *fill);

struct tm_cpu_data;
struct tm_meta;
struct tm_write_opts;

/* spool-dat.c: a finished spool as a tm_dat_write_data() source for cpu (its fd from offset 0). */
TM_HIDDEN void tm_spool_data(const struct tm_spool *spool, int cpu, struct tm_cpu_data *data);
/*
 * tm_dat_write_data() with the top buffer's data from spools[cpu] (NULL =
 * no data for that CPU), each finished with tm_spool_finish() and made with
 * the file's compression (none for v6/v7-none, zstd for v7-zstd) and page
 * size. -1 + message (an unfinished or mismatched spool: EINVAL).
 */
TM_HIDDEN int tm_spools_write_dat(int out_fd, const struct tm_meta *meta, struct tm_spool **spools,
				  int ncpus, const struct tm_write_opts *opts);

#endif /* TM_SPOOL_PRIV_H */
