/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_mmap_advise.c - doca_mmap_advise.h: capabilities, configuration, the cache invalidate
 * task's rules (submit reports them through the error callback, try_submit returns them),
 * completion only from doca_pe_progress(), and the DMA-then-invalidate chain DOCA's sample
 * runs, with both contexts on one progress engine.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_mmap_advise.h>
#include <doca_pe.h>

#include "../common/sd_test.h"

#define LEN 4096

static uint8_t mem[2 * LEN];
static int nb_ok, nb_err;
static doca_error_t last_status;
static uint64_t last_ud, last_ctx_ud;

static void on_done(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data ud, union doca_data cud)
{
	nb_ok++;
	last_ud = ud.u64;
	last_ctx_ud = cud.u64;
	last_status = doca_task_get_status(doca_mmap_advise_task_invalidate_cache_as_doca_task(task));
}

static void on_err(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data ud, union doca_data cud)
{
	(void)cud;
	nb_err++;
	last_ud = ud.u64;
	last_status = doca_task_get_status(doca_mmap_advise_task_invalidate_cache_as_doca_task(task));
}

static struct doca_mmap *make_mmap(void *addr, size_t len, struct doca_dev *dev)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	if (dev != NULL)
		CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static void progress_until(struct doca_pe *pe, int *counter, int want)
{
	for (long i = 0; *counter < want; i++) {
		(void)doca_pe_progress(pe);
		CHECK(i < 100000000);
	}
}

static void test_caps(struct doca_dev *dpu, struct doca_dev *host)
{
	uint64_t max = 0;
	struct doca_mmap_advise *ma = NULL;

	CHECK_OK(doca_mmap_advise_cap_task_cache_invalidate_is_supported(doca_dev_as_devinfo(dpu)));
	CHECK_ERR(doca_mmap_advise_cap_task_cache_invalidate_is_supported(doca_dev_as_devinfo(host)),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_mmap_advise_cap_task_cache_invalidate_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(doca_dev_as_devinfo(dpu), &max));
	CHECK(max > 0);
	CHECK_ERR(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(NULL, &max), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(doca_dev_as_devinfo(dpu), NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_create(host, &ma), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_mmap_advise_create(NULL, &ma), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_create(dpu, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_mmap_advise_as_ctx(NULL) == NULL);
	CHECK(doca_mmap_advise_task_invalidate_cache_as_doca_task(NULL) == NULL);
	CHECK(doca_mmap_advise_task_invalidate_cache_get_buf(NULL) == NULL);
}

/* One context through its rules; returns with the context stopped and destroyed. */
static void test_rules(struct doca_dev *dpu)
{
	struct doca_mmap_advise *ma = NULL;
	struct doca_pe *pe = NULL;
	struct doca_ctx *ctx;
	struct doca_buf_inventory *inv = NULL;
	struct doca_mmap *mm = make_mmap(mem, sizeof(mem), dpu);
	struct doca_mmap *nodev = make_mmap(mem, sizeof(mem), NULL);
	struct doca_mmap_advise_task_invalidate_cache *t = NULL, *t2 = NULL;
	struct doca_buf *buf = NULL, *empty = NULL, *foreign = NULL, *tail = NULL;
	union doca_data ud = {.u64 = 42}, cud = {.u64 = 7};
	enum doca_ctx_states st;
	uint64_t max = 0;

	pe = sd_pe();
	inv = sd_inventory(8);
	CHECK_OK(doca_mmap_advise_create(dpu, &ma));
	ctx = doca_mmap_advise_as_ctx(ma);
	CHECK(ctx != NULL);
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_OK(doca_ctx_set_user_data(ctx, cud));

	/* configuration */
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_BAD_STATE); /* no task configuration yet */
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(NULL, on_done, on_err, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(ma, NULL, on_err, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(ma, on_done, NULL, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(ma, on_done, on_err, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(ma, on_done, on_err, 2));
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_alloc_init(ma, NULL, ud, &t), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_start(ctx));
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(ma, on_done, on_err, 2), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_advise_destroy(ma), DOCA_ERROR_IN_USE);

	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, mm, mem, LEN, &buf));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, mm, mem + LEN, LEN, &empty));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, nodev, mem, LEN, &foreign));

	/* pool: two tasks, the third is NO_MEMORY */
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_alloc_init(ma, buf, ud, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_alloc_init(NULL, buf, ud, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(ma, buf, ud, &t));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(ma, buf, ud, &t2));
	{
		struct doca_mmap_advise_task_invalidate_cache *t3 = NULL;

		CHECK_ERR(doca_mmap_advise_task_invalidate_cache_alloc_init(ma, buf, ud, &t3), DOCA_ERROR_NO_MEMORY);
	}
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(t2));
	CHECK(doca_mmap_advise_task_invalidate_cache_get_buf(t) == buf);
	CHECK(doca_task_get_ctx(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)) == ctx);
	struct doca_task *task = doca_mmap_advise_task_invalidate_cache_as_doca_task(t);

	/* try_submit returns every broken rule; the task stays the caller's */
	doca_mmap_advise_task_invalidate_cache_set_buf(t, NULL);
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_INVALID_VALUE);
	doca_mmap_advise_task_invalidate_cache_set_buf(t, empty);
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_INVALID_VALUE);
	doca_mmap_advise_task_invalidate_cache_set_buf(t, foreign);
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_NOT_PERMITTED);
	/* a buf inside a list is not a head */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, mm, mem + LEN, 16, &tail));
	CHECK_OK(doca_buf_chain_list(empty, tail));
	doca_mmap_advise_task_invalidate_cache_set_buf(t, tail);
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_INVALID_VALUE);
	/* ... but the list as a whole is fine: the tail has data */
	doca_mmap_advise_task_invalidate_cache_set_buf(t, empty);
	CHECK_OK(doca_task_try_submit(task));
	CHECK(nb_ok == 0); /* never inside submit */
	progress_until(pe, &nb_ok, 1);
	CHECK(last_status == DOCA_SUCCESS && last_ud == 42 && last_ctx_ud == 7);

	/* more bytes than the device allows: INVALID_VALUE (a reserved, never touched range) */
	CHECK_OK(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(doca_dev_as_devinfo(dpu), &max));
	if (max < (UINT64_C(1) << 40)) {
		size_t big_len = (size_t)max + 4096;
		void *big = mmap(NULL, big_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (big != MAP_FAILED) {
			struct doca_mmap *bm = make_mmap(big, big_len, dpu);
			struct doca_buf *bb = NULL;

			CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, bm, big, big_len, &bb));
			doca_mmap_advise_task_invalidate_cache_set_buf(t, bb);
			CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_INVALID_VALUE);
			CHECK_OK(doca_buf_dec_refcount(bb, NULL));
			CHECK_OK(doca_mmap_stop(bm));
			CHECK_OK(doca_mmap_destroy(bm));
			munmap(big, big_len);
		}
	}

	/* a released buf: BAD_STATE, returned at once even by plain submit */
	{
		struct doca_buf *gone = NULL;

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, mm, mem, 8, &gone));
		CHECK_OK(doca_buf_dec_refcount(gone, NULL));
		doca_mmap_advise_task_invalidate_cache_set_buf(t, gone);
		CHECK_ERR(doca_task_submit(task), DOCA_ERROR_BAD_STATE);
	}

	/* plain submit of a broken rule: the error callback, then the context stops itself */
	doca_mmap_advise_task_invalidate_cache_set_buf(t, foreign);
	CHECK_OK(doca_task_submit(task));
	CHECK(nb_err == 0);
	progress_until(pe, &nb_err, 1);
	CHECK(last_status == DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_ctx_get_state(ctx, &st));
	CHECK(st == DOCA_CTX_STATE_STOPPING);
	doca_task_free(task);
	(void)doca_pe_progress(pe);
	CHECK_OK(doca_ctx_get_state(ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);

	CHECK_OK(doca_mmap_advise_destroy(ma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_buf_dec_refcount(empty, NULL)); /* the list: empty + tail */
	CHECK_OK(doca_buf_dec_refcount(buf, NULL));
	CHECK_OK(doca_buf_dec_refcount(foreign, NULL));
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_stop(mm));
	CHECK_OK(doca_mmap_destroy(mm));
	CHECK_OK(doca_mmap_stop(nodev));
	CHECK_OK(doca_mmap_destroy(nodev));
}

