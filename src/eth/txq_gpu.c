/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txq_gpu.c - send queues whose data path is on a GPU (doca_ctx_set_datapath_on_gpu): the NIC
 * side of the ring that doca_gpunetio_dev_eth_txq.cuh fills.
 *
 *   device: wqe[p % n] = {SEND | WAIT, addr, mkey, bytes, flags}, seq (release); doorbell (submit)
 *                              │
 *                              ▼ walk(): the port's GPU send thread, or the caller of
 *                                doca_eth_txq_gpu_cpu_proxy_progress() (CPU-proxy queues)
 *   p = next: seq matches and (SELF_DB or p < doorbell)?  else stop
 *     WAIT  now (CLOCK_REALTIME) < wait_ts ?  stop here: what is behind it waits too
 *     SEND  mkey -> started mmap (range, device), bytes copied into the queue's frame buffer,
 *           L3/L4 checksums (offloads), tx_burst; a full medium: stop, take it again later
 *     NOTIFY or failure: completion on GPU: cqe[c % m] = {p, status}, seq = c + 1 (release), c++
 *                        else a CPU event {p, status, time} into ev[], for the PE (below)
 *     cons = p + 1 (release): the slot is the device's again
 * The walk itself is txq_gpu_ring.c (each descriptor read once into private memory, then
 * checked; a doorbell more than a ring ahead fails the queue); this file gives it the mmaps,
 * the medium and the completions.
 *
 * CPU events (the default; doca_eth_txq_gpu_set_completion_on_gpu() sends completions to the
 * GPU instead): ev[] is a single-producer single-consumer ring of nwqe entries, filled by the
 * walker, emptied by the PE the queue is connected to (eth_txq_gpu_events() from the context's
 * events hook in doca_pe_progress), which runs the handlers with no lock held. A full ring
 * stops the walk, like a full medium, until the PE takes events: nothing is dropped. After a
 * walk that added events, an armed PE's handle is written (head is stored before armed is
 * read, and the PE stores armed before it reads head: both sequentially consistent).
 *
 * Memory (on the queue's struct doca_gpu): the handle and both rings in one CPU_GPU
 * allocation (mem_alloc_mapped), the two reservation words in GPU memory (mem_alloc: only GPU
 * threads touch them, with device-scope atomics). They live until doca_eth_txq_destroy() (or
 * the next start), so a kernel still posting after doca_ctx_stop() writes into live memory.
 *
 * Who walks: DOCA's GPU send samples never progress a PE for their queues, so the first
 * started GPU queue of a port (without CPU proxy) starts one send thread for that port, a
 * sibling of rxq_gpu.c's receive thread rather than that thread itself: the receive thread
 * parks in poll() on the medium's rx fd, while a send ring is memory the GPU writes, with no
 * fd to wake anyone, and wait-on-time needs timed sleeps. The thread walks every queue of its
 * port under its lock (start and stop add and remove queues under it), spins a little when
 * idle, then sleeps GPU_TX_PARK_NS at a time (or until the earliest wait is due). The last
 * queue to stop joins it. CPU-proxy queues are never on a thread: nothing moves until the
 * application calls doca_eth_txq_gpu_cpu_proxy_progress().
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_eth_txq.h>
#include <doca_eth_txq_cpu_data_path.h> /* the offload flags */
#include <doca_eth_txq_gpu_data_path.h>
#include <doca_gpunetio_eth_def.h>
#include <doca_gpunetio_hd.h>
#include <doca_mmap.h>

#include "eth_internal.h"
#include "gpu_hook.h"
#include "txq_gpu_ring.h"

#define COMP ETH_COMP

/* Descriptors in a ring: the device publishes 16 bits of each position. */
#define GPU_TX_MAX_WQE 32768u
/* Idle rounds a send thread spins (sched_yield) before it sleeps. */
#define GPU_TX_SPIN 64
/* Longest sleep of an idle send thread. */
#define GPU_TX_PARK_NS 50000ull
/* Queues one send thread serves. */
#define GPU_TX_QUEUES 64

enum seg_kind { SEG_HOST = 0, SEG_CPU_VIEW, SEG_DEVICE };

/* The public event types: what a handler is given (a copy of its ring entry). */
struct doca_eth_txq_gpu_event_error_send_packet {
	uint16_t pos;
	doca_error_t status;
};

struct doca_eth_txq_gpu_event_notify_send_packet {
	uint16_t pos;
	uint64_t ts;
};

struct gpu_tx_event {
	uint64_t ts;
	uint32_t status; /* doca_error_t: DOCA_SUCCESS for a NOTIFY send */
	uint16_t pos;
};

struct gpu_tx_thread {
	void *port; /* the medium's port: the key */
	pthread_t tid;
	unsigned int refs;
	atomic_bool stop;
	bool inited;	      /* lock initialised (slots are reused) */
	pthread_mutex_t lock; /* the queue list; held across a round of walks */
	unsigned int nq;
	struct eth_txq_gpu *q[GPU_TX_QUEUES];
};

static struct gpu_tx_thread tx_threads[TOPO_MAX_DEVICES];
static pthread_mutex_t tx_threads_lock = PTHREAD_MUTEX_INITIALIZER;

struct eth_txq_gpu {
	struct doca_gpu *gpu;
	const struct priv_doca_gpu_ops *ops;
	char name[96];
	bool started, proxy;
	struct gpu_tx_thread *thread;
	const struct nic_port_ops *pops;
	void *port;
	uint64_t dev_bit;
	uint32_t mtu;
	uint8_t csum;
	/* one CPU_GPU allocation: the handle, the descriptor ring, the completion ring */
	void *mem_gpu;
	uint8_t *mem_cpu;
	void *resv_gpu; /* two words, GPU memory */
	/* GPU-only frames are fetched a batch at a time into this pinned stage (txq_gpu_ring.c);
	 * made at the first start, kept until destroy */
	void *stage_gpu;
	uint8_t *stage_cpu;
	void *stage_event;
	struct doca_gpu_eth_txq *h_gpu, *h_cpu;
	struct doca_gpu_eth_txq_cqe *cqe;
	uint32_t nwqe, ncqe;
	/* the walker's (one at a time: the thread's lock, or busy for the proxy) */
	atomic_flag busy;
	struct txq_ring ring; /* the descriptors, the doorbell, what was taken (txq_gpu_ring.c) */
	uint64_t cq_prod;
	bool raised; /* a walk added CPU events */
	struct {
		uint32_t mkey; /* host order; 0: empty */
		unsigned int epoch;
		struct priv_doca_mkey_range r;
		enum seg_kind kind;
		uint8_t *cpu_base;
	} cache;
	/* CPU events (cfg.cq_on_gpu false): the walker produces, the PE consumes */
	bool cq_on_gpu;
	struct engine_notify *notify;
	doca_eth_txq_gpu_event_error_send_packet_cb_t err_cb;
	doca_eth_txq_gpu_event_notify_send_packet_cb_t notify_cb;
	union doca_data err_ud, notify_ud;
	struct gpu_tx_event *ev;
	uint32_t nev;
	uint64_t ev_tail_seen;			   /* the walker's last read of ev_tail */
	_Alignas(64) atomic_uint_fast64_t ev_head; /* the walker's */
	_Alignas(64) atomic_uint_fast64_t ev_tail; /* the PE's */
	_Alignas(64) uint64_t st_unheard;	   /* the walker's */
};

_Static_assert(TXQ_RING_FRAME_MAX == NIC_MAX_FRAME, "the walker builds the largest frame a port sends");

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- the walker's callbacks (txq_gpu_ring.c walks) ---- */

/* The started mmap that @mkey names, with the queue's device, and how the CPU reaches it. */
static doca_error_t ring_resolve(struct txq_ring *w, uint64_t pos, uint32_t mkey, struct txq_ring_range *out)
{
	struct eth_txq_gpu *g = SD_CONTAINER_OF(w, struct eth_txq_gpu, ring);
	unsigned int epoch = priv_doca_mmap_mkey_epoch();

	if (epoch != g->cache.epoch) {
		g->cache.mkey = 0; /* a map started or stopped since the cache was filled */
		g->cache.epoch = epoch;
	}
	if (g->cache.mkey != mkey || mkey == 0) {
		void *view = NULL;
		doca_error_t ret;

		g->cache.mkey = 0;
		if (!priv_doca_mmap_by_mkey(mkey, &g->cache.r))
			return txq_ring_bad(w, pos, DOCA_ERROR_INVALID_VALUE,
					    "mkey 0x%08x names no started mmap; pass htobe32(doca_mmap_get_mkey()) of "
					    "the started mmap that holds the frame",
					    mkey);
		ret = g->ops->cpu_view(g->gpu, g->cache.r.addr, g->cache.r.len, &view);
		if (ret == DOCA_ERROR_NOT_FOUND) {
			g->cache.kind = SEG_HOST; /* not this GPU's memory: host memory as it is */
		} else if (ret != DOCA_SUCCESS) {
			return txq_ring_bad(w, pos, ret, "the memory of mmap %p cannot be reached",
					    (const void *)g->cache.r.mmap);
		} else {
			g->cache.kind = view != NULL ? SEG_CPU_VIEW : SEG_DEVICE;
			g->cache.cpu_base = view;
		}
		g->cache.mkey = mkey;
		SD_DBG(COMP, "%s: mkey 0x%08x is mmap %p, %s", g->name, mkey, (const void *)g->cache.r.mmap,
		       g->cache.kind == SEG_DEVICE ? "GPU-only memory (frames copied out with cudaMemcpy)"
						   : "CPU-addressable memory");
	}
	if (!(g->cache.r.read_devs & g->dev_bit))
		return txq_ring_bad(w, pos, DOCA_ERROR_NOT_PERMITTED,
				    "mmap %p does not include the queue's device; call doca_mmap_add_dev() before "
				    "doca_mmap_start()",
				    (const void *)g->cache.r.mmap);
	out->base = (uintptr_t)g->cache.r.addr;
	out->len = g->cache.r.len;
	out->what = g->cache.r.mmap;
	out->cpu = g->cache.kind == SEG_HOST	   ? g->cache.r.addr
		   : g->cache.kind == SEG_CPU_VIEW ? g->cache.cpu_base
						   : NULL;
	return DOCA_SUCCESS;
}

static doca_error_t ring_copy_dev(struct txq_ring *w, uint8_t *dst, uint64_t addr, uint32_t len)
{
	struct eth_txq_gpu *g = SD_CONTAINER_OF(w, struct eth_txq_gpu, ring);

	return g->ops->copy(g->gpu, dst, (const void *)(uintptr_t)addr, len, g->name);
}

/* A batch's GPU-only bytes into the pinned stage, on the GPU's non-blocking stream (not waited). */
static doca_error_t ring_copy_dev_async(struct txq_ring *w, uint8_t *dst, uint64_t addr, uint32_t len)
{
	struct eth_txq_gpu *g = SD_CONTAINER_OF(w, struct eth_txq_gpu, ring);

	return g->ops->copy_async(g->gpu, dst, (const void *)(uintptr_t)addr, len, g->name);
}

/* One wait for the batch: an event behind its copies. */
static doca_error_t ring_copy_dev_wait(struct txq_ring *w)
{
	struct eth_txq_gpu *g = SD_CONTAINER_OF(w, struct eth_txq_gpu, ring);
	doca_error_t ret = g->ops->event_record(g->gpu, g->stage_event, g->name);

	return ret == DOCA_SUCCESS ? g->ops->event_done(g->gpu, g->stage_event, true, g->name) : ret;
}

/* The queue's checksum offloads on frame @f (a private copy), by the NIC's frame builder. */
static void apply_csum(struct eth_txq_gpu *g, uint8_t *f, uint32_t len)
{
	struct nic_tx_hdr h;
	struct iovec rest;

	if (priv_doca_nic_tx_parse(f, len, len, &h) != 0)
		return;
	rest.iov_base = f + h.hdr_end;
	rest.iov_len = len - h.hdr_end;
	priv_doca_nic_tx_csum(f, &h, g->csum, &rest, 1);
}

static void write_cqe(struct eth_txq_gpu *g, uint64_t pos, doca_error_t status)
{
	struct doca_gpu_eth_txq_cqe *c = &g->cqe[g->cq_prod & (g->ncqe - 1)];

	__atomic_store_n(&c->wqe_idx, pos, __ATOMIC_RELAXED);
	doca_gpunetio_hd_store_release_u32(&c->status, (uint32_t)status);
	doca_gpunetio_hd_store_release_u32(&c->seq, (uint32_t)(g->cq_prod + 1));
	g->cq_prod++;
}

/* Room for one more CPU event (the walker's view; the PE only frees room, so the last tail read
 * stands until it shows none: no read of the PE's line per descriptor). */
static bool ev_room(struct eth_txq_gpu *g)
{
	uint64_t head = atomic_load_explicit(&g->ev_head, memory_order_relaxed);

	if (head - g->ev_tail_seen < g->nev)
		return true;
	g->ev_tail_seen = atomic_load_explicit(&g->ev_tail, memory_order_acquire);
	return head - g->ev_tail_seen < g->nev;
}

/* Descriptor @pos completes with @status: to the GPU's ring, a CPU event, or nobody. */
static void complete(struct eth_txq_gpu *g, uint64_t pos, doca_error_t status)
{
	struct gpu_tx_event *e;
	uint64_t head;

	if (g->cq_on_gpu) {
		write_cqe(g, pos, status);
		return;
	}
	if (status == DOCA_SUCCESS ? g->notify_cb == NULL : g->err_cb == NULL) {
		g->st_unheard++; /* no handler: a failure was logged, a NOTIFY goes unheard */
		return;
	}
	head = atomic_load_explicit(&g->ev_head, memory_order_relaxed);
	e = &g->ev[head & (g->nev - 1)];
	e->pos = (uint16_t)pos;
	e->status = (uint32_t)status;
	e->ts = status == DOCA_SUCCESS ? realtime_ns() : 0;
	atomic_store_explicit(&g->ev_head, head + 1, memory_order_seq_cst); /* after the entry; see top */
	g->raised = true;
}

static bool ring_send(struct txq_ring *w, uint8_t *frame, uint32_t len)
{
	struct eth_txq_gpu *g = SD_CONTAINER_OF(w, struct eth_txq_gpu, ring);
	struct iovec iov = {.iov_base = frame, .iov_len = len};
	struct nic_tx_frame f = {.iov = &iov, .iovcnt = 1, .len = len};

	if (g->csum != 0)
		apply_csum(g, frame, len);
	return g->pops->tx_burst(g->port, &f, 1) != 0;
}

static bool ring_room(struct txq_ring *w)
{
	struct eth_txq_gpu *g = SD_CONTAINER_OF(w, struct eth_txq_gpu, ring);

	return g->ev == NULL || ev_room(g);
}

static void ring_complete(struct txq_ring *w, uint64_t pos, doca_error_t status)
{
	complete(SD_CONTAINER_OF(w, struct eth_txq_gpu, ring), pos, status);
}

static uint64_t ring_now(struct txq_ring *w)
{
	(void)w;
	return realtime_ns();
}

static const struct txq_ring_ops ring_ops = {
    .resolve = ring_resolve,
    .copy_dev = ring_copy_dev,
    .copy_dev_async = ring_copy_dev_async,
    .copy_dev_wait = ring_copy_dev_wait,
    .send = ring_send,
    .room = ring_room,
    .complete = ring_complete,
    .now = ring_now,
};

/*
 * Takes the queue's ready descriptors in order, at most @budget; returns how many. One walker
 * at a time per queue.
 */
static unsigned int walk(struct eth_txq_gpu *g, unsigned int budget)
{
	unsigned int n;

	g->raised = false;
	n = txq_ring_walk(&g->ring, budget);
	if (g->raised)
		engine_notify_wake(g->notify); /* an armed PE: the events are for it */
	return n;
}

/* ---- the PE's side of CPU events ---- */

unsigned int eth_txq_gpu_events(struct eth_txq_gpu *g, unsigned int budget, const struct ctx_guard *guard)
{
	uint64_t tail, head;
	unsigned int n = 0;

	if (g == NULL || g->ev == NULL)
		return 0;
	tail = atomic_load_explicit(&g->ev_tail, memory_order_relaxed);
	head = atomic_load_explicit(&g->ev_head, memory_order_acquire);
	while (tail != head && n < budget) {
		struct gpu_tx_event e = g->ev[tail & (g->nev - 1)];

		/* The slot is the walker's again before the handler runs (it may take long). */
		atomic_store_explicit(&g->ev_tail, ++tail, memory_order_release);
		if (e.status == DOCA_SUCCESS) {
			struct doca_eth_txq_gpu_event_notify_send_packet ev = {.pos = e.pos, .ts = e.ts};

			g->notify_cb(&ev, g->notify_ud);
		} else {
			struct doca_eth_txq_gpu_event_error_send_packet ev = {.pos = e.pos,
									      .status = (doca_error_t)e.status};

			g->err_cb(&ev, g->err_ud);
		}
		n++;
		if (guard != NULL && guard->gone)
			break; /* the handler destroyed the queue, and @g with it */
	}
	return n;
}

bool eth_txq_gpu_events_pending(const struct eth_txq_gpu *g)
{
	if (g == NULL || g->ev == NULL)
		return false;
	/* seq_cst: the PE stored armed before this load (see the top of the file) */
	return atomic_load_explicit(&((struct eth_txq_gpu *)g)->ev_head, memory_order_seq_cst) !=
	       atomic_load_explicit(&((struct eth_txq_gpu *)g)->ev_tail, memory_order_relaxed);
}

/* ---- the port's send thread ---- */

static void *tx_thread_main(void *arg)
{
	struct gpu_tx_thread *t = arg;
	unsigned int idle = 0;

	while (!atomic_load_explicit(&t->stop, memory_order_acquire)) {
		uint64_t due = 0;
		unsigned int n = 0;

		pthread_mutex_lock(&t->lock);
		for (unsigned int i = 0; i < t->nq; i++) {
			uint64_t until;

			n += walk(t->q[i], ETH_TX_BURST);
			until = t->q[i]->ring.wait_until;
			if (until != 0 && (due == 0 || until < due))
				due = until;
		}
		pthread_mutex_unlock(&t->lock);
		if (n > 0) {
			idle = 0;
			continue;
		}
		if (++idle < GPU_TX_SPIN) {
			sched_yield();
		} else {
			uint64_t sleep_ns = GPU_TX_PARK_NS, now = due != 0 ? realtime_ns() : 0;

			if (due != 0 && now >= due)
				continue; /* a wait fell due since the walk */
			if (due != 0 && due - now < sleep_ns)
				sleep_ns = due - now;
			nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = (long)sleep_ns}, NULL);
		}
	}
	return NULL;
}

