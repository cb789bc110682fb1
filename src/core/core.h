/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * core.h - softdoca's object model, shared by libdoca_common and the library modules
 * (libdoca_dma, later comch, ...).
 *
 *   doca_devinfo ──open──> doca_dev <──add_dev── doca_mmap <──bind── doca_buf (from doca_buf_inventory/_pool)
 *                              ^                                        ^
 *                              │                                        │ src/dst
 *   doca_pe ──connect──> doca_ctx (base of doca_dma, ...) ──pool──> doca_task (base of doca_dma_task_memcpy)
 *
 * Threading: DOCA objects are used by one application thread at a time (the PE is not
 * thread-safe, as in DOCA). Engine worker threads never touch these structures; they see only
 * the jobs a module hands them (engine.h) and report through the task's completion word.
 *
 * Ownership of the context state machine: ctx.c. Library modules plug in through
 * struct ctx_ops (control path) and struct ctx_dp_ops (their data path) and never change
 * ctx->state themselves.
 */
#ifndef SD_CORE_H_
#define SD_CORE_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>

struct doca_gpu;

#include "engine.h"
#include "sd_internal.h"
#include "topology.h"
#include "trace.h"

/* ---- devices ---- */

struct devinfo_lookups;

struct doca_devinfo {
	const struct topo_device *tdev;
	const struct topo_profile *profile;
	uint32_t index; /* position in the topology */
	uint32_t pos;	/* position in its list (doca_devinfo_create_list) */
	/* The PCI addresses asked of the list this devinfo is in; NULL outside a list (dev->info). */
	struct devinfo_lookups *lookups;
};

/*
 * Device backends: what a NIC or GPU driver attaches to an open device (its queues, its CUDA
 * context). A backend is one static const struct dev_backend_ops; the core keeps at most
 * DEV_MAX_BACKENDS per device, each with the private data its open() returned, and calls close()
 * in reverse attach order when the last doca_dev_close() releases the device. Modules find
 * their data with priv_doca_dev_backend(dev, &their_ops), typically once at context start.
 *
 *   doca_dev ──backends[0]──▶ {ops = &nic_ops, priv}    attach: open() then publish
 *            ──backends[1]──▶ {ops = &gpu_ops, priv}    last close: close() 1, then 0
 *
 * Threading: attach and the last close run under the device-list lock, so open() and close()
 * must not open or close devices. Lookup takes no lock: an entry is written before
 * nb_backends is release-stored and never changes until the device is freed.
 */
#define DEV_MAX_BACKENDS 4

struct dev_backend_ops {
	const char *name; /* for log lines; unique among a device's backends */
	/* Sets up the backend for @dev; *priv is handed back to close() and by lookup. */
	doca_error_t (*open)(struct doca_dev *dev, void **priv);
	void (*close)(struct doca_dev *dev, void *priv);
};

struct dev_backend {
	const struct dev_backend_ops *ops;
	void *priv;
};

struct doca_dev {
	struct doca_devinfo info;
	int refcount;
	struct doca_dev *next; /* list of open devices */
	atomic_uint nb_backends;
	struct dev_backend backends[DEV_MAX_BACKENDS];
};

struct doca_devinfo_rep {
	const struct topo_device *parent;
	const struct topo_rep *trep;
	uint32_t pos;			 /* position in its list (doca_devinfo_rep_create_list) */
	struct devinfo_lookups *lookups; /* its list's addresses asked (NULL once opened) */
};

struct doca_dev_rep {
	struct doca_devinfo_rep info;
	struct doca_dev *parent_dev;
};

/* "03:00.0" style name of a device for log lines (static buffer per thread). */
SD_PRIV const char *priv_doca_dev_name(const struct doca_devinfo *info);

/*
 * Attaches @ops to the open device @dev: calls ops->open() and keeps its private data until
 * the last close. DOCA_ERROR_INVALID_VALUE for NULL arguments, an incomplete ops table or a
 * device that is not open; DOCA_ERROR_ALREADY_EXIST when @ops or its name is attached already;
 * DOCA_ERROR_FULL past DEV_MAX_BACKENDS; open()'s own error (nothing attached). Logged.
 */
SD_PRIV doca_error_t priv_doca_dev_attach(struct doca_dev *dev, const struct dev_backend_ops *ops);
/* The private data @ops's open() returned for @dev; NULL when @ops is not attached. */
SD_PRIV void *priv_doca_dev_backend(const struct doca_dev *dev, const struct dev_backend_ops *ops);

/* ---- memory maps and buffers ---- */

struct mmap_export;
struct mmap_remote;

#define MMAP_MAX_DEVS_DEFAULT 8

enum mmap_kind { MMAP_LOCAL, MMAP_FROM_EXPORT };

