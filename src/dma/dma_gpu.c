/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_gpu.c - the GPU data path of a DMA context: the CPU side of the ring GPU threads post
 * copies on (doca_gpunetio_hd.h, doca_gpunetio_dev_dma.cuh). Model in dma_internal.h.
 *
 * The service thread is the only user of its executor queue (it plays the PE thread of
 * engine.h) and the only writer of the CPU's ring words (cqe, cons). Per descriptor it checks:
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
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_gpunetio_hd.h>

#include "dma_internal.h"
#include "gpu_hook.h"

#define COMP	    "dma"
#define RING_MASK   (DMA_GPU_RING_SLOTS - 1u)
#define WINDOW_MAX  256u /* descriptors between intake and completion */
#define LOG_MAX	    16u	 /* bad descriptors logged one by one per start */
#define POLL_BUDGET 64u

_Static_assert((DMA_GPU_RING_SLOTS & RING_MASK) == 0, "the ring size is a power of two");

/* One descriptor between intake and its completion. */
struct gpu_slot {
	struct engine_job job;
	struct engine_seg src;
	struct engine_seg dst;
	struct engine_completion comp;
};

struct mkey_cache {
	uint32_t mkey; /* host byte order; 0 = empty (no map has key 0) */
	struct priv_doca_mkey_range r;
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
	uint64_t head;		/* next position to take */
	uint64_t tail;		/* next position to complete */
	unsigned int epoch;	/* of the mkey registry when the cache was filled */
	struct mkey_cache cache[2];
	uint64_t st_done, st_bytes, st_errors;
	uint32_t logged;
};

struct doca_gpu_dma *dma_gpu_handle(const struct dma_gpu *svc)
{
	return svc->handle;
}

/* ---- the service thread ---- */

static __attribute__((cold)) doca_error_t bad_desc(struct dma_gpu *g, uint64_t pos, doca_error_t err, const char *fmt,
						   ...) __attribute__((format(printf, 4, 5)));

static doca_error_t bad_desc(struct dma_gpu *g, uint64_t pos, doca_error_t err, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (g->logged++ >= LOG_MAX)
		return err;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return SD_REJECT(err, COMP, "%s: GPU DMA descriptor %llu: %s; it completes with %s%s", g->name,
			 (unsigned long long)pos, what, doca_error_get_name(err),
			 g->logged == LOG_MAX ? " (further bad descriptors are counted, not logged)" : "");
}

/* Resolves one side of descriptor @pos; its address range must lie in a started mmap. */
static doca_error_t check_side(struct dma_gpu *g, uint64_t pos, unsigned int side, uint32_t mkey_be, uint64_t addr,
			       uint64_t len)
{
	const char *what = side == 0 ? "source" : "destination";
	uint32_t mkey = __builtin_bswap32(mkey_be);
	struct mkey_cache *c = &g->cache[side];
	uintptr_t base;

	if (c->mkey != mkey || mkey == 0) {
		if (!priv_doca_mmap_by_mkey(mkey, &c->r)) {
			c->mkey = 0;
			return bad_desc(g, pos, DOCA_ERROR_INVALID_VALUE,
					"%s mkey 0x%08x names no started mmap; take keys and addresses from a buf "
					"array of a started mmap (doca_gpu_dev_buf_get_buf)",
					what, mkey);
		}
		if (g->gops->device_only(g->gpu, c->r.addr, c->r.len)) {
			c->mkey = 0;
			return bad_desc(g, pos, DOCA_ERROR_NOT_SUPPORTED,
					"%s mmap %p covers DOCA_GPU_MEM_TYPE_GPU memory, which softdoca's CPU-side DMA "
					"cannot reach; allocate it as DOCA_GPU_MEM_TYPE_GPU_CPU or CPU_GPU",
					what, (const void *)c->r.mmap);
		}
		c->mkey = mkey;
	}
	base = (uintptr_t)c->r.addr;
	if (addr < base || addr - base > c->r.len || len > c->r.len - (addr - base))
		return bad_desc(g, pos, DOCA_ERROR_INVALID_VALUE,
				"%s range 0x%llx + %llu is outside mmap %p (0x%llx + %zu) that mkey 0x%08x names", what,
				(unsigned long long)addr, (unsigned long long)len, (const void *)c->r.mmap,
				(unsigned long long)base, c->r.len, mkey);
	if (!(c->r.read_devs & g->dev_bit))
		return bad_desc(g, pos, DOCA_ERROR_NOT_PERMITTED,
				"%s mmap %p does not include the context's device; call doca_mmap_add_dev() before "
				"doca_mmap_start()",
				what, (const void *)c->r.mmap);
	if (side == 1 && !(c->r.write_devs & g->dev_bit))
		return bad_desc(g, pos, DOCA_ERROR_NOT_PERMITTED,
				"destination mmap %p is read-only; pass DOCA_ACCESS_FLAG_LOCAL_READ_WRITE to "
				"doca_mmap_set_permissions() before doca_mmap_start()",
				(const void *)c->r.mmap);
	return DOCA_SUCCESS;
}

