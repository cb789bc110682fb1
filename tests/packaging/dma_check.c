/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A DOCA program as a user writes one, built by tests/packaging/check_debs.sh outside the tree
 * with nothing but `pkg-config --cflags --libs doca-dma doca-common` pointed at the installed
 * packages: copies a buffer into another with a DMA memcpy task on the first device that can,
 * and checks every byte. Prints "dma_check: copied N bytes, DOCA <compiled> (runtime <version>)".
 */
#include <stdio.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_version.h>

#define LEN 4096

static int state; /* 0 running, 1 done, -1 failed */

static void copied(struct doca_dma_task_memcpy *task, union doca_data task_data, union doca_data ctx_data)
{
	(void)task_data;
	(void)ctx_data;
	state = doca_task_get_status(doca_dma_task_memcpy_as_task(task)) == DOCA_SUCCESS ? 1 : -1;
}

static void failed(struct doca_dma_task_memcpy *task, union doca_data task_data, union doca_data ctx_data)
{
	(void)task;
	(void)task_data;
	(void)ctx_data;
	state = -1;
}

#define TRY(call)                                                                                                      \
	do {                                                                                                           \
		doca_error_t err_ = (call);                                                                            \
		if (err_ != DOCA_SUCCESS) {                                                                            \
			fprintf(stderr, "dma_check: %s: %s\n", #call, doca_error_get_name(err_));                      \
			return 1;                                                                                      \
		}                                                                                                      \
	} while (0)

static int open_dma_dev(struct doca_dev **dev)
{
	struct doca_devinfo **list;
	uint32_t n, i;

	TRY(doca_devinfo_create_list(&list, &n));
	for (i = 0; i < n; i++)
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS)
			break;
	if (i == n) {
		fprintf(stderr, "dma_check: none of the %u devices can run a DMA memcpy\n", n);
		doca_devinfo_destroy_list(list);
		return 1;
	}
	TRY(doca_dev_open(list[i], dev));
	TRY(doca_devinfo_destroy_list(list));
	return 0;
}

int main(void)
{
	static unsigned char mem[2 * LEN];
	unsigned char *src = mem, *dst = mem + LEN;
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_buf *src_buf, *dst_buf;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_dma_task_memcpy *task;
	union doca_data none = {0};
	size_t i;

	for (i = 0; i < LEN; i++)
		src[i] = (unsigned char)(i * 7 + 1);
	if (open_dma_dev(&dev) != 0)
		return 1;
	TRY(doca_mmap_create(&mmap));
	TRY(doca_mmap_set_memrange(mmap, mem, sizeof(mem)));
	TRY(doca_mmap_add_dev(mmap, dev));
	TRY(doca_mmap_start(mmap));
	TRY(doca_buf_inventory_create(2, &inv));
	TRY(doca_buf_inventory_start(inv));
	TRY(doca_buf_inventory_buf_get_by_data(inv, mmap, src, LEN, &src_buf));
	TRY(doca_buf_inventory_buf_get_by_addr(inv, mmap, dst, LEN, &dst_buf));
	TRY(doca_pe_create(&pe));
	TRY(doca_dma_create(dev, &dma));
	TRY(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	TRY(doca_dma_task_memcpy_set_conf(dma, copied, failed, 1));
	TRY(doca_ctx_start(doca_dma_as_ctx(dma)));
	TRY(doca_dma_task_memcpy_alloc_init(dma, src_buf, dst_buf, none, &task));
	TRY(doca_task_submit(doca_dma_task_memcpy_as_task(task)));
	/* Bounded: a copy that never completes fails the check instead of hanging it. */
	for (i = 0; state == 0 && i < 100000000; i++)
		doca_pe_progress(pe);
	if (state != 1 || memcmp(src, dst, LEN) != 0) {
		fprintf(stderr, "dma_check: the copy %s\n",
			state == 1 ? "differs from its source" : "did not complete");
		return 1;
	}
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	TRY(doca_ctx_stop(doca_dma_as_ctx(dma)));
	TRY(doca_dma_destroy(dma));
	TRY(doca_pe_destroy(pe));
	TRY(doca_buf_dec_refcount(src_buf, NULL));
	TRY(doca_buf_dec_refcount(dst_buf, NULL));
	TRY(doca_buf_inventory_destroy(inv));
	TRY(doca_mmap_destroy(mmap));
	TRY(doca_dev_close(dev));
	printf("dma_check: copied %d bytes, DOCA %s (runtime %s)\n", LEN, doca_version(), doca_version_runtime());
	return 0;
}