struct doca_mmap {
	enum mmap_kind kind;
	bool started;
	bool range_set;
	uint8_t *addr;
	size_t len;
	uint32_t access;
	uint32_t max_devs;
	uint32_t nb_devs;
	struct doca_dev **devs;
	union doca_data user_data;
	atomic_uint nb_bufs; /* bufs currently bound to this map */
	/*
	 * Access decided once: bit i set when topology device i (doca_devinfo.index) may read
	 * (read_devs) or write (write_devs) this map. Computed by doca_mmap_start() from the device
	 * list and the access flags, zero while the map is stopped and for from-export maps, and
	 * never written while the map is started, so threads sharing the map read them without
	 * synchronisation. Modules only read them (the DMA fast path).
	 */
	uint64_t read_devs;
	uint64_t write_devs;
	/*
	 * The same bits while the memory is this process's own (domain local), zero otherwise: the
	 * DMA fast path's one check for "a CPU copy in this process may read / write this map".
	 */
	uint64_t cpu_read_devs;
	uint64_t cpu_write_devs;
	/*
	 * Where the memory lives: &mem_domain_local, the exporter (mmap_remote.domain), or gpu_dom
	 * while a started local map covers GPU-only memory (gpu_mem.c).
	 */
	const struct mem_domain *domain;
	struct mem_domain gpu_dom;
	pid_t pid;		     /* owner of the memory; 0 = this process */
	struct mmap_export *exp;     /* exporter side: export state (export.h), NULL if never exported */
	struct mmap_remote *remote;  /* from-export maps: the exporter and its grant (export.h) */
	uint32_t mkey;		     /* doca_mmap_get_mkey(): unique among live maps, fixed at create */
	struct doca_mmap *mkey_next; /* the started-map registry (priv_doca_mmap_by_mkey) */
};

struct doca_buf {
	struct doca_mmap *mmap; /* NULL while free in the inventory */
	struct doca_buf_inventory *inv;
	struct doca_buf *next; /* next element of the list (or free-list link) */
	struct doca_buf *last; /* valid on a list head: its tail */
	uint8_t *head;
	size_t len;
	uint8_t *data;
	size_t data_len;
	uint16_t refcount; /* on a list head; 0 on non-head elements */
	uint16_t is_head;
	uint32_t list_len; /* valid on a list head */
};

struct doca_buf_inventory {
	bool started;
	uint32_t nb_elems;
	uint32_t nb_free;
	struct doca_buf *elems;
	struct doca_buf *free_list;
	/*
	 * Owner hook of a library-owned inventory (an rxq's managed packet bufs): called for each
	 * element of a list whose last reference goes, on the thread of that doca_buf_dec_refcount(),
	 * while the element still holds its mmap and addresses; the element then returns to the
	 * free list. NULL for application inventories.
	 */
	void (*on_release)(void *arg, const struct doca_buf *buf);
	void *release_arg;
};

/* Sets @inv's owner hook (see struct doca_buf_inventory); before the first buf is taken. */
static inline void priv_doca_buf_inventory_set_release_hook(struct doca_buf_inventory *inv,
							    void (*fn)(void *arg, const struct doca_buf *buf),
							    void *arg)
{
	inv->on_release = fn;
	inv->release_arg = arg;
}

/*
 * Takes the first descriptor of @inv's free list (the caller checked it is not empty) as a
 * one-element list with refcount 1 bound to @mmap; the caller fills in its windows.
 */
static inline struct doca_buf *priv_doca_buf_take(struct doca_buf_inventory *inv, struct doca_mmap *mmap)
{
	struct doca_buf *b = inv->free_list;

	inv->free_list = b->next;
	inv->nb_free--;
	b->mmap = mmap;
	b->next = NULL;
	b->last = b;
	b->refcount = 1;
	b->is_head = 1;
	b->list_len = 1;
	atomic_fetch_add_explicit(&mmap->nb_bufs, 1, memory_order_relaxed);
	return b;
}

/*
 * Access flags that let the local device write into a map. As in verbs (ibv_reg_mr(3): remote
 * write or atomic access requires local write), a write-capable export flag implies local write:
 * programs that run on BlueField grant only DOCA_ACCESS_FLAG_PCI_READ_WRITE to a map they also
 * use as a local DMA destination.
 */
#define MMAP_LOCAL_WRITE_FLAGS                                                                                         \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE |           \
	 DOCA_ACCESS_FLAG_RDMA_ATOMIC)

static inline bool priv_doca_mmap_local_writable(const struct doca_mmap *mmap)
{
	return (mmap->access & MMAP_LOCAL_WRITE_FLAGS) != 0;
}

