// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-write.c - tm_dat_write_data: checks, page geometry, the CPUs' data
 * sources and the §2 metadata payloads, then the version's layout writes
 * the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat-format.h"
#include "dat-version.h"
#include "dat-write-internal.h"
#include "tm-write.h"
#include "dat-internal.h"
#include "codec.h"

/* §2: the six metadata payloads, the same bytes in v6 and v7. */
static void build_payloads(struct tm_write_ctx *w)
{
	const struct tm_meta *m = w->meta;
	struct tm_buf *p = w->payload;
	size_t i, j;

	tm_buf_putstr(&p[TM_META_HEADERS], TM_DAT_HEADER_PAGE);
	tm_buf_put64(&p[TM_META_HEADERS], m->header_page.len);
	tm_buf_put(&p[TM_META_HEADERS], m->header_page.data, m->header_page.len);
	tm_buf_putstr(&p[TM_META_HEADERS], TM_DAT_HEADER_EVENT);
	tm_buf_put64(&p[TM_META_HEADERS], m->header_event.len);
	tm_buf_put(&p[TM_META_HEADERS], m->header_event.data, m->header_event.len);

	tm_buf_put32(&p[TM_META_FTRACE], m->nftrace);
	for (i = 0; i < m->nftrace; i++) {
		tm_buf_put64(&p[TM_META_FTRACE], m->ftrace[i].len);
		tm_buf_put(&p[TM_META_FTRACE], m->ftrace[i].data, m->ftrace[i].len);
	}

	tm_buf_put32(&p[TM_META_EVENTS], m->nsystems);
	for (i = 0; i < m->nsystems; i++) {
		tm_buf_putstr(&p[TM_META_EVENTS], m->systems[i].name);
		tm_buf_put32(&p[TM_META_EVENTS], m->systems[i].nformats);
		for (j = 0; j < m->systems[i].nformats; j++) {
			tm_buf_put64(&p[TM_META_EVENTS], m->systems[i].formats[j].len);
			tm_buf_put(&p[TM_META_EVENTS], m->systems[i].formats[j].data,
				   m->systems[i].formats[j].len);
		}
	}

	tm_buf_put32(&p[TM_META_KALLSYMS], m->kallsyms.len);
	tm_buf_put(&p[TM_META_KALLSYMS], m->kallsyms.data, m->kallsyms.len);
	tm_buf_put32(&p[TM_META_PRINTK], m->printk.len);
	tm_buf_put(&p[TM_META_PRINTK], m->printk.data, m->printk.len);
	tm_buf_put64(&p[TM_META_CMDLINES], m->cmdlines.len);
	tm_buf_put(&p[TM_META_CMDLINES], m->cmdlines.data, m->cmdlines.len);
}

/* "field: <type> <name>;\toffset:N;\tsize:M;" of header_page. */
static bool header_field(const struct tm_text *hp, const char *name, unsigned long *off,
			    unsigned long *size)
{
	char key[64];
	const char *p;

	if (!hp->data)
		return false;
	snprintf(key, sizeof(key), " %s;", name);
	p = strstr(hp->data, key);
	if (!p)
		return false;
	p = strstr(p, "offset:");
	if (!p || sscanf(p, "offset:%lu;%*[ \t]size:%lu;", off, size) != 2)
		return false;
	return true;
}

static int write_geometry(struct tm_write_ctx *w)
{
	unsigned long off, size;

	w->long_size = sizeof(long);
	if (header_field(&w->meta->header_page, "commit", &off, &size) &&
	    (size == 4 || size == 8))
		w->long_size = size;
	w->page_size = w->opts->page_size;
	if (!w->page_size && header_field(&w->meta->header_page, "data", &off, &size))
		w->page_size = off + size;
	if (!w->page_size)
		return tm_failx(EINVAL, "trace.dat: no page size given and none in header_page");
	w->clock = w->opts->clock ? w->opts->clock : tm_meta_clock(w->meta);
	if (!w->clock)
		w->clock = "local";
	return 0;
}