static doca_error_t tx_thread_add(struct eth_txq_gpu *g)
{
	struct gpu_tx_thread *t = NULL, *free_t = NULL;
	doca_error_t ret = DOCA_SUCCESS;
	int err;

	pthread_mutex_lock(&tx_threads_lock);
	for (size_t i = 0; i < SD_ARRAY_SIZE(tx_threads) && t == NULL; i++) {
		if (tx_threads[i].refs > 0 && tx_threads[i].port == g->port)
			t = &tx_threads[i];
		else if (tx_threads[i].refs == 0 && free_t == NULL)
			free_t = &tx_threads[i];
	}
	if (t != NULL) {
		pthread_mutex_lock(&t->lock);
		if (t->nq == GPU_TX_QUEUES) {
			ret = SD_REJECT(DOCA_ERROR_FULL, COMP,
					"doca_ctx_start: %s: the port already has %u started GPU send queues; stop one "
					"first",
					g->name, GPU_TX_QUEUES);
		} else {
			t->q[t->nq++] = g;
			t->refs++;
		}
		pthread_mutex_unlock(&t->lock);
		goto out;
	}
	if (free_t == NULL) {
		ret = SD_REJECT(DOCA_ERROR_FULL, COMP, "doca_ctx_start: %s: every send thread slot is in use", g->name);
		goto out;
	}
	t = free_t;
	if (!t->inited) {
		if (pthread_mutex_init(&t->lock, NULL) != 0) {
			ret = SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP, "doca_ctx_start: %s: mutex init failed",
					g->name);
			goto out;
		}
		t->inited = true;
	}
	t->port = g->port;
	t->nq = 1;
	t->q[0] = g;
	atomic_store(&t->stop, false);
	err = pthread_create(&t->tid, NULL, tx_thread_main, t);
	if (err != 0) {
		t->nq = 0;
		ret = SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP,
				"doca_ctx_start: %s: cannot start the port's GPU send thread: %s", g->name,
				strerror(err));
		goto out;
	}
	t->refs = 1;
	SD_DBG(COMP, "%s: GPU send thread started", g->name);
