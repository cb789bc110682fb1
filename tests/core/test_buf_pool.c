/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_buf_pool.c - doca_buf_pool: the lifecycle and each refusal with its code and its log
 * line, exhaustion (EMPTY, logged once) and reuse of the released element, the element layout
 * with and without alignment, the windows of an allocated buf, reference counts and lists with
 * inventory bufs, and pool bufs as the source and destination of a DMA memcpy on the inline
 * engine.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_buf_pool.h>
#include <doca_dma.h>
#include <doca_mmap.h>

#include "../dma/dma_test.h"

#define NB_ELEMS  8
#define ELEM_SIZE 256
#define MEM_LEN	  (NB_ELEMS * ELEM_SIZE)

/* Page-aligned, with room for a deliberately misaligned map in the alignment case. */
static uint8_t mem[MEM_LEN + 4096] __attribute__((aligned(4096)));

static struct doca_dev *dev;

/* An mmap over [addr, addr+len) for the DMA device; started when @start. */
static struct doca_mmap *make_mmap(void *addr, size_t len, bool start)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create(&m) != DOCA_SUCCESS || doca_mmap_add_dev(m, dev) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) != DOCA_SUCCESS ||
	    (addr != NULL && doca_mmap_set_memrange(m, addr, len) != DOCA_SUCCESS) ||
	    (start && doca_mmap_start(m) != DOCA_SUCCESS)) {
		fprintf(stderr, "cannot set up an mmap over %zu bytes\n", len);
		exit(T_EXIT_FAIL);
	}
	return m;
}

static uint32_t nb_free(const struct doca_buf_pool *pool)
{
	uint32_t n = UINT32_MAX;

	if (doca_buf_pool_get_num_free_elements(pool, &n) != DOCA_SUCCESS)
		return UINT32_MAX;
	return n;
}

static uint32_t mmap_bufs(const struct doca_mmap *m)
{
	uint32_t n = UINT32_MAX;

	if (doca_mmap_get_num_bufs(m, &n) != DOCA_SUCCESS)
		return UINT32_MAX;
	return n;
}

/* The buf covers [head, head+len) with an empty data window at head. */
static int check_fresh(const struct doca_buf *b, const void *head, size_t len)
{
	void *p = NULL;
	size_t n = SIZE_MAX;
	uint16_t rc = 0;

	CHECK_OK(doca_buf_get_head(b, &p));
	CHECK(p == head);
	CHECK_OK(doca_buf_get_len(b, &n));
	CHECK_EQ(n, len);
	CHECK_OK(doca_buf_get_data(b, &p));
	CHECK(p == head);
	CHECK_OK(doca_buf_get_data_len(b, &n));
	CHECK_EQ(n, 0);
	CHECK_OK(doca_buf_get_refcount(b, &rc));
	CHECK_EQ(rc, 1);
	return 0;
}

static int test_create_refusals(void)
{
	struct doca_mmap *m = make_mmap(mem, MEM_LEN, true);
	struct doca_mmap *no_range = make_mmap(NULL, 0, false);
	struct doca_buf_pool *pool = NULL;
	off_t mark;

	mark = log_mark();
	CHECK_ERR(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE, m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_create", "NULL output argument");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE, NULL, &pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_create", "NULL mmap");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_create(0, ELEM_SIZE, m, &pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_create", "0 elements of 256 bytes", "must be > 0");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_create(NB_ELEMS, 0, m, &pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_create", "8 elements of 0 bytes", "must be > 0");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_create((size_t)UINT32_MAX + 1, 1, m, &pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_create", "4294967296 elements", "maximum");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE, no_range, &pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_create", "no memory range", "doca_mmap_set_memrange");
	/* One byte too many, and a product that wraps around. */
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE + 1, m, &pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_create", "8 elements of 257 bytes", "2048 bytes of mmap");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_create(2, SIZE_MAX / 2 + 1, m, &pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_create", "2048 bytes of mmap");
	CHECK(pool == NULL);
	/* Exactly num * size fits. */
	CHECK_OK(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE, m, &pool));
	CHECK_OK(doca_buf_pool_destroy(pool));
	CHECK_OK(doca_mmap_destroy(no_range));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
	return 0;
}

