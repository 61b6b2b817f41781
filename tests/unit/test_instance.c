// SPDX-License-Identifier: GPL-2.0-only
/* test_instance.c - names and owners of tracemap-<pid> instances. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/internal.h"
#include "tm_test.h"
#include "tracefs/tracefs-internal.h"

TM_TEST(instance_name_and_owner)
{
	char name[64];

	tm_instance_name(name, sizeof(name), 4242);
	TM_CHECK_STR(name, "tracemap-4242");
	TM_CHECK_INT(tm_instance_owner(name), 4242);
	TM_CHECK_INT(tm_instance_owner("tracemap-"), -1);
	TM_CHECK_INT(tm_instance_owner("tracemap-0"), -1);
	TM_CHECK_INT(tm_instance_owner("tracemap-12x"), -1);
	TM_CHECK_INT(tm_instance_owner("tracemap--5"), -1);
	TM_CHECK_INT(tm_instance_owner("other-12"), -1);
	TM_CHECK_INT(tm_instance_owner("tracemap-99999999999"), -1);
}

TM_TEST(instance_of_dead_pid_is_stale)
{
	char name[64];
	pid_t pid = fork();

	TM_REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	tm_instance_name(name, sizeof(name), pid);
	TM_CHECK(tm_instance_is_stale(name));
	/* a live process that is not tracemap (this test runner) does not own it either */
	tm_instance_name(name, sizeof(name), getpid());
	TM_CHECK(tm_instance_is_stale(name));
	TM_CHECK(!tm_instance_is_stale("someone-else"));
}
