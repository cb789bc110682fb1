/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txq_gpu_ring.c - the walker of a GPU send ring: the rules it holds the device side to.
 *
 *   doorbell    read once per walk; it only moves forward (an older value is ignored), and
 *               never more than a ring (nwqe) past the descriptors taken: the device may not
 *               reuse a slot the NIC has not released (cons). Beyond: the queue fails.
 *   descriptor  seq (acquire) says it is this lap's; then the whole descriptor is copied into
 *               private memory once and only that copy is read: a device that rewrites the slot
 *               meanwhile changes nothing the checks passed.
 *   SEND        segment 1 not empty, both together 14..mtu bytes (mtu <= the frame buffer),
 *               each segment inside the range its mkey names (ops->resolve: a started mmap
 *               with the queue's device)
 *   WAIT        due at wait_ts (the walk stops there, the thread sleeps at most its park time)
 *   other       an unknown opcode
 * A bad descriptor completes with its status and one line (the first TXQ_RING_LOG_MAX per
 * start, then counted); the ring goes on. Every loop is bounded by the caller's budget.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <doca_gpunetio_hd.h>

#include "sd_internal.h"
#include "txq_gpu_ring.h"

#define COMP "eth"

void txq_ring_reset(struct txq_ring *w)
{
	w->next = w->db = 0;
	w->wait_until = 0;
	w->failed = false;
	w->logged = 0;
	w->st_sent = w->st_failed = 0;
}

doca_error_t txq_ring_bad(struct txq_ring *w, uint64_t pos, doca_error_t err, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	w->st_failed++;
	if (w->logged >= TXQ_RING_LOG_MAX)
		return err;
	w->logged++;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return SD_REJECT(err, COMP, "%s: GPU send descriptor %llu: %s; it completes with %s%s", w->name,
			 (unsigned long long)pos, what, doca_error_get_name(err),
			 w->logged == TXQ_RING_LOG_MAX ? " (further failures are counted, not logged)" : "");
}

/* Copies one segment of descriptor @pos (its private copy's fields) into the frame at @dst. */
static doca_error_t copy_seg(struct txq_ring *w, uint64_t pos, uint32_t mkey_be, uint64_t addr, uint32_t len,
			     uint8_t *dst)
{
	uint32_t mkey = __builtin_bswap32(mkey_be);
	struct txq_ring_range r;
	doca_error_t ret = w->ops->resolve(w, pos, mkey, &r);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (addr < r.base || addr - r.base > r.len || len > r.len - (addr - r.base))
		return txq_ring_bad(w, pos, DOCA_ERROR_INVALID_VALUE,
				    "range 0x%llx + %u is outside mmap %p (0x%llx + %zu) that mkey 0x%08x names",
				    (unsigned long long)addr, len, r.what, (unsigned long long)r.base, r.len, mkey);
	if (r.cpu != NULL) {
		memcpy(dst, r.cpu + (addr - r.base), len);
		return DOCA_SUCCESS;
	}
	if (w->ops->copy_dev(w, dst, addr, len) != DOCA_SUCCESS)
		return txq_ring_bad(w, pos, DOCA_ERROR_DRIVER, "copying %u bytes out of GPU memory failed", len);
	return DOCA_SUCCESS;
}

/* Builds the frame of send descriptor @pos (@d: its private copy) into w->frame. */
static doca_error_t build_frame(struct txq_ring *w, uint64_t pos, const struct doca_gpu_dev_eth_txq_wqe *d,
				uint32_t *len)
{
	uint64_t total = (uint64_t)d->nbytes + d->nbytes2;
	uint32_t mtu = w->mtu < TXQ_RING_FRAME_MAX ? w->mtu : TXQ_RING_FRAME_MAX;
	doca_error_t ret;

	if (d->nbytes == 0 || total < 14 || total > mtu)
		return txq_ring_bad(w, pos, DOCA_ERROR_INVALID_VALUE,
				    "a frame of %llu bytes (segments %u + %u); the port sends 14..%u bytes",
				    (unsigned long long)total, d->nbytes, d->nbytes2, mtu);
	ret = copy_seg(w, pos, d->mkey, d->addr, d->nbytes, w->frame);
	if (ret == DOCA_SUCCESS && d->nbytes2 > 0)
		ret = copy_seg(w, pos, d->mkey2, d->addr2, d->nbytes2, w->frame + d->nbytes);
	if (ret != DOCA_SUCCESS)
		return ret;
	*len = (uint32_t)total;
	return DOCA_SUCCESS;
}

/* A new doorbell value: false (the queue failed, logged once) when it is more than a ring ahead. */
static bool doorbell(struct txq_ring *w, uint64_t db)
{
	if ((int64_t)(db - w->db) <= 0)
		return true; /* not newer: the doorbell only moves forward */
	if ((int64_t)(db - w->next) > (int64_t)w->nwqe) {
		w->failed = true;
		SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
			  "%s: the GPU rang the send doorbell at %llu with %llu descriptors taken, more than the "
			  "ring's %u ahead; the queue takes nothing more until it is restarted: a kernel may post "
			  "at most nwqe descriptors past the queue's consumer index",
			  w->name, (unsigned long long)db, (unsigned long long)w->next, w->nwqe);
		return false;
	}
	w->db = db;
	return true;
}

unsigned int txq_ring_walk(struct txq_ring *w, unsigned int budget)
{
	unsigned int n = 0;

	w->wait_until = 0;
	if (w->failed || !doorbell(w, doca_gpunetio_hd_load_acquire_u64(w->doorbell)))
		return 0;
	while (n < budget) {
		uint64_t p = w->next;
		const struct doca_gpu_dev_eth_txq_wqe *slot = &w->wqe[p & (w->nwqe - 1)];
		struct doca_gpu_dev_eth_txq_wqe d;
		doca_error_t status = DOCA_SUCCESS;

		if ((doca_gpunetio_hd_load_acquire_u32(&slot->seq) & 0xffffu) != ((p + 1) & 0xffffu))
			break;		     /* not written yet (or still the last lap's) */
		memcpy(&d, slot, sizeof(d)); /* once: only the copy is read below */
		if (!(d.flags & DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB) && p >= w->db)
			break; /* prepared, not submitted */
		if (w->ops->room != NULL && !w->ops->room(w))
			break; /* the completions have not been taken yet: wait, lose nothing */
		if (d.opcode == DOCA_GPUNETIO_ETH_TXQ_WQE_WAIT) {
			if (w->ops->now(w) < d.wait_ts) {
				w->wait_until = d.wait_ts;
				break;
			}
		} else if (d.opcode == DOCA_GPUNETIO_ETH_TXQ_WQE_SEND) {
			uint32_t len = 0;

			status = build_frame(w, p, &d, &len);
			if (status == DOCA_SUCCESS) {
				if (!w->ops->send(w, w->frame, len))
					break; /* the medium is full: this descriptor again next time */
				w->st_sent++;
			}
		} else {
			status = txq_ring_bad(w, p, DOCA_ERROR_INVALID_VALUE,
					      "opcode %u is neither a send nor a wait; fill descriptors with the "
					      "doca_gpu_dev_eth_txq_* functions",
					      d.opcode);
		}
		if (status != DOCA_SUCCESS || (d.flags & DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY))
			w->ops->complete(w, p, status);
		w->next = p + 1;
		doca_gpunetio_hd_store_release_u64(w->cons, p + 1);
		n++;
	}
	return n;
}
