/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu.c - the cpu engine: worker threads copy, the submitting thread stays free.
 *
 * Per queue (one per context): an owner worker fed by a single-producer/single-consumer ring,
 * plus helper workers that join in on large copies.
 *
 *   PE thread                                   owner worker                 helpers
 *   submit: fill slots[head]; seq = head+1 ──▶  wait slots[tail].seq
 *           wake owner if parked                small: copy it
 *                                               large: publish chunks ─────▶ claim chunks, copy
 *                                                      copy chunks too       left--
 *                                                      wait left == 0
 *                                               tail++; done = tail ──┐
 *   poll: while reaped < done:  ◀──────────────────────────────────────┘
 *           engine_task_complete_pe(slots[reaped++])
 *
 * Cache traffic per task is kept to what the copy itself needs: a slot is one cache line that
 * carries a simple copy whole (the worker never reads the job), the worker never writes a job
 * that succeeded (a failure status goes into job->engine_priv), and completion is one counter
 * (`done`) published once per batch and read by the PE once per poll, so finished jobs are
 * marked done on the PE's own core. The PE owns `head` and `reaped` and needs no cross-core
 * read to know the ring has room.
 *
 * A slot's line goes back and forth: the PE writes it, the owner reads it, and the PE's next
 * write to it (a ring later) must first take it back from the owner's core. That store would
 * wait a cross-core round trip in the store buffer with every later store of the PE queued
 * behind it, which bounded a deep queue of small copies by the round trip (12 Mtasks/s at
 * 500 ns). So while tasks queue up, each submit claims the line of the slot CPU_CLAIM_AHEAD
 * places further on (PREFETCHW), and the ring has that many spare slots beyond the depth so
 * the claimed slot is free. At shallow depth the owner waits on the next slot itself, and a
 * claim would only pull the line away from it.
 *
 * Idle: a worker spins CPU_SPIN_NS, then parks on a futex; the producer wakes it only when it
 * is parked (one syscall per wake-up, none per task while busy). An idle engine uses no CPU.
 *
 * Publishing a slot is a release store, not a full barrier: a seq_cst store would stall the
 * submitting thread on every task until the slot's cache line came back from the worker's
 * core (a cross-core round trip per task). The parking handshake is a Dekker pair (the owner
 * stores `owner_parked` and then loads the slot's seq; the PE stores seq and then loads
 * `owner_parked`), so the PE's side needs its StoreLoad barrier before it may trust a
 * "not parked": it takes it once for all the slots published since the last one, in poll()
 * and at arming (pending()), the two calls without which the application cannot see a
 * completion. A submit that sees the owner parked wakes it at once (after the barrier); one
 * that races with the owner going to sleep is caught by the next poll or arming.
 *
 * Large jobs (>= CPU_SPLIT_MIN) are cut into CPU_CHUNK pieces claimed through one 64-bit
 * counter holding (generation << 32 | next chunk); a helper that arrives late for a generation
 * fails its compare-and-swap and never touches a finished job.
 *
 * Notifications: after publishing `done` the owner looks at the PE's `armed` flag (both sides
 * sequentially consistent) and writes the eventfd when the application is waiting.
 *
 * Jobs with a transport (another memory domain) run on the workers too: the owner hands
 * consecutive ready batchable ones to engine_job_copy_batch() (many small tasks, one system call
 * for cma), and a large one is split into chunks like a local copy, each chunk moved by
 * engine_job_copy_range(); the first failing chunk's status becomes the job's.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "topology.h"
#include "trace.h"

#define COMP "cpu"
/* How long an idle worker spins before parking: long enough to catch the next task of a busy
 * application, short enough that an idle engine costs nothing. */
#define CPU_SPIN_NS	50000ull
#define CPU_CHUNK	(1ull << 20)
#define CPU_SPLIT_MIN	ENGINE_CPU_SPLIT_MIN /* two chunks at least */
#define CPU_MAX_WORKERS ENGINE_MAX_WORKERS
/* How many slots ahead of the one it fills the PE claims a slot's line (see the top). Measured
 * on a 2-vCPU EPYC VM, 64 B copies at depth 256 (Mtasks/s, median of 4-5): no claim 12.3, 2
 * ahead 16.6, 3 19.5, 4 20.6, 5 19.9, 6 18.6, 8 9.7, 16 11.2. */
