/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA part of gpunetio_probe: one persistent block receives (THREAD: 1 thread; WARP and
 * BLOCK: lanes threads, a partial warp below 32) and checks every byte of every frame, one
 * persistent block sends rounds (every thread of the group one frame per call), each on a
 * non-blocking stream of its own, or (legacy_stream) the receiver with <<<>>> on the legacy
 * default stream. Every wait reads %globaltimer against the run's deadline. The counters go
 * out with system-scope release stores; exit comes in with system-scope acquire loads.
 */
#include <stdio.h>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <doca_gpunetio_dev_eth_rxq.cuh>
#include <doca_gpunetio_dev_eth_txq.cuh>

#include "gpunetio_probe.h"

#define NS 1000000000ull

static cudaStream_t rx_stream, tx_stream;
static bool rx_legacy;

__device__ static uint64_t gpu_now(void)
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

__device__ static void publish32(uint32_t *word, uint32_t v)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(*word);

	r.store(v, cuda::memory_order_release);
}

__device__ static uint64_t acquire(const uint64_t *word)
{
	cuda::atomic_ref<uint64_t, cuda::thread_scope_system> r(*const_cast<uint64_t *>(word));

	return r.load(cuda::memory_order_acquire);
}

__device__ static uint32_t acquire32(uint32_t *word)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(*word);

	return r.load(cuda::memory_order_acquire);
}

template <enum doca_gpu_dev_eth_exec_scope scope> __global__ void rx_kernel(struct pb_rx_args a)
{
	__shared__ struct doca_gpu_dev_eth_rxq_attr attr[PB_MAX_RX_PKTS];
	__shared__ unsigned long long s_mism, s_bad, s_bytes;
	__shared__ uint32_t s_stop;
	struct pb_ctl *c = a.ctl;
	uint64_t t0 = gpu_now(), packets = 0, bytes = 0, mism = 0, bad = 0, errors = 0;

	for (;;) {
		uint64_t first = 0;
		uint32_t num = 0, want;
		doca_error_t ret;

		if (threadIdx.x == 0) {
			s_stop = 0;
			if (packets >= a.expect || acquire32(&c->exit) != 0)
				s_stop = 1;
			else if (gpu_now() - t0 > a.deadline_ns) {
				publish32(&c->timed_out, 1);
				s_stop = 1;
			}
			s_mism = s_bad = s_bytes = 0;
		}
		__syncthreads();
		if (s_stop)
			break;
		want = a.expect - packets < PB_MAX_RX_PKTS ? (uint32_t)(a.expect - packets) : PB_MAX_RX_PKTS;
		ret = doca_gpu_dev_eth_rxq_recv<scope, DOCA_GPUNETIO_ETH_MCST_DISABLED,
						DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(
		    a.rxq, want, PB_RX_TIMEOUT_NS, &first, &num, attr);
		__syncthreads(); /* attr is complete for every thread */
		if (ret != DOCA_SUCCESS)
			num = 0;
		for (uint32_t i = threadIdx.x; i < num; i += blockDim.x) {
			const uint8_t *p = (const uint8_t *)doca_gpu_dev_eth_rxq_get_pkt_addr(a.rxq, first + i);
			uint32_t seq = a.first_seq + (uint32_t)(packets + i);

			atomicAdd(&s_bytes, (unsigned long long)attr[i].bytes);
			if (a.frame_size == 0)
				continue;
			if (attr[i].bytes != a.frame_size) {
				atomicAdd(&s_bad, 1ull);
				continue;
			}
			if (pb_frame_seq(p) != seq)
				atomicAdd(&s_bad, 1ull);
			atomicAdd(&s_mism, (unsigned long long)pb_check_bytes(p, seq, PB_SEQ_OFF + 4, a.frame_size));
		}
		__syncthreads();
		packets += num;
		if (threadIdx.x == 0) {
			errors += ret != DOCA_SUCCESS;
			bytes += s_bytes;
			mism += s_mism;
			bad += s_bad;
			publish(&c->bytes, bytes);
			publish(&c->mismatches, mism);
			publish(&c->bad_frames, bad);
			publish(&c->errors, errors);
			publish(&c->packets, packets); /* last: the CPU reads it first */
		}
	}
	if (threadIdx.x == 0)
		publish32(&c->done, 1);
}

