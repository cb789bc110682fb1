/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * taxonomy.c - every DMA error class: the code returned (or delivered to the error callback),
 * what happens to the task and the context, and the SDK log line that tells the user the fix.
 *
 * Configuration (SOFTDOCA_CONFIG), fault injection (SOFTDOCA_FAULT) and the engine are read once
 * per process, so every case runs in a child forked before it makes any DOCA call; the parent
 * only creates the SDK log capture (inherited by the children) and sets the environment of
 * each child. A crash in a case shows as that case failing with the signal.
 *
 * meson runs this program once per engine: the error paths cross the engines (flush, cancel).
 * The AGAIN case forces the inline engine itself, where a full queue is deterministic.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "dma_test.h"

/* Profiles for the limit cases: copies of at most 4 KiB, lists of at most 2 elements. */
static const char cfg_limits[] = "[profile default]\n"
				 "max_buf_size = 4K\n"
				 "max_buf_list_len = 2\n";
/* A queue shallower than the task pool. */
static const char cfg_shallow[] = "[profile default]\n"
				  "queue_depth = 4\n";
/* 03:00.1 without DMA. */
static const char cfg_nodma[] = "[profile nodma]\n"
				"dma = no\n"
				"\n"
				"[device 03:00.0]\n"
				"side = dpu\n"
				"\n"
				"[device 03:00.1]\n"
				"side = dpu\n"
				"profile = nodma\n";

static struct doca_task *as_task(struct doca_dma_task_memcpy *t)
{
	return doca_dma_task_memcpy_as_task(t);
}

static int check_state(struct doca_ctx *ctx, enum doca_ctx_states want)
{
	enum doca_ctx_states st;

	CHECK_ERR(doca_ctx_get_state(ctx, &st), DOCA_SUCCESS);
	CHECK_EQ(st, want);
	return 0;
}

static bool all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

/*
 * The two behaviours of a task whose content breaks a rule: doca_task_try_submit returns
 * @want and the caller keeps the task (the context keeps running); doca_task_submit succeeds
 * and the task fails through the error callback with @want, after which the context stops by
 * itself. Each time one SDK line contains @word. The destination area [@dst_mem, +@dst_len)
 * must stay untouched (GUARD).
 *
 * When @warm_src is given, a good copy warm_src -> warm_dst runs between two try_submits: the
 * library may remember maps it has already checked, and the rule must hold on that path too.
 */
static int expect_task_error(struct dma_fix *f, struct doca_buf *src, struct doca_buf *dst, doca_error_t want,
			     const char *word, const uint8_t *dst_mem, size_t dst_len, struct doca_buf *warm_src,
			     struct doca_buf *warm_dst)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};
	size_t ok0 = f->c.ok;
	off_t mark;

	for (int pass = 0; pass < (warm_src != NULL ? 2 : 1); pass++) {
		if (pass == 1) {
			CHECK_ERR(fix_submit(f, warm_src, warm_dst, 0, NULL), DOCA_SUCCESS);
			CHECK(pe_wait_count(f->pe, &f->c.ok, ++ok0) == 0);
		}
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(f->dma, src, dst, ud, &t), DOCA_SUCCESS);
		mark = log_mark();
		CHECK_ERR(doca_task_try_submit(as_task(t)), want);
		CHECK_LOG(mark, word);
		/* Still the caller's: it can be freed, and the context is untouched. */
		doca_task_free(as_task(t));
		if (check_state(f->ctx, DOCA_CTX_STATE_RUNNING))
			return 1;
		for (int i = 0; i < 3; i++)
			doca_pe_progress(f->pe);
		CHECK_EQ(f->c.ok, ok0);
		CHECK_EQ(f->c.err, 0);
	}

	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f->dma, src, dst, ud, &t), DOCA_SUCCESS);
	f->c.ntrans = 0;
	mark = log_mark();
	CHECK_ERR(doca_task_submit(as_task(t)), DOCA_SUCCESS);
	CHECK(pe_wait_state(f->pe, f->ctx, DOCA_CTX_STATE_IDLE) == 0);
	CHECK_EQ(f->c.ok, ok0);
	CHECK_EQ(f->c.err, 1);
	CHECK_ERR(f->c.last_err, want);
	CHECK(f->c.last_task == t);
	CHECK_LOG(mark, word);
	CHECK(counts_saw(&f->c, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING));
	CHECK(counts_saw(&f->c, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE));
	if (dst_mem != NULL)
		CHECK(all_bytes(dst_mem, dst_len, GUARD));
	return 0;
}

/* ---- BAD_STATE ---- */

static int case_alloc_on_idle(void)
{
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.no_start = true};
	struct doca_buf *s, *d;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};
	off_t mark;

	if (fix_open(&f, &cfg))
		return 1;
	CHECK_ERR(fix_buf(&f, f.arena, 64, f.arena, 64, &s), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 4096, 64, f.arena + 4096, 0, &d), DOCA_SUCCESS);
	mark = log_mark();
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s, d, ud, &t), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "doca_ctx_start");
	CHECK(t == NULL);
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