#define CPU_CLAIM_AHEAD 4

struct engine_queue;

struct worker {
	struct engine_queue *q;
	pthread_t thread;
	int idx;
};

/*
 * One ring entry, a cache line of its own. The PE fills it and release-stores `seq`; the owner
 * waits on `seq` itself, so one cache-line transfer carries both "there is work" and the work:
 * for a local single-segment copy the owner never has to read the job.
 */
struct slot {
	atomic_uint seq; /* index + 1 once filled */
	uint32_t single; /* 1: src/dst/len below describe the whole copy */
	struct engine_job *job;
	const void *src;
	void *dst;
	uint64_t len;
	char pad[SD_CACHELINE - 40];
};

struct engine_queue {
	/* Set at create and only read after: the workers read these for every slot, so no field
	 * that changes may share their line (the PE's counters below did, and that line moved
	 * between the cores on every task). */
	alignas(SD_CACHELINE) uint32_t mask;
	int nworkers;
	struct slot *slots;
	struct engine_notify *notify;
	/* PE thread only. */
	alignas(SD_CACHELINE) uint32_t head_local;
	uint32_t head_fenced; /* head_local at the last StoreLoad barrier (see the top of the file) */
	uint32_t reaped;
	atomic_int fence_word; /* SD_FULL_FENCE's word in TSan builds */
	/* Written by the owner, read by the PE. */
	alignas(SD_CACHELINE) atomic_uint done;
	/* Parking and control. */
	alignas(SD_CACHELINE) atomic_int owner_parked;
	atomic_int quit;
	atomic_int cancel_status; /* DOCA_SUCCESS = not cancelled */
	/* Large-job sharing. */
	alignas(SD_CACHELINE) atomic_uint gen; /* futex word for helpers */
	atomic_int helpers_parked;
	_Atomic(struct engine_job *) big;
	atomic_uint_least64_t next; /* gen << 32 | next chunk index */
	atomic_uint nchunks;
	atomic_int big_status;			/* first failure of a chunk of the current large job */
	alignas(SD_CACHELINE) atomic_uint left; /* chunks not yet copied */
	struct worker workers[CPU_MAX_WORKERS];
	char owner_name[64];
};

_Static_assert(sizeof(struct slot) == SD_CACHELINE, "a ring slot is one cache line");

/*
 * Claims a cache line for writing ahead of the stores (x86 PREFETCHW): the line of a slot the
 * PE fills a few tasks later was last read by the owner, and a store to it would wait a
 * cross-core round trip in the store buffer, holding up every later store of the PE thread.
 */
static inline void prefetch_w(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("prefetchw %0" ::"m"(*(const char *)p));
#else
	__builtin_prefetch(p, 1, 3);
#endif
}

static long futex(atomic_int *addr, int op, int val)
{
	return syscall(SYS_futex, (int *)addr, op, val, NULL, NULL, 0);
}

/* Spins until @cond_fn says there is work, up to CPU_SPIN_NS; false when it timed out. */
#define SPIN_UNTIL(cond)                                                                                               \
	({                                                                                                             \
		uint64_t t0_ = sd_mono_ns();                                                                           \
		bool ok_ = false;                                                                                      \
		for (;;) {                                                                                             \
			if (cond) {                                                                                    \
				ok_ = true;                                                                            \
				break;                                                                                 \
			}                                                                                              \
			sd_cpu_relax();                                                                                \
			if (sd_mono_ns() - t0_ > CPU_SPIN_NS)                                                          \
				break;                                                                                 \
		}                                                                                                      \
		ok_;                                                                                                   \
	})

/* Copies one chunk of a large job; a transported chunk that fails records its status. */
static void copy_chunk(struct engine_queue *q, struct engine_job *job, uint64_t off, uint64_t len)
{
	doca_error_t st;
	int ok = DOCA_SUCCESS;

	if (SD_LIKELY(!engine_job_xfer(job))) {
		engine_copy_range(job, off, len);
		return;
	}
	st = engine_job_copy_range(job, off, len, q->owner_name);
	if (st != DOCA_SUCCESS)
		atomic_compare_exchange_strong_explicit(&q->big_status, &ok, (int)st, memory_order_relaxed,
							memory_order_relaxed);
}