out:
	pthread_mutex_unlock(&tx_threads_lock);
	if (ret == DOCA_SUCCESS)
		g->thread = t;
	return ret;
}

static void tx_thread_remove(struct eth_txq_gpu *g)
{
	struct gpu_tx_thread *t = g->thread;

	pthread_mutex_lock(&tx_threads_lock);
	pthread_mutex_lock(&t->lock); /* waits for a round of walks: none touches g afterwards */
	for (unsigned int i = 0; i < t->nq; i++) {
		if (t->q[i] == g) {
			t->q[i] = t->q[--t->nq];
			break;
		}
	}
	pthread_mutex_unlock(&t->lock);
	if (--t->refs == 0) {
		atomic_store_explicit(&t->stop, true, memory_order_release);
		pthread_join(t->tid, NULL); /* it sleeps GPU_TX_PARK_NS at most */
	}
	pthread_mutex_unlock(&tx_threads_lock);
	g->thread = NULL;
}

/* ---- what txq.c calls ---- */

doca_error_t eth_txq_gpu_set_datapath(struct eth_txq_gpu **g, const char *name, struct doca_gpu *gpu)
{
	const struct priv_doca_gpu_base *b = priv_doca_gpu_base(gpu);

	if (b == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_ctx_set_datapath_on_gpu: %s: %p is not a GPU from doca_gpu_create()", name,
				 (void *)gpu);
	if (b->ops->mem_alloc_mapped == NULL || b->ops->cpu_view == NULL || b->ops->copy == NULL)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_ctx_set_datapath_on_gpu: %s: GPU %p comes from a libdoca_gpunetio without GPU "
				 "send queues; use the libdoca_gpunetio of this softdoca",
				 name, (void *)gpu);
	if (*g == NULL) {
		*g = sd_calloc_lines(1, sizeof(**g)); /* aligned: the ring indices' _Alignas holds */
		if (*g == NULL)
			return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_set_datapath_on_gpu: %s: out of memory",
					 name);
		atomic_flag_clear(&(*g)->busy);
	}
	(*g)->gpu = gpu;
	(*g)->ops = b->ops;
	return DOCA_SUCCESS;
}

