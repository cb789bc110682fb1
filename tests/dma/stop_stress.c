/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stop_stress.c - contexts stopped while their engine is mid-batch.
 *
 * Each round fills the task pool (small copies and a few large ones, so worker engines hold
 * whole batches and long copies when the stop comes), makes a few progress calls, stops the
 * context and progresses until IDLE, then starts it again for the next round. Checked:
 * - every submitted task completes exactly once, through the completion callback with its
 *   bytes in place, or through the error callback with DOCA_ERROR_IO_FAILED (flushed);
 * - a task's memory is the application's again once its callback returns: each callback
 *   overwrites the task's destination with a pattern, which must still be there at the end of
 *   the round, after the workers had time to finish anything they still held;
 * - the pool is whole again after every stop (the next round allocates all of it).
 * Run once per copy engine (SOFTDOCA_ENGINE); suite 'stress', also under TSan.
 */
#include "dma_test.h"

enum {
	TASKS = 256,
	LARGE_EVERY = 32,	 /* every 32nd task is large */
	SMALL_MAX = 4096,	 /* small copies: 1 .. 4096 bytes */
	LARGE_LEN = 1024 * 1024, /* large copies */
	SRC_LEN = 2 * LARGE_LEN, /* source bytes every task reads from */
	DST_LEN = (TASKS - TASKS / LARGE_EVERY) * SMALL_MAX + TASKS / LARGE_EVERY * LARGE_LEN,
	PATTERN = 0xEE,		   /* written after IDLE: no engine may touch it */
	LATE_WAIT_NS = 2000000ull, /* how long a late write gets to show up */
};

struct round {
	uint8_t *src, *dst, *pattern;
	size_t len[TASKS];
	size_t slot[TASKS]; /* destination offset of each task */
	size_t off[TASKS];
	unsigned int seen[TASKS];
	size_t ok, flushed, bad;
};

static struct round r;

static void done_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud, bool ok)
{
	struct doca_task *task = doca_dma_task_memcpy_as_task(t);
	struct doca_buf *s = (struct doca_buf *)doca_dma_task_memcpy_get_src(t);
	struct doca_buf *d = doca_dma_task_memcpy_get_dst(t);
	doca_error_t st = doca_task_get_status(task);
	uint64_t i = ud.u64;

	(void)ctx_ud;
	if (i >= TASKS) {
		r.bad++;
	} else {
		r.seen[i]++;
		if (ok) {
			r.ok++;
			if (st != DOCA_SUCCESS || memcmp(r.dst + r.slot[i], r.src + r.off[i], r.len[i]) != 0)
				r.bad++;
		} else {
			r.flushed++;
			if (st != DOCA_ERROR_IO_FAILED)
				r.bad++;
		}
	}
	if (i < TASKS)
		memset(r.dst + r.slot[i], PATTERN, r.len[i]); /* the application reuses the memory */
	doca_task_free(task);
	doca_buf_dec_refcount(s, NULL);
	doca_buf_dec_refcount(d, NULL);
}

static void ok_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	done_cb(t, ud, ctx_ud, true);
}

static void err_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	done_cb(t, ud, ctx_ud, false);
}