static int case_submit_after_stop(void)
{
	struct dma_fix f;
	struct doca_buf *s, *d;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};
	off_t mark;

	if (fix_open(&f, NULL))
		return 1;
	prng_fill(1, f.arena, 64);
	CHECK_ERR(fix_buf(&f, f.arena, 64, f.arena, 64, &s), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 4096, 64, f.arena + 4096, 0, &d), DOCA_SUCCESS);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s, d, ud, &t), DOCA_SUCCESS);
	/* A task is still allocated, so the context waits in STOPPING for it. */
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_ERROR_IN_PROGRESS);
	if (check_state(f.ctx, DOCA_CTX_STATE_STOPPING))
		return 1;
	mark = log_mark();
	CHECK_ERR(doca_task_submit(as_task(t)), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "RUNNING");
	mark = log_mark();
	CHECK_ERR(doca_task_try_submit(as_task(t)), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "RUNNING");
	doca_task_free(as_task(t));
	CHECK(pe_wait_state(f.pe, f.ctx, DOCA_CTX_STATE_IDLE) == 0);
	CHECK_EQ(f.c.ok + f.c.err, 0);
	CHECK(all_bytes(f.arena + 4096, 64, GUARD));
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

static int case_released_src(void)
{
	struct dma_fix f;
	struct doca_buf *s, *d;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};
	uint16_t rc = 1;
	off_t mark;

	if (fix_open(&f, NULL))
		return 1;
	prng_fill(2, f.arena, 64);
	CHECK_ERR(fix_buf(&f, f.arena, 64, f.arena, 64, &s), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 4096, 64, f.arena + 4096, 0, &d), DOCA_SUCCESS);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s, d, ud, &t), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(s, &rc), DOCA_SUCCESS);
	CHECK_EQ(rc, 0);
	mark = log_mark();
	CHECK_ERR(doca_task_submit(as_task(t)), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "released");
	mark = log_mark();
	CHECK_ERR(doca_task_try_submit(as_task(t)), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "released");
	/* Refused synchronously: the caller still owns the task and the context keeps running. */
	doca_task_free(as_task(t));
	for (int i = 0; i < 3; i++)
		doca_pe_progress(f.pe);
	CHECK_EQ(f.c.ok + f.c.err, 0);
	if (check_state(f.ctx, DOCA_CTX_STATE_RUNNING))
		return 1;
	CHECK(all_bytes(f.arena + 4096, 64, GUARD));
	/* And a good copy still goes through. */
	CHECK_ERR(fix_buf(&f, f.arena, 64, f.arena, 64, &s), DOCA_SUCCESS);
	CHECK_ERR(fix_submit(&f, s, d, 0, NULL), DOCA_SUCCESS);
	CHECK(pe_wait_count(f.pe, &f.c.ok, 1) == 0);
	CHECK_MEM(f.arena + 4096, f.arena, 64);
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

/* ---- INVALID_VALUE ---- */

