/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * engine.h - the boundary between the softdoca core and the backends that move bytes.
 *
 *   application thread (PE)                         executor (inline, cpu, auto)
 *   -----------------------                         -----------------------------
 *   doca_task_submit()
 *     module prepares its job   -----submit------>  queue (ring / list)
 *     core appends task to ctx FIFO                   |  local job: memcpy
 *   doca_pe_progress()                                |  other domain: job->xfer (cma, ...)
 *     ops->poll(q)  <---------------------------------+  engine_task_complete(job, status)
 *     core delivers FIFO head once its completion is done  (release-store of comp->done)
 *
 * Two kinds of backend: executors decide where and when a job runs (on the PE thread inside
 * progress, on worker threads); transports reach memory outside this process (another process
 * through process_vm_readv/writev; GPU memory and remote hosts next) and are chosen by the core
 * per (source, destination) memory-domain pair. An executor runs any job; it hands the bytes of
 * a job with a transport to engine_job_copy_range()/engine_job_copy_batch().
 *
 * The core owns every state machine (context, task, PE). A backend only moves the bytes a job
 * describes and reports each job exactly once, from any thread, through the job's completion
 * word; it never reaches the task. Completions are delivered to the application by the core, in
 * submission order per context, only from doca_pe_progress().
 *
 * A backend is one directory under src/engines/ and one line in src/engines/meson.build (see
 * docs/writing-an-engine.md). Ops an executor does not need point at the engine_nop_* helpers,
 * never NULL.
 */
#ifndef SD_ENGINE_H_
#define SD_ENGINE_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <doca_error.h>

#include "sd_internal.h"

/* One contiguous piece of a source or destination. */
struct engine_seg {
	void *addr;
	uint64_t len;
};

/*
 * Where PE notifications go. Owned by the PE; an engine completing a job from its own thread
 * writes the eventfd when the application armed it (doca_pe_request_notification).
 */
struct engine_notify {
	atomic_int armed;
	int efd;
};

/* From this size on the cpu engine splits a copy over its workers (auto keeps such copies there). */
#define ENGINE_CPU_SPLIT_MIN (2ull << 20)

/*
 * After publishing work the application may be waiting for (sequentially consistent, before
 * this): writes the eventfd once if the PE is armed, and disarms it. Any thread.
 */
static inline void engine_notify_wake(struct engine_notify *n)
{
	if (n != NULL && atomic_load(&n->armed) && atomic_exchange(&n->armed, 0)) {
		uint64_t one = 1;
		ssize_t r = write(n->efd, &one, sizeof(one));

		(void)r; /* EAGAIN: the counter is already non-zero, the waiter wakes anyway */
	}
}

/*
 * The completion word of one submitted task, owned by the core (it sits in struct doca_task).
 * Whoever finishes the work writes status, then release-stores done = 1, exactly once per
 * submission; the core reads done (acquire) in doca_pe_progress() and then status. An engine
 * reaches it through engine_job.comp and never looks further: the task is the core's.
 */
struct engine_completion {
	atomic_uint done;
	doca_error_t status;
	struct engine_notify *notify; /* the PE's, set when the task pool is made */
	uint64_t trace_id;	      /* SOFTDOCA_TRACE id of this submission (0 when tracing is off) */
};

/*
 * Memory domains: where the bytes of a segment live. Every doca_mmap has one (struct
 * doca_mmap.domain): this process for local maps, the exporter for from-export maps; GPU memory
 * and remote hosts come next. A job names the domain of each side; a local-only job (both NULL)
 * is a plain memcpy, anything else goes through the transport the core chose for that pair.
 */
enum mem_domain_kind {
	MEM_DOMAIN_LOCAL = 0, /* this process's address space */
	MEM_DOMAIN_PROCESS,   /* another process on this machine (an import) */
	MEM_DOMAIN_GPU,	      /* device memory of a GPU (GPUNetIO, a CUDA transport) */
	MEM_DOMAIN_REMOTE,    /* memory of another host */
	MEM_DOMAIN_KINDS,
};