static int one_round(struct dma_fix *f, uint64_t *seed, unsigned int polls, size_t *rounds_with_flush)
{
	enum doca_ctx_states st;
	doca_error_t ret;
	unsigned int n = 0;

	memset(r.seen, 0, sizeof(r.seen));
	r.ok = r.flushed = 0;
	memset(r.dst, 0, DST_LEN);
	for (unsigned int i = 0; i < TASKS; i++) {
		bool large = i % LARGE_EVERY == LARGE_EVERY - 1;
		struct doca_buf *s, *d;

		r.slot[i] =
		    i == 0 ? 0 : r.slot[i - 1] + ((i - 1) % LARGE_EVERY == LARGE_EVERY - 1 ? LARGE_LEN : SMALL_MAX);
		r.len[i] = large ? LARGE_LEN : prng_range(seed, 1, SMALL_MAX);
		r.off[i] = prng_range(seed, 0, SRC_LEN - r.len[i]);
		CHECK_OK(fix_buf(f, r.src + r.off[i], r.len[i], r.src + r.off[i], r.len[i], &s));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(f->inv, f->mmap, r.dst + r.slot[i],
							    large ? LARGE_LEN : SMALL_MAX, &d));
		ret = fix_submit(f, s, d, i, NULL);
		if (ret != DOCA_SUCCESS) {
			/* AGAIN: the engine queue is full; what was submitted is what this round stops. */
			CHECK_ERR(ret, DOCA_ERROR_AGAIN);
			doca_buf_dec_refcount(s, NULL);
			doca_buf_dec_refcount(d, NULL);
			break;
		}
		n++;
	}
	for (unsigned int p = 0; p < polls; p++)
		doca_pe_progress(f->pe);
	ret = doca_ctx_stop(f->ctx);
	CHECK(ret == DOCA_SUCCESS || ret == DOCA_ERROR_IN_PROGRESS);
	CHECK(pe_wait_state(f->pe, f->ctx, DOCA_CTX_STATE_IDLE) == 0);
	CHECK_EQ(r.bad, 0);
	CHECK_EQ(r.ok + r.flushed, n);
	for (unsigned int i = 0; i < n; i++)
		CHECK_EQ(r.seen[i], 1);
	if (r.flushed > 0)
		(*rounds_with_flush)++;
	/* Every callback has returned: no engine may write a destination any more. */
	for (uint64_t t0 = sd_now_ns(); sd_now_ns() - t0 < LATE_WAIT_NS;)
		doca_pe_progress(f->pe);
	for (unsigned int i = 0; i < n; i++)
		if (memcmp(r.dst + r.slot[i], r.pattern, r.len[i]) != 0) {
			fprintf(stderr, "  task %u (%zu bytes): destination written after its %s callback returned\n",
				i, r.len[i], r.seen[i] ? "completion" : "(missing)");
			return T_EXIT_FAIL;
		}
	CHECK_OK(doca_ctx_get_state(f->ctx, &st));
	CHECK_EQ(st, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_start(f->ctx));
	return 0;
}

int main(int argc, char **argv)
{
	const char *engine = getenv("SOFTDOCA_ENGINE");
	unsigned int rounds = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : 100;
	struct dma_fix_cfg cfg = {
	    .ok_cb = ok_cb,
	    .err_cb = err_cb,
	    .num_tasks = TASKS,
	    .arena_len = SRC_LEN + DST_LEN,
	    .num_bufs = 2 * TASKS,
	};
	size_t rounds_with_flush = 0, ok = 0, flushed = 0;
	uint64_t seed = 0x570Bu;
	struct dma_fix f;

	if (rounds == 0)
		rounds = 1;
	if (fix_open(&f, &cfg))
		return T_EXIT_FAIL;
	r.src = f.arena;
	r.dst = f.arena + SRC_LEN;
	r.pattern = malloc(DST_LEN);
	CHECK(r.pattern != NULL);
	memset(r.pattern, PATTERN, DST_LEN);
	prng_fill(0xC0FFEEu, r.src, SRC_LEN);
	for (unsigned int i = 0; i < rounds; i++) {
		/* 0 .. 3 progress calls before the stop: sometimes before the engine took anything. */
		if (one_round(&f, &seed, i % 4, &rounds_with_flush) != 0) {
			fprintf(stderr, "  round %u failed\n", i);
			return T_EXIT_FAIL;
		}
		ok += r.ok;
		flushed += r.flushed;
	}
	free(r.pattern);
	if (fix_close(&f))
		return T_EXIT_FAIL;
	printf("engine %s: %u rounds, %zu tasks completed, %zu flushed, %zu rounds stopped with work in flight\n",
	       engine && *engine ? engine : "(default)", rounds, ok, flushed, rounds_with_flush);
	/* The point is to stop mid-batch: a run where no stop ever found work in flight tested nothing. */
	CHECK(rounds_with_flush > 0);
	return T_EXIT_PASS;
}
