/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shrink_shim.c - LD_PRELOAD helper of test_dma_copy.sh, faults at points the test controls:
 * - the first time the program reads a file at 8 MiB or beyond (pread(), preadv2()), the file
 *   is cut to 1000000 bytes first, as if another program truncated it at that moment: that
 *   read meets the new end;
 * - with SHIM_ENOSPC_AT=<bytes> in the environment, every pwrite() that would write past that
 *   offset fails with ENOSPC, as on a disk that another program filled during the copy;
 * - with SHIM_FALLOCATE=EOPNOTSUPP or ENOSPC, fallocate() fails with that error, as on a file
 *   system that reserves nothing ahead, or one that cannot hold the file;
 * - with SHIM_NOWAIT=EOPNOTSUPP or EAGAIN, preadv2(RWF_NOWAIT) fails with that error, as on a
 *   file system that cannot say whether a read would wait, or a file never in the page cache.
 */
/* Both names of each are defined here: the header must not rename pread to the 64-bit one. */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define SHRINK_AT (8 << 20)
#define SHRINK_TO 1000000

static int shrunk;

static void maybe_shrink(int fd, off_t off)
{
	char path[64];

	if (shrunk || off < SHRINK_AT)
		return;
	shrunk = 1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd); /* the fd is read-only */
	if (truncate(path, SHRINK_TO) != 0)
		perror("shrink_shim: truncate");
}

ssize_t pread(int fd, void *buf, size_t n, off_t off);
__attribute__((visibility("default"))) ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	ssize_t (*real)(int, void *, size_t, off_t) = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");

	maybe_shrink(fd, off);
	return real(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off);
__attribute__((visibility("default"))) ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	ssize_t (*real)(int, void *, size_t, off_t) =
	    (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread64");

	maybe_shrink(fd, off);
	return real(fd, buf, n, off);
}

/* -1 with errno set when SHIM_NOWAIT asks a read with RWF_NOWAIT to fail, 0 otherwise. */
static int nowait_fault(int flags)
{
	const char *e = getenv("SHIM_NOWAIT");

	if (e == NULL || !(flags & RWF_NOWAIT))
		return 0;
	errno = strcmp(e, "EAGAIN") == 0 ? EAGAIN : EOPNOTSUPP;
	return -1;
}

/* preadv2() and preadv64v2(), through the real one named @sym. */
static ssize_t preadv2_via(const char *sym, int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	ssize_t (*real)(int, const struct iovec *, int, off_t, int) =
	    (ssize_t(*)(int, const struct iovec *, int, off_t, int))dlsym(RTLD_NEXT, sym);

	if (nowait_fault(flags) != 0)
		return -1;
	maybe_shrink(fd, off);
	return real(fd, iov, cnt, off, flags);
}

ssize_t preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags);
__attribute__((visibility("default"))) ssize_t preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	return preadv2_via("preadv2", fd, iov, cnt, off, flags);
}

ssize_t preadv64v2(int fd, const struct iovec *iov, int cnt, off_t off, int flags);
__attribute__((visibility("default"))) ssize_t preadv64v2(int fd, const struct iovec *iov, int cnt, off_t off,
							  int flags)
{
	return preadv2_via("preadv64v2", fd, iov, cnt, off, flags);
}

/* Whether a write of @n bytes at @off runs past SHIM_ENOSPC_AT (errno set when so). */
static int full_at(off_t off, size_t n)
{
	const char *at = getenv("SHIM_ENOSPC_AT");

	if (at == NULL || (long long)off + (long long)n <= atoll(at))
		return 0;
	errno = ENOSPC;
	return 1;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off);
__attribute__((visibility("default"))) ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t (*real)(int, const void *, size_t, off_t) =
	    (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");

	return full_at(off, n) ? -1 : real(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off);
__attribute__((visibility("default"))) ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t (*real)(int, const void *, size_t, off_t) =
	    (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");

	return full_at(off, n) ? -1 : real(fd, buf, n, off);
}

/* -1 with errno set when SHIM_FALLOCATE asks for a failure, 0 to call the real fallocate(). */
static int fallocate_fault(void)
{
	const char *e = getenv("SHIM_FALLOCATE");

	if (e == NULL)
		return 0;
	errno = strcmp(e, "ENOSPC") == 0 ? ENOSPC : EOPNOTSUPP;
	return -1;
}

int fallocate(int fd, int mode, off_t off, off_t len);
__attribute__((visibility("default"))) int fallocate(int fd, int mode, off_t off, off_t len)
{
	int (*real)(int, int, off_t, off_t) = (int (*)(int, int, off_t, off_t))dlsym(RTLD_NEXT, "fallocate");

	return fallocate_fault() != 0 ? -1 : real(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off_t off, off_t len);
__attribute__((visibility("default"))) int fallocate64(int fd, int mode, off_t off, off_t len)
{
	int (*real)(int, int, off_t, off_t) = (int (*)(int, int, off_t, off_t))dlsym(RTLD_NEXT, "fallocate64");

	return fallocate_fault() != 0 ? -1 : real(fd, mode, off, len);
}
