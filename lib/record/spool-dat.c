// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool-dat.c - finished spools as the trace.dat writer's data sources: each
 * one's file moved into the file (copy_file_range where it can).
 */
#include <errno.h>
#include <stdlib.h>

#include "spool.h"
#include "dat/dat-internal.h"

void tm_spool_data(const struct tm_spool *spool, int cpu, struct tm_cpu_data *data)
{
	struct tm_spool_stats st;

	tm_spool_get_stats(spool, &st);
	*data = (struct tm_cpu_data){
		.cpu = cpu, .size = st.pages ? st.file_bytes : 0, .chunks = st.chunks,
		.compressed = tm_spool_compression(spool) != TM_COMPRESS_NONE,
		.page_size = tm_spool_page_size(spool),
		.fd = tm_spool_fd(spool), .name = tm_spool_path(spool),
	};
}

int tm_spools_write_dat(int out_fd, const struct tm_meta *meta, struct tm_spool **spools,
			int ncpus, const struct tm_write_opts *opts)
{
	struct tm_cpu_data *cpus;
	int n = 0, cpu, ret = -1;

	if (ncpus < 0)
		return tm_failx(EINVAL, "trace.dat: bad CPU count %d", ncpus);
	cpus = calloc(ncpus ? ncpus : 1, sizeof(*cpus));
	if (!cpus)
		return tm_fail(ENOMEM, "trace.dat layout");
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (!spools || !spools[cpu])
			continue;
		if (!tm_spool_finished(spools[cpu])) {
			tm_failx(EINVAL, "trace.dat: spool of CPU %d was not finished", cpu);
			goto out;
		}
		tm_spool_data(spools[cpu], cpu, &cpus[n++]);
	}
	ret = tm_dat_write_data(out_fd, meta, cpus, n, ncpus, opts);
out:
	free(cpus);
	return ret;
}