static int test_lifecycle(void)
{
	struct doca_mmap *m = make_mmap(mem, MEM_LEN, false);
	struct doca_buf_pool *pool = NULL;
	struct doca_buf *b = NULL;
	union doca_data ud = {.u64 = 77};
	size_t align = 0;
	uint32_t n = 0;
	off_t mark;

	/* A pool may be created over a stopped map; it must be started before the pool. */
	CHECK_OK(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE, m, &pool));
	CHECK_OK(doca_buf_pool_get_num_elements(pool, &n));
	CHECK_EQ(n, NB_ELEMS);
	CHECK_EQ(nb_free(pool), NB_ELEMS);
	CHECK_OK(doca_buf_pool_get_element_alignment(pool, &align));
	CHECK_EQ(align, 1);
	CHECK_OK(doca_buf_pool_get_user_data(pool, &ud));
	CHECK_EQ(ud.u64, 0);

	mark = log_mark();
	CHECK_ERR(doca_buf_pool_buf_alloc(pool, &b), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "doca_buf_pool_buf_alloc", "is not started", "doca_buf_pool_start");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_start(pool), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "doca_buf_pool_start", "is not started", "doca_mmap_start");
	CHECK_OK(doca_mmap_start(m));

	mark = log_mark();
	CHECK_ERR(doca_buf_pool_set_element_alignment(pool, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_set_element_alignment", "alignment 0 is not a power of 2");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_set_element_alignment(pool, 48), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_set_element_alignment", "alignment 48 is not a power of 2");
	/* 256-byte elements at a 512 alignment need 7 * 512 + 256 bytes, the map has 2048. */
	CHECK_OK(doca_buf_pool_set_element_alignment(pool, 512));
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_start(pool), DOCA_ERROR_INITIALIZATION);
	CHECK_LOG(mark, "doca_buf_pool_start", "8 elements of 256 bytes aligned to 512 do not fit", "2048 bytes");
	CHECK_OK(doca_buf_pool_set_element_alignment(pool, 256));
	ud.u64 = 42;
	CHECK_OK(doca_buf_pool_set_user_data(pool, ud));

	CHECK_OK(doca_buf_pool_start(pool));
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_start(pool), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "doca_buf_pool_start", "already started");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_set_element_alignment(pool, 64), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "doca_buf_pool_set_element_alignment", "is started");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_set_user_data(pool, ud), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "doca_buf_pool_set_user_data", "is started");
	ud.u64 = 0;
	CHECK_OK(doca_buf_pool_get_user_data(pool, &ud));
	CHECK_EQ(ud.u64, 42);
	CHECK_OK(doca_buf_pool_get_element_alignment(pool, &align));
	CHECK_EQ(align, 256);

	CHECK_OK(doca_buf_pool_buf_alloc(pool, &b));
	CHECK_EQ(mmap_bufs(m), 1);
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_stop(pool), DOCA_ERROR_IN_USE);
	CHECK_LOG(mark, "doca_buf_pool_stop", "still has 1 of 8 buf(s) out", "doca_buf_dec_refcount");
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_destroy(pool), DOCA_ERROR_IN_USE);
	CHECK_LOG(mark, "doca_buf_pool_destroy", "still has 1 of 8 buf(s) out");
	/* The pool's buf keeps its map from stopping, as any buf does. */
	CHECK_ERR(doca_mmap_stop(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_EQ(mmap_bufs(m), 0);
	CHECK_EQ(nb_free(pool), NB_ELEMS);

	/* A pool whose map stopped refuses to allocate until the map is back. */
	CHECK_OK(doca_mmap_stop(m));
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_buf_alloc(pool, &b), DOCA_ERROR_BAD_STATE);
	CHECK_LOG(mark, "doca_buf_pool_buf_alloc", "is stopped", "keep the mmap started");
	CHECK_OK(doca_mmap_start(m));

	CHECK_OK(doca_buf_pool_stop(pool));
	CHECK_OK(doca_buf_pool_stop(pool)); /* already stopped: nothing to do */
	CHECK_ERR(doca_buf_pool_buf_alloc(pool, &b), DOCA_ERROR_BAD_STATE);
	/* Stopped again, properties may change and the pool restart. */
	CHECK_OK(doca_buf_pool_set_element_alignment(pool, 1));
	CHECK_OK(doca_buf_pool_start(pool));
	/* destroy stops implicitly. */
	CHECK_OK(doca_buf_pool_destroy(pool));

	/* NULL arguments. */
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_destroy", "NULL buf pool");
	CHECK_ERR(doca_buf_pool_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_buf_alloc(NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_buf_alloc", "NULL buf pool");
	CHECK_ERR(doca_buf_pool_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_set_element_alignment(NULL, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_num_elements(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_num_free_elements(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_element_alignment(NULL, &align), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE, m, &pool));
	CHECK_ERR(doca_buf_pool_get_num_elements(pool, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_num_free_elements(pool, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_user_data(pool, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_element_alignment(pool, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_pool_start(pool));
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_buf_alloc(pool, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, "doca_buf_pool_buf_alloc", "NULL output argument");
	CHECK_OK(doca_buf_pool_destroy(pool));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
	return 0;
}

static bool no_pool_line_since(off_t mark)
{
	char *text = log_since(mark);
	bool none = text != NULL && strstr(text, "buf_pool") == NULL;

	free(text);
	return none;
}

static int test_exhaustion(void)
{
	struct doca_mmap *m = make_mmap(mem, MEM_LEN, true);
	struct doca_buf_pool *pool = NULL;
	struct doca_buf *b[NB_ELEMS], *again = NULL, *extra = NULL;
	off_t mark;

	CHECK_OK(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE, m, &pool));
	CHECK_OK(doca_buf_pool_start(pool));
	/* A fresh pool hands out its elements in order, one after the other from the range start. */
	for (uint32_t i = 0; i < NB_ELEMS; i++) {
		CHECK_OK(doca_buf_pool_buf_alloc(pool, &b[i]));
		if (check_fresh(b[i], mem + (size_t)i * ELEM_SIZE, ELEM_SIZE) != 0)
			return T_EXIT_FAIL;
		CHECK_EQ(nb_free(pool), NB_ELEMS - 1 - i);
	}
	CHECK_EQ(mmap_bufs(m), NB_ELEMS);

	mark = log_mark();
	CHECK_ERR(doca_buf_pool_buf_alloc(pool, &extra), DOCA_ERROR_EMPTY);
	CHECK_LOG(mark, "doca_buf_pool_buf_alloc", "is empty (all 8 bufs out)", "doca_buf_dec_refcount");
	CHECK(extra == NULL);
	/* Again and again while empty: no more lines. */
	mark = log_mark();
	for (int i = 0; i < 100; i++)
		CHECK_ERR(doca_buf_pool_buf_alloc(pool, &extra), DOCA_ERROR_EMPTY);
	CHECK(no_pool_line_since(mark));

	/* The released element is the one handed out next. */
	CHECK_OK(doca_buf_dec_refcount(b[5], NULL));
	CHECK_EQ(nb_free(pool), 1);
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &again));
	CHECK(again == b[5]);
	if (check_fresh(again, mem + 5 * ELEM_SIZE, ELEM_SIZE) != 0)
		return T_EXIT_FAIL;
	b[5] = again;
	/* A new episode of exhaustion is logged again. */
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_buf_alloc(pool, &extra), DOCA_ERROR_EMPTY);
	CHECK_LOG(mark, "doca_buf_pool_buf_alloc", "is empty");

	/* A buf that was used comes back reset: data at the element's start, data_len 0. */
	CHECK_OK(doca_buf_set_data(b[2], mem + 2 * ELEM_SIZE + 10, 20));
	CHECK_OK(doca_buf_dec_refcount(b[2], NULL));
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &b[2]));
	if (check_fresh(b[2], mem + 2 * ELEM_SIZE, ELEM_SIZE) != 0)
		return T_EXIT_FAIL;

	for (uint32_t i = 0; i < NB_ELEMS; i++)
		CHECK_OK(doca_buf_dec_refcount(b[i], NULL));
	CHECK_EQ(nb_free(pool), NB_ELEMS);
	CHECK_EQ(mmap_bufs(m), 0);
	CHECK_OK(doca_buf_pool_stop(pool));
	CHECK_OK(doca_buf_pool_destroy(pool));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
	return 0;
}

static int test_alignment(void)
{
	/* A map that starts 3 bytes past a page, 100-byte elements at 64: stride 128, 61 bytes lead. */
	uint8_t *base = mem + 3;
	size_t len = 61 + 4 * 128 + 100;
	struct doca_mmap *m = make_mmap(base, len, true);
	struct doca_buf_pool *pool = NULL;
	struct doca_buf *b[5];
	off_t mark;

	CHECK_OK(doca_buf_pool_create(5, 100, m, &pool));
	CHECK_OK(doca_buf_pool_set_element_alignment(pool, 64));
	CHECK_OK(doca_buf_pool_start(pool));
	for (uint32_t i = 0; i < 5; i++) {
		void *head = NULL;

		CHECK_OK(doca_buf_pool_buf_alloc(pool, &b[i]));
		if (check_fresh(b[i], mem + 64 + (size_t)i * 128, 100) != 0)
			return T_EXIT_FAIL;
		CHECK_OK(doca_buf_get_head(b[i], &head));
		CHECK_EQ((uintptr_t)head % 64, 0);
	}
	/* The last element ends exactly at the end of the map. */
	CHECK(mem + 64 + 4 * 128 + 100 == base + len);
	for (uint32_t i = 0; i < 5; i++)
		CHECK_OK(doca_buf_dec_refcount(b[i], NULL));
	CHECK_OK(doca_buf_pool_stop(pool));
	/* One byte less of alignment room does not fit: 128 needs 125 bytes of lead. */
	CHECK_OK(doca_buf_pool_set_element_alignment(pool, 128));
	mark = log_mark();
	CHECK_ERR(doca_buf_pool_start(pool), DOCA_ERROR_INITIALIZATION);
	CHECK_LOG(mark, "doca_buf_pool_start", "5 elements of 100 bytes aligned to 128 do not fit");
	/* A huge alignment neither wraps nor fits. */
	CHECK_OK(doca_buf_pool_set_element_alignment(pool, (SIZE_MAX >> 1) + 1));
	CHECK_ERR(doca_buf_pool_start(pool), DOCA_ERROR_INITIALIZATION);
	CHECK_OK(doca_buf_pool_destroy(pool));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
	return 0;
}

static int test_refcount_and_lists(void)
{
	struct doca_mmap *m = make_mmap(mem, MEM_LEN, true);
	struct doca_buf_inventory *inv = sd_inventory(2);
	struct doca_buf_pool *pool = NULL;
	struct doca_buf *a = NULL, *b = NULL, *c = NULL, *dup = NULL;
	uint16_t rc = 0;
	uint32_t n = 0;

	CHECK_OK(doca_buf_pool_create(NB_ELEMS, ELEM_SIZE, m, &pool));
	CHECK_OK(doca_buf_pool_start(pool));
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &a));
	CHECK_OK(doca_buf_inc_refcount(a, &rc));
	CHECK_EQ(rc, 2);
	CHECK_OK(doca_buf_dec_refcount(a, &rc));
	CHECK_EQ(rc, 1);
	CHECK_EQ(nb_free(pool), NB_ELEMS - 1);
	CHECK_OK(doca_buf_dec_refcount(a, &rc));
	CHECK_EQ(rc, 0);
	CHECK_EQ(nb_free(pool), NB_ELEMS);
	/* A released pool buf is recognised as such. */
	CHECK_ERR(doca_buf_dec_refcount(a, NULL), DOCA_ERROR_BAD_STATE);

	/* A list of two pool bufs and an inventory buf: each element goes home on the last release. */
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &a));
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &b));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + 3 * ELEM_SIZE, 16, &c));
	CHECK_OK(doca_buf_chain_list(a, b));
	CHECK_OK(doca_buf_chain_list(a, c));
	CHECK_OK(doca_buf_get_list_len(a, &n));
	CHECK_EQ(n, 3);
	/* A duplicate in another inventory is independent of the pool. */
	CHECK_OK(doca_buf_inventory_buf_dup(inv, a, &dup));
	CHECK_EQ(mmap_bufs(m), 4);
	CHECK_OK(doca_buf_inc_refcount(a, NULL));
	CHECK_OK(doca_buf_dec_refcount(a, NULL));
	CHECK_EQ(nb_free(pool), NB_ELEMS - 2);
	CHECK_OK(doca_buf_dec_refcount(a, NULL));
	CHECK_EQ(nb_free(pool), NB_ELEMS);
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	CHECK_EQ(n, 1);
	CHECK_OK(doca_buf_dec_refcount(dup, NULL));
	CHECK_EQ(mmap_bufs(m), 0);

	/* Unchained, the second pool buf is a list head of its own and goes back alone. */
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &a));
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &b));
	CHECK_OK(doca_buf_chain_list(a, b));
	CHECK_OK(doca_buf_unchain_list(a, b));
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_EQ(nb_free(pool), NB_ELEMS - 1);
	CHECK_OK(doca_buf_dec_refcount(a, NULL));
	CHECK_EQ(nb_free(pool), NB_ELEMS);

	CHECK_OK(doca_buf_pool_destroy(pool));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
	return 0;
}

