/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_gpu.c - the GPU data path of a DMA context: the CPU side of the ring GPU threads post
 * copies on (doca_gpunetio_hd.h, doca_gpunetio_dev_dma.cuh). Model in dma_internal.h.
 *
 * The service thread is the only user of its executor queue (it plays the PE thread of
 * engine.h) and the only writer of the CPU's ring words (cqe, cons). The intake, with the rules
 * it holds the device side to, is dma_gpu_ring.c (each descriptor read once into private memory,
 * then checked; a doorbell more than a ring ahead fails the ring). Per descriptor it checks:
 *   INVALID_VALUE  length 0 or above the profile's max_buf_size; an mkey no started mmap has;
 *                  a range not inside that mmap
 *   NOT_PERMITTED  an mmap without the context's device; a destination mmap without write rights
 *   NOT_SUPPORTED  an mmap over DOCA_GPU_MEM_TYPE_GPU memory of the context's GPU: the copies
 *                  are CPU code, which reaches only host-mapped GPU memory
 * A descriptor that breaks a rule completes with that status and one logged line (the first
 * LOG_MAX per start, then a count when the context stops); the copy never happens and the ring
 * goes on. Copies run as engine jobs of the SOFTDOCA_ENGINE executor, as CPU tasks do;
 * completions are published in ring order whatever order the engine finishes in.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_gpunetio_hd.h>

#include "dma_internal.h"
#include "dma_gpu_ring.h"
#include "gpu_hook.h"

#define COMP	    "dma"
#define RING_MASK   (DMA_GPU_RING_SLOTS - 1u)
#define WINDOW_MAX  256u /* descriptors between intake and completion */
#define POLL_BUDGET 64u

_Static_assert((DMA_GPU_RING_SLOTS & RING_MASK) == 0, "the ring size is a power of two");

/* One descriptor between intake and its completion. */
struct gpu_slot {
	struct engine_job job;
	struct engine_seg src;
	struct engine_seg dst;
	struct engine_completion comp;
};

struct dma_gpu {
	struct doca_ctx *ctx;
	struct doca_gpu *gpu;
	const struct priv_doca_gpu_ops *gops;
	uint64_t dev_bit; /* the context's device in struct doca_mmap.read_devs/write_devs */
	uint64_t max_len;
	char name[128]; /* "dma context 0x... on 03:00.0 (GPU 17:00.0)" */

	/* The ring: GPU pointers for the handle, CPU views for the service. */
	struct doca_gpu_dma *handle; /* GPU memory */
	uint64_t *reserve;	     /* GPU memory */
	void *desc_gpu, *cqe_gpu, *ctrl_gpu;
	struct doca_gpu_dma_desc *desc;
	struct doca_gpu_dma_cqe *cqe;
	struct doca_gpu_dma_ctrl *ctrl;

	/* The service (its thread only, between start and stop). */
	pthread_t thread;
	bool running;
	atomic_bool stop;
	const struct engine_ops *exec;
	struct engine_queue *q;
	struct gpu_slot *slots; /* window entries, by position */
	uint32_t window;	/* a power of two */
	struct dma_ring ring;	/* head: next position to take, tail: next to complete (dma_gpu_ring.c) */
	unsigned int epoch;	/* of the mkey registry when the ring's mkey cache was filled */
	uint64_t st_done, st_bytes, st_errors;
};

struct doca_gpu_dma *dma_gpu_handle(const struct dma_gpu *svc)
{
	return svc->handle;
}

/* ---- the service thread ---- */

static bool ring_resolve(struct dma_ring *r, uint32_t mkey, struct dma_ring_range *out)
{
	struct dma_gpu *g = SD_CONTAINER_OF(r, struct dma_gpu, ring);
	struct priv_doca_mkey_range m;

	if (!priv_doca_mmap_by_mkey(mkey, &m))
		return false;
	*out = (struct dma_ring_range){
	    .base = (uintptr_t)m.addr,
	    .len = m.len,
	    .read_ok = (m.read_devs & g->dev_bit) != 0,
	    .write_ok = (m.write_devs & g->dev_bit) != 0,
	    .device_only = g->gops->device_only(g->gpu, m.addr, m.len),
	    .what = m.mmap,
	};
	return true;
}