/* Claims and copies chunks of generation @g until none is left. */
static void help_with(struct engine_queue *q, uint32_t g, struct engine_job *job, uint32_t n)
{
	for (;;) {
		uint64_t v = atomic_load_explicit(&q->next, memory_order_acquire);
		uint32_t c = (uint32_t)v;

		if ((uint32_t)(v >> 32) != g || c >= n)
			return;
		if (!atomic_compare_exchange_weak_explicit(&q->next, &v, v + 1, memory_order_acq_rel,
							   memory_order_relaxed))
			continue;
		uint64_t off = (uint64_t)c * CPU_CHUNK;
		uint64_t len = job->len - off < CPU_CHUNK ? job->len - off : CPU_CHUNK;

		copy_chunk(q, job, off, len);
		atomic_fetch_sub_explicit(&q->left, 1, memory_order_release);
	}
}

static void *helper_main(void *arg)
{
	struct worker *w = arg;
	struct engine_queue *q = w->q;
	uint32_t seen = atomic_load(&q->gen);

	while (!atomic_load_explicit(&q->quit, memory_order_acquire)) {
		uint32_t g = atomic_load_explicit(&q->gen, memory_order_acquire);

		if (g != seen) {
			struct engine_job *job = atomic_load_explicit(&q->big, memory_order_acquire);
			uint32_t n = atomic_load_explicit(&q->nchunks, memory_order_acquire);

			seen = g;
			if (job != NULL)
				help_with(q, g, job, n);
			continue;
		}
		if (SPIN_UNTIL(atomic_load_explicit(&q->gen, memory_order_acquire) != seen ||
			       atomic_load_explicit(&q->quit, memory_order_relaxed)))
			continue;
		atomic_fetch_add(&q->helpers_parked, 1);
		if (atomic_load(&q->gen) == seen && !atomic_load(&q->quit))
			futex((atomic_int *)&q->gen, FUTEX_WAIT_PRIVATE, (int)seen);
		atomic_fetch_sub(&q->helpers_parked, 1);
	}
	return NULL;
}

/* Copies a large job with the helpers; returns its status (a chunk's failure, else SUCCESS). */
static doca_error_t copy_big(struct engine_queue *q, struct engine_job *job)
{
	uint32_t n = (uint32_t)((job->len + CPU_CHUNK - 1) / CPU_CHUNK);
	uint32_t g = atomic_load_explicit(&q->gen, memory_order_relaxed) + 1;

	atomic_store_explicit(&q->big_status, DOCA_SUCCESS, memory_order_relaxed);
	atomic_store_explicit(&q->left, n, memory_order_relaxed);
	atomic_store_explicit(&q->nchunks, n, memory_order_relaxed);
	atomic_store_explicit(&q->big, job, memory_order_relaxed);
	atomic_store_explicit(&q->next, (uint64_t)g << 32, memory_order_relaxed);
	atomic_store(&q->gen, g); /* publishes the fields above; seq_cst before the parked check */
	if (atomic_load(&q->helpers_parked) > 0)
		futex((atomic_int *)&q->gen, FUTEX_WAKE_PRIVATE, INT_MAX);
	help_with(q, g, job, n);
	while (atomic_load_explicit(&q->left, memory_order_acquire) != 0)
		sd_cpu_relax();
	atomic_store_explicit(&q->big, NULL, memory_order_relaxed);
	/* The acquire on `left` above orders every helper's status store before this load. */
	return (doca_error_t)atomic_load_explicit(&q->big_status, memory_order_relaxed);
}

