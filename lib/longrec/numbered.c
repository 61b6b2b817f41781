// SPDX-License-Identifier: GPL-2.0-only
/*
 * numbered.c - a long recording's numbered files OUTPUT.0001.dat, ...:
 * each one a complete trace.dat written while the recording goes on, from
 * the flight window (a dump) or the rotating spools (a switch); --max-files.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "longrec-internal.h"
#include "record/record-internal.h"
#include "record/spool.h"
#include "tracefs/tracefs-internal.h"
#include "util/tm-error.h"
#include "util/tm-outfile.h"
#include "tracefs/tm-session.h"
#include "dat/tm-write.h"

#define TM_FLIGHT_CHUNK_BYTES	(128u << 10)	/* of pages per flight chunk, at most */

struct tm_longrec {
	struct tm_longrec_opts	opts;
	char			*path;
	const struct tm_session	*sess;
	struct tm_flight	*flight;	/* a flight window, or */
	struct tm_rotor		*rotor;		/* rotating spools */
	unsigned int		written;	/* files so far */
	double			began;		/* when the current rotation file began */
	uint64_t		trace_id;	/* every file's TRACEID: one recording */
	bool			noted;		/* a flight recording's OUTPUT.spool-info */
	unsigned int		noted_upto;	/* rotation: notes up to this number */
	bool			kept;		/* a file failed: its spools stay, noted */
	struct timespec		opened;		/* wall clock: files older are not ours */
};

static double monotonic_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A flight window lives in memory: what a killed recorder leaves is what its
 * instance's ring still holds. The note (OUTPUT.spool-info, no spools) lets
 * `tracemap recover OUTPUT` take it, and `reset` keep the instance for it.
 */
static int longrec_note(struct tm_longrec *lr)
{
	bool live;

	if (!lr->opts.out.instance)
		return 0;
	if (tm_recfile_note(&lr->opts.out, lr->path, NULL, &live))
		return -1;
	lr->noted = true;
	return 0;
}

/*
 * Rotating spools are PREFIX.cpuN.spool with PREFIX the numbered file's name:
 * each number gets its note before its spools exist, so that a killed
 * rotation's spools are `tracemap recover OUTPUT.NNNN.dat`'s to save. Two
 * numbers have notes while a file is written after a cut; the registry
 * links the newest, which owns what the ring still holds (recover.c).
 */
static int longrec_note_number(struct tm_longrec *lr, unsigned int n)
{
	char name[PATH_MAX], previous[PATH_MAX];
	bool live;

	if (!lr->opts.out.instance)
		return 0;
	if (tm_longrec_name(name, sizeof(name), lr->path, n) ||
	    (n > 1 && tm_longrec_name(previous, sizeof(previous), lr->path, n - 1)) ||
	    tm_recfile_note(&lr->opts.out, name, n > 1 ? previous : NULL, &live))
		return -1;
	lr->noted_upto = n;
	return 0;
}

/*
 * After the cut: what number n's files hold of each CPU, in number n + 1's
 * note. The kernel keeps a CPU's reader sub-buffer, handed out in part at the
 * cut, until more comes; recover of n + 1 rereads it and drops those records.
 */
static int longrec_note_cut(struct tm_longrec *lr, unsigned int n)
{
	char name[PATH_MAX];

	if (!lr->opts.out.instance)
		return 0;
	if (tm_longrec_name(name, sizeof(name), lr->path, n + 1))
		return -1;
	return tm_spool_info_add_cuts(name, tm_rotor_cut_times(lr->rotor), lr->opts.out.ncpus);
}

static void longrec_unnote_number(struct tm_longrec *lr, unsigned int n)
{
	char name[PATH_MAX];

	if (n && n <= lr->noted_upto && !tm_longrec_name(name, sizeof(name), lr->path, n))
		tm_spool_info_remove(name);
}