bool eth_txq_gpu_on(const struct eth_txq_gpu *g)
{
	return g != NULL && g->gpu != NULL;
}

static void free_mem(struct eth_txq_gpu *g)
{
	if (g->mem_gpu != NULL)
		g->ops->mem_free(g->gpu, g->mem_gpu);
	if (g->resv_gpu != NULL)
		g->ops->mem_free(g->gpu, g->resv_gpu);
	g->mem_gpu = g->resv_gpu = NULL;
	g->mem_cpu = NULL;
	g->h_gpu = g->h_cpu = NULL;
	g->ring.wqe = NULL;
	g->cqe = NULL;
}

doca_error_t eth_txq_gpu_start(struct eth_txq_gpu *g, const struct eth_txq_gpu_cfg *cfg)
{
	static const uint64_t zero[2];
	size_t size;
	uint32_t n = 1;
	doca_error_t ret;

	snprintf(g->name, sizeof(g->name), "%s", cfg->name);
	while (n < cfg->max_burst && n < GPU_TX_MAX_WQE)
		n <<= 1;
	if (n < cfg->max_burst)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "doca_ctx_start: %s: max_burst_size %u; a GPU send queue holds at most %u descriptors: "
		    "create it with a smaller burst",
		    cfg->name, cfg->max_burst, GPU_TX_MAX_WQE);
	free_mem(g); /* the last start's rings (kept over the stop for kernels still posting) */
	if (g->stage_gpu == NULL && g->ops->copy_async != NULL && g->ops->event_create != NULL) {
		/* without it (an allocation that failed) GPU-only frames are copied one by one */
		if (g->ops->mem_alloc_mapped(g->gpu, TXQ_RING_STAGE_BYTES, &g->stage_gpu, (void **)&g->stage_cpu,
					     "doca_ctx_start") == DOCA_SUCCESS &&
		    g->ops->event_create(g->gpu, &g->stage_event, "doca_ctx_start") != DOCA_SUCCESS) {
			g->ops->mem_free(g->gpu, g->stage_gpu);
			g->stage_gpu = NULL;
		}
		if (g->stage_gpu == NULL)
			g->stage_cpu = NULL;
	}
	g->nwqe = g->ncqe = n < 2 ? 2 : n;
	size = sizeof(struct doca_gpu_eth_txq) + (size_t)g->nwqe * sizeof(struct doca_gpu_dev_eth_txq_wqe) +
	       (size_t)g->ncqe * sizeof(struct doca_gpu_eth_txq_cqe);
	ret = g->ops->mem_alloc_mapped(g->gpu, size, &g->mem_gpu, (void **)&g->mem_cpu, "doca_ctx_start");
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = g->ops->mem_alloc(g->gpu, sizeof(zero), &g->resv_gpu, "doca_ctx_start");
	if (ret == DOCA_SUCCESS)
		ret = g->ops->copy_to_gpu(g->gpu, g->resv_gpu, zero, sizeof(zero), "doca_ctx_start");
	if (ret != DOCA_SUCCESS) {
		free_mem(g);
		return ret;
	}
	/* Zeroed here, whatever the hook gives: a stale seq could pass for a new descriptor's. */
	memset(g->mem_cpu, 0, size);
	g->h_gpu = g->mem_gpu;
	g->h_cpu = (struct doca_gpu_eth_txq *)g->mem_cpu;
	g->ring.wqe = (struct doca_gpu_dev_eth_txq_wqe *)(g->mem_cpu + sizeof(struct doca_gpu_eth_txq));
	g->cqe = (struct doca_gpu_eth_txq_cqe *)(g->mem_cpu + sizeof(struct doca_gpu_eth_txq) +
						 (size_t)g->nwqe * sizeof(struct doca_gpu_dev_eth_txq_wqe));
	g->h_cpu->wqe = (struct doca_gpu_dev_eth_txq_wqe *)((uint8_t *)g->mem_gpu + sizeof(struct doca_gpu_eth_txq));
	g->h_cpu->cqe = (struct doca_gpu_eth_txq_cqe *)(g->h_cpu->wqe + g->nwqe);
	g->h_cpu->reserve = (uint64_t *)g->resv_gpu;
	g->h_cpu->cq_reserve = (uint64_t *)g->resv_gpu + 1;
	g->h_cpu->nwqe = g->nwqe;
	g->h_cpu->wqe_mask = g->nwqe - 1;
	g->h_cpu->ncqe = g->ncqe;
	g->h_cpu->cqe_mask = g->ncqe - 1;
	g->h_cpu->nic_handler = cfg->proxy ? 1u /* CPU_PROXY */ : 0u;
	doca_gpunetio_hd_store_release_u64(&g->h_cpu->doorbell, 0);
	doca_gpunetio_hd_store_release_u64(&g->h_cpu->cons, 0);
	g->pops = cfg->ops;
	g->port = cfg->port;
	g->dev_bit = UINT64_C(1) << (cfg->dev->info.index & 63u);
	g->mtu = cfg->mtu;
	g->csum = cfg->csum;
	g->proxy = cfg->proxy;
	g->ring.ops = &ring_ops;
	g->ring.name = g->name;
	g->ring.doorbell = &g->h_cpu->doorbell;
	g->ring.cons = &g->h_cpu->cons;
	g->ring.nwqe = g->nwqe;
	g->ring.mtu = g->mtu;
	g->ring.stage = g->stage_cpu;
	txq_ring_reset(&g->ring);
	g->cq_prod = 0;
	g->cache.mkey = 0;
	g->cache.epoch = priv_doca_mmap_mkey_epoch();
	g->st_unheard = 0;
	g->cq_on_gpu = cfg->cq_on_gpu;
	g->notify = cfg->notify;
	g->err_cb = cfg->err_cb;
	g->notify_cb = cfg->notify_cb;
	g->err_ud = cfg->err_ud;
	g->notify_ud = cfg->notify_ud;
	free(g->ev);
	g->ev = NULL;
	g->nev = 0;
	atomic_store(&g->ev_head, 0);
	atomic_store(&g->ev_tail, 0);
	g->ev_tail_seen = 0;
	if (!g->cq_on_gpu && (g->err_cb != NULL || g->notify_cb != NULL)) {
		/* At most one event per descriptor: a ring of nwqe holds a full lap. */
		g->ev = calloc(g->nwqe, sizeof(*g->ev));
		if (g->ev == NULL) {
			free_mem(g);
			return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_start: %s: cannot allocate %u events",
					 cfg->name, g->nwqe);
		}
		g->nev = g->nwqe;
	}
	if (!g->proxy) {
		ret = tx_thread_add(g);
		if (ret != DOCA_SUCCESS) {
			free_mem(g);
			return ret;
		}
	}
	g->started = true;
	SD_DBG(COMP,
	       "%s: on the GPU, %u descriptors in CPU_GPU memory (DOCA_GPU_MEM_TYPE_%s asked), %s, completions %s",
	       cfg->name, g->nwqe, eth_gpu_mem_type_name(cfg->sq_mem),
	       g->proxy ? "CPU proxy (doca_eth_txq_gpu_cpu_proxy_progress)" : "the port's send thread",
	       g->cq_on_gpu    ? "on the GPU"
	       : g->ev != NULL ? "as CPU events"
			       : "unheard (no completion on GPU, no event handler): failures are only logged");
	return DOCA_SUCCESS;
}

