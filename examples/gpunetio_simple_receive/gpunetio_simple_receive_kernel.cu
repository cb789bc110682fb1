/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA part of gpunetio_simple_receive: one persistent block receives from the GPU queue
 * until the CPU sets exit. THREAD scope: a block of 1 thread; WARP: 32 (lane 0 receives);
 * BLOCK: 256 (thread 0 receives). Every thread of the block then classifies a share of the
 * packets; thread 0 publishes the block's counts with system-scope release stores.
 */
#include <stdio.h>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <doca_gpunetio_dev_eth_rxq.cuh>

#include "gpunetio_simple_receive.h"

#define BLOCK_THREADS 256

static cudaStream_t stream;

__device__ static uint32_t load_exit(struct sr_stats *s)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(s->exit);

	return r.load(cuda::memory_order_acquire);
}

__device__ static void publish(uint64_t *word, uint64_t v)
{
	cuda::atomic_ref<uint64_t, cuda::thread_scope_system> r(*word);

	r.store(v, cuda::memory_order_release);
}

template <enum doca_gpu_dev_eth_exec_scope scope>
__global__ void receive_kernel(struct doca_gpu_eth_rxq *rxq, struct sr_stats *stats, uint32_t max_pkt_size)
{
	__shared__ struct doca_gpu_dev_eth_rxq_attr attr[SR_MAX_RX_PKTS];
	__shared__ unsigned long long s_bytes;
	__shared__ unsigned int s_udp, s_bad;
	__shared__ uint32_t s_exit;
	uint64_t packets = 0, bytes = 0, udp = 0, errors = 0;

	for (;;) {
		uint64_t first = 0;
		uint32_t num = 0;
		doca_error_t ret;

		if (threadIdx.x == 0) {
			s_exit = load_exit(stats);
			s_bytes = 0;
			s_udp = 0;
			s_bad = 0;
		}
		__syncthreads();
		if (s_exit != 0)
			break;
		ret = doca_gpu_dev_eth_rxq_recv<scope, DOCA_GPUNETIO_ETH_MCST_DISABLED, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
						DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(rxq, SR_MAX_RX_PKTS, SR_RX_TIMEOUT_NS, &first,
									       &num, attr);
		__syncthreads(); /* attr is complete for every thread */
		if (ret != DOCA_SUCCESS) {
			if (threadIdx.x == 0)
				s_bad = 1;
			num = 0;
		}
		for (uint32_t i = threadIdx.x; i < num; i += blockDim.x) {
			uint32_t len = attr[i].bytes;
			const uint8_t *p = (const uint8_t *)doca_gpu_dev_eth_rxq_get_pkt_addr(rxq, first + i);

			if (len == 0 || len > max_pkt_size) {
				atomicAdd(&s_bad, 1u);
				continue;
			}
			atomicAdd(&s_bytes, (unsigned long long)len);
			if (sr_is_udp(p, len))
				atomicAdd(&s_udp, 1u);
		}
		__syncthreads();
		if (threadIdx.x == 0 && (num > 0 || s_bad > 0)) {
			packets += num;
			bytes += s_bytes;
			udp += s_udp;
			errors += s_bad;
			publish(&stats->bytes, bytes);
			publish(&stats->udp, udp);
			publish(&stats->errors, errors);
			publish(&stats->packets, packets); /* last: the CPU reads it first */
		}
	}
	if (threadIdx.x == 0) {
		cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(stats->done);

		r.store(1, cuda::memory_order_release);
	}
}

extern "C" doca_error_t sr_receiver_launch(struct doca_gpu_eth_rxq *rxq, struct sr_stats *stats,
					   enum sr_scope scope, uint32_t max_pkt_size)
{
	cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

	if (err != cudaSuccess) {
		fprintf(stderr, "cudaStreamCreateWithFlags: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	switch (scope) {
	case SR_SCOPE_THREAD:
		receive_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD><<<1, 1, 0, stream>>>(rxq, stats, max_pkt_size);
		break;
	case SR_SCOPE_WARP:
		receive_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP>
		    <<<1, DOCA_GPUNETIO_ETH_WARP_SIZE, 0, stream>>>(rxq, stats, max_pkt_size);
		break;
	default:
		receive_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK><<<1, BLOCK_THREADS, 0, stream>>>(rxq, stats, max_pkt_size);
		break;
	}
	err = cudaGetLastError();
	if (err != cudaSuccess) {
		fprintf(stderr, "receive kernel launch: %s\n", cudaGetErrorString(err));
		cudaStreamDestroy(stream);
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" doca_error_t sr_receiver_wait(void)
{
	cudaError_t err = cudaStreamSynchronize(stream);

	cudaStreamDestroy(stream);
	if (err != cudaSuccess) {
		fprintf(stderr, "receive kernel: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" const char *sr_receiver_kind(void)
{
	return "CUDA kernel";
}
