/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xproc_fail.c - a cross-process task that cannot be done completes with an error status; it
 * never crashes and never hangs, and one SDK line says why.
 *
 *   rejected when prepared (doca_task_try_submit returns it, doca_task_submit reports it):
 *     write into a read-only export      NOT_PERMITTED
 *     map imported through another device NOT_PERMITTED
 *     both sides remote, mixed lists      NOT_SUPPORTED
 *   failed when copied (the error callback, then the context stops and flushes the rest):
 *     exporter exited or killed, its mmap stopped or destroyed, its memory unmapped  IO_FAILED
 *   and an exporter killed while a stream of tasks is in flight: every task is delivered, the
 *   first failure is IO_FAILED, the context reaches IDLE.
 *
 * meson runs it once per engine.
 */
#include <signal.h>

#include "../dma/dma_test.h"
#include "xproc.h"

struct side {
	struct dma_fix f;
	struct doca_mmap *rm;
	struct xp_peer peer;
	bool have_peer;
};

static int open_side(struct side *s, const char *ctx_pci, const char *imp_pci, const char *const *args)
{
	struct dma_fix_cfg cfg = {.pci = ctx_pci, .pci2 = imp_pci, .arena_len = 8u << 20, .num_tasks = 64};
	struct doca_dev *imp;

	memset(s, 0, sizeof(*s));
	CHECK(xp_start_argv(&s->peer, args) == 0);
	s->have_peer = true;
	CHECK(fix_open(&s->f, &cfg) == 0);
	imp = s->f.dev2 != NULL ? s->f.dev2 : s->f.dev;
	CHECK_ERR(doca_mmap_create_from_export(NULL, s->peer.desc, s->peer.desc_len, imp, &s->rm), DOCA_SUCCESS);
	return 0;
}

static int close_side(struct side *s)
{
	int rc = 0;

	if (s->rm != NULL && doca_mmap_destroy(s->rm) != DOCA_SUCCESS)
		rc = 1;
	rc |= fix_close(&s->f);
	if (s->have_peer && s->peer.pid > 0 && xp_finish(&s->peer) != 0)
		rc = 1;
	return rc;
}

static struct doca_buf *remote_buf(struct side *s, uint64_t off, size_t len, bool data)
{
	struct doca_buf *b = NULL;
	void *a = (void *)(uintptr_t)(s->peer.addr + off);

	if (data)
		doca_buf_inventory_buf_get_by_data(s->f.inv, s->rm, a, len, &b);
	else
		doca_buf_inventory_buf_get_by_addr(s->f.inv, s->rm, a, len, &b);
	return b;
}

static struct doca_buf *local_buf(struct side *s, uint64_t off, size_t len, bool data)
{
	struct doca_buf *b = NULL;

	fix_buf(&s->f, s->f.arena + off, len, s->f.arena + off, data ? len : 0, &b);
	return b;
}

/* try_submit returns @want; then submit delivers @want to the error callback with a line saying @word. */
static int expect_rejected(struct side *s, struct doca_buf *src, struct doca_buf *dst, doca_error_t want,
			   const char *word)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};
	size_t err = s->f.c.err;
	off_t mark = log_mark();

	CHECK(src != NULL && dst != NULL);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(s->f.dma, src, dst, ud, &t), DOCA_SUCCESS);
	CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(t)), want);
	CHECK_LOG(mark, word);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	CHECK_ERR(fix_submit(&s->f, src, dst, 1, NULL), DOCA_SUCCESS);
	CHECK(pe_wait_count(s->f.pe, &s->f.c.err, err + 1) == 0);
	CHECK_ERR(s->f.c.last_err, want);
	CHECK(pe_wait_state(s->f.pe, s->f.ctx, DOCA_CTX_STATE_IDLE) == 0);
	CHECK_ERR(doca_buf_dec_refcount(src, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(dst, NULL), DOCA_SUCCESS);
	return 0;
}