/* s with glob(3)'s special characters quoted, into buf. */
static int glob_escape(char *buf, size_t len, const char *path)
{
	size_t n = 0;

	for (const char *s = path; *s; s++) {
		if (n + 3 > len)
			return tm_failx(ENAMETOOLONG, "path too long: %s", path);
		if (strchr("*?[\\", *s))
			buf[n++] = '\\';
		buf[n++] = *s;
	}
	buf[n] = '\0';
	return 0;
}

/*
 * A note of an earlier, killed rotation of the same OUTPUT (OUTPUT.NNNN.dat's)
 * is refused at the start, as recfile.c refuses OUTPUT's own, rather than at
 * the cut that would reach its number.
 */
static int longrec_check_notes(const struct tm_longrec *lr)
{
	char name[PATH_MAX], pattern[2 * PATH_MAX], *dot;
	glob_t g;
	int ret = 0;

	if (tm_longrec_name(name, sizeof(name), lr->path, 0))
		return -1;
	dot = strrchr(name, '.');
	dot[-4] = '\0';
	if (glob_escape(pattern, sizeof(pattern), name) ||
	    tm_path(pattern + strlen(pattern), sizeof(pattern) - strlen(pattern),
		    "[0-9][0-9][0-9][0-9]*.dat.spool-info"))
		return -1;
	if (glob(pattern, GLOB_NOSORT, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc && !ret; i++) {
		struct tm_spool_info info;
		size_t len = strlen(g.gl_pathv[i]) - strlen(".spool-info");

		g.gl_pathv[i][len] = '\0';
		if (!tm_spool_info_read(g.gl_pathv[i], &info))
			ret = tm_failx(EEXIST, "%s.spool-info: what a %s recording (tracemap pid "
				       "%d) left is there: run 'tracemap recover %s' first, or "
				       "use another -o", g.gl_pathv[i],
				       tm_pid_runs_tracemap(info.pid) ? "running" : "killed",
				       (int)info.pid, g.gl_pathv[i]);
	}
	globfree(&g);
	return ret;
}

static struct tm_rotor *longrec_rotor(struct tm_longrec *lr, const struct tm_spool_opts *so)
{
	if (longrec_check_notes(lr) || longrec_note_number(lr, 1))
		return NULL;
	return tm_rotor_new(lr->path, so, lr->opts.out.ncpus, lr->opts.out.cpus);
}

struct tm_longrec *tm_longrec_open(const struct tm_longrec_opts *opts,
				   const struct tm_session *s)
{
	struct tm_spool_opts so = tm_recfile_spool_opts(&opts->out);
	struct tm_longrec *lr;

	if (!strcmp(opts->out.path, "-")) {
		tm_failx(EINVAL, "numbered output files cannot go to standard output (use -o FILE)");
		return NULL;
	}
	if (tm_outfile_is_stream(opts->out.path)) {
		tm_failx(EINVAL, "numbered output files need -o to name a regular file: %s is not "
			 "one", opts->out.path);
		return NULL;
	}
	lr = calloc(1, sizeof(*lr));
	if (!lr || !(lr->path = strdup(opts->out.path))) {
		free(lr);
		tm_fail(ENOMEM, "output %s", opts->out.path);
		return NULL;
	}
	lr->opts = *opts;
	lr->opts.out.path = lr->path;
	lr->sess = s;
	lr->began = monotonic_secs();
	clock_gettime(CLOCK_REALTIME, &lr->opened);
	if (getrandom(&lr->trace_id, sizeof(lr->trace_id), GRND_NONBLOCK) != sizeof(lr->trace_id))
		lr->trace_id = ((uint64_t)getpid() << 32) ^ (uint64_t)lr->opened.tv_nsec;
	lr->trace_id |= 1;	/* never 0: the writer's "random" */
	if (opts->flight_size) {
		/*
		 * The window drops whole chunks: at most 128 KiB of pages each
		 * (the size bench/flight.sh measured), so that a small window
		 * still holds several per CPU; record's 1 MiB chunks would leave
		 * a 64K window one chunk for all CPUs.
		 */
		size_t pages = TM_FLIGHT_CHUNK_BYTES / so.page_size;
		struct tm_flight_opts fo = {
			.size = opts->flight_size, .compression = so.compression,
			.level = so.level, .adaptive = so.adaptive, .page_size = so.page_size,
			.chunk_pages = so.chunk_pages < pages || !pages ? so.chunk_pages : pages,
			.ncpus = opts->out.ncpus, .cpus = opts->out.cpus,
		};

		lr->flight = tm_flight_new(&fo);
		if (lr->flight && longrec_note(lr)) {
			tm_longrec_close(lr);
			return NULL;
		}
	} else {
		lr->rotor = longrec_rotor(lr, &so);
	}
	if (!lr->flight && !lr->rotor) {
		tm_longrec_close(lr);
		return NULL;
	}
	return lr;
}

struct tm_page_sink tm_longrec_sink(struct tm_longrec *lr)
{
	return lr->flight ? tm_flight_sink(lr->flight) : tm_rotor_sink(lr->rotor);
}

static struct tm_meta *longrec_meta(const struct tm_longrec *lr)
{
	return tm_meta_collect(tm_session_tracefs(lr->sess), tm_session_name(lr->sess),
			       lr->opts.out.ncpus);
}

bool tm_longrec_due(struct tm_longrec *lr)
{
	const struct tm_longrec_opts *o = &lr->opts;

	if (!lr->rotor)
		return false;
	if (o->switch_secs > 0 && monotonic_secs() - lr->began >= o->switch_secs)
		return true;
	/* event data only, as perf counts it: the ~1 MB of metadata each file has is not */
	return o->switch_bytes && tm_rotor_bytes(lr->rotor) >= o->switch_bytes;
}

/* Beyond --max-files: remove the file max_files numbers before the newest. */
static void longrec_prune(struct tm_longrec *lr, struct tm_longrec_file *file)
{
	char old[PATH_MAX];

	if (!lr->opts.max_files || lr->written <= lr->opts.max_files)
		return;
	if (tm_longrec_name(old, sizeof(old), lr->path, lr->written - lr->opts.max_files))
		return;
	/* only a file this recording wrote: not a device someone put there */
	if (!tm_outfile_is_stream(old) && !unlink(old))
		snprintf(file->removed, sizeof(file->removed), "%s", old);
}

/*
 * After the last file: the numbered files that follow it and were there
 * before this recording began are an earlier run's, which would otherwise
 * be mixed with ours by OUTPUT.*.dat. Only regular files, up to the first gap.
 */
static void longrec_remove_stale(struct tm_longrec *lr, struct tm_longrec_file *file)
{
	char name[PATH_MAX];
	struct stat st;

	for (unsigned int n = lr->written + 1;; n++) {
		if (tm_longrec_name(name, sizeof(name), lr->path, n) || lstat(name, &st) ||
		    !S_ISREG(st.st_mode))
			return;
		if (st.st_mtim.tv_sec > lr->opened.tv_sec ||
		    (st.st_mtim.tv_sec == lr->opened.tv_sec &&
		     st.st_mtim.tv_nsec >= lr->opened.tv_nsec))
			return;		/* written since we began: not an earlier run's */
		if (unlink(name))
			return;
		if (!file->nstale++)
			snprintf(file->stale, sizeof(file->stale), "%s", name);
	}
}

/* The data part of a file: a dump of the window or the rotated spools. */
static int longrec_data(struct tm_longrec *lr, int fd, struct tm_meta *meta, bool final,
			   struct tm_longrec_file *file)
{
	struct tm_write_opts wo = tm_recfile_write_opts(&lr->opts.out);
	struct tm_spool **spools;

	wo.trace_id = lr->trace_id;
	if (lr->flight) {
		file->flight = true;
		return tm_flight_dump(lr->flight, fd, meta, &wo, &file->dump);
	}
	if (tm_rotor_take(lr->rotor, final, &spools))
		return -1;
	return tm_spools_write_dat(fd, meta, spools, lr->opts.out.ncpus, &wo);
}

/*
 * A numbered file's spools go once it is written. When it failed they stay
 * with their note for `tracemap recover`, and so do the next number's,
 * which hold what came after the cut (the recording stops): the message
 * says where. The failed file itself is gone (its space back).
 */
static int longrec_release(struct tm_longrec *lr, bool final, const char *path, int ret,
			   int err)
{
	char why[PATH_MAX + 256], next[PATH_MAX];

	tm_rotor_release(lr->rotor, !ret);
	if (!ret)
		return 0;
	lr->kept = true;
	snprintf(why, sizeof(why), "%s", tm_last_error());
	if (final || tm_longrec_name(next, sizeof(next), lr->path, lr->written + 2))
		return tm_failx(err, "%s; the recorded data is kept in %s.cpu*.spool: "
				"free space, then run 'tracemap recover %s'", why, path, path);
	return tm_failx(err, "%s; the recorded data is kept in %s.cpu*.spool and, from "
			"the cut on, in %s.cpu*.spool: free space, then run 'tracemap recover' "
			"on %s and %s", why, path, next, path, next);
}

/* Write the next numbered file: metadata as of now, then the data. */
static int longrec_write_file(struct tm_longrec *lr, bool final, struct tm_longrec_file *file)
{
	struct tm_outfile out = { .fd = -1 };
	struct tm_meta *meta;
	struct stat st;
	int ret = -1, err;

	memset(file, 0, sizeof(*file));
	if (tm_longrec_name(file->path, sizeof(file->path), lr->path, lr->written + 1))
		return -1;
	meta = longrec_meta(lr);
	if (!meta)
		goto out;
	if (tm_meta_warning(meta))
		snprintf(file->warning, sizeof(file->warning), "%s", tm_meta_warning(meta));
	if (tm_outfile_open(&out, file->path, TM_OUTFILE_TRUNCATE))
		goto out;
	if (longrec_data(lr, out.fd, meta, final, file)) {
		tm_fail_prefix("write %s", file->path);
		goto out;
	}
	if (!fstat(out.fd, &st))
		file->bytes = st.st_size;
	if (tm_outfile_close(&out, true))
		goto out;
	lr->written++;
	lr->began = monotonic_secs();
	longrec_prune(lr, file);
	if (final)
		longrec_remove_stale(lr, file);
	ret = 0;
out:
	err = errno;
	/* a failed file is removed (nothing else: a device stays) */
	tm_outfile_close(&out, !ret);
	tm_meta_free(meta);
	if (lr->rotor)
		ret = longrec_release(lr, final, file->path, ret, err);
	return ret;
}

/* The next number's note before the cut creates its spools; this one's after its file. */
int tm_longrec_write(struct tm_longrec *lr, struct tm_recorder *rec,
		     struct tm_longrec_file *file)
{
	unsigned int n = lr->written + 1;
	int ret;

	if (lr->rotor && longrec_note_number(lr, n + 1))
		return -1;
	if (tm_recorder_cut(rec) || (lr->rotor && longrec_note_cut(lr, n)))
		return -1;
	ret = longrec_write_file(lr, false, file);
	if (lr->rotor && !lr->kept)
		longrec_unnote_number(lr, n);
	return ret;
}

int tm_longrec_finish(struct tm_longrec *lr, struct tm_longrec_file *file)
{
	unsigned int n = lr->written + 1;
	int ret;

	if (lr->flight && tm_flight_flush(lr->flight))
		return -1;
	ret = longrec_write_file(lr, true, file);
	if (lr->rotor && !lr->kept)
		longrec_unnote_number(lr, n);
	return ret;
}

void tm_longrec_close(struct tm_longrec *lr)
{
	if (!lr)
		return;
	tm_flight_free(lr->flight);
	tm_rotor_free(lr->rotor);
	if (lr->noted)
		tm_spool_info_remove(lr->path);
	/* the spools went with the rotor: their notes go too (kept: both stay) */
	for (unsigned int n = lr->written + 1; !lr->kept && n <= lr->noted_upto; n++)
		longrec_unnote_number(lr, n);
	free(lr->path);
	free(lr);
}