void eth_txq_gpu_stopping(struct eth_txq_gpu *g)
{
	if (g == NULL || !g->started)
		return;
	if (g->thread != NULL)
		tx_thread_remove(g);
	/* A proxy round in progress on another thread finishes first. */
	while (atomic_flag_test_and_set_explicit(&g->busy, memory_order_acquire))
		sched_yield();
	g->started = false;
	atomic_flag_clear_explicit(&g->busy, memory_order_release);
	SD_DBG(COMP,
	       "%s stopped: %llu frames sent, %llu descriptors failed, %llu taken in all, %llu completions unheard",
	       g->name, (unsigned long long)g->ring.st_sent, (unsigned long long)g->ring.st_failed,
	       (unsigned long long)g->ring.next, (unsigned long long)g->st_unheard);
}

void eth_txq_gpu_destroy(struct eth_txq_gpu *g)
{
	if (g == NULL)
		return;
	eth_txq_gpu_stopping(g);
	free_mem(g);
	if (g->stage_gpu != NULL) {
		g->ops->event_destroy(g->gpu, g->stage_event);
		g->ops->mem_free(g->gpu, g->stage_gpu);
	}
	free(g->ev);
	free(g);
}

doca_error_t eth_txq_gpu_handle(const struct eth_txq_gpu *g, const char *name, struct doca_gpu_eth_txq **out)
{
	if (!eth_txq_gpu_on(g))
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_eth_txq_get_gpu_handle: %s runs on the CPU data path; give it a GPU with "
				 "doca_ctx_set_datapath_on_gpu() before doca_ctx_start()",
				 name);
	if (!g->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_txq_get_gpu_handle: %s is not started; call doca_ctx_start() first", name);
	*out = g->h_gpu;
	return DOCA_SUCCESS;
}