/*
 * A copy of [0, 4096) (a write when @write) completes through the error callback with @want and,
 * unless @word is NULL, a line holding @word (a cause is logged once per imported map).
 */
static int expect_copy_fails(struct side *s, bool write, doca_error_t want, const char *word)
{
	struct doca_buf *r = remote_buf(s, 0, 4096, !write), *l = local_buf(s, 0, 4096, write);
	size_t err = s->f.c.err, ok = s->f.c.ok;
	off_t mark = log_mark();

	CHECK(r != NULL && l != NULL);
	CHECK_ERR(fix_submit(&s->f, write ? l : r, write ? r : l, 1, NULL), DOCA_SUCCESS);
	CHECK(pe_wait_count(s->f.pe, &s->f.c.err, err + 1) == 0);
	CHECK_EQ(s->f.c.ok, ok);
	CHECK_ERR(s->f.c.last_err, want);
	if (word != NULL)
		CHECK_LOG(mark, "exporter pid", word);
	CHECK(pe_wait_state(s->f.pe, s->f.ctx, DOCA_CTX_STATE_IDLE) == 0);
	CHECK_ERR(doca_buf_dec_refcount(r, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(l, NULL), DOCA_SUCCESS);
	return 0;
}

/* A copy that works, to show a failure case started from a healthy import. */
static int expect_copy_works(struct side *s)
{
	struct doca_buf *r = remote_buf(s, 0, 4096, true), *l = local_buf(s, 0, 4096, false);
	size_t ok = s->f.c.ok;

	CHECK(r != NULL && l != NULL);
	CHECK_ERR(fix_submit(&s->f, r, l, 0, NULL), DOCA_SUCCESS);
	CHECK(pe_wait_count(s->f.pe, &s->f.c.ok, ok + 1) == 0);
	CHECK_EQ(xp_check(s->f.arena, 0, 4096, 3), 4096);
	CHECK_ERR(doca_buf_dec_refcount(r, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(l, NULL), DOCA_SUCCESS);
	return 0;
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static int test_rejections(void)
{
	struct side a, b;
	struct doca_buf *x, *y;

	/* Writing into a read-only export. */
	CHECK(open_side(&a, NULL, NULL, ARGS("-S", "3")) == 0);
	CHECK(expect_rejected(&a, local_buf(&a, 0, 64, true), remote_buf(&a, 0, 64, false), DOCA_ERROR_NOT_PERMITTED,
			      "DOCA_ACCESS_FLAG_PCI_READ_WRITE") == 0);
	CHECK(close_side(&a) == 0);

	/* Both sides remote (two exporters), and lists mixing processes. */
	CHECK(open_side(&a, NULL, NULL, ARGS("-S", "3", "-w")) == 0);
	CHECK(open_side(&b, NULL, NULL, ARGS("-S", "4", "-w")) == 0);
	x = remote_buf(&a, 0, 64, true);
	y = NULL;
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(a.f.inv, b.rm, (void *)(uintptr_t)b.peer.addr, 64, &y),
		  DOCA_SUCCESS);
	CHECK(expect_rejected(&a, x, y, DOCA_ERROR_NOT_SUPPORTED, "both from-export") == 0);
	CHECK(close_side(&b) == 0);
	CHECK(close_side(&a) == 0);

	CHECK(open_side(&a, NULL, NULL, ARGS("-S", "3", "-w")) == 0);
	x = remote_buf(&a, 0, 64, true);
	CHECK_ERR(doca_buf_chain_list(x, local_buf(&a, 128, 64, true)), DOCA_SUCCESS);
	CHECK(expect_rejected(&a, x, local_buf(&a, 4096, 256, false), DOCA_ERROR_NOT_SUPPORTED, "mixes memory") == 0);
	CHECK(close_side(&a) == 0);

	/* Imported through b1:00.0 (the exporting device itself), used by a context on 03:00.0. */
	CHECK(open_side(&a, "03:00.0", "b1:00.0", ARGS("-S", "3")) == 0);
	CHECK(expect_rejected(&a, remote_buf(&a, 0, 64, true), local_buf(&a, 0, 64, false), DOCA_ERROR_NOT_PERMITTED,
			      "imported through device b1:00.0") == 0);
	CHECK(close_side(&a) == 0);
	return 0;
}

static int test_exporter_gone(void)
{
	struct side s;

	/* Exited cleanly (its mmap destroyed on the way out). */
	CHECK(open_side(&s, NULL, NULL, ARGS("-S", "3")) == 0);
	CHECK(expect_copy_works(&s) == 0);
	CHECK(xp_finish(&s.peer) == 0);
	CHECK(expect_copy_fails(&s, false, DOCA_ERROR_IO_FAILED, "") == 0);
	CHECK(close_side(&s) == 0);

	/* Killed: nothing ran in the exporter, the pidfd says it is gone. */
	CHECK(open_side(&s, NULL, NULL, ARGS("-S", "3", "-w")) == 0);
	CHECK(expect_copy_works(&s) == 0);
	xp_kill(&s.peer);
	CHECK(expect_copy_fails(&s, true, DOCA_ERROR_IO_FAILED, "exited") == 0);
	CHECK(close_side(&s) == 0);

	/* Its mmap stopped: reads and writes fail, and stay failed after it starts again. */
	CHECK(open_side(&s, NULL, NULL, ARGS("-S", "3", "-w")) == 0);
	CHECK(expect_copy_works(&s) == 0);
	CHECK(xp_ok(&s.peer, "stop") == 0);
	CHECK(expect_copy_fails(&s, false, DOCA_ERROR_IO_FAILED, "stopped or destroyed") == 0);
	CHECK(xp_cmd(&s.peer, NULL, 0, "restart") == 0);
	CHECK_ERR(doca_ctx_start(s.f.ctx), DOCA_SUCCESS);
	CHECK(expect_copy_fails(&s, true, DOCA_ERROR_IO_FAILED, NULL) == 0);
	CHECK(close_side(&s) == 0);

	/* Its mmap destroyed. */
	CHECK(open_side(&s, NULL, NULL, ARGS("-S", "3")) == 0);
	CHECK(xp_ok(&s.peer, "destroy") == 0);
	CHECK(expect_copy_fails(&s, false, DOCA_ERROR_IO_FAILED, "stopped or destroyed") == 0);
	CHECK(close_side(&s) == 0);

	/* Its memory unmapped while still exported (a bug of the exporter): a fault, not a crash. */
	CHECK(open_side(&s, NULL, NULL, ARGS("-S", "3", "-w")) == 0);
	CHECK(xp_ok(&s.peer, "unmap") == 0);
	CHECK(expect_copy_fails(&s, true, DOCA_ERROR_IO_FAILED, "not mapped") == 0);
	CHECK(close_side(&s) == 0);
	return 0;
}

/*
 * A stream: WINDOW tasks kept in flight, each reading 64 KiB (some 3 MiB, split over workers),
 * resubmitted from its completion callback until the context stops. The exporter is killed
 * after KILL_AFTER completions.
 */
enum { WINDOW = 32, KILL_AFTER = 200 };

struct stream_state {
	struct side *s;
	struct doca_buf *src[WINDOW], *dst[WINDOW];
	size_t delivered, ok, failed, flushed, resubmit_errors;
	doca_error_t first_error;
	bool stopping;
};

static void stream_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data cud, bool success)
{
	struct stream_state *st = ((struct dma_counts *)cud.ptr)->priv;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(t));

	st->delivered++;
	if (success) {
		st->ok++;
	} else {
		if (st->failed++ == 0)
			st->first_error = status;
		else if (status == DOCA_ERROR_IO_FAILED)
			st->flushed++;
	}
	if (success && !st->stopping) {
		if (doca_task_submit(doca_dma_task_memcpy_as_task(t)) == DOCA_SUCCESS)
			return;
		st->resubmit_errors++;
	}
	(void)ud;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static void stream_ok(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data cud)
{
	stream_cb(t, ud, cud, true);
}

static void stream_err(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data cud)
{
	stream_cb(t, ud, cud, false);
}

static int test_kill_mid_stream(void)
{
	struct dma_fix_cfg cfg = {.arena_len = WINDOW * (3u << 20), .num_tasks = WINDOW, .ok_cb = stream_ok,
				  .err_cb = stream_err};
	struct stream_state st = {0};
	struct side s = {0};
	bool killed = false;
	uint64_t start;

	CHECK(xp_start(&s.peer, "-s", "16777216", "-S", "3") == 0);
	s.have_peer = true;
	CHECK(fix_open(&s.f, &cfg) == 0);
	CHECK_ERR(doca_mmap_create_from_export(NULL, s.peer.desc, s.peer.desc_len, s.f.dev, &s.rm), DOCA_SUCCESS);
	st.s = &s;
	s.f.c.priv = &st;
	for (int i = 0; i < WINDOW; i++) {
		size_t len = i % 8 == 7 ? 3u << 20 : 65536;
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data ud = {.u64 = (uint64_t)i};

		st.src[i] = remote_buf(&s, (uint64_t)i * 65536, len, true);
		st.dst[i] = local_buf(&s, (uint64_t)i * (3u << 20), len, false);
		CHECK(st.src[i] != NULL && st.dst[i] != NULL);
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(s.f.dma, st.src[i], st.dst[i], ud, &t), DOCA_SUCCESS);
		CHECK_ERR(doca_task_submit(doca_dma_task_memcpy_as_task(t)), DOCA_SUCCESS);
	}
	start = sd_now_ns();
	for (;;) {
		enum doca_ctx_states state;

		doca_pe_progress(s.f.pe);
		if (!killed && st.ok >= KILL_AFTER) {
			xp_kill(&s.peer); /* SIGKILL while tasks are in flight */
			killed = true;
		}
		CHECK_ERR(doca_ctx_get_state(s.f.ctx, &state), DOCA_SUCCESS);
		if (killed && state == DOCA_CTX_STATE_IDLE)
			break;
		if (sd_now_ns() - start > 3 * WAIT_LIMIT_NS) {
			fprintf(stderr, "  stream: no end after 30 s (ok %zu, failed %zu)\n", st.ok, st.failed);
			return 1;
		}
	}
	/* Every task in flight was delivered once: WINDOW tasks, each last seen failing or flushed. */
	CHECK_EQ(st.failed, WINDOW);
	CHECK_EQ(st.resubmit_errors, 0);
	CHECK_ERR(st.first_error, DOCA_ERROR_IO_FAILED);
	CHECK(st.ok >= KILL_AFTER);
	for (int i = 0; i < WINDOW; i++) {
		CHECK_ERR(doca_buf_dec_refcount(st.src[i], NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(st.dst[i], NULL), DOCA_SUCCESS);
	}
	s.have_peer = false;
	return close_side(&s);
}

int main(void)
{
	if (log_capture_init() != 0)
		return T_EXIT_FAIL;
	alarm(240);
	if (test_rejections() != 0) {
		fprintf(stderr, "rejections failed\n");
		return T_EXIT_FAIL;
	}
	if (test_exporter_gone() != 0) {
		fprintf(stderr, "exporter-gone cases failed\n");
		return T_EXIT_FAIL;
	}
	if (test_kill_mid_stream() != 0) {
		fprintf(stderr, "killing the exporter mid-stream failed\n");
		return T_EXIT_FAIL;
	}
	printf("xproc_fail: ok\n");
	return T_EXIT_PASS;
}
