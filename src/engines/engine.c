/*
 * engine.c - the engine registry and the helpers every engine may use: local copies, and
 * cross-process copies through process_vm_readv/process_vm_writev.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine.h"
#include "topology.h"

#define COMP "engine"

/* Every engine softdoca has; a new one is added here and nowhere else. */
static const struct engine_ops *const engines[] = {
    &engine_auto_ops,
    &engine_cpu_ops,
    &engine_inline_ops,
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < SD_ARRAY_SIZE(engines); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const char *engine_names(void)
{
	return "auto, cpu, inline";
}

static const struct engine_ops *default_engine;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void pick_default(void)
{
	const char *env = getenv("SOFTDOCA_ENGINE");
	const struct topology *topo = topo_get();
	const char *name = "auto";
	const char *from = "default";

	if (env != NULL && *env != '\0') {
		name = env;
		from = "SOFTDOCA_ENGINE";
	} else if (topo != NULL && topo->engine[0] != '\0') {
		name = topo->engine;
		from = "the config file";
	}
	default_engine = engine_find(name);
	if (default_engine == NULL)
		SD_ERR(COMP, "unknown engine '%s' (from %s); use one of: %s", name, from, engine_names());
	else
		SD_DBG(COMP, "engine '%s' selected (from %s)", name, from);
}

const struct engine_ops *engine_default(void)
{
	pthread_once(&default_once, pick_default);
	return default_engine;
}

static uint64_t cpu_workers_env;
static char engine_err[256];
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void check_env(void)
{
	const char *w = getenv("SOFTDOCA_CPU_WORKERS");
	int rc;

	if (w == NULL || *w == '\0')
		return;
	rc = priv_sd_parse_u64(w, 1, ENGINE_MAX_WORKERS, &cpu_workers_env);
	if (rc != 0) {
		cpu_workers_env = 0;
		snprintf(engine_err, sizeof(engine_err),
			 "SOFTDOCA_CPU_WORKERS='%.64s': %s; expected a number of worker threads in 1..%d", w,
			 priv_sd_parse_error(rc), ENGINE_MAX_WORKERS);
	}
}

const char *engine_env_error(void)
{
	pthread_once(&env_once, check_env);
	return engine_err[0] ? engine_err : NULL;
}

uint32_t engine_env_cpu_workers(void)
{
	pthread_once(&env_once, check_env);
	return (uint32_t)cpu_workers_env;
}

void engine_task_complete(struct engine_job *job, doca_error_t status)
{
	struct engine_notify *n = job->notify;

	job->status = status;
	/* seq_cst pairs with doca_pe_request_notification(): store done, then look at armed. */
	atomic_store(&job->done, 1);
	if (n != NULL && atomic_load(&n->armed) && atomic_exchange(&n->armed, 0)) {
		uint64_t one = 1;
		ssize_t r = write(n->efd, &one, sizeof(one));

		(void)r; /* EAGAIN means the counter is already non-zero: the waiter wakes anyway. */
	}
}

void engine_copy_range(const struct engine_job *job, uint64_t off, uint64_t len)
{
	uint32_t si = 0, di = 0;
	uint64_t soff = off, doff = off;

	/* Find the segments holding byte @off on each side. */
	while (si < job->nsrc && soff >= job->src[si].len)
		soff -= job->src[si++].len;
	while (di < job->ndst && doff >= job->dst[di].len)
		doff -= job->dst[di++].len;
	while (len > 0 && si < job->nsrc && di < job->ndst) {
		uint64_t s_left = job->src[si].len - soff;
		uint64_t d_left = job->dst[di].len - doff;
		uint64_t n = s_left < d_left ? s_left : d_left;

		if (n > len)
			n = len;
		memcpy((uint8_t *)job->dst[di].addr + doff, (const uint8_t *)job->src[si].addr + soff, n);
		len -= n;
		soff += n;
		doff += n;
		if (soff == job->src[si].len) {
			si++;
			soff = 0;
		}
		if (doff == job->dst[di].len) {
			di++;
			doff = 0;
		}
	}
}

void engine_copy_local(const struct engine_job *job)
{
	if (SD_LIKELY(job->nsrc == 1 && job->ndst == 1)) {
		memcpy(job->dst[0].addr, job->src[0].addr, job->len);
		return;
	}
	engine_copy_range(job, 0, job->len);
}

unsigned int engine_nop_poll(struct engine_queue *q, unsigned int budget)
{
	(void)q;
	(void)budget;
	return 0;
}

bool engine_nop_pending(const struct engine_queue *q)
{
	(void)q;
	return false;
}

/* ---- cross-process copies ---- */

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

/* Internal cause of a failed liveness check: the exporter revoked the export. */
#define EREVOKED ENXIO

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
	default:
		return 1u << 4;
	}
}