static bool ring_submit(struct dma_ring *r, uint64_t pos, const struct doca_gpu_dma_desc *d)
{
	struct dma_gpu *g = SD_CONTAINER_OF(r, struct dma_gpu, ring);
	struct gpu_slot *s = &g->slots[pos & (g->window - 1u)];

	atomic_store_explicit(&s->comp.done, 0, memory_order_relaxed);
	s->src.addr = (void *)(uintptr_t)d->src_addr;
	s->src.len = d->len;
	s->dst.addr = (void *)(uintptr_t)d->dst_addr;
	s->dst.len = d->len;
	s->job.len = d->len;
	return g->exec->submit(g->q, &s->job) == 0;
}

static void ring_fail(struct dma_ring *r, uint64_t pos, doca_error_t status)
{
	struct dma_gpu *g = SD_CONTAINER_OF(r, struct dma_gpu, ring);
	struct gpu_slot *s = &g->slots[pos & (g->window - 1u)];

	atomic_store_explicit(&s->comp.done, 0, memory_order_relaxed);
	engine_complete_pe(&s->comp, status);
}

static const struct dma_ring_ops ring_ops = {.resolve = ring_resolve, .submit = ring_submit, .fail = ring_fail};

/* Takes committed descriptors into the window: checked, then an engine job or a failure. */
static unsigned int intake(struct dma_gpu *g)
{
	unsigned int epoch = priv_doca_mmap_mkey_epoch();

	if (epoch != g->epoch) {
		/* A map started or stopped since the cache was filled. */
		dma_ring_forget(&g->ring);
		g->epoch = epoch;
	}
	return dma_ring_intake(&g->ring);
}

/* Writes the completions of finished descriptors, in ring order; moves cons. */
static unsigned int publish(struct dma_gpu *g)
{
	uint64_t t = g->ring.tail;

	while (t < g->ring.head) {
		struct gpu_slot *s = &g->slots[t & (g->window - 1u)];
		struct doca_gpu_dma_cqe *c = &g->cqe[t & RING_MASK];

		if (!atomic_load_explicit(&s->comp.done, memory_order_acquire))
			break;
		doca_gpunetio_hd_store_release_u32(&c->status, (uint32_t)s->comp.status);
		doca_gpunetio_hd_store_release_u64(&c->seq, t + 1);
		if (s->comp.status == DOCA_SUCCESS) {
			g->st_done++;
			g->st_bytes += s->job.len;
		} else {
			g->st_errors++;
		}
		t++;
	}
	if (t == g->ring.tail)
		return 0;
	/* Everything the copies wrote is visible to whoever sees the new cons. */
	doca_gpunetio_hd_store_release_u64(&g->ctrl->cons, t);
	t -= g->ring.tail;
	g->ring.tail += t;
	return (unsigned int)t;
}

/* Idle: spin a little, then sleep longer and longer up to 1 ms (the GPU cannot wake us). */
static void backoff(unsigned int *idle)
{
	struct timespec ts = {0, 0};
	unsigned int k = ++*idle;

	if (k < 64)
		return;
	ts.tv_nsec = k < 80 ? 20000L << (k - 64) / 4 : 1000000L;
	if (ts.tv_nsec > 1000000L)
		ts.tv_nsec = 1000000L;
	nanosleep(&ts, NULL);
}

