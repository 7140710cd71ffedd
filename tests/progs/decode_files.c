// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced program for cli_decode.test.sh (strace's decoding, issue #35):
 * the file calls strace decodes, in an empty directory DIR that it leaves
 * empty, with fixed names, sizes and times: the same at every run.
 * usage: decode_files DIR
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <termios.h>
#include <unistd.h>

static void check(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(2);
	}
}

static void data_calls(void)
{
	static const char text[] = "line one\nline two\ttab\x01\x7f\n";
	char a[6], b[10], buf[64];
	struct iovec out[2] = { { "head:", 5 }, { "tail\n", 5 } };
	struct iovec in[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct stat st;
	int fd;

	fd = openat(AT_FDCWD, "data.txt", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	check(fd >= 0, "openat");
	check(write(fd, text, sizeof(text) - 1) == sizeof(text) - 1, "write");
	check(pwrite(fd, "LINE", 4, 0) == 4, "pwrite64");
	check(writev(fd, out, 2) == 10, "writev");
	check(lseek(fd, 0, SEEK_SET) == 0, "lseek");
	check(read(fd, buf, sizeof(buf)) == sizeof(text) - 1 + 10, "read");
	check(read(fd, buf, sizeof(buf)) == 0, "read at end");
	check(pread(fd, buf, 8, 9) == 8, "pread64");
	check(lseek(fd, -10, SEEK_END) >= 0, "lseek end");
	check(readv(fd, in, 2) == 10, "readv");
	check(!fstat(fd, &st), "fstat");
	check(fcntl(fd, F_GETFL) >= 0, "F_GETFL");
	check(!fcntl(fd, F_SETFD, FD_CLOEXEC), "F_SETFD");
	check(fcntl(fd, F_GETFD) == FD_CLOEXEC, "F_GETFD");
	check(dup3(fd, 10, O_CLOEXEC) == 10, "dup3");
	check(fcntl(10, F_DUPFD_CLOEXEC, 20) == 20, "F_DUPFD_CLOEXEC");
	/* a regular file is no terminal */
	struct termios tio;
	check(ioctl(fd, TCGETS, &tio) < 0, "TCGETS");
	check(!fchmod(fd, 0600), "fchmod");
	check(!fchown(fd, getuid(), getgid()), "fchown");
	close(20);
	close(10);
	close(fd);
}

static void pipe_calls(void)
{
	int p[2], n = 0;

	check(!pipe2(p, O_CLOEXEC | O_NONBLOCK), "pipe2");
	check(write(p[1], "0123456789", 10) == 10, "write pipe");
	check(!ioctl(p[0], FIONREAD, &n) && n == 10, "FIONREAD");
	close(p[0]);
	close(p[1]);
}

static void name_calls(void)
{
	struct timespec times[2] = { { 86400, 500 }, { 0, UTIME_OMIT } };
	struct stat st;
	struct statx stx;
	char buf[256];
	ssize_t n;
	int fd;

	check(!mkdir("sub", 0755), "mkdir");
	check(!rename("data.txt", "sub/moved.txt"), "rename");
	check(!symlink("sub/moved.txt", "link"), "symlink");
	n = readlink("link", buf, sizeof(buf));
	check(n == 13, "readlink");
	check(!fstatat(AT_FDCWD, "sub/moved.txt", &st, 0), "newfstatat");
	check(!fstatat(AT_FDCWD, "link", &st, AT_SYMLINK_NOFOLLOW), "newfstatat link");
	check(!statx(AT_FDCWD, "sub/moved.txt", AT_STATX_SYNC_AS_STAT, STATX_TYPE | STATX_SIZE,
		     &stx),
	      "statx");
	check(!access("sub/moved.txt", R_OK | W_OK), "access");
	check(access("nonexistent", F_OK) < 0, "access missing");
	check(!syscall(SYS_faccessat2, AT_FDCWD, "sub/moved.txt", R_OK, AT_EACCESS), "faccessat2");
	check(!utimensat(AT_FDCWD, "sub/moved.txt", times, 0), "utimensat");
	check(!chmod("sub/moved.txt", 0640), "chmod");

	fd = open("sub", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	check(fd >= 0, "open dir");
	check(syscall(SYS_getdents64, fd, buf, sizeof(buf)) > 0, "getdents64");
	close(fd);

	check(!unlink("link"), "unlink");
	check(!unlinkat(AT_FDCWD, "sub/moved.txt", 0), "unlinkat");
	check(rmdir("nonexistent") < 0, "rmdir missing");
	check(!rmdir("sub"), "rmdir");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: decode_files DIR\n");
		return 2;
	}
	check(!chdir(argv[1]), argv[1]);
	data_calls();
	pipe_calls();
	name_calls();
	puts("decode_files done");
	return 0;
}
