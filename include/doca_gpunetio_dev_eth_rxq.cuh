/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio_dev_eth_rxq.cuh - GPUNetIO Ethernet receive, device side (CYCLIC queues).
 *
 * Header-only (no -rdc, no device library), built on the ring core of doca_gpunetio_hd.h:
 *
 *   NIC (CPU thread)                                  device (this header)
 *                                                     cons = next (system-scope release): the
 *                                                     last call's slots go back to the NIC
 *   slot prod % nslots <- frame                       poll cqe[(next + n) % nslots].seq == next + n + 1
 *   cqe: bytes, timestamp, then seq = prod + 1        (system-scope acquire), up to max / timeout
 *        (system-scope release)                       first = next % nslots, num = n, next += n
 *   free while prod - cons < nslots  <-------------
 *
 * Each receive gives the slots of the previous one back to the NIC (DOCA's implicit re-post),
 * so the packets a call returns stay intact at least until the next call on the queue, and
 * then until the NIC wraps around to them. One caller at a time per queue (a thread, a warp or
 * a block).
 *
 * doca_gpu_dev_eth_rxq_recv() is DOCA 3.3's template. THREAD scope is doca_gpunetio_hd_rxq_recv(),
 * which any C11/C++ compiler builds as well (CPU threads play the GPU in softdoca's tests); WARP
 * and BLOCK scope need CUDA and exist only under nvcc. The timeout runs on %globaltimer on the
 * GPU and CLOCK_MONOTONIC (or TIME_UTC where POSIX clocks are not declared) on the CPU.
 */
#ifndef DOCA_GPUNETIO_DEV_ETH_RXQ_CUH_
#define DOCA_GPUNETIO_DEV_ETH_RXQ_CUH_

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <doca_error.h>
#include <doca_gpunetio_dev_eth_common.cuh>
#include <doca_gpunetio_eth_def.h>
#include <doca_gpunetio_hd.h>

/** Which per-packet attributes receive writes to out_attr. */
enum doca_gpu_dev_eth_rxq_attr_type {
	DOCA_GPUNETIO_ETH_RX_ATTR_NONE = 0, /**< none */
	DOCA_GPUNETIO_ETH_RX_ATTR_TS = 1,   /**< timestamp_ns */
	DOCA_GPUNETIO_ETH_RX_ATTR_ALL = 2,  /**< timestamp_ns and bytes */
};

/** Attributes of one received packet: out_attr[i] belongs to packet first + i. */
struct doca_gpu_dev_eth_rxq_attr {
	uint64_t timestamp_ns;
	uint32_t bytes;
	uint32_t padding;
};

/* Nanoseconds of a clock that only moves forward (for timeouts). */
DOCA_GPUNETIO_HD uint64_t doca_gpunetio_hd_now_ns(void)
{
#if defined(__CUDA_ARCH__)
	uint64_t t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
#else
	struct timespec ts;

#if defined(CLOCK_MONOTONIC)
	clock_gettime(CLOCK_MONOTONIC, &ts);
#else
	timespec_get(&ts, TIME_UTC);
#endif
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/**
 * The ring core: takes the packets that arrived in @rxq, in order, until @max_rx_pkts (0: no
 * limit) arrived or @timeout_ns (0: none) passed; with neither, until the ring is full.
 * *@out_first_pkt_idx is the slot of the first (0..nslots-1), *@out_pkt_num how many (may be
 * 0); packet i is at doca_gpu_dev_eth_rxq_get_pkt_addr(rxq, first + i), intact until the
 * next call at least (which hands these slots back to the NIC). @rx_attr (an enum
 * doca_gpu_dev_eth_rxq_attr_type) says what goes to @out_attr[0..num-1], which must hold
 * max_rx_pkts entries (nslots when max_rx_pkts is 0); NULL is allowed with ATTR_NONE.
 * DOCA_ERROR_INVALID_VALUE for NULL arguments, otherwise DOCA_SUCCESS.
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_rxq_recv(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts,
							uint64_t timeout_ns, uint64_t *out_first_pkt_idx,
							uint32_t *out_pkt_num,
							struct doca_gpu_dev_eth_rxq_attr *out_attr, int rx_attr)
{
	const struct doca_gpu_eth_rxq_cqe *ring;
	uint64_t cons, start = 0;
	uint32_t n = 0, limit, nslots;

	if (rxq == NULL || out_first_pkt_idx == NULL || out_pkt_num == NULL ||
	    (out_attr == NULL && rx_attr != DOCA_GPUNETIO_ETH_RX_ATTR_NONE))
		return DOCA_ERROR_INVALID_VALUE;
	ring = rxq->cqe;
	nslots = rxq->nslots;
	limit = max_rx_pkts == 0 || max_rx_pkts > nslots ? nslots : max_rx_pkts;
	cons = doca_gpunetio_hd_load_acquire_u64(&rxq->next); /* this caller's own word */
	if (doca_gpunetio_hd_load_acquire_u64(&rxq->cons) != cons)
		doca_gpunetio_hd_store_release_u64(&rxq->cons, cons); /* the last call's slots */
	if (timeout_ns != 0)
		start = doca_gpunetio_hd_now_ns();
	for (;;) {
		while (n < limit) {
			const struct doca_gpu_eth_rxq_cqe *c = &ring[(cons + n) % nslots];

			if (doca_gpunetio_hd_load_acquire_u32(&c->seq) != (uint32_t)(cons + n + 1))
				break;
			if (rx_attr != DOCA_GPUNETIO_ETH_RX_ATTR_NONE) {
				out_attr[n].timestamp_ns = c->timestamp_ns;
				out_attr[n].bytes = rx_attr == DOCA_GPUNETIO_ETH_RX_ATTR_ALL ? c->bytes : 0;
				out_attr[n].padding = 0;
			}
			n++;
		}
		if (n == limit)
			break;
		if (timeout_ns != 0 && doca_gpunetio_hd_now_ns() - start >= timeout_ns)
			break;
	}
	*out_first_pkt_idx = cons % nslots;
	*out_pkt_num = n;
	if (n > 0)
		doca_gpunetio_hd_store_release_u64(&rxq->next, cons + n);
	return DOCA_SUCCESS;
}

/** Address (GPU view) of packet slot @packet_idx; an index past the last slot wraps once. */
DOCA_GPUNETIO_HD uint64_t doca_gpu_dev_eth_rxq_get_pkt_addr(struct doca_gpu_eth_rxq *rxq, uint64_t packet_idx)
{
	if (packet_idx >= rxq->nslots)
		packet_idx -= rxq->nslots;
	return rxq->pkt_base + packet_idx * rxq->stride;
}

/**
 * The mkey of the packet buffer's mmap in network byte order (htobe32(doca_mmap_get_mkey())),
 * as the send functions of doca_gpunetio_dev_eth_txq.cuh take it: a kernel can send a reply
 * from the receive slot itself (doca_gpu_dev_eth_rxq_get_pkt_addr) through a send queue.
 */
DOCA_GPUNETIO_HD uint32_t doca_gpu_dev_eth_rxq_get_pkt_mkey(const struct doca_gpu_eth_rxq *rxq)
{
	return rxq->pkt_mkey;
}

#if defined(__cplusplus)
/**
 * DOCA 3.3's receive (see doca_gpunetio_hd_rxq_recv for the outputs). THREAD: the calling
 * thread alone. WARP: the lanes that call it together (a partial warp too, __activemask());
 * the lowest of them receives, every lane gets its outputs, and out_attr (shared memory) is
 * filled before any lane returns. BLOCK: every thread of the block
 * calls it; thread 0 receives, __syncthreads() inside. @mcst_mode changes nothing on
 * softdoca's NIC. Neither does @nic_handler: the device publishes cons in every mode (DOCA's
 * doorbell record), and only the NIC side differs: a queue given doca_eth_rxq_gpu_set_uar_on_cpu()
 * reads it through doca_eth_rxq_gpu_cpu_proxy_progress(), any other reads it directly. So
 * CPU_PROXY needs nothing here, and a kernel whose nic_handler does not match the queue's mode
 * still receives (the queue's mode decides).
 */
template <enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD,
	  enum doca_gpu_dev_eth_mcst_mode mcst_mode = DOCA_GPUNETIO_ETH_MCST_DISABLED,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_rxq_attr_type rx_attr = DOCA_GPUNETIO_ETH_RX_ATTR_NONE>
#if defined(__CUDACC__)
__device__
#endif
    inline doca_error_t
    doca_gpu_dev_eth_rxq_recv(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
			      uint64_t *out_first_pkt_idx, uint32_t *out_pkt_num,
			      struct doca_gpu_dev_eth_rxq_attr *out_attr)
{
#if defined(__CUDACC__)
	if (exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP) {
		/* The lanes that call together (a partial warp too); the lowest of them receives. */
		unsigned int mask = __activemask();
		int leader = __ffs(mask) - 1;
		uint64_t first = 0;
		uint32_t num = 0;
		int ret = 0;
		unsigned int lane;

		asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
		if ((int)lane == leader)
			ret = (int)doca_gpunetio_hd_rxq_recv(rxq, max_rx_pkts, timeout_ns, &first, &num, out_attr,
							     (int)rx_attr);
		__syncwarp(mask);
		first = __shfl_sync(mask, (unsigned long long)first, leader);
		num = __shfl_sync(mask, num, leader);
		ret = __shfl_sync(mask, ret, leader);
		*out_first_pkt_idx = first;
		*out_pkt_num = num;
		return (doca_error_t)ret;
	}
	if (exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK) {
		__shared__ uint64_t s_first;
		__shared__ uint32_t s_num;
		__shared__ int s_ret;
		uint64_t first;
		uint32_t num;
		int ret;

		if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
			s_ret = (int)doca_gpunetio_hd_rxq_recv(rxq, max_rx_pkts, timeout_ns, &s_first, &s_num, out_attr,
							       (int)rx_attr);
		__syncthreads();
		first = s_first;
		num = s_num;
		ret = s_ret;
		__syncthreads(); /* nobody overwrites the shared words before everyone read them */
		*out_first_pkt_idx = first;
		*out_pkt_num = num;
		return (doca_error_t)ret;
	}
#else
	static_assert(exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD,
		      "outside nvcc only DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD exists (WARP and BLOCK need CUDA)");
#endif
	(void)mcst_mode;
	(void)nic_handler;
	return doca_gpunetio_hd_rxq_recv(rxq, max_rx_pkts, timeout_ns, out_first_pkt_idx, out_pkt_num, out_attr,
					 (int)rx_attr);
}

/**
 * DOCA 3.2's spelling: the last template argument was a bool, true for "fill out_attr"
 * (timestamp_ns and bytes), which 3.3 spells DOCA_GPUNETIO_ETH_RX_ATTR_ALL; false is
 * DOCA_GPUNETIO_ETH_RX_ATTR_NONE (docs/versions.md). A bool does not convert to the enum, so
 * true and false reach only this template. DOCA_GPUNETIO_ETH_RX_ATTR_NONE and _TS do convert
 * to bool, so out_attr's type is a template parameter here: that makes the template above the
 * more specialised one, and the one chosen whenever both fit.
 */
template <enum doca_gpu_dev_eth_exec_scope exec_scope, enum doca_gpu_dev_eth_mcst_mode mcst_mode,
	  enum doca_gpu_dev_eth_nic_handler nic_handler, bool fill_attr, typename attr_t>
#if defined(__CUDACC__)
__device__
#endif
    inline doca_error_t
    doca_gpu_dev_eth_rxq_recv(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
			      uint64_t *out_first_pkt_idx, uint32_t *out_pkt_num, attr_t *out_attr)
{
	return doca_gpu_dev_eth_rxq_recv < exec_scope, mcst_mode, nic_handler,
	       fill_attr ? DOCA_GPUNETIO_ETH_RX_ATTR_ALL
			 : DOCA_GPUNETIO_ETH_RX_ATTR_NONE >
			       (rxq, max_rx_pkts, timeout_ns, out_first_pkt_idx, out_pkt_num, out_attr);
}
#endif /* __cplusplus */

#endif /* DOCA_GPUNETIO_DEV_ETH_RXQ_CUH_ */
