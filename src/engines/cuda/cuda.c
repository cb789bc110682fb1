/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cuda.c - the GPU memory transport: moves the bytes of jobs one or both sides of which are
 * GPU-only memory (DOCA_GPU_MEM_TYPE_GPU, a map whose domain is MEM_DOMAIN_GPU, gpu_mem.c).
 * CPU loads and stores cannot reach such memory with a real driver, so every piece goes through
 * the GPU's copy op (cudaMemcpy of the CUDA runtime libdoca_gpunetio loaded; gpu_hook.h). Pairs:
 * (local, gpu), (gpu, local), (gpu, gpu). It runs on whichever executor the context uses.
 *
 * The transport needs no probe: a GPU domain exists only for memory a working CUDA runtime
 * allocated, so whenever it is chosen there is a GPU to ask.
 */
#include <stdint.h>

#include "engine.h"
#include "gpu_hook.h"

/* The GPU of @job: its destination's if that is GPU memory, else its source's. */
static struct doca_gpu *gpu_of(const struct engine_job *job)
{
	const struct mem_domain *d =
	    job->dst_dom != NULL && job->dst_dom->kind == MEM_DOMAIN_GPU ? job->dst_dom : job->src_dom;

	return d != NULL && d->kind == MEM_DOMAIN_GPU ? d->u.gpu.gpu : NULL;
}

static doca_error_t cuda_copy_range(const struct engine_job *job, uint64_t off, uint64_t len, const char *owner)
{
	struct doca_gpu *gpu = gpu_of(job);
	const struct priv_doca_gpu_base *b = gpu != NULL ? priv_doca_gpu_base(gpu) : NULL;
	uint32_t si = 0, di = 0;
	uint64_t soff = off, doff = off;

	if (b == NULL || b->ops->copy == NULL)
		return DOCA_ERROR_DRIVER;
	while (si < job->nsrc && soff >= job->src[si].len)
		soff -= job->src[si++].len;
	while (di < job->ndst && doff >= job->dst[di].len)
		doff -= job->dst[di++].len;
	while (len > 0 && si < job->nsrc && di < job->ndst) {
		uint64_t s_left = job->src[si].len - soff;
		uint64_t d_left = job->dst[di].len - doff;
		uint64_t n = s_left < d_left ? s_left : d_left;
		doca_error_t ret;

		if (n > len)
			n = len;
		ret = b->ops->copy(gpu, (uint8_t *)job->dst[di].addr + doff, (const uint8_t *)job->src[si].addr + soff,
				   (size_t)n, owner);
		if (ret != DOCA_SUCCESS)
			return ret;
		len -= n;
		soff += n;
		doff += n;
		if (soff == job->src[si].len) {
			si++;
			soff = 0;
		}
		if (doff == job->dst[di].len) {
			di++;
			doff = 0;
		}
	}
	return DOCA_SUCCESS;
}

static const struct engine_xfer cuda_xfer = {
    .copy_range = cuda_copy_range,
    .copy_batch = NULL,
};

const struct engine_backend engine_backend_cuda = {
    .name = "cuda",
    .desc = "to, from and within GPU-only memory: cudaMemcpy through libdoca_gpunetio's CUDA runtime",
    .kind = ENGINE_TRANSPORT,
    .pairs = ENGINE_PAIR(MEM_DOMAIN_LOCAL, MEM_DOMAIN_GPU) | ENGINE_PAIR(MEM_DOMAIN_GPU, MEM_DOMAIN_LOCAL) |
	     ENGINE_PAIR(MEM_DOMAIN_GPU, MEM_DOMAIN_GPU),
    .priority = 10,
    .probe = NULL,
    .xfer = &cuda_xfer,
};