/*
 * True when @dev may read / write the started @mmap and its memory is this process's own, not
 * GPU-only memory (one load, no lock).
 */
static inline bool priv_doca_mmap_cpu_reads(const struct doca_mmap *mmap, const struct doca_dev *dev)
{
	return (mmap->cpu_read_devs >> (dev->info.index & 63u)) & 1u;
}

static inline bool priv_doca_mmap_cpu_writes(const struct doca_mmap *mmap, const struct doca_dev *dev)
{
	return (mmap->cpu_write_devs >> (dev->info.index & 63u)) & 1u;
}

/* True when @dev was added to @mmap (from-export maps: the importing device). */
SD_PRIV bool priv_doca_mmap_has_dev(const struct doca_mmap *mmap, const struct doca_dev *dev);

/*
 * GPU-only memory (DOCA_GPU_MEM_TYPE_GPU) of this process, registered by libdoca_gpunetio
 * (gpu_mem.c). find: 1 with *gpu when [addr, addr + len) lies inside one registered range, -1
 * when it overlaps one without lying inside it, 0 when it touches none.
 */
struct doca_gpu;
SD_PRIV doca_error_t priv_doca_gpu_mem_add(struct doca_gpu *gpu, void *addr, size_t len);
SD_PRIV void priv_doca_gpu_mem_del(void *addr);
SD_PRIV int priv_doca_gpu_mem_find(const void *addr, size_t len, struct doca_gpu **gpu);

/*
 * The started local maps by mkey, for engines that get memory keys instead of bufs (GPU DMA
 * descriptors). What a lookup copies out stays true until the epoch changes: every start and
 * stop of a map moves it, so a caller may cache an answer while the epoch it read is current.
 * Any thread; the registry has its own lock, taken by start/stop/destroy and by lookups.
 */
struct priv_doca_mkey_range {
	const struct doca_mmap *mmap; /* for log lines only: it may be stopped once the epoch moves */
	uint8_t *addr;
	size_t len;
	uint64_t read_devs; /* struct doca_mmap.read_devs / write_devs */
	uint64_t write_devs;
};
/* @mkey in host byte order (doca_mmap_get_mkey's value). False when no started map has it. */
SD_PRIV bool priv_doca_mmap_by_mkey(uint32_t mkey, struct priv_doca_mkey_range *out);
SD_PRIV unsigned int priv_doca_mmap_mkey_epoch(void);

/* ---- tasks, contexts, progress engine ---- */

enum task_state { TASK_FREE = 0, TASK_ALLOCATED, TASK_SUBMITTED };

struct doca_task {
	struct doca_ctx *ctx;
	union doca_data user_data;
	doca_error_t status;
	uint8_t state;
	bool in_engine;		/* job handed to the engine, not yet completed */
	bool free_after;	/* doca_task_free() came while in flight: free once its callback returns */
	struct doca_task *next; /* free list / ctx FIFO */
	/* Free for the module's data path while it owns the submitted task (its own queues). */
	struct doca_task *dp_next;
	/*
	 * Where the finished task goes, once per submission (ctx.c's delivery calls it with
	 * task->status set): the module's ops->deliver, i.e. the application's callbacks, set when
	 * the pool is made. Whoever submits a task on its own behalf (a graph node) installs its own
	 * hook before the submit and puts ops->deliver back when it runs; done_arg and done_idx
	 * belong to that hook.
	 */
	void (*on_done)(struct doca_task *task, bool success);
	void *done_arg;
	uint32_t done_idx;
	uint64_t fault_due_ns; /* SOFTDOCA_FAULT delay: not delivered before this time */
	uint64_t bytes;	       /* what the task moves, set by ops->prepare (statistics, trace) */
	/* Written once per submission by whoever finishes it (priv_doca_task_complete*). */
	struct engine_completion comp;
};

/*
 * A module's data path: where its submitted tasks go. One queue per started context, made by
 * the core after ops->start sized the pool; all ops but those the module documents otherwise
 * run on the PE thread. The core keeps the FIFO, delivers in progress, flushes on stop and
 * drives notifications; the data path only finishes tasks, each exactly once, through
 * priv_doca_task_complete() (any thread) or priv_doca_task_complete_pe() (PE thread).
 *   submit:  take @task (prepared); -EAGAIN when full, -ENOBUFS when the destination has no
 *            room yet (a comch consumer posted no buffer): nothing is taken, and the
 *            application gets DOCA_ERROR_AGAIN for both.
 *   poll:    deferred work; returns how many tasks it finished.
 *   pending: true when poll() has work to do now (used to arm notifications).
 *   cancel:  finish every task not yet started with @status (a context stops).
 */
struct ctx_dp_queue;

