// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_outfile.c - output paths: a regular file is replaced through a
 * temporary or written in place, a device node is written straight through
 * and stays a device, a symbolic link stays a link and its target is what
 * gets written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <stdbool.h>

#include "util/internal.h"
#include "tm_fixtures.h"
#include "tm_test.h"
#include "util/tm-outfile.h"
#include "util/tm-error.h"

/* Write text through a new tm_outfile of path; the close's result. */
static int put(struct tm_test *t, const char *path, int flags, const char *text, bool ok)
{
	struct tm_outfile out;

	if (tm_outfile_open(&out, path, flags)) {
		fprintf(stderr, "  %s\n", tm_last_error());
		t->failures++;
		return -1;
	}
	TM_CHECK_INT(tm_write_all(out.fd, text, strlen(text)), 0);
	return tm_outfile_close(&out, ok);
}

/* The file at path holds exactly want. */
static void check_text(struct tm_test *t, const char *path, const char *want)
{
	char *text = tm_read_file(path, NULL);

	TM_CHECK_STR(text, want);
	free(text);
}

/* The entries of dir, sorted and joined by spaces ("." and ".." left out). */
static void listing(const char *dir, char *buf, size_t len)
{
	char cmd[PATH_MAX + 64];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | tr '\\n' ' '", dir);
	p = popen(cmd, "r");
	n = p ? fread(buf, 1, len - 1, p) : 0;
	buf[n] = '\0';
	if (p)
		pclose(p);
}

TM_TEST(output_replaces_a_regular_file_through_a_temporary)
{
	char *dir = tm_scratch_dir(), path[PATH_MAX], names[512];
	struct tm_outfile out;
	struct stat st;

	TM_REQUIRE(dir);
	snprintf(path, sizeof(path), "%s/t.json", dir);
	TM_REQUIRE(!put(t, path, TM_OUTFILE_REPLACE, "old\n", true));
	chmod(path, 0640);
	TM_REQUIRE(!tm_outfile_open(&out, path, TM_OUTFILE_REPLACE));
	TM_CHECK(!out.stream && out.tmp[0]);
	TM_CHECK(strstr(out.tmp, "/.t.json.") != NULL);
	TM_CHECK_INT(tm_write_all(out.fd, "new\n", 4), 0);
	/* the old file stays whole until the end */
	check_text(t, path, "old\n");
	TM_CHECK_INT(tm_outfile_close(&out, true), 0);
	check_text(t, path, "new\n");
	TM_CHECK(!stat(path, &st) && (st.st_mode & 07777) == 0640);
	/* a failure keeps the old file and leaves no temporary */
	TM_CHECK_INT(put(t, path, TM_OUTFILE_REPLACE, "bad\n", false), 0);
	check_text(t, path, "new\n");
	listing(dir, names, sizeof(names));
	TM_CHECK_STR(names, "t.json ");
	tm_scratch_remove(dir);
	free(dir);
}

TM_TEST(output_writes_a_device_node_straight_through)
{
	char *dir = tm_scratch_dir(), path[PATH_MAX], names[512];
	struct tm_outfile out;
	struct stat st;

	TM_REQUIRE(dir);
	snprintf(path, sizeof(path), "%s/null", dir);
	/* a private null device, never the machine's /dev/null */
	TM_REQUIRE(!mknod(path, S_IFCHR | 0666, makedev(1, 3)));
	TM_CHECK(tm_outfile_is_stream(path));
	for (int flags = 0; flags <= (TM_OUTFILE_REPLACE | TM_OUTFILE_TRUNCATE); flags++) {
		TM_REQUIRE(!tm_outfile_open(&out, path, flags));
		TM_CHECK(out.stream && !out.tmp[0] && !out.owned);
		TM_CHECK_INT(tm_outfile_truncate(&out), 0);
		TM_CHECK_INT(tm_write_all(out.fd, "x\n", 2), 0);
		TM_CHECK_INT(tm_outfile_close(&out, flags & 1), 0);
		TM_CHECK(!lstat(path, &st) && S_ISCHR(st.st_mode));
	}
	listing(dir, names, sizeof(names));
	TM_CHECK_STR(names, "null ");
	tm_scratch_remove(dir);
	free(dir);
}