/* ---- DMA copy, then invalidate its source from the DMA completion callback ---- */

static struct {
	struct doca_mmap_advise_task_invalidate_cache *inv_task;
	int dma_done;
} chain;

static void dma_done(struct doca_dma_task_memcpy *task, union doca_data ud, union doca_data cud)
{
	(void)task;
	(void)ud;
	(void)cud;
	chain.dma_done++;
	CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(chain.inv_task)));
}

static void dma_err(struct doca_dma_task_memcpy *task, union doca_data ud, union doca_data cud)
{
	(void)task;
	(void)ud;
	(void)cud;
	CHECK(!"DMA task failed");
}

static void test_after_dma(struct doca_dev *dpu)
{
	struct doca_pe *pe = NULL;
	struct doca_dma *dma = NULL;
	struct doca_mmap_advise *ma = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_mmap *mm = make_mmap(mem, sizeof(mem), dpu);
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_dma_task_memcpy *copy = NULL;
	union doca_data ud = {.u64 = 99};
	int ok0 = nb_ok;

	memset(mem, 0xa5, LEN);
	memset(mem + LEN, 0, LEN);
	pe = sd_pe();
	inv = sd_inventory(2);
	CHECK_OK(doca_dma_create(dpu, &dma));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, dma_done, dma_err, 1));
	CHECK_OK(doca_mmap_advise_create(dpu, &ma));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_mmap_advise_as_ctx(ma)));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(ma, on_done, on_err, 1));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	CHECK_OK(doca_ctx_start(doca_mmap_advise_as_ctx(ma)));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, mm, mem, LEN, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, mm, mem + LEN, LEN, &dst));
	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src, dst, ud, &copy));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(ma, src, ud, &chain.inv_task));
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(copy)));
	progress_until(pe, &nb_ok, ok0 + 1);
	CHECK(chain.dma_done == 1 && last_status == DOCA_SUCCESS && last_ud == 99);
	CHECK_MEM(mem, mem + LEN, LEN); /* the advice changed nothing the program reads */

	doca_task_free(doca_dma_task_memcpy_as_task(copy));
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(chain.inv_task));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma)));
	CHECK_OK(doca_ctx_stop(doca_mmap_advise_as_ctx(ma)));
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_mmap_advise_destroy(ma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_stop(mm));
	CHECK_OK(doca_mmap_destroy(mm));
}

int main(void)
{
	struct doca_dev *dpu = sd_open_dev("03:00.0");
	struct doca_dev *host = sd_open_dev("b1:00.0");

	test_caps(dpu, host);
	test_rules(dpu);
	test_after_dma(dpu);
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
	printf("mmap_advise: ok\n");
	return T_EXIT_PASS;
}
