/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_auto.c - how the auto executor places large jobs (src/engines/auto). Jobs the worker
 * splits (2 MiB and more): on the cpu worker while the application sleeps between completions
 * (it waits on the notification eventfd), inline once it is seen spinning in progress, and
 * back on the worker after a probe finds it sleeping again; counts, not timings: each decision
 * depends on how many progress calls the application makes while a worker job is in flight.
 * Smaller large jobs: inline unless the application works between progress calls.
 * Jobs of a few KiB: inline one at a time; with many queued, timed inline and on the worker in
 * turn (which one wins is the machine's business: the test checks that both were tried, that
 * every copy lands, and that shallow queues never reach the worker).
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "../common/sd_test.h"
#include "engine.h"

bool engine_auto_spinning(const struct engine_queue *q);
bool engine_auto_overlaps(const struct engine_queue *q);
uint64_t engine_auto_par_cpu_jobs(const struct engine_queue *q, bool *chosen);
uint64_t engine_auto_big_cpu_jobs(const struct engine_queue *q);

#define LEN	(2u << 20)
#define MAX_LEN (128u << 20)

static uint8_t *src, *dst;
static struct engine_job job;
static struct engine_completion comp;
static struct engine_seg s0, d0;
static struct engine_notify note;

static void submit_len(const struct engine_ops *ops, struct engine_queue *q, uint8_t seed, size_t len)
{
	memset(src, seed, len);
	s0 = (struct engine_seg){src, len};
	d0 = (struct engine_seg){dst, len};
	job = (struct engine_job){.src = &s0, .dst = &d0, .nsrc = 1, .ndst = 1, .len = len, .comp = &comp};
	comp = (struct engine_completion){.notify = &note};
	CHECK(ops->submit(q, &job) == 0);
}

static void submit(const struct engine_ops *ops, struct engine_queue *q, uint8_t seed)
{
	submit_len(ops, q, seed, LEN);
}

/* Spins in poll() until the job is done; returns the number of poll calls. */
static unsigned int spin(const struct engine_ops *ops, struct engine_queue *q)
{
	unsigned int polls = 0;
	uint64_t t0 = sd_now_ns();

	while (!atomic_load(&comp.done)) {
		ops->poll(q, 64);
		polls++;
		CHECK(sd_now_ns() - t0 < 20ull * 1000000000ull);
	}
	return polls;
}

/* Sleeps on the eventfd (armed) until the worker says it is done, then polls once or twice. */
static void sleep_wait(const struct engine_ops *ops, struct engine_queue *q)
{
	for (int i = 0; i < 8 && !atomic_load(&comp.done); i++) {
		struct pollfd pfd = {.fd = note.efd, .events = POLLIN};
		uint64_t v;

		atomic_store(&note.armed, 1);
		if (!ops->pending(q))
			CHECK(poll(&pfd, 1, 20000) == 1);
		if (pfd.revents & POLLIN)
			CHECK(read(note.efd, &v, sizeof(v)) == sizeof(v));
		ops->poll(q, 64);
	}
	CHECK(atomic_load(&comp.done));
}

/* Deep queues of 4 KiB jobs (see auto.c): MID_DEPTH queued per round, then polled to the end. */
#define MID_LEN	  4096u
#define MID_DEPTH 64u

static struct engine_job mjobs[MID_DEPTH];
static struct engine_completion mcomps[MID_DEPTH];
static struct engine_seg ms[MID_DEPTH], md[MID_DEPTH];