static int case_max_buf_size(void)
{
	struct dma_fix f;
	struct doca_buf *s, *d, *s_big, *d_big;
	uint64_t max = 0;

	if (fix_open(&f, NULL))
		return 1;
	CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(f.dev), &max), DOCA_SUCCESS);
	CHECK_EQ(max, 4096);
	prng_fill(3, f.arena, 8192);
	/* Exactly the limit is fine. */
	CHECK_ERR(fix_buf(&f, f.arena, 4096, f.arena, 4096, &s), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 65536, 4096, f.arena + 65536, 0, &d), DOCA_SUCCESS);
	CHECK_ERR(fix_submit(&f, s, d, 0, NULL), DOCA_SUCCESS);
	CHECK(pe_wait_count(f.pe, &f.c.ok, 1) == 0);
	CHECK_MEM(f.arena + 65536, f.arena, 4096);
	f.c.ok = 0;
	/* One byte more is not. */
	CHECK_ERR(fix_buf(&f, f.arena, 4097, f.arena, 4097, &s_big), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 131072, 8192, f.arena + 131072, 0, &d_big), DOCA_SUCCESS);
	if (expect_task_error(&f, s_big, d_big, DOCA_ERROR_INVALID_VALUE, "max_buf_size", f.arena + 131072, 8192, s, d))
		return 1;
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(s_big, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d_big, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

/* A list of @n 100-byte bufs at @mem (data when @data), one every 256 bytes. */
static int make_chain(struct dma_fix *f, uint8_t *mem, unsigned int n, bool data, struct doca_buf **head)
{
	for (unsigned int i = 0; i < n; i++) {
		struct doca_buf *b;

		CHECK_ERR(fix_buf(f, mem + i * 256, 100, mem + i * 256, data ? 100 : 0, &b), DOCA_SUCCESS);
		if (i == 0)
			*head = b;
		else
			CHECK_ERR(doca_buf_chain_list(*head, b), DOCA_SUCCESS);
	}
	return 0;
}

static int case_max_buf_list_len(void)
{
	struct dma_fix f;
	struct doca_buf *s2 = NULL, *s3 = NULL, *d1 = NULL, *d3 = NULL, *d_big = NULL;
	uint32_t max = 0;

	if (fix_open(&f, NULL))
		return 1;
	CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(f.dev), &max), DOCA_SUCCESS);
	CHECK_EQ(max, 2);
	prng_fill(4, f.arena, 1024);
	memset(f.arena + 65536, GUARD, 8192);
	if (make_chain(&f, f.arena, 2, true, &s2) || make_chain(&f, f.arena, 3, true, &s3) ||
	    make_chain(&f, f.arena + 65536, 3, false, &d3))
		return 1;
	CHECK_ERR(fix_buf(&f, f.arena + 16384, 300, f.arena + 16384, 0, &d1), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 131072, 8192, f.arena + 131072, 0, &d_big), DOCA_SUCCESS);
	/* Two elements: the limit, fine. */
	CHECK_ERR(fix_submit(&f, s2, d1, 0, NULL), DOCA_SUCCESS);
	CHECK(pe_wait_count(f.pe, &f.c.ok, 1) == 0);
	CHECK_MEM(f.arena + 16384, f.arena, 100);
	CHECK_MEM(f.arena + 16384 + 100, f.arena + 256, 100);
	f.c.ok = 0;
	/* A destination list of three: try_submit refuses it. */
	{
		struct doca_dma_task_memcpy *t;
		union doca_data ud = {.u64 = 0};
		struct doca_buf *s1 = NULL;
		off_t mark;

		CHECK_ERR(fix_buf(&f, f.arena, 250, f.arena, 250, &s1), DOCA_SUCCESS);
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s1, d3, ud, &t), DOCA_SUCCESS);
		mark = log_mark();
		CHECK_ERR(doca_task_try_submit(as_task(t)), DOCA_ERROR_INVALID_VALUE);
		CHECK_LOG(mark, "max_buf_list_len");
		doca_task_free(as_task(t));
		CHECK_ERR(doca_buf_dec_refcount(s1, NULL), DOCA_SUCCESS);
		CHECK(all_bytes(f.arena + 65536, 8192, GUARD));
	}
	/* A source list of three: both behaviours. */
	if (expect_task_error(&f, s3, d_big, DOCA_ERROR_INVALID_VALUE, "max_buf_list_len", f.arena + 131072, 8192, s2,
			      d1))
		return 1;
	CHECK_ERR(doca_buf_dec_refcount(s2, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(s3, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d1, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d3, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d_big, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

static int case_zero_length_src(void)
{
	struct dma_fix f;
	struct doca_buf *s, *d, *ws, *wd;

	if (fix_open(&f, NULL))
		return 1;
	prng_fill(5, f.arena, 512);
	CHECK_ERR(fix_buf(&f, f.arena, 512, f.arena, 512, &s), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_reset_data_len(s), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 4096, 512, f.arena + 4096, 0, &d), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena, 512, f.arena, 512, &ws), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 8192, 512, f.arena + 8192, 0, &wd), DOCA_SUCCESS);
	if (expect_task_error(&f, s, d, DOCA_ERROR_INVALID_VALUE, "doca_buf_set_data", f.arena + 4096, 512, ws, wd))
		return 1;
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(ws, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(wd, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

static int case_dst_too_small(void)
{
	struct dma_fix f;
	struct doca_buf *s, *d, *ws, *wd;

	if (fix_open(&f, NULL))
		return 1;
	prng_fill(6, f.arena, 1000);
	CHECK_ERR(fix_buf(&f, f.arena, 1000, f.arena, 1000, &s), DOCA_SUCCESS);
	/* 1000 bytes of region, but the data pointer is one byte in: room for 999. */
	CHECK_ERR(fix_buf(&f, f.arena + 4096, 1000, f.arena + 4097, 0, &d), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena, 1000, f.arena, 1000, &ws), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 8192, 1000, f.arena + 8192, 0, &wd), DOCA_SUCCESS);
	if (expect_task_error(&f, s, d, DOCA_ERROR_INVALID_VALUE, "destination", f.arena + 4096 - GUARD_LEN,
			      1000 + 2 * GUARD_LEN, ws, wd))
		return 1;
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(ws, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(wd, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

/* ---- AGAIN ---- */

static int case_queue_full(void)
{
	enum { N = 64, LEN = 200 };
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.num_tasks = N};
	struct doca_buf *s[N], *d[N];
	struct doca_dma_task_memcpy *t[N];
	size_t again = 0;
	off_t mark;

	if (fix_open(&f, &cfg))
		return 1;
	f.c.check_order = true;
	for (int i = 0; i < N; i++) {
		union doca_data ud = {.u64 = (uint64_t)i};

		prng_fill(100 + i, f.arena + i * 256, LEN);
		CHECK_ERR(fix_buf(&f, f.arena + i * 256, LEN, f.arena + i * 256, LEN, &s[i]), DOCA_SUCCESS);
		CHECK_ERR(fix_buf(&f, f.arena + 65536 + i * 256, LEN, f.arena + 65536 + i * 256, 0, &d[i]),
			  DOCA_SUCCESS);
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s[i], d[i], ud, &t[i]), DOCA_SUCCESS);
	}
	for (int i = 0; i < 4; i++)
		CHECK_ERR(doca_task_submit(as_task(t[i])), DOCA_SUCCESS);
	mark = log_mark();
	CHECK_ERR(doca_task_submit(as_task(t[4])), DOCA_ERROR_AGAIN);
	CHECK_LOG(mark, "doca_pe_progress");
	CHECK_EQ(f.c.ok + f.c.err, 0);
	doca_pe_progress(f.pe);
	CHECK_ERR(doca_task_submit(as_task(t[4])), DOCA_SUCCESS);
	/* The rest, as an application would: on AGAIN, progress and submit again. */
	for (int i = 5; i < N; i++) {
		doca_error_t ret;
		uint64_t start = sd_now_ns();

		while ((ret = doca_task_submit(as_task(t[i]))) == DOCA_ERROR_AGAIN) {
			again++;
			doca_pe_progress(f.pe);
			CHECK(sd_now_ns() - start < WAIT_LIMIT_NS);
		}
		CHECK_ERR(ret, DOCA_SUCCESS);
	}
	CHECK(again > 0);
	CHECK(pe_wait_count(f.pe, &f.c.ok, N) == 0);
	CHECK_EQ(f.c.err, 0);
	CHECK_EQ(f.c.order_errors, 0);
	for (int i = 0; i < N; i++) {
		size_t dl = 0;

		CHECK_MEM(f.arena + 65536 + i * 256, f.arena + i * 256, LEN);
		CHECK(all_bytes(f.arena + 65536 + i * 256 + LEN, 256 - LEN, GUARD));
		CHECK_ERR(doca_buf_get_data_len(d[i], &dl), DOCA_SUCCESS);
		CHECK_EQ(dl, LEN);
		CHECK_ERR(doca_buf_dec_refcount(s[i], NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(d[i], NULL), DOCA_SUCCESS);
	}
	return fix_close(&f);
}

/* ---- NOT_PERMITTED ---- */

static int case_src_mmap_without_dev(void)
{
	struct dma_fix f;
	struct doca_mmap *m = NULL;
	uint8_t *mem = malloc(4096);
	struct doca_buf *s, *d;

	CHECK(mem != NULL);
	if (fix_open(&f, NULL))
		return 1;
	prng_fill(7, mem, 4096);
	/* No doca_mmap_add_dev: the DMA device may not reach this memory. */
	CHECK_ERR(sd_mmap_create(mem, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, NULL, NULL, &m), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(f.inv, m, mem, 1000, &s), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 4096, 1000, f.arena + 4096, 0, &d), DOCA_SUCCESS);
	if (expect_task_error(&f, s, d, DOCA_ERROR_NOT_PERMITTED, "doca_mmap_add_dev", f.arena + 4096 - GUARD_LEN,
			      1000 + 2 * GUARD_LEN, NULL, NULL))
		return 1;
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);
	free(mem);
	return fix_close(&f);
}