struct ctx_dp_attr {
	struct doca_ctx *ctx;
	uint32_t depth;		      /* most tasks in the data path at once */
	struct engine_notify *notify; /* the PE's, or NULL */
	const char *owner;	      /* for log lines, e.g. "dma 0x55d0..." */
};

struct ctx_dp_ops {
	const char *name;
	doca_error_t (*queue_create)(const struct ctx_dp_attr *attr, struct ctx_dp_queue **q);
	void (*queue_destroy)(struct ctx_dp_queue *q);
	int (*submit)(struct ctx_dp_queue *q, struct doca_task *task);
	unsigned int (*poll)(struct ctx_dp_queue *q, unsigned int budget);
	bool (*pending)(const struct ctx_dp_queue *q);
	void (*cancel)(struct ctx_dp_queue *q, doca_error_t status);
	/* For the log line of a refused submit ("engine cpu"); NULL: the data path's name. */
	const char *(*describe)(const struct ctx_dp_queue *q);
};

/*
 * The start of a task whose data path is an executor of src/engines (DMA): the job right after
 * the generic task, at an offset the core knows without looking it up.
 */
struct ctx_exec_task {
	struct doca_task base;
	struct engine_job job;
};

/* Data-path helpers for ops a module does not need. */
SD_PRIV unsigned int priv_doca_dp_nop_poll(struct ctx_dp_queue *q, unsigned int budget);
SD_PRIV bool priv_doca_dp_nop_pending(const struct ctx_dp_queue *q);
SD_PRIV void priv_doca_dp_nop_cancel(struct ctx_dp_queue *q, doca_error_t status);

/*
 * For modules whose data path moves bytes (DMA): a queue of the executor the process selected
 * (SOFTDOCA_ENGINE, the config, or the best usable one), sized and named by @attr. Logs why
 * and fails when no executor is usable.
 */
SD_PRIV doca_error_t priv_doca_dp_executor_create(const struct ctx_dp_attr *attr, const struct engine_ops **ops,
						  struct engine_queue **q);
/* The transport for jobs from @src to @dst memory (engine_transport_for, engine.h). */
SD_PRIV const struct engine_xfer *priv_doca_dp_transport(enum mem_domain_kind src, enum mem_domain_kind dst, char *why,
							 size_t len);
SD_PRIV const char *priv_doca_mem_domain_kind_name(enum mem_domain_kind k);

/*
 * Finishes @task with @status from any thread (wakes an armed PE). A function, not an inline:
 * modules in other libraries (libdoca_eth) finish tasks from threads other than the PE's.
 */
SD_PRIV void priv_doca_task_complete(struct doca_task *task, doca_error_t status);

/* The same on the PE thread (inside submit, poll or cancel): no fence, no wake-up. */
static inline void priv_doca_task_complete_pe(struct doca_task *task, doca_error_t status)
{
	engine_complete_pe(&task->comp, status);
}

/* True once @task's data path finished it (acquire). */
static inline bool priv_doca_task_done(const struct doca_task *task)
{
	return atomic_load_explicit(&((struct doca_task *)task)->comp.done, memory_order_acquire) != 0;
}

/*
 * A context extension: work a feature keeps beside the context's own task FIFO (task batches,
 * task_batch.c) and drives from the context's progress, without ctx.c naming the feature. The
 * feature embeds a struct ctx_ext, points ctx->ext at it and calls ctx_progress_path();
 * progress then calls progress() after the FIFO, has_work() when arming notifications, and
 * release() when the context returns to IDLE or is destroyed (release clears ctx->ext).
 */
struct ctx_ext_ops {
	const char *name;
	unsigned int (*progress)(struct doca_ctx *ctx, unsigned int budget);
	bool (*has_work)(const struct doca_ctx *ctx);
	void (*release)(struct doca_ctx *ctx);
};

struct ctx_ext {
	const struct ctx_ext_ops *ops;
};

/*
 * How the core treats a module's contexts, fixed per module (struct ctx_ops.policy): what
 * DMA needs is all false. What changes at run time is context state instead
 * (doca_ctx.datapath_external).
 */
struct ctx_policy {
	/* A failed task does not stop the context (comch: one bad peer must not stop a server). */
	bool keep_running_on_error;
	/* Tasks complete in any order (sync event waits): progress delivers every finished task,
	 * not only the FIFO head. */
	bool unordered;
	/* A task whose job really finished keeps its success when the context stops before
	 * delivery (comch: the message did leave); the data path's cancel still fails the jobs it
	 * did not run. */
	bool keep_done_on_stop;
	/* With a GPU data path (set_datapath_on_gpu), the context may also be connected to a PE,
	 * which then delivers its CPU events (eth txq: send completions as events) through
	 * ops->events; it still has no CPU tasks. */
	bool pe_with_gpu;
};

