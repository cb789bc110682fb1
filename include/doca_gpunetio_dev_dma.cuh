/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio_dev_dma.cuh - DOCA DMA from the GPU, device side (doca_dma_get_gpu_handle).
 *
 * Header-only (no -rdc, no device library) over the DMA ring of doca_gpunetio_hd.h: memcpy
 * posts a descriptor (source and destination address with their mmap keys, length), commit
 * rings the doorbell with a system-scope release; softdoca's CPU side then checks and copies
 * each descriptor in order and writes its completion back.
 */
#ifndef DOCA_GPUNETIO_DEV_DMA_CUH_
#define DOCA_GPUNETIO_DEV_DMA_CUH_

#include <stddef.h>
#include <stdint.h>

#include <doca_buf_array.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_gpunetio_hd.h>

/**
 * Enqueues a copy of @length bytes from @src_buf + @src_offset to @dst_buf + @dst_offset on
 * @dma's queue; many threads may enqueue at once. It runs after the next doca_gpu_dev_dma_commit().
 *
 * INVALID_VALUE: a NULL argument, @length 0, or a range outside its buf. AGAIN (softdoca): the
 * queue is full of descriptors not yet complete; commit and post again later.
 */
DOCA_GPUNETIO_DEV doca_error_t doca_gpu_dev_dma_memcpy(struct doca_gpu_dma *dma, struct doca_gpu_buf *src_buf,
						       uint64_t src_offset, struct doca_gpu_buf *dst_buf,
						       uint64_t dst_offset, size_t length)
{
	if (dma == NULL || src_buf == NULL || dst_buf == NULL || length == 0 || src_offset > src_buf->len ||
	    length > src_buf->len - src_offset || dst_offset > dst_buf->len || length > dst_buf->len - dst_offset)
		return DOCA_ERROR_INVALID_VALUE;
	return doca_gpunetio_hd_dma_post(dma, src_buf->addr + src_offset, src_buf->mkey, dst_buf->addr + dst_offset,
					 dst_buf->mkey, (uint64_t)length, NULL);
}

/**
 * Executes the copies enqueued so far (rings the doorbell, system-scope release). One thread
 * at a time per queue, after the threads that enqueued (e.g. behind __syncthreads()).
 * INVALID_VALUE: NULL @dma.
 */
DOCA_GPUNETIO_DEV doca_error_t doca_gpu_dev_dma_commit(struct doca_gpu_dma *dma)
{
	if (dma == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	doca_gpunetio_hd_dma_commit(dma);
	return DOCA_SUCCESS;
}

#endif /* DOCA_GPUNETIO_DEV_DMA_CUH_ */