static int case_dst_read_only(void)
{
	struct dma_fix f;
	struct doca_mmap *m = NULL;
	uint8_t *mem = malloc(4096);
	struct doca_buf *s, *d, *ws, *wd;

	CHECK(mem != NULL);
	if (fix_open(&f, NULL))
		return 1;
	memset(mem, GUARD, 4096);
	prng_fill(8, f.arena, 1000);
	CHECK_ERR(sd_mmap_create(mem, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY, f.dev, NULL, &m), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena, 1000, f.arena, 1000, &s), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, m, mem + 100, 2000, &d), DOCA_SUCCESS);
	/* The warm-up reads the read-only map (allowed): being a good source must not make it a
	 * good destination. */
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(f.inv, m, mem, 500, &ws), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 8192, 500, f.arena + 8192, 0, &wd), DOCA_SUCCESS);
	if (expect_task_error(&f, s, d, DOCA_ERROR_NOT_PERMITTED, "DOCA_ACCESS_FLAG_LOCAL_READ_WRITE", mem, 4096, ws,
			      wd))
		return 1;
	CHECK(all_bytes(f.arena + 8192, 500, GUARD)); /* the warm-up copied GUARD bytes */
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(ws, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(wd, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);
	free(mem);
	return fix_close(&f);
}

/*
 * Write-capable export flags imply local write, as on hardware (and as in verbs, where remote
 * write needs local write): a local map whose only flag is PCI_READ_WRITE, RDMA_WRITE or
 * RDMA_ATOMIC is a good DMA destination; one with only PCI_READ_ONLY or RDMA_READ is not.
 */
