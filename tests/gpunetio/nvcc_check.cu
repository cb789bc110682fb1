/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compiled (never run) by check_nvcc.sh: every GPUNetIO device function in a kernel, as the
 * samples call them, so nvcc sees the device headers' real instantiations.
 */
#include <doca_gpunetio_dev_buf.cuh>
#include <doca_gpunetio_dev_dma.cuh>
#include <doca_gpunetio_dev_eth_rxq.cuh>
#include <doca_gpunetio_dev_eth_txq.cuh>
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
/* Receive in every execution scope, with and without attributes, then walk the packets. */
template <enum doca_gpu_dev_eth_exec_scope scope, enum doca_gpu_dev_eth_rxq_attr_type attr_type>
__global__ void receive(struct doca_gpu_eth_rxq *rxq, uint32_t *exit_flag, uint64_t *packets, uint64_t *bytes)
{
	__shared__ struct doca_gpu_dev_eth_rxq_attr attr[64];
	__shared__ uint64_t first;
	__shared__ uint32_t num;
	uint64_t my_bytes = 0;
	doca_error_t ret = DOCA_SUCCESS;

	while (DOCA_GPUNETIO_VOLATILE(*exit_flag) == 0) {
		if (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD) {
			if (threadIdx.x == 0)
				ret = doca_gpu_dev_eth_rxq_recv<scope, DOCA_GPUNETIO_ETH_MCST_AUTO,
								DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, attr_type>(
				    rxq, 64, 500000, &first, &num, attr);
			__syncthreads();
		} else {
			uint64_t f;
			uint32_t n;

			ret = doca_gpu_dev_eth_rxq_recv<scope, DOCA_GPUNETIO_ETH_MCST_DISABLED,
							DOCA_GPUNETIO_ETH_NIC_HANDLER_CPU_PROXY, attr_type>(
			    rxq, 64, 500000, &f, &n, attr);
			if (threadIdx.x == 0) {
				first = f;
				num = n;
			}
			__syncthreads();
		}
		if (ret != DOCA_SUCCESS)
			break;
		for (uint32_t i = threadIdx.x; i < num; i += blockDim.x) {
			const uint8_t *p = (const uint8_t *)doca_gpu_dev_eth_rxq_get_pkt_addr(rxq, first + i);

			my_bytes += p[12] + (attr_type == DOCA_GPUNETIO_ETH_RX_ATTR_ALL ? attr[i].bytes : 0);
		}
		if (threadIdx.x == 0)
			*packets += num;
		__syncthreads();
	}
	atomicAdd((unsigned long long *)bytes, (unsigned long long)my_bytes);
}

template __global__ void
receive<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD, DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(struct doca_gpu_eth_rxq *, uint32_t *,
									    uint64_t *, uint64_t *);
template __global__ void
receive<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP, DOCA_GPUNETIO_ETH_RX_ATTR_TS>(struct doca_gpu_eth_rxq *, uint32_t *,
									 uint64_t *, uint64_t *);
template __global__ void
receive<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK, DOCA_GPUNETIO_ETH_RX_ATTR_NONE>(struct doca_gpu_eth_rxq *, uint32_t *,
									    uint64_t *, uint64_t *);

/* Reply from the receive slot itself, as gpu_packet_processing's ICMP kernel does (one warp). */
__global__ void echo(struct doca_gpu_eth_rxq *rxq, struct doca_gpu_eth_txq *txq, uint32_t *exit_flag)
{
	__shared__ uint64_t first;
	__shared__ uint32_t num;
	uint32_t mkey = doca_gpu_dev_eth_rxq_get_pkt_mkey(rxq);
	doca_gpu_dev_eth_ticket_t ticket;

	while (DOCA_GPUNETIO_VOLATILE(*exit_flag) == 0) {
		if (doca_gpu_dev_eth_rxq_recv<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP, DOCA_GPUNETIO_ETH_MCST_AUTO,
					      DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO>(rxq, 32, 500000, &first, &num,
										  NULL) != DOCA_SUCCESS)
			break;
		for (uint32_t i = threadIdx.x; i < num; i += DOCA_GPUNETIO_ETH_WARP_SIZE)
			doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
						  DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(
			    txq, doca_gpu_dev_eth_rxq_get_pkt_addr(rxq, first + i), mkey, 60,
			    DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, &ticket);
		__syncwarp();
	}
}

/* Send as gpunetio_simple_send's shared-queue kernel does, in every scope, then poll. */
template <enum doca_gpu_dev_eth_exec_scope scope>
__global__ void send_shared(struct doca_gpu_eth_txq *txq, uint8_t *pkts, uint32_t mkey, size_t size, uint32_t *exit_flag)
{
	doca_gpu_dev_eth_ticket_t ticket;
	enum doca_gpu_eth_send_flags flags = DOCA_GPUNETIO_ETH_SEND_FLAG_NONE;
	uint32_t num, cqes = scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD ? blockDim.x
			     : scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP ? blockDim.x / DOCA_GPUNETIO_ETH_WARP_SIZE
									  : 1;

	if (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD ||
	    (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP && doca_gpu_dev_eth_get_lane_id() == DOCA_GPUNETIO_ETH_WARP_SIZE - 1) ||
	    threadIdx.x == blockDim.x - 1)
		flags = DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY;
	while (DOCA_GPUNETIO_VOLATILE(*exit_flag) == 0) {
		doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
					  DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, scope>(
		    txq, (uint64_t)(pkts + size * threadIdx.x), mkey, size, flags, &ticket);
		__syncthreads();
		if (threadIdx.x == 0 &&
		    doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_LAST>(txq, cqes, DOCA_GPUNETIO_ETH_WAIT_FLAG_B,
											 &num) != DOCA_SUCCESS)
			DOCA_GPUNETIO_VOLATILE(*exit_flag) = 1;
		__syncthreads();
	}
}

