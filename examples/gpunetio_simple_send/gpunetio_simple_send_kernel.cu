/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA part of gpunetio_simple_send: one persistent block sends rounds of SS_ROUND frames
 * until -c frames are out or the CPU sets exit. THREAD scope: a block of 1 thread sends each
 * frame alone; WARP: 32 threads, BLOCK: 256, each doca_gpu_dev_eth_txq_send call sending one
 * frame per thread (a round's remainder below the group size goes from thread 0 alone, THREAD
 * scope). -w: every thread fills descriptors at positions of the kernel's own choosing
 * (doca_gpu_dev_eth_txq_wqe_prepare_send), thread 0 submits each round and polls its completion
 * by position (DOCA's non-shared queue). Thread 0 polls completions and publishes the counts with
 * system-scope release stores.
 */
#include <stdio.h>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <doca_gpunetio_dev_eth_txq.cuh>

#include "gpunetio_simple_send.h"

#define BLOCK_THREADS 256

static cudaStream_t stream;

__device__ static uint64_t gpu_now_ns(void)
{
	uint64_t t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

__device__ static void publish(uint64_t *word, uint64_t v)
{
	cuda::atomic_ref<uint64_t, cuda::thread_scope_system> r(*word);

	r.store(v, cuda::memory_order_release);
}

/* Not before frame @seq's time at -r frames per second. */
__device__ static void pace(const struct ss_params &prm, uint64_t t0, uint64_t seq)
{
	if (prm.rate != 0)
		while (gpu_now_ns() - t0 < seq * 1000000000ull / prm.rate) {
		}
}

/* Completion of @round: high level, the next completion position; low level (-w), @round itself. */
__device__ static void poll_round(struct doca_gpu_eth_txq *txq, struct ss_stats *stats, const struct ss_params &prm,
				  uint64_t round, uint64_t frames, uint64_t *packets, uint64_t *bytes, uint64_t *errors)
{
	uint32_t num = 0;
	doca_error_t ret;

	if (prm.low_level)
		ret = doca_gpu_dev_eth_txq_poll_completion_at(txq, round, DOCA_GPUNETIO_ETH_WAIT_FLAG_B);
	else
		ret = doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_LAST>(
		    txq, 1, DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &num);
	if (ret != DOCA_SUCCESS)
		(*errors)++;
	*packets += frames;
	*bytes += frames * prm.size;
	publish(&stats->bytes, *bytes);
	publish(&stats->errors, *errors);
	publish(&stats->packets, *packets); /* last: the CPU reads it first */
}

template <enum doca_gpu_dev_eth_exec_scope scope>
__global__ void send_kernel(struct doca_gpu_eth_txq *txq, struct ss_params prm, struct ss_stats *stats)
{
	__shared__ uint64_t s_n;
	__shared__ uint64_t s_t0;
	const unsigned int g = blockDim.x, tid = threadIdx.x;
	uint64_t packets = 0, bytes = 0, errors = 0, seq = 0, prev = 0, last = 0;

	if (tid == 0)
		s_t0 = gpu_now_ns();
	for (uint64_t round = 0;; round++) {
		uint64_t n, full;

		if (tid == 0) {
			cuda::atomic_ref<uint32_t, cuda::thread_scope_system> ex(stats->exit);

			n = SS_ROUND;
			if (prm.count != 0 && prm.count - seq < n)
				n = prm.count - seq;
			s_n = ex.load(cuda::memory_order_acquire) != 0 ? 0 : n;
		}
		__syncthreads();
		n = s_n;
		if (n == 0)
			break;
		if (prm.low_level) {
			/* Every thread fills descriptors of its own (frame seq is descriptor seq: at most
			 * two rounds out, far below the ring's size), thread 0 submits the round. */
			for (uint64_t i = 0; i < n; i += g) {
				uint64_t k = i + tid, addr = prm.pkt_addr + ((round & 1) * SS_ROUND + k) * SS_MAX_SIZE;
				uint16_t idx = (uint16_t)(seq + k);

				if (tid == 0)
					pace(prm, s_t0, seq + i);
				__syncthreads();
				if (k >= n)
					continue;
				ss_build_frame((uint8_t *)addr, &prm, prm.size, (uint32_t)(seq + k));
				doca_gpu_dev_eth_txq_wqe_prepare_send(
				    txq, doca_gpu_dev_eth_txq_get_wqe_ptr(txq, idx), idx, addr, prm.mkey_be, prm.size,
				    k == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
			}
			__syncthreads();
			if (tid == 0) {
				doca_gpu_dev_eth_txq_submit(txq, seq + n);
				if (round > 0)
					poll_round(txq, stats, prm, round - 1, prev, &packets, &bytes, &errors);
			}
			__syncthreads();
			seq += n;
			prev = n;
			last = round;
			continue;
		}
		full = scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD ? 0 : n / g * g;
		for (uint64_t i = 0; i < full; i += g) {
			uint64_t slot = (round & 1) * SS_ROUND + i + tid;
			uint64_t addr = prm.pkt_addr + slot * SS_MAX_SIZE;

			if (tid == 0)
				pace(prm, s_t0, seq + i);
			__syncthreads();
			ss_build_frame((uint8_t *)addr, &prm, prm.size, (uint32_t)(seq + i + tid));
			doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
						  DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
						  scope>(txq, addr, prm.mkey_be, prm.size,
							 i + tid == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY
									  : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
							 NULL);
		}
		if (tid == 0) {
			for (uint64_t i = full; i < n; i++) {
				uint64_t addr = prm.pkt_addr + ((round & 1) * SS_ROUND + i) * SS_MAX_SIZE;

				pace(prm, s_t0, seq + i);
				ss_build_frame((uint8_t *)addr, &prm, prm.size, (uint32_t)(seq + i));
				doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
							  DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
							  DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
							  DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(
				    txq, addr, prm.mkey_be, prm.size,
				    i == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, NULL);
			}
			/* The previous round's half may be written again once its completion is in. */
			if (round > 0)
				poll_round(txq, stats, prm, round - 1, prev, &packets, &bytes, &errors);
		}
		__syncthreads();
		seq += n;
		prev = n;
		last = round;
	}
	if (tid == 0) {
		cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(stats->done);

		if (prev != 0)
			poll_round(txq, stats, prm, last, prev, &packets, &bytes, &errors);
		r.store(1, cuda::memory_order_release);
	}
}

extern "C" doca_error_t ss_sender_launch(struct doca_gpu_eth_txq *txq, const struct ss_params *prm,
					 struct ss_stats *stats, enum ss_scope scope)
{
	cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

	if (err != cudaSuccess) {
		fprintf(stderr, "cudaStreamCreateWithFlags: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	switch (scope) {
	case SS_SCOPE_THREAD:
		send_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD><<<1, 1, 0, stream>>>(txq, *prm, stats);
		break;
	case SS_SCOPE_WARP:
		send_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP><<<1, DOCA_GPUNETIO_ETH_WARP_SIZE, 0, stream>>>(txq, *prm,
													   stats);
		break;
	default:
		send_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK><<<1, BLOCK_THREADS, 0, stream>>>(txq, *prm, stats);
		break;
	}
	err = cudaGetLastError();
	if (err != cudaSuccess) {
		fprintf(stderr, "send kernel launch: %s\n", cudaGetErrorString(err));
		cudaStreamDestroy(stream);
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" doca_error_t ss_sender_wait(void)
{
	cudaError_t err = cudaStreamSynchronize(stream);

	cudaStreamDestroy(stream);
	if (err != cudaSuccess) {
		fprintf(stderr, "send kernel: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" const char *ss_sender_kind(void)
{
	return "CUDA kernel";
}
