/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the ptbpf --cgroup tests: cg_loop MARKER opens MARKER every 50 ms
 * until killed, and forks nothing (so that the processes of a cgroup, and
 * those left out of it, are the ones the test starts).
 */
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const struct timespec gap = { 0, 50 * 1000 * 1000 };

	if (argc != 2)
		return 2;
	for (;;) {
		int fd = open(argv[1], O_RDONLY | O_CLOEXEC);

		if (fd >= 0)
			close(fd);
		nanosleep(&gap, NULL);
	}
}