static void run_job(struct engine_queue *q, struct engine_job *job)
{
	int cancel = atomic_load_explicit(&q->cancel_status, memory_order_acquire);

	if (cancel != DOCA_SUCCESS) {
		job->engine_priv = (uint64_t)cancel;
		return;
	}
	if (job->len >= CPU_SPLIT_MIN && q->nworkers > 1) {
		doca_error_t st = copy_big(q, job);

		if (st != DOCA_SUCCESS)
			job->engine_priv = (uint64_t)st;
	} else {
		engine_copy_local(job); /* transported jobs go through run_xfer() */
	}
}

static inline bool slot_ready(struct engine_queue *q, uint32_t idx);

/*
 * Runs the transported job in slot @tail with the ready slots behind it that may share its
 * operations (at most @max slots); returns how many slots it consumed and their bytes in @bytes.
 */
static __attribute__((noinline)) uint32_t run_xfer(struct engine_queue *q, uint32_t tail, uint32_t max, uint64_t *bytes)
{
	struct engine_job *jobs[ENGINE_XFER_BATCH];
	doca_error_t status[ENGINE_XFER_BATCH];
	struct engine_job *first = q->slots[tail & q->mask].job;
	int cancel = atomic_load_explicit(&q->cancel_status, memory_order_acquire);
	uint32_t n = 1;

	jobs[0] = first;
	*bytes = first->len;
	if (first->len >= CPU_SPLIT_MIN && q->nworkers > 1) {
		run_job(q, first);
		return 1;
	}
	if (max > ENGINE_XFER_BATCH)
		max = ENGINE_XFER_BATCH;
	while (n < max && slot_ready(q, tail + n)) {
		struct slot *sl = &q->slots[(tail + n) & q->mask];

		if (sl->single || !engine_job_batchable(first, sl->job) || sl->job->len >= CPU_SPLIT_MIN)
			break;
		jobs[n++] = sl->job;
		*bytes += sl->job->len;
	}
	if (cancel != DOCA_SUCCESS) {
		for (uint32_t i = 0; i < n; i++)
			jobs[i]->engine_priv = (uint64_t)cancel;
		return n;
	}
	engine_job_copy_batch(jobs, n, status, q->owner_name);
	for (uint32_t i = 0; i < n; i++)
		if (status[i] != DOCA_SUCCESS)
			jobs[i]->engine_priv = (uint64_t)status[i];
	return n;
}

/* Most jobs copied between two publications of `done`: amortises the shared-line write for
 * small copies without delaying large ones (they end a batch on their own). */
#define CPU_BATCH	32
#define CPU_BATCH_BYTES (256u * 1024u)

static inline bool slot_ready(struct engine_queue *q, uint32_t idx)
{
	return atomic_load_explicit(&q->slots[idx & q->mask].seq, memory_order_acquire) == idx + 1;
}

/* Runs the job in slot @tail (and, for a remote job, the ones batched with it); returns slots used. */
static inline uint32_t run_slot_untraced(struct engine_queue *q, uint32_t tail, uint32_t max, uint64_t *bytes)
{
	struct slot *sl = &q->slots[tail & q->mask];

	*bytes = sl->len;
	if (SD_LIKELY(sl->single) &&
	    SD_LIKELY(atomic_load_explicit(&q->cancel_status, memory_order_relaxed) == DOCA_SUCCESS)) {
		memcpy(sl->dst, sl->src, sl->len);
		return 1;
	}
	if (!sl->single && engine_job_xfer(sl->job))
		return run_xfer(q, tail, max, bytes);
	run_job(q, sl->job);
	return 1;
}

/* With SOFTDOCA_TRACE on, each copy is also a span on this worker's own track. */
static inline uint32_t run_slot(struct engine_queue *q, uint32_t tail, uint32_t max, uint64_t *bytes)
{
	const struct engine_job *job;
	uint32_t k;

	if (SD_LIKELY(!priv_doca_trace_on))
		return run_slot_untraced(q, tail, max, bytes);
	job = q->slots[tail & q->mask].job;
	priv_doca_trace(TR_ENGINE_BEGIN, &q->workers[0], job->comp->trace_id, job->len, 0);
	k = run_slot_untraced(q, tail, max, bytes);
	priv_doca_trace(TR_ENGINE_END, &q->workers[0], job->comp->trace_id, 0, 0);
	return k;
}

