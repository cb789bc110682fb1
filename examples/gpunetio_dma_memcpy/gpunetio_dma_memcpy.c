/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_dma_memcpy - DOCA DMA between CPU and GPU memory, both ways, in the shape of DOCA's
 * gpunetio_dma_memcpy sample:
 *   1. CPU data path: a memcpy task on a progress engine copies a CPU text into GPU memory;
 *   2. GPU data path: a DMA context with doca_ctx_set_datapath_on_gpu(); a kernel prints the
 *      text of step 1, then posts a copy of a GPU text into CPU memory and commits it; the CPU
 *      waits for the bytes to arrive and prints them.
 *
 *   gpunetio_dma_memcpy -g <GPU PCI address, as nvidia-smi prints it> [-n 03:00.0]
 *
 * The GPU buffers are DOCA_GPU_MEM_TYPE_GPU_CPU (DOCA's sample uses DOCA_GPU_MEM_TYPE_GPU for the
 * first one): softdoca's DMA engines are CPU code and reach only GPU memory mapped to the host.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_gpunetio.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "../common.h"
#include "example_args.h"
#include "gpunetio_dma_memcpy.h"

DOCA_LOG_REGISTER(GPUNETIO_DMA_MEMCPY);

#define CPU_TEXT  "This text was copied from CPU to GPU memory by a DMA task"
#define GPU_TEXT  "This text was copied from GPU to CPU memory by a GPU thread"
#define WAIT_SECS 10

struct cfg {
	struct example_gpu_nic dev; /* first: example_nic_cb and example_gpu_cb fill it */
};

