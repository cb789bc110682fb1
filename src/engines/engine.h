/*
 * engine.h - the boundary between the softdoca core and the engines that move bytes.
 *
 *   application thread (PE)                         engine
 *   -----------------------                         ------
 *   doca_task_submit()
 *     core validates, fills task->job  ----submit--->  queue (ring / list)
 *     core appends task to ctx FIFO                      |  copy the segments
 *   doca_pe_progress()                                   |
 *     ops->poll(q)  <------------------------------------+  engine_task_complete(job, status)
 *     core delivers FIFO head while job.done                (release-store of job->done)
 *
 * The core owns every state machine (context, task, PE). An engine only copies the bytes a job
 * describes and reports each job exactly once with engine_task_complete(), from any thread.
 * Completions are delivered to the application by the core, in submission order per context,
 * only from doca_pe_progress().
 *
 * An engine is one `static const struct engine_ops`; engine.c lists them all. Ops an engine
 * does not need point at the engine_nop_* helpers, never NULL.
 */
#ifndef SD_ENGINE_H_
#define SD_ENGINE_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

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

/* Values of the exporter's export state word (struct engine_peer.state). */
enum engine_peer_state {
	ENGINE_PEER_LIVE = 1,	 /* the exported mmap is started: its memory may be reached */
	ENGINE_PEER_REVOKED = 2, /* the exporter stopped or destroyed the mmap */
};

/*
 * The other process of a cross-process job: the exporter of a from-export mmap, as this
 * (importing) process sees it. Owned by that mmap (src/core/export.c), which cannot be destroyed
 * while a buf, and so a job, points into it; engines only read it, from any thread.
 *
 * Before each process_vm_readv/writev call an engine checks, in this order, that the export
 * state word reads LIVE (the exporter writes it; one load) and that the pidfd is not readable
 * (the exporter has not exited; a pidfd names one process, never a later one with the same pid).
 * engine_copy_remote_*() do both.
 */
struct engine_peer {
	pid_t pid;
	int pidfd;
	const _Atomic uint32_t *state; /* enum engine_peer_state, in memory the exporter shares */
	atomic_uint logged;	       /* failure causes already logged: one line per cause */
	char name[96];		       /* "exporter pid 1234 (b1:00.0), range 0x7f..+4096" */
};

/*
 * One copy: the bytes of src[0..nsrc) in order, written into dst[0..ndst) in order.
 * The core guarantees sum(src.len) == len <= sum(dst.len) and len > 0.
 * pid fields name the process owning the memory (0 = this process). At most one side is in
 * another process; then `peer` describes that process and the segments of that side hold its
 * addresses (meaningless here). Engines copy such jobs with engine_copy_remote_*().
 */
struct engine_job {
	const struct engine_seg *src;
	const struct engine_seg *dst;
	uint32_t nsrc;
	uint32_t ndst;
	uint64_t len;
	pid_t src_pid;
	pid_t dst_pid;
	struct engine_peer *peer; /* valid only when src_pid or dst_pid is not 0 */
	struct engine_notify *notify;
	/* Set by engine_task_complete(); status is valid once done reads 1 (acquire). */
	doca_error_t status;
	atomic_uint done;
	/* Free for the engine's own queueing while it owns the job. */
	struct engine_job *next;
	uint64_t engine_priv;
	uint64_t trace_id; /* SOFTDOCA_TRACE id of this submission (0 when tracing is off) */
};

struct engine_queue;

struct engine_queue_attr {
	uint32_t depth;	  /* most jobs in the engine at once */
	uint32_t workers; /* worker threads hint (cpu engine); 0 = engine default */
	struct engine_notify *notify;
	const char *owner; /* for log lines, e.g. "dma 0x55d0..." */
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

/* Reports @job finished with @status. Any thread; once per job; the job is the core's again. */
void engine_task_complete(struct engine_job *job, doca_error_t status);

/*
 * The same, for an engine completing on the PE thread itself (inside poll() or cancel()): no
 * other thread can be waiting on the notification for it, so no fence and no wake-up.
 */
static inline void engine_task_complete_pe(struct engine_job *job, doca_error_t status)
{
	job->status = status;
	atomic_store_explicit(&job->done, 1, memory_order_release);
}

/* Copies a local job (both pids 0) with memcpy, segment by segment. */
void engine_copy_local(const struct engine_job *job);
/* Copies bytes [off, off+len) of a local job's stream; used to split a job into chunks. */
void engine_copy_range(const struct engine_job *job, uint64_t off, uint64_t len);

/* ---- cross-process jobs (process_vm_readv / process_vm_writev) ---- */

/* True when one side of @job is in another process. */
static inline bool engine_job_remote(const struct engine_job *job)
{
	return (job->src_pid | job->dst_pid) != 0;
}

/* True when remote jobs @a and @b may share one system call: same exporter, same direction. */
static inline bool engine_remote_batchable(const struct engine_job *a, const struct engine_job *b)
{
	return a->peer == b->peer && (a->src_pid != 0) == (b->src_pid != 0);
}

/* Most jobs engine_copy_remote_batch() takes at once. */
#define ENGINE_REMOTE_BATCH 64

/*
 * Copies @n remote jobs that are pairwise engine_remote_batchable(), in as few system calls as
 * the iovec limits allow (many small jobs -> one multi-iovec call; a large job -> chunks), and
 * stores each job's status in @status[i]. A job whose memory faults fails alone; once the
 * exporter is gone every remaining job fails. Nothing is reported: the caller completes the
 * jobs. @owner names the queue for log lines. Any thread; reads the jobs, never writes them.
 */
void engine_copy_remote_batch(struct engine_job *const *jobs, unsigned int n, doca_error_t *status, const char *owner);
/* Copies bytes [off, off+len) of a remote job's stream (a chunk of a split job). */
doca_error_t engine_copy_remote_range(const struct engine_job *job, uint64_t off, uint64_t len, const char *owner);

/* Nop helpers for ops an engine does not need. */
unsigned int engine_nop_poll(struct engine_queue *q, unsigned int budget);
bool engine_nop_pending(const struct engine_queue *q);

/* The registry. */
const struct engine_ops *engine_find(const char *name);
/*
 * The engine for new queues: SOFTDOCA_ENGINE, else the config's [engine] name, else "auto".
 * NULL (after logging why) when the name is unknown.
 */
const struct engine_ops *engine_default(void);
/* Most worker threads of one cpu engine queue. */
#define ENGINE_MAX_WORKERS 16
/* Why SOFTDOCA_CPU_WORKERS cannot be used, or NULL (a context start is refused then). */
const char *engine_env_error(void);
/* SOFTDOCA_CPU_WORKERS when it is set and valid, else 0. */
uint32_t engine_env_cpu_workers(void);
/* Comma-separated names of all engines, for messages. */
const char *engine_names(void);

extern const struct engine_ops engine_inline_ops;
extern const struct engine_ops engine_cpu_ops;
extern const struct engine_ops engine_auto_ops;

#endif /* SD_ENGINE_H_ */