static void *owner_main(void *arg)
{
	struct worker *w = arg;
	struct engine_queue *q = w->q;
	uint32_t tail = 0;

	if (priv_doca_trace_on)
		priv_doca_trace_track(w, "cpu engine worker");

	for (;;) {
		if (slot_ready(q, tail)) {
			uint64_t bytes = 0;
			uint32_t n = 0;

			do {
				uint64_t b;
				uint32_t k;

				__builtin_prefetch(&q->slots[(tail + 1) & q->mask]);
				k = run_slot(q, tail, CPU_BATCH - n, &b);
				bytes += b;
				tail += k;
				n += k;
			} while (n < CPU_BATCH && bytes < CPU_BATCH_BYTES && slot_ready(q, tail));
			atomic_store(&q->done, tail); /* seq_cst: ordered before the armed check */
			engine_notify_wake(q->notify);
			continue;
		}
		if (atomic_load_explicit(&q->quit, memory_order_acquire))
			break;
		if (SPIN_UNTIL(slot_ready(q, tail) || atomic_load_explicit(&q->quit, memory_order_relaxed)))
			continue;
		atomic_store(&q->owner_parked, 1);
		if (atomic_load(&q->slots[tail & q->mask].seq) != tail + 1 && !atomic_load(&q->quit))
			futex(&q->owner_parked, FUTEX_WAIT_PRIVATE, 1);
		atomic_store(&q->owner_parked, 0);
	}
	return NULL;
}

static void wake_owner(struct engine_queue *q)
{
	if (atomic_load(&q->owner_parked) && atomic_exchange(&q->owner_parked, 0))
		futex(&q->owner_parked, FUTEX_WAKE_PRIVATE, 1);
}

/*
 * The PE's half of the parking handshake for the slots published since the last call: a full
 * barrier, then a parked owner is woken. One barrier per burst of submits, not per task.
 */
static void publish_barrier(struct engine_queue *q)
{
	if (q->head_fenced == q->head_local)
		return;
	q->head_fenced = q->head_local;
	SD_FULL_FENCE(&q->fence_word);
	wake_owner(q);
}

static int default_workers(uint32_t hint)
{
	uint32_t env = engine_env_cpu_workers(); /* validated; a bad value refused the start */
	const struct topology *t = topo_get();
	long n;

	if (env != 0)
		n = env;
	else if (hint != 0)
		n = hint;
	else if (t != NULL && t->workers != 0)
		n = t->workers;
	else
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > 4 && env == 0)
		n = 4; /* more rarely helps a memory-bound copy */
	if (n > CPU_MAX_WORKERS)
		n = CPU_MAX_WORKERS;
	return (int)n;
}

static void stop_workers(struct engine_queue *q, int started)
{
	atomic_store(&q->quit, 1);
	atomic_store(&q->owner_parked, 0);
	futex(&q->owner_parked, FUTEX_WAKE_PRIVATE, 1);
	atomic_fetch_add(&q->gen, 1);
	futex((atomic_int *)&q->gen, FUTEX_WAKE_PRIVATE, INT_MAX);
	for (int i = 0; i < started; i++)
		pthread_join(q->workers[i].thread, NULL);
}

static doca_error_t cpu_queue_create(const struct engine_queue_attr *attr, struct engine_queue **out)
{
	struct engine_queue *q;
	uint32_t size = 1;

	/* Room for CPU_CLAIM_AHEAD slots beyond the depth: with the queue full, the slot the PE fills
	 * that many tasks later is still free, so it can claim its line early. Shallow rings keep
	 * their size: claims need CPU_CLAIM_AHEAD tasks in flight, and cpu_submit() checks that
	 * the claimed slot is free in any case. */
	while (size < (attr->depth >= 2 * CPU_CLAIM_AHEAD ? attr->depth + CPU_CLAIM_AHEAD : attr->depth) &&
	       size < (1u << 30))
		size <<= 1;
	q = sd_calloc_lines(1, sizeof(*q));
	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	q->slots = sd_calloc_lines(size, sizeof(*q->slots));
	if (q->slots == NULL) {
		free(q);
		return DOCA_ERROR_NO_MEMORY;
	}
	q->mask = size - 1;
	q->notify = attr->notify;
	atomic_init(&q->cancel_status, DOCA_SUCCESS);
	snprintf(q->owner_name, sizeof(q->owner_name), "%s", attr->owner ? attr->owner : "?");
	q->nworkers = default_workers(attr->workers);
	for (int i = 0; i < q->nworkers; i++) {
		int rc;

		q->workers[i].q = q;
		q->workers[i].idx = i;
		rc = pthread_create(&q->workers[i].thread, NULL, i == 0 ? owner_main : helper_main, &q->workers[i]);
		if (rc != 0) {
			stop_workers(q, i);
			free(q->slots);
			free(q);
			return SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP, "%s: cannot start a worker thread: %s",
					 attr->owner, strerror(rc));
		}
		pthread_setname_np(q->workers[i].thread, i == 0 ? "softdoca-cpu" : "softdoca-cpu-h");
	}
	*out = q;
	return DOCA_SUCCESS;
}