template __global__ void send_shared<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(struct doca_gpu_eth_txq *, uint8_t *, uint32_t,
									   size_t, uint32_t *);
template __global__ void send_shared<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP>(struct doca_gpu_eth_txq *, uint8_t *, uint32_t,
									 size_t, uint32_t *);
template __global__ void send_shared<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK>(struct doca_gpu_eth_txq *, uint8_t *, uint32_t,
									  size_t, uint32_t *);

/* The low-level path (caller-owned positions) and a wait-on-time burst, as the samples use them. */
__global__ void send_low_level(struct doca_gpu_eth_txq *txq, uint8_t *pkts, uint32_t mkey, uint32_t size,
			       const uint64_t *wait_ts, uint32_t *exit_flag)
{
	uint64_t wqe_idx = threadIdx.x, cqe_idx = 0;
	doca_gpu_dev_eth_ticket_t ticket;
	uint32_t num;
	enum doca_gpu_eth_send_flags flags =
	    threadIdx.x == blockDim.x - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE;

	for (int round = 0; round < 4 && DOCA_GPUNETIO_VOLATILE(*exit_flag) == 0; round++) {
		struct doca_gpu_dev_eth_txq_wqe *w = doca_gpu_dev_eth_txq_get_wqe_ptr(txq, wqe_idx);

		if (round & 1)
			doca_gpu_dev_eth_txq_wqe_prepare_send(txq, w, wqe_idx, (uint64_t)pkts, mkey, 14,
							      (uint64_t)(pkts + size * threadIdx.x), mkey, size, flags);
		else
			doca_gpu_dev_eth_txq_wqe_prepare_send(txq, w, wqe_idx, (uint64_t)(pkts + size * threadIdx.x), mkey,
							      size, flags);
		__syncthreads();
		if (threadIdx.x == blockDim.x - 1) {
			doca_gpu_dev_eth_txq_submit(txq, wqe_idx + 1);
			if (doca_gpu_dev_eth_txq_poll_completion_at<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
								    DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA>(
				txq, cqe_idx, DOCA_GPUNETIO_ETH_WAIT_FLAG_B) != DOCA_SUCCESS)
				DOCA_GPUNETIO_VOLATILE(*exit_flag) = 1;
			cqe_idx++;
		}
		__syncthreads();
		wqe_idx += blockDim.x;
	}
	doca_gpu_dev_eth_txq_wait_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
				       DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK>(
	    txq, wait_ts[0], (uint64_t)pkts, mkey, size, flags, &ticket);
	doca_gpu_dev_eth_txq_wait_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
				       DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP>(
	    txq, wait_ts[1], (uint64_t)pkts, mkey, size, flags, &ticket);
	doca_gpu_dev_eth_txq_wait_send(txq, wait_ts[2], (uint64_t)pkts, mkey, size, flags, &ticket);
	if (threadIdx.x == 0 &&
	    doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_ALL>(txq, 1, DOCA_GPUNETIO_ETH_WAIT_FLAG_NB,
										 &num) != DOCA_SUCCESS)
		DOCA_GPUNETIO_VOLATILE(*exit_flag) = 1;
}

/*
 * What programs written against DOCA 3.3 read and call themselves: the queue handles' fields
 * by DOCA's names, the scoped fences, the reservation of descriptor positions, the byte swaps.
 */
__global__ void doca_names(struct doca_gpu_eth_txq *txq, struct doca_gpu_eth_rxq *rxq, uint8_t *pkts, uint32_t mkey,
			   uint64_t *out)
{
	uint64_t first = doca_gpu_dev_eth_txq_reserve_wq_slots<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU>(txq, 1);
	struct doca_gpu_dev_eth_txq_wqe *w = doca_gpu_dev_eth_txq_get_wqe_ptr(txq, (uint16_t)first);

	doca_gpu_dev_eth_txq_wqe_prepare_send(txq, w, (uint16_t)first, (uint64_t)pkts, mkey, 64,
					      DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
	doca_gpu_dev_eth_fence_release<DOCA_GPUNETIO_ETH_SYNC_SCOPE_SYS>();
	doca_gpu_dev_eth_txq_submit(txq, first + 1);
	doca_gpu_dev_eth_fence_acquire<DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU>();
	out[0] = txq->cqe_num + txq->cqe_ci + txq->wqe_pi + txq->cqe_mask + txq->wqe_mask;
	out[1] = rxq->pkt_addr + rxq->pkt_num + rxq->cqe_num + rxq->cqe_ci + rxq->wqe_pi + rxq->max_pkt_sz;
	out[2] = DOCA_GPUNETIO_ETH_BSWAP16(out[0]) + doca_gpu_dev_eth_bswap32((uint32_t)out[1]) +
		 doca_gpu_dev_eth_bswap64(out[1]);
	doca_gpu_dev_eth_fence_release<DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA>();
	DOCA_GPUNETIO_ETH_VOLATILE(out[3]) = 1;
}
