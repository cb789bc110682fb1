/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_executors.c - every executor of the registry, driven through engine.h alone, the way a
 * module's data path drives it: jobs, completion words, notifications, no DOCA objects.
 *
 * For each executor (the list comes from src/engines/meson.build through the registry):
 *   - single and multi-segment copies (segment boundaries that differ on the two sides)
 *   - queue full: a queue of depth D takes D jobs and refuses the next with -EAGAIN
 *   - ring wrap: many rounds through a small queue, every byte checked
 *   - parking and wake: a job submitted after the workers went idle still completes, and an
 *     armed notification is written by the thread that completed it
 *   - the submit/park race: jobs submitted just as the workers give up spinning, each waited
 *     for the way an application sleeps (arm, pending(), the handle), never lost
 *   - cpu: a parked worker is woken by the submit itself; the job runs with no poll()
 *   - chunking: a large job (above the split size) with odd segment sizes arrives whole
 *   - stop while busy: cancel() with a large job and small ones in flight: every job
 *     completes exactly once, either copied (SUCCESS) or with the cancel status
 *   - transports: a job with a transport goes through it (never memcpy), consecutive
 *     batchable ones together, and a transport's failure is that job's status alone
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "../common/sd_test.h"
#include "engine.h"

#define WAIT_NS (20ull * 1000 * 1000 * 1000) /* a job not done after 20 s is lost */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct item {
	struct engine_job job;
	struct engine_completion comp;
	struct engine_seg src[4], dst[4];
};

static void item_init(struct item *it, struct engine_notify *n)
{
	memset(it, 0, sizeof(*it));
	it->job.src = it->src;
	it->job.dst = it->dst;
	it->job.comp = &it->comp;
	it->comp.notify = n;
}

/* One segment each side. */
static void item_simple(struct item *it, void *dst, const void *src, uint64_t len)
{
	it->src[0] = (struct engine_seg){.addr = (void *)src, .len = len};
	it->dst[0] = (struct engine_seg){.addr = dst, .len = len};
	it->job.nsrc = it->job.ndst = 1;
	it->job.len = len;
	it->job.xfer = NULL;
	atomic_store(&it->comp.done, 0);
	it->comp.status = DOCA_ERROR_UNKNOWN;
}

/* Polls @q until every item of @its is done; fails after WAIT_NS. */
static void wait_all(const struct engine_ops *ops, struct engine_queue *q, struct item *its, unsigned int n)
{
	uint64_t t0 = now_ns();

	for (;;) {
		unsigned int done = 0;

		ops->poll(q, 64);
		for (unsigned int i = 0; i < n; i++)
			done += atomic_load_explicit(&its[i].comp.done, memory_order_acquire) != 0;
		if (done == n)
			return;
		if (now_ns() - t0 > WAIT_NS) {
			fprintf(stderr, "engine %s: %u of %u jobs never completed\n", ops->name, n - done, n);
			exit(T_EXIT_FAIL);
		}
	}
}

static struct engine_queue *make_queue(const struct engine_ops *ops, uint32_t depth, struct engine_notify *n)
{
	struct engine_queue_attr attr = {.depth = depth, .workers = 0, .notify = n, .owner = "test"};
	struct engine_queue *q = NULL;

	CHECK_OK(ops->queue_create(&attr, &q));
	CHECK(q != NULL);
	return q;
}

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 31u + seed);
}

static void test_segments(const struct engine_ops *ops)
{
	static uint8_t src[1000], dst[1000];
	struct engine_queue *q = make_queue(ops, 8, NULL);
	struct item it;

	fill(src, sizeof(src), 7);
	memset(dst, 0, sizeof(dst));
	item_init(&it, NULL);
	/* Source 100 + 400 + 500, destination 250 + 750: boundaries never line up. */
	it.src[0] = (struct engine_seg){src, 100};
	it.src[1] = (struct engine_seg){src + 100, 400};
	it.src[2] = (struct engine_seg){src + 500, 500};
	it.dst[0] = (struct engine_seg){dst, 250};
	it.dst[1] = (struct engine_seg){dst + 250, 750};
	it.job.nsrc = 3;
	it.job.ndst = 2;
	it.job.len = 1000;
	CHECK(ops->submit(q, &it.job) == 0);
	wait_all(ops, q, &it, 1);
	CHECK_ERR(it.comp.status, DOCA_SUCCESS);
	CHECK(memcmp(src, dst, sizeof(src)) == 0);
	ops->queue_destroy(q);
}