static int case_export_flags_imply_local_write(void)
{
	static const uint32_t writable[] = {DOCA_ACCESS_FLAG_PCI_READ_WRITE, DOCA_ACCESS_FLAG_RDMA_WRITE,
					    DOCA_ACCESS_FLAG_RDMA_ATOMIC,
					    DOCA_ACCESS_FLAG_PCI_READ_WRITE | DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING};
	static const uint32_t read_only[] = {DOCA_ACCESS_FLAG_PCI_READ_ONLY, DOCA_ACCESS_FLAG_RDMA_READ,
					     DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_RDMA_READ};
	uint8_t *mem = malloc(4096);
	struct dma_fix f;

	CHECK(mem != NULL);
	if (fix_open(&f, NULL))
		return 1;
	prng_fill(9, f.arena, 1000);
	for (size_t i = 0; i < sizeof(writable) / sizeof(writable[0]); i++) {
		struct doca_mmap *m = NULL;
		struct doca_buf *s, *d;
		size_t ok0 = f.c.ok;

		memset(mem, GUARD, 4096);
		CHECK_ERR(sd_mmap_create(mem, 4096, writable[i], f.dev, NULL, &m), DOCA_SUCCESS);
		CHECK_ERR(fix_buf(&f, f.arena, 1000, f.arena, 1000, &s), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, m, mem + 100, 2000, &d), DOCA_SUCCESS);
		CHECK_ERR(fix_submit(&f, s, d, 0, NULL), DOCA_SUCCESS);
		CHECK(pe_wait_count(f.pe, &f.c.ok, ok0 + 1) == 0);
		CHECK_EQ(f.c.err, 0);
		CHECK_MEM(mem + 100, f.arena, 1000);
		CHECK(all_bytes(mem, 100, GUARD) && all_bytes(mem + 1100, 4096 - 1100, GUARD));
		CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);
	}
	for (size_t i = 0; i < sizeof(read_only) / sizeof(read_only[0]); i++) {
		struct doca_mmap *m = NULL;
		struct doca_buf *s, *d;
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data ud = {.u64 = 0};

		memset(mem, GUARD, 4096);
		CHECK_ERR(sd_mmap_create(mem, 4096, read_only[i], f.dev, NULL, &m), DOCA_SUCCESS);
		CHECK_ERR(fix_buf(&f, f.arena, 1000, f.arena, 1000, &s), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, m, mem + 100, 2000, &d), DOCA_SUCCESS);
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s, d, ud, &t), DOCA_SUCCESS);
		CHECK_ERR(doca_task_try_submit(as_task(t)), DOCA_ERROR_NOT_PERMITTED);
		doca_task_free(as_task(t));
		CHECK(all_bytes(mem, 4096, GUARD));
		CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);
	}
	free(mem);
	return fix_close(&f);
}

/*
 * A map that served a good copy is stopped and reconfigured (device removed, or made
 * read-only), then started again: the next task must see the new configuration.
 */
static int reconfigured_map(bool drop_dev)
{
	struct dma_fix f;
	struct doca_mmap *m = NULL;
	uint8_t *mem = malloc(8192);
	struct doca_buf *ms, *md, *s, *d;

	CHECK(mem != NULL);
	if (fix_open(&f, NULL))
		return 1;
	memset(mem, GUARD, 8192);
	prng_fill(10, mem, 1000);
	prng_fill(11, f.arena, 1000);
	CHECK_ERR(sd_mmap_create(mem, 8192, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, f.dev, NULL, &m), DOCA_SUCCESS);
	/* The map as source and as destination, both fine. */
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(f.inv, m, mem, 1000, &ms), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, m, mem + 4096, 1000, &md), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena, 1000, f.arena, 1000, &s), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 4096, 1000, f.arena + 4096, 0, &d), DOCA_SUCCESS);
	CHECK_ERR(fix_submit(&f, ms, d, 0, NULL), DOCA_SUCCESS);
	CHECK_ERR(fix_submit(&f, s, md, 1, NULL), DOCA_SUCCESS);
	CHECK(pe_wait_count(f.pe, &f.c.ok, 2) == 0);
	CHECK_MEM(f.arena + 4096, mem, 1000);
	CHECK_MEM(mem + 4096, f.arena, 1000);
	CHECK_ERR(doca_buf_dec_refcount(ms, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(md, NULL), DOCA_SUCCESS);
	/* Reconfigure. */
	CHECK_ERR(doca_mmap_stop(m), DOCA_SUCCESS);
	if (drop_dev)
		CHECK_ERR(doca_mmap_rm_dev(m, f.dev), DOCA_SUCCESS);
	else
		CHECK_ERR(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_start(m), DOCA_SUCCESS);
	memset(mem + 4096, GUARD, 4096);
	f.c.ok = 0;
	if (drop_dev) {
		CHECK_ERR(doca_buf_inventory_buf_get_by_data(f.inv, m, mem, 1000, &ms), DOCA_SUCCESS);
		if (expect_task_error(&f, ms, d, DOCA_ERROR_NOT_PERMITTED, "doca_mmap_add_dev", NULL, 0, NULL, NULL))
			return 1;
		CHECK_ERR(doca_buf_dec_refcount(ms, NULL), DOCA_SUCCESS);
	} else {
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, m, mem + 4096, 1000, &md), DOCA_SUCCESS);
		if (expect_task_error(&f, s, md, DOCA_ERROR_NOT_PERMITTED, "DOCA_ACCESS_FLAG_LOCAL_READ_WRITE",
				      mem + 4096, 4096, NULL, NULL))
			return 1;
		CHECK_ERR(doca_buf_dec_refcount(md, NULL), DOCA_SUCCESS);
	}
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);
	free(mem);
	return fix_close(&f);
}