static void cpu_queue_destroy(struct engine_queue *q)
{
	stop_workers(q, q->nworkers);
	free(q->slots);
	free(q);
}

static int cpu_submit(struct engine_queue *q, struct engine_job *job)
{
	uint32_t h = q->head_local;
	struct slot *sl;

	if (h - q->reaped > q->mask)
		return -EAGAIN;
	sl = &q->slots[h & q->mask];
	job->engine_priv = DOCA_SUCCESS;
	sl->job = job;
	sl->len = job->len;
	sl->single = job->nsrc == 1 && job->ndst == 1 && job->xfer == NULL && job->len < CPU_SPLIT_MIN;
	if (sl->single) {
		sl->src = job->src[0].addr;
		sl->dst = job->dst[0].addr;
	}
	q->head_local = h + 1;
	atomic_store_explicit(&sl->seq, h + 1, memory_order_release); /* publishes the slot */
	if (h - q->reaped >= CPU_CLAIM_AHEAD && h + CPU_CLAIM_AHEAD - q->reaped <= q->mask)
		prefetch_w(&q->slots[(h + CPU_CLAIM_AHEAD) & q->mask]);
	if (atomic_load_explicit(&q->owner_parked, memory_order_relaxed))
		publish_barrier(q); /* parked (or parking): the barrier, then the wake-up */
	return 0;
}

static unsigned int cpu_poll(struct engine_queue *q, unsigned int budget)
{
	uint32_t d;
	unsigned int n = 0;

	publish_barrier(q);
	d = atomic_load_explicit(&q->done, memory_order_acquire);
	while (q->reaped != d && n < budget) {
		struct engine_job *job = q->slots[q->reaped & q->mask].job;

		engine_task_complete_pe(job, (doca_error_t)job->engine_priv);
		q->reaped++;
		n++;
	}
	return n;
}

static bool cpu_pending(const struct engine_queue *q)
{
	/* Arming: the application is about to sleep, so a slot the owner has not seen yet must
	 * not be left to a parked owner. */
	publish_barrier((struct engine_queue *)q);
	return atomic_load(&((struct engine_queue *)q)->done) != q->reaped;
}

static void cpu_cancel(struct engine_queue *q, doca_error_t status)
{
	atomic_store_explicit(&q->cancel_status, (int)status, memory_order_release);
	wake_owner(q);
}

#define CPU_DESC "worker threads copy (large copies split over all workers); the submitting thread stays free"

const struct engine_ops engine_cpu_ops = {
    .name = "cpu",
    .desc = CPU_DESC,
    .queue_create = cpu_queue_create,
    .queue_destroy = cpu_queue_destroy,
    .submit = cpu_submit,
    .poll = cpu_poll,
    .pending = cpu_pending,
    .cancel = cpu_cancel,
};

const struct engine_backend engine_backend_cpu = {
    .name = "cpu",
    .desc = CPU_DESC,
    .kind = ENGINE_EXECUTOR,
    .pairs = ENGINE_PAIR(MEM_DOMAIN_LOCAL, MEM_DOMAIN_LOCAL),
    .priority = 20,
    .ops = &engine_cpu_ops,
};
