// SPDX-License-Identifier: GPL-2.0-only
/* dat-read.c - opening a trace.dat file: the §1 prologue, the version's layout, closing it. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat-internal.h"
#include "dat-format.h"
#include "dat-version.h"
#include "codec.h"
#include "tm-dat.h"

static int dat_check_file(struct tm_dat *dat)
{
	struct stat st;

	if (fstat(dat->fd, &st))
		return tm_fail(errno, "%s: stat", dat->name);
	if (S_ISDIR(st.st_mode))
		return tm_failx(EISDIR, "%s: is a directory, not a trace.dat file", dat->name);
	if (!S_ISREG(st.st_mode)) {
		/* a pipe or device: read it whole into a temporary file that we own */
		int fd = dat->fd;

		if (tm_dat_unpipe(&fd, dat->name, st.st_mode))
			return -1;
		if (dat->own_fd)
			close(dat->fd);
		dat->fd = fd;
		dat->own_fd = true;
		if (fstat(dat->fd, &st))
			return tm_fail(errno, "%s: stat", dat->name);
	}
	dat->size = st.st_size;
	return 0;
}

static int dat_read_prologue(struct tm_dat *dat)
{
	uint8_t p[TM_DAT_PROLOGUE_LEN];
	char known[64];

	if (dat->size < TM_DAT_PROLOGUE_LEN)
		return tm_dat_err(dat, "file of %llu bytes is too short for a trace.dat prologue "
				  "(18 bytes) at offset 0", (unsigned long long)dat->size);
	if (tm_dat_pread(dat, p, sizeof(p), 0, "prologue"))
		return -1;
	if (memcmp(p, TM_DAT_MAGIC, TM_DAT_MAGIC_LEN))
		return tm_dat_err(dat, "not a trace.dat file: bad magic at offset 0");
	tm_dat_versions_text(known, sizeof(known), " and ");
	if (p[10] < '0' || p[10] > '9' || p[11] != '\0')
		return tm_dat_err(dat, "unsupported file version \"%.2s\" at offset 10 (%s are "
				  "known)", isprint(p[10]) && isprint(p[11]) ? (char *)p + 10 : "?",
				  known);
	dat->version = p[10] - '0';
	dat->layout = tm_dat_version_reader(dat->version);
	if (!dat->layout)
		return tm_dat_err(dat, "unsupported file version %d at offset 10 (%s are known)",
				  dat->version, known);
	if (p[12] > 1)
		return tm_dat_err(dat, "bad endian flag %u at offset 12", p[12]);
	dat->big_endian = p[12];
	dat->swap = dat->big_endian != tm_host_is_big_endian();
	dat->long_size = p[13];
	if (dat->long_size != 4 && dat->long_size != 8)
		return tm_dat_err(dat, "bad long size %d at offset 13", dat->long_size);
	dat->commit_size = dat->long_size;
	dat->page_size = tm_get32(p + 14, dat->swap);
	if (dat->page_size < TM_DAT_MIN_PAGE || dat->page_size > TM_DAT_MAX_PAGE)
		return tm_dat_err(dat, "page size %u out of range at offset 14", dat->page_size);
	return 0;
}

static struct tm_dat *dat_open(int fd, const char *name, bool own)
{
	struct tm_dat *dat = calloc(1, sizeof(*dat));

	if (!dat) {
		tm_fail(ENOMEM, "%s", name);
		goto fail_fd;
	}
	dat->fd = fd;
	dat->own_fd = own;
	dat->cpucount = -1;
	dat->header_cpus = -1;
	dat->name = strdup(name);
	dat->bufs = calloc(1, sizeof(*dat->bufs));
	if (!dat->name || !dat->bufs || !(dat->bufs[0].name = strdup(""))) {
		tm_fail(ENOMEM, "%s", name);
		goto fail;
	}
	dat->nbuf = 1;
	if (dat_check_file(dat) || dat_read_prologue(dat))
		goto fail;
	dat->bufs[0].page_size = dat->page_size;
	if (dat->layout->read(dat, TM_DAT_PROLOGUE_LEN))
		goto fail;
	return dat;
fail:
	tm_dat_close(dat);
	return NULL;
fail_fd:
	if (own)
		close(fd);
	return NULL;
}

struct tm_dat *tm_dat_open_fd(int fd, const char *name)
{
	return dat_open(fd, name ? name : "trace.dat", false);
}

struct tm_dat *tm_dat_open(const char *path)
{
	int fd;

	if (!strcmp(path, "-")) {
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
		if (fd < 0) {
			tm_fail(errno, "standard input");
			return NULL;
		}
		return dat_open(fd, "standard input", true);
	}
	/* O_NONBLOCK: a FIFO without a writer must not block the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		tm_fail(errno, "open %s", path);
		return NULL;
	}
	return dat_open(fd, path, true);
}

static void dat_free_meta(struct tm_dat *dat)
{
	struct tm_text *texts[] = {
		&dat->header_page, &dat->header_event, &dat->kallsyms, &dat->printk,
		&dat->cmdlines, &dat->cpustat,
	};

	for (size_t i = 0; i < TM_ARRAY_SIZE(texts); i++)
		tm_text_free(texts[i]);
	tm_texts_free(dat->ftrace, dat->nftrace);
	tm_systems_free(dat->sys, dat->nsys);
}

void tm_dat_close(struct tm_dat *dat)
{
	int i;

	if (!dat)
		return;
	dat_free_meta(dat);
	for (i = 0; i < dat->nbuf; i++) {
		free(dat->bufs[i].name);
		free(dat->bufs[i].clock);
		free(dat->bufs[i].cpus);
	}
	free(dat->bufs);
	free(dat->clock);
	free(dat->uname);
	free(dat->tracer_version);
	free(dat->last_boot_info);
	free(dat->modules);
	free(dat->comp_version);
	tm_codec_free(dat->codec);
	if (dat->own_fd)
		close(dat->fd);
	free(dat->name);
	free(dat);
}
