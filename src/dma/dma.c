/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma.c - DOCA DMA: the memcpy task on top of the core context.
 *
 * What this module adds to the core: capability queries from the device profile, the task
 * pool configuration, the translation of a task's source/destination buf lists into an engine
 * job (with every rule checked first), and its data path: the context's data path is one
 * executor queue (the SOFTDOCA_ENGINE choice), which the core calls directly with each task's
 * job (priv_doca_ctx_pool_init_executor), and, for memory outside this process, the transport the registry
 * picks for the (source, destination) memory-domain pair, cached per context. Each task carries
 * its job and preallocated segment arrays sized by the profile's max_buf_list_len, so preparing
 * a task never allocates.
 *
 * Rules checked when a task is prepared (doca_task_submit reports a broken rule through the
 * error callback, doca_task_try_submit returns it):
 *   BAD_STATE      a buf was released (refcount 0) or its mmap is not started
 *   INVALID_VALUE  list longer than max_buf_list_len; more bytes than max_buf_size; no source
 *                  data; destination too small
 *   NOT_PERMITTED  an mmap does not include the context's device; destination mmap without
 *                  LOCAL_READ_WRITE; a from-export destination whose export is read-only
 *                  (needs DOCA_ACCESS_FLAG_PCI_READ_WRITE)
 *   NOT_SUPPORTED  source and destination both in other processes; one side mixing memory of
 *                  several processes or from-export mmaps
 *
 * Cross-process tasks (a from-export mmap on one side, see export.h): the job names the
 * exporter's memory domain on that side and the transport for the pair (cma: process_vm_readv/
 * writev). From-export maps have no device bits (read_devs and write_devs are 0, core.h), so
 * such tasks always take prepare_full().
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dma.h>

#include "core.h"
#include "dma_internal.h"
#include "export.h"
#include "gpu_hook.h"

#define COMP "dma"

struct doca_dma {
	struct doca_ctx ctx; /* first: doca_dma_as_ctx is a cast both ways */
	doca_dma_task_memcpy_completion_cb_t comp_cb;
	doca_dma_task_memcpy_completion_cb_t err_cb;
	uint32_t num_tasks;
	const struct topo_profile *profile;
	uint32_t max_list;	 /* profile->dma.max_buf_list_len */
	struct engine_seg *segs; /* 2 * max_list per task */
	/* Transport per (source, destination) domain-kind pair, looked up on first use. */
	const struct engine_xfer *xfer[ENGINE_NB_PAIRS];
	uint32_t xfer_known; /* bit i: xfer[i] looked up */
	/* doca_ctx_set_datapath_on_gpu(): the GPU, and its data path once started (dma_gpu.c). */
	struct doca_gpu *gpu;
	struct dma_gpu *gpu_svc;
};

struct doca_dma_task_memcpy {
	struct doca_task base; /* first: the generic view */
	struct engine_job job; /* what the executor runs; it reaches only base.comp */
	const struct doca_buf *src;
	struct doca_buf *dst;
	struct engine_seg *segs;
	/* Bytes written into each destination element, set by prepare, applied on success. */
	uint32_t ndst;
};

/* The core hands the executor each task's job without a lookup (struct ctx_exec_task). */
_Static_assert(offsetof(struct doca_dma_task_memcpy, job) == offsetof(struct ctx_exec_task, job),
	       "a DMA task begins with a struct ctx_exec_task");

static inline struct doca_dma *dma_of(struct doca_ctx *ctx)
{
	return (struct doca_dma *)ctx;
}

