/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_gpu_ring.c - the intake of the GPU DMA ring: the rules it holds the device side to.
 *
 *   doorbell    read once per intake; never more than a ring (nslots) past the completed
 *               positions (cons): a device may not reuse a slot the CPU has not completed.
 *               Beyond: the ring fails (one line), nothing more is taken until the next start.
 *   descriptor  seq (acquire) = position + 1; then the whole descriptor is copied into private
 *               memory once and only that copy is checked and submitted.
 *   INVALID_VALUE  length 0 or above max_len; an mkey no started mmap has; a range not inside
 *                  that mmap
 *   NOT_PERMITTED  an mmap without the context's device; a destination without write rights
 *   NOT_SUPPORTED  an mmap over GPU-only memory
 * A bad descriptor completes with that status and one line (the first DMA_RING_LOG_MAX per
 * start, then counted). The loop is bounded by the window.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dma_gpu_ring.h"
#include "sd_internal.h"

#define COMP "dma"

void dma_ring_forget(struct dma_ring *r)
{
	r->cache[0].mkey = r->cache[1].mkey = 0;
}

void dma_ring_reset(struct dma_ring *r)
{
	r->head = r->tail = 0;
	r->failed = false;
	r->logged = 0;
	dma_ring_forget(r);
}

static __attribute__((cold, format(printf, 4, 5))) doca_error_t bad_desc(struct dma_ring *r, uint64_t pos,
									 doca_error_t err, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (r->logged++ >= DMA_RING_LOG_MAX)
		return err;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return SD_REJECT(err, COMP, "%s: GPU DMA descriptor %llu: %s; it completes with %s%s", r->name,
			 (unsigned long long)pos, what, doca_error_get_name(err),
			 r->logged == DMA_RING_LOG_MAX ? " (further bad descriptors are counted, not logged)" : "");
}

/* One side of descriptor @pos (fields of its private copy): inside a started mmap it may use. */
static doca_error_t check_side(struct dma_ring *r, uint64_t pos, unsigned int side, uint32_t mkey_be, uint64_t addr,
			       uint64_t len)
{
	const char *what = side == 0 ? "source" : "destination";
	uint32_t mkey = __builtin_bswap32(mkey_be);
	struct dma_ring_range *c = &r->cache[side].r;

	if (r->cache[side].mkey != mkey || mkey == 0) {
		r->cache[side].mkey = 0;
		if (!r->ops->resolve(r, mkey, c))
			return bad_desc(r, pos, DOCA_ERROR_INVALID_VALUE,
					"%s mkey 0x%08x names no started mmap; take keys and addresses from a buf "
					"array of a started mmap (doca_gpu_dev_buf_get_buf)",
					what, mkey);
		if (c->device_only)
			return bad_desc(r, pos, DOCA_ERROR_NOT_SUPPORTED,
					"%s mmap %p covers DOCA_GPU_MEM_TYPE_GPU memory, which softdoca's CPU-side DMA "
					"cannot reach; allocate it as DOCA_GPU_MEM_TYPE_GPU_CPU or CPU_GPU",
					what, c->what);
		r->cache[side].mkey = mkey;
	}
	if (addr < c->base || addr - c->base > c->len || len > c->len - (addr - c->base))
		return bad_desc(r, pos, DOCA_ERROR_INVALID_VALUE,
				"%s range 0x%llx + %llu is outside mmap %p (0x%llx + %zu) that mkey 0x%08x names", what,
				(unsigned long long)addr, (unsigned long long)len, c->what, (unsigned long long)c->base,
				c->len, mkey);
	if (!c->read_ok)
		return bad_desc(r, pos, DOCA_ERROR_NOT_PERMITTED,
				"%s mmap %p does not include the context's device; call doca_mmap_add_dev() before "
				"doca_mmap_start()",
				what, c->what);
	if (side == 1 && !c->write_ok)
		return bad_desc(r, pos, DOCA_ERROR_NOT_PERMITTED,
				"destination mmap %p is read-only; pass DOCA_ACCESS_FLAG_LOCAL_READ_WRITE to "
				"doca_mmap_set_permissions() before doca_mmap_start()",
				c->what);
	return DOCA_SUCCESS;
}

static doca_error_t check_desc(struct dma_ring *r, uint64_t pos, const struct doca_gpu_dma_desc *d)
{
	doca_error_t ret;

	if (d->len == 0 || d->len > r->max_len)
		return bad_desc(r, pos, DOCA_ERROR_INVALID_VALUE,
				"length %llu is outside 1..%llu (the device's max_buf_size)",
				(unsigned long long)d->len, (unsigned long long)r->max_len);
	ret = check_side(r, pos, 0, d->src_mkey, d->src_addr, d->len);
	if (ret == DOCA_SUCCESS)
		ret = check_side(r, pos, 1, d->dst_mkey, d->dst_addr, d->len);
	return ret;
}

unsigned int dma_ring_intake(struct dma_ring *r)
{
	uint64_t db;
	unsigned int n = 0;

	if (r->failed)
		return 0;
	db = doca_gpunetio_hd_load_acquire_u64(r->doorbell);
	if (db > r->tail && db - r->tail > r->nslots) {
		r->failed = true;
		SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
			  "%s: the GPU rang the DMA doorbell at %llu with %llu descriptors completed, more than the "
			  "ring's %u ahead; the context takes nothing more until it is restarted: a kernel may post "
			  "at most %u descriptors past the consumer index",
			  r->name, (unsigned long long)db, (unsigned long long)r->tail, r->nslots, r->nslots);
		return 0;
	}
	while (r->head < db && r->head - r->tail < r->window) {
		uint64_t pos = r->head;
		const struct doca_gpu_dma_desc *slot = &r->desc[pos & (r->nslots - 1u)];
		struct doca_gpu_dma_desc d;
		doca_error_t ret;

		/* Reserved but still being written (or a doorbell past what was posted). */
		if (doca_gpunetio_hd_load_acquire_u64(&slot->seq) != pos + 1)
			break;
		memcpy(&d, slot, sizeof(d)); /* once: only the copy is read below */
		ret = check_desc(r, pos, &d);
		if (ret == DOCA_SUCCESS) {
			if (!r->ops->submit(r, pos, &d))
				break; /* the engine is full: take it again later */
		} else {
			r->ops->fail(r, pos, ret);
		}
		r->head++;
		n++;
	}
	return n;
}