/* A (source kind, destination kind) pair as one bit, for engine_backend.pairs. */
#define ENGINE_PAIR(src, dst)	    (1u << ((unsigned int)(src)*MEM_DOMAIN_KINDS + (unsigned int)(dst)))
#define ENGINE_PAIR_INDEX(src, dst) ((unsigned int)(src)*MEM_DOMAIN_KINDS + (unsigned int)(dst))
#define ENGINE_NB_PAIRS		    (MEM_DOMAIN_KINDS * MEM_DOMAIN_KINDS)

/* Values of an exporter's export state word (struct mem_domain.process.state). */
enum mem_domain_state {
	MEM_DOMAIN_LIVE = 1,	/* the exported mmap is started: its memory may be reached */
	MEM_DOMAIN_REVOKED = 2, /* the exporter stopped or destroyed the mmap */
};

struct mem_domain {
	enum mem_domain_kind kind;
	char name[96]; /* for log lines: "this process", "exporter pid 1234 (b1:00.0), range 0x7f..+4096" */
	union {
		/*
		 * MEM_DOMAIN_PROCESS: the exporter of a from-export mmap, as this (importing) process
		 * sees it. Owned by that mmap (src/core/export.c), which cannot be destroyed while a
		 * buf, and so a job, points into it; transports only read it, from any thread. The
		 * state word lives in memory the exporter shares and writes; a pidfd names one process,
		 * never a later one with the same pid.
		 */
		struct {
			pid_t pid;
			int pidfd;
			const _Atomic uint32_t *state; /* enum mem_domain_state */
			atomic_uint logged;	       /* failure causes already logged: one line per cause */
			atomic_uint ended;	       /* 0, or the cause the export ended with: final */
		} process;
		/*
		 * MEM_DOMAIN_GPU: device memory of this GPU (struct doca_gpu of libdoca_gpunetio,
		 * reached through its priv_doca_gpu_ops, gpu_hook.h). Owned by the mmap over it.
		 */
		struct {
			struct doca_gpu *gpu;
		} gpu;
	} u;
};

struct doca_gpu;

/* The domain of this process's memory (kind MEM_DOMAIN_LOCAL). */
extern const struct mem_domain mem_domain_local;

struct engine_job;

/*
 * A transport moves the bytes of jobs one side of which is not in this process. It is chosen by
 * the core per (source, destination) domain pair and set in engine_job.xfer; executors call it
 * through engine_job_copy_range() and engine_job_copy_batch() and know nothing of domains. All
 * of it may run on any thread and reads the jobs, never writes them.
 */
struct engine_xfer {
	/* Copies bytes [off, off+len) of @job's stream; returns the job's status. */
	doca_error_t (*copy_range)(const struct engine_job *job, uint64_t off, uint64_t len, const char *owner);
	/*
	 * Copies @n jobs that are pairwise engine_job_batchable() in as few operations as it can and stores
	 * each job's status in @status[i]. NULL: one copy_range() per job.
	 */
	void (*copy_batch)(struct engine_job *const *jobs, unsigned int n, doca_error_t *status, const char *owner);
};

/*
 * One copy: the bytes of src[0..nsrc) in order, written into dst[0..ndst) in order.
 * The core guarantees sum(src.len) == len <= sum(dst.len) and len > 0.
 * xfer == NULL: both sides are in this process (src_dom and dst_dom NULL), a memcpy. Otherwise
 * the segments of a side in another domain hold that domain's addresses (meaningless here) and
 * only xfer may touch them.
 */
struct engine_job {
	const struct engine_seg *src;
	const struct engine_seg *dst;
	uint32_t nsrc;
	uint32_t ndst;
	uint64_t len;
	const struct mem_domain *src_dom; /* NULL = this process */
	const struct mem_domain *dst_dom;
	const struct engine_xfer *xfer;
	struct engine_completion *comp; /* where the result goes (engine_task_complete) */
	/* Free for the engine's own queueing while it owns the job. */
	struct engine_job *next;
	uint64_t engine_priv;
};

