/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buf.c - doca_buf_inventory (fixed pools of descriptors) and doca_buf (descriptors, lists).
 *
 * A list is a singly linked chain; its head carries the reference count, the tail pointer and
 * the element count, so chaining and DMA validation never walk more than needed. A free
 * descriptor has mmap == NULL, which is how stale pointers are recognised (BAD_STATE).
 */
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>

#include "core.h"

#define COMP "buf"

DOCA_STABLE doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory)
{
	struct doca_buf_inventory *inv;

	if (inventory == NULL || num_elements == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_inventory_create: %s; pass the number of bufs you need (> 0)",
				 inventory == NULL ? "NULL output argument" : "0 elements");
	if (num_elements > UINT32_MAX)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_inventory_create: %zu elements exceeds %u",
				 num_elements, UINT32_MAX);
	inv = calloc(1, sizeof(*inv));
	if (inv == NULL)
		return DOCA_ERROR_NO_MEMORY;
	inv->elems = calloc(num_elements, sizeof(*inv->elems));
	if (inv->elems == NULL) {
		free(inv);
		return DOCA_ERROR_NO_MEMORY;
	}
	inv->nb_elems = (uint32_t)num_elements;
	inv->nb_free = inv->nb_elems;
	for (uint32_t i = inv->nb_elems; i-- > 0;) {
		inv->elems[i].inv = inv;
		inv->elems[i].next = inv->free_list;
		inv->free_list = &inv->elems[i];
	}
	*inventory = inv;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory)
{
	if (inventory == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_inventory_destroy: NULL inventory");
	if (inventory->nb_free != inventory->nb_elems)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_buf_inventory_destroy: inventory %p still has %u buf(s) out; release them with "
				 "doca_buf_dec_refcount() first",
				 (void *)inventory, inventory->nb_elems - inventory->nb_free);
	free(inventory->elems);
	free(inventory);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory)
{
	if (inventory == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_inventory_start: NULL inventory");
	if (inventory->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_buf_inventory_start: inventory %p is already started", (void *)inventory);
	inventory->started = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory)
{
	if (inventory == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_inventory_stop: NULL inventory");
	inventory->started = false;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory,
							     uint32_t *num_of_elements)
{
	if (inventory == NULL || num_of_elements == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*num_of_elements = inventory->nb_elems;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
								  uint32_t *num_of_free_elements)
{
	if (inventory == NULL || num_of_free_elements == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*num_of_free_elements = inventory->nb_free;
	return DOCA_SUCCESS;
}

static bool range_inside(const uint8_t *base, size_t len, const uint8_t *addr, size_t alen)
{
	uintptr_t b = (uintptr_t)base, a = (uintptr_t)addr;

	return a >= b && alen <= len && a - b <= len - alen;
}

DOCA_STABLE doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory,
							    struct doca_mmap *mmap, void *addr, size_t len, void *data,
							    size_t data_len, struct doca_buf **buf)
{
	struct doca_buf *b;

	if (inventory == NULL || mmap == NULL || buf == NULL || addr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_inventory_buf_get: NULL argument");
	if (!inventory->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "inventory %p is not started; call doca_buf_inventory_start() before getting bufs",
				 (void *)inventory);
	if (mmap->kind == MMAP_LOCAL && !mmap->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "mmap %p is not started; call doca_mmap_start() before getting bufs from it",
				 (void *)mmap);
	if (!range_inside(mmap->addr, mmap->len, addr, len))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "buf [%p, +%zu) is outside mmap %p [%p, +%zu); pass an address range inside the "
				 "range given to doca_mmap_set_memrange()",
				 addr, len, (void *)mmap, (void *)mmap->addr, mmap->len);
	if (data == NULL || !range_inside(addr, len, data, data_len))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "data window [%p, +%zu) is outside the buf region [%p, +%zu)", data, data_len, addr,
				 len);
	if (inventory->free_list == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP,
				 "inventory %p is exhausted (%u bufs out); release bufs with doca_buf_dec_refcount() "
				 "or create the inventory with more elements",
				 (void *)inventory, inventory->nb_elems);
	b = priv_doca_buf_take(inventory, mmap);
	b->head = addr;
	b->len = len;
	b->data = data;
	b->data_len = data_len;
	*buf = b;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory,
						    const struct doca_buf *src_buf, struct doca_buf **dst_buf)
{
	if (src_buf == NULL || src_buf->mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_inventory_buf_dup: NULL or released source buf");
	return doca_buf_inventory_buf_get_by_args(inventory, src_buf->mmap, src_buf->head, src_buf->len, src_buf->data,
						  src_buf->data_len, dst_buf);
}

/* Getters: documented to always succeed on a valid buf; NULL gives INVALID_VALUE. */

DOCA_STABLE doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head)
{
	if (buf == NULL || head == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*head = buf->head;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len)
{
	if (buf == NULL || len == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*len = buf->len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data)
{
	if (buf == NULL || data == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*data = buf->data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len)
{
	if (buf == NULL || data_len == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*data_len = buf->data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len)
{
	if (buf == NULL || data == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_set_data: NULL argument");
	if (!range_inside(buf->head, buf->len, data, data_len))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_set_data: buf %p: data [%p, +%zu) leaves the buf region [%p, +%zu)",
				 (void *)buf, data, data_len, (void *)buf->head, buf->len);
	buf->data = data;
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len)
{
	if (buf == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!range_inside(buf->head, buf->len, buf->data, data_len))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_set_data_len: buf %p: %zu bytes from the data pointer leave the buf region",
				 (void *)buf, data_len);
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_reset_data_len(struct doca_buf *buf)
{
	if (buf == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	buf->data_len = 0;
	return DOCA_SUCCESS;
}

static doca_error_t check_head(const struct doca_buf *buf, const char *call)
{
	if (buf->mmap == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: buf %p was already released (refcount 0)", call,
				 (const void *)buf);
	if (!buf->is_head)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: buf %p is an element inside a list; use the list head", call, (const void *)buf);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	doca_error_t ret;

	if (buf == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	ret = check_head(buf, "doca_buf_inc_refcount");
	if (ret != DOCA_SUCCESS)
		return ret;
	if (buf->refcount == UINT16_MAX)
		return SD_REJECT(DOCA_ERROR_TOO_BIG, COMP, "doca_buf_inc_refcount: buf %p is at the maximum count %u",
				 (void *)buf, UINT16_MAX);
	buf->refcount++;
	if (refcount != NULL)
		*refcount = buf->refcount;
	return DOCA_SUCCESS;
}

static void buf_release_list(struct doca_buf *head)
{
	struct doca_buf *b = head;

	while (b != NULL) {
		struct doca_buf *next = b->next;
		struct doca_buf_inventory *inv = b->inv;

		if (SD_UNLIKELY(inv->on_release != NULL))
			inv->on_release(inv->release_arg, b);
		atomic_fetch_sub_explicit(&b->mmap->nb_bufs, 1, memory_order_relaxed);
		b->mmap = NULL;
		b->is_head = 0;
		b->refcount = 0;
		b->list_len = 0;
		b->last = NULL;
		b->next = inv->free_list;
		inv->free_list = b;
		inv->nb_free++;
		b = next;
	}
}

DOCA_STABLE doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	doca_error_t ret;

	if (buf == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	ret = check_head(buf, "doca_buf_dec_refcount");
	if (ret != DOCA_SUCCESS)
		return ret;
	if (--buf->refcount == 0)
		buf_release_list(buf);
	if (refcount != NULL)
		*refcount = buf->refcount;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount)
{
	if (buf == NULL || refcount == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*refcount = buf->refcount;
	return DOCA_SUCCESS;
}

static doca_error_t chain(struct doca_buf *list1, struct doca_buf *list2, const char *call)
{
	doca_error_t ret;

	ret = check_head(list1, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (list2->mmap == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: buf %p was already released", call, (void *)list2);
	if (list1 == list2 || !list2->is_head || list2->refcount != 1)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: buf %p must be the head of another list with refcount 1 (it has %u%s)", call,
				 (void *)list2, list2->refcount, list2->is_head ? "" : ", and it is inside a list");
	list1->last->next = list2;
	list1->last = list2->last;
	list1->list_len += list2->list_len;
	list2->is_head = 0;
	list2->refcount = 0;
	list2->last = NULL;
	list2->list_len = 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	if (list1 == NULL || list2 == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return chain(list1, list2, "doca_buf_chain_list");
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_chain_list_tail(struct doca_buf *list1_head, struct doca_buf *list1_tail,
							struct doca_buf *list2)
{
	if (list1_head == NULL || list1_tail == NULL || list2 == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (list1_head->is_head && list1_head->last != list1_tail)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_chain_list_tail: %p is not the tail of list %p", (void *)list1_tail,
				 (void *)list1_head);
	return chain(list1_head, list2, "doca_buf_chain_list_tail");
}

DOCA_STABLE doca_error_t doca_buf_unchain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	struct doca_buf *prev;
	uint32_t idx = 1;
	doca_error_t ret;

	if (list1 == NULL || list2 == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	ret = check_head(list1, "doca_buf_unchain_list");
	if (ret != DOCA_SUCCESS)
		return ret;
	for (prev = list1; prev->next != NULL && prev->next != list2; prev = prev->next)
		idx++;
	if (prev->next != list2)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_unchain_list: buf %p is not in list %p",
				 (void *)list2, (void *)list1);
	prev->next = NULL;
	list2->is_head = 1;
	list2->refcount = 1;
	list2->last = list1->last;
	list2->list_len = list1->list_len - idx;
	list1->last = prev;
	list1->list_len = idx;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf)
{
	if (buf == NULL || next_buf == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*next_buf = buf->mmap ? buf->next : NULL;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf)
{
	struct doca_buf *b;

	if (buf == NULL || last_buf == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	for (b = buf; b->next != NULL; b = b->next)
		;
	*last_buf = b;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements)
{
	if (buf == NULL || num_elements == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf->is_head)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP, "doca_buf_get_list_len: buf %p is not a list head",
				 (const void *)buf);
	*num_elements = buf->list_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_is_first_in_list(const struct doca_buf *buf, uint8_t *is_first)
{
	if (buf == NULL || is_first == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*is_first = buf->is_head ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_is_last_in_list(const struct doca_buf *buf, uint8_t *is_last)
{
	if (buf == NULL || is_last == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*is_last = buf->next == NULL ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_is_in_list(const struct doca_buf *buf, uint8_t *is_in_list)
{
	if (buf == NULL || is_in_list == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*is_in_list = (buf->next != NULL || !buf->is_head) ? 1 : 0;
	return DOCA_SUCCESS;
}