struct ctx_ops {
	const char *name; /* "dma" */
	struct ctx_policy policy;
	/*
	 * IDLE -> RUNNING: allocate pools and engine queue. An asynchronous context (comch client)
	 * returns DOCA_ERROR_IN_PROGRESS instead: the core moves it to STARTING, and the module
	 * later calls priv_doca_ctx_start_done() from its events hook.
	 */
	doca_error_t (*start)(struct doca_ctx *ctx);
	/* Called once the context is IDLE again: release what start allocated. */
	void (*stopped)(struct doca_ctx *ctx);
	/*
	 * Prepare @task for the data path: validate, fill the module's job, set task->bytes. @strict: called from
	 * try_submit. Returns SUCCESS, or the error to report. A content error (bad sizes,
	 * rights) is reported by the core through the error callback for plain submit, and
	 * returned synchronously for try_submit; BAD_STATE is always returned synchronously.
	 */
	doca_error_t (*prepare)(struct doca_task *task);
	/* Runs the task's completion or error callback (status already in task->status). */
	void (*deliver)(struct doca_task *task, bool success);
	/*
	 * The ops below are optional: priv_doca_ctx_init() fills those a module leaves NULL with
	 * the core's defaults (do nothing, nothing pending, no GPU data path), so the core calls
	 * them without checking.
	 *
	 * finish: after a successful copy, before deliver(): e.g. set destination data_len.
	 */
	void (*finish)(struct doca_task *task);
	/*
	 * Hooks for contexts with work besides task completions (comch: sockets); not given in
	 * DMA. None of them is on the task path.
	 *
	 * events:   first thing in every doca_pe_progress() visit of the context, in any state:
	 *           handle what arrived and run the event callbacks. Returns how many things
	 *           happened. May call priv_doca_ctx_start_done() or priv_doca_ctx_fail(). Whatever
	 *           it leaves undone must keep a watched fd readable (priv_doca_pe_watch_fd), so
	 *           that an armed notification handle wakes the application.
	 * stopping: the context just left STARTING or RUNNING, after the engine cancelled what it
	 *           had not started: stop producing events (close connections).
	 */
	unsigned int (*events)(struct doca_ctx *ctx);
	void (*stopping)(struct doca_ctx *ctx);
	/*
	 * Optional: doca_ctx_set_datapath_on_gpu() for a module whose data path can run on a GPU
	 * (GPUNetIO queues). Called while IDLE and not connected to a PE; on success the core marks
	 * the context's data path external (see priv_doca_ctx_set_datapath_external). Not given:
	 * the call is refused with NOT_SUPPORTED.
	 */
	doca_error_t (*set_datapath_on_gpu)(struct doca_ctx *ctx, struct doca_gpu *gpu);
	/*
	 * Optional, with events(): true when events() has something to deliver now without a
	 * watched fd saying so (eth txq's GPU send completions); used to arm notifications, called
	 * from the application's thread.
	 */
	bool (*events_pending)(const struct doca_ctx *ctx);
	/* Library object destroy hook is the library's own business. */
};

/*
 * Callbacks may destroy what called them. Code that calls into the application and then goes on
 * with the context brackets the call with a guard on its own stack: ctx->guards chains the
 * guards of the calls in progress, and priv_doca_ctx_fini() marks each of them gone, so the
 * caller learns from its stack, not from the freed context, that it must stop:
 *
 *   struct ctx_guard g;
 *   ctx_guard_enter(ctx, &g);
 *   ctx->state_cb(...);                   // may stop and destroy ctx
 *   if (!ctx_guard_leave(ctx, &g))
 *           return;                       // ctx is gone: touch nothing of it
 *
 * Code deeper in the same call (a module's events hook) reads the innermost guard with
 * ctx_guard_top() before its own callbacks and checks ->gone after each.
 */
struct ctx_guard {
	struct ctx_guard *up;
	bool gone;
};

struct doca_ctx {
	const struct ctx_ops *ops;
	struct ctx_guard *guards; /* innermost first; NULL outside calls into the application */
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_ctx *pe_next;
	enum doca_ctx_states state;
	doca_ctx_state_changed_callback_t state_cb;
	union doca_data user_data;
	bool stop_requested_by_error;
	/*
	 * The data path runs off any PE (on a GPU): the context starts without a PE, has no CPU
	 * tasks (no task pool), and goes from STOPPING to IDLE inside doca_ctx_stop(). Set through
	 * priv_doca_ctx_set_datapath_external() while IDLE; together with a PE only when the
	 * module allows it (ops->policy.pe_with_gpu: the PE delivers the context's events only).
	 */
	bool datapath_external;