TM_TEST(output_takes_a_fifo_only_with_a_reader)
{
	char *dir = tm_scratch_dir(), path[PATH_MAX], buf[8];
	struct tm_outfile out;
	struct stat st;
	int rd;

	TM_REQUIRE(dir);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	TM_REQUIRE(!mkfifo(path, 0600));
	/* refused, not waited for: record opens it with the stop signals blocked */
	TM_CHECK_INT(tm_outfile_open(&out, path, TM_OUTFILE_REPLACE), -1);
	TM_CHECK_INT(errno, ENXIO);
	tm_outfile_close(&out, false);
	rd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	TM_REQUIRE(rd >= 0);
	TM_REQUIRE(!tm_outfile_open(&out, path, TM_OUTFILE_REPLACE));
	TM_CHECK(out.stream && !out.tmp[0]);
	/* written blocking again, straight into the FIFO */
	TM_CHECK(!(fcntl(out.fd, F_GETFL) & O_NONBLOCK));
	TM_CHECK_INT(tm_write_all(out.fd, "fifo\n", 5), 0);
	TM_CHECK_INT(tm_outfile_close(&out, true), 0);
	TM_CHECK_INT(read(rd, buf, sizeof(buf)), 5);
	close(rd);
	TM_CHECK(!lstat(path, &st) && S_ISFIFO(st.st_mode));
	tm_scratch_remove(dir);
	free(dir);
}

TM_TEST(output_follows_a_symlink_to_its_target)
{
	char *dir = tm_scratch_dir(), sub[PATH_MAX], link[PATH_MAX + 16], real[PATH_MAX];
	char dangling[PATH_MAX], created[PATH_MAX + 16], names[512], target[PATH_MAX];
	ssize_t n;

	TM_REQUIRE(dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(link, sizeof(link), "%s/link.json", sub);
	snprintf(real, sizeof(real), "%s/real.json", dir);
	TM_REQUIRE(!mkdir(sub, 0755));
	TM_REQUIRE(!put(t, real, 0, "old\n", true));
	/* relative, from the link's own directory */
	TM_REQUIRE(!symlink("../real.json", link));
	for (int flags = 0; flags <= (TM_OUTFILE_REPLACE | TM_OUTFILE_TRUNCATE); flags++) {
		char want[32];

		snprintf(want, sizeof(want), "new %d\n", flags);
		TM_CHECK_INT(put(t, link, flags, want, true), 0);
		n = readlink(link, target, sizeof(target) - 1);
		TM_CHECK_INT(n, 12);
		target[n > 0 ? n : 0] = '\0';
		TM_CHECK_STR(target, "../real.json");
		check_text(t, real, want);
	}
	/* a link to a file not there yet makes that file */
	snprintf(dangling, sizeof(dangling), "%s/dangling.json", dir);
	snprintf(created, sizeof(created), "%s/made.json", sub);
	TM_REQUIRE(!symlink("sub/made.json", dangling));
	TM_CHECK_INT(put(t, dangling, TM_OUTFILE_REPLACE, "made\n", true), 0);
	check_text(t, created, "made\n");
	listing(dir, names, sizeof(names));
	TM_CHECK_STR(names, "dangling.json real.json sub ");
	listing(sub, names, sizeof(names));
	TM_CHECK_STR(names, "link.json made.json ");
	tm_scratch_remove(dir);
	free(dir);
}

TM_TEST(output_in_place_removes_only_what_it_made_or_emptied)
{
	char *dir = tm_scratch_dir(), path[PATH_MAX];
	struct tm_outfile out;

	TM_REQUIRE(dir);
	snprintf(path, sizeof(path), "%s/t.dat", dir);
	/* a new file that failed is removed */
	TM_CHECK_INT(put(t, path, 0, "x", false), 0);
	TM_CHECK(access(path, F_OK) && errno == ENOENT);
	/* an existing one opened in place and not yet emptied stays as it was */
	TM_REQUIRE(!put(t, path, 0, "old", true));
	TM_REQUIRE(!tm_outfile_open(&out, path, 0));
	TM_CHECK(!out.owned);
	TM_CHECK_INT(tm_outfile_close(&out, false), 0);
	check_text(t, path, "old");
	/* emptied at open (TM_OUTFILE_TRUNCATE): nothing of it is left after a failure */
	TM_CHECK_INT(put(t, path, TM_OUTFILE_TRUNCATE, "half", false), 0);
	TM_CHECK(access(path, F_OK) && errno == ENOENT);
	/* a directory is refused */
	TM_CHECK_INT(tm_outfile_open(&out, dir, 0), -1);
	TM_CHECK_INT(errno, EISDIR);
	tm_outfile_close(&out, false);
	tm_scratch_remove(dir);
	free(dir);
}