static doca_error_t check_desc(struct dma_gpu *g, uint64_t pos, const struct doca_gpu_dma_desc *d)
{
	doca_error_t ret;

	if (d->len == 0 || d->len > g->max_len)
		return bad_desc(g, pos, DOCA_ERROR_INVALID_VALUE,
				"length %llu is outside 1..%llu (the device's max_buf_size)",
				(unsigned long long)d->len, (unsigned long long)g->max_len);
	ret = check_side(g, pos, 0, d->src_mkey, d->src_addr, d->len);
	if (ret == DOCA_SUCCESS)
		ret = check_side(g, pos, 1, d->dst_mkey, d->dst_addr, d->len);
	return ret;
}

/* Takes committed descriptors into the window: checked, then an engine job or a failure. */
static unsigned int intake(struct dma_gpu *g)
{
	uint64_t db = doca_gpunetio_hd_load_acquire_u64(&g->ctrl->doorbell);
	unsigned int epoch = priv_doca_mmap_mkey_epoch();
	unsigned int n = 0;

	if (epoch != g->epoch) {
		/* A map started or stopped since the cache was filled. */
		g->cache[0].mkey = g->cache[1].mkey = 0;
		g->epoch = epoch;
	}
	while (g->head < db && g->head - g->tail < g->window) {
		uint64_t pos = g->head;
		const struct doca_gpu_dma_desc *d = &g->desc[pos & RING_MASK];
		struct gpu_slot *s = &g->slots[pos & (g->window - 1u)];
		doca_error_t ret;

		/* Reserved but still being written (or a doorbell past what was posted). */
		if (doca_gpunetio_hd_load_acquire_u64(&d->seq) != pos + 1)
			break;
		ret = check_desc(g, pos, d);
		atomic_store_explicit(&s->comp.done, 0, memory_order_relaxed);
		if (ret == DOCA_SUCCESS) {
			s->src.addr = (void *)(uintptr_t)d->src_addr;
			s->src.len = d->len;
			s->dst.addr = (void *)(uintptr_t)d->dst_addr;
			s->dst.len = d->len;
			s->job.len = d->len;
			if (g->exec->submit(g->q, &s->job) != 0)
				break; /* the engine is full: take it again later */
		} else {
			engine_complete_pe(&s->comp, ret);
		}
		g->head++;
		n++;
	}
	return n;
}

/* Writes the completions of finished descriptors, in ring order; moves cons. */
static unsigned int publish(struct dma_gpu *g)
{
	uint64_t t = g->tail;

	while (t < g->head) {
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
	if (t == g->tail)
		return 0;
	/* Everything the copies wrote is visible to whoever sees the new cons. */
	doca_gpunetio_hd_store_release_u64(&g->ctrl->cons, t);
	t -= g->tail;
	g->tail += t;
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
	while (g->tail < g->head) {
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
	g->head = g->tail = 0;
	g->cache[0].mkey = g->cache[1].mkey = 0;
	g->epoch = priv_doca_mmap_mkey_epoch();
	g->st_done = g->st_bytes = g->st_errors = 0;
	g->logged = 0;
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
	       svc->name, (unsigned long long)svc->head, (unsigned long long)svc->st_done,
	       (unsigned long long)svc->st_bytes, (unsigned long long)svc->st_errors);
	if (svc->logged > LOG_MAX)
		SD_WARN(COMP, "%s: %u bad GPU DMA descriptors in all, %u of them logged", svc->name, svc->logged,
			LOG_MAX);
}