static doca_error_t devinfo_profile(const struct doca_devinfo *devinfo, const struct topo_profile **p, const char *call)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL devinfo", call);
	*p = devinfo->profile;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo)
{
	const struct topo_profile *p = NULL;
	doca_error_t ret = devinfo_profile(devinfo, &p, "doca_dma_cap_task_memcpy_is_supported");

	if (ret != DOCA_SUCCESS)
		return ret;
	/* A capability answer, not a rejection: no error line (samples probe every device). */
	return p->dma.supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_dma_cap_task_memcpy_get_max_buf_list_len(const struct doca_devinfo *devinfo,
								       uint32_t *max_buf_list_len)
{
	const struct topo_profile *p = NULL;
	doca_error_t ret = devinfo_profile(devinfo, &p, "doca_dma_cap_task_memcpy_get_max_buf_list_len");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_buf_list_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_dma_cap_task_memcpy_get_max_buf_list_len: NULL output");
	*max_buf_list_len = p->dma.max_buf_list_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo,
								   uint64_t *buf_size)
{
	const struct topo_profile *p = NULL;
	doca_error_t ret = devinfo_profile(devinfo, &p, "doca_dma_cap_task_memcpy_get_max_buf_size");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (buf_size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_dma_cap_task_memcpy_get_max_buf_size: NULL output");
	*buf_size = p->dma.max_buf_size;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dma_cap_get_max_num_tasks(struct doca_dma *dma, uint32_t *max_num_tasks)
{
	if (dma == NULL || max_num_tasks == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dma_cap_get_max_num_tasks: NULL argument");
	*max_num_tasks = dma->profile->dma.max_tasks;
	return DOCA_SUCCESS;
}

/* ---- transports per memory-domain pair (the executor is the context's data path: ctx.c) ---- */

/* The transport from @src to @dst memory, NULL after logging why none works here. */
static __attribute__((cold)) const struct engine_xfer *
dma_transport(struct doca_dma *dma, struct doca_dma_task_memcpy *t, enum mem_domain_kind src, enum mem_domain_kind dst)
{
	unsigned int idx = ENGINE_PAIR_INDEX(src, dst);
	char why[192];

	if (!(dma->xfer_known & (1u << idx))) {
		dma->xfer[idx] = priv_doca_dp_transport(src, dst, NULL, 0);
		dma->xfer_known |= 1u << idx;
	}
	if (dma->xfer[idx] == NULL) {
		priv_doca_dp_transport(src, dst, why, sizeof(why));
		SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			  "%s: task %p copies from %s memory to %s memory, and no transport for that pair works here: "
			  "%s; run doca-env to see which backends work",
			  priv_doca_ctx_name(&dma->ctx), (void *)t, priv_doca_mem_domain_kind_name(src),
			  priv_doca_mem_domain_kind_name(dst), why);
	}
	return dma->xfer[idx];
}

/* ---- context ops ---- */

static doca_error_t dma_start(struct doca_ctx *ctx)
{
	struct doca_dma *dma = dma_of(ctx);
	const struct topo_profile *p = dma->profile;
	uint32_t depth;
	doca_error_t ret;

	if (dma->gpu != NULL)
		return dma_gpu_start(ctx, dma->gpu, p, &dma->gpu_svc);
	if (dma->comp_cb == NULL) {
		/* DOCA does not say whether this is allowed; hardware contexts start without task
		 * types, so softdoca does too (README, "Behaviour choices"). */
		SD_DBG(COMP,
		       "%s starts with no memcpy task configuration (allowed); it cannot allocate memcpy tasks "
		       "until doca_dma_task_memcpy_set_conf() is called while it is IDLE",
		       priv_doca_ctx_name(ctx));
		dma->num_tasks = 0;
	}
	dma->segs =
	    calloc((size_t)(dma->num_tasks ? dma->num_tasks : 1) * 2 * p->dma.max_buf_list_len, sizeof(*dma->segs));
	if (dma->segs == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_start: %s: cannot allocate task segments",
				 priv_doca_ctx_name(ctx));
	depth = p->dma.queue_depth < dma->num_tasks ? p->dma.queue_depth : dma->num_tasks;
	if (depth == 0)
		depth = 1;
	ret = priv_doca_ctx_pool_init_executor(ctx, sizeof(struct doca_dma_task_memcpy), dma->num_tasks, depth);
	if (ret != DOCA_SUCCESS) {
		free(dma->segs);
		dma->segs = NULL;
		return ret;
	}
	for (uint32_t i = 0; i < dma->num_tasks; i++) {
		struct doca_dma_task_memcpy *t =
		    (struct doca_dma_task_memcpy *)(ctx->pool + (size_t)i * ctx->task_size);

		t->segs = dma->segs + (size_t)i * 2 * p->dma.max_buf_list_len;
		/* The job's segment arrays and completion word never move: point at them once. */
		t->job.src = t->segs;
		t->job.dst = t->segs + p->dma.max_buf_list_len;
		t->job.src_dom = NULL;
		t->job.dst_dom = NULL;
		t->job.xfer = NULL;
		t->job.comp = &t->base.comp;
	}
	return DOCA_SUCCESS;
}

static void dma_stopped(struct doca_ctx *ctx)
{
	struct doca_dma *dma = dma_of(ctx);

	if (dma->gpu != NULL) {
		dma_gpu_stop(dma->gpu_svc);
		return;
	}
	free(dma->segs);
	dma->segs = NULL;
}

/*
 * The rules for one element of a list whose head is in @origin (a from-export mmap, or NULL for
 * this process's memory): one list reaches one process through one from-export mmap. Runs for
 * every element of an imported list, so names are formatted only for a rejection.
 */
static doca_error_t check_remote(struct doca_dma *dma, struct doca_dma_task_memcpy *t, const char *side, bool is_dst,
				 const struct doca_mmap *m, const struct doca_mmap *origin)
{
	char via[16];

	if (m != origin)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s: task %p: the %s list mixes memory of %s and %s; one list must lie in one "
				 "from-export mmap or in this process only: split the copy into several tasks",
				 priv_doca_ctx_name(&dma->ctx), (void *)t, side,
				 origin ? "a from-export mmap" : "this process",
				 m->kind == MMAP_FROM_EXPORT ? "a (different) from-export mmap" : "this process");
	if (!priv_doca_mmap_has_dev(m, dma->ctx.dev)) {
		/* The name helper returns one buffer per thread: keep the first name. */
		snprintf(via, sizeof(via), "%s", priv_doca_dev_name(&m->devs[0]->info));
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: task %p: %s mmap %p was imported through device %s, not this context's device "
				 "%s; pass the context's device to doca_mmap_create_from_export()",
				 priv_doca_ctx_name(&dma->ctx), (void *)t, side, (const void *)m, via,
				 priv_doca_dev_name(&dma->ctx.dev->info));
	}
	if (is_dst && !(m->access & DOCA_ACCESS_FLAG_PCI_READ_WRITE))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: task %p: destination mmap %p was created from a read-only export (exporter pid "
				 "%d granted DOCA_ACCESS_FLAG_PCI_READ_ONLY); the exporter must pass "
				 "DOCA_ACCESS_FLAG_PCI_READ_WRITE to doca_mmap_set_permissions() before "
				 "doca_mmap_export_pci()",
				 priv_doca_ctx_name(&dma->ctx), (void *)t, (const void *)m, (int)m->pid);
	return DOCA_SUCCESS;
}

/*
 * Checks one buf list and fills @segs with its windows. Returns bytes via @total and, via
 * @remote, the from-export or GPU-memory mmap the list lives in (NULL: this process's memory).
 */
static doca_error_t walk_list(struct doca_dma *dma, struct doca_dma_task_memcpy *t, const struct doca_buf *head,
			      bool is_dst, struct engine_seg *segs, uint32_t *nseg, uint64_t *total,
			      const struct doca_mmap **remote)
{
	const char *side = is_dst ? "destination" : "source";
	const struct topo_profile *p = dma->profile;
	const struct doca_mmap *origin = NULL, *gpu_map = NULL;
	uint32_t n = 0;
	uint64_t sum = 0;

	if (head == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p has no %s buf; pass one to alloc_init or set_%s",
				 priv_doca_ctx_name(&dma->ctx), (void *)t, side, is_dst ? "dst" : "src");
	if (head->mmap == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: task %p: the %s buf %p was released (refcount 0) before the task ran; keep a "
				 "reference until the task completes",
				 priv_doca_ctx_name(&dma->ctx), (void *)t, side, (const void *)head);
	if (!head->is_head)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: the %s buf %p is inside a list; pass the list head",
				 priv_doca_ctx_name(&dma->ctx), (void *)t, side, (const void *)head);
	if (head->list_len > p->dma.max_buf_list_len)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: %s list has %u elements but device %s allows %u "
				 "(doca_dma_cap_task_memcpy_get_max_buf_list_len); split the copy into several tasks",
				 priv_doca_ctx_name(&dma->ctx), (void *)t, side, head->list_len,
				 priv_doca_dev_name(&dma->ctx.dev->info), p->dma.max_buf_list_len);
	for (const struct doca_buf *b = head; b != NULL; b = b->next) {
		const struct doca_mmap *m = b->mmap;

		if (b == head)
			origin = m->kind == MMAP_FROM_EXPORT ? m : NULL;
		if (SD_UNLIKELY(m->kind == MMAP_FROM_EXPORT || origin != NULL)) {
			doca_error_t ret = check_remote(dma, t, side, is_dst, m, origin);

			if (ret != DOCA_SUCCESS)
				return ret;
			segs[n].addr = b->data;
			segs[n].len = is_dst ? (uint64_t)(b->head + b->len - b->data) : b->data_len;
			sum += segs[n].len;
			n++;
			continue;
		}
		if (m->kind == MMAP_LOCAL && !m->started)
			return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
					 "%s: task %p: %s mmap %p is stopped; start it again",
					 priv_doca_ctx_name(&dma->ctx), (void *)t, side, (const void *)m);
		if (!priv_doca_mmap_has_dev(m, dma->ctx.dev))
			return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
					 "%s: task %p: %s mmap %p does not include device %s; call "
					 "doca_mmap_add_dev(mmap, dev) before doca_mmap_start()",
					 priv_doca_ctx_name(&dma->ctx), (void *)t, side, (const void *)m,
					 priv_doca_dev_name(&dma->ctx.dev->info));
		if (is_dst && !priv_doca_mmap_local_writable(m))
			return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
					 "%s: task %p: destination mmap %p is read-only; pass "
					 "DOCA_ACCESS_FLAG_LOCAL_READ_WRITE (or a write-capable export flag such as "
					 "DOCA_ACCESS_FLAG_PCI_READ_WRITE) to doca_mmap_set_permissions() before "
					 "doca_mmap_start()",
					 priv_doca_ctx_name(&dma->ctx), (void *)t, (const void *)m);
		if (SD_UNLIKELY(m->domain->kind == MEM_DOMAIN_GPU || gpu_map != NULL)) {
			/* GPU-only memory: the whole list in one GPU's memory, moved by a transport. */
			if (b == head)
				gpu_map = m;
			else if (gpu_map == NULL || m->domain->kind != MEM_DOMAIN_GPU ||
				 m->domain->u.gpu.gpu != gpu_map->domain->u.gpu.gpu)
				return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
						 "%s: task %p: the %s list mixes GPU memory (%s) with other memory; "
						 "give each its own task",
						 priv_doca_ctx_name(&dma->ctx), (void *)t, side,
						 (gpu_map != NULL ? gpu_map : m)->domain->name);
		}
		if (is_dst) {
			/* Destination room: from the data pointer to the end of the element. */
			segs[n].addr = b->data;
			segs[n].len = (uint64_t)(b->head + b->len - b->data);
		} else {
			segs[n].addr = b->data;
			segs[n].len = b->data_len;
		}
		sum += segs[n].len;
		n++;
	}
	*nseg = n;
	*total = sum;
	*remote = origin != NULL ? origin : gpu_map;
	return DOCA_SUCCESS;
}