/* Thread 0: waits until @end for completion @pos; 1 sent, 0 failed, -1 never written. */
__device__ static int poll_until(struct doca_gpu_eth_txq *txq, uint64_t pos, uint64_t end)
{
	for (;;) {
		doca_error_t ret = doca_gpu_dev_eth_txq_poll_completion_at(txq, pos, DOCA_GPUNETIO_ETH_WAIT_FLAG_NB);

		if (ret != DOCA_ERROR_AGAIN)
			return ret == DOCA_SUCCESS;
		if (gpu_now() > end)
			return -1;
	}
}

template <enum doca_gpu_dev_eth_exec_scope scope> __global__ void tx_kernel(struct pb_tx_args a)
{
	__shared__ uint64_t s_n, s_step_t0;
	__shared__ uint32_t s_step;
	struct pb_ctl *c = a.ctl;
	const unsigned int tid = threadIdx.x, g = blockDim.x;
	uint64_t t0 = gpu_now(), end = t0 + a.deadline_ns, seq = 0, round = 0, prev = 0, packets = 0, errors = 0;
	uint64_t step_frames = 0;

	if (tid == 0) {
		s_step = 0;
		s_step_t0 = t0;
	}
	for (;;) {
		__syncthreads(); /* everyone read the last round's s_n */
		if (tid == 0) {
			uint64_t n = a.round;

			if (acquire32(&c->exit) != 0)
				n = 0;
			else if (gpu_now() > end) {
				publish32(&c->timed_out, 1);
				n = 0;
			} else if (a.nrates == 0) {
				n = seq >= a.count ? 0 : a.count - seq < n ? a.count - seq : n;
			} else {
				while (s_step < a.nrates) {
					uint64_t t = gpu_now();

					if (step_frames * NS / a.rates[s_step] < a.step_ns &&
					    t - s_step_t0 < 2 * a.step_ns)
						break;
					publish(&c->step_frames[s_step], step_frames);
					publish(&c->step_ns[s_step], t - s_step_t0);
					s_step++;
					s_step_t0 = t;
					step_frames = 0;
				}
				if (s_step == a.nrates)
					n = 0;
			}
			while (n != 0 && a.rx_packets != NULL && acquire(a.rx_packets) + a.window < seq + n) {
				if (gpu_now() > end || acquire32(&c->exit) != 0) {
					publish32(&c->timed_out, 1);
					n = 0;
				}
			}
			s_n = n;
		}
		__syncthreads();
		uint64_t n = s_n;

		if (n == 0)
			break;
		/* Each call sends one frame per thread of the group; n is a multiple of g but in
		 * THREAD scope, where thread 0 sends alone. */
		for (uint64_t i = 0; i < n; i += (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD ? 1 : g)) {
			uint64_t k = i + (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD ? 0 : tid), ticket = 0;
			uint64_t addr = a.pkt_addr + ((round & 1) * a.round + k) * a.frame_size;
			enum doca_gpu_eth_send_flags flags =
			    k == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE;

			if (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD && tid != 0)
				break;
			if (a.nrates != 0 && (scope != DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD ? tid == 0 : true)) {
				uint64_t due = s_step_t0 + (step_frames + i) * NS / a.rates[s_step];

				while (gpu_now() < due) {
				}
			}
			if (scope != DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD)
				__syncthreads();
			pb_fill_frame((uint8_t *)addr, a.frame_size, (uint32_t)(seq + k), a.src_mac);
			doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
						  DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
						  scope>(a.txq, addr, a.mkey_be, a.frame_size, flags, &ticket);
			if (a.tickets != NULL && seq + k < a.count)
				a.tickets[seq + k] = ticket;
		}
		__syncthreads();
		seq += n;
		step_frames += n;
		if (tid == 0) {
			publish(&c->rounds, round + 1);
			/* The previous round's half may be written again once its completion is in. */
			if (round > 0) {
				int r = poll_until(a.txq, a.cqe_base + round - 1, end + NS);

				packets += r == 1 ? prev : 0;
				errors += r != 1;
				publish(&c->errors, errors);
				publish(&c->packets, packets);
				if (r < 0)
					s_n = 0;
			}
		}
		__syncthreads();
		if (round > 0 && s_n == 0)
			break;
		prev = n;
		round++;
	}
	if (tid == 0) {
		if (prev != 0) {
			int r = poll_until(a.txq, a.cqe_base + round - 1, end + NS);

			packets += r == 1 ? prev : 0;
			errors += r != 1;
		}
		if (a.nrates != 0 && s_step < a.nrates) {
			publish(&c->step_frames[s_step], step_frames);
			publish(&c->step_ns[s_step], gpu_now() - s_step_t0);
		}
		publish(&c->errors, errors);
		publish(&c->packets, packets);
		publish32(&c->done, 1);
	}
}