static doca_error_t begin(int argc, char **argv, struct cfg *cfg)
{
	doca_error_t ret;

	ret = example_log_argp_init(cfg);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = example_param("n", "nic", "DMA device PCI address (default " EXAMPLE_PCI_ADDR_DEFAULT ")",
			    DOCA_ARGP_TYPE_STRING, example_nic_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("g", "gpu", "GPU PCI address", DOCA_ARGP_TYPE_STRING, example_gpu_cb, true);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	if (ret != DOCA_SUCCESS)
		doca_argp_destroy();
	return ret;
}

static doca_error_t map(struct doca_dev *dev, void *addr, size_t len, struct doca_mmap **mmap)
{
	doca_error_t ret = doca_mmap_create(mmap);

	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(*mmap, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(*mmap, addr, len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(*mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(*mmap);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("mmap of %zu bytes at %p: %s", len, addr, doca_error_get_descr(ret));
	return ret;
}

/* ---- 1. CPU data path: CPU text -> GPU memory ---- */

static int task_done;

static void task_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	task_done = 1;
}

static doca_error_t cpu_to_gpu(struct doca_dev *dev, char *gpu_dst, size_t size)
{
	struct doca_mmap *src_mm = NULL, *dst_mm = NULL;
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_dma_task_memcpy *task = NULL;
	struct doca_buf_inventory *inv = NULL;
	union doca_data ud = {0};
	struct doca_dma *dma = NULL;
	struct doca_pe *pe = NULL;
	char *cpu_src = calloc(1, size);
	doca_error_t ret;

	if (cpu_src == NULL)
		return DOCA_ERROR_NO_MEMORY;
	strcpy(cpu_src, CPU_TEXT);
	ret = map(dev, cpu_src, size, &src_mm);
	if (ret == DOCA_SUCCESS)
		ret = map(dev, gpu_dst, size, &dst_mm);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(2, &inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_buf_get_by_data(inv, src_mm, cpu_src, size, &src);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_buf_get_by_addr(inv, dst_mm, gpu_dst, size, &dst);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_create(dev, &dma);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma));
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_task_memcpy_set_conf(dma, task_cb, task_cb, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_dma_as_ctx(dma));
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_task_memcpy_alloc_init(dma, src, dst, ud, &task);
	if (ret == DOCA_SUCCESS)
		ret = doca_task_submit(doca_dma_task_memcpy_as_task(task));
	while (ret == DOCA_SUCCESS && !task_done)
		doca_pe_progress(pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	if (ret == DOCA_SUCCESS)
		DOCA_LOG_INFO("CPU data path: DMA task copied \"%s\" into GPU memory", CPU_TEXT);
	else
		DOCA_LOG_ERR("CPU data path failed: %s", doca_error_get_descr(ret));

	if (task != NULL)
		doca_task_free(doca_dma_task_memcpy_as_task(task));
	if (dma != NULL) {
		(void)doca_ctx_stop(doca_dma_as_ctx(dma));
		(void)doca_dma_destroy(dma);
	}
	if (pe != NULL)
		(void)doca_pe_destroy(pe);
	if (src != NULL)
		(void)doca_buf_dec_refcount(src, NULL);
	if (dst != NULL)
		(void)doca_buf_dec_refcount(dst, NULL);
	if (inv != NULL)
		(void)doca_buf_inventory_destroy(inv);
	if (src_mm != NULL)
		(void)doca_mmap_destroy(src_mm);
	if (dst_mm != NULL)
		(void)doca_mmap_destroy(dst_mm);
	free(cpu_src);
	return ret;
}

/* ---- 2. GPU data path: GPU text -> CPU memory, posted by a kernel ---- */

static doca_error_t buf_arr(struct doca_gpu *gpu, struct doca_mmap *mm, size_t size, struct doca_buf_arr **arr,
			    struct doca_gpu_buf_arr **gpu_arr)
{
	doca_error_t ret = doca_buf_arr_create(1, arr);

	if (ret == DOCA_SUCCESS)
		ret = doca_buf_arr_set_target_gpu(*arr, gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_arr_set_params(*arr, mm, size, 0);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_arr_start(*arr);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_arr_get_gpu_handle(*arr, gpu_arr);
	return ret;
}

/* The GPU's copy completes on its own: wait until the text is there, for a bounded time. */
static doca_error_t wait_for_text(const char *dst, const char *text)
{
	time_t end = time(NULL) + WAIT_SECS;

	while (memcmp(dst, text, strlen(text) + 1) != 0) {
		if (time(NULL) > end) {
			DOCA_LOG_ERR("the GPU's DMA copy did not arrive within %d s", WAIT_SECS);
			return DOCA_ERROR_TIME_OUT;
		}
		sched_yield();
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	}
	return DOCA_SUCCESS;
}

static doca_error_t gpu_to_cpu(struct doca_dev *dev, struct doca_gpu *gpu, uintptr_t gpu_text, size_t size)
{
	struct doca_buf_arr *src_arr = NULL, *dst_arr = NULL;
	struct doca_gpu_buf_arr *src_h = NULL, *dst_h = NULL;
	struct doca_mmap *src_mm = NULL, *dst_mm = NULL;
	struct doca_gpu_dma *dma_gpu = NULL;
	struct doca_dma *dma = NULL;
	char *cpu_dst = calloc(1, size);
	void *gpu_src = NULL;
	void *cpu_view = NULL;
	doca_error_t ret;

	if (cpu_dst == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ret = doca_gpu_mem_alloc(gpu, size, (size_t)sysconf(_SC_PAGESIZE), DOCA_GPU_MEM_TYPE_GPU_CPU, &gpu_src,
				 &cpu_view);
	if (ret == DOCA_SUCCESS) {
		strcpy(cpu_view, GPU_TEXT);
		ret = map(dev, gpu_src, size, &src_mm);
	}
	if (ret == DOCA_SUCCESS)
		ret = map(dev, cpu_dst, size, &dst_mm);
	if (ret == DOCA_SUCCESS)
		ret = buf_arr(gpu, src_mm, size, &src_arr, &src_h);
	if (ret == DOCA_SUCCESS)
		ret = buf_arr(gpu, dst_mm, size, &dst_arr, &dst_h);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_create(dev, &dma);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(dma), gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_dma_as_ctx(dma));
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_get_gpu_handle(dma, &dma_gpu);
	if (ret == DOCA_SUCCESS)
		ret = example_launch_dma_kernel(gpu_text, dma_gpu, src_h, dst_h, EXAMPLE_COPY_SIZE);
	if (ret == DOCA_SUCCESS)
		ret = wait_for_text(cpu_dst, GPU_TEXT);
	if (ret == DOCA_SUCCESS)
		printf("CPU received from the GPU: %s\n", cpu_dst);
	else
		DOCA_LOG_ERR("GPU data path failed: %s", doca_error_get_descr(ret));

	if (dma != NULL) {
		(void)doca_ctx_stop(doca_dma_as_ctx(dma));
		(void)doca_dma_destroy(dma);
	}
	if (src_arr != NULL)
		(void)doca_buf_arr_destroy(src_arr);
	if (dst_arr != NULL)
		(void)doca_buf_arr_destroy(dst_arr);
	if (src_mm != NULL)
		(void)doca_mmap_destroy(src_mm);
	if (dst_mm != NULL)
		(void)doca_mmap_destroy(dst_mm);
	if (gpu_src != NULL)
		(void)doca_gpu_mem_free(gpu, gpu_src);
	free(cpu_dst);
	return ret;
}

int main(int argc, char **argv)
{
	struct cfg cfg = {.dev.nic = EXAMPLE_PCI_ADDR_DEFAULT};
	struct doca_gpu *gpu = NULL;
	struct doca_dev *dev = NULL;
	size_t size = EXAMPLE_COPY_SIZE;
	void *gpu_buf = NULL;
	void *cpu_view = NULL;
	doca_error_t ret;

	if (begin(argc, argv, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	ret = example_open_dma_device(cfg.dev.nic, &dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_create(cfg.dev.gpu, &gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(gpu, size, (size_t)sysconf(_SC_PAGESIZE), DOCA_GPU_MEM_TYPE_GPU_CPU, &gpu_buf,
					 &cpu_view);
	if (ret == DOCA_SUCCESS)
		ret = cpu_to_gpu(dev, gpu_buf, size);
	if (ret == DOCA_SUCCESS)
		ret = gpu_to_cpu(dev, gpu, (uintptr_t)gpu_buf, size);

	if (gpu_buf != NULL)
		(void)doca_gpu_mem_free(gpu, gpu_buf);
	if (gpu != NULL)
		(void)doca_gpu_destroy(gpu);
	if (dev != NULL)
		(void)doca_dev_close(dev);
	doca_argp_destroy();
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("gpunetio_dma_memcpy failed: %s", doca_error_get_descr(ret));
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
