/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shared_mmap.c - one source and one destination mmap shared by two application threads.
 *
 * DOCA programs start an mmap once and use it from several threads, each with its own PE,
 * DMA context and buffer inventory (inventories and PEs are not thread-safe; mmaps are shared).
 * The rights a map grants each device are decided at doca_mmap_start() and only read after
 * that, so the threads' tasks must neither race (this test runs under TSan in CI) nor see a
 * wrong answer. Each thread copies its own half of the source into its own half of the
 * destination, 4000 tasks of varying size, and checks every copy; then, still sharing the
 * maps, each thread's DMA context on the second device (03:00.1, not added to the maps) is
 * refused with NOT_PERMITTED.
 */
#include <pthread.h>

#include "dma_test.h"

enum { THREADS = 2, TASKS = 4000, SLOT = 4096, SLOTS = 16, HALF = SLOT * SLOTS };

static struct doca_mmap *src_map, *dst_map;
static uint8_t *src_mem, *dst_mem;
static struct doca_dev *dev0, *dev1;

struct worker {
	pthread_t tid;
	unsigned int index;
	int rc;
	size_t done;
	size_t bad;
};

struct slot_ud {
	struct worker *w;
	uint32_t slot;
	uint32_t len;
};

static void ok_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	struct worker *w = ctx_ud.ptr;
	uint32_t slot = (uint32_t)(ud.u64 >> 32), len = (uint32_t)ud.u64;
	size_t off = (size_t)w->index * HALF + (size_t)slot * SLOT;

	if (memcmp(dst_mem + off, src_mem + off, len) != 0)
		w->bad++;
	w->done++;
	doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(t), NULL);
	doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(t), NULL);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static void err_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	struct worker *w = ctx_ud.ptr;

	(void)ud;
	w->bad++;
	w->done++;
	doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(t), NULL);
	doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(t), NULL);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static int run_worker(struct worker *w)
{
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_dma_task_memcpy *t;
	union doca_data ctx_ud = {.ptr = w};
	uint64_t seed = 77 + w->index;
	size_t submitted = 0;

	CHECK_ERR(doca_buf_inventory_create(4 * SLOTS, &inv), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_inventory_start(inv), DOCA_SUCCESS);
	CHECK_ERR(doca_pe_create(&pe), DOCA_SUCCESS);
	CHECK_ERR(doca_dma_create(dev0, &dma), DOCA_SUCCESS);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(dma, ok_cb, err_cb, SLOTS), DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_set_user_data(doca_dma_as_ctx(dma), ctx_ud), DOCA_SUCCESS);
	CHECK_ERR(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)), DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_start(doca_dma_as_ctx(dma)), DOCA_SUCCESS);

	while (w->done < TASKS) {
		/* One task per slot in flight; a slot is free again once its callback ran. */
		while (submitted < TASKS && submitted - w->done < SLOTS) {
			uint32_t slot = (uint32_t)(submitted % SLOTS);
			uint32_t len = (uint32_t)prng_range(&seed, 1, SLOT);
			size_t off = (size_t)w->index * HALF + (size_t)slot * SLOT;
			union doca_data ud = {.u64 = ((uint64_t)slot << 32) | len};
			struct doca_buf *s, *d;

			CHECK_ERR(doca_buf_inventory_buf_get_by_data(inv, src_map, src_mem + off, len, &s), DOCA_SUCCESS);
			CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, dst_map, dst_mem + off, SLOT, &d), DOCA_SUCCESS);
			CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, s, d, ud, &t), DOCA_SUCCESS);
			CHECK_ERR(doca_task_submit(doca_dma_task_memcpy_as_task(t)), DOCA_SUCCESS);
			submitted++;
		}
		doca_pe_progress(pe);
	}
	CHECK_EQ(w->bad, 0);
	CHECK(dma_ctx_close(pe, dma) == 0);

	/* The maps grant nothing to a device they were not given. */
	{
		struct doca_buf *s, *d;
		union doca_data ud = {.u64 = 0};
		size_t off = (size_t)w->index * HALF;

		CHECK_ERR(doca_dma_create(dev1, &dma), DOCA_SUCCESS);
		CHECK_ERR(doca_dma_task_memcpy_set_conf(dma, ok_cb, err_cb, SLOTS), DOCA_SUCCESS);
		CHECK_ERR(doca_ctx_set_user_data(doca_dma_as_ctx(dma), ctx_ud), DOCA_SUCCESS);
		CHECK_ERR(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)), DOCA_SUCCESS);
		CHECK_ERR(doca_ctx_start(doca_dma_as_ctx(dma)), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_buf_get_by_data(inv, src_map, src_mem + off, 64, &s), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, dst_map, dst_mem + off, SLOT, &d), DOCA_SUCCESS);
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, s, d, ud, &t), DOCA_SUCCESS);
		CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(t)), DOCA_ERROR_NOT_PERMITTED);
		doca_task_free(doca_dma_task_memcpy_as_task(t));
		CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(d, NULL), DOCA_SUCCESS);
		CHECK(dma_ctx_close(pe, dma) == 0);
	}
	CHECK_ERR(doca_pe_destroy(pe), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->rc = run_worker(w);
	return NULL;
}

int main(void)
{
	struct worker w[THREADS];

	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	src_mem = malloc((size_t)THREADS * HALF);
	dst_mem = calloc(THREADS, HALF);
	CHECK(src_mem != NULL && dst_mem != NULL);
	prng_fill(5, src_mem, (size_t)THREADS * HALF);
	CHECK_ERR(sd_dev_open("03:00.0", &dev0), DOCA_SUCCESS);
	CHECK_ERR(sd_dev_open("03:00.1", &dev1), DOCA_SUCCESS);
	CHECK_ERR(sd_mmap_create(src_mem, (size_t)THREADS * HALF, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY, dev0, NULL, &src_map),
		  DOCA_SUCCESS);
	/* Write-capable through the export flag alone, as BlueField programs do. */
	CHECK_ERR(sd_mmap_create(dst_mem, (size_t)THREADS * HALF, DOCA_ACCESS_FLAG_PCI_READ_WRITE, dev0, NULL, &dst_map),
		  DOCA_SUCCESS);
	for (unsigned int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){.index = i};
		CHECK(pthread_create(&w[i].tid, NULL, worker_main, &w[i]) == 0);
	}
	for (unsigned int i = 0; i < THREADS; i++) {
		CHECK(pthread_join(w[i].tid, NULL) == 0);
		CHECK_EQ(w[i].rc, 0);
		CHECK_EQ(w[i].done, TASKS);
	}
	CHECK_ERR(doca_mmap_destroy(src_map), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_destroy(dst_map), DOCA_SUCCESS);
	CHECK_ERR(doca_dev_close(dev0), DOCA_SUCCESS);
	CHECK_ERR(doca_dev_close(dev1), DOCA_SUCCESS);
	free(src_mem);
	free(dst_mem);
	printf("shared_mmap: %d threads x %d tasks on two shared mmaps, every copy verified\n", THREADS, TASKS);
	return 0;
}
