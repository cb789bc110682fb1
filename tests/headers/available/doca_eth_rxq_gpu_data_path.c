/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca's doca_eth_rxq_gpu_data_path.h includes doca_compat.h, doca_ctx.h, doca_error.h and
 * doca_types.h (DOCA's includes the last, for enum doca_gpu_mem_type): NVIDIA's GPUNetIO
 * receive sample reaches the context calls through its set of headers, CPU-proxy programs
 * set the ring's memory type and loop on the proxy.
 */
#include <doca_eth_rxq_gpu_data_path.h>

#include "compat_set.h"

doca_error_t gpu_rxq_use(struct doca_eth_rxq *rxq, struct doca_ctx *ctx, struct doca_gpu *gpu);
doca_error_t gpu_rxq_use(struct doca_eth_rxq *rxq, struct doca_ctx *ctx, struct doca_gpu *gpu)
{
	enum doca_gpu_mem_type mtype = DOCA_GPU_MEM_TYPE_CPU_GPU; /* doca_types.h */
	doca_error_t err = doca_eth_rxq_gpu_enable_mcst_qp(rxq);

	if (DOCA_IS_ERROR(err)) /* doca_error.h */
		return err;
	err = doca_eth_rxq_gpu_set_rq_mem_type(rxq, mtype);
	if (DOCA_IS_ERROR(err))
		return err;
	err = doca_eth_rxq_gpu_set_uar_on_cpu(rxq);
	if (DOCA_IS_ERROR(err))
		return err;
	err = doca_ctx_set_datapath_on_gpu(ctx, gpu); /* doca_ctx.h */
	if (DOCA_IS_ERROR(err))
		return err;
	err = doca_ctx_start(ctx);
	return DOCA_IS_ERROR(err) ? err : doca_eth_rxq_gpu_cpu_proxy_progress(rxq);
}