struct engine_queue;

struct engine_queue_attr {
	uint32_t depth;		      /* most jobs in the engine at once */
	uint32_t workers;	      /* worker threads hint (cpu engine); 0 = engine default */
	struct engine_notify *notify; /* the PE's, for executors completing on their own threads */
	const char *owner;	      /* for log lines, e.g. "dma 0x55d0..." */
};

struct engine_ops {
	const char *name;
	const char *desc;
	/* Control path. */
	doca_error_t (*queue_create)(const struct engine_queue_attr *attr, struct engine_queue **q);
	void (*queue_destroy)(struct engine_queue *q);
	/*
	 * Data path, all called from the PE thread.
	 * submit: take ownership of @job; -EAGAIN when the queue is full, -ENOBUFS when the
	 *         destination has no room yet (a comch consumer posted no buffer); nothing is
	 *         taken, and the application gets DOCA_ERROR_AGAIN for both.
	 * poll: do deferred work (the inline engine copies here); returns jobs completed.
	 * pending: true when poll() has work to do now (used to arm notifications).
	 * cancel: complete every job not yet started with @status; jobs already being copied
	 *         finish normally. Used when a context stops.
	 */
	int (*submit)(struct engine_queue *q, struct engine_job *job);
	unsigned int (*poll)(struct engine_queue *q, unsigned int budget);
	bool (*pending)(const struct engine_queue *q);
	void (*cancel)(struct engine_queue *q, doca_error_t status);
};

/* The inline executor's submit and poll (its ops' own), which auto calls directly for small jobs:
 * a direct jump costs less than a load from the table and an indirect one. */
int engine_inline_submit(struct engine_queue *q, struct engine_job *job);
unsigned int engine_inline_poll(struct engine_queue *q, unsigned int budget);

/* Writes @c's result. Any thread; once per submission; the task is the core's again. */
void engine_complete(struct engine_completion *c, doca_error_t status);

/* Reports @job finished with @status. Any thread; once per job. */
static inline void engine_task_complete(struct engine_job *job, doca_error_t status)
{
	engine_complete(job->comp, status);
}

/*
 * The same, for work completed on the PE thread itself (inside poll(), cancel() or submit()):
 * no other thread can be waiting on the notification for it, so no fence and no wake-up.
 */
static inline void engine_complete_pe(struct engine_completion *c, doca_error_t status)
{
	c->status = status;
	atomic_store_explicit(&c->done, 1, memory_order_release);
}

static inline void engine_task_complete_pe(struct engine_job *job, doca_error_t status)
{
	engine_complete_pe(job->comp, status);
}

/* Copies bytes [off, off+len) of a local job's stream; used to split a job into chunks. */
void engine_copy_range(const struct engine_job *job, uint64_t off, uint64_t len);

/* Copies a local job (xfer NULL) with memcpy, segment by segment; inline, so that the common
 * one-segment copy is a memcpy call in the executor's own loop. */
static inline void engine_copy_local(const struct engine_job *job)
{
	if (SD_LIKELY(job->nsrc == 1 && job->ndst == 1)) {
		memcpy(job->dst[0].addr, job->src[0].addr, job->len);
		return;
	}
	engine_copy_range(job, 0, job->len);
}

/* True when @job goes through a transport (one side is not in this process). */
static inline bool engine_job_xfer(const struct engine_job *job)
{
	return job->xfer != NULL;
}

/* True when jobs @a and @b may be handed to engine_job_copy_batch() together. */
static inline bool engine_job_batchable(const struct engine_job *a, const struct engine_job *b)
{
	/* Same transport, same source and destination domains: one operation can carry both (for
	 * cma, one process_vm_readv or process_vm_writev call with the same exporter). */
	return a->xfer != NULL && a->xfer == b->xfer && a->src_dom == b->src_dom && a->dst_dom == b->dst_dom;
}