/* One round of @n jobs, polled after each submit when @shallow; checks every copy. */
static void mid_round(const struct engine_ops *ops, struct engine_queue *q, unsigned int n, bool shallow, uint8_t seed)
{
	unsigned int left = n;
	uint64_t t0 = sd_now_ns();

	for (unsigned int i = 0; i < n; i++) {
		uint8_t *s = src + (size_t)i * MID_LEN, *d = dst + (size_t)i * MID_LEN;

		s[0] = (uint8_t)(seed + i);
		s[MID_LEN - 1] = (uint8_t)(seed - i);
		d[0] = d[MID_LEN - 1] = 0;
		ms[i] = (struct engine_seg){s, MID_LEN};
		md[i] = (struct engine_seg){d, MID_LEN};
		mcomps[i] = (struct engine_completion){.notify = &note};
		mjobs[i] = (struct engine_job){
		    .src = &ms[i], .dst = &md[i], .nsrc = 1, .ndst = 1, .len = MID_LEN, .comp = &mcomps[i]};
		CHECK(ops->submit(q, &mjobs[i]) == 0);
		if (shallow) {
			while (!atomic_load(&mcomps[i].done))
				ops->poll(q, 64);
			left--;
		}
	}
	while (left > 0) {
		left -= ops->poll(q, 64);
		CHECK(sd_now_ns() - t0 < 20ull * 1000000000ull);
	}
	for (unsigned int i = 0; i < n; i++) {
		CHECK(atomic_load(&mcomps[i].done) && mcomps[i].status == DOCA_SUCCESS);
		CHECK(dst[(size_t)i * MID_LEN] == (uint8_t)(seed + i));
		CHECK(dst[(size_t)i * MID_LEN + MID_LEN - 1] == (uint8_t)(seed - i));
	}
}

static void test_mid(const struct engine_ops *ops)
{
	struct engine_queue_attr attr = {.depth = MID_DEPTH, .notify = &note, .owner = "test-mid"};
	struct engine_queue *q;
	uint64_t before;
	bool chosen;

	CHECK_OK(ops->queue_create(&attr, &q));
	/* One at a time: never deep, never on the worker. */
	for (int r = 0; r < 100; r++)
		mid_round(ops, q, MID_DEPTH, true, (uint8_t)r);
	CHECK(engine_auto_par_cpu_jobs(q, &chosen) == 0 && !chosen);
	/* Deep: after eight windows of 4096 (warm-up, two timed, the same on the worker, and two
	 * more), the worker copied at least the three windows of its turn. */
	for (int r = 0; r < 8 * 4096 / (int)(MID_DEPTH - 16) + 1; r++)
		mid_round(ops, q, MID_DEPTH, false, (uint8_t)(r * 3));
	before = engine_auto_par_cpu_jobs(q, &chosen);
	printf("deep 4 KiB jobs: %llu on the worker, the worker %s\n", (unsigned long long)before,
	       chosen ? "chosen" : "not chosen");
	CHECK(before >= 3 * 4096);
	/* Shallow again: whatever was chosen, nothing more goes to the worker. */
	for (int r = 0; r < 20; r++)
		mid_round(ops, q, MID_DEPTH, true, (uint8_t)(r + 7));
	CHECK(engine_auto_par_cpu_jobs(q, &chosen) == before);
	ops->queue_destroy(q);
}