	/* Task pool (set up by the library in start through priv_doca_ctx_pool_init). */
	uint8_t *pool;
	size_t task_size;
	uint32_t pool_size;
	struct doca_task *free_tasks;
	uint32_t nb_allocated; /* tasks out of the pool */

	/* Submitted tasks, in submission order; delivered from the head. */
	struct doca_task *fifo_head;
	struct doca_task *fifo_tail;
	size_t inflight;

	bool fault;	   /* fault injection on (fixed at start) */
	bool traced;	   /* SOFTDOCA_TRACE on (fixed at start) */
	bool instrumented; /* fault || traced: one check on the hot path */
	/* Events, unordered delivery, batches or instrumentation: progress takes its general path
	 * (ctx_progress_path() keeps it, wherever one of them changes). */
	bool progress_slow;

	/*
	 * The data path, NULL until the pool exists: the module's own (dp and queue), or, for a
	 * module whose tasks are struct ctx_exec_task (DMA), an executor of
	 * src/engines itself (exec and eq): one table, one indirect call per task each way. The
	 * core reaches it through ctx_dp_submit() and friends.
	 */
	const struct ctx_dp_ops *dp;
	struct ctx_dp_queue *queue;
	const struct engine_ops *exec;
	struct engine_queue *eq;

	/* An extension driven by progress (struct ctx_ext: task batches); NULL without one. */
	struct ctx_ext *ext;

	/* Statistics, logged at stop when debug is on. */
	uint64_t st_tasks, st_bytes, st_errors, st_again, st_late_free;
	size_t st_inflight_hwm;

	/* The module's ctx_ops with every optional op filled with the core's default
	 * (priv_doca_ctx_init); ctx->ops points here, so no caller checks for NULL. */
	struct ctx_ops ops_filled;
	bool has_events; /* the module gave ops->events (progress takes its general path) */
};

/*
 * Work that became due outside doca_pe_progress() (a graph instance that finished inside its
 * submit) and whose callbacks belong to progress: queued with priv_doca_pe_defer(), run() by
 * the next progress call on the PE thread, newest first.
 */
struct pe_deferred {
	struct pe_deferred *next;
	void (*run)(struct pe_deferred *d);
};

struct doca_pe {
	struct doca_ctx *ctxs;
	struct pe_deferred *deferred;
	uint32_t nb_ctxs;
	bool in_progress;
	struct doca_ctx *iter_next; /* doca_pe_progress(): the context visited next */
	/*
	 * Engine threads read notify.armed after every batch they finish; the PE writes in_progress
	 * twice per progress call. A cache line's worth of padding on each side keeps the lines
	 * apart whatever the allocation's alignment (calloc's is 16).
	 */
	char pad_notify_[SD_CACHELINE];
	struct engine_notify notify;
	char pad_notify_end_[SD_CACHELINE];
	bool user_handle;
	/*
	 * The notification handle: an epoll set holding notify.efd (written by engines) and every
	 * fd a module watches (priv_doca_pe_watch_fd), so that traffic on them wakes a sleeping
	 * application too. Created with the eventfd, on first request; -1 before.
	 */
	int epfd;
	/* SOFTDOCA_FAULT delays: a timerfd in the handle, set to when the earliest delayed
	 * completion becomes deliverable, so an armed handle neither fires early nor too late. */
	int tfd;
	int *watch;
	uint32_t nb_watch;
	uint32_t watch_cap;
};

static inline void ctx_guard_enter(struct doca_ctx *ctx, struct ctx_guard *g)
{
	g->gone = false;
	g->up = ctx->guards;
	ctx->guards = g;
}

/* true: @ctx is alive and @g is off its chain; false: @ctx was destroyed meanwhile. */
static inline bool ctx_guard_leave(struct doca_ctx *ctx, struct ctx_guard *g)
{
	if (SD_UNLIKELY(g->gone))
		return false;
	ctx->guards = g->up;
	return true;
}

/* The guard of the innermost call in progress on @ctx (ops->events runs inside one). */
static inline struct ctx_guard *ctx_guard_top(const struct doca_ctx *ctx)
{
	return ctx->guards;
}

/* Library modules: initialise the common part of a new context (state IDLE). */
SD_PRIV void priv_doca_ctx_init(struct doca_ctx *ctx, const struct ctx_ops *ops, struct doca_dev *dev);
/*
 * Library modules: the context's data path runs elsewhere than on a PE (a GPU): it may start
 * unconnected, and it never has CPU tasks. IDLE only and not connected to a PE; BAD_STATE or
 * NOT_PERMITTED otherwise (logged, naming @call).
 */
