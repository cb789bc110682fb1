/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_buf.c - doca_buf_inventory pools and doca_buf descriptors: allocation rules, the
 * head/len/data/data_len windows, reference counts and buf lists.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_dev.h>
#include <doca_mmap.h>

#include "../common/sd_test.h"

#define MEM_LEN 4096

/* The map covers mem[0, MEM_LEN); the arena around it gives valid addresses just outside. */
static uint8_t arena[64 + MEM_LEN + 64];
#define mem (arena + 64)
static uint8_t other[256]; /* never part of a map */

static struct doca_mmap *make_mmap(struct doca_dev *dev, bool start)
{
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_set_memrange(m, mem, MEM_LEN));
	if (start)
		CHECK_OK(doca_mmap_start(m));
	return m;
}

static uint32_t nb_free(const struct doca_buf_inventory *inv)
{
	uint32_t n = UINT32_MAX;

	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	return n;
}

static uint32_t nb_bufs(const struct doca_mmap *m)
{
	uint32_t n = UINT32_MAX;

	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	return n;
}

static uint16_t refcount(const struct doca_buf *b)
{
	uint16_t r = 0xdead;

	CHECK_OK(doca_buf_get_refcount(b, &r));
	return r;
}

static void check_windows(const struct doca_buf *b, void *head, size_t len, void *data, size_t data_len)
{
	void *p = NULL;
	size_t n = SIZE_MAX;

	CHECK_OK(doca_buf_get_head(b, &p));
	CHECK(p == head);
	CHECK_OK(doca_buf_get_len(b, &n));
	CHECK(n == len);
	CHECK_OK(doca_buf_get_data(b, &p));
	CHECK(p == data);
	CHECK_OK(doca_buf_get_data_len(b, &n));
	CHECK(n == data_len);
}