static doca_error_t launched(const char *what, cudaStream_t *s)
{
	cudaError_t err = cudaGetLastError();

	if (err == cudaSuccess)
		return DOCA_SUCCESS;
	fprintf(stderr, "%s launch: %s\n", what, cudaGetErrorString(err));
	if (*s != NULL)
		cudaStreamDestroy(*s);
	*s = NULL;
	return DOCA_ERROR_DRIVER;
}

extern "C" doca_error_t pb_rx_launch(const struct pb_rx_args *a)
{
	uint32_t lanes = a->scope == PB_SCOPE_THREAD ? 1 : a->lanes;
	cudaStream_t s = NULL;

	rx_legacy = a->legacy_stream != 0;
	rx_stream = NULL;
	if (!rx_legacy) {
		cudaError_t err = cudaStreamCreateWithFlags(&rx_stream, cudaStreamNonBlocking);

		if (err != cudaSuccess) {
			fprintf(stderr, "cudaStreamCreateWithFlags: %s\n", cudaGetErrorString(err));
			return DOCA_ERROR_DRIVER;
		}
		s = rx_stream;
	}
	if (rx_legacy) {
		/* <<<>>> without a stream: the legacy default stream, which blocks on others. */
		switch (a->scope) {
		case PB_SCOPE_THREAD:
			rx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD><<<1, 1>>>(*a);
			break;
		case PB_SCOPE_WARP:
			rx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP><<<1, lanes>>>(*a);
			break;
		default:
			rx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK><<<1, lanes>>>(*a);
			break;
		}
	} else {
		switch (a->scope) {
		case PB_SCOPE_THREAD:
			rx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD><<<1, 1, 0, s>>>(*a);
			break;
		case PB_SCOPE_WARP:
			rx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP><<<1, lanes, 0, s>>>(*a);
			break;
		default:
			rx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK><<<1, lanes, 0, s>>>(*a);
			break;
		}
	}
	return launched("receive kernel", &rx_stream);
}

