/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_local_copy - copy a text between two buffers of this process with DOCA DMA, verify it
 * and print it. Polls the progress engine.
 *
 *   dma_local_copy [-p 03:00.0] [-t "text"] [-n tasks]
 */
#include <stdio.h>
#include <stdlib.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "common.h"

DOCA_LOG_REGISTER(DMA_LOCAL_COPY);

int main(int argc, char **argv)
{
	struct example_cfg cfg = {.pci_addr = EXAMPLE_PCI_ADDR_DEFAULT,
				  .text = "This text was copied by softdoca's DMA engine.",
				  .num_tasks = 1};
	struct example_dma ex = {0};
	doca_error_t ret;
	int rc = EXIT_FAILURE;

	if (example_begin(argc, argv, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;

	ret = example_dma_setup(&ex, cfg.pci_addr, cfg.text, cfg.num_tasks);
	if (ret == DOCA_SUCCESS)
		ret = example_dma_submit_all(&ex);
	while (ret == DOCA_SUCCESS && ex.completed < ex.num_tasks)
		doca_pe_progress(ex.pe); /* completions run here, never inside submit */
	if (ret == DOCA_SUCCESS)
		ret = example_dma_verify(&ex);
	if (ret == DOCA_SUCCESS) {
		printf("%s\n", ex.dst);
		DOCA_LOG_INFO("%d task(s) of %zu bytes copied and verified", ex.num_tasks, ex.len);
		rc = EXIT_SUCCESS;
	} else {
		DOCA_LOG_ERR("local DMA copy failed: %s", doca_error_get_descr(ret));
	}
	if (example_dma_teardown(&ex) != DOCA_SUCCESS)
		rc = EXIT_FAILURE;
	doca_argp_destroy();
	return rc;
}