/*
 * Fast path for the common task: one source buf and one destination buf, both on maps already
 * checked against this context's device. Returns false when the full walk must decide.
 */
static inline bool prepare_single(struct doca_dma *dma, struct doca_dma_task_memcpy *t)
{
	const struct doca_buf *s = t->src;
	struct doca_buf *d = t->dst;
	const struct doca_dev *dev = dma->ctx.dev;
	struct engine_job *job = &t->job;
	uint64_t len, room;

	if (s == NULL || d == NULL || s->mmap == NULL || d->mmap == NULL)
		return false;
	if (s->next != NULL || d->next != NULL || !s->is_head || !d->is_head)
		return false;
	/* Only started maps of this process's memory have these bits; the rest take the full walk. */
	if (!priv_doca_mmap_cpu_reads(s->mmap, dev) || !priv_doca_mmap_cpu_writes(d->mmap, dev))
		return false;
	len = s->data_len;
	room = (uint64_t)(d->head + d->len - d->data);
	if (len == 0 || len > room || len > dma->profile->dma.max_buf_size)
		return false;
	job->xfer = NULL; /* the task may have been a cross-process one last time */
	t->segs[0].addr = s->data;
	t->segs[0].len = len;
	t->segs[dma->max_list].addr = d->data;
	t->segs[dma->max_list].len = len;
	t->ndst = 1;
	job->nsrc = 1;
	job->ndst = 1;
	job->len = len;
	t->base.bytes = len;
	return true;
}