extern "C" doca_error_t pb_rx_wait(void)
{
	cudaError_t err = rx_legacy ? cudaStreamSynchronize(0) : cudaStreamSynchronize(rx_stream);

	if (!rx_legacy && rx_stream != NULL)
		cudaStreamDestroy(rx_stream);
	rx_stream = NULL;
	if (err != cudaSuccess) {
		fprintf(stderr, "receive kernel: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" doca_error_t pb_tx_launch(const struct pb_tx_args *a)
{
	uint32_t lanes = a->scope == PB_SCOPE_THREAD ? 1 : a->lanes;
	cudaError_t err = cudaStreamCreateWithFlags(&tx_stream, cudaStreamNonBlocking);

	if (err != cudaSuccess) {
		fprintf(stderr, "cudaStreamCreateWithFlags: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	switch (a->scope) {
	case PB_SCOPE_THREAD:
		tx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD><<<1, 1, 0, tx_stream>>>(*a);
		break;
	case PB_SCOPE_WARP:
		tx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP><<<1, lanes, 0, tx_stream>>>(*a);
		break;
	default:
		tx_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK><<<1, lanes, 0, tx_stream>>>(*a);
		break;
	}
	return launched("send kernel", &tx_stream);
}

extern "C" doca_error_t pb_tx_wait(void)
{
	cudaError_t err = cudaStreamSynchronize(tx_stream);

	cudaStreamDestroy(tx_stream);
	tx_stream = NULL;
	if (err != cudaSuccess) {
		fprintf(stderr, "send kernel: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

/* The smallest nonzero step of %globaltimer over @n reads. */
__global__ void timer_kernel(uint64_t *out, int n)
{
	uint64_t best = ~0ull, prev = gpu_now();

	for (int i = 0; i < n; i++) {
		uint64_t t = gpu_now();

		if (t != prev && t - prev < best)
			best = t - prev;
		prev = t;
	}
	*out = best;
}

extern "C" doca_error_t pb_device_info(const char *pci, struct pb_dev_info *out)
{
	static const cudaDeviceAttr attrs[] = {cudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMinor,
					       cudaDevAttrMultiProcessorCount,	  cudaDevAttrClockRate,
					       cudaDevAttrCanMapHostMemory,	  cudaDevAttrConcurrentManagedAccess,
					       cudaDevAttrPageableMemoryAccess,	  cudaDevAttrHostNativeAtomicSupported};
	int *vals[] = {&out->cc_major,	   &out->cc_minor,	     &out->sm_count,	    &out->clock_khz,
		       &out->can_map_host, &out->concurrent_managed, &out->pageable_access, &out->host_native_atomics};
	uint64_t *step = NULL, host = 0;
	int dev = 0;
	cudaError_t err = cudaDeviceGetByPCIBusId(&dev, pci);

	if (err == cudaSuccess)
		err = cudaSetDevice(dev);
	if (err != cudaSuccess) {
		fprintf(stderr, "GPU %s: %s\n", pci, cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (cudaDeviceGetAttribute(vals[i], attrs[i], dev) != cudaSuccess)
			*vals[i] = -1;
	err = cudaMalloc((void **)&step, sizeof(*step));
	if (err == cudaSuccess) {
		timer_kernel<<<1, 1>>>(step, 1 << 18);
		err = cudaGetLastError();
	}
	if (err == cudaSuccess)
		err = cudaMemcpy(&host, step, sizeof(host), cudaMemcpyDeviceToHost);
	if (step != NULL)
		cudaFree(step);
	if (err != cudaSuccess) {
		fprintf(stderr, "%%globaltimer kernel: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	out->timer_step_ns = host;
	out->skipped = NULL;
	return DOCA_SUCCESS;
}

extern "C" doca_error_t pb_gpu_read(void *host, const void *gpu, size_t len)
{
	cudaError_t err = cudaMemcpy(host, gpu, len, cudaMemcpyDeviceToHost);

	if (err != cudaSuccess) {
		fprintf(stderr, "cudaMemcpy D2H: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" doca_error_t pb_gpu_write(void *gpu, const void *host, size_t len)
{
	cudaError_t err = cudaMemcpy(gpu, host, len, cudaMemcpyHostToDevice);

	if (err != cudaSuccess) {
		fprintf(stderr, "cudaMemcpy H2D: %s\n", cudaGetErrorString(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

extern "C" const char *pb_kind(void)
{
	return "CUDA kernel";
}
