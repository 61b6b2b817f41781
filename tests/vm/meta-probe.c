// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta-probe.c - print a mapped trace_pipe_raw's meta page (tests/vm/guest-meta.sh
 * builds and runs it in a guest): at the mapping, then after each of N GET_READERs.
 * Usage: meta-probe PATH [N]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

struct meta {
	uint32_t meta_page_size, meta_struct_len, subbuf_size, nr_subbufs;
	uint64_t lost_events;
	uint32_t id, read;
	uint64_t flags, entries, overrun, read_events, word1, word2;
};

static void show(const char *when, const volatile struct meta *m)
{
	printf("%s meta_page_size=%u struct_len=%u subbuf_size=%u nr_subbufs=%u "
	       "lost_events=%llu reader.id=%u reader.read=%u entries=%llu overrun=%llu "
	       "read=%llu word1=%llu word2=%llu\n", when, m->meta_page_size,
	       m->meta_struct_len, m->subbuf_size, m->nr_subbufs,
	       (unsigned long long)m->lost_events, m->id, m->read,
	       (unsigned long long)m->entries, (unsigned long long)m->overrun,
	       (unsigned long long)m->read_events, (unsigned long long)m->word1,
	       (unsigned long long)m->word2);
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 3;
	char when[32];
	struct meta *m;
	int fd;

	if (argc < 2)
		return 2;
	fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		printf("open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	m = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		printf("mmap %s: %s\n", argv[1], strerror(errno));
		return 0;
	}
	show("mapped:", m);
	for (int i = 1; i <= n; i++) {
		if (ioctl(fd, _IO('R', 0x20)) < 0)
			printf("GET_READER: %s\n", strerror(errno));
		snprintf(when, sizeof(when), "get_reader %d:", i);
		show(when, m);
	}
	return 0;
}