/* Everything that is not the fast path: lists, first use of a map, and every rejection. */
static __attribute__((noinline, cold)) doca_error_t prepare_full(struct doca_dma *dma, struct doca_dma_task_memcpy *t)
{
	struct doca_task *task = &t->base;
	uint32_t max = dma->max_list;
	struct engine_job *job = &t->job;
	const struct doca_mmap *src_remote, *dst_remote;
	uint64_t src_len, dst_room;
	uint32_t nsrc, ndst;
	doca_error_t ret;

	ret = walk_list(dma, t, t->src, false, t->segs, &nsrc, &src_len, &src_remote);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = walk_list(dma, t, t->dst, true, t->segs + max, &ndst, &dst_room, &dst_remote);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (src_remote != NULL && dst_remote != NULL && src_remote->kind == MMAP_FROM_EXPORT &&
	    dst_remote->kind == MMAP_FROM_EXPORT)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s: task %p: source and destination are both from-export mmaps (exporter pids %d "
				 "and %d); softdoca copies between this process and one other: copy through a "
				 "local buffer with two tasks",
				 priv_doca_ctx_name(task->ctx), (void *)t, (int)src_remote->pid, (int)dst_remote->pid);
	if (src_len == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: source has no data (data_len 0); set the bytes to copy with "
				 "doca_buf_set_data() or get the buf with doca_buf_inventory_buf_get_by_data()",
				 priv_doca_ctx_name(task->ctx), (void *)t);
	if (src_len > dma->profile->dma.max_buf_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p copies %llu bytes but device %s allows %llu per task "
				 "(doca_dma_cap_task_memcpy_get_max_buf_size); split the copy into several tasks",
				 priv_doca_ctx_name(task->ctx), (void *)t, (unsigned long long)src_len,
				 priv_doca_dev_name(&task->ctx->dev->info),
				 (unsigned long long)dma->profile->dma.max_buf_size);
	if (dst_room < src_len)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: destination has room for %llu bytes from its data pointer but the "
				 "source holds %llu; use a larger destination",
				 priv_doca_ctx_name(task->ctx), (void *)t, (unsigned long long)dst_room,
				 (unsigned long long)src_len);
	/* Trim destination segments to what is written; the engine copies exactly src_len. */
	uint64_t left = src_len;
	uint32_t used = 0;

	while (left > 0) {
		struct engine_seg *d = &t->segs[max + used];

		if (d->len > left)
			d->len = left;
		left -= d->len;
		used++;
	}
	(void)ndst;
	job->src_dom = src_remote ? src_remote->domain : NULL;
	job->dst_dom = dst_remote ? dst_remote->domain : NULL;
	job->xfer = NULL;
	if (src_remote != NULL || dst_remote != NULL) {
		job->xfer = dma_transport(dma, t, src_remote ? src_remote->domain->kind : MEM_DOMAIN_LOCAL,
					  dst_remote ? dst_remote->domain->kind : MEM_DOMAIN_LOCAL);
		if (job->xfer == NULL)
			return DOCA_ERROR_NOT_SUPPORTED;
	}
	t->ndst = used;
	job->nsrc = nsrc;
	job->ndst = used;
	job->len = src_len;
	task->bytes = src_len;
	return DOCA_SUCCESS;
}

