/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * common.h - small helpers shared by softdoca's examples: open a DMA-capable device by PCI
 * address, and the argp flag for it. Examples are written like DOCA's samples so they double as
 * documentation of the API.
 */
#ifndef EXAMPLES_COMMON_H_
#define EXAMPLES_COMMON_H_

#include <stdbool.h>
#include <stddef.h>

#include <doca_dev.h>
#include <doca_error.h>

#define EXAMPLE_PCI_ADDR_DEFAULT "03:00.0"

struct example_cfg {
	char pci_addr[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char text[4096];
	int num_tasks;
};

/*
 * The preamble of every example, as in DOCA's samples: application log to stdout/stderr, SDK
 * log to stderr at WARNING, argp with -p/--pci-addr, -t/--text and -n/--num-tasks parsed into
 * @cfg. On failure argp is already released; on success the caller ends with
 * doca_argp_destroy().
 */
doca_error_t example_begin(int argc, char **argv, struct example_cfg *cfg);
/* Opens the device at @pci_addr and checks it can run DMA memcpy tasks. */
doca_error_t example_open_dma_device(const char *pci_addr, struct doca_dev **dev);

#endif /* EXAMPLES_COMMON_H_ */

#include <doca_buf_inventory.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

/* Everything a local DMA copy needs, set up in the order DOCA requires. */
struct example_dma {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_mmap *src_mmap, *dst_mmap;
	struct doca_buf_inventory *inv;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	char *src, *dst;
	size_t len; /* bytes per task */
	int num_tasks;
	int completed; /* tasks whose callback ran */
	int failed;    /* tasks that completed with an error */
	bool stopped;  /* context back to IDLE */
};

/*
 * Opens @pci_addr, builds source/destination buffers of @num_tasks * @len bytes each (source
 * filled from @text, repeated), mmaps, inventory, PE and a started DMA context.
 */
doca_error_t example_dma_setup(struct example_dma *ex, const char *pci_addr, const char *text, int num_tasks);
/* Allocates and submits one memcpy task per slice. */
doca_error_t example_dma_submit_all(struct example_dma *ex);
/* Checks every destination slice against the source. */
doca_error_t example_dma_verify(const struct example_dma *ex);
/* Stops the context (progressing until IDLE) and releases everything. */
doca_error_t example_dma_teardown(struct example_dma *ex);