static void test_inventory(struct doca_dev *dev)
{
	struct doca_buf_inventory *inv = NULL;
	struct doca_mmap *m = make_mmap(dev, false);
	struct doca_buf *b = NULL;
	uint32_t n = 0;

	CHECK_ERR(doca_buf_inventory_create(0, &inv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_create(4, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_inventory_create(3, &inv));
	CHECK_OK(doca_buf_inventory_get_num_elements(inv, &n));
	CHECK(n == 3);
	CHECK(nb_free(inv) == 3);
	CHECK_ERR(doca_buf_inventory_get_num_elements(inv, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_get_num_free_elements(inv, NULL), DOCA_ERROR_INVALID_VALUE);

	/* Inventory not started (the mmap is not either: the inventory is named first). */
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &b), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_ERR(doca_buf_inventory_start(inv), DOCA_ERROR_BAD_STATE);
	/* Mmap not started. */
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &b), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(inv, m, mem, 64, &b), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_start(m));
	/* Inventory started, mmap started, but the inventory stopped again. */
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &b), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK(nb_free(inv) == 3);
	CHECK(nb_bufs(m) == 0);

	/* Outside the map. */
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, other, 64, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem - 1, 64, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, MEM_LEN + 1, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem + MEM_LEN - 10, 11, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 1, SIZE_MAX, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(inv, m, mem + MEM_LEN, 1, &b), DOCA_ERROR_INVALID_VALUE);
	/* Data window outside the buf's region (but inside the map). */
	CHECK_ERR(doca_buf_inventory_buf_get_by_args(inv, m, mem + 64, 64, mem, 8, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_args(inv, m, mem + 64, 64, mem + 120, 16, &b),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(NULL, m, mem, 64, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, NULL, mem, 64, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, NULL), DOCA_ERROR_INVALID_VALUE);
	/* No failed call consumed a descriptor. */
	CHECK(nb_free(inv) == 3);
	CHECK(nb_bufs(m) == 0);

	/* The whole map, and the last byte, are inside. */
	struct doca_buf *x[4];

	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, MEM_LEN, &x[0]));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + MEM_LEN - 1, 1, &x[1]));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 1, &x[2]));
	CHECK(x[0] != x[1] && x[1] != x[2] && x[0] != x[2]);
	CHECK(nb_free(inv) == 0);
	CHECK(nb_bufs(m) == 3);
	/* Exhausted. */
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &x[3]), DOCA_ERROR_NO_MEMORY);
	CHECK_ERR(doca_buf_inventory_destroy(inv), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_buf_dec_refcount(x[1], NULL));
	CHECK(nb_free(inv) == 1);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &x[3]));
	CHECK(nb_free(inv) == 0);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &x[1]), DOCA_ERROR_NO_MEMORY);

	CHECK_OK(doca_buf_dec_refcount(x[0], NULL));
	CHECK_OK(doca_buf_dec_refcount(x[2], NULL));
	CHECK_ERR(doca_buf_inventory_destroy(inv), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_buf_dec_refcount(x[3], NULL));
	CHECK(nb_free(inv) == 3);
	CHECK(nb_bufs(m) == 0);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_ERR(doca_buf_inventory_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_windows(struct doca_buf_inventory *inv, struct doca_mmap *m)
{
	struct doca_buf *a, *d, *g;

	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 100, 200, &a));
	check_windows(a, mem + 100, 200, mem + 100, 0);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + 1000, 300, &d));
	check_windows(d, mem + 1000, 300, mem + 1000, 300);
	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem + 2000, 100, mem + 2010, 50, &g));
	check_windows(g, mem + 2000, 100, mem + 2010, 50);

	/* set_data: the window must stay inside [head, head+len). */
	CHECK_OK(doca_buf_set_data(a, mem + 150, 50));
	check_windows(a, mem + 100, 200, mem + 150, 50);
	CHECK_OK(doca_buf_set_data(a, mem + 100, 200));
	check_windows(a, mem + 100, 200, mem + 100, 200);
	CHECK_OK(doca_buf_set_data(a, mem + 300, 0)); /* empty window at the very end */
	check_windows(a, mem + 100, 200, mem + 300, 0);
	CHECK_ERR(doca_buf_set_data(a, mem + 99, 10), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(a, mem + 250, 51), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(a, mem + 301, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(a, mem + 100, 201), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(a, mem + 150, SIZE_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(a, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(NULL, mem + 150, 1), DOCA_ERROR_INVALID_VALUE);
	/* Refused calls change nothing. */
	check_windows(a, mem + 100, 200, mem + 300, 0);

	/* set_data_len keeps the data pointer; bounded by the region end. */
	CHECK_OK(doca_buf_set_data(a, mem + 150, 10));
	CHECK_OK(doca_buf_set_data_len(a, 150));
	check_windows(a, mem + 100, 200, mem + 150, 150);
	CHECK_ERR(doca_buf_set_data_len(a, 151), DOCA_ERROR_INVALID_VALUE);
	check_windows(a, mem + 100, 200, mem + 150, 150);
	CHECK_OK(doca_buf_set_data_len(a, 0));
	check_windows(a, mem + 100, 200, mem + 150, 0);

	/* reset_data_len: data_len 0, data pointer kept. */
	CHECK_OK(doca_buf_reset_data_len(d));
	check_windows(d, mem + 1000, 300, mem + 1000, 0);
	CHECK_OK(doca_buf_reset_data_len(g));
	check_windows(g, mem + 2000, 100, mem + 2010, 0);
	CHECK_ERR(doca_buf_reset_data_len(NULL), DOCA_ERROR_INVALID_VALUE);

	/* Getters refuse NULL. */
	void *p;
	size_t n;

	CHECK_ERR(doca_buf_get_head(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_head(a, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_len(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_data(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_data_len(NULL, &n), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_buf_dec_refcount(a, NULL));
	CHECK_OK(doca_buf_dec_refcount(d, NULL));
	CHECK_OK(doca_buf_dec_refcount(g, NULL));
}

static void test_refcount(struct doca_buf_inventory *inv, struct doca_mmap *m)
{
	uint32_t free0 = nb_free(inv);
	struct doca_buf *b, *c;
	uint16_t r = 0;

	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 16, &b));
	CHECK(refcount(b) == 1);
	CHECK(nb_free(inv) == free0 - 1);
	CHECK_OK(doca_buf_inc_refcount(b, &r));
	CHECK(r == 2);
	CHECK_OK(doca_buf_inc_refcount(b, &r));
	CHECK(r == 3);
	CHECK(refcount(b) == 3);
	CHECK_OK(doca_buf_inc_refcount(b, NULL));
	CHECK(refcount(b) == 4);
	CHECK_OK(doca_buf_dec_refcount(b, &r));
	CHECK(r == 3);
	CHECK_OK(doca_buf_dec_refcount(b, &r));
	CHECK(r == 2);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	CHECK(refcount(b) == 1);
	CHECK(nb_free(inv) == free0 - 1);
	CHECK(nb_bufs(m) == 1);
	r = 0xffff;
	CHECK_OK(doca_buf_dec_refcount(b, &r));
	CHECK(r == 0);
	/* At 0 the descriptor is back in its inventory. */
	CHECK(nb_free(inv) == free0);
	CHECK(nb_bufs(m) == 0);
	/* A released buf is refused, not counted below zero. */
	CHECK_ERR(doca_buf_dec_refcount(b, &r), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_inc_refcount(b, &r), DOCA_ERROR_BAD_STATE);
	CHECK(nb_free(inv) == free0);
	CHECK(nb_bufs(m) == 0);
	CHECK_ERR(doca_buf_inc_refcount(NULL, &r), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_dec_refcount(NULL, &r), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_refcount(NULL, &r), DOCA_ERROR_INVALID_VALUE);

	/* The count saturates at UINT16_MAX with TOO_BIG. */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 16, &c));
	for (uint32_t i = 1; i < UINT16_MAX; i++)
		CHECK_OK(doca_buf_inc_refcount(c, NULL));
	CHECK(refcount(c) == UINT16_MAX);
	CHECK_ERR(doca_buf_inc_refcount(c, &r), DOCA_ERROR_TOO_BIG);
	CHECK(refcount(c) == UINT16_MAX);
	for (uint32_t i = 1; i < UINT16_MAX; i++)
		CHECK_OK(doca_buf_dec_refcount(c, NULL));
	CHECK(refcount(c) == 1);
	CHECK(nb_free(inv) == free0 - 1);
	CHECK_OK(doca_buf_dec_refcount(c, NULL));
	CHECK(nb_free(inv) == free0);
}

static uint32_t list_len(const struct doca_buf *b)
{
	uint32_t n = 0;

	CHECK_OK(doca_buf_get_list_len(b, &n));
	return n;
}

static void check_flags(const struct doca_buf *b, uint8_t first, uint8_t last, uint8_t in_list)
{
	uint8_t v = 0xff;

	CHECK_OK(doca_buf_is_first_in_list(b, &v));
	CHECK(v == first);
	CHECK_OK(doca_buf_is_last_in_list(b, &v));
	CHECK(v == last);
	CHECK_OK(doca_buf_is_in_list(b, &v));
	CHECK(v == in_list);
}

static struct doca_buf *next_of(struct doca_buf *b)
{
	struct doca_buf *n = (struct doca_buf *)&n;

	CHECK_OK(doca_buf_get_next_in_list(b, &n));
	return n;
}

static struct doca_buf *last_of(struct doca_buf *b)
{
	struct doca_buf *n = NULL;

	CHECK_OK(doca_buf_get_last_in_list(b, &n));
	return n;
}

static void test_lists(struct doca_buf_inventory *inv, struct doca_mmap *m)
{
	uint32_t free0 = nb_free(inv);
	struct doca_buf *b[6];
	uint16_t r;

	for (int i = 0; i < 6; i++)
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + 100 * i, 10, &b[i]));
	CHECK(nb_free(inv) == free0 - 6);

	/* A lone buf is a list of one. */
	CHECK(list_len(b[0]) == 1);
	check_flags(b[0], 1, 1, 0);
	CHECK(next_of(b[0]) == NULL);
	CHECK(last_of(b[0]) == b[0]);

	/* b0 -> b1 -> b2 */
	CHECK_OK(doca_buf_chain_list(b[0], b[1]));
	CHECK_OK(doca_buf_chain_list(b[0], b[2]));
	CHECK(list_len(b[0]) == 3);
	check_flags(b[0], 1, 0, 1);
	check_flags(b[1], 0, 0, 1);
	check_flags(b[2], 0, 1, 1);
	CHECK(next_of(b[0]) == b[1]);
	CHECK(next_of(b[1]) == b[2]);
	CHECK(next_of(b[2]) == NULL);
	CHECK(last_of(b[0]) == b[2]);
	CHECK(last_of(b[1]) == b[2]);
	/* Chaining kept every element's windows. */
	check_windows(b[1], mem + 100, 10, mem + 100, 10);

	/* list2 must be a head with refcount 1. */
	CHECK_OK(doca_buf_inc_refcount(b[3], &r));
	CHECK(r == 2);
	CHECK_ERR(doca_buf_chain_list(b[0], b[3]), DOCA_ERROR_NOT_PERMITTED);
	CHECK(list_len(b[0]) == 3);
	check_flags(b[3], 1, 1, 0);
	CHECK_OK(doca_buf_dec_refcount(b[3], &r));
	CHECK(r == 1);
	CHECK_ERR(doca_buf_chain_list(b[0], b[1]), DOCA_ERROR_NOT_PERMITTED); /* already inside */
	CHECK_ERR(doca_buf_chain_list(b[0], b[0]), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_buf_chain_list(NULL, b[3]), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_chain_list(b[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(list_len(b[0]) == 3);

	/* The head carries the count: inner elements refuse inc/dec. */
	CHECK_ERR(doca_buf_inc_refcount(b[1], &r), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_buf_dec_refcount(b[2], &r), DOCA_ERROR_NOT_PERMITTED);
	CHECK(nb_free(inv) == free0 - 6);
	CHECK_OK(doca_buf_inc_refcount(b[0], &r));
	CHECK(r == 2);
	/* A list with refcount 2 cannot be appended to another list. */
	CHECK_ERR(doca_buf_chain_list(b[3], b[0]), DOCA_ERROR_NOT_PERMITTED);
	CHECK(list_len(b[3]) == 1);
	CHECK_OK(doca_buf_dec_refcount(b[0], &r));
	CHECK(r == 1);

	/* Chaining a list of two onto a list of three: b0 b1 b2 b3 b4. */
	CHECK_OK(doca_buf_chain_list(b[3], b[4]));
	CHECK(list_len(b[3]) == 2);
	CHECK_OK(doca_buf_chain_list(b[0], b[3]));
	CHECK(list_len(b[0]) == 5);
	CHECK(next_of(b[2]) == b[3]);
	CHECK(next_of(b[3]) == b[4]);
	CHECK(last_of(b[0]) == b[4]);
	check_flags(b[3], 0, 0, 1);
	check_flags(b[4], 0, 1, 1);

	/* Split before b3: b0 b1 b2 | b3 b4. */
	CHECK_ERR(doca_buf_unchain_list(b[0], b[5]), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_unchain_list(b[0], b[3]));
	CHECK(list_len(b[0]) == 3);
	CHECK(list_len(b[3]) == 2);
	CHECK(refcount(b[3]) == 1);
	CHECK(last_of(b[0]) == b[2]);
	CHECK(last_of(b[3]) == b[4]);
	check_flags(b[2], 0, 1, 1);
	check_flags(b[3], 1, 0, 1);
	CHECK(next_of(b[2]) == NULL);
	/* The tail tracking of list1 followed the split: appending lands after b2. */
	CHECK_OK(doca_buf_chain_list(b[0], b[5]));
	CHECK(next_of(b[2]) == b[5]);
	CHECK(list_len(b[0]) == 4);
	/* Split at the second element: b0 | b1 b2 b5. */
	CHECK_OK(doca_buf_unchain_list(b[0], b[1]));
	CHECK(list_len(b[0]) == 1);
	check_flags(b[0], 1, 1, 0);
	CHECK(list_len(b[1]) == 3);
	CHECK(last_of(b[1]) == b[5]);
	CHECK(refcount(b[1]) == 1);

	/* chain_list_tail with the real tail, then with a wrong one. */
	CHECK_ERR(doca_buf_chain_list_tail(b[1], b[2], b[0]), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_chain_list_tail(b[1], b[5], b[0]));
	CHECK(list_len(b[1]) == 4);
	CHECK(last_of(b[1]) == b[0]);

	/* Releasing a head releases the whole list: b1 b2 b5 b0 back, b3 b4 still out. */
	CHECK(nb_free(inv) == free0 - 6);
	CHECK(nb_bufs(m) == 6);
	CHECK_OK(doca_buf_dec_refcount(b[1], &r));
	CHECK(r == 0);
	CHECK(nb_free(inv) == free0 - 2);
	CHECK(nb_bufs(m) == 2);
	CHECK_OK(doca_buf_inc_refcount(b[3], NULL));
	CHECK_OK(doca_buf_dec_refcount(b[3], &r));
	CHECK(r == 1);
	CHECK(nb_free(inv) == free0 - 2);
	CHECK_OK(doca_buf_dec_refcount(b[3], NULL));
	CHECK(nb_free(inv) == free0);
	CHECK(nb_bufs(m) == 0);
	CHECK_ERR(doca_buf_dec_refcount(b[4], NULL), DOCA_ERROR_BAD_STATE);
}

static void test_dup(struct doca_buf_inventory *inv, struct doca_mmap *m)
{
	uint32_t free0 = nb_free(inv);
	struct doca_buf *src, *dup = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem + 512, 256, mem + 520, 100, &src));
	CHECK_OK(doca_buf_inc_refcount(src, NULL));
	CHECK_OK(doca_buf_inventory_buf_dup(inv, src, &dup));
	CHECK(dup != NULL && dup != src);
	check_windows(dup, mem + 512, 256, mem + 520, 100);
	CHECK(refcount(dup) == 1); /* a new buf, not a new reference */
	CHECK(refcount(src) == 2);
	CHECK(nb_free(inv) == free0 - 2);
	CHECK(nb_bufs(m) == 2);
	/* Independent windows. */
	CHECK_OK(doca_buf_set_data(dup, mem + 512, 8));
	check_windows(src, mem + 512, 256, mem + 520, 100);
	CHECK_ERR(doca_buf_inventory_buf_dup(inv, NULL, &dup), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_dec_refcount(dup, NULL));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK(nb_free(inv) == free0);
	CHECK(nb_bufs(m) == 0);

	/* Dup into another inventory, from an exhausted one. */
	struct doca_buf_inventory *inv2;
	struct doca_buf *x;

	inv2 = sd_inventory(1);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv2, m, mem, 32, &x));
	CHECK_ERR(doca_buf_inventory_buf_dup(inv2, x, &dup), DOCA_ERROR_NO_MEMORY);
	CHECK_OK(doca_buf_inventory_buf_dup(inv, x, &dup));
	check_windows(dup, mem, 32, mem, 32);
	CHECK(nb_bufs(m) == 2);
	CHECK_ERR(doca_buf_inventory_destroy(inv2), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_buf_dec_refcount(x, NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv2));
	CHECK_OK(doca_buf_dec_refcount(dup, NULL));
	CHECK(nb_bufs(m) == 0);
}

int main(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *m;
	struct doca_dev *dev;

	sd_setenv("SOFTDOCA_CONFIG", NULL);
	dev = sd_open_dev("03:00.0");
	test_inventory(dev);

	inv = sd_inventory(16);
	m = make_mmap(dev, true);
	test_windows(inv, m);
	test_refcount(inv, m);
	test_lists(inv, m);
	test_dup(inv, m);
	CHECK(nb_free(inv) == 16);
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_dev_close(dev));
	printf("test_buf: ok\n");
	return T_EXIT_PASS;
}
