/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio_dev_eth_txq.cuh - GPUNetIO Ethernet send, device side.
 *
 * Header-only (no -rdc, no device library), built on the ring core of doca_gpunetio_hd.h:
 *
 *   device (this header)                                  NIC (a CPU thread, or the caller of
 *                                                         doca_eth_txq_gpu_cpu_proxy_progress)
 *   high level: pos = CAS(*reserve) while pos - cons < n
 *   wqe[pos % n] = {op, addr, mkey, bytes, flags}         p = its next position:
 *   wqe.seq = pos + 1 (low 16 bits, release.sys)            seq == p + 1 (acquire) and
 *   low level: the caller picks positions;                  (SELF_DB or p < doorbell)
 *   submit: doorbell = prod_index (release.sys)             WAIT: not before wait_ts;
 *                                                           SEND: mkey checked, frame sent,
 *                                                           NOTIFY or error: cqe[c % m] =
 *                                                             {wqe_idx, status}, seq = c + 1
 *   poll: c = CAS(*cq_reserve); cqe seq (acquire.sys)       cons = p + 1 (release): slot free
 *
 * The high-level sends (send, wait_send) reserve positions themselves and mark their
 * descriptors SELF_DB: no doorbell, no waiting on other senders, and the NIC still takes every
 * position in order. The low-level calls (get_wqe_ptr, wqe_prepare_send, submit) leave the
 * positions to the caller (one submitter per queue); do not mix the two styles on one queue.
 * A completion is written for each NOTIFY send and for each descriptor that failed (status
 * not DOCA_SUCCESS), in descriptor order, so the last one polled implies all earlier ones.
 * The completion ring holds nwqe entries; a kernel that leaves more unpolled loses the oldest
 * (a poll of an overwritten entry reports the newer one).
 *
 * DOCA 3.3's names are C++ templates (THREAD scope everywhere; WARP and BLOCK only under
 * nvcc); the doca_gpunetio_hd_txq_*() functions below are their THREAD-scope core, which any
 * C11 compiler builds as well (CPU threads play the GPU in softdoca's tests).
 */
#ifndef DOCA_GPUNETIO_DEV_ETH_TXQ_CUH_
#define DOCA_GPUNETIO_DEV_ETH_TXQ_CUH_

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_gpunetio_dev_eth_common.cuh>
#include <doca_gpunetio_eth_def.h>
#include <doca_gpunetio_hd.h>

/**
 * Reserves @n consecutive descriptor positions: DOCA_SUCCESS and *@pos the first, or
 * DOCA_ERROR_AGAIN while fewer than @n slots are free (the NIC frees them as it sends).
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_txq_reserve(struct doca_gpu_eth_txq *txq, uint32_t n, uint64_t *pos)
{
	uint64_t r = doca_gpunetio_hd_load_acquire_dev_u64(txq->reserve);

	if (n == 0 || n > txq->nwqe)
		return DOCA_ERROR_INVALID_VALUE;
	for (;;) {
		uint64_t c = doca_gpunetio_hd_load_acquire_u64(&txq->cons);

		if (r + n - c > txq->nwqe)
			return DOCA_ERROR_AGAIN;
		if (doca_gpunetio_hd_cas_dev_u64(txq->reserve, &r, r + n))
			break;
	}
	*pos = r;
	return DOCA_SUCCESS;
}

/* Fills descriptor @pos as a send of one or two segments; published last (seq). */
DOCA_GPUNETIO_HD void doca_gpunetio_hd_txq_write_send(struct doca_gpu_eth_txq *txq, uint64_t pos, uint64_t addr,
						      uint32_t mkey, uint32_t nbytes, uint64_t addr2, uint32_t mkey2,
						      uint32_t nbytes2, uint32_t flags)
{
	struct doca_gpu_dev_eth_txq_wqe *w = &txq->wqe[pos & txq->wqe_mask];

	w->opcode = DOCA_GPUNETIO_ETH_TXQ_WQE_SEND;
	w->flags = (uint16_t)flags;
	w->addr = addr;
	w->mkey = mkey;
	w->nbytes = nbytes;
	w->addr2 = addr2;
	w->mkey2 = mkey2;
	w->nbytes2 = nbytes2;
	w->wait_ts = 0;
	doca_gpunetio_hd_store_release_u32(&w->seq, (uint32_t)((pos + 1) & 0xffffu));
}

/* Fills descriptor @pos as a wait: nothing behind it is sent before @wait_ts. */
DOCA_GPUNETIO_HD void doca_gpunetio_hd_txq_write_wait(struct doca_gpu_eth_txq *txq, uint64_t pos, uint64_t wait_ts,
						      uint32_t flags)
{
	struct doca_gpu_dev_eth_txq_wqe *w = &txq->wqe[pos & txq->wqe_mask];

	w->opcode = DOCA_GPUNETIO_ETH_TXQ_WQE_WAIT;
	w->flags = (uint16_t)flags;
	w->addr = w->addr2 = 0;
	w->mkey = w->mkey2 = 0;
	w->nbytes = w->nbytes2 = 0;
	w->wait_ts = wait_ts;
	doca_gpunetio_hd_store_release_u32(&w->seq, (uint32_t)((pos + 1) & 0xffffu));
}

/**
 * Waits for @n free slots and reserves them (*@pos the first): DOCA_ERROR_INVALID_VALUE at once,
 * never a wait, when the ring cannot hold @n at all.
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_txq_reserve_wait(struct doca_gpu_eth_txq *txq, uint32_t n, uint64_t *pos)
{
	doca_error_t ret;

	while ((ret = doca_gpunetio_hd_txq_reserve(txq, n, pos)) == DOCA_ERROR_AGAIN) {
	}
	return ret;
}

/**
 * Sends @size bytes at @addr (@mkey big-endian, as doca_mmap_get_mkey gives it through htobe32)
 * from one thread: waits for a free slot, *@ticket (may be NULL) = the descriptor's position.
 * DOCA_ERROR_INVALID_VALUE for a NULL queue.
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_txq_send(struct doca_gpu_eth_txq *txq, uint64_t addr, uint32_t mkey,
							uint32_t size, uint32_t flags, uint64_t *ticket)
{
	uint64_t pos;
	doca_error_t ret;

	if (txq == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	ret = doca_gpunetio_hd_txq_reserve_wait(txq, 1, &pos);
	if (ret != DOCA_SUCCESS)
		return ret;
	doca_gpunetio_hd_txq_write_send(txq, pos, addr, mkey, size, 0, 0, 0,
					flags | DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB);
	if (ticket != NULL)
		*ticket = pos;
	return DOCA_SUCCESS;
}

/**
 * As doca_gpunetio_hd_txq_send(), behind a wait for @wait_ts (doca_eth_txq_calculate_timestamp):
 * two descriptors, so DOCA_ERROR_INVALID_VALUE on a ring of one.
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_txq_wait_send(struct doca_gpu_eth_txq *txq, uint64_t wait_ts,
							     uint64_t addr, uint32_t mkey, uint32_t size,
							     uint32_t flags, uint64_t *ticket)
{
	uint64_t pos;
	doca_error_t ret;

	if (txq == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	ret = doca_gpunetio_hd_txq_reserve_wait(txq, 2, &pos);
	if (ret != DOCA_SUCCESS)
		return ret;
	doca_gpunetio_hd_txq_write_wait(txq, pos, wait_ts, DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB);
	doca_gpunetio_hd_txq_write_send(txq, pos + 1, addr, mkey, size, 0, 0, 0,
					flags | DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB);
	if (ticket != NULL)
		*ticket = pos + 1;
	return DOCA_SUCCESS;
}

/** Low level: the descriptor at @wqe_idx (modulo the ring). */
DOCA_GPUNETIO_HD struct doca_gpu_dev_eth_txq_wqe *doca_gpu_dev_eth_txq_get_wqe_ptr(struct doca_gpu_eth_txq *txq,
										   uint16_t wqe_idx)
{
	return &txq->wqe[wqe_idx & txq->wqe_mask];
}

/**
 * Low level: fills @wqe_ptr (the descriptor of @wqe_idx) as a send of @nbytes at @addr; it goes
 * once doca_gpu_dev_eth_txq_submit() passes a producer index above @wqe_idx. NOTIFY in @flags
 * asks for a completion on success. DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpu_dev_eth_txq_wqe_prepare_send(const struct doca_gpu_eth_txq *txq,
								    struct doca_gpu_dev_eth_txq_wqe *wqe_ptr,
								    const uint16_t wqe_idx, const uint64_t addr,
								    const uint32_t mkey, const uint32_t nbytes,
								    const enum doca_gpu_eth_send_flags flags)
{
	if (txq == NULL || wqe_ptr == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	wqe_ptr->opcode = DOCA_GPUNETIO_ETH_TXQ_WQE_SEND;
	wqe_ptr->flags = (uint16_t)flags;
	wqe_ptr->addr = addr;
	wqe_ptr->mkey = mkey;
	wqe_ptr->nbytes = nbytes;
	wqe_ptr->addr2 = 0;
	wqe_ptr->mkey2 = 0;
	wqe_ptr->nbytes2 = 0;
	wqe_ptr->wait_ts = 0;
	doca_gpunetio_hd_store_release_u32(&wqe_ptr->seq, (uint32_t)(wqe_idx + 1u) & 0xffffu);
	return DOCA_SUCCESS;
}

/** Low level, THREAD scope core of doca_gpu_dev_eth_txq_submit(): descriptors below @prod_index may go. */
DOCA_GPUNETIO_HD void doca_gpunetio_hd_txq_submit(struct doca_gpu_eth_txq *txq, uint64_t prod_index)
{
	doca_gpunetio_hd_store_release_u64(&txq->doorbell, prod_index);
}

/* Whether completion @pos is written (seq reached pos + 1; a later lap counts as written). */
DOCA_GPUNETIO_HD int doca_gpunetio_hd_txq_cqe_ready(const struct doca_gpu_eth_txq *txq, uint64_t pos,
						    doca_error_t *status)
{
	const struct doca_gpu_eth_txq_cqe *c = &txq->cqe[pos & txq->cqe_mask];
	uint32_t seq = doca_gpunetio_hd_load_acquire_u32(&c->seq);

	if ((int32_t)(seq - (uint32_t)(pos + 1)) < 0)
		return 0;
	*status = (doca_error_t)doca_gpunetio_hd_load_acquire_u32(&c->status);
	return 1;
}

/**
 * Completion poll core: takes the next @num_cqe completion positions (any number of pollers),
 * then waits for them (@blocking) or looks once. @poll_last: only the last one is waited for
 * (in order: it implies the others). *@num_completed: how many of them are written (all of
 * them when blocking). DOCA_ERROR_UNEXPECTED when one of those reports a failed send,
 * DOCA_ERROR_INVALID_VALUE for NULL arguments or 0 completions.
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_txq_poll(struct doca_gpu_eth_txq *txq, uint32_t num_cqe, int poll_last,
							int blocking, uint32_t *num_completed)
{
	uint64_t r, c;
	uint32_t n = 0;
	doca_error_t st = DOCA_SUCCESS, ret = DOCA_SUCCESS;

	if (txq == NULL || num_completed == NULL || num_cqe == 0)
		return DOCA_ERROR_INVALID_VALUE;
	r = doca_gpunetio_hd_load_acquire_dev_u64(txq->cq_reserve);
	while (!doca_gpunetio_hd_cas_dev_u64(txq->cq_reserve, &r, r + num_cqe)) {
	}
	if (poll_last) {
		while (!doca_gpunetio_hd_txq_cqe_ready(txq, r + num_cqe - 1, &st) && blocking) {
		}
	}
	for (c = r; c < r + num_cqe; c++) {
		if (!doca_gpunetio_hd_txq_cqe_ready(txq, c, &st)) {
			if (!blocking)
				break;
			c--;
			continue;
		}
		if (st != DOCA_SUCCESS)
			ret = DOCA_ERROR_UNEXPECTED;
		n++;
	}
	/* cqe_ci (DOCA's name): the completions polled so far; a plain store, kept from going back. */
	if (n != 0 && doca_gpunetio_hd_load_acquire_u64(&txq->cqe_ci) < r + n)
		doca_gpunetio_hd_store_release_u64(&txq->cqe_ci, r + n);
	*num_completed = n;
	return ret;
}