static doca_error_t dma_prepare(struct doca_task *task)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	struct doca_dma *dma = dma_of(task->ctx);

	if (SD_LIKELY(prepare_single(dma, t)))
		return DOCA_SUCCESS;
	return prepare_full(dma, t);
}

static void dma_finish(struct doca_task *task)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	struct doca_buf *b = t->dst;
	uint32_t max;

	/* Each written destination element's data_len = bytes written into it: all of them when
	 * one element took the copy. */
	if (SD_LIKELY(t->ndst == 1 && b->next == NULL)) {
		b->data_len = task->bytes;
		return;
	}
	max = dma_of(task->ctx)->max_list;
	for (uint32_t i = 0; b != NULL; i++, b = b->next)
		b->data_len = i < t->ndst ? t->segs[max + i].len : 0;
}

static void dma_deliver(struct doca_task *task, bool success)
{
	struct doca_dma *dma = dma_of(task->ctx);
	doca_dma_task_memcpy_completion_cb_t cb = success ? dma->comp_cb : dma->err_cb;

	cb((struct doca_dma_task_memcpy *)task, task->user_data, task->ctx->user_data);
}

/* The core calls this while IDLE and unconnected, then marks the data path external. */
static doca_error_t dma_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu)
{
	struct doca_dma *dma = dma_of(ctx);

	if (priv_doca_gpu_base(gpu) == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_ctx_set_datapath_on_gpu: %s: %p is not a GPU from doca_gpu_create()",
				 priv_doca_ctx_name(ctx), (void *)gpu);
	if (dma->gpu_svc != NULL && dma->gpu != gpu)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_set_datapath_on_gpu: %s already has its GPU ring on another GPU; create "
				 "a new context for this one",
				 priv_doca_ctx_name(ctx));
	dma->gpu = gpu;
	return DOCA_SUCCESS;
}

