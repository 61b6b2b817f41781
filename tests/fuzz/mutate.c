// SPDX-License-Identifier: GPL-2.0-only
/*
 * mutate.c - the mutation test's helper (build/tm-mutate):
 *   tm-mutate make SEED IN OUT   a copy of IN, truncated at a random offset or
 *                                with random bytes changed in its header, its
 *                                metadata or its CPU data (chosen by SEED);
 *                                prints what it did on one line
 *   tm-mutate count FILE         the records in FILE's pages, walked without
 *                                libtraceevent (exit 1 with the error when a
 *                                page or the file cannot be read): the event
 *                                count `report` must account for
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat/dat-internal.h"
#include "tracemap.h"
#include "dat/page.h"

#define HEADER_END	64	/* magic, version, endianness, long and page size */

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint64_t rng_below(uint64_t n)
{
	return n ? rng() % n : 0;
}

/* File offset of the first CPU data (page or chunk) of any buffer, or size if none. */
static uint64_t data_start(const char *path, uint64_t size)
{
	struct tm_dat *dat = tm_dat_open(path);
	uint64_t start = size;
	int buf, cpu;

	if (!dat)
		return size;
	for (buf = 0; buf < tm_dat_buffer_count(dat); buf++) {
		for (cpu = 0; cpu < tm_dat_buffer_cpus(dat, buf); cpu++) {
			struct tm_cursor *cur = tm_cursor_open(dat, buf, cpu);

			if (cur && tm_cursor_next_page(cur) && tm_cursor_offset(cur) < start)
				start = tm_cursor_offset(cur);
			tm_cursor_close(cur);
		}
	}
	tm_dat_close(dat);
	return start;
}

/* A new value for a byte: random, or one likely to break a length or a count. */
static uint8_t new_byte(uint8_t old)
{
	static const uint8_t edge[] = { 0x00, 0xff, 0x7f, 0x80, 0x01, 0x20 };

	switch (rng_below(3)) {
	case 0:
		return (uint8_t)rng();
	case 1:
		return edge[rng_below(sizeof(edge))];
	default:
		return (uint8_t)(old + (rng_below(2) ? 1 : -1));
	}
}

static int make(uint64_t seed, const char *in, const char *out)
{
	static const char *const region_names[] = { "header", "metadata", "data" };
	FILE *f = fopen(in, "rb");
	uint64_t size, start, lo[3], hi[3];
	uint8_t *buf;
	int kind, n, i;

	if (!f || fseek(f, 0, SEEK_END) || (long)(size = (uint64_t)ftell(f)) < 0) {
		fprintf(stderr, "tm-mutate: %s: %s\n", in, strerror(errno));
		return 1;
	}
	buf = malloc(size ? size : 1);
	rewind(f);
	if (!buf || fread(buf, 1, size, f) != size) {
		fprintf(stderr, "tm-mutate: read %s\n", in);
		return 1;
	}
	fclose(f);
	rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
	start = data_start(in, size);
	lo[0] = 0;
	hi[0] = size < HEADER_END ? size : HEADER_END;
	lo[1] = hi[0];
	hi[1] = start > lo[1] ? start : lo[1];
	lo[2] = hi[1];
	hi[2] = size;
	kind = (int)rng_below(4);
	if (kind == 0) {
		size = rng_below(size);
		printf("truncated at %llu\n", (unsigned long long)size);
	} else {
		int r = kind - 1;

		if (hi[r] <= lo[r])
			r = 1;
		n = 1 + (int)rng_below(8);
		for (i = 0; i < n && hi[r] > lo[r]; i++) {
			uint64_t at = lo[r] + rng_below(hi[r] - lo[r]);

			buf[at] = new_byte(buf[at]);
		}
		printf("%d bytes changed in the %s (%llu..%llu)\n", n, region_names[r],
		       (unsigned long long)lo[r], (unsigned long long)hi[r]);
	}
	f = fopen(out, "wb");
	if (!f || fwrite(buf, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "tm-mutate: write %s\n", out);
		return 1;
	}
	free(buf);
	return 0;
}

static int count_cpu(struct tm_dat *dat, int buf, int cpu, uint64_t *n)
{
	struct tm_cursor *cur;
	const void *page;
	int r = 0;

	if (!tm_dat_buffer_cpu_size(dat, buf, cpu))
		return 0;
	errno = 0;
	cur = tm_cursor_open(dat, buf, cpu);
	if (!cur)
		return errno ? -1 : 0;
	while (r >= 0 && (page = tm_cursor_next_page(cur))) {
		struct tm_page pg;
		struct tm_rec rec;

		r = tm_page_init(&pg, page, tm_dat_buffer_page_size(dat, buf),
				 tm_dat_commit_size(dat), tm_dat_big_endian(dat));
		if (r)
			break;
		while ((r = tm_page_next(&pg, &rec)) > 0)
			(*n)++;
	}
	if (r >= 0 && errno)
		r = -1;
	tm_cursor_close(cur);
	return r < 0 ? -1 : 0;
}

static int count(const char *path)
{
	struct tm_dat *dat = tm_dat_open(path);
	uint64_t n = 0;
	int buf, cpu;

	if (!dat)
		goto fail;
	for (buf = 0; buf < tm_dat_buffer_count(dat); buf++)
		for (cpu = 0; cpu < tm_dat_buffer_cpus(dat, buf); cpu++)
			if (count_cpu(dat, buf, cpu, &n))
				goto fail;
	tm_dat_close(dat);
	printf("%llu\n", (unsigned long long)n);
	return 0;
fail:
	printf("error: %s\n", tm_last_error());
	tm_dat_close(dat);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "make"))
		return make(strtoull(argv[2], NULL, 0), argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "count"))
		return count(argv[2]);
	fprintf(stderr, "usage: tm-mutate make SEED IN OUT | tm-mutate count FILE\n");
	return 2;
}
