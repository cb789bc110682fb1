/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA part of gpunetio_dma_memcpy: one GPU thread posts a DMA copy and commits it.
 */
#include <stdio.h>

#include <cuda_runtime.h>

#include <doca_gpunetio_dev_buf.cuh>
#include <doca_gpunetio_dev_dma.cuh>

#include "gpunetio_dma_memcpy.h"

__global__ void dma_memcpy_kernel(uintptr_t gpu_text, struct doca_gpu_dma *dma, struct doca_gpu_buf_arr *src_arr,
				  struct doca_gpu_buf_arr *dst_arr, size_t len, doca_error_t *result)
{
	struct doca_gpu_buf *src;
	struct doca_gpu_buf *dst;
	doca_error_t ret;

	printf("GPU: the CPU data path wrote \"%s\" into GPU memory\n", (const char *)gpu_text);
	doca_gpu_dev_buf_get_buf(src_arr, threadIdx.x, &src);
	doca_gpu_dev_buf_get_buf(dst_arr, threadIdx.x, &dst);
	ret = doca_gpu_dev_dma_memcpy(dma, src, 0, dst, 0, len);
	/* Every thread that posts does so before the one that commits. */
	__syncthreads();
	if (ret == DOCA_SUCCESS && threadIdx.x == 0)
		ret = doca_gpu_dev_dma_commit(dma);
	if (threadIdx.x == 0)
		*result = ret;
}

extern "C" doca_error_t example_launch_dma_kernel(uintptr_t gpu_text, struct doca_gpu_dma *dma,
						  struct doca_gpu_buf_arr *src, struct doca_gpu_buf_arr *dst,
						  size_t len)
{
	doca_error_t *result = NULL;
	doca_error_t ret = DOCA_ERROR_DRIVER;
	cudaStream_t stream;
	cudaError_t err;

	err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
	if (err != cudaSuccess) {
		fprintf(stderr, "cudaStreamCreateWithFlags: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	err = cudaMallocManaged(&result, sizeof(*result), cudaMemAttachGlobal);
	if (err == cudaSuccess) {
		dma_memcpy_kernel<<<1, 1, 0, stream>>>(gpu_text, dma, src, dst, len, result);
		err = cudaGetLastError();
	}
	if (err == cudaSuccess)
		err = cudaStreamSynchronize(stream);
	if (err == cudaSuccess)
		ret = *result;
	else
		fprintf(stderr, "CUDA: %s\n", cudaGetErrorString(err));
	if (result != NULL)
		cudaFree(result);
	cudaStreamDestroy(stream);
	return ret;
}
