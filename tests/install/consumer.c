/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program built only through pkg-config against an installed softdoca: reports its
 * personality and copies a few bytes with DMA, using the installed headers and libraries.
 */
#include <stdio.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_flow.h>
#include <doca_eth_txq.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_version.h>

static int done;

static void ok_cb(struct doca_dma_task_memcpy *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	done = doca_task_get_status(doca_dma_task_memcpy_as_task(t)) == DOCA_SUCCESS ? 1 : -1;
}

static void err_cb(struct doca_dma_task_memcpy *t, union doca_data u, union doca_data c)
{
	(void)t;
	(void)u;
	(void)c;
	done = -1;
}

#define TRY(x)                                                                                                         \
	do {                                                                                                           \
		doca_error_t r_ = (x);                                                                                 \
		if (r_ != DOCA_SUCCESS) {                                                                              \
			fprintf(stderr, "%s: %s\n", #x, doca_error_get_name(r_));                                      \
			return 1;                                                                                      \
		}                                                                                                      \
	} while (0)

int main(void)
{
	char src[64] = "installed softdoca copies bytes", dst[64] = {0};
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_mmap *m;
	struct doca_buf_inventory *inv;
	struct doca_buf *sb, *db;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {0};
	uint32_t n;
	struct doca_flow_cfg *flow_cfg;

	if (doca_flow_cfg_create(&flow_cfg) != DOCA_SUCCESS || doca_flow_cfg_destroy(flow_cfg) != DOCA_SUCCESS)
		return 1;
	char both[128];

#if defined(DOCA_ARCH_DPU) && !defined(DOCA_ARCH_HOST)
	printf("personality dpu\n");
#elif defined(DOCA_ARCH_HOST) && !defined(DOCA_ARCH_DPU)
	printf("personality host\n");
#else
#error "exactly one of DOCA_ARCH_DPU / DOCA_ARCH_HOST must be defined"
#endif
	printf("compiled against DOCA %s, running %s\n", doca_version(), doca_version_runtime());
	TRY(doca_devinfo_create_list(&list, &n));
	/* doca-eth links; the default profile has Ethernet. */
	if (doca_eth_txq_cap_is_type_supported(list[0], DOCA_ETH_TXQ_TYPE_REGULAR, DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU) !=
	    DOCA_SUCCESS) {
		fprintf(stderr, "eth: the default profile should have Ethernet\n");
		return 1;
	}
	TRY(doca_dev_open(list[0], &dev));
	TRY(doca_devinfo_destroy_list(list));
	memcpy(both, src, sizeof(src));
	memcpy(both + 64, dst, sizeof(dst));
	TRY(doca_mmap_create(&m));
	TRY(doca_mmap_set_memrange(m, both, sizeof(both)));
	TRY(doca_mmap_add_dev(m, dev));
	TRY(doca_mmap_start(m));
	TRY(doca_buf_inventory_create(2, &inv));
	TRY(doca_buf_inventory_start(inv));
	TRY(doca_buf_inventory_buf_get_by_data(inv, m, both, 32, &sb));
	TRY(doca_buf_inventory_buf_get_by_addr(inv, m, both + 64, 64, &db));
	TRY(doca_pe_create(&pe));
	TRY(doca_dma_create(dev, &dma));
	TRY(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	TRY(doca_dma_task_memcpy_set_conf(dma, ok_cb, err_cb, 1));
	TRY(doca_ctx_start(doca_dma_as_ctx(dma)));
	TRY(doca_dma_task_memcpy_alloc_init(dma, sb, db, ud, &task));
	TRY(doca_task_submit(doca_dma_task_memcpy_as_task(task)));
	while (!done)
		doca_pe_progress(pe);
	if (done < 0 || memcmp(both, both + 64, 32) != 0) {
		fprintf(stderr, "copy failed\n");
		return 1;
	}
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	TRY(doca_ctx_stop(doca_dma_as_ctx(dma)));
	TRY(doca_dma_destroy(dma));
	TRY(doca_pe_destroy(pe));
	TRY(doca_buf_dec_refcount(sb, NULL));
	TRY(doca_buf_dec_refcount(db, NULL));
	TRY(doca_buf_inventory_destroy(inv));
	TRY(doca_mmap_destroy(m));
	TRY(doca_dev_close(dev));
	printf("copied: %s\n", both + 64);
	return 0;
}
