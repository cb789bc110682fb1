/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buf_pool.c - doca_buf_pool: a buf inventory whose descriptor i is fixed to element i of an
 * mmap's range.
 *
 * The pool embeds an inventory of num_elements descriptors allocated at create, so a pool buf
 * is an inventory buf in every respect: the doca_buf_* calls, lists with bufs of other
 * inventories, and the last doca_buf_dec_refcount() (buf.c) putting it back on this free
 * list. Allocation pops the free list and computes the element's address from the
 * descriptor's index; nothing is allocated after create. Like inventories, a pool takes no
 * lock: one thread at a time allocates from it and releases its bufs.
 */
#include <stdlib.h>

#include <doca_buf_pool.h>

#include "core.h"

#define COMP "buf_pool"

struct doca_buf_pool {
	struct doca_buf_inventory inv; /* descriptors; inv.elems[i] is element i */
	struct doca_mmap *mmap;
	size_t elem_size;
	size_t align; /* power of 2; 1 = none */
	/* Fixed by start from the mmap's range: element i is at first + i * stride. */
	uint8_t *base; /* the mmap's range start when the pool started */
	uint8_t *first;
	size_t stride;
	bool started;
	bool empty_logged; /* EMPTY was logged since the last successful allocation */
	union doca_data user_data;
};

DOCA_STABLE doca_error_t doca_buf_pool_create(size_t num_elements, size_t element_size, const struct doca_mmap *mmap,
					      struct doca_buf_pool **buf_pool)
{
	struct doca_buf_pool *pool;

	if (buf_pool == NULL || mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_create: NULL %s; pass a valid pointer",
				 buf_pool == NULL ? "output argument" : "mmap");
	if (num_elements == 0 || element_size == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_pool_create: %zu elements of %zu bytes; both must be > 0", num_elements,
				 element_size);
	if (num_elements > UINT32_MAX)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_pool_create: %zu elements exceeds the maximum %u", num_elements, UINT32_MAX);
	if (mmap->kind == MMAP_LOCAL && !mmap->range_set)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_pool_create: mmap %p has no memory range; call doca_mmap_set_memrange() "
				 "before creating a pool over it",
				 (const void *)mmap);
	if (element_size > mmap->len / num_elements)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_pool_create: %zu elements of %zu bytes need more than the %zu bytes of mmap "
				 "%p; use fewer or smaller elements or a larger memory range",
				 num_elements, element_size, mmap->len, (const void *)mmap);
	pool = calloc(1, sizeof(*pool));
	if (pool == NULL)
		return DOCA_ERROR_NO_MEMORY;
	pool->inv.elems = calloc(num_elements, sizeof(*pool->inv.elems));
	if (pool->inv.elems == NULL) {
		free(pool);
		return DOCA_ERROR_NO_MEMORY;
	}
	pool->inv.started = true;
	pool->inv.nb_elems = (uint32_t)num_elements;
	pool->inv.nb_free = pool->inv.nb_elems;
	/* Element 0 first, so that a fresh pool hands out consecutive elements. */
	for (uint32_t i = pool->inv.nb_elems; i-- > 0;) {
		pool->inv.elems[i].inv = &pool->inv;
		pool->inv.elems[i].next = pool->inv.free_list;
		pool->inv.free_list = &pool->inv.elems[i];
	}
	/* Bufs bind a mutable mmap (its buf count); the pool itself never changes the map. */
	pool->mmap = (struct doca_mmap *)(uintptr_t)mmap;
	pool->elem_size = element_size;
	pool->align = 1;
	*buf_pool = pool;
	return DOCA_SUCCESS;
}

static uint32_t nb_out(const struct doca_buf_pool *pool)
{
	return pool->inv.nb_elems - pool->inv.nb_free;
}