static void test_full_and_wrap(const struct engine_ops *ops)
{
	enum { DEPTH = 4, ROUNDS = 300, LEN = 256 };
	static uint8_t src[DEPTH][LEN], dst[DEPTH][LEN];
	struct item its[DEPTH + 1];
	struct engine_queue *q = make_queue(ops, DEPTH, NULL);

	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < DEPTH; i++) {
			fill(src[i], LEN, (unsigned int)(r * DEPTH + i));
			memset(dst[i], 0, LEN);
			item_init(&its[i], NULL);
			item_simple(&its[i], dst[i], src[i], LEN);
			CHECK(ops->submit(q, &its[i].job) == 0);
		}
		if (r == 0) {
			/* The queue holds DEPTH jobs; the next is refused and not taken. */
			item_init(&its[DEPTH], NULL);
			item_simple(&its[DEPTH], dst[0], src[0], LEN);
			CHECK(ops->submit(q, &its[DEPTH].job) == -EAGAIN);
		}
		wait_all(ops, q, its, DEPTH);
		for (int i = 0; i < DEPTH; i++) {
			CHECK_ERR(its[i].comp.status, DOCA_SUCCESS);
			CHECK(memcmp(src[i], dst[i], LEN) == 0);
		}
	}
	CHECK(atomic_load(&its[DEPTH].comp.done) == 0); /* the refused job was never reported */
	CHECK(!ops->pending(q));
	ops->queue_destroy(q);
}

/* A notification handle (an eventfd, as the PE's), @armed or not. */
static void notify_open(struct engine_notify *n, int armed)
{
	n->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	CHECK(n->efd >= 0);
	atomic_init(&n->armed, armed);
}

static void test_park_and_notify(const struct engine_ops *ops)
{
	static uint8_t src[4096], dst[4096];
	struct engine_notify n;
	struct engine_queue *q;
	struct item it;

	notify_open(&n, 0);
	int notified = 0;

	q = make_queue(ops, 4, &n);
	for (int round = 0; round < 3; round++) {
		struct timespec idle = {.tv_sec = 0, .tv_nsec = 20 * 1000 * 1000}; /* well past the spin */
		nanosleep(&idle, NULL);
		/* A wake-up the previous round did not wait for may still be in the counter: drop it. */
		{
			uint64_t stale;

			atomic_store(&n.armed, 0);
			while (read(n.efd, &stale, sizeof(stale)) == sizeof(stale))
				;
		}
		fill(src, sizeof(src), (unsigned int)round);
		item_init(&it, &n);
		item_simple(&it, dst, src, sizeof(src));
		atomic_store(&n.armed, 1);
		CHECK(ops->submit(q, &it.job) == 0);
		/*
		 * An executor with work for poll() right after submit runs jobs there (the core writes
		 * the handle for those). One without runs them on its own threads: the thread that
		 * finishes the job writes the armed handle.
		 */
		if (!ops->pending(q) && !atomic_load(&it.comp.done)) {
			struct pollfd pfd = {.fd = n.efd, .events = POLLIN};
			uint64_t v;

			CHECK(poll(&pfd, 1, 20000) == 1);
			CHECK(read(n.efd, &v, sizeof(v)) == sizeof(v));
			notified++;
		}
		wait_all(ops, q, &it, 1);
		CHECK(memcmp(src, dst, sizeof(src)) == 0);
	}
	printf("  %s: %d of 3 wake-ups came from the executor's own thread\n", ops->name, notified);
	ops->queue_destroy(q);
	close(n.efd);
}

/*
 * Jobs submitted around the moment the workers stop spinning and park (the cpu engine spins
 * 50 us): each is waited for as a sleeping application does (armed handle, pending(), then the
 * handle or, for work that poll() runs, poll()), and must complete. A submit that raced with
 * the worker going to sleep is the executor's to catch (at arming, in pending()).
 */
static void test_park_race(const struct engine_ops *ops)
{
	enum { ROUNDS = 1500 };
	static uint8_t src[64], dst[64];
	struct engine_notify n;
	struct engine_queue *q;
	struct item it;

	notify_open(&n, 0);
	q = make_queue(ops, 4, &n);
	for (int r = 0; r < ROUNDS; r++) {
		struct timespec gap = {.tv_sec = 0, .tv_nsec = 30000 + (r * 7919) % 40000}; /* 30-70 us */
		uint64_t v;

		nanosleep(&gap, NULL);
		fill(src, sizeof(src), (unsigned int)r);
		item_init(&it, &n);
		item_simple(&it, dst, src, sizeof(src));
		CHECK(ops->submit(q, &it.job) == 0);
		atomic_store(&n.armed, 1);
		if (!ops->pending(q)) {
			struct pollfd pfd = {.fd = n.efd, .events = POLLIN};

			if (poll(&pfd, 1, 20000) != 1) {
				fprintf(stderr, "engine %s: round %d: a job submitted as the worker parked was lost\n",
					ops->name, r);
				exit(T_EXIT_FAIL);
			}
		}
		atomic_store(&n.armed, 0);
		while (read(n.efd, &v, sizeof(v)) == sizeof(v))
			;
		wait_all(ops, q, &it, 1);
		CHECK(memcmp(src, dst, sizeof(src)) == 0);
	}
	ops->queue_destroy(q);
	close(n.efd);
}

