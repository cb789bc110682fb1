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
 *   file system that cannot say whether a read would wait, or a file never in the page cache;
 * - with SHIM_LIE, doca_dma_copy's messages lie; with SHIM_RECORD, they are recorded (below).
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

/*
 * With SHIM_LIE=<lie>, this side's messages lie to the other side (doca_dma_copy's protocol,
 * apps/dma-copy/dma_copy.h), as a hostile or broken peer would:
 *   progress_past      the DPU side's first PROGRESS claims 2^40 bytes more than landed
 *   filled_past        the host's first FILLED claims 2^40 bytes more than it read in
 *   credit_for_filled  the host sends CREDIT where it means FILLED (it sends the file)
 */
#include "../../apps/dma-copy/dma_copy.h"

static void record(int received, const void *msg, uint32_t len);

static const void *lie(const void *msg, uint32_t len)
{
	static uint8_t buf[sizeof(struct msg_status)];
	static int progress_done, filled_done;
	const char *e = getenv("SHIM_LIE");
	struct msg_status m;

	if (e == NULL || len != sizeof(m))
		return msg;
	memcpy(&m, msg, sizeof(m));
	if (strcmp(e, "progress_past") == 0 && m.hdr.type == MSG_PROGRESS && !progress_done) {
		progress_done = 1;
		m.bytes += 1ull << 40;
	} else if (strcmp(e, "filled_past") == 0 && m.hdr.type == MSG_FILLED && !filled_done) {
		filled_done = 1;
		m.bytes += 1ull << 40;
	} else if (strcmp(e, "credit_for_filled") == 0 && m.hdr.type == MSG_FILLED) {
		m.hdr.type = MSG_CREDIT;
	} else {
		return msg;
	}
	memcpy(buf, &m, sizeof(m)); /* the send copies it before the next message */
	return buf;
}

int doca_comch_server_task_send_alloc_init(void *server, void *peer, const void *msg, uint32_t len, void **task);
__attribute__((visibility("default"))) int
doca_comch_server_task_send_alloc_init(void *server, void *peer, const void *msg, uint32_t len, void **task)
{
	int (*real)(void *, void *, const void *, uint32_t, void **) =
	    (int (*)(void *, void *, const void *, uint32_t, void **))dlsym(RTLD_NEXT,
									    "doca_comch_server_task_send_alloc_init");

	const void *sent = lie(msg, len);
	int ret = real(server, peer, sent, len, task);

	if (ret == 0)
		record(0, sent, len);
	return ret;
}

int doca_comch_client_task_send_alloc_init(void *client, void *peer, const void *msg, uint32_t len, void **task);
__attribute__((visibility("default"))) int
doca_comch_client_task_send_alloc_init(void *client, void *peer, const void *msg, uint32_t len, void **task)
{
	int (*real)(void *, void *, const void *, uint32_t, void **) =
	    (int (*)(void *, void *, const void *, uint32_t, void **))dlsym(RTLD_NEXT,
									    "doca_comch_client_task_send_alloc_init");

	const void *sent = lie(msg, len);
	int ret = real(client, peer, sent, len, task);

	if (ret == 0)
		record(0, sent, len);
	return ret;
}

/*
 * With SHIM_RECORD=<file>, every message this side sends or receives is appended to the file in
 * the input layout of tests/fuzz/fuzz_dma_copy_seq.c: one byte (1: this side is the DPU side,
 * known from the first message: a host speaks first), then per message one byte (1: received),
 * its length (2 bytes, little-endian) and its bytes. The seeds of that fuzzer come from here.
 */
static void record(int received, const void *msg, uint32_t len)
{
	static int started;
	const char *path = getenv("SHIM_RECORD");
	uint8_t head[3] = {(uint8_t)received, (uint8_t)len, (uint8_t)(len >> 8)};
	FILE *f;

	if (path == NULL || len > 0xffff)
		return;
	f = fopen(path, "ab");
	if (f == NULL)
		return;
	if (!started) {
		uint8_t dpu = (uint8_t)received;

		started = 1;
		fwrite(&dpu, 1, 1, f);
	}
	fwrite(head, sizeof(head), 1, f);
	fwrite(msg, len, 1, f);
	fclose(f);
}

typedef void (*recv_cb_t)(void *event, uint8_t *buf, uint32_t len, void *conn);
static recv_cb_t app_recv;

static void recv_recorded(void *event, uint8_t *buf, uint32_t len, void *conn)
{
	record(1, buf, len);
	app_recv(event, buf, len, conn);
}

int doca_comch_server_event_msg_recv_register(void *server, recv_cb_t cb);
__attribute__((visibility("default"))) int doca_comch_server_event_msg_recv_register(void *server, recv_cb_t cb)
{
	int (*real)(void *, recv_cb_t) =
	    (int (*)(void *, recv_cb_t))dlsym(RTLD_NEXT, "doca_comch_server_event_msg_recv_register");

	app_recv = cb;
	return real(server, getenv("SHIM_RECORD") != NULL ? recv_recorded : cb);
}

int doca_comch_client_event_msg_recv_register(void *client, recv_cb_t cb);
__attribute__((visibility("default"))) int doca_comch_client_event_msg_recv_register(void *client, recv_cb_t cb)
{
	int (*real)(void *, recv_cb_t) =
	    (int (*)(void *, recv_cb_t))dlsym(RTLD_NEXT, "doca_comch_client_event_msg_recv_register");

	app_recv = cb;
	return real(client, getenv("SHIM_RECORD") != NULL ? recv_recorded : cb);
}
