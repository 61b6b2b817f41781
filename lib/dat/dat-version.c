// SPDX-License-Identifier: GPL-2.0-only
/* dat-version.c - the table of trace.dat versions: what each holds, its reader, its writer. */
#include <stdio.h>

#include "dat-version.h"

/* Oldest first. */
static const struct tm_dat_version_ops tm_dat_versions[] = {
	{ .version = 6, .compression = false, .read = tm_dat_read_v6, .write = tm_dat_write_v6 },
	{ .version = 7, .compression = true, .read = tm_dat_read_v7, .write = tm_dat_write_v7 },
};

#define TM_NVERSIONS	TM_ARRAY_SIZE(tm_dat_versions)

const struct tm_dat_version_ops *tm_dat_version_find(int version)
{
	size_t i;

	for (i = 0; i < TM_NVERSIONS; i++)
		if (tm_dat_versions[i].version == version)
			return &tm_dat_versions[i];
	return NULL;
}

const struct tm_dat_version_ops *tm_dat_version_reader(int version)
{
	if (version < tm_dat_versions[0].version)
		return &tm_dat_versions[0];
	return tm_dat_version_find(version);
}

void tm_dat_versions_text(char *buf, size_t len, const char *conj)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < TM_NVERSIONS && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%d",
			      !i ? "" : i + 1 == TM_NVERSIONS ? conj : ", ",
			      tm_dat_versions[i].version);
}

bool tm_dat_version_supported(int version)
{
	return tm_dat_version_find(version) != NULL;
}

bool tm_dat_version_compressed(int version)
{
	const struct tm_dat_version_ops *v = tm_dat_version_find(version);

	return v && v->compression;
}

void tm_dat_version_range(int *oldest, int *newest)
{
	*oldest = tm_dat_versions[0].version;
	*newest = tm_dat_versions[TM_NVERSIONS - 1].version;
}