doca_error_t eth_txq_gpu_proxy_progress(struct eth_txq_gpu *g, const char *name)
{
	if (!eth_txq_gpu_on(g) || !g->proxy)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_txq_gpu_cpu_proxy_progress: %s is not a GPU queue in CPU-proxy mode; call "
				 "doca_eth_txq_gpu_set_uar_on_cpu() and doca_ctx_set_datapath_on_gpu() before "
				 "doca_ctx_start()",
				 name);
	if (atomic_flag_test_and_set_explicit(&g->busy, memory_order_acquire))
		return DOCA_SUCCESS; /* another thread is in a round of this queue */
	if (!g->started) {
		atomic_flag_clear_explicit(&g->busy, memory_order_release);
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_txq_gpu_cpu_proxy_progress: %s is not started; call doca_ctx_start() first",
				 name);
	}
	(void)walk(g, g->nwqe);
	atomic_flag_clear_explicit(&g->busy, memory_order_release);
	return DOCA_SUCCESS;
}

/* ---- public API: the event getters (doca_eth_txq_gpu_data_path.h) ---- */

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_error_send_packet_get_position(
    const struct doca_eth_txq_gpu_event_error_send_packet *event_error, uint16_t *packet_index)
{
	if (event_error == NULL || packet_index == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_gpu_event_error_send_packet_get_position: NULL %s",
				 event_error == NULL ? "event" : "packet_index");
	*packet_index = event_error->pos;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_position(
    const struct doca_eth_txq_gpu_event_notify_send_packet *event_notify, uint16_t *packet_index)
{
	if (event_notify == NULL || packet_index == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_gpu_event_notify_send_packet_get_position: NULL %s",
				 event_notify == NULL ? "event" : "packet_index");
	*packet_index = event_notify->pos;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(
    const struct doca_eth_txq_gpu_event_notify_send_packet *event_notify, uint64_t *packet_timestamp)
{
	if (event_notify == NULL || packet_timestamp == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_gpu_event_notify_send_packet_get_timestamp: NULL %s",
				 event_notify == NULL ? "event" : "packet_timestamp");
	*packet_timestamp = event_notify->ts;
	return DOCA_SUCCESS;
}
