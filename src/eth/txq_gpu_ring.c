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
 *
 * GPU-only bytes (a range without a CPU view), with a stage and copy_dev_async: before taking
 * descriptors the walk reads up to TXQ_RING_BATCH of them ahead into private copies (the same
 * seq and doorbell tests, stopping at the first that is not ready or not a send), checks their
 * segments quietly and queues one asynchronous copy per run of adjacent GPU-only bytes into the
 * stage, then waits once (copy_dev_wait). Taking them is then the usual walk over the private
 * copies, each segment's checks done again (and logged) before its staged bytes are used; what
 * was read ahead and not taken (a full medium, a full completion ring) is read again next walk.
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
	w->st_copies = w->st_waits = 0;
	w->quiet = false;
	w->pre_n = w->pre_i = 0;
}

doca_error_t txq_ring_bad(struct txq_ring *w, uint64_t pos, doca_error_t err, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (w->quiet)
		return err; /* reading ahead: said when the descriptor is taken */
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

/*
 * Copies one segment of descriptor @pos (its private copy's fields) into the frame at @dst.
 * @off: where its bytes were fetched into the stage (UINT32_MAX: not fetched); @fetch_failed:
 * the fetch did not land.
 */
static doca_error_t copy_seg(struct txq_ring *w, uint64_t pos, uint32_t mkey_be, uint64_t addr, uint32_t len,
			     uint8_t *dst, uint32_t off, bool fetch_failed)
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
	if (off != UINT32_MAX && !fetch_failed) {
		memcpy(dst, w->stage + off, len); /* fetched for this segment (read ahead), landed */
		return DOCA_SUCCESS;
	}
	if (off != UINT32_MAX || w->ops->copy_dev(w, dst, addr, len) != DOCA_SUCCESS)
		return txq_ring_bad(w, pos, DOCA_ERROR_DRIVER, "copying %u bytes out of GPU memory failed", len);
	return DOCA_SUCCESS;
}

/* Builds the frame of send descriptor @pos (@d: its private copy) into w->frame; @off, @fetch_failed:
 * what reading ahead fetched of its segments (copy_seg). */