SD_PRIV doca_error_t priv_doca_ctx_set_datapath_external(struct doca_ctx *ctx, const char *call);
/*
 * Library modules: the one "configure while IDLE" check. DOCA_SUCCESS when @ctx is IDLE;
 * otherwise BAD_STATE and one line "<call>: <ctx> is <state>; <fix>" (call it through
 * ctx_check_idle(), which names the calling function). @fix NULL: the usual advice (configure
 * before doca_ctx_start(), or stop the context and progress until IDLE).
 */
SD_PRIV doca_error_t priv_doca_ctx_check_idle(const struct doca_ctx *ctx, const char *call, const char *fix);
#define ctx_check_idle(ctx, fix) priv_doca_ctx_check_idle((ctx), __func__, (fix))
/* Library modules: tear down; refuses (IN_USE) unless IDLE. Disconnects from the PE. */
SD_PRIV doca_error_t priv_doca_ctx_fini(struct doca_ctx *ctx);
/*
 * Library modules, from ops->start: a pool of @n tasks of @task_size bytes each (a library
 * task struct that begins with struct doca_task), and a queue of the module's data path @dp of
 * @depth entries. After it returns, the module may set up its tasks (ctx->pool) before the
 * context runs.
 */
SD_PRIV doca_error_t priv_doca_ctx_pool_init(struct doca_ctx *ctx, size_t task_size, uint32_t n, uint32_t depth,
					     const struct ctx_dp_ops *dp);
/*
 * Library modules whose tasks are engine jobs (DMA), from ops->start: as
 * priv_doca_ctx_pool_init(), with the executor the process selected (SOFTDOCA_ENGINE, the
 * config, or the best usable one) as the data path. Each task begins with a struct
 * ctx_exec_task; the core hands the executor its job, which reports through job.comp (the
 * module points it at base.comp).
 */
SD_PRIV doca_error_t priv_doca_ctx_pool_init_executor(struct doca_ctx *ctx, size_t task_size, uint32_t n,
						      uint32_t depth);
/*
 * Library modules, from ops->events, after ops->start returned IN_PROGRESS: the asynchronous
 * start finished. SUCCESS: STARTING -> RUNNING. An error: STARTING -> IDLE (the module logged
 * why). Ignored unless STARTING. Returns false when the application destroyed the context from
 * the state callback (it may stop it from RUNNING and destroy it from IDLE): the caller then
 * touches nothing of the context and returns.
 */
SD_PRIV bool priv_doca_ctx_start_done(struct doca_ctx *ctx, doca_error_t status);
/*
 * Library modules: a fatal error (the peer went away). STARTING -> IDLE at once; RUNNING ->
 * STOPPING, every undelivered task is flushed, IDLE once drained. Ignored in other states.
 * Like priv_doca_ctx_start_done(), false when a state callback destroyed the context: the
 * caller returns without touching it.
 */
SD_PRIV bool priv_doca_ctx_fail(struct doca_ctx *ctx);
/*
 * Library modules: make @fd part of the PE's notification handle (readable @fd = progress
 * possible) until unwatched. Watching the same fd twice is an error; unwatching an fd that is
 * not watched does nothing. Unwatch before closing.
 */
SD_PRIV doca_error_t priv_doca_pe_watch_fd(struct doca_pe *pe, int fd);
SD_PRIV void priv_doca_pe_unwatch_fd(struct doca_pe *pe, int fd);
/*
 * Core and modules, on the PE thread outside doca_pe_progress(): something may have become
 * deliverable (a task submitted, a stop begun, an event queued). When the application armed the
 * notification handle, this writes it if progress has work. One relaxed load when not armed.
 */
SD_PRIV void priv_doca_pe_kick(struct doca_pe *pe);
/* The rejection behind priv_doca_task_alloc(): logs why and returns the error. */
SD_PRIV doca_error_t priv_doca_task_alloc_fail(struct doca_ctx *ctx);

/* SOFTDOCA_TRACE's record of an allocation (ctx->traced); returns DOCA_SUCCESS. */
SD_PRIV doca_error_t priv_doca_task_alloc_traced(struct doca_ctx *ctx, struct doca_task *task);

/*
 * Takes a task from the pool: NULL when it is empty or the context is not RUNNING (then
 * priv_doca_task_alloc_fail() says why). A caller that fills the task in calls
 * priv_doca_task_alloc_traced() last when ctx->traced, in tail position, so that the hot path
 * keeps nothing in registers across a call.
 */
