/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shrink_shim.c - LD_PRELOAD helper of test_dma_copy.sh: the first time the program asks the
 * kernel to read a file ahead at 8 MiB or beyond (POSIX_FADV_WILLNEED), the file is cut to
 * 1000000 bytes first, as if another program truncated it at that moment. doca_dma_copy asks
 * for read-ahead before it reads a slice for its checksum, so the checksum then reads pages
 * past the new end: the SIGBUS it must survive, at a point the test controls.
 */
/* Both symbols are defined here: the header must not rename posix_fadvise to the 64-bit one. */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define SHRINK_AT (8 << 20)
#define SHRINK_TO 1000000

static int shrunk;

static void maybe_shrink(int fd, off_t off, int advice)
{
	char path[64];

	if (shrunk || advice != POSIX_FADV_WILLNEED || off < SHRINK_AT)
		return;
	shrunk = 1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd); /* the fd is read-only */
	if (truncate(path, SHRINK_TO) != 0)
		perror("shrink_shim: truncate");
}

int posix_fadvise(int fd, off_t off, off_t len, int advice);
__attribute__((visibility("default"))) int posix_fadvise(int fd, off_t off, off_t len, int advice)
{
	int (*real)(int, off_t, off_t, int) = (int (*)(int, off_t, off_t, int))dlsym(RTLD_NEXT, "posix_fadvise");

	maybe_shrink(fd, off, advice);
	return real(fd, off, len, advice);
}

int posix_fadvise64(int fd, off_t off, off_t len, int advice);
__attribute__((visibility("default"))) int posix_fadvise64(int fd, off_t off, off_t len, int advice)
{
	int (*real)(int, off_t, off_t, int) = (int (*)(int, off_t, off_t, int))dlsym(RTLD_NEXT, "posix_fadvise64");

	maybe_shrink(fd, off, advice);
	return real(fd, off, len, advice);
}
