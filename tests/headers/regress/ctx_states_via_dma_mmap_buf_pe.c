/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Issue: programs that include only the DMA, mmap, buf and PE headers use enum
 * doca_ctx_states (and doca_ctx_get_state()) without including doca_ctx.h themselves.
 */
#include <doca_buf.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

doca_error_t wait_running(struct doca_dma *dma, struct doca_pe *pe);
doca_error_t wait_running(struct doca_dma *dma, struct doca_pe *pe)
{
	struct doca_ctx *ctx = doca_dma_as_ctx(dma);
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;
	doca_error_t err;

	do {
		(void)doca_pe_progress(pe);
		err = doca_ctx_get_state(ctx, &state);
	} while (err == DOCA_SUCCESS && state == DOCA_CTX_STATE_STARTING);
	if (err == DOCA_SUCCESS && state != DOCA_CTX_STATE_RUNNING)
		err = DOCA_ERROR_BAD_STATE;
	return err;
}