static const struct ctx_ops dma_ctx_ops = {
    .name = "dma",
    .start = dma_start,
    .stopped = dma_stopped,
    .prepare = dma_prepare,
    .deliver = dma_deliver,
    .finish = dma_finish,
    .set_datapath_on_gpu = dma_set_datapath_on_gpu,
};

/* ---- public API ---- */

DOCA_STABLE doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma)
{
	struct doca_dma *d;

	if (dev == NULL || dma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dma_create: NULL argument");
	if (!dev->info.profile->dma.supported)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_dma_create: device %s has no DMA (profile '%s' sets dma = no); pick a device "
				 "for which doca_dma_cap_task_memcpy_is_supported() succeeds",
				 priv_doca_dev_name(&dev->info), dev->info.profile->name);
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return DOCA_ERROR_NO_MEMORY;
	priv_doca_ctx_init(&d->ctx, &dma_ctx_ops, dev);
	d->profile = dev->info.profile;
	d->max_list = d->profile->dma.max_buf_list_len;
	*dma = d;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dma_destroy(struct doca_dma *dma)
{
	doca_error_t ret;

	if (dma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dma_destroy: NULL context");
	ret = priv_doca_ctx_fini(&dma->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	dma_gpu_destroy(dma->gpu_svc);
	free(dma->segs);
	free(dma);
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma)
{
	return dma ? &dma->ctx : NULL;
}

DOCA_STABLE doca_error_t doca_dma_task_memcpy_set_conf(struct doca_dma *dma,
						       doca_dma_task_memcpy_completion_cb_t task_completion_cb,
						       doca_dma_task_memcpy_completion_cb_t task_error_cb,
						       uint32_t num_memcpy_tasks)
{
	doca_error_t ret;

	if (dma == NULL || task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_dma_task_memcpy_set_conf: NULL %s; pass a DMA context and both callbacks",
				 dma == NULL ? "context" : "callback");
	if (num_memcpy_tasks == 0 || num_memcpy_tasks > dma->profile->dma.max_tasks)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_dma_task_memcpy_set_conf: %u tasks requested; device %s allows 1..%u "
				 "(doca_dma_cap_get_max_num_tasks)",
				 num_memcpy_tasks, priv_doca_dev_name(&dma->ctx.dev->info),
				 dma->profile->dma.max_tasks);
	ret = ctx_check_idle(&dma->ctx, "configure tasks before doca_ctx_start()");
	if (ret != DOCA_SUCCESS)
		return ret;
	dma->comp_cb = task_completion_cb;
	dma->err_cb = task_error_cb;
	dma->num_tasks = num_memcpy_tasks;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dma_task_memcpy_alloc_init(struct doca_dma *dma, const struct doca_buf *src,
							 struct doca_buf *dst, union doca_data user_data,
							 struct doca_dma_task_memcpy **task)
{
	struct doca_task *t;

	if (SD_UNLIKELY(dma == NULL || task == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dma_task_memcpy_alloc_init: NULL %s",
				 dma == NULL ? "context" : "output argument");
	if (SD_UNLIKELY(dma->comp_cb == NULL))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_dma_task_memcpy_alloc_init: %s has no memcpy task configuration; call "
				 "doca_dma_task_memcpy_set_conf() before doca_ctx_start()",
				 priv_doca_ctx_name(&dma->ctx));
	t = priv_doca_task_take(&dma->ctx);
	if (SD_UNLIKELY(t == NULL))
		return priv_doca_task_alloc_fail(&dma->ctx);
	t->user_data = user_data;
	((struct doca_dma_task_memcpy *)t)->src = src;
	((struct doca_dma_task_memcpy *)t)->dst = dst;
	*task = (struct doca_dma_task_memcpy *)t;
	if (SD_UNLIKELY(dma->ctx.traced))
		return priv_doca_task_alloc_traced(&dma->ctx, t);
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_task *doca_dma_task_memcpy_as_task(struct doca_dma_task_memcpy *task)
{
	return task ? &task->base : NULL;
}

DOCA_STABLE void doca_dma_task_memcpy_set_src(struct doca_dma_task_memcpy *task, const struct doca_buf *src)
{
	if (task != NULL)
		task->src = src;
}

DOCA_STABLE const struct doca_buf *doca_dma_task_memcpy_get_src(const struct doca_dma_task_memcpy *task)
{
	return task ? task->src : NULL;
}

DOCA_STABLE void doca_dma_task_memcpy_set_dst(struct doca_dma_task_memcpy *task, struct doca_buf *dst)
{
	if (task != NULL)
		task->dst = dst;
}

DOCA_STABLE struct doca_buf *doca_dma_task_memcpy_get_dst(const struct doca_dma_task_memcpy *task)
{
	return task ? task->dst : NULL;
}

DOCA_EXPERIMENTAL doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **gpu_dma)
{
	if (dma == NULL || gpu_dma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dma_get_gpu_handle: NULL %s",
				 dma == NULL ? "context" : "output argument");
	if (dma->gpu == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_dma_get_gpu_handle: %s has its data path on the CPU; call "
				 "doca_ctx_set_datapath_on_gpu() before doca_ctx_start()",
				 priv_doca_ctx_name(&dma->ctx));
	if (dma->ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_dma_get_gpu_handle: %s is %s; the GPU handle exists once doca_ctx_start() "
				 "succeeded",
				 priv_doca_ctx_name(&dma->ctx), priv_doca_ctx_state_name(dma->ctx.state));
	*gpu_dma = dma_gpu_handle(dma->gpu_svc);
	return DOCA_SUCCESS;
}