/* Most jobs engine_job_copy_batch() takes at once. */
#define ENGINE_XFER_BATCH 64

/* Bytes [off, off+len) of any job: memcpy for a local one, its transport otherwise. */
doca_error_t engine_job_copy_range(const struct engine_job *job, uint64_t off, uint64_t len, const char *owner);
/* @n pairwise engine_job_batchable() jobs; each status in @status[i]. Nothing is reported. */
void engine_job_copy_batch(struct engine_job *const *jobs, unsigned int n, doca_error_t *status, const char *owner);

/* Nop helpers for ops an engine does not need. */
unsigned int engine_nop_poll(struct engine_queue *q, unsigned int budget);
bool engine_nop_pending(const struct engine_queue *q);

/* ---- the registry ---- */

enum engine_backend_kind {
	/* Runs jobs: decides where and when the bytes move (inline, cpu, auto). Has queue ops. */
	ENGINE_EXECUTOR,
	/* Reaches a memory domain other than this process's (cma). Has transport ops. */
	ENGINE_TRANSPORT,
};

/*
 * One backend: one directory under src/engines/ that defines `engine_backend_<name>`, and one
 * line of the list in src/engines/meson.build. The build generates the table from that list
 * (engine_list.h); nothing else names backends.
 */
struct engine_backend {
	const char *name;
	const char *desc;
	enum engine_backend_kind kind;
	/* ENGINE_PAIR bits of the (source, destination) domain pairs this backend moves. */
	uint32_t pairs;
	/* Higher wins when several usable backends move a pair (executors: the default choice). */
	int priority;
	/*
	 * Whether the backend works on this machine; NULL means always. False with a reason in @why
	 * (e.g. "process_vm_readv is blocked by seccomp"). Called once per process.
	 */
	bool (*probe)(char *why, size_t len);
	const struct engine_ops *ops;	/* executors */
	const struct engine_xfer *xfer; /* transports */
};

/* Every backend, in the order of the list in meson; NULL-terminated. */
extern const struct engine_backend *const engine_backends[];

/* The backend called @name, or NULL. */
const struct engine_backend *engine_backend_find(const char *name);
/* The executor called @name, or NULL (unknown, or a transport). */
const struct engine_ops *engine_find(const char *name);
/* Probes @b once per process; false with the reason in @why (may be NULL). */
bool engine_backend_usable(const struct engine_backend *b, char *why, size_t len);
/*
 * The executor for new queues: SOFTDOCA_ENGINE, else the config's [engine] name, else the
 * usable executor of highest priority. NULL when the name is unknown, not an executor, or its
 * probe fails: engine_default_error() says why, and the context that needed it logs that.
 */
const struct engine_ops *engine_default(void);
/* Why engine_default() is NULL (NULL when it is not); *@config: a SOFTDOCA_ENGINE or config
 * file choice that cannot be used, rather than a machine where no executor works. */
const char *engine_default_error(bool *config);
/*
 * The transport for jobs from domain kind @src to @dst: the usable transport of highest
 * priority that moves the pair. NULL when none does, with the reason in @why. Thread-safe;
 * the answer is computed once per process and pair.
 */
const struct engine_xfer *engine_transport_for(enum mem_domain_kind src, enum mem_domain_kind dst, char *why,
					       size_t len);
/* Most worker threads of one cpu engine queue. */
#define ENGINE_MAX_WORKERS 16
/* Why SOFTDOCA_CPU_WORKERS cannot be used, or NULL (a context start is refused then). */
const char *engine_env_error(void);
/* SOFTDOCA_CPU_WORKERS when it is set and valid, else 0. */
uint32_t engine_env_cpu_workers(void);
/* Comma-separated names of all executors, for messages. */
const char *engine_names(void);
/* "local", "process", "gpu", "remote". */
const char *mem_domain_kind_name(enum mem_domain_kind k);

#endif /* SD_ENGINE_H_ */
