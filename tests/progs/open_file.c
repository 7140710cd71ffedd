/*
 * For tests/system/nonroot.test.sh: opens the file named by its argument (the
 * test installs a copy set-user-ID root, and one the tracer may not read)
 * and exits 0 when it could.
 */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}
