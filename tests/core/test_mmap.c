/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_mmap.c - the doca_mmap lifecycle and every configuration rule of doca_mmap.h:
 * configuration only while stopped, one range, start needs a range, and stop/destroy refused
 * while bufs point into the map.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_dev.h>
#include <doca_mmap.h>

#include "../common/sd_test.h"

static char mem[4096];

static void test_lifecycle(struct doca_dev *dev)
{
	struct doca_mmap *m = NULL;
	union doca_data ud = {.u64 = 0};
	void *addr = NULL;
	size_t len = 0;

	CHECK_ERR(doca_mmap_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_create(&m));
	CHECK(m != NULL);
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	/* Device first, range second: order is free (samples/common.c adds the device first). */
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_get_memrange(m, &addr, &len));
	CHECK(addr == mem && len == sizeof(mem));
	ud.u64 = 0xfeedULL;
	CHECK_OK(doca_mmap_set_user_data(m, ud));
	CHECK_OK(doca_mmap_start(m));
	ud.u64 = 0;
	CHECK_OK(doca_mmap_get_user_data(m, &ud));
	CHECK(ud.u64 == 0xfeedULL);
	CHECK_OK(doca_mmap_get_memrange(m, &addr, &len));
	CHECK(addr == mem && len == sizeof(mem));
	CHECK_OK(doca_mmap_stop(m));
	/* A stopped map keeps its range and starts again. */
	CHECK_OK(doca_mmap_get_memrange(m, &addr, &len));
	CHECK(addr == mem && len == sizeof(mem));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));

	/* Destroy stops a started map itself. */
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_destroy(m));

	CHECK_ERR(doca_mmap_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_stop(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_memrange_rules(void)
{
	struct doca_mmap *m;
	void *addr = NULL;
	size_t len = 0;

	CHECK_OK(doca_mmap_create(&m));
	/* No range yet. */
	CHECK_ERR(doca_mmap_get_memrange(m, &addr, &len), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_get_memrange(m, NULL, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_start(m), DOCA_ERROR_INVALID_VALUE);

	CHECK_ERR(doca_mmap_set_memrange(m, NULL, sizeof(mem)), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_memrange(m, mem, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_memrange(m, (void *)(UINTPTR_MAX - 15), 32), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_memrange(NULL, mem, sizeof(mem)), DOCA_ERROR_INVALID_VALUE);
	/* The failed calls left no range behind. */
	CHECK_ERR(doca_mmap_get_memrange(m, &addr, &len), DOCA_ERROR_BAD_STATE);

	CHECK_ERR(doca_mmap_set_dmabuf_memrange(m, 3, mem, 0, sizeof(mem)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_mmap_get_memrange(m, &addr, &len), DOCA_ERROR_BAD_STATE);

	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	/* One range per map. */
	CHECK_ERR(doca_mmap_set_memrange(m, mem, sizeof(mem)), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_set_memrange(m, mem + 1, 16), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_get_memrange(m, &addr, &len));
	CHECK(addr == mem && len == sizeof(mem));

	CHECK_OK(doca_mmap_start(m));
	CHECK_ERR(doca_mmap_start(m), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_set_memrange(m, mem, sizeof(mem)), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_permission_rules(void)
{
	struct doca_mmap *m;
	union doca_data ud = {.u64 = 1};

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
						  DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC |
						  DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE |
						  DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING));
	CHECK_ERR(doca_mmap_set_permissions(m, 1u << 7), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_permissions(m, 1u << 31), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | (1u << 12)),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_permissions(NULL, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(m));
	CHECK_ERR(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_set_user_data(m, ud), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_OK(doca_mmap_set_user_data(m, ud));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_dev_rules(struct doca_dev *d0, struct doca_dev *d1, struct doca_dev *h0, struct doca_dev *h1)
{
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_ERR(doca_mmap_add_dev(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_add_dev(NULL, d0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_add_dev(m, d0));
	CHECK_ERR(doca_mmap_add_dev(m, d0), DOCA_ERROR_ALREADY_EXIST);

	/* rm_dev: only what was added, only while stopped. */
	CHECK_OK(doca_mmap_rm_dev(m, d0));
	CHECK_ERR(doca_mmap_rm_dev(m, d0), DOCA_ERROR_NOT_FOUND);
	CHECK_ERR(doca_mmap_rm_dev(m, d1), DOCA_ERROR_NOT_FOUND);
	CHECK_OK(doca_mmap_add_dev(m, d0)); /* removed, so it can come back */

	/* Device limit: lower it to 2, hit it, raise it. */
	CHECK_ERR(doca_mmap_set_max_num_devices(m, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_set_max_num_devices(m, 2));
	CHECK_OK(doca_mmap_add_dev(m, d1));
	CHECK_ERR(doca_mmap_add_dev(m, h0), DOCA_ERROR_NO_MEMORY);
	/* Below the number of devices already added. */
	CHECK_ERR(doca_mmap_set_max_num_devices(m, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_set_max_num_devices(m, 3));
	CHECK_OK(doca_mmap_add_dev(m, h0));
	CHECK_ERR(doca_mmap_add_dev(m, h1), DOCA_ERROR_NO_MEMORY);
	/* Removing one frees a slot. */
	CHECK_OK(doca_mmap_rm_dev(m, d1));
	CHECK_OK(doca_mmap_add_dev(m, h1));
	CHECK_ERR(doca_mmap_add_dev(m, d0), DOCA_ERROR_ALREADY_EXIST);

	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(m));
	CHECK_ERR(doca_mmap_add_dev(m, d1), DOCA_ERROR_NOT_PERMITTED);
	/* Even a device already in the map: the state is checked. */
	CHECK_ERR(doca_mmap_rm_dev(m, d0), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_set_max_num_devices(m, 8), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_stop(m));
	/* Stopped again: configurable, and the limit of 3 still holds. */
	CHECK_ERR(doca_mmap_add_dev(m, d1), DOCA_ERROR_NO_MEMORY);
	CHECK_OK(doca_mmap_rm_dev(m, d0));
	CHECK_OK(doca_mmap_add_dev(m, d1));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_bufs_block_stop(struct doca_dev *dev)
{
	struct doca_buf_inventory *inv;
	struct doca_buf *b1, *b2;
	struct doca_mmap *m;
	uint32_t nb = 99;
	void *addr;
	size_t len;

	inv = sd_inventory(4);
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_get_num_bufs(m, &nb));
	CHECK(nb == 0);
	CHECK_ERR(doca_mmap_get_num_bufs(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_start(m));

	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &b1));
	CHECK_OK(doca_mmap_get_num_bufs(m, &nb));
	CHECK(nb == 1);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + 128, 64, &b2));
	CHECK_OK(doca_mmap_get_num_bufs(m, &nb));
	CHECK(nb == 2);

	CHECK_ERR(doca_mmap_stop(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_destroy(m), DOCA_ERROR_NOT_PERMITTED);
	/* Refused stop left the map started and working. */
	CHECK_ERR(doca_mmap_start(m), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_get_memrange(m, &addr, &len));

	/* An extra reference keeps the buf (and the block) alive. */
	CHECK_OK(doca_buf_inc_refcount(b1, NULL));
	CHECK_OK(doca_buf_dec_refcount(b1, NULL));
	CHECK_OK(doca_mmap_get_num_bufs(m, &nb));
	CHECK(nb == 2);
	CHECK_ERR(doca_mmap_stop(m), DOCA_ERROR_NOT_PERMITTED);

	CHECK_OK(doca_buf_dec_refcount(b1, NULL));
	CHECK_OK(doca_mmap_get_num_bufs(m, &nb));
	CHECK(nb == 1);
	CHECK_ERR(doca_mmap_stop(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(b2, NULL));
	CHECK_OK(doca_mmap_get_num_bufs(m, &nb));
	CHECK(nb == 0);
	CHECK_OK(doca_mmap_stop(m));

	/* And again with destroy as the first teardown call. */
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, sizeof(mem), &b1));
	CHECK_ERR(doca_mmap_destroy(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(b1, NULL));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_buf_inventory_destroy(inv));
}

static void test_user_data(void)
{
	struct doca_mmap *m;
	union doca_data ud;

	CHECK_OK(doca_mmap_create(&m));
	ud.u64 = 77;
	CHECK_OK(doca_mmap_get_user_data(m, &ud));
	CHECK(ud.u64 == 0);
	ud.ptr = mem;
	CHECK_OK(doca_mmap_set_user_data(m, ud));
	ud.ptr = NULL;
	CHECK_OK(doca_mmap_get_user_data(m, &ud));
	CHECK(ud.ptr == mem);
	CHECK_ERR(doca_mmap_get_user_data(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_destroy(m));
}

int main(void)
{
	struct doca_dev *d0, *d1, *h0, *h1;

	sd_setenv("SOFTDOCA_CONFIG", NULL);
	d0 = sd_open_dev("03:00.0");
	d1 = sd_open_dev("03:00.1");
	h0 = sd_open_dev("b1:00.0");
	h1 = sd_open_dev("b1:00.1");

	test_lifecycle(d0);
	test_memrange_rules();
	test_permission_rules();
	test_dev_rules(d0, d1, h0, h1);
	test_bufs_block_stop(d0);
	test_user_data();

	CHECK_OK(doca_dev_close(h1));
	CHECK_OK(doca_dev_close(h0));
	CHECK_OK(doca_dev_close(d1));
	CHECK_OK(doca_dev_close(d0));
	printf("test_mmap: ok\n");
	return T_EXIT_PASS;
}