static void *service(void *arg)
{
	struct dma_gpu *g = arg;
	unsigned int idle = 0;

	while (!atomic_load_explicit(&g->stop, memory_order_acquire)) {
		unsigned int n = intake(g);

		n += g->exec->poll(g->q, POLL_BUDGET);
		n += publish(g);
		if (n != 0)
			idle = 0;
		else
			backoff(&idle);
	}
	/* Stopping: what the engine has not started fails, the rest finishes; all are published. */
	g->exec->cancel(g->q, DOCA_ERROR_IO_FAILED);
	idle = 0;
	while (g->ring.tail < g->ring.head) {
		unsigned int n = g->exec->poll(g->q, POLL_BUDGET) + publish(g);

		if (n == 0)
			backoff(&idle);
	}
	return NULL;
}

/* ---- control path (application thread) ---- */

static doca_error_t ring_alloc(struct dma_gpu *g, const char *call)
{
	const struct priv_doca_gpu_ops *o = g->gops;
	struct doca_gpu_dma h;
	void *p = NULL;
	doca_error_t ret;

	ret = o->mem_alloc_mapped(g->gpu, DMA_GPU_RING_SLOTS * sizeof(*g->desc), &g->desc_gpu, &p, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	g->desc = p;
	ret = o->mem_alloc_mapped(g->gpu, DMA_GPU_RING_SLOTS * sizeof(*g->cqe), &g->cqe_gpu, &p, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	g->cqe = p;
	ret = o->mem_alloc_mapped(g->gpu, sizeof(*g->ctrl), &g->ctrl_gpu, &p, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	g->ctrl = p;
	ret = o->mem_alloc(g->gpu, sizeof(*g->reserve), &p, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	g->reserve = p;
	ret = o->mem_alloc(g->gpu, sizeof(*g->handle), &p, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	g->handle = p;
	h = (struct doca_gpu_dma){
	    .desc = g->desc_gpu,
	    .cqe = g->cqe_gpu,
	    .ctrl = g->ctrl_gpu,
	    .reserve = g->reserve,
	    .nslots = DMA_GPU_RING_SLOTS,
	    .mask = RING_MASK,
	};
	return o->copy_to_gpu(g->gpu, g->handle, &h, sizeof(h), call);
}

static void ring_free(struct dma_gpu *g)
{
	void *gpu_ptrs[] = {g->handle, g->reserve, g->ctrl_gpu, g->cqe_gpu, g->desc_gpu};

	for (size_t i = 0; i < sizeof(gpu_ptrs) / sizeof(gpu_ptrs[0]); i++)
		if (gpu_ptrs[i] != NULL)
			g->gops->mem_free(g->gpu, gpu_ptrs[i]);
	g->handle = NULL;
	g->reserve = NULL;
	g->ctrl_gpu = g->cqe_gpu = g->desc_gpu = NULL;
}

void dma_gpu_destroy(struct dma_gpu *svc)
{
	if (svc == NULL)
		return;
	ring_free(svc);
	free(svc);
}

static uint32_t window_for(const struct topo_profile *p)
{
	uint32_t w = 1;

	while (w * 2 <= WINDOW_MAX && w * 2 <= p->dma.queue_depth)
		w *= 2;
	return w;
}

doca_error_t dma_gpu_start(struct doca_ctx *ctx, struct doca_gpu *gpu, const struct topo_profile *profile,
			   struct dma_gpu **svc)
{
	const char *call = "doca_ctx_start";
	struct dma_gpu *g = *svc;
	const uint64_t zero = 0;
	struct ctx_dp_attr attr;
	doca_error_t ret;
	int err;

	if (g == NULL) {
		g = calloc(1, sizeof(*g));
		if (g == NULL)
			return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: %s: out of memory", call,
					 priv_doca_ctx_name(ctx));
		g->ctx = ctx;
		g->gpu = gpu;
		g->gops = priv_doca_gpu_base(gpu)->ops;
		snprintf(g->name, sizeof(g->name), "%s (GPU %s)", priv_doca_ctx_name(ctx), g->gops->name(gpu));
		ret = ring_alloc(g, call);
		if (ret != DOCA_SUCCESS) {
			SD_REJECT(ret, COMP, "%s: %s: the GPU DMA ring could not be allocated", call, g->name);
			dma_gpu_destroy(g);
			return ret;
		}
		*svc = g;
	}
	/* A fresh ring: no kernel may be using the handle across a restart. */
	memset(g->desc, 0, DMA_GPU_RING_SLOTS * sizeof(*g->desc));
	memset(g->cqe, 0, DMA_GPU_RING_SLOTS * sizeof(*g->cqe));
	memset(g->ctrl, 0, sizeof(*g->ctrl));
	ret = g->gops->copy_to_gpu(gpu, g->reserve, &zero, sizeof(zero), call);
	if (ret != DOCA_SUCCESS)
		return ret;

	g->dev_bit = UINT64_C(1) << (ctx->dev->info.index & 63u);
	g->max_len = profile->dma.max_buf_size;
	g->window = window_for(profile);
	g->slots = calloc(g->window, sizeof(*g->slots));
	if (g->slots == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: %s: out of memory", call, g->name);
	for (uint32_t i = 0; i < g->window; i++) {
		struct gpu_slot *s = &g->slots[i];

		s->job = (struct engine_job){.src = &s->src, .dst = &s->dst, .nsrc = 1, .ndst = 1, .comp = &s->comp};
		atomic_init(&s->comp.done, 0);
	}
	attr = (struct ctx_dp_attr){.ctx = ctx, .depth = g->window, .notify = NULL, .owner = g->name};
	ret = priv_doca_dp_executor_create(&attr, &g->exec, &g->q);
	if (ret != DOCA_SUCCESS)
		goto fail_slots;
	g->ring = (struct dma_ring){
	    .ops = &ring_ops,
	    .name = g->name,
	    .desc = g->desc,
	    .doorbell = &g->ctrl->doorbell,
	    .nslots = DMA_GPU_RING_SLOTS,
	    .window = g->window,
	    .max_len = g->max_len,
	};
	dma_ring_reset(&g->ring);
	g->epoch = priv_doca_mmap_mkey_epoch();
	g->st_done = g->st_bytes = g->st_errors = 0;
	atomic_store_explicit(&g->stop, false, memory_order_relaxed);
	err = pthread_create(&g->thread, NULL, service, g);
	if (err != 0) {
		ret = SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP, "%s: %s: cannot start the GPU DMA thread: %s", call,
				g->name, strerror(err));
		goto fail_queue;
	}
	g->running = true;
	SD_DBG(COMP, "%s: GPU data path: %u descriptors, engine %s, %u in flight", g->name, DMA_GPU_RING_SLOTS,
	       g->exec->name, g->window);
	return DOCA_SUCCESS;

fail_queue:
	g->exec->queue_destroy(g->q);
	g->q = NULL;
fail_slots:
	free(g->slots);
	g->slots = NULL;
	return ret;
}

void dma_gpu_stop(struct dma_gpu *svc)
{
	if (svc == NULL || !svc->running)
		return;
	atomic_store_explicit(&svc->stop, true, memory_order_release);
	pthread_join(svc->thread, NULL);
	svc->running = false;
	svc->exec->queue_destroy(svc->q);
	svc->q = NULL;
	free(svc->slots);
	svc->slots = NULL;
	SD_DBG(COMP, "%s: GPU data path stopped: %llu descriptors taken, %llu copied (%llu bytes), %llu failed",
	       svc->name, (unsigned long long)svc->ring.head, (unsigned long long)svc->st_done,
	       (unsigned long long)svc->st_bytes, (unsigned long long)svc->st_errors);
	if (svc->ring.logged > DMA_RING_LOG_MAX)
		SD_WARN(COMP, "%s: %u bad GPU DMA descriptors in all, %u of them logged", svc->name, svc->ring.logged,
			DMA_RING_LOG_MAX);
}