DOCA_STABLE doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool)
{
	if (buf_pool == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_destroy: NULL buf pool");
	if (nb_out(buf_pool) != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_buf_pool_destroy: buf pool %p still has %u of %u buf(s) out; release them with "
				 "doca_buf_dec_refcount() first",
				 (void *)buf_pool, nb_out(buf_pool), buf_pool->inv.nb_elems);
	free(buf_pool->inv.elems);
	free(buf_pool);
	return DOCA_SUCCESS;
}

static size_t align_up(size_t v, size_t align)
{
	return (v + align - 1) & ~(align - 1);
}

DOCA_STABLE doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool)
{
	struct doca_mmap *mmap;
	size_t lead, stride, avail;

	if (buf_pool == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_start: NULL buf pool");
	if (buf_pool->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_buf_pool_start: buf pool %p is already started",
				 (void *)buf_pool);
	mmap = buf_pool->mmap;
	if (mmap->kind == MMAP_LOCAL && !mmap->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_buf_pool_start: mmap %p of buf pool %p is not started; call doca_mmap_start() "
				 "first",
				 (void *)mmap, (void *)buf_pool);
	/* The range may have been set again since create; the alignment adds padding. */
	lead = align_up((uintptr_t)mmap->addr, buf_pool->align) - (uintptr_t)mmap->addr;
	stride = align_up(buf_pool->elem_size, buf_pool->align);
	/* Fits when lead + (n - 1) * stride + elem_size <= len, checked without overflow. */
	avail = lead <= mmap->len ? mmap->len - lead : 0;
	if (stride < buf_pool->elem_size || buf_pool->elem_size > avail ||
	    (buf_pool->inv.nb_elems > 1 && stride > (avail - buf_pool->elem_size) / (buf_pool->inv.nb_elems - 1)))
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP,
				 "doca_buf_pool_start: buf pool %p: %u elements of %zu bytes aligned to %zu do not fit "
				 "in the %zu bytes of mmap %p at %p; lower the alignment or the element count, or "
				 "give the mmap a larger range",
				 (void *)buf_pool, buf_pool->inv.nb_elems, buf_pool->elem_size, buf_pool->align,
				 mmap->len, (void *)mmap, (void *)mmap->addr);
	buf_pool->base = mmap->addr;
	buf_pool->first = mmap->addr + lead;
	buf_pool->stride = stride;
	buf_pool->empty_logged = false;
	buf_pool->started = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool)
{
	if (buf_pool == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_stop: NULL buf pool");
	if (nb_out(buf_pool) != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_buf_pool_stop: buf pool %p still has %u of %u buf(s) out; release them with "
				 "doca_buf_dec_refcount() first",
				 (void *)buf_pool, nb_out(buf_pool), buf_pool->inv.nb_elems);
	buf_pool->started = false;
	return DOCA_SUCCESS;
}

static doca_error_t alloc_refused(struct doca_buf_pool *pool, struct doca_buf **buf)
{
	struct doca_mmap *mmap;

	if (pool == NULL || buf == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_buf_alloc: NULL %s",
				 pool == NULL ? "buf pool" : "output argument");
	if (!pool->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_buf_pool_buf_alloc: buf pool %p is not started; call doca_buf_pool_start() "
				 "first",
				 (void *)pool);
	mmap = pool->mmap;
	if (mmap->kind == MMAP_LOCAL && (!mmap->started || mmap->addr != pool->base))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_buf_pool_buf_alloc: mmap %p of buf pool %p is %s; keep the mmap started, with "
				 "its range, while the pool is",
				 (void *)mmap, (void *)pool,
				 !mmap->started ? "stopped" : "at another range than when the pool started");
	/* Exhaustion is back-pressure on a hot path: one line per episode, not per call. */
	if (!pool->empty_logged) {
		pool->empty_logged = true;
		SD_REJECT(DOCA_ERROR_EMPTY, COMP,
			  "doca_buf_pool_buf_alloc: buf pool %p is empty (all %u bufs out); release bufs with "
			  "doca_buf_dec_refcount() or create the pool with more elements (logged once until an "
			  "allocation succeeds)",
			  (void *)pool, pool->inv.nb_elems);
	}
	return DOCA_ERROR_EMPTY;
}

DOCA_STABLE doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf)
{
	struct doca_mmap *mmap;
	struct doca_buf *b;

	if (SD_UNLIKELY(buf_pool == NULL || buf == NULL || !buf_pool->started || buf_pool->inv.free_list == NULL))
		return alloc_refused(buf_pool, buf);
	mmap = buf_pool->mmap;
	if (SD_UNLIKELY(mmap->kind == MMAP_LOCAL && (!mmap->started || mmap->addr != buf_pool->base)))
		return alloc_refused(buf_pool, buf);
	b = priv_doca_buf_take(&buf_pool->inv, mmap);
	b->head = buf_pool->first + (size_t)(b - buf_pool->inv.elems) * buf_pool->stride;
	b->len = buf_pool->elem_size;
	b->data = b->head;
	b->data_len = 0;
	buf_pool->empty_logged = false;
	*buf = b;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data)
{
	if (buf_pool == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_set_user_data: NULL buf pool");
	if (buf_pool->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_buf_pool_set_user_data: buf pool %p is started; set properties before "
				 "doca_buf_pool_start() or after doca_buf_pool_stop()",
				 (void *)buf_pool);
	buf_pool->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment)
{
	if (buf_pool == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_set_element_alignment: NULL buf pool");
	if (element_alignment == 0 || (element_alignment & (element_alignment - 1)) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_pool_set_element_alignment: buf pool %p: alignment %zu is not a power of 2; "
				 "pass 1 (none), 2, 4, 8, ...",
				 (void *)buf_pool, element_alignment);
	if (buf_pool->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_buf_pool_set_element_alignment: buf pool %p is started; set properties before "
				 "doca_buf_pool_start() or after doca_buf_pool_stop()",
				 (void *)buf_pool);
	buf_pool->align = element_alignment;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_elements)
{
	if (buf_pool == NULL || num_of_elements == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_get_num_elements: NULL argument");
	*num_of_elements = buf_pool->inv.nb_elems;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool,
							     uint32_t *num_of_free_elements)
{
	if (buf_pool == NULL || num_of_free_elements == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_get_num_free_elements: NULL argument");
	*num_of_free_elements = buf_pool->inv.nb_free;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data)
{
	if (buf_pool == NULL || user_data == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_get_user_data: NULL argument");
	*user_data = buf_pool->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool,
							     size_t *element_alignment)
{
	if (buf_pool == NULL || element_alignment == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_pool_get_element_alignment: NULL argument");
	*element_alignment = buf_pool->align;
	return DOCA_SUCCESS;
}