static int case_map_dev_removed(void)
{
	return reconfigured_map(true);
}

static int case_map_made_read_only(void)
{
	return reconfigured_map(false);
}

/* ---- NOT_SUPPORTED ---- */

static int case_no_dma_profile(void)
{
	struct doca_dev *d0 = NULL, *d1 = NULL;
	struct doca_dma *dma = NULL;
	off_t mark;

	CHECK_ERR(sd_dev_open("03:00.0", &d0), DOCA_SUCCESS);
	CHECK_ERR(sd_dev_open("03:00.1", &d1), DOCA_SUCCESS);
	CHECK_ERR(doca_dma_cap_task_memcpy_is_supported(doca_dev_as_devinfo(d0)), DOCA_SUCCESS);
	CHECK_ERR(doca_dma_cap_task_memcpy_is_supported(doca_dev_as_devinfo(d1)), DOCA_ERROR_NOT_SUPPORTED);
	mark = log_mark();
	CHECK_ERR(doca_dma_create(d1, &dma), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG(mark, "doca_dma_cap_task_memcpy_is_supported");
	CHECK(dma == NULL);
	CHECK_ERR(doca_dma_create(d0, &dma), DOCA_SUCCESS);
	CHECK_ERR(doca_dma_destroy(dma), DOCA_SUCCESS);
	CHECK_ERR(doca_dev_close(d1), DOCA_SUCCESS);
	CHECK_ERR(doca_dev_close(d0), DOCA_SUCCESS);
	return 0;
}

/* ---- DRIVER (fault injection) ---- */

static int case_driver_nth(void)
{
	enum { N = 8, LEN = 300 };
	struct dma_fix f;
	struct doca_buf *s[N], *d[N];
	doca_error_t status[N];

	if (fix_open(&f, NULL))
		return 1;
	f.c.check_order = true;
	f.c.status = status;
	f.c.nstatus = N;
	for (int i = 0; i < N; i++) {
		status[i] = DOCA_ERROR_UNKNOWN;
		prng_fill(200 + i, f.arena + i * 512, LEN);
		CHECK_ERR(fix_buf(&f, f.arena + i * 512, LEN, f.arena + i * 512, LEN, &s[i]), DOCA_SUCCESS);
		CHECK_ERR(fix_buf(&f, f.arena + 65536 + i * 512, LEN, f.arena + 65536 + i * 512, 0, &d[i]),
			  DOCA_SUCCESS);
	}
	for (int i = 0; i < N; i++)
		CHECK_ERR(fix_submit(&f, s[i], d[i], (uint64_t)i, NULL), DOCA_SUCCESS);
	f.c.ntrans = 0;
	CHECK(pe_wait_state(f.pe, f.ctx, DOCA_CTX_STATE_IDLE) == 0);
	CHECK_EQ(f.c.order_errors, 0);
	CHECK_EQ(f.c.ok, 2);
	CHECK_EQ(f.c.err, N - 2);
	CHECK_ERR(status[0], DOCA_SUCCESS);
	CHECK_ERR(status[1], DOCA_SUCCESS);
	CHECK_ERR(status[2], DOCA_ERROR_DRIVER);
	for (int i = 3; i < N; i++)
		CHECK_ERR(status[i], DOCA_ERROR_IO_FAILED);
	CHECK(counts_saw(&f.c, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING));
	CHECK(counts_saw(&f.c, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE));
	for (int i = 0; i < 2; i++)
		CHECK_MEM(f.arena + 65536 + i * 512, f.arena + i * 512, LEN);
	for (int i = 0; i < N; i++) {
		CHECK_ERR(doca_buf_dec_refcount(s[i], NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(d[i], NULL), DOCA_SUCCESS);
	}
	return fix_close(&f);
}

static int case_fault_again_retry(void)
{
	enum { N = 300, LEN = 700, SLOT = 1024 };
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.num_tasks = N, .arena_len = 2 * N * SLOT};
	struct doca_buf **b = calloc(2 * N, sizeof(*b));
	size_t again = 0;
	uint64_t start = sd_now_ns();

	CHECK(b != NULL);
	if (fix_open(&f, &cfg))
		return 1;
	f.c.check_order = true;
	for (int i = 0; i < N; i++) {
		uint8_t *src = f.arena + i * SLOT, *dst = f.arena + (N + i) * SLOT;
		size_t len = 1 + (size_t)(i * 37) % LEN;

		prng_fill(300 + i, src, len);
		CHECK_ERR(fix_buf(&f, src, len, src, len, &b[2 * i]), DOCA_SUCCESS);
		CHECK_ERR(fix_buf(&f, dst, LEN, dst, 0, &b[2 * i + 1]), DOCA_SUCCESS);
	}
	for (int i = 0; i < N; i++) {
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data ud = {.u64 = (uint64_t)i};
		doca_error_t ret;

		CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, b[2 * i], b[2 * i + 1], ud, &t), DOCA_SUCCESS);
		while ((ret = doca_task_submit(as_task(t))) == DOCA_ERROR_AGAIN) {
			again++;
			doca_pe_progress(f.pe);
			CHECK(sd_now_ns() - start < WAIT_LIMIT_NS);
		}
		CHECK_ERR(ret, DOCA_SUCCESS);
		if (i % 5 == 4)
			doca_pe_progress(f.pe);
	}
	CHECK(pe_wait_count(f.pe, &f.c.ok, N) == 0);
	CHECK_EQ(f.c.err, 0);
	CHECK_EQ(f.c.order_errors, 0);
	printf("  %zu submits answered AGAIN\n", again);
	CHECK(again > 0);
	for (int i = 0; i < N; i++) {
		size_t len = 1 + (size_t)(i * 37) % LEN, dl = 0;

		CHECK_MEM(f.arena + (N + i) * SLOT, f.arena + i * SLOT, len);
		CHECK(all_bytes(f.arena + (N + i) * SLOT + len, SLOT - len, GUARD));
		CHECK_ERR(doca_buf_get_data_len(b[2 * i + 1], &dl), DOCA_SUCCESS);
		CHECK_EQ(dl, len);
		CHECK_ERR(doca_buf_dec_refcount(b[2 * i], NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(b[2 * i + 1], NULL), DOCA_SUCCESS);
	}
	free(b);
	return fix_close(&f);
}

