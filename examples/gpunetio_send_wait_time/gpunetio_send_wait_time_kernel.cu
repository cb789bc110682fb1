/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA part of gpunetio_send_wait_time: one block of -b threads; each burst is one
 * BLOCK-scope doca_gpu_dev_eth_txq_wait_send (one wait descriptor ahead of the block's frames,
 * one frame per thread), the last thread asking for the completion. A last burst shorter than
 * the block goes from thread 0 alone (THREAD scope, a wait per frame). Thread 0 polls the
 * previous burst's completion and publishes the counts.
 */
#include <stdio.h>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <doca_gpunetio_dev_eth_txq.cuh>

#include "gpunetio_send_wait_time.h"

static cudaStream_t stream;

__device__ static void publish(uint64_t *word, uint64_t v)
{
	cuda::atomic_ref<uint64_t, cuda::thread_scope_system> r(*word);

	r.store(v, cuda::memory_order_release);
}

__device__ static void poll_burst(struct doca_gpu_eth_txq *txq, struct sw_stats *stats, uint32_t size,
				  uint64_t frames, uint64_t *packets, uint64_t *bytes, uint64_t *errors)
{
	uint32_t num = 0;

	if (doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_LAST>(txq, 1, DOCA_GPUNETIO_ETH_WAIT_FLAG_B,
										 &num) != DOCA_SUCCESS)
		(*errors)++;
	*packets += frames;
	*bytes += frames * size;
	publish(&stats->bytes, *bytes);
	publish(&stats->errors, *errors);
	publish(&stats->packets, *packets);
}

__global__ void wait_send_kernel(struct doca_gpu_eth_txq *txq, struct sw_params prm, struct sw_stats *stats)
{
	__shared__ uint32_t s_exit;
	const struct ss_params &f = prm.frame;
	const unsigned int tid = threadIdx.x;
	uint64_t packets = 0, bytes = 0, errors = 0, seq = 0, prev = 0;

	for (uint64_t k = 0; seq < prm.count; k++) {
		uint64_t n = prm.count - seq < prm.burst ? prm.count - seq : prm.burst;
		uint64_t ts = prm.times[k];

		if (tid == 0) {
			cuda::atomic_ref<uint32_t, cuda::thread_scope_system> ex(stats->exit);

			s_exit = ex.load(cuda::memory_order_acquire);
		}
		__syncthreads();
		if (s_exit != 0)
			break;
		if (n == blockDim.x) {
			uint64_t addr = f.pkt_addr + ((k & 1) * SW_MAX_BURST + tid) * SS_MAX_SIZE;

			ss_build_frame((uint8_t *)addr, &f, f.size, (uint32_t)(seq + tid));
			doca_gpu_dev_eth_txq_wait_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA,
						       DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
						       DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK>(
			    txq, ts, addr, f.mkey_be, f.size,
			    tid == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, NULL);
		} else if (tid == 0) {
			for (uint64_t i = 0; i < n; i++) {
				uint64_t addr = f.pkt_addr + ((k & 1) * SW_MAX_BURST + i) * SS_MAX_SIZE;

				ss_build_frame((uint8_t *)addr, &f, f.size, (uint32_t)(seq + i));
				doca_gpu_dev_eth_txq_wait_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA,
							       DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
							       DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
							       DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(
				    txq, ts, addr, f.mkey_be, f.size,
				    i == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, NULL);
			}
		}
		if (tid == 0 && k > 0)
			poll_burst(txq, stats, f.size, prev, &packets, &bytes, &errors);
		__syncthreads();
		seq += n;
		prev = n;
	}
	if (tid == 0) {
		cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(stats->done);

		if (prev != 0)
			poll_burst(txq, stats, f.size, prev, &packets, &bytes, &errors);
		r.store(1, cuda::memory_order_release);
	}
}

extern "C" doca_error_t sw_sender_launch(struct doca_gpu_eth_txq *txq, const struct sw_params *prm,
					 struct sw_stats *stats)
{
	cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

	if (err != cudaSuccess) {
		fprintf(stderr, "cudaStreamCreateWithFlags: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	wait_send_kernel<<<1, prm->burst, 0, stream>>>(txq, *prm, stats);
	err = cudaGetLastError();
	if (err != cudaSuccess) {
		fprintf(stderr, "wait-send kernel launch: %s\n", cudaGetErrorString(err));
		cudaStreamDestroy(stream);
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" doca_error_t sw_sender_wait(void)
{
	cudaError_t err = cudaStreamSynchronize(stream);

	cudaStreamDestroy(stream);
	if (err != cudaSuccess) {
		fprintf(stderr, "wait-send kernel: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" const char *sw_sender_kind(void)
{
	return "CUDA kernel";
}
