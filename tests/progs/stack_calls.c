// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For tests/cli_stacks.test.sh: opens a path that does not exist from a
 * chain of its own functions (built with frame pointers and debug info),
 * so that a stack trace of that openat names them: main, outer, middle,
 * inner, then libc's open.
 */
#include <fcntl.h>
#include <unistd.h>

__attribute__((noinline)) int inner(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd >= 0)
		close(fd);
	return fd;
}

__attribute__((noinline)) int middle(const char *path)
{
	return inner(path) + 1;
}

__attribute__((noinline)) int outer(const char *path)
{
	return middle(path) + 1;
}

int main(int argc, char **argv)
{
	return outer(argc > 1 ? argv[1] : "/nonexistent/ptbpf-stacks") == 1 ? 0 : 1;
}