/* A source holds what the file stores: its compression and its page size. */
static int write_check_source(const struct tm_write_ctx *w, const struct tm_cpu_data *src)
{
	enum tm_compression want = w->compressed ? TM_COMPRESS_ZSTD : TM_COMPRESS_NONE;
	enum tm_compression has = src->compressed ? TM_COMPRESS_ZSTD : TM_COMPRESS_NONE;
	const char *name = src->name ? src->name : "memory";

	if (has != want)
		return tm_failx(EINVAL, "trace.dat: data of CPU %d is %s (%s), the file %s",
				src->cpu, tm_compression_name(has), name,
				tm_compression_name(want));
	if (src->page_size != w->page_size)
		return tm_failx(EINVAL, "trace.dat: data of CPU %d has %zu-byte pages (%s), not %u",
				src->cpu, src->page_size, name, w->page_size);
	return 0;
}

static int blob_cmp(const void *a, const void *b)
{
	const struct tm_cpu_blob *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* CPUs with data, in CPU order; offsets are filled in by the layout. */
static int write_blobs(struct tm_write_ctx *w, const struct tm_cpu_data *cpus, int n)
{
	int i, j;

	w->blobs = calloc(n ? n : 1, sizeof(*w->blobs));
	if (!w->blobs)
		return tm_fail(ENOMEM, "trace.dat layout");
	for (i = 0; i < n; i++) {
		if (cpus[i].cpu < 0 || cpus[i].cpu >= w->ncpus)
			return tm_failx(EINVAL, "trace.dat: data of CPU %d, the file has %d",
					cpus[i].cpu, w->ncpus);
		for (j = 0; j < i; j++)
			if (cpus[j].cpu == cpus[i].cpu)
				return tm_failx(EINVAL, "trace.dat: CPU %d given twice", cpus[i].cpu);
		if (write_check_source(w, &cpus[i]))
			return -1;
		if (!cpus[i].size)
			continue;
		w->blobs[w->nblobs++] = (struct tm_cpu_blob){
			.cpu = cpus[i].cpu, .src = &cpus[i], .size = cpus[i].size,
			.chunks = cpus[i].chunks,
		};
	}
	qsort(w->blobs, w->nblobs, sizeof(*w->blobs), blob_cmp);
	return 0;
}

static int write_check(int out_fd, const struct tm_write_opts *opts, int ncpus,
			  bool *regular)
{
	struct stat st;
	off_t pos;

	char known[64];

	if (!tm_dat_version_find(opts->version)) {
		tm_dat_versions_text(known, sizeof(known), " or ");
		return tm_failx(EINVAL, "trace.dat: file version %d (use %s)", opts->version,
				known);
	}
	if (ncpus < 0)
		return tm_failx(EINVAL, "trace.dat: bad CPU count %d", ncpus);
	if (fstat(out_fd, &st))
		return tm_fail(errno, "trace.dat output");
	*regular = S_ISREG(st.st_mode);
	if (*regular) {
		pos = lseek(out_fd, 0, SEEK_CUR);
		if (pos > 0)
			return tm_failx(EINVAL, "trace.dat: output file is at offset %lld, not 0",
					(long long)pos);
	}
	return 0;
}

int tm_dat_write_data(int out_fd, const struct tm_meta *meta, const struct tm_cpu_data *cpus,
		      int n, int ncpus, const struct tm_write_opts *opts)
{
	struct tm_write_ctx w = {
		.fd = out_fd, .meta = meta, .opts = opts, .ncpus = ncpus, .version = opts->version,
	};
	const struct tm_dat_version_ops *layout;
	int ret = -1, i;
	bool regular;

	if (write_check(out_fd, opts, ncpus, &regular))
		return -1;
	layout = tm_dat_version_find(opts->version);
	w.compressed = layout->compression && opts->compression == TM_COMPRESS_ZSTD;
	w.use_cfr = regular;
	if (write_geometry(&w) || write_blobs(&w, cpus, n))
		goto out;
	build_payloads(&w);
	for (i = 0; i < TM_META_COUNT; i++) {
		if (w.payload[i].err) {
			tm_fail(ENOMEM, "trace.dat metadata");
			goto out;
		}
	}
	ret = layout->write(&w);
out:
	for (i = 0; i < TM_META_COUNT; i++)
		tm_buf_free(&w.payload[i]);
	free(w.blobs);
	free(w.copy_buf);
	return ret;
}
