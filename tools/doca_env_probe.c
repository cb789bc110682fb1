/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_env_probe.c - doca-env's backend probes: one 4 KiB DMA copy, verified, with whichever
 * engine SOFTDOCA_ENGINE names; for the transports, the same copy with the source in memory this
 * process exported and imported again, so the bytes take the cross-process path (cma), or
 * through GPU-only memory of the first GPU and back (cuda). Exit 0 when the bytes arrived.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_gpunetio.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "gpu_report.h"

int probe_engine(void);
int probe_transport(const char *name);

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

/* One task from @src to @dst (4096 bytes), progressed until it completes; 0 when it succeeded. */
static int one_copy(struct doca_dma *dma, struct doca_pe *pe, struct doca_buf *src, struct doca_buf *dst)
{
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {0};

	result = -1;
	if (doca_dma_task_memcpy_alloc_init(dma, src, dst, ud, &task) != DOCA_SUCCESS)
		return 3;
	if (doca_task_submit(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS) {
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		return 3;
	}
	for (long i = 0; result < 0 && i < 100000000; i++)
		doca_pe_progress(pe);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	return result == 0 ? 0 : 4;
}

/* A map of @len bytes at @addr on @dev, started; NULL when that fails. */
static struct doca_mmap *map_of(void *addr, size_t len, struct doca_dev *dev, uint32_t access)
{
	struct doca_mmap *m;

	if (doca_mmap_create(&m) != DOCA_SUCCESS)
		return NULL;
	if (doca_mmap_set_memrange(m, addr, len) || doca_mmap_add_dev(m, dev) || doca_mmap_set_permissions(m, access) ||
	    doca_mmap_start(m)) {
		doca_mmap_destroy(m);
		return NULL;
	}
	return m;
}

enum probe_mode { PROBE_LOCAL, PROBE_EXPORT, PROBE_GPU };

/*
 * The copy of 4096 bytes from the first half of a buffer to its second half: both in this
 * process (PROBE_LOCAL), the source through an export of this process imported again
 * (PROBE_EXPORT), or through GPU-only memory of the first GPU, there and back (PROBE_GPU).
 * Exit status: 0 the bytes arrived, 2 no device list, 3 a set-up call failed, 4 a copy failed
 * or the bytes differ, 5 no GPU.
 */
static int probe_copy(enum probe_mode mode)
{
	static char mem[8192];
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	struct doca_mmap *m = NULL, *rm = NULL, *gm = NULL;
	struct doca_gpu *gpu = NULL;
	void *gmem = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf *s = NULL, *d = NULL, *g = NULL;
	struct doca_pe *pe = NULL;
	struct doca_dma *dma = NULL;
	const void *desc;
	size_t desc_len;
	uint32_t n;
	int rc = 3;

	memset(mem, 0x5a, 4096);
	memset(mem + 4096, 0, 4096);
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return 2;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t can_import = 0, can_export = 0;

		doca_mmap_cap_is_create_from_export_pci_supported(list[i], &can_import);
		doca_mmap_cap_is_export_pci_supported(list[i], &can_export);
		/* The export goes out and comes back through one device: a device may import its own. */
		if (dev == NULL && doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS &&
		    (mode != PROBE_EXPORT || (can_import && can_export)))
			doca_dev_open(list[i], &dev);
	}
	doca_devinfo_destroy_list(list);
	if (dev == NULL)
		return 3;
	if (mode == PROBE_GPU) {
		struct priv_doca_gpu_report rep;

		priv_doca_gpu_report(&rep);
		if (rep.nb_gpus == 0) {
			rc = 5;
			goto out;
		}
		if (doca_gpu_create(rep.gpus[0].pci, &gpu) != DOCA_SUCCESS ||
		    doca_gpu_mem_alloc(gpu, 4096, 4096, DOCA_GPU_MEM_TYPE_GPU, &gmem, NULL) != DOCA_SUCCESS ||
		    (gm = map_of(gmem, 4096, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE)) == NULL)
			goto out;
	}
	m = map_of(mem, sizeof(mem), dev,
		   mode == PROBE_EXPORT ? DOCA_ACCESS_FLAG_PCI_READ_WRITE : DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (m == NULL)
		goto out;
	if (mode == PROBE_EXPORT && (doca_mmap_export_pci(m, dev, &desc, &desc_len) ||
				     doca_mmap_create_from_export(NULL, desc, desc_len, dev, &rm)))
		goto out;
	if (doca_buf_inventory_create(3, &inv) || doca_buf_inventory_start(inv) ||
	    doca_buf_inventory_buf_get_by_data(inv, rm != NULL ? rm : m, mem, 4096, &s) ||
	    doca_buf_inventory_buf_get_by_addr(inv, m, mem + 4096, 4096, &d) ||
	    (gm != NULL && doca_buf_inventory_buf_get_by_addr(inv, gm, gmem, 4096, &g)) || doca_pe_create(&pe) ||
	    doca_dma_create(dev, &dma) || doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)) ||
	    doca_dma_task_memcpy_set_conf(dma, ok_cb, err_cb, 1) || doca_ctx_start(doca_dma_as_ctx(dma)))
		goto out;
	if (g != NULL) {
		rc = one_copy(dma, pe, s, g);
		if (rc == 0) {
			doca_buf_dec_refcount(s, NULL);
			s = NULL; /* the way back: GPU memory as the source */
			if (doca_buf_inventory_buf_get_by_data(inv, gm, gmem, 4096, &s) != DOCA_SUCCESS)
				rc = 3;
			else
				rc = one_copy(dma, pe, s, d);
		}
	} else {
		rc = one_copy(dma, pe, s, d);
	}
	if (rc == 0 && memcmp(mem, mem + 4096, 4096) != 0)
		rc = 4;
out:
	/* Everything released, so leak checkers see a clean run too. */
	if (dma != NULL) {
		if (doca_ctx_stop(doca_dma_as_ctx(dma)) == DOCA_ERROR_IN_PROGRESS) {
			enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;

			for (long i = 0; st != DOCA_CTX_STATE_IDLE && i < 100000000; i++) {
				doca_pe_progress(pe);
				doca_ctx_get_state(doca_dma_as_ctx(dma), &st);
			}
		}
		doca_dma_destroy(dma);
	}
	if (pe != NULL)
		doca_pe_destroy(pe);
	if (s != NULL)
		doca_buf_dec_refcount(s, NULL);
	if (d != NULL)
		doca_buf_dec_refcount(d, NULL);
	if (g != NULL)
		doca_buf_dec_refcount(g, NULL);
	if (inv != NULL)
		doca_buf_inventory_destroy(inv);
	if (rm != NULL)
		doca_mmap_destroy(rm);
	if (m != NULL)
		doca_mmap_destroy(m);
	if (gm != NULL)
		doca_mmap_destroy(gm);
	if (gmem != NULL)
		doca_gpu_mem_free(gpu, gmem);
	if (gpu != NULL)
		doca_gpu_destroy(gpu);
	doca_dev_close(dev);
	return rc;
}

int probe_engine(void)
{
	return probe_copy(PROBE_LOCAL);
}

int probe_transport(const char *name)
{
	return probe_copy(strcmp(name, "cuda") == 0 ? PROBE_GPU : PROBE_EXPORT);
}
