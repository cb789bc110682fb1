/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca's doca_eth_txq_gpu_data_path.h includes doca_compat.h, doca_ctx.h, doca_error.h:
 * NVIDIA's GPUNetIO send samples reach the context calls through their set of headers.
 */
#include <doca_eth_txq_gpu_data_path.h>

#include "compat_set.h"

doca_error_t gpu_txq_use(struct doca_eth_txq *txq, struct doca_ctx *ctx, struct doca_gpu *gpu);
doca_error_t gpu_txq_use(struct doca_eth_txq *txq, struct doca_ctx *ctx, struct doca_gpu *gpu)
{
	doca_error_t err = doca_eth_txq_gpu_set_completion_on_gpu(txq);

	if (DOCA_IS_ERROR(err)) /* doca_error.h */
		return err;
	err = doca_eth_txq_gpu_set_uar_on_cpu(txq);
	if (DOCA_IS_ERROR(err))
		return err;
	err = doca_ctx_set_datapath_on_gpu(ctx, gpu); /* doca_ctx.h */
	if (DOCA_IS_ERROR(err))
		return err;
	err = doca_ctx_start(ctx);
	return DOCA_IS_ERROR(err) ? err : doca_eth_txq_gpu_cpu_proxy_progress(txq);
}