static doca_error_t build_frame(struct txq_ring *w, uint64_t pos, const struct doca_gpu_dev_eth_txq_wqe *d,
				uint32_t *len, const uint32_t off[2], bool fetch_failed)
{
	uint64_t total = (uint64_t)d->nbytes + d->nbytes2;
	uint32_t mtu = w->mtu < TXQ_RING_FRAME_MAX ? w->mtu : TXQ_RING_FRAME_MAX;
	doca_error_t ret;

	if (d->nbytes == 0 || total < 14 || total > mtu)
		return txq_ring_bad(w, pos, DOCA_ERROR_INVALID_VALUE,
				    "a frame of %llu bytes (segments %u + %u); the port sends 14..%u bytes",
				    (unsigned long long)total, d->nbytes, d->nbytes2, mtu);
	ret = copy_seg(w, pos, d->mkey, d->addr, d->nbytes, w->frame, off[0], fetch_failed);
	if (ret == DOCA_SUCCESS && d->nbytes2 > 0)
		ret = copy_seg(w, pos, d->mkey2, d->addr2, d->nbytes2, w->frame + d->nbytes, off[1], fetch_failed);
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

/* Descriptor @p, read once into *@d: false when it is not this lap's yet or not submitted. */
static bool read_wqe(struct txq_ring *w, uint64_t p, struct doca_gpu_dev_eth_txq_wqe *d)
{
	const struct doca_gpu_dev_eth_txq_wqe *slot = &w->wqe[p & (w->nwqe - 1)];

	if ((doca_gpunetio_hd_load_acquire_u32(&slot->seq) & 0xffffu) != ((p + 1) & 0xffffu))
		return false;	     /* not written yet (or still the last lap's) */
	memcpy(d, slot, sizeof(*d)); /* once: only the copy is read from here on */
	return (d->flags & DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB) || p < w->db; /* else prepared only */
}

/* Queues the fetch of one GPU-only segment, merged into *@run when it continues it. */
static bool fetch_seg(struct txq_ring *w, uint64_t addr, uint32_t len, uint32_t *used, uint64_t run[3])
{
	bool ok = true;

	if (run[2] > 0 && addr == run[1] + run[2]) {
		run[2] += len; /* adjacent to the run: one copy (the stage is filled densely) */
	} else {
		if (run[2] > 0) {
			ok = w->ops->copy_dev_async(w, w->stage + run[0], run[1], (uint32_t)run[2]) == DOCA_SUCCESS;
			w->st_copies++;
		}
		run[0] = *used;
		run[1] = addr;
		run[2] = len;
	}
	*used += len;
	return ok;
}

/*
 * Reads up to @max ready descriptors ahead into w->pre (a send's GPU-only segments fetched into
 * the stage, all landed when it returns); stops after the first that is not a send.
 */
static void read_ahead(struct txq_ring *w, unsigned int max)
{
	uint64_t run[3] = {0, 0, 0}; /* stage offset, device address, bytes of the copy being merged */
	uint32_t used = 0, mtu = w->mtu < TXQ_RING_FRAME_MAX ? w->mtu : TXQ_RING_FRAME_MAX;
	bool ok = true;

	w->pre_n = w->pre_i = 0;
	if (max > TXQ_RING_BATCH)
		max = TXQ_RING_BATCH;
	w->quiet = true;
	for (uint32_t k = 0; k < max; k++) {
		__typeof__(w->pre[0]) *e = &w->pre[k];
		uint64_t total;

		if (!read_wqe(w, w->next + k, &e->d))
			break;
		e->off[0] = e->off[1] = UINT32_MAX;
		e->failed = false;
		w->pre_n = k + 1;
		if (e->d.opcode != DOCA_GPUNETIO_ETH_TXQ_WQE_SEND)
			break; /* a wait (or junk) ends the batch: what is behind it waits */
		total = (uint64_t)e->d.nbytes + e->d.nbytes2;
		if (e->d.nbytes == 0 || total < 14 || total > mtu || used + total > TXQ_RING_STAGE_BYTES)
			continue; /* refused when taken, or fetched then one by one */
		for (int i = 0; i < 2; i++) {
			uint32_t mkey = __builtin_bswap32(i == 0 ? e->d.mkey : e->d.mkey2);
			uint64_t addr = i == 0 ? e->d.addr : e->d.addr2;
			uint32_t len = i == 0 ? e->d.nbytes : e->d.nbytes2;
			struct txq_ring_range r;

			if (len == 0 || w->ops->resolve(w, w->next + k, mkey, &r) != DOCA_SUCCESS || r.cpu != NULL ||
			    addr < r.base || addr - r.base > r.len || len > r.len - (addr - r.base))
				continue; /* CPU-addressable, or refused when taken */
			e->off[i] = used;
			ok = fetch_seg(w, addr, len, &used, run) && ok;
		}
	}
	w->quiet = false;
	if (run[2] > 0) {
		ok = w->ops->copy_dev_async(w, w->stage + run[0], run[1], (uint32_t)run[2]) == DOCA_SUCCESS && ok;
		w->st_copies++;
	}
	if (used == 0)
		return;
	w->st_waits++;
	if (w->ops->copy_dev_wait(w) != DOCA_SUCCESS || !ok)
		for (uint32_t k = 0; k < w->pre_n; k++)
			w->pre[k].failed = true; /* their fetched segments complete with DRIVER */
}

unsigned int txq_ring_walk(struct txq_ring *w, unsigned int budget)
{
	static const uint32_t not_fetched[2] = {UINT32_MAX, UINT32_MAX};
	unsigned int n = 0;

	w->wait_until = 0;
	w->pre_n = w->pre_i = 0;
	if (w->failed || !doorbell(w, doca_gpunetio_hd_load_acquire_u64(w->doorbell)))
		return 0;
	while (n < budget) {
		uint64_t p = w->next;
		struct doca_gpu_dev_eth_txq_wqe d;
		const uint32_t *off = not_fetched;
		bool fetch_failed = false;
		doca_error_t status = DOCA_SUCCESS;

		if (w->pre_i == w->pre_n && w->stage != NULL && w->ops->copy_dev_async != NULL)
			read_ahead(w, budget - n);
		if (w->pre_i < w->pre_n) {
			d = w->pre[w->pre_i].d; /* read once, ahead */
			off = w->pre[w->pre_i].off;
			fetch_failed = w->pre[w->pre_i].failed;
		} else if (!read_wqe(w, p, &d)) {
			break;
		}
		if (w->ops->room != NULL && !w->ops->room(w))
			break; /* the completions have not been taken yet: wait, lose nothing */
		if (d.opcode == DOCA_GPUNETIO_ETH_TXQ_WQE_WAIT) {
			if (w->ops->now(w) < d.wait_ts) {
				w->wait_until = d.wait_ts;
				break;
			}
		} else if (d.opcode == DOCA_GPUNETIO_ETH_TXQ_WQE_SEND) {
			uint32_t len = 0;

			status = build_frame(w, p, &d, &len, off, fetch_failed);
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
		if (w->pre_i < w->pre_n)
			w->pre_i++;
	}
	w->pre_n = w->pre_i = 0; /* what was read ahead and not taken is read again next walk */
	return n;
}
