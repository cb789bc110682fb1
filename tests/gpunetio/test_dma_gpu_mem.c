/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_dma_gpu_mem.c - CPU-driven DMA tasks whose buffers are GPU-only memory
 * (DOCA_GPU_MEM_TYPE_GPU), as DOCA's gpunetio_dma_memcpy sample does before its kernel runs.
 *
 * The fake CUDA runtime runs with FAKE_CUDA_PROTECT_DEVICE=1: its device memory is a PROT_NONE
 * view, so a CPU load or store of it crashes the test, as it would fault with a real driver.
 * Checked: host -> GPU, GPU -> GPU and GPU -> host copies (single bufs and lists) land, every
 * one through cudaMemcpy (the fake counts them); a map over GPU and host memory at once is
 * refused at start; a list mixing GPU and host memory is refused at submit; a map over GPU
 * memory is an ordinary local map again once stopped.
 * Run once per executor (SOFTDOCA_ENGINE).
 */
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "gpu_test.h"

#define LEN (256u * 1024)

static int done, failed;
static doca_error_t last_status;

static void ok_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data cud)
{
	(void)ud, (void)cud;
	done++;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static void err_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data cud)
{
	(void)ud, (void)cud;
	failed++;
	last_status = doca_task_get_status(doca_dma_task_memcpy_as_task(t));
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static struct doca_mmap *map(struct doca_dev *dev, void *addr, size_t len)
{
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

/* Copies @len bytes from @src (in @sm) to @dst (in @dm), through @parts bufs per side. */
static void copy(struct doca_pe *pe, struct doca_dma *dma, struct doca_buf_inventory *inv, struct doca_mmap *sm,
		 uint8_t *src, struct doca_mmap *dm, uint8_t *dst, size_t len, unsigned int parts)
{
	struct doca_buf *s = NULL, *d = NULL;
	struct doca_dma_task_memcpy *t;
	size_t part = len / parts;
	int before = done;

	for (unsigned int i = 0; i < parts; i++) {
		struct doca_buf *bs, *bd;

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, sm, src + i * part, part, &bs));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, dm, dst + i * part, part, &bd));
		if (s == NULL) {
			s = bs;
			d = bd;
		} else {
			CHECK_OK(doca_buf_chain_list(s, bs));
			CHECK_OK(doca_buf_chain_list(d, bd));
		}
	}
	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, s, d, (union doca_data){.u64 = 0}, &t));
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	for (uint64_t t0 = sd_now_ns(); done == before && failed == 0 && sd_now_ns() - t0 < 10000000000ull;)
		doca_pe_progress(pe);
	CHECK_EQ(failed, 0);
	CHECK_EQ(done, before + 1);
	CHECK_OK(doca_buf_dec_refcount(s, NULL));
	CHECK_OK(doca_buf_dec_refcount(d, NULL));
}

int main(void)
{
	static uint8_t host_a[LEN], host_b[LEN];
	struct doca_mmap *ma, *mb, *mg1, *mg2, *mixed;
	struct doca_buf_inventory *inv;
	struct doca_dma *dma;
	struct doca_gpu *gpu;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct fake_cuda fake;
	long (*copies)(void);
	uint8_t *g1, *g2;
	long c0;

	sd_setenv("FAKE_CUDA_PROTECT_DEVICE", "1");
	CHECK_OK(doca_gpu_create(FAKE_GPU_PCI, &gpu));
	fake = fake_cuda_get();
	*(void **)&copies = dlsym(dlopen(getenv("SOFTDOCA_CUDART"), RTLD_NOW | RTLD_NOLOAD), "fake_cuda_copies");
	CHECK(copies != NULL);
	CHECK_OK(doca_gpu_mem_alloc(gpu, LEN, 0, DOCA_GPU_MEM_TYPE_GPU, (void **)&g1, NULL));
	CHECK_OK(doca_gpu_mem_alloc(gpu, LEN, 0, DOCA_GPU_MEM_TYPE_GPU, (void **)&g2, NULL));
	CHECK_EQ(fake.live_allocations(), 2);

	dev = sd_open_dev("03:00.0");
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_buf_inventory_create(64, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_dma_create(dev, &dma));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, ok_cb, err_cb, 8));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	ma = map(dev, host_a, LEN);
	mb = map(dev, host_b, LEN);
	mg1 = map(dev, g1, LEN);
	mg2 = map(dev, g2, LEN);

	for (size_t i = 0; i < LEN; i++)
		host_a[i] = (uint8_t)(i * 7 + 1);
	c0 = copies();
	copy(pe, dma, inv, ma, host_a, mg1, g1, LEN, 1); /* host -> GPU */
	copy(pe, dma, inv, mg1, g1, mg2, g2, LEN, 4);	 /* GPU -> GPU, lists of 4 */
	copy(pe, dma, inv, mg2, g2, mb, host_b, LEN, 2); /* GPU -> host */
	CHECK_MEM(host_b, host_a, LEN);
	CHECK(copies() - c0 >= 3);

	/* A list mixing GPU and host memory: NOT_SUPPORTED through the error callback. */
	{
		struct doca_buf *s, *s2, *d;
		struct doca_dma_task_memcpy *t;

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, mg1, g1, 4096, &s));
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, ma, host_a, 4096, &s2));
		CHECK_OK(doca_buf_chain_list(s, s2));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, mb, host_b, 8192, &d));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, s, d, (union doca_data){.u64 = 0}, &t));
		CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(t)), DOCA_ERROR_NOT_SUPPORTED);
		doca_task_free(doca_dma_task_memcpy_as_task(t));
		CHECK_OK(doca_buf_dec_refcount(s, NULL));
		CHECK_OK(doca_buf_dec_refcount(d, NULL));
	}

	/* One map over GPU memory and beyond it: refused at start. */
	CHECK_OK(doca_mmap_create(&mixed));
	CHECK_OK(doca_mmap_set_memrange(mixed, g1 + LEN / 2, LEN));
	CHECK_OK(doca_mmap_add_dev(mixed, dev));
	CHECK_ERR(doca_mmap_start(mixed), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_destroy(mixed));

	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma)));
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_mmap_destroy(ma));
	CHECK_OK(doca_mmap_destroy(mb));
	CHECK_OK(doca_mmap_destroy(mg1));
	CHECK_OK(doca_mmap_destroy(mg2));
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_gpu_mem_free(gpu, g1));
	CHECK_OK(doca_gpu_mem_free(gpu, g2));
	CHECK_EQ(fake.live_allocations(), 0);
	CHECK_OK(doca_gpu_destroy(gpu));
	printf("DMA to, from and within GPU-only memory: every copy through cudaMemcpy (%ld calls)\n", copies() - c0);
	return 0;
}