/* Two elements of one pool as the source and the destination of a memcpy task. */
static int test_dma(void)
{
	struct dma_fix f;
	struct doca_buf_pool *pool = NULL;
	struct doca_buf *src = NULL, *dst = NULL;
	uint8_t want[1000];
	void *sdata = NULL, *ddata = NULL;
	size_t n = 0;

	if (fix_open(&f, NULL) != 0)
		return T_EXIT_FAIL;
	CHECK_OK(doca_buf_pool_create(64, 4096, f.mmap, &pool));
	CHECK_OK(doca_buf_pool_start(pool));
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &src));
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &dst));
	prng_fill(7, want, sizeof(want));
	CHECK_OK(doca_buf_get_data(src, &sdata));
	CHECK_OK(doca_buf_get_data(dst, &ddata));
	CHECK(sdata == f.arena && ddata == f.arena + 4096);
	memcpy(sdata, want, sizeof(want));
	CHECK_OK(doca_buf_set_data_len(src, sizeof(want)));
	CHECK_OK(fix_submit(&f, src, dst, 0, NULL));
	if (pe_wait_count(f.pe, &f.c.ok, 1) != 0)
		return T_EXIT_FAIL;
	CHECK_EQ(f.c.err, 0);
	CHECK_OK(doca_buf_get_data_len(dst, &n));
	CHECK_EQ(n, sizeof(want));
	CHECK_MEM(ddata, want, sizeof(want));
	/* Nothing written past the copied bytes. */
	CHECK_EQ(((uint8_t *)ddata)[sizeof(want)], GUARD);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_pool_stop(pool));
	CHECK_OK(doca_buf_pool_destroy(pool));
	return fix_close(&f);
}

static int open_dev(void)
{
	dev = sd_open_dma_dev();
	return 0;
}

int main(void)
{
	static const struct test_case cases[] = {
	    {"create refusals", test_create_refusals},	     {"lifecycle", test_lifecycle},
	    {"exhaustion and reuse", test_exhaustion},	     {"alignment", test_alignment},
	    {"refcount and lists", test_refcount_and_lists}, {"dma memcpy between pool bufs", test_dma},
	};
	int rc;

	/* Before the first DOCA call: these are read once per process. */
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	sd_setenv("SOFTDOCA_ENGINE", "inline");
	if (log_capture_init())
		return T_EXIT_FAIL;
	open_dev();
	rc = run_cases("core-buf-pool", cases, sizeof(cases) / sizeof(cases[0]));
	doca_dev_close(dev);
	return rc;
}