/*
 * The cpu engine's parked owner is woken by the submit itself: the job is copied while the
 * submitting thread calls nothing (the armed handle is written by the worker), as an offload
 * must. Its completion is then delivered by poll() as always.
 */
static void test_wake_without_poll(const struct engine_ops *ops)
{
	static uint8_t src[4096], dst[4096];
	struct engine_notify n;
	struct engine_queue *q;
	struct item it;

	notify_open(&n, 1);
	q = make_queue(ops, 4, &n);
	for (int round = 0; round < 5; round++) {
		struct timespec idle = {.tv_sec = 0, .tv_nsec = 20 * 1000 * 1000}; /* well past the spin */
		struct pollfd pfd = {.fd = n.efd, .events = POLLIN};
		uint64_t v;

		nanosleep(&idle, NULL);
		fill(src, sizeof(src), (unsigned int)round);
		item_init(&it, &n);
		item_simple(&it, dst, src, sizeof(src));
		atomic_store(&n.armed, 1);
		CHECK(ops->submit(q, &it.job) == 0);
		CHECK(poll(&pfd, 1, 20000) == 1); /* no poll(), no pending(): the worker ran it */
		CHECK(read(n.efd, &v, sizeof(v)) == sizeof(v));
		wait_all(ops, q, &it, 1);
		CHECK(memcmp(src, dst, sizeof(src)) == 0);
	}
	ops->queue_destroy(q);
	close(n.efd);
}

static void test_chunking(const struct engine_ops *ops)
{
	const size_t len = (8u << 20) + 12345;
	uint8_t *src = malloc(len), *dst = malloc(len);
	struct engine_queue *q = make_queue(ops, 4, NULL);
	struct item it;

	CHECK(src != NULL && dst != NULL);
	fill(src, len, 3);
	memset(dst, 0, len);
	item_init(&it, NULL);
	it.src[0] = (struct engine_seg){src, 3u << 20};
	it.src[1] = (struct engine_seg){src + (3u << 20), len - (3u << 20)};
	it.dst[0] = (struct engine_seg){dst, 1u << 20};
	it.dst[1] = (struct engine_seg){dst + (1u << 20), 77};
	it.dst[2] = (struct engine_seg){dst + (1u << 20) + 77, len - (1u << 20) - 77};
	it.job.nsrc = 2;
	it.job.ndst = 3;
	it.job.len = len;
	CHECK(ops->submit(q, &it.job) == 0);
	wait_all(ops, q, &it, 1);
	CHECK_ERR(it.comp.status, DOCA_SUCCESS);
	CHECK(memcmp(src, dst, len) == 0);
	ops->queue_destroy(q);
	free(src);
	free(dst);
}

static void test_cancel_busy(const struct engine_ops *ops)
{
	enum { SMALL = 6 };
	const size_t big = 32u << 20;
	uint8_t *src = malloc(big), *dst = malloc(big);
	static uint8_t ssrc[SMALL][512], sdst[SMALL][512];
	struct item its[SMALL + 1];
	struct engine_queue *q = make_queue(ops, 16, NULL);

	CHECK(src != NULL && dst != NULL);
	fill(src, big, 9);
	memset(dst, 0, big);
	item_init(&its[0], NULL);
	item_simple(&its[0], dst, src, big);
	CHECK(ops->submit(q, &its[0].job) == 0);
	for (int i = 0; i < SMALL; i++) {
		fill(ssrc[i], 512, (unsigned int)i);
		memset(sdst[i], 0, 512);
		item_init(&its[i + 1], NULL);
		item_simple(&its[i + 1], sdst[i], ssrc[i], 512);
		CHECK(ops->submit(q, &its[i + 1].job) == 0);
	}
	ops->cancel(q, DOCA_ERROR_CONNECTION_ABORTED);
	wait_all(ops, q, its, SMALL + 1);
	for (int i = 0; i <= SMALL; i++) {
		doca_error_t st = its[i].comp.status;

		CHECK(st == DOCA_SUCCESS || st == DOCA_ERROR_CONNECTION_ABORTED);
		if (st == DOCA_SUCCESS) /* a job reported copied was copied */
			CHECK(i == 0 ? memcmp(src, dst, big) == 0 : memcmp(ssrc[i - 1], sdst[i - 1], 512) == 0);
	}
	ops->queue_destroy(q);
	free(src);
	free(dst);
}

