// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For tests/cli/stacks.test.sh: opens a path that does not exist from a
 * chain of its own functions (built with frame pointers and debug info),
 * so that a stack trace of that openat names them: main, outer, middle,
 * inner, then libc's open. With a count, that many times, 50 ms apart
 * (a running process to attach to). With "raw" after the count, inner
 * makes the syscall itself, so that a frame-pointer walk from the syscall
 * starts in a function with frame pointers (libc's open has none).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int raw;

static long raw_open(const char *path)
{
	long ret;
#if defined(__x86_64__)
	register long r10 __asm__("r10") = 0;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(257L /* openat */), "D"(-100L /* AT_FDCWD */), "S"(path), "d"(0L),
			   "r"(r10)
			 : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = 56;   /* openat */
	register long x0 __asm__("x0") = -100; /* AT_FDCWD */
	register long x1 __asm__("x1") = (long)path;
	register long x2 __asm__("x2") = 0;
	register long x3 __asm__("x3") = 0;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	ret = x0;
#else
#error "stack_calls: no raw syscall for this architecture"
#endif
	return ret < 0 ? -1 : ret; /* as open(): -1 */
}

__attribute__((noinline)) int inner(const char *path)
{
	int fd = raw ? (int)raw_open(path) : open(path, O_RDONLY);

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
	const char *path = argc > 1 ? argv[1] : "/nonexistent/ptbpf-stacks";
	int n = argc > 2 ? atoi(argv[2]) : 1, ok = 1;

	raw = argc > 3 && !strcmp(argv[3], "raw");

	for (int i = 0; i < n; i++) {
		if (i)
			usleep(50000);
		ok &= outer(path) == 1;
	}
	return ok ? 0 : 1;
}
