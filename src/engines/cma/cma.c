/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cma.c - the cross-process transport: moves the bytes of jobs between this process and another
 * one on the same machine (a from-export mmap) with process_vm_readv/process_vm_writev (Linux
 * "cross memory attach"). Pairs: (local, process) and (process, local). It runs on whichever
 * executor the context uses (inline: inside doca_pe_progress; cpu: on the workers).
 *
 * Before each system call the transport checks, in this order, that the export state word reads
 * LIVE (the exporter writes it; one load) and that the exporter's pidfd is not readable (it has
 * not exited). Many small jobs for the same exporter and direction share one multi-iovec call; a
 * large job moves in chunks, the liveness check between chunks.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine.h"

#define COMP "cma"

/* The process side of @job (exactly one side is another process). */
static inline const struct mem_domain *peer_of(const struct engine_job *job)
{
	return job->src_dom != NULL ? job->src_dom : job->dst_dom;
}

/*
 * Limits of one process_vm_* call. IOVS bounds each side's iovec array (the kernel accepts up
 * to 1024; 256 keeps the arrays on the caller's stack small, since the inline engine runs on
 * the application's thread). CHUNK bounds the bytes of a call for one large job: the liveness
 * check runs between chunks, so an exporter that goes away is noticed within one chunk.
 * BATCH_BYTES bounds a call that carries several jobs.
 */
#define REMOTE_IOVS	   256
#define REMOTE_CHUNK	   (4ull << 20)
#define REMOTE_BATCH_BYTES (1ull << 20)

/* Internal causes of a failed liveness check: the exporter revoked the export, or wrote a state
 * word that is neither LIVE nor REVOKED into its record (a rule only a hostile exporter breaks). */
#define EREVOKED ENXIO
#define EBADREC	 EPROTO

/*
 * The one place a cross-process failure becomes a task status. Why (the table is repeated in
 * docs/cross-process.md):
 *   exporter exited (ESRCH), export revoked by doca_mmap_stop/destroy, exporter memory not
 *   mapped (EFAULT): DOCA_ERROR_IO_FAILED, what DOCA reports when a transfer fails in the
 *   hardware ("I/O operation failed"); the memory a task names is gone, like a DMA to an
 *   invalidated key on a real device.
 *   EPERM/EACCES: DOCA_ERROR_NOT_PERMITTED, the kernel refused access (user, ptrace policy).
 *   ENOMEM: NO_MEMORY; ENOSYS: NOT_SUPPORTED; anything else: OPERATING_SYSTEM.
 */