/* ---- a transport of the test's own ---- */

static atomic_uint fake_calls, fake_batched, fake_jobs;

static doca_error_t fake_range(const struct engine_job *job, uint64_t off, uint64_t len, const char *owner)
{
	(void)owner;
	atomic_fetch_add(&fake_calls, 1);
	if (job->src[0].len == 13) /* the marked job fails */
		return DOCA_ERROR_IO_FAILED;
	/* Moves the bytes reversed, so a memcpy by the executor would be seen. */
	for (uint64_t i = 0; i < len; i++)
		((uint8_t *)job->dst[0].addr)[off + i] = (uint8_t) ~((const uint8_t *)job->src[0].addr)[off + i];
	return DOCA_SUCCESS;
}

static void fake_batch(struct engine_job *const *jobs, unsigned int n, doca_error_t *status, const char *owner)
{
	atomic_fetch_add(&fake_batched, n > 1);
	atomic_fetch_add(&fake_jobs, n);
	for (unsigned int i = 0; i < n; i++)
		status[i] = fake_range(jobs[i], 0, jobs[i]->len, owner);
}

static const struct engine_xfer fake_xfer = {
    .copy_range = fake_range,
    .copy_batch = fake_batch,
};

static void test_transport(const struct engine_ops *ops)
{
	enum { N = 16, LEN = 64 };
	static uint8_t src[N][LEN], dst[N][LEN];
	static struct mem_domain dom = {.kind = MEM_DOMAIN_REMOTE, .name = "test domain"};
	struct item its[N];
	struct engine_queue *q = make_queue(ops, N, NULL);

	atomic_store(&fake_calls, 0);
	atomic_store(&fake_batched, 0);
	atomic_store(&fake_jobs, 0);
	for (int i = 0; i < N; i++) {
		fill(src[i], LEN, (unsigned int)i);
		memset(dst[i], 0, LEN);
		item_init(&its[i], NULL);
		item_simple(&its[i], dst[i], src[i], i == 5 ? 13 : LEN);
		its[i].job.src_dom = &dom;
		its[i].job.xfer = &fake_xfer;
	}
	for (int i = 0; i < N; i++)
		CHECK(ops->submit(q, &its[i].job) == 0);
	wait_all(ops, q, its, N);
	for (int i = 0; i < N; i++) {
		if (i == 5) {
			CHECK_ERR(its[i].comp.status, DOCA_ERROR_IO_FAILED);
			continue;
		}
		CHECK_ERR(its[i].comp.status, DOCA_SUCCESS);
		for (int k = 0; k < LEN; k++) {
			unsigned int want = 255u - src[i][k];

			CHECK(dst[i][k] == want);
		}
	}
	CHECK(atomic_load(&fake_calls) == N);
	CHECK(atomic_load(&fake_jobs) == N); /* every job through copy_batch */
	ops->queue_destroy(q);
}

int main(void)
{
	int executors = 0;

	for (const struct engine_backend *const *b = engine_backends; *b != NULL; b++) {
		const struct engine_ops *ops;

		if ((*b)->kind != ENGINE_EXECUTOR)
			continue;
		ops = (*b)->ops;
		CHECK(ops != NULL && engine_find((*b)->name) == ops);
		CHECK(ops->queue_create && ops->queue_destroy && ops->submit && ops->poll && ops->pending &&
		      ops->cancel);
		if (!engine_backend_usable(*b, NULL, 0)) {
			printf("skip %s: not usable here\n", (*b)->name);
			continue;
		}
		printf("executor %s\n", (*b)->name);
		test_segments(ops);
		test_full_and_wrap(ops);
		test_park_and_notify(ops);
		test_park_race(ops);
		if (strcmp(ops->name, "cpu") == 0)
			test_wake_without_poll(ops);
		test_chunking(ops);
		test_cancel_busy(ops);
		test_transport(ops);
		executors++;
	}
	CHECK(executors >= 3);
	printf("%d executors passed\n", executors);
	return T_EXIT_PASS;
}
