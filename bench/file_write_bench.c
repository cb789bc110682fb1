/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * file_write_bench.c - how fast a new file can be filled, the way a doca_dma_copy destination
 * could be written: the choices behind apps/dma-copy (docs/performance.md, "File copy").
 *
 *   file_write_bench [DIR] [MiB] [RUNS]     (default: $TMPDIR or /tmp, 256, 3)
 *
 * Each method creates a new file of MiB in DIR, fills it from a buffer already in memory in
 * 1 MiB pieces and closes it (no fsync, like cp); median (min-max) GB/s of RUNS fresh files,
 * the methods interleaved so that all see the same machine. Each timed fill follows an untimed
 * one of the same method, whose pages it gets back: on a VM that hands free pages to its
 * hypervisor, a fill that got such pages paid a fault in the hypervisor for each, and which
 * method did depended on the order (2 GiB, 5 runs, GB/s: fallocate+pwrite 0.90 run first of
 * each round and 5.94 run last, ftruncate+pwrite 5.09 second and 0.91 fourth):
 *   fallocate+pwrite   blocks reserved first, then pwrite() of each piece (a 16 MiB hot ring)
 *   ftruncate+pwrite   sparse file, pwrite() of each piece
 *   fallocate+mmap     reserved, mapped shared, each piece stored with memcpy()
 *   fallocate+mmap+pw  the same with MADV_POPULATE_WRITE of each piece before its memcpy()
 *   O_DIRECT pwrite    reserved, written past the page cache
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define PIECE	 (1ul << 20)
#define RING	 16
#define METHODS	 5
#define MAX_RUNS 31

static const char *const names[METHODS] = {"fallocate+pwrite", "ftruncate+pwrite", "fallocate+mmap",
					   "fallocate+mmap+pw", "O_DIRECT pwrite"};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Fills @path with @size bytes of @src by method @m; returns GB/s, 0 when the file system does
 * not support the method (O_DIRECT on tmpfs), or -errno on failure.
 */
static double fill(int m, const char *path, const unsigned char *src, size_t size, unsigned char *ring)
{
	double t0 = now_s(), t;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | (m == 4 ? O_DIRECT : 0), 0644);
	int err = 0;

	if (fd < 0)
		return m == 4 && errno == EINVAL ? 0 : -errno;
	if (m == 1)
		err = ftruncate(fd, (off_t)size) != 0 ? errno : 0;
	else
		err = posix_fallocate(fd, 0, (off_t)size);
	if (err == 0 && (m == 0 || m == 1 || m == 4)) {
		for (size_t off = 0; off < size && err == 0; off += PIECE) {
			unsigned char *p = ring + (off / PIECE % RING) * PIECE;

			memcpy(p, src + off, PIECE); /* the bytes as a DMA would have left them */
			if (pwrite(fd, p, PIECE, (off_t)off) != (ssize_t)PIECE)
				err = errno ? errno : EIO;
		}
	} else if (err == 0) {
		unsigned char *d = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (d == MAP_FAILED) {
			err = errno;
		} else {
			for (size_t off = 0; off < size; off += PIECE) {
				if (m == 3)
					(void)madvise(d + off, PIECE, MADV_POPULATE_WRITE);
				memcpy(d + off, src + off, PIECE);
			}
			munmap(d, size);
		}
	}
	close(fd);
	t = now_s() - t0;
	unlink(path);
	return err != 0 ? -err : (double)size / t / 1e9;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	long mib = argc > 2 ? strtol(argv[2], NULL, 10) : 256;
	long runs = argc > 3 ? strtol(argv[3], NULL, 10) : 3;
	double r[METHODS][MAX_RUNS];
	unsigned char *src, *ring;
	char path[4096];
	size_t size;

	if (mib < 1 || mib > 65536 || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: file_write_bench [DIR] [MiB 1..65536] [RUNS 1..%d]\n", MAX_RUNS);
		return 2;
	}
	size = (size_t)mib << 20;
	src = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (src == MAP_FAILED || posix_memalign((void **)&ring, 4096, RING * PIECE) != 0) {
		fprintf(stderr, "file_write_bench: no memory for %ld MiB\n", mib);
		return 1;
	}
	for (size_t i = 0; i < size; i += 8) {
		unsigned long long v = i * 0x9E3779B97F4A7C15ull;

		memcpy(src + i, &v, 8);
	}
	memset(ring, 0, RING * PIECE);
	snprintf(path, sizeof(path), "%s/file_write_bench.%d", dir, (int)getpid());
	for (long i = 0; i < runs; i++)
		for (int m = 0; m < METHODS; m++) {
			(void)fill(m, path, src, size, ring); /* see the top: the timed fill reuses its pages */
			r[m][i] = fill(m, path, src, size, ring);
			if (r[m][i] < 0) {
				fprintf(stderr, "file_write_bench: %s into %s failed: %s\n", names[m], path,
					strerror((int)-r[m][i]));
				return 1;
			}
		}
	printf("new %ld MiB file in %s, %ld runs, GB/s median (min-max):\n| method | GB/s |\n|---|---|\n", mib, dir,
	       runs);
	for (int m = 0; m < METHODS; m++) {
		qsort(r[m], (size_t)runs, sizeof(double), cmp_d);
		if (r[m][0] == 0) {
			printf("| %s | - (not supported here) |\n", names[m]);
			continue;
		}
		printf("| %s | %.2f (%.2f-%.2f) |\n", names[m],
		       runs % 2 ? r[m][runs / 2] : (r[m][runs / 2 - 1] + r[m][runs / 2]) / 2, r[m][0], r[m][runs - 1]);
	}
	return 0;
}
