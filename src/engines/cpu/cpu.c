/*
 * cpu.c - the cpu engine: a worker thread per queue copies the jobs.
 *
 *   PE thread (producer)                      worker (consumer)
 *   submit: ring push (release head) ------>  pop (acquire head), copy,
 *           if worker parked: futex wake      engine_task_complete (release done)
 *                                             nothing to do: spin ~CPU_SPIN_NS, then park
 *
 * The ring is single-producer/single-consumer: the producer owns `head` and a cached copy of
 * `tail`, the consumer owns `tail` and a cached copy of `head`; each pair sits on its own cache
 * line so the two threads only share a line when one actually has to look at the other's index.
 * Parking: the worker sets `parked`, re-checks the ring (seq_cst) and sleeps on a futex; the
 * producer publishes, then (seq_cst) reads `parked` and wakes. An idle engine uses no CPU.
 *
 * Stop: cancel() sets `cancel_status`; the worker completes every job it pops afterwards with
 * that status without copying. destroy() sets `quit`, wakes and joins the worker.
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

#define COMP "cpu"
/* How long an idle worker spins before parking: long enough to catch the next task of a busy
 * application, short enough that an idle engine costs nothing. */
#define CPU_SPIN_NS 50000ull

struct engine_queue {
	/* Producer side (PE thread). */
	alignas(SD_CACHELINE) atomic_uint head;
	uint32_t tail_cache;
	/* Consumer side (worker). */
	alignas(SD_CACHELINE) atomic_uint tail;
	uint32_t head_cache;
	/* Shared, rarely written. */
	alignas(SD_CACHELINE) atomic_int parked;
	atomic_int quit;
	atomic_int cancel_status; /* DOCA_SUCCESS = not cancelled */
	uint32_t mask;
	struct engine_job **slots;
	pthread_t thread;
	char owner[64];
};

static long futex(atomic_int *addr, int op, int val)
{
	return syscall(SYS_futex, (int *)addr, op, val, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Consumer: next job or NULL. */
static struct engine_job *ring_pop(struct engine_queue *q)
{
	uint32_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);
	struct engine_job *job;

	if (t == q->head_cache) {
		q->head_cache = atomic_load_explicit(&q->head, memory_order_acquire);
		if (t == q->head_cache)
			return NULL;
	}
	job = q->slots[t & q->mask];
	atomic_store_explicit(&q->tail, t + 1, memory_order_release);
	return job;
}

static doca_error_t run_job(struct engine_job *job)
{
	if (job->src_pid != 0 || job->dst_pid != 0)
		return DOCA_ERROR_NOT_SUPPORTED;
	engine_copy_local(job);
	return DOCA_SUCCESS;
}

static void *worker_main(void *arg)
{
	struct engine_queue *q = arg;
	uint64_t idle_since = 0;

	for (;;) {
		struct engine_job *job = ring_pop(q);

		if (job != NULL) {
			int cancel = atomic_load_explicit(&q->cancel_status, memory_order_acquire);

			engine_task_complete(job, cancel != DOCA_SUCCESS ? (doca_error_t)cancel : run_job(job));
			idle_since = 0;
			continue;
		}
		if (atomic_load_explicit(&q->quit, memory_order_acquire))
			break;
		if (idle_since == 0) {
			idle_since = now_ns();
			continue;
		}
		if (now_ns() - idle_since < CPU_SPIN_NS) {
			for (int i = 0; i < 64; i++)
				cpu_relax();
			continue;
		}
		atomic_store(&q->parked, 1);
		if (atomic_load(&q->head) != atomic_load_explicit(&q->tail, memory_order_relaxed) ||
		    atomic_load(&q->quit)) {
			atomic_store(&q->parked, 0);
			continue;
		}
		futex(&q->parked, FUTEX_WAIT_PRIVATE, 1);
		atomic_store(&q->parked, 0);
		idle_since = 0;
	}
	return NULL;
}

static void wake(struct engine_queue *q)
{
	if (atomic_load(&q->parked) && atomic_exchange(&q->parked, 0))
		futex(&q->parked, FUTEX_WAKE_PRIVATE, 1);
}

static doca_error_t cpu_queue_create(const struct engine_queue_attr *attr, struct engine_queue **out)
{
	struct engine_queue *q;
	uint32_t size = 1;
	int rc;

	while (size < attr->depth && size < (1u << 30))
		size <<= 1;
	if (posix_memalign((void **)&q, SD_CACHELINE, sizeof(*q)) != 0)
		return DOCA_ERROR_NO_MEMORY;
	memset(q, 0, sizeof(*q));
	q->slots = calloc(size, sizeof(*q->slots));
	if (q->slots == NULL) {
		free(q);
		return DOCA_ERROR_NO_MEMORY;
	}
	q->mask = size - 1;
	atomic_init(&q->head, 0);
	atomic_init(&q->tail, 0);
	atomic_init(&q->parked, 0);
	atomic_init(&q->quit, 0);
	atomic_init(&q->cancel_status, DOCA_SUCCESS);
	snprintf(q->owner, sizeof(q->owner), "%s", attr->owner ? attr->owner : "?");
	rc = pthread_create(&q->thread, NULL, worker_main, q);
	if (rc != 0) {
		free(q->slots);
		free(q);
		return SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP, "%s: cannot start a worker thread: %s", attr->owner,
				 strerror(rc));
	}
	pthread_setname_np(q->thread, "softdoca-cpu");
	*out = q;
	return DOCA_SUCCESS;
}

static void cpu_queue_destroy(struct engine_queue *q)
{
	atomic_store(&q->quit, 1);
	atomic_store(&q->parked, 0);
	futex(&q->parked, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(q->thread, NULL);
	free(q->slots);
	free(q);
}

static int cpu_submit(struct engine_queue *q, struct engine_job *job)
{
	uint32_t h = atomic_load_explicit(&q->head, memory_order_relaxed);

	if (h - q->tail_cache > q->mask) {
		q->tail_cache = atomic_load_explicit(&q->tail, memory_order_acquire);
		if (h - q->tail_cache > q->mask)
			return -EAGAIN;
	}
	q->slots[h & q->mask] = job;
	atomic_store(&q->head, h + 1); /* seq_cst: ordered before the `parked` load in wake() */
	wake(q);
	return 0;
}

static void cpu_cancel(struct engine_queue *q, doca_error_t status)
{
	atomic_store_explicit(&q->cancel_status, (int)status, memory_order_release);
	wake(q);
}

const struct engine_ops engine_cpu_ops = {
	.name = "cpu",
	.desc = "a worker thread per context copies; the submitting thread stays free",
	.queue_create = cpu_queue_create,
	.queue_destroy = cpu_queue_destroy,
	.submit = cpu_submit,
	.poll = engine_nop_poll,
	.pending = engine_nop_pending,
	.cancel = cpu_cancel,
};