static doca_error_t remote_status(int err)
{
	switch (err) {
	case ESRCH:
	case EREVOKED:
	case EBADREC:
	case EFAULT:
		return DOCA_ERROR_IO_FAILED;
	case EPERM:
	case EACCES:
		return DOCA_ERROR_NOT_PERMITTED;
	case ENOMEM:
		return DOCA_ERROR_NO_MEMORY;
	case ENOSYS:
		return DOCA_ERROR_NOT_SUPPORTED;
	default:
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
}

static unsigned int cause_bit(int err)
{
	switch (err) {
	case ESRCH:
		return 1u << 0;
	case EREVOKED:
		return 1u << 1;
	case EFAULT:
		return 1u << 2;
	case EPERM:
	case EACCES:
		return 1u << 3;
	case EBADREC:
		return 1u << 5;
	default:
		return 1u << 4;
	}
}

/* Turns @err into the job status; the first failure of each cause per exporter is logged. */
static doca_error_t remote_fail(const struct mem_domain *dom, int err, const char *owner)
{
	doca_error_t st = remote_status(err);
	unsigned int bit = cause_bit(err);
	const char *why;

	/* The domain is the importing mmap's; only this word of it is written, atomically. */
	atomic_uint *logged = (atomic_uint *)&dom->u.process.logged;

	if (atomic_fetch_or_explicit(logged, bit, memory_order_relaxed) & bit)
		return st;
	switch (err) {
	case ESRCH:
		why = "the exporting process exited; the export died with it (import a new descriptor)";
		break;
	case EREVOKED:
		why = "the exporter stopped or destroyed the exported mmap (doca_mmap_stop/doca_mmap_destroy); keep it "
		      "started while the importer copies";
		break;
	case EBADREC:
		why =
		    "the exporter broke a rule of its export record: its state word is neither LIVE nor REVOKED (not a "
		    "softdoca exporter, or it corrupts its record); the export is over";
		break;
	case EFAULT:
		why = "an address of the copy is not mapped any more, in the exporter or here (memory freed before "
		      "its mmap was destroyed?)";
		break;
	case EPERM:
	case EACCES:
		why = "the kernel refused access to the exporter (another user, a non-dumpable exporter, or the ptrace "
		      "policy /proc/sys/kernel/yama/ptrace_scope); see docs/cross-process.md";
		break;
	default:
		why = strerror(err);
		break;
	}
	SD_ERR(COMP, "%s: cross-process copy with %s failed (%s): %s", owner ? owner : "?", dom->name,
	       doca_error_get_name(st), why);
	return st;
}

/* 0 when the export may be reached now, else the cause (ESRCH, EREVOKED, EBADREC, or poll's errno). */
static int peer_check(const struct mem_domain *dom)
{
	struct pollfd pfd = {.fd = dom->u.process.pidfd, .events = POLLIN};
	int r;

	/* The domain is the importing mmap's; only this word of it (and logged) is written. */
	atomic_uint *ended = (atomic_uint *)&dom->u.process.ended;
	uint32_t state;
	unsigned int was;

	/* The end is final: an exporter that writes LIVE again after REVOKED is not believed. */
	was = atomic_load_explicit(ended, memory_order_relaxed);
	if (was != 0)
		return (int)was;
	/* One load of the word the exporter writes; anything but LIVE ends the export here. */
	state = atomic_load_explicit(dom->u.process.state, memory_order_acquire);
	if (state != MEM_DOMAIN_LIVE) {
		unsigned int cause = state == MEM_DOMAIN_REVOKED ? EREVOKED : EBADREC;

		was = 0;
		atomic_compare_exchange_strong_explicit(ended, &was, cause, memory_order_relaxed, memory_order_relaxed);
		return (int)(was != 0 ? was : cause);
	}
	/* A pidfd turns readable when its process exits: the pid may be reused after that, the pidfd
	 * never names the newcomer. */
	do
		r = poll(&pfd, 1, 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return errno;
	return r > 0 ? ESRCH : 0;
}

/*
 * Appends iovecs for bytes [off, off+len) of the stream held in @segs to @iov (room for @max
 * entries, @n used). Returns the bytes covered, less than @len when the array filled up.
 */
static uint64_t iov_add(struct iovec *iov, unsigned int *n, unsigned int max, const struct engine_seg *segs,
			uint32_t nseg, uint64_t off, uint64_t len)
{
	uint64_t done = 0;
	uint32_t i = 0;

	while (i < nseg && off >= segs[i].len)
		off -= segs[i++].len;
	for (; i < nseg && done < len && *n < max; i++) {
		uint64_t take = segs[i].len - off;

		if (take > len - done)
			take = len - done;
		iov[*n].iov_base = (uint8_t *)segs[i].addr + off;
		iov[*n].iov_len = take;
		(*n)++;
		done += take;
		off = 0;
	}
	return done;
}

/* Shortens the iovecs from index @from so that they cover exactly @len bytes. */
static void iov_trim(struct iovec *iov, unsigned int *n, unsigned int from, uint64_t len)
{
	unsigned int i = from;

	for (; i < *n && len > 0; i++) {
		if (iov[i].iov_len > len)
			iov[i].iov_len = len;
		len -= iov[i].iov_len;
	}
	*n = i;
}

/* One process_vm call in the job's direction. Returns bytes moved or -errno. */
static ssize_t remote_call(const struct engine_job *job, const struct iovec *local, unsigned int nl,
			   const struct iovec *remote, unsigned int nr)
{
	ssize_t r;

	if (job->src_dom != NULL)
		r = process_vm_readv(job->src_dom->u.process.pid, local, nl, remote, nr, 0);
	else
		r = process_vm_writev(job->dst_dom->u.process.pid, local, nl, remote, nr, 0);
	return r < 0 ? -errno : r;
}

/*
 * Adds bytes [off, off+len) of @job to the call being built; returns the bytes both sides could
 * take (0 when an array is full).
 */
static uint64_t call_add(const struct engine_job *job, uint64_t off, uint64_t len, struct iovec *local,
			 unsigned int *nl, struct iovec *remote, unsigned int *nr)
{
	bool read = job->src_dom != NULL;
	const struct engine_seg *rs = read ? job->src : job->dst, *ls = read ? job->dst : job->src;
	uint32_t nrs = read ? job->nsrc : job->ndst, nls = read ? job->ndst : job->nsrc;
	unsigned int l0 = *nl, r0 = *nr;
	uint64_t a, b;

	a = iov_add(remote, nr, REMOTE_IOVS, rs, nrs, off, len);
	b = iov_add(local, nl, REMOTE_IOVS, ls, nls, off, len);
	if (a > b)
		a = b;
	iov_trim(remote, nr, r0, a);
	iov_trim(local, nl, l0, a);
	return a;
}

static doca_error_t cma_copy_range(const struct engine_job *job, uint64_t off, uint64_t len, const char *owner)
{
	struct iovec local[REMOTE_IOVS], remote[REMOTE_IOVS];

	while (len > 0) {
		unsigned int nl = 0, nr = 0;
		ssize_t r;
		int err;

		call_add(job, off, len < REMOTE_CHUNK ? len : REMOTE_CHUNK, local, &nl, remote, &nr);
		err = peer_check(peer_of(job));
		if (err != 0)
			return remote_fail(peer_of(job), err, owner);
		r = remote_call(job, local, nl, remote, nr);
		if (r < 0)
			return remote_fail(peer_of(job), (int)-r, owner);
		/* No progress without an error: the first page faulted in a way the kernel reports as 0. */
		if (r == 0)
			return remote_fail(peer_of(job), EFAULT, owner);
		off += (uint64_t)r;
		len -= (uint64_t)r;
	}
	return DOCA_SUCCESS;
}

/* Failures after which no other job of the batch can succeed (an IO_FAILED may be one job's fault). */
static bool fatal_status(const struct engine_job *job, doca_error_t st)
{
	return st == DOCA_ERROR_NOT_PERMITTED || st == DOCA_ERROR_NOT_SUPPORTED ||
	       (st == DOCA_ERROR_IO_FAILED && peer_check(peer_of(job)) != 0);
}

static void cma_copy_batch(struct engine_job *const *jobs, unsigned int n, doca_error_t *status, const char *owner)
{
	struct iovec local[REMOTE_IOVS], remote[REMOTE_IOVS];
	unsigned int i = 0;

	while (i < n) {
		unsigned int nl = 0, nr = 0, j = i;
		uint64_t bytes = 0;
		ssize_t r;
		int err;

		/* A large job, or one whose segments fill the arrays, goes alone and in chunks. */
		if (jobs[i]->len > REMOTE_BATCH_BYTES ||
		    call_add(jobs[i], 0, jobs[i]->len, local, &nl, remote, &nr) < jobs[i]->len) {
			status[i] = cma_copy_range(jobs[i], 0, jobs[i]->len, owner);
			if (status[i] != DOCA_SUCCESS && fatal_status(jobs[i], status[i]))
				goto fail_rest;
			i++;
			continue;
		}
		bytes = jobs[i]->len;
		for (j = i + 1; j < n && bytes + jobs[j]->len <= REMOTE_BATCH_BYTES; j++) {
			unsigned int nl0 = nl, nr0 = nr;

			if (call_add(jobs[j], 0, jobs[j]->len, local, &nl, remote, &nr) < jobs[j]->len) {
				nl = nl0; /* does not fit whole: it starts the next call */
				nr = nr0;
				break;
			}
			bytes += jobs[j]->len;
		}
		err = peer_check(peer_of(jobs[i]));
		if (err != 0) {
			status[i] = remote_fail(peer_of(jobs[i]), err, owner);
			goto fail_rest;
		}
		r = remote_call(jobs[i], local, nl, remote, nr);
		if (r == (ssize_t)bytes) {
			for (; i < j; i++)
				status[i] = DOCA_SUCCESS;
			continue;
		}
		/*
		 * Short or failed: jobs wholly moved succeeded; the job where the transfer stopped is
		 * finished alone from that byte, which yields its precise status; the rest go on.
		 */
		uint64_t moved = r > 0 ? (uint64_t)r : 0;

		while (moved >= jobs[i]->len) {
			moved -= jobs[i]->len;
			status[i++] = DOCA_SUCCESS;
		}
		status[i] = cma_copy_range(jobs[i], moved, jobs[i]->len - moved, owner);
		if (status[i] != DOCA_SUCCESS && fatal_status(jobs[i], status[i]))
			goto fail_rest;
		i++;
	}
	return;

fail_rest:
	for (unsigned int k = i + 1; k < n; k++)
		status[k] = status[i];
}

/*
 * Usable when the kernel lets this process use process_vm_readv on itself: a kernel without
 * CONFIG_CROSS_MEMORY_ATTACH answers ENOSYS, a seccomp filter (some container runtimes) EPERM.
 */
static bool cma_probe(char *why, size_t len)
{
	static const char word[8] = "softdoca";
	char got[8] = {0};
	struct iovec l = {.iov_base = got, .iov_len = sizeof(got)};
	struct iovec r = {.iov_base = (void *)word, .iov_len = sizeof(word)};
	ssize_t n = process_vm_readv(getpid(), &l, 1, &r, 1, 0);

	if (n == (ssize_t)sizeof(got) && memcmp(got, word, sizeof(got)) == 0) {
		long fd = syscall(SYS_pidfd_open, getpid(), 0);

		if (fd >= 0) {
			close((int)fd);
			return true;
		}
		snprintf(why, len, "pidfd_open failed (%s); Linux 5.3 or later is needed to watch the exporter",
			 strerror(errno));
		return false;
	}
	snprintf(why, len, "process_vm_readv on this process failed (%s)%s", n < 0 ? strerror(errno) : "short read",
		 n < 0 && errno == ENOSYS  ? ": the kernel lacks CONFIG_CROSS_MEMORY_ATTACH"
		 : n < 0 && errno == EPERM ? ": a seccomp filter (container runtime?) blocks it"
					   : "");
	return false;
}

static const struct engine_xfer cma_xfer = {
    .copy_range = cma_copy_range,
    .copy_batch = cma_copy_batch,
};

const struct engine_backend engine_backend_cma = {
    .name = "cma",
    .desc = "between this process and another one: process_vm_readv/process_vm_writev",
    .kind = ENGINE_TRANSPORT,
    .pairs = ENGINE_PAIR(MEM_DOMAIN_LOCAL, MEM_DOMAIN_PROCESS) | ENGINE_PAIR(MEM_DOMAIN_PROCESS, MEM_DOMAIN_LOCAL),
    .priority = 10,
    .probe = cma_probe,
    .xfer = &cma_xfer,
};