/* ---- bad input ---- */

static void noop_cb(struct doca_dma_task_memcpy *task, union doca_data ud, union doca_data ctx_ud)
{
	(void)task;
	(void)ud;
	(void)ctx_ud;
}

static int case_bad_input(void)
{
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.num_tasks = 4};
	struct doca_dma *dma = NULL;
	struct doca_dma_task_memcpy *t = NULL, *all[5];
	struct doca_buf *s, *d;
	struct doca_gpu_dma *gpu = NULL;
	union doca_data ud = {.u64 = 0};
	uint32_t u32 = 0;
	uint64_t u64 = 0;
	off_t mark;

	if (fix_open(&f, &cfg))
		return 1;
	/* Every DMA call with a NULL object or output. */
	CHECK_ERR(doca_dma_create(NULL, &dma), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_create(f.dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_dma_as_ctx(NULL) == NULL);
	CHECK_ERR(doca_dma_cap_task_memcpy_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_list_len(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(f.dev), NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_size(NULL, &u64), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(f.dev), NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_cap_get_max_num_tasks(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_cap_get_max_num_tasks(f.dma, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(NULL, noop_cb, noop_cb, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, NULL, noop_cb, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, noop_cb, NULL, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(NULL, NULL, NULL, ud, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_dma_task_memcpy_as_task(NULL) == NULL);
	CHECK(doca_dma_task_memcpy_get_src(NULL) == NULL);
	CHECK(doca_dma_task_memcpy_get_dst(NULL) == NULL);
	doca_dma_task_memcpy_set_src(NULL, NULL);
	doca_dma_task_memcpy_set_dst(NULL, NULL);
	CHECK_ERR(doca_dma_get_gpu_handle(NULL, &gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_get_gpu_handle(f.dma, NULL), DOCA_ERROR_INVALID_VALUE);
	/* The generic task and context calls a DMA user makes. */
	CHECK_ERR(doca_task_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_try_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_get_status(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_task_get_ctx(NULL) == NULL);
	doca_task_set_user_data(NULL, ud);
	doca_task_free(NULL);
	CHECK_ERR(doca_ctx_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(doca_pe_progress(NULL), 0);
	/* Bad values that are not NULL. */
	CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, noop_cb, noop_cb, 0), DOCA_ERROR_INVALID_VALUE);

	prng_fill(9, f.arena, 128);
	CHECK_ERR(fix_buf(&f, f.arena, 128, f.arena, 128, &s), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 4096, 128, f.arena + 4096, 0, &d), DOCA_SUCCESS);
	/* A task without bufs: alloc_init may refuse it; if not, validation does. */
	{
		doca_error_t ret = doca_dma_task_memcpy_alloc_init(f.dma, NULL, d, ud, &t);

		if (ret == DOCA_SUCCESS) {
			CHECK_ERR(doca_task_try_submit(as_task(t)), DOCA_ERROR_INVALID_VALUE);
			doca_dma_task_memcpy_set_src(t, s);
			doca_dma_task_memcpy_set_dst(t, NULL);
			CHECK_ERR(doca_task_try_submit(as_task(t)), DOCA_ERROR_INVALID_VALUE);
			doca_task_free(as_task(t));
		} else {
			CHECK_ERR(ret, DOCA_ERROR_INVALID_VALUE);
		}
	}
	/* Double free: logged, and the pool is not corrupted (still exactly 4 tasks). */
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s, d, ud, &t), DOCA_SUCCESS);
	doca_task_free(as_task(t));
	mark = log_mark();
	doca_task_free(as_task(t));
	CHECK_LOG(mark, "doca_task_free");
	for (int i = 0; i < 4; i++) {
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s, d, ud, &all[i]), DOCA_SUCCESS);
		for (int k = 0; k < i; k++)
			CHECK(all[k] != all[i]);
	}
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s, d, ud, &all[4]), DOCA_ERROR_NO_MEMORY);
	for (int i = 1; i < 4; i++)
		doca_task_free(as_task(all[i]));
	/* Freeing a task in flight is logged and deferred, submitting it again is refused; it still completes. */
	t = all[0];
	CHECK_ERR(doca_task_submit(as_task(t)), DOCA_SUCCESS);
	mark = log_mark();
	doca_task_free(as_task(t));
	CHECK_LOG(mark, "doca_task_free");
	mark = log_mark();
	CHECK_ERR(doca_task_submit(as_task(t)), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "doca_task_submit");
	CHECK(pe_wait_count(f.pe, &f.c.ok, 1) == 0);
	CHECK_EQ(f.c.err, 0);
	CHECK(f.c.last_task == t);
	CHECK_MEM(f.arena + 4096, f.arena, 128);
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