static inline struct doca_task *priv_doca_task_take(struct doca_ctx *ctx)
{
	struct doca_task *t = ctx->free_tasks;

	if (SD_UNLIKELY(t == NULL || ctx->state != DOCA_CTX_STATE_RUNNING))
		return NULL;
	ctx->free_tasks = t->next;
	t->next = NULL;
	t->state = TASK_ALLOCATED;
	t->status = DOCA_SUCCESS;
	t->free_after = false;
	ctx->nb_allocated++;
	return t;
}

/* Takes a task from the pool; NO_MEMORY when empty, BAD_STATE unless RUNNING. */
static inline doca_error_t priv_doca_task_alloc(struct doca_ctx *ctx, struct doca_task **task)
{
	struct doca_task *t = priv_doca_task_take(ctx);

	if (SD_UNLIKELY(t == NULL))
		return priv_doca_task_alloc_fail(ctx);
	*task = t;
	if (SD_UNLIKELY(ctx->traced))
		return priv_doca_task_alloc_traced(ctx, t);
	return DOCA_SUCCESS;
}
/* "IDLE", "STARTING", "RUNNING", "STOPPING". */
SD_PRIV const char *priv_doca_ctx_state_name(enum doca_ctx_states s);
/* Human name of a context for log lines: "dma 0x1234 on 03:00.0". */
SD_PRIV const char *priv_doca_ctx_name(const struct doca_ctx *ctx);

/* Fault injection (fault.c): decisions for the next submit / completion. */
struct fault_config {
	double again_p;
	double error_p;
	uint64_t nth;
	uint64_t delay_ns;
	uint64_t stall_nth;
	uint64_t stall_ns;
	doca_error_t error;
	uint64_t seed;
};
/* Parses a SOFTDOCA_FAULT value (pure; see fault.c and tests/fuzz/fuzz_env.c). */
SD_PRIV bool priv_sd_fault_parse(const char *env, struct fault_config *c, unsigned int *given, char *err,
				 size_t err_len);
bool fault_enabled(void);
/* Why SOFTDOCA_FAULT was refused ("SOFTDOCA_FAULT='...': ..."), or NULL when it is usable or unset. */
const char *fault_config_error(void);
bool fault_submit_again(void);
doca_error_t fault_complete_status(void);
/* When the task submitted now may be delivered at the earliest (ns, fault_now_ns clock); 0 = no delay. */
uint64_t fault_delay_ns(void);
uint64_t fault_now_ns(void);

/* Queues @d to run in the next doca_pe_progress() (struct pe_deferred); PE thread. */
static inline void priv_doca_pe_defer(struct doca_pe *pe, struct pe_deferred *d)
{
	d->next = pe->deferred;
	pe->deferred = d;
	priv_doca_pe_kick(pe);
}

/* The context's data path, whichever form it has (struct doca_ctx.dp or .exec); PE thread. */
static inline int ctx_dp_submit(struct doca_ctx *ctx, struct doca_task *task)
{
	if (ctx->exec != NULL)
		return ctx->exec->submit(ctx->eq, &((struct ctx_exec_task *)task)->job);
	return ctx->dp->submit(ctx->queue, task);
}

static inline void ctx_dp_poll(struct doca_ctx *ctx, unsigned int budget)
{
	if (ctx->exec != NULL)
		(void)ctx->exec->poll(ctx->eq, budget);
	else if (ctx->queue != NULL)
		(void)ctx->dp->poll(ctx->queue, budget);
}

static inline bool ctx_dp_pending(const struct doca_ctx *ctx)
{
	if (ctx->exec != NULL)
		return ctx->exec->pending(ctx->eq);
	return ctx->queue != NULL && ctx->dp->pending(ctx->queue);
}

static inline void ctx_dp_cancel(struct doca_ctx *ctx, doca_error_t status)
{
	if (ctx->exec != NULL)
		ctx->exec->cancel(ctx->eq, status);
	else if (ctx->queue != NULL)
		ctx->dp->cancel(ctx->queue, status);
}

/* Progress-engine side of a context (ctx.c), called by pe.c. */
unsigned int ctx_progress(struct doca_ctx *ctx);

static inline void ctx_progress_path(struct doca_ctx *ctx)
{
	ctx->progress_slow = ctx->has_events || ctx->ops->policy.unordered || ctx->ext != NULL || ctx->instrumented;
}

/* A stopping context with nothing in flight and every task freed may go to IDLE. */
static inline bool ctx_can_finish_stop(const struct doca_ctx *ctx)
{
	return ctx->state == DOCA_CTX_STATE_STOPPING && ctx->inflight == 0 && ctx->nb_allocated == 0;
}

/* pe_notify.c: writes the armed notification handle when some context of @pe has work now
 * (or sets the timer for a completion held back by SOFTDOCA_FAULT); called by pe.c. */
void pe_kick_if_work(struct doca_pe *pe);

#endif /* SD_CORE_H_ */
