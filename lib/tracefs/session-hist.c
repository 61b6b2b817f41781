// SPDX-License-Identifier: GPL-2.0-only
/*
 * session-hist.c - the histograms of -R 'hist:...' triggers, read from the instance
 * at stop, before it goes: only the systems with an enabled event are searched.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/internal.h"
#include "tm-session.h"

/* Does the trigger file's text hold an active hist trigger (a line "hist:...")? */
static bool has_hist(const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "hist:", 5))
			return true;
	return false;
}

/* events/<sys>/<event>/hist behind a "# events/sys/event/hist" line, if it has one. */
static int hist_of(struct tm_buf *out, const char *dir, const char *sys, const char *ev)
{
	char path[PATH_MAX];
	char *text;
	int ret;

	if (tm_path(path, sizeof(path), "%s/events/%s/%s/trigger", dir, sys, ev))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return errno == ENOENT ? 0 : -1;
	ret = has_hist(text);
	free(text);
	if (!ret)
		return 0;
	if (tm_path(path, sizeof(path), "%s/events/%s/%s/hist", dir, sys, ev))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	tm_buf_put(out, "# events/", 9);
	tm_buf_put(out, sys, strlen(sys));
	tm_buf_put(out, "/", 1);
	tm_buf_put(out, ev, strlen(ev));
	tm_buf_put(out, "/hist\n", 6);
	tm_buf_put(out, text, strlen(text));
	free(text);
	return out->err ? tm_fail(out->err, "histogram of %s:%s", sys, ev) : 0;
}

char *tm_session_hists(const struct tm_session *s)
{
	const char *const *sys = tm_session_event_systems(s);
	const char *dir = tm_session_dir(s);
	struct tm_buf out = { 0 };
	char path[PATH_MAX];

	for (; *sys; sys++) {
		struct dirent *d;
		DIR *dd;
		int ret = 0;

		if (tm_path(path, sizeof(path), "%s/events/%s", dir, *sys))
			goto fail;
		dd = opendir(path);
		if (!dd) {
			tm_fail(errno, "open %s", path);
			goto fail;
		}
		while (!ret && (d = readdir(dd)))
			if (d->d_name[0] != '.' && d->d_type == DT_DIR)
				ret = hist_of(&out, dir, *sys, d->d_name);
		closedir(dd);
		if (ret)
			goto fail;
	}
	tm_buf_putstr(&out, "");
	if (out.err) {
		tm_fail(out.err, "histograms");
		goto fail;
	}
	return (char *)out.data;
fail:
	tm_buf_free(&out);
	return NULL;
}
