/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_env_probe.c - doca-env's backend probes: one 4 KiB DMA copy, verified, with whichever
 * engine SOFTDOCA_ENGINE names; for the transports, the same copy with the source in memory this
 * process exported and imported again, so the bytes take the cross-process path. Exit 0 when
 * the bytes arrived.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

int probe_engine(void);
int probe_transport(void);

static int result = -1;

static void ok_cb(struct doca_dma_task_memcpy *t, union doca_data u, union doca_data c)
{
	(void)t;
	(void)u;
	(void)c;
	result = 0;
}

static void err_cb(struct doca_dma_task_memcpy *t, union doca_data u, union doca_data c)
{
	(void)t;
	(void)u;
	(void)c;
	result = 1;
}

static int probe_copy(bool via_export)
{
	static char mem[8192];
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL, *exp_dev = NULL;
	struct doca_mmap *m, *src_map, *rm = NULL;
	const void *desc;
	size_t desc_len;
	struct doca_buf_inventory *inv;
	struct doca_buf *s, *d;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {0};
	uint32_t n;

	memset(mem, 0x5a, 4096);
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return 2;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t can_import = 0, can_export = 0;

		doca_mmap_cap_is_create_from_export_pci_supported(list[i], &can_import);
		doca_mmap_cap_is_export_pci_supported(list[i], &can_export);
		/* The export goes out and comes back through one device: a device may import its own. */
		if (dev == NULL && doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS &&
		    (!via_export || (can_import && can_export)))
			doca_dev_open(list[i], &dev);
	}
	doca_devinfo_destroy_list(list);
	exp_dev = via_export ? dev : NULL;
	if (dev == NULL || doca_mmap_create(&m) != DOCA_SUCCESS || doca_mmap_set_memrange(m, mem, sizeof(mem)) ||
	    doca_mmap_add_dev(m, dev) ||
	    (via_export && doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_WRITE)) || doca_mmap_start(m))
		return 3;
	src_map = m;
	if (via_export) {
		if (doca_mmap_export_pci(m, exp_dev, &desc, &desc_len) ||
		    doca_mmap_create_from_export(NULL, desc, desc_len, dev, &rm))
			return 3;
		src_map = rm;
	}
	if (doca_buf_inventory_create(2, &inv) || doca_buf_inventory_start(inv) ||
	    doca_buf_inventory_buf_get_by_data(inv, src_map, mem, 4096, &s) ||
	    doca_buf_inventory_buf_get_by_addr(inv, m, mem + 4096, 4096, &d) || doca_pe_create(&pe) ||
	    doca_dma_create(dev, &dma) || doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)) ||
	    doca_dma_task_memcpy_set_conf(dma, ok_cb, err_cb, 1) || doca_ctx_start(doca_dma_as_ctx(dma)) ||
	    doca_dma_task_memcpy_alloc_init(dma, s, d, ud, &task) ||
	    doca_task_submit(doca_dma_task_memcpy_as_task(task)))
		return 3;
	for (long i = 0; result < 0 && i < 100000000; i++)
		doca_pe_progress(pe);
	int rc = result == 0 && memcmp(mem, mem + 4096, 4096) == 0 ? 0 : 4;

	/* Everything released, so leak checkers see a clean run too. */
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	if (doca_ctx_stop(doca_dma_as_ctx(dma)) == DOCA_ERROR_IN_PROGRESS) {
		enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;

		for (long i = 0; st != DOCA_CTX_STATE_IDLE && i < 100000000; i++) {
			doca_pe_progress(pe);
			doca_ctx_get_state(doca_dma_as_ctx(dma), &st);
		}
	}
	doca_dma_destroy(dma);
	doca_pe_destroy(pe);
	doca_buf_dec_refcount(s, NULL);
	doca_buf_dec_refcount(d, NULL);
	doca_buf_inventory_destroy(inv);
	if (rm != NULL)
		doca_mmap_destroy(rm);
	doca_mmap_destroy(m);
	doca_dev_close(dev);
	return rc;
}

int probe_engine(void)
{
	return probe_copy(false);
}

int probe_transport(void)
{
	return probe_copy(true);
}