int main(void)
{
	const struct engine_ops *ops = engine_find("auto");
	struct engine_queue_attr attr = {.depth = 4, .notify = &note, .owner = "test"};
	struct engine_queue *q;
	unsigned int polls = 0;

	CHECK(ops != NULL);
	src = malloc(MAX_LEN);
	dst = malloc(MAX_LEN);
	CHECK(src != NULL && dst != NULL);
	note.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	CHECK(note.efd >= 0);
	CHECK_OK(ops->queue_create(&attr, &q));

	/* A sleeping application: large jobs stay on the worker. */
	for (int i = 0; i < 3; i++) {
		submit(ops, q, (uint8_t)i);
		sleep_wait(ops, q);
		CHECK_MEM(dst, src, LEN);
		CHECK(!engine_auto_spinning(q));
	}
	/*
	 * A spinning one: after a worker job seen with many progress calls, large jobs run inline.
	 * Where progress calls are slow against the copy (sanitizer builds), a 2 MiB job can finish
	 * within fewer calls than auto needs to call it spinning; then it rightly stays on the
	 * worker, and the job doubles until one lasts long enough.
	 */
	for (size_t len = LEN; len <= MAX_LEN; len *= 2) {
		CHECK(!engine_auto_spinning(q));
		submit_len(ops, q, 7, len);
		polls = spin(ops, q);
		CHECK_MEM(dst, src, len);
		printf("a %zu MiB worker job took %u progress calls of a spinning application\n", len >> 20, polls);
		if (polls >= 16)
			break;
	}
	CHECK(polls >= 16);
	CHECK(engine_auto_spinning(q));
	for (int i = 0; i < 63; i++) {
		submit(ops, q, (uint8_t)(10 + i));
		ops->poll(q, 64); /* inline: copied by this very call */
		CHECK(atomic_load(&comp.done));
		CHECK(dst[LEN - 1] == (uint8_t)(10 + i));
	}
	/* The 64th large job probes the worker again; a sleeping wait turns auto back. */
	submit(ops, q, 99);
	sleep_wait(ops, q);
	CHECK_MEM(dst, src, LEN);
	CHECK(!engine_auto_spinning(q));
	/*
	 * Jobs the worker would not split (below 2 MiB): inline while the application sleeps on
	 * the notification or spins, at any depth (it would only wait for the worker); on the
	 * worker once it is seen doing work of its own between progress calls (here: 5 ms away
	 * without arming, against copies of 1 MiB, a margin of more than 20 even under the
	 * sanitizers), and inline again after a window of sleeping.
	 */
	CHECK(!engine_auto_overlaps(q));
	for (int i = 0; i < 40; i++) {
		submit_len(ops, q, (uint8_t)(20 + i), LEN / 2);
		atomic_store(&note.armed, 1);
		CHECK(ops->pending(q)); /* arming: the inline job is work, so no sleep */
		ops->poll(q, 64);	/* inline: copied by this very call */
		CHECK(atomic_load(&comp.done));
		CHECK(dst[LEN / 2 - 1] == (uint8_t)(20 + i));
	}
	CHECK(!engine_auto_overlaps(q));
	uint64_t big = engine_auto_big_cpu_jobs(q);
	for (int i = 0; i < 40 && !engine_auto_overlaps(q); i++) {
		submit_len(ops, q, (uint8_t)(60 + i), LEN / 2);
		usleep(5000); /* the application's own work: no progress call, no arming */
		spin(ops, q);
		CHECK_MEM(dst, src, LEN / 2);
	}
	CHECK(engine_auto_overlaps(q));
	submit_len(ops, q, 1, LEN / 2);
	CHECK(!atomic_load(&comp.done)); /* on the worker now: only poll marks it done */
	sleep_wait(ops, q);
	CHECK_MEM(dst, src, LEN / 2);
	/*
	 * Then both executors are timed on the application's own stream of jobs (windows of 16:
	 * one on the worker not timed, two timed, the same inline) and the faster takes the jobs.
	 * Which one wins here is the machine's business; that both ran is the test's.
	 */
	for (int i = 0; i < 6 * 16 && engine_auto_overlaps(q); i++) {
		submit_len(ops, q, (uint8_t)(140 + i), LEN / 2);
		usleep(5000); /* the application's own work, as above */
		spin(ops, q);
		CHECK_MEM(dst, src, LEN / 2);
	}
	CHECK(engine_auto_overlaps(q));
	printf("an overlapping application's timing: %" PRIu64 " jobs on the worker\n",
	       engine_auto_big_cpu_jobs(q) - big);
	/*
	 * 98 jobs timed (the one that showed the overlap, the one above, 96 here): 47 on the
	 * worker (a window's last job opens the next phase), 48 inline, and 3 where the choice
	 * says, all on the worker or all inline.
	 */
	CHECK(engine_auto_big_cpu_jobs(q) - big == 47 || engine_auto_big_cpu_jobs(q) - big == 50);
	for (int i = 0; i < 40 && engine_auto_overlaps(q); i++) {
		submit_len(ops, q, (uint8_t)(100 + i), LEN / 2);
		sleep_wait(ops, q);
		CHECK_MEM(dst, src, LEN / 2);
	}
	CHECK(!engine_auto_overlaps(q));
	submit_len(ops, q, 2, LEN / 2);
	ops->poll(q, 64);
	CHECK(atomic_load(&comp.done)); /* inline again */
	submit(ops, q, 3);		/* 2 MiB: split by the worker, so it goes there even now */
	CHECK(!atomic_load(&comp.done));
	sleep_wait(ops, q);
	CHECK_MEM(dst, src, LEN);
	ops->queue_destroy(q);
	test_mid(ops);
	close(note.efd);
	free(src);
	free(dst);
	printf("auto: split jobs on the workers unless the application spins; smaller ones inline unless it "
	       "works between progress calls; deep queues of a few KiB timed on both\n");
	return T_EXIT_PASS;
}