/* ---- runner ---- */

struct tax_case {
	const char *name;
	int (*fn)(void);
	const char *config; /* SOFTDOCA_CONFIG contents, or NULL for the default topology */
	const char *fault;  /* SOFTDOCA_FAULT, or NULL */
	const char *engine; /* forced SOFTDOCA_ENGINE, or NULL for the one of this run */
};

static const struct tax_case cases[] = {
    {"BAD_STATE alloc on IDLE context", case_alloc_on_idle, NULL, NULL, NULL},
    {"BAD_STATE submit after stop", case_submit_after_stop, NULL, NULL, NULL},
    {"BAD_STATE released source buf", case_released_src, NULL, NULL, NULL},
    {"INVALID_VALUE max_buf_size", case_max_buf_size, cfg_limits, NULL, NULL},
    {"INVALID_VALUE max_buf_list_len", case_max_buf_list_len, cfg_limits, NULL, NULL},
    {"INVALID_VALUE zero-length source", case_zero_length_src, NULL, NULL, NULL},
    {"INVALID_VALUE destination too small", case_dst_too_small, NULL, NULL, NULL},
    {"AGAIN queue full", case_queue_full, cfg_shallow, NULL, "inline"},
    {"NOT_PERMITTED source mmap without dev", case_src_mmap_without_dev, NULL, NULL, NULL},
    {"NOT_PERMITTED read-only destination", case_dst_read_only, NULL, NULL, NULL},
    {"write-capable export flags imply local write", case_export_flags_imply_local_write, NULL, NULL, NULL},
    {"NOT_PERMITTED map lost the device", case_map_dev_removed, NULL, NULL, NULL},
    {"NOT_PERMITTED map made read-only", case_map_made_read_only, NULL, NULL, NULL},
    {"NOT_SUPPORTED profile without DMA", case_no_dma_profile, cfg_nodma, NULL, NULL},
    {"DRIVER injected on the 3rd task", case_driver_nth, NULL, "nth=3,error=DRIVER", NULL},
    {"AGAIN injected, application retries", case_fault_again_retry, NULL, "again=0.5,seed=7", NULL},
    {"bad input never crashes", case_bad_input, NULL, NULL, NULL},
};

struct case_run {
	const struct tax_case *c;
	const char *config_path; /* NULL: no SOFTDOCA_CONFIG */
};

static int case_child(void *arg)
{
	const struct case_run *r = arg;

	/* Before the first DOCA call of this process. */
	sd_setenv("SOFTDOCA_CONFIG", r->config_path);
	sd_setenv("SOFTDOCA_FAULT", r->c->fault);
	if (r->c->engine != NULL)
		sd_setenv("SOFTDOCA_ENGINE", r->c->engine);
	return r->c->fn();
}

/* Runs @c in a child; its exit status (1 for a crash). */
static int run_case(const struct tax_case *c)
{
	struct case_run r = {.c = c, .config_path = NULL};
	char *path = c->config != NULL ? sd_tmpfile("dma-taxonomy", c->config) : NULL;
	int rc;

	r.config_path = path;
	rc = check_run_child(case_child, &r, c->name);
	free(path);
	return rc;
}

int main(void)
{
	const char *engine = getenv("SOFTDOCA_ENGINE");
	int failed = 0;
	size_t n = sizeof(cases) / sizeof(cases[0]);

	/* The only DOCA calls of the parent: the children inherit the capture. */
	if (log_capture_init())
		return T_EXIT_FAIL;
	printf("dma-taxonomy: engine %s\n", engine && *engine ? engine : "(default)");
	for (size_t i = 0; i < n; i++) {
		int rc;

		printf("%-45s ...\n", cases[i].name);
		rc = run_case(&cases[i]);
		printf("%-45s %s\n", cases[i].name, rc == 0 ? "ok" : rc == T_EXIT_SKIP ? "skipped" : "FAILED");
		fflush(stdout);
		if (rc != 0 && rc != T_EXIT_SKIP)
			failed++;
	}
	printf("dma-taxonomy: %d of %zu failed\n", failed, n);
	return failed ? T_EXIT_FAIL : T_EXIT_PASS;
}