/* Turns @err into the job status; the first failure of each cause per exporter is logged. */
static doca_error_t remote_fail(struct engine_peer *p, int err, const char *owner)
{
	doca_error_t st = remote_status(err);
	unsigned int bit = cause_bit(err);
	const char *why;

	if (atomic_fetch_or_explicit(&p->logged, bit, memory_order_relaxed) & bit)
		return st;
	switch (err) {
	case ESRCH:
		why = "the exporting process exited; the export died with it (import a new descriptor)";
		break;
	case EREVOKED:
		why = "the exporter stopped or destroyed the exported mmap (doca_mmap_stop/doca_mmap_destroy); keep it "
		      "started while the importer copies";
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
	SD_ERR(COMP, "%s: cross-process copy with %s failed (%s): %s", owner ? owner : "?", p->name,
	       doca_error_get_name(st), why);
	return st;
}

/* 0 when the export may be reached now, else the cause (ESRCH, EREVOKED, or poll's errno). */
static int peer_check(const struct engine_peer *p)
{
	struct pollfd pfd = {.fd = p->pidfd, .events = POLLIN};
	int r;

	if (atomic_load_explicit(p->state, memory_order_acquire) != ENGINE_PEER_LIVE)
		return EREVOKED;
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

	if (job->src_pid != 0)
		r = process_vm_readv(job->src_pid, local, nl, remote, nr, 0);
	else
		r = process_vm_writev(job->dst_pid, local, nl, remote, nr, 0);
	return r < 0 ? -errno : r;
}

/*
 * Adds bytes [off, off+len) of @job to the call being built; returns the bytes both sides could
 * take (0 when an array is full).
 */
static uint64_t call_add(const struct engine_job *job, uint64_t off, uint64_t len, struct iovec *local,
			 unsigned int *nl, struct iovec *remote, unsigned int *nr)
{
	bool read = job->src_pid != 0;
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

doca_error_t engine_copy_remote_range(const struct engine_job *job, uint64_t off, uint64_t len, const char *owner)
{
	struct iovec local[REMOTE_IOVS], remote[REMOTE_IOVS];

	while (len > 0) {
		unsigned int nl = 0, nr = 0;
		ssize_t r;
		int err;

		call_add(job, off, len < REMOTE_CHUNK ? len : REMOTE_CHUNK, local, &nl, remote, &nr);
		err = peer_check(job->peer);
		if (err != 0)
			return remote_fail(job->peer, err, owner);
		r = remote_call(job, local, nl, remote, nr);
		if (r < 0)
			return remote_fail(job->peer, (int)-r, owner);
		/* No progress without an error: the first page faulted in a way the kernel reports as 0. */
		if (r == 0)
			return remote_fail(job->peer, EFAULT, owner);
		off += (uint64_t)r;
		len -= (uint64_t)r;
	}
	return DOCA_SUCCESS;
}

/* Failures after which no other job of the batch can succeed (an IO_FAILED may be one job's fault). */
static bool fatal_status(const struct engine_job *job, doca_error_t st)
{
	return st == DOCA_ERROR_NOT_PERMITTED || st == DOCA_ERROR_NOT_SUPPORTED ||
	       (st == DOCA_ERROR_IO_FAILED && peer_check(job->peer) != 0);
}

void engine_copy_remote_batch(struct engine_job *const *jobs, unsigned int n, doca_error_t *status, const char *owner)
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
			status[i] = engine_copy_remote_range(jobs[i], 0, jobs[i]->len, owner);
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
		err = peer_check(jobs[i]->peer);
		if (err != 0) {
			status[i] = remote_fail(jobs[i]->peer, err, owner);
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
		status[i] = engine_copy_remote_range(jobs[i], moved, jobs[i]->len - moved, owner);
		if (status[i] != DOCA_SUCCESS && fatal_status(jobs[i], status[i]))
			goto fail_rest;
		i++;
	}
	return;

fail_rest:
	for (unsigned int k = i + 1; k < n; k++)
		status[k] = status[i];
}
