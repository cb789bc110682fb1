/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compiled (never run) by check_nvcc.sh: every GPUNetIO device function in a kernel, as the
 * samples call them, so nvcc sees the device headers' real instantiations.
 */
#include <doca_gpunetio_dev_buf.cuh>
#include <doca_gpunetio_dev_dma.cuh>
#include <doca_gpunetio_dev_sem.cuh>

struct stats {
	uint32_t packets;
	uint64_t bytes;
};

__global__ void produce(struct doca_gpu_semaphore_gpu *sem, const struct doca_gpu_buf_arr *arr, uint32_t items,
			uint32_t *error)
{
	uint32_t idx = blockIdx.x % items;
	enum doca_gpu_semaphore_status st;
	struct doca_gpu_buf *buf;
	struct stats *info;
	uintptr_t addr;
	uint32_t mkey;

	doca_gpu_dev_buf_get_buf(arr, threadIdx.x, &buf);
	doca_gpu_dev_buf_get_addr(buf, &addr);
	doca_gpu_dev_buf_get_mkey(buf, &mkey);
	if (threadIdx.x != 0)
		return;
	do {
		if (doca_gpu_dev_semaphore_get_status(sem, idx, &st) != DOCA_SUCCESS) {
			*error = 1;
			return;
		}
	} while (st != DOCA_GPU_SEMAPHORE_STATUS_FREE);
	if (doca_gpu_dev_semaphore_get_custom_info_addr(sem, idx, (void **)&info) != DOCA_SUCCESS) {
		*error = 2;
		return;
	}
	info->packets = blockDim.x;
	info->bytes = (uint64_t)addr + mkey;
	if (doca_gpu_dev_semaphore_set_status(sem, idx, DOCA_GPU_SEMAPHORE_STATUS_READY) != DOCA_SUCCESS)
		*error = 3;
}

/* As DOCA's DMA memcpy sample: each thread posts one copy, thread 0 rings the doorbell. */
__global__ void dma_copy(struct doca_gpu_dma *dma, const struct doca_gpu_buf_arr *src_arr,
			 const struct doca_gpu_buf_arr *dst_arr, size_t len, uint32_t *error)
{
	struct doca_gpu_buf *src;
	struct doca_gpu_buf *dst;

	doca_gpu_dev_buf_get_buf(src_arr, threadIdx.x, &src);
	doca_gpu_dev_buf_get_buf(dst_arr, threadIdx.x, &dst);
	if (doca_gpu_dev_dma_memcpy(dma, src, 0, dst, 0, len) != DOCA_SUCCESS)
		*error = 4;
	__syncthreads();
	if (threadIdx.x == 0 && doca_gpu_dev_dma_commit(dma) != DOCA_SUCCESS)
		*error = 5;
}