/**
 * Waits (@blocking) or looks once for completion @cqe_idx, without taking positions:
 * DOCA_SUCCESS once it reports a sent frame, DOCA_ERROR_UNEXPECTED once it reports a failure,
 * DOCA_ERROR_AGAIN (not blocking) while it is not written.
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_txq_poll_at(struct doca_gpu_eth_txq *txq, uint64_t cqe_idx, int blocking)
{
	doca_error_t st = DOCA_SUCCESS;

	if (txq == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	while (!doca_gpunetio_hd_txq_cqe_ready(txq, cqe_idx, &st)) {
		if (!blocking)
			return DOCA_ERROR_AGAIN;
	}
	return st == DOCA_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_UNEXPECTED;
}

#if defined(__cplusplus)

#if defined(__CUDACC__)
#define DOCA_GPUNETIO_TXQ_DEV __device__
#else
#define DOCA_GPUNETIO_TXQ_DEV
#endif

/** Low level, two segments (header and payload, say) in one frame. */
DOCA_GPUNETIO_TXQ_DEV inline doca_error_t
doca_gpu_dev_eth_txq_wqe_prepare_send(const struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_eth_txq_wqe *wqe_ptr,
				      const uint16_t wqe_idx, const uint64_t addr0, const uint32_t mkey0,
				      const uint32_t nbytes0, const uint64_t addr1, const uint32_t mkey1,
				      const uint32_t nbytes1, const enum doca_gpu_eth_send_flags flags)
{
	if (txq == NULL || wqe_ptr == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	wqe_ptr->opcode = DOCA_GPUNETIO_ETH_TXQ_WQE_SEND;
	wqe_ptr->flags = (uint16_t)flags;
	wqe_ptr->addr = addr0;
	wqe_ptr->mkey = mkey0;
	wqe_ptr->nbytes = nbytes0;
	wqe_ptr->addr2 = addr1;
	wqe_ptr->mkey2 = mkey1;
	wqe_ptr->nbytes2 = nbytes1;
	wqe_ptr->wait_ts = 0;
	doca_gpunetio_hd_store_release_u32(&wqe_ptr->seq, (uint32_t)(wqe_idx + 1u) & 0xffffu);
	return DOCA_SUCCESS;
}

/*
 * The group send of WARP and BLOCK scope: one thread reserves (@with_wait: one wait descriptor
 * and) a position per thread, every thread fills its own; all threads get their own ticket.
 * WARP: the lanes that call together (__activemask(): a partial warp is fine), the lowest of them
 * reserves. BLOCK: every thread of the block calls (as for __syncthreads()). A group larger
 * than the ring could never get its positions at once: then each thread sends alone (its own
 * wait first, with @with_wait), still one descriptor per thread, never a wait for room that
 * cannot come.
 */
#if defined(__CUDACC__)
/* One thread's share of a group too large for the ring: its own (wait and) send. */
__device__ inline void doca_gpunetio_txq_send_alone(struct doca_gpu_eth_txq *txq, bool with_wait, uint64_t wait_ts,
						    uint64_t addr, uint32_t mkey, size_t size,
						    enum doca_gpu_eth_send_flags flags,
						    doca_gpu_dev_eth_ticket_t *out_ticket)
{
	uint64_t t = 0;

	if (with_wait)
		(void)doca_gpunetio_hd_txq_wait_send(txq, wait_ts, addr, mkey, (uint32_t)size, (uint32_t)flags, &t);
	else
		(void)doca_gpunetio_hd_txq_send(txq, addr, mkey, (uint32_t)size, (uint32_t)flags, &t);
	if (out_ticket != NULL)
		*out_ticket = t;
}

template <enum doca_gpu_dev_eth_exec_scope exec_scope>
__device__ inline void doca_gpunetio_txq_group_send(struct doca_gpu_eth_txq *txq, bool with_wait, uint64_t wait_ts,
						    uint64_t addr, uint32_t mkey, size_t size,
						    enum doca_gpu_eth_send_flags flags,
						    doca_gpu_dev_eth_ticket_t *out_ticket)
{
	uint32_t extra = with_wait ? 1u : 0u;
	uint32_t flags_db = (uint32_t)flags | DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB;
	uint64_t base;

	if (exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP) {
		unsigned int mask = __activemask();
		unsigned int lane = doca_gpu_dev_eth_get_lane_id();
		unsigned int leader = (unsigned int)__ffs(mask) - 1u;
		unsigned int count = (unsigned int)__popc(mask);
		unsigned int rank = (unsigned int)__popc(mask & ((1u << lane) - 1u));
		unsigned long long b = 0;

		if (count + extra > txq->nwqe) {
			doca_gpunetio_txq_send_alone(txq, with_wait, wait_ts, addr, mkey, size, flags, out_ticket);
			return;
		}
		if (lane == leader) {
			uint64_t p = 0;

			(void)doca_gpunetio_hd_txq_reserve_wait(txq, count + extra, &p);
			if (with_wait)
				doca_gpunetio_hd_txq_write_wait(txq, p, wait_ts,
								DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB);
			b = p;
		}
		base = __shfl_sync(mask, b, (int)leader) + extra;
		doca_gpunetio_hd_txq_write_send(txq, base + rank, addr, mkey, (uint32_t)size, 0, 0, 0, flags_db);
		__syncwarp(mask);
		if (out_ticket != NULL)
			*out_ticket = base + rank;
	} else {
		__shared__ uint64_t s_base;
		unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
		unsigned int nthr = blockDim.x * blockDim.y * blockDim.z;

		if (nthr + extra > txq->nwqe) {
			doca_gpunetio_txq_send_alone(txq, with_wait, wait_ts, addr, mkey, size, flags, out_ticket);
			return;
		}
		if (tid == 0) {
			uint64_t p = 0;

			(void)doca_gpunetio_hd_txq_reserve_wait(txq, nthr + extra, &p);
			if (with_wait)
				doca_gpunetio_hd_txq_write_wait(txq, p, wait_ts,
								DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB);
			s_base = p + extra;
		}
		__syncthreads();
		base = s_base;
		doca_gpunetio_hd_txq_write_send(txq, base + tid, addr, mkey, (uint32_t)size, 0, 0, 0, flags_db);
		__syncthreads(); /* s_base is read by everyone before the next call writes it */
		if (out_ticket != NULL)
			*out_ticket = base + tid;
	}
}
#endif

/**
 * DOCA 3.3's high-level send: @size bytes at @addr (@mkey big-endian). THREAD: each thread
 * alone. WARP (all 32 lanes) / BLOCK (every thread): one reservation for the group, every
 * thread sends its own frame, __syncwarp / __syncthreads inside. *@out_ticket: the thread's
 * descriptor position. @resource_sharing_mode, @sync_scope and @nic_handler change nothing on
 * softdoca's NIC (the queue's own mode, set on the host, decides who takes the descriptors).
 */
template <
    enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
    enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
    enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
    enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>
DOCA_GPUNETIO_TXQ_DEV static inline void
doca_gpu_dev_eth_txq_send(struct doca_gpu_eth_txq *txq, uint64_t addr, uint32_t mkey, size_t size,
			  enum doca_gpu_eth_send_flags flags, doca_gpu_dev_eth_ticket_t *out_ticket)
{
#if defined(__CUDACC__)
	if (exec_scope != DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD) {
		doca_gpunetio_txq_group_send<exec_scope>(txq, false, 0, addr, mkey, size, flags, out_ticket);
		return;
	}
#else
	static_assert(exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD,
		      "outside nvcc only DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD exists (WARP and BLOCK need CUDA)");
#endif
	(void)doca_gpunetio_hd_txq_send(txq, addr, mkey, (uint32_t)size, (uint32_t)flags, out_ticket);
}

/**
 * DOCA 3.3's send behind a wait: nothing of it leaves before @wait_on_time_ts (a value of
 * doca_eth_txq_calculate_timestamp). WARP / BLOCK: one wait ahead of the group's frames.
 */
template <
    enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
    enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
    enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
    enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>
DOCA_GPUNETIO_TXQ_DEV static inline void
doca_gpu_dev_eth_txq_wait_send(struct doca_gpu_eth_txq *txq, const uint64_t wait_on_time_ts, uint64_t addr,
			       uint32_t mkey, size_t size, enum doca_gpu_eth_send_flags flags,
			       doca_gpu_dev_eth_ticket_t *out_ticket)
{
#if defined(__CUDACC__)
	if (exec_scope != DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD) {
		doca_gpunetio_txq_group_send<exec_scope>(txq, true, wait_on_time_ts, addr, mkey, size, flags,
							 out_ticket);
		return;
	}
#else
	static_assert(exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD,
		      "outside nvcc only DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD exists (WARP and BLOCK need CUDA)");
#endif
	(void)doca_gpunetio_hd_txq_wait_send(txq, wait_on_time_ts, addr, mkey, (uint32_t)size, (uint32_t)flags,
					     out_ticket);
}

/**
 * DOCA 3.3's low-level reservation: @count descriptor positions from the queue's reservation
 * counter, the first returned. As in DOCA, the ring's room is not checked: the caller fills the
 * positions (get_wqe_ptr, wqe_prepare_send) and submits no further than the NIC freed
 * (positions below txq->cons are free again).
 */
template <
    enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU>
DOCA_GPUNETIO_TXQ_DEV static inline uint64_t doca_gpu_dev_eth_txq_reserve_wq_slots(struct doca_gpu_eth_txq *txq,
										   uint32_t count)
{
	uint64_t r = doca_gpunetio_hd_load_acquire_dev_u64(txq->reserve);

	while (!doca_gpunetio_hd_cas_dev_u64(txq->reserve, &r, r + count)) {
	}
	return r;
}

/** DOCA 3.3's low-level submit: descriptors below @prod_index may be sent (one submitter per queue). */
template <
    enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
    enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
    enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO>
DOCA_GPUNETIO_TXQ_DEV static inline void doca_gpu_dev_eth_txq_submit(struct doca_gpu_eth_txq *txq, uint64_t prod_index)
{
	doca_gpunetio_hd_txq_submit(txq, prod_index);
}

/**
 * DOCA 3.3's completion poll (see doca_gpunetio_hd_txq_poll): takes @num_cqe completions,
 * CQ_POLL_LAST waits for the last only; WAIT_FLAG_B blocks. DOCA_ERROR_UNEXPECTED when one of
 * them reports a failed send.
 */
template <
    enum doca_gpu_dev_eth_cq_poll_mode cqe_poll = DOCA_GPUNETIO_ETH_CQ_POLL_ALL,
    enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
    enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU>
DOCA_GPUNETIO_TXQ_DEV static inline doca_error_t
doca_gpu_dev_eth_txq_poll_completion(struct doca_gpu_eth_txq *txq, const uint32_t num_cqe,
				     enum doca_gpu_dev_eth_wait_flags wait_mode, uint32_t *num_completed)
{
	return doca_gpunetio_hd_txq_poll(txq, num_cqe, cqe_poll == DOCA_GPUNETIO_ETH_CQ_POLL_LAST,
					 wait_mode == DOCA_GPUNETIO_ETH_WAIT_FLAG_B, num_completed);
}

/** DOCA 3.3's poll of one completion position, without taking it (see doca_gpunetio_hd_txq_poll_at). */
template <
    enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
    enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU>
DOCA_GPUNETIO_TXQ_DEV static inline doca_error_t
doca_gpu_dev_eth_txq_poll_completion_at(struct doca_gpu_eth_txq *txq, const uint64_t cqe_idx,
					enum doca_gpu_dev_eth_wait_flags wait_mode)
{
	return doca_gpunetio_hd_txq_poll_at(txq, cqe_idx, wait_mode == DOCA_GPUNETIO_ETH_WAIT_FLAG_B);
}

#endif /* __cplusplus */

#endif /* DOCA_GPUNETIO_DEV_ETH_TXQ_CUH_ */
