/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * replay.c - runs a libFuzzer entry point over every file of a corpus directory.
 *
 * Linked with a fuzz target instead of libFuzzer, it lets a plain build with any compiler
 * exercise the seeds as an ordinary test. Each input is handed over in a buffer of exactly its
 * size, so a sanitizer build still catches a read past the end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Returns 0 and the file in a malloc'ed buffer of exactly its size, or -errno. */
static int read_file(int dirfd, const char *name, uint8_t **data, size_t *size)
{
	struct stat st;
	uint8_t *buf;
	size_t len = 0;
	int fd, ret;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		goto out;
	}
	/* malloc(0) may return NULL; a one-byte allocation still has no readable byte past 0. */
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			free(buf);
			goto out;
		}
		len += (size_t)n;
	}
	*data = buf;
	*size = len;
	ret = 0;
out:
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	struct dirent *e;
	DIR *dir;
	int count = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	dir = opendir(argv[1]);
	if (!dir) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while ((e = readdir(dir)) != NULL) {
		uint8_t *data = NULL; /* gcc cannot tell that -errno is never 0 */
		size_t size = 0;
		int ret;

		if (e->d_name[0] == '.')
			continue;
		ret = read_file(dirfd(dir), e->d_name, &data, &size);
		if (ret < 0) {
			fprintf(stderr, "%s/%s: %s\n", argv[1], e->d_name, strerror(-ret));
			closedir(dir);
			return 1;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
		count++;
	}
	closedir(dir);
	/* An empty corpus would make this test pass while checking nothing. */
	if (!count) {
		fprintf(stderr, "%s: no inputs\n", argv[1]);
		return 1;
	}
	printf("%d inputs replayed\n", count);
	return 0;
}
