/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rxq_gpu.c - CYCLIC receive queues whose data path is on a GPU (doca_ctx_set_datapath_on_gpu):
 * the NIC side of the ring that doca_gpunetio_dev_eth_rxq.cuh reads.
 *
 *   medium ──rx_burst──▶ eth_port_drain() (the port's GPU receive thread, or any CPU queue's PE)
 *                              │ steering: this queue's id
 *                              ▼ eth_rxq_gpu_place()
 *   prod - cons == nslots ? ── drop (counted) ;  else frame ─▶ slot prod % nslots,
 *                                                       cqe[prod % nslots] = {ts, bytes}, seq = prod + 1 (release)
 *                                                       prod++
 *   the device reads cqes and takes a run of packets; its next call publishes cons past them
 *   (release), and the NIC reads cons (acquire) to know which slots are free again. cons is the
 *   device's word: read once per frame; behind by a ring or more, the frame is dropped; past
 *   prod, the queue fails (one line) and drops everything until it is restarted.
 *
 * The doorbell (doca_eth_rxq_gpu_set_uar_on_cpu): the NIC learns which slots the device freed
 * only through it. By default the device rings it itself, so the NIC reads the device's cons.
 * A CPU-proxy queue's doorbell is a word of the NIC's that only
 * doca_eth_rxq_gpu_cpu_proxy_progress() writes, copying cons there (acquire, then release):
 *
 *   device: cons (release) ──▶ proxy progress: db = cons (release) ──▶ NIC: db (acquire)
 *
 * so without a thread looping on it a proxy queue fills once and then drops, as on the hardware.
 *
 * Memory (all on the queue's struct doca_gpu, so doca_gpu_destroy() refuses while it runs):
 *   handle + completion ring   one CPU_GPU allocation (gpu_hook.h mem_alloc_mapped): both sides
 *                              address it, the CPU through its own pointer; whatever
 *                              doca_eth_rxq_gpu_set_rq_mem_type() asked (the NIC is a CPU
 *                              thread that reads and writes it per frame);
 *   packet buffer              the application's mmap range. Memory the CPU can address (a
 *                              CPU_GPU / GPU_CPU allocation of the GPU, or host memory) is
 *                              written directly; GPU-only memory (DOCA_GPU_MEM_TYPE_GPU) through
 *                              a staging mirror (below);
 *   staging mirror             GPU-only packet memory only: one pinned CPU_GPU allocation of
 *                              nslots * stride, slot for slot the packet buffer's.
 *
 * GPU-only packet memory, in batches (no per-frame copy, no synchronous copy):
 *
 *   place():   frame ─memcpy─▶ stage[prod % nslots]; cqe {ts, bytes}; prod++   (seq not yet)
 *   flush():   end of each drain: the staged run [sub, prod) ─ one cudaMemcpyAsync per
 *              contiguous part (two when it wraps) on the GPU's non-blocking stream ─▶ slots;
 *              an event recorded behind it; sub = prod
 *   reap():    an event done (cudaEventQuery; cudaEventSynchronize when the receive thread
 *              would otherwise park): seq = n + 1 (release) for each frame of its batch, in order
 *
 * so a completion is published only once its bytes are in GPU memory. A staging slot is written
 * again only when the device released its frame (prod - cons < nslots), which it could not
 * have seen before that frame's event was done: the copy has read it. Nothing is queued on
 * the legacy stream or a blocking one, so a persistent kernel on either never holds a copy.
 *
 * Who drains the port: DOCA's GPU samples never progress a PE for their GPU queues (the
 * gpunetio_simple_receive host thread only waits for SIGINT), so the first started GPU queue of
 * a port starts one receive thread for that port; the last one to stop joins it. The thread
 * drains with eth_port_drain() (the port lock keeps it one producer with CPU queues' PEs) and
 * parks in poll() on the medium's rx fd and an eventfd that stop uses to wake it.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <doca_eth_rxq.h>
#include <doca_eth_rxq_gpu_data_path.h>
#include <doca_gpunetio_eth_def.h>
#include <doca_gpunetio_hd.h>
#include <doca_mmap.h>

#include "eth_internal.h"
#include "gpu_hook.h"

#define COMP ETH_COMP

/* Longest a parked receive thread sleeps without a wake-up (a medium without an fd polls). */
#define GPU_RX_PARK_MS 10
/* Batches of one GPU-only queue in flight (copies queued, event not yet seen done). */
#define GPU_RX_FLIGHTS 8

struct gpu_rx_thread {
	struct eth_port *port;
	pthread_t tid;
	unsigned int refs;
	int efd;
	int rx_fd; /* the medium's, -1 without one */
	atomic_bool stop;
};

static struct gpu_rx_thread rx_threads[TOPO_MAX_DEVICES];
static _Thread_local bool on_rx_thread; /* a flush elsewhere wakes the port's thread to reap */
static pthread_mutex_t rx_threads_lock = PTHREAD_MUTEX_INITIALIZER;

struct eth_rxq_gpu {
	/* CPU-proxy doorbell: written by proxy progress (busy held), read by the NIC; own line */
	_Atomic uint64_t db;
	uint8_t pad[SD_CACHELINE - sizeof(uint64_t)];
	struct doca_gpu *gpu;
	const struct priv_doca_gpu_ops *ops;
	bool proxy;			 /* doca_eth_rxq_gpu_set_uar_on_cpu */
	enum doca_gpu_mem_type mem_type; /* doca_eth_rxq_gpu_set_rq_mem_type (ring: CPU_GPU whatever it is) */
	atomic_flag busy;		 /* one proxy progress at a time; start and stop take it too */
	bool started;			 /* written and read with busy held */
	struct gpu_rx_thread *thread;
	/* one allocation: the handle, then the completion ring */
	void *mem_gpu;
	uint8_t *mem_cpu;
	struct doca_gpu_eth_rxq *h_gpu, *h_cpu;
	struct doca_gpu_eth_rxq_cqe *cqe_cpu;
	uint8_t *slots_cpu; /* NULL: GPU-only packet memory, reached through the staging mirror */
	uint8_t *slots_gpu;
	uint32_t stride, nslots;
	uint64_t prod; /* the producer's (port lock) */
	/* GPU-only packet memory (the producer's, port lock; see the top of the file) */
	void *stage_gpu;   /* the mirror's allocation (mem_free) */
	uint8_t *stage;	   /* its CPU side; NULL: no mirror */
	uint64_t sub;	   /* frames below it have their copy queued */
	uint64_t pub;	   /* frames below it have their seq published */
	uint32_t last_len; /* bytes of frame prod - 1 (private: the cqe is the device's to read and write) */
	struct {
		void *event;
		uint64_t end; /* the batch is frames [previous end, end) */
	} fl[GPU_RX_FLIGHTS];
	uint32_t fl_head, fl_n;
	uint64_t st_copies, st_batches; /* cudaMemcpyAsync calls, batches (the stop line) */
	bool failed;   /* the device released slots it was never given, or a copy failed (producer's, port lock) */
	char name[96]; /* for the failure's line */
};

/*
 * Before parking: arm the medium's wake-up (rx_rearm, under the port lock like every receive
 * op), which also looks at the medium once more, so a frame that came meanwhile makes the fd
 * readable at once.
 */
static void rx_thread_arm(struct eth_port *p)
{
	pthread_mutex_lock(&p->lock); /* ops too: eth_port_get() rewrites them under it */
	if (p->ops->rx_rearm != NULL)
		p->ops->rx_rearm(p->port);
	pthread_mutex_unlock(&p->lock);
}

static void *rx_thread_main(void *arg)
{
	struct gpu_rx_thread *t = arg;
	struct eth_port *p = t->port;
	int fd = t->rx_fd;
	struct pollfd pfd[2] = {{.fd = t->efd, .events = POLLIN}, {.fd = fd, .events = POLLIN}};

	on_rx_thread = true;
	while (!atomic_load_explicit(&t->stop, memory_order_acquire)) {
		uint64_t v;

		if (eth_port_drain(p, ETH_RX_BUDGET) > 0)
			continue;
		/* Copies in flight to GPU-only packet memory: their completions first, then sleep. */
		if (eth_port_settle(p))
			continue;
		/* Nothing (or another queue's PE drains): park until the medium or stop wakes us. */
		rx_thread_arm(p);
		if (poll(pfd, fd >= 0 ? 2 : 1, GPU_RX_PARK_MS) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN)
			(void)!read(t->efd, &v, sizeof(v)); /* a flush on another thread, or stop */
	}
	return NULL;
}

/* The port's receive thread, started by its first GPU queue. */
static doca_error_t rx_thread_get(struct eth_port *p, const char *name, struct gpu_rx_thread **out)
{
	struct gpu_rx_thread *t = NULL, *free_t = NULL;
	doca_error_t ret = DOCA_SUCCESS;
	int err;

	pthread_mutex_lock(&rx_threads_lock);
	for (size_t i = 0; i < SD_ARRAY_SIZE(rx_threads) && t == NULL; i++) {
		if (rx_threads[i].refs > 0 && rx_threads[i].port == p)
			t = &rx_threads[i];
		else if (rx_threads[i].refs == 0 && free_t == NULL)
			free_t = &rx_threads[i];
	}
	if (t != NULL) {
		t->refs++;
		goto out;
	}
	if (free_t == NULL) {
		ret = SD_REJECT(DOCA_ERROR_FULL, COMP, "doca_ctx_start: %s: every receive thread slot is in use", name);
		goto out;
	}
	t = free_t;
	t->port = p;
	t->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (t->efd < 0) {
		ret = SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP,
				"doca_ctx_start: %s: eventfd for the port's receive thread failed: %s", name,
				strerror(errno));
		goto out;
	}
	/* Asked here, not in the thread: a wire's receiver claims the port by asking, and frames
	 * sent to an unclaimed port are lost, so the claim happens before start returns. */
	pthread_mutex_lock(&p->lock); /* a receive op: one thread at a time */
	t->rx_fd = p->ops->rx_fd != NULL ? p->ops->rx_fd(p->port) : -1;
	pthread_mutex_unlock(&p->lock);
	atomic_store(&t->stop, false);
	err = pthread_create(&t->tid, NULL, rx_thread_main, t);
	if (err != 0) {
		close(t->efd);
		ret = SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP,
				"doca_ctx_start: %s: cannot start the port's receive thread: %s", name, strerror(err));
		goto out;
	}
	t->refs = 1;
	SD_DBG(COMP, "%s: receive thread started for port %s", name, priv_doca_dev_name(&p->dev->info));
out:
	pthread_mutex_unlock(&rx_threads_lock);
	if (ret == DOCA_SUCCESS)
		*out = t;
	return ret;
}

static void rx_thread_put(struct gpu_rx_thread *t)
{
	uint64_t one = 1;
	bool last;

	pthread_mutex_lock(&rx_threads_lock);
	last = --t->refs == 0;
	if (last) {
		atomic_store_explicit(&t->stop, true, memory_order_release);
		if (write(t->efd, &one, sizeof(one)) < 0) {
			/* the thread still sees stop within GPU_RX_PARK_MS */
		}
		pthread_join(t->tid, NULL);
		close(t->efd);
		t->efd = -1;
		t->port = NULL;
	}
	pthread_mutex_unlock(&rx_threads_lock);
}

static void busy_take(struct eth_rxq_gpu *g)
{
	while (atomic_flag_test_and_set_explicit(&g->busy, memory_order_acquire))
		sched_yield(); /* a proxy round on another thread: a few loads */
}

static void busy_drop(struct eth_rxq_gpu *g)
{
	atomic_flag_clear_explicit(&g->busy, memory_order_release);
}

/* *@g, allocated on first use (a setter of doca_eth_rxq_gpu_data_path.h or the GPU itself). */
static doca_error_t gpu_part(struct eth_rxq_gpu **g, const char *call, const char *name)
{
	if (*g != NULL)
		return DOCA_SUCCESS;
	*g = sd_calloc_lines(1, sizeof(**g));
	if (*g == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: %s: out of memory", call, name);
	atomic_flag_clear(&(*g)->busy);
	(*g)->mem_type = DOCA_GPU_MEM_TYPE_GPU; /* DOCA's default */
	return DOCA_SUCCESS;
}

doca_error_t eth_rxq_gpu_set_datapath(struct eth_rxq_gpu **g, const char *name, struct doca_gpu *gpu)
{
	const struct priv_doca_gpu_base *b = priv_doca_gpu_base(gpu);
	doca_error_t ret;

	if (b == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_ctx_set_datapath_on_gpu: %s: %p is not a GPU from doca_gpu_create()", name,
				 (void *)gpu);
	if (b->ops->mem_alloc_mapped == NULL || b->ops->cpu_view == NULL)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_ctx_set_datapath_on_gpu: %s: GPU %p comes from a libdoca_gpunetio without GPU "
				 "receive queues; use the libdoca_gpunetio of this softdoca",
				 name, (void *)gpu);
	ret = gpu_part(g, "doca_ctx_set_datapath_on_gpu", name);
	if (ret != DOCA_SUCCESS)
		return ret;
	(*g)->gpu = gpu;
	(*g)->ops = b->ops;
	return DOCA_SUCCESS;
}

bool eth_rxq_gpu_on(const struct eth_rxq_gpu *g)
{
	return g != NULL && g->gpu != NULL;
}

doca_error_t eth_rxq_gpu_check_cpu(const struct eth_rxq_gpu *g, const char *name)
{
	if (g != NULL && g->proxy && !eth_rxq_gpu_on(g))
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_ctx_start: %s runs on the CPU data path but has CPU-proxy mode "
				 "(doca_eth_rxq_gpu_set_uar_on_cpu), which GPU queues have; call "
				 "doca_ctx_set_datapath_on_gpu() before doca_ctx_start(), or create the queue anew "
				 "without it",
				 name);
	return DOCA_SUCCESS;
}

static void stage_free(struct eth_rxq_gpu *g)
{
	for (size_t i = 0; i < SD_ARRAY_SIZE(g->fl); i++) {
		g->ops->event_destroy(g->gpu, g->fl[i].event);
		g->fl[i].event = NULL;
	}
	if (g->stage_gpu != NULL)
		g->ops->mem_free(g->gpu, g->stage_gpu);
	g->stage_gpu = NULL;
	g->stage = NULL;
}

/* The pinned staging mirror of GPU-only packet memory and the events of its batches. */
static doca_error_t stage_make(struct eth_rxq_gpu *g)
{
	doca_error_t ret;

	if (g->ops->copy_async == NULL || g->ops->event_create == NULL)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_ctx_start: %s: its GPU comes from a libdoca_gpunetio without batched copies "
				 "into GPU memory; use the libdoca_gpunetio of this softdoca",
				 g->name);
	ret = g->ops->mem_alloc_mapped(g->gpu, (size_t)g->nslots * g->stride, &g->stage_gpu, (void **)&g->stage,
				       "doca_ctx_start");
	for (size_t i = 0; ret == DOCA_SUCCESS && i < SD_ARRAY_SIZE(g->fl); i++)
		ret = g->ops->event_create(g->gpu, &g->fl[i].event, "doca_ctx_start");
	if (ret != DOCA_SUCCESS)
		stage_free(g);
	return ret;
}

/* A copy or an event failed: one line, and the queue drops everything until it is restarted. */
static void stage_fail(struct eth_rxq_gpu *g, const char *what)
{
	if (g->failed)
		return;
	g->failed = true;
	SD_REJECT(DOCA_ERROR_DRIVER, COMP,
		  "%s: %s for GPU-only packet memory failed (the line above says why); the queue drops every "
		  "packet until it is restarted: %llu received packets never reach the GPU",
		  g->name, what, (unsigned long long)(g->prod - g->pub));
}

/*
 * The batches whose copies have landed, oldest first: their completions are published, frame by
 * frame in order. @wait: waits for every batch in flight. Returns how many batches it published.
 */
static unsigned int stage_reap(struct eth_rxq_gpu *g, bool wait)
{
	unsigned int n = 0;

	while (g->fl_n > 0 && !g->failed) {
		uint32_t i = g->fl_head;
		doca_error_t ret = g->ops->event_done(g->gpu, g->fl[i].event, wait, "eth rxq receive");

		if (ret == DOCA_ERROR_AGAIN)
			break;
		if (ret != DOCA_SUCCESS) {
			stage_fail(g, "waiting for a copy");
			break;
		}
		for (uint64_t f = g->pub; f < g->fl[i].end; f++)
			doca_gpunetio_hd_store_release_u32(&g->cqe_cpu[f % g->nslots].seq, (uint32_t)(f + 1));
		g->pub = g->fl[i].end;
		g->fl_head = (i + 1) % GPU_RX_FLIGHTS;
		g->fl_n--;
		n++;
	}
	return n;
}

/* Staging slots [@first, @first + @n) (no wrap) to the packet buffer: one copy. */
static bool stage_copy(struct eth_rxq_gpu *g, uint32_t first, uint32_t n, uint32_t last_len)
{
	size_t off = (size_t)first * g->stride, len = (size_t)(n - 1) * g->stride + last_len;

	g->st_copies++;
	return g->ops->copy_async(g->gpu, g->slots_gpu + off, g->stage + off, len, "eth rxq receive") == DOCA_SUCCESS;
}

/*
 * The frames staged since the last flush go to GPU memory: one copy per contiguous part of the
 * ring (two when the run wraps), then an event. Returns true when a batch is in flight.
 */
static bool stage_flush(struct eth_rxq_gpu *g)
{
	uint64_t n = g->prod - g->sub;
	uint32_t first = (uint32_t)(g->sub % g->nslots), head, i;
	uint32_t last_len = g->last_len;
	bool ok;

	stage_reap(g, false);
	if (n == 0 || g->failed)
		return g->fl_n > 0;
	if (g->fl_n == GPU_RX_FLIGHTS)
		stage_reap(g, true); /* every event in use: wait for the batches in flight */
	if (g->failed)
		return false;
	head = g->nslots - first; /* slots before the end of the buffer */
	if (n <= head) {
		ok = stage_copy(g, first, (uint32_t)n, last_len);
	} else {
		ok = stage_copy(g, first, head, g->stride);
		ok = ok && stage_copy(g, 0, (uint32_t)(n - head), last_len);
	}
	i = (g->fl_head + g->fl_n) % GPU_RX_FLIGHTS;
	if (!ok || g->ops->event_record(g->gpu, g->fl[i].event, "eth rxq receive") != DOCA_SUCCESS) {
		stage_fail(g, ok ? "recording the copy's event" : "a copy");
		return false;
	}
	g->fl[i].end = g->prod;
	g->fl_n++;
	g->st_batches++;
	g->sub = g->prod;
	if (!on_rx_thread && g->thread != NULL) {
		uint64_t one = 1;

		/* A CPU queue's PE drained: the port's thread publishes when the copy lands. */
		(void)!write(g->thread->efd, &one, sizeof(one));
	}
	return true;
}

bool eth_rxq_gpu_flush(struct eth_rxq_gpu *g, bool wait)
{
	bool busy;

	if (g == NULL || g->stage == NULL)
		return false;
	busy = stage_flush(g);
	if (wait && busy)
		stage_reap(g, true);
	return busy;
}

doca_error_t eth_rxq_gpu_start(struct eth_rxq_gpu *g, const struct eth_rxq_gpu_cfg *cfg)
{
	struct doca_mmap *m = cfg->pkt_mmap;
	uint32_t mkey = 0;
	void *view = NULL;
	size_t size;
	doca_error_t ret;

	if (!eth_rxq_gpu_on(g))
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_ctx_start: %s is CYCLIC, a type only the GPU data path has; call "
				 "doca_ctx_set_datapath_on_gpu() before doca_ctx_start(), or use MANAGED_MEMPOOL or "
				 "REGULAR on the CPU",
				 cfg->name);
	if (cfg->type != DOCA_ETH_RXQ_TYPE_CYCLIC)
		return SD_REJECT(
		    DOCA_ERROR_NOT_SUPPORTED, COMP,
		    "doca_ctx_start: %s has its data path on the GPU but is %s; GPU queues are CYCLIC: call "
		    "doca_eth_rxq_set_type(DOCA_ETH_RXQ_TYPE_CYCLIC) before doca_ctx_start()",
		    cfg->name, cfg->type == DOCA_ETH_RXQ_TYPE_REGULAR ? "REGULAR" : "MANAGED_MEMPOOL");
	if (m == NULL)
		return SD_REJECT(
		    DOCA_ERROR_BAD_STATE, COMP,
		    "doca_ctx_start: %s is CYCLIC but has no packet buffer; call doca_eth_rxq_set_pkt_buf() "
		    "(size: doca_eth_rxq_estimate_packet_buf_size) before doca_ctx_start()",
		    cfg->name);
	if (!m->started || cfg->pkt_off + (uint64_t)cfg->pkt_len > m->len)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s: the packet buffer mmap %p is stopped or smaller than offset %u + "
				 "length %u; keep it started and large enough",
				 cfg->name, (void *)m, cfg->pkt_off, cfg->pkt_len);
	g->stride = (cfg->max_pkt + SD_CACHELINE - 1) & ~(uint32_t)(SD_CACHELINE - 1);
	g->nslots = cfg->pkt_len / g->stride;
	if (g->nslots < 2)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_ctx_start: %s: a packet buffer of %u bytes holds %u slots of %u bytes "
				 "(max_packet_size rounded up to 64); give it room for at least 2 "
				 "(doca_eth_rxq_estimate_packet_buf_size)",
				 cfg->name, cfg->pkt_len, g->nslots, g->stride);
	g->slots_gpu = m->addr + cfg->pkt_off;
	ret = g->ops->cpu_view(g->gpu, g->slots_gpu, (size_t)g->nslots * g->stride, &view);
	if (ret == DOCA_ERROR_NOT_FOUND)
		/*
		 * Plain host memory is not reachable from a kernel (without HMM or cudaHostRegister),
		 * and another GPU's memory not from this one's copies: a kernel would read nothing
		 * the NIC wrote, or the NIC thread would fault.
		 */
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_ctx_start: %s: its packet buffer (%u bytes at %p, mmap %p) is not memory of "
				 "GPU %s from doca_gpu_mem_alloc(), so a kernel on that GPU cannot be given its "
				 "packets; allocate it with doca_gpu_mem_alloc(DOCA_GPU_MEM_TYPE_GPU or CPU_GPU) on "
				 "the GPU passed to doca_ctx_set_datapath_on_gpu()",
				 cfg->name, cfg->pkt_len, (void *)g->slots_gpu, (void *)m, g->ops->name(g->gpu));
	if (ret != DOCA_SUCCESS)
		return ret;
	g->slots_cpu = view;
	(void)doca_mmap_get_mkey(m, cfg->dev, &mkey);
	size = sizeof(struct doca_gpu_eth_rxq) + (size_t)g->nslots * sizeof(struct doca_gpu_eth_rxq_cqe);
	ret = g->ops->mem_alloc_mapped(g->gpu, size, &g->mem_gpu, (void **)&g->mem_cpu, "doca_ctx_start");
	if (ret != DOCA_SUCCESS)
		return ret;
	/* Zeroed here, whatever the hook gives: a stale seq could pass for the next packet's. */
	memset(g->mem_cpu, 0, size);
	g->h_gpu = g->mem_gpu;
	g->h_cpu = (struct doca_gpu_eth_rxq *)g->mem_cpu;
	g->cqe_cpu = (struct doca_gpu_eth_rxq_cqe *)(g->mem_cpu + sizeof(struct doca_gpu_eth_rxq));
	g->h_cpu->pkt_base = (uint64_t)(uintptr_t)g->slots_gpu;
	g->h_cpu->cqe = (struct doca_gpu_eth_rxq_cqe *)((uint8_t *)g->mem_gpu + sizeof(struct doca_gpu_eth_rxq));
	g->h_cpu->stride = g->stride;
	g->h_cpu->nslots = g->nslots;
	g->h_cpu->pkt_mkey = __builtin_bswap32(mkey);
	g->h_cpu->next = 0;
	doca_gpunetio_hd_store_release_u64(&g->h_cpu->cons, 0);
	atomic_store_explicit(&g->db, 0, memory_order_relaxed); /* published by the bind to the NIC */
	g->prod = g->sub = g->pub = 0;
	g->fl_head = g->fl_n = 0;
	g->st_copies = g->st_batches = 0;
	g->failed = false;
	snprintf(g->name, sizeof(g->name), "%s", cfg->name);
	ret = g->slots_cpu == NULL ? stage_make(g) : DOCA_SUCCESS;
	if (ret == DOCA_SUCCESS) {
		ret = rx_thread_get(cfg->port, cfg->name, &g->thread);
		if (ret != DOCA_SUCCESS)
			stage_free(g);
	}
	if (ret != DOCA_SUCCESS) {
		g->ops->mem_free(g->gpu, g->mem_gpu);
		g->mem_gpu = NULL;
		return ret;
	}
	busy_take(g);
	g->started = true;
	busy_drop(g);
	SD_DBG(COMP,
	       "%s: CYCLIC on the GPU, %u slots of %u bytes, %s packet memory, ring in CPU_GPU memory (%s asked%s), "
	       "doorbell rung by %s",
	       cfg->name, g->nslots, g->stride, g->slots_cpu != NULL ? "CPU-addressable" : "GPU-only (copied)",
	       eth_gpu_mem_type_name(g->mem_type),
	       g->mem_type == DOCA_GPU_MEM_TYPE_CPU_GPU ? "" : "; the NIC is a CPU thread that writes it per frame",
	       g->proxy ? "the CPU (doca_eth_rxq_gpu_cpu_proxy_progress)" : "the GPU");
	return DOCA_SUCCESS;
}

bool eth_rxq_gpu_place(struct eth_rxq_gpu *g, const uint8_t *frame, uint32_t len, const struct eth_rx_meta *m)
{
	uint64_t prod = g->prod;
	/* The doorbell: the device's cons, or what the CPU proxy last copied from it. */
	uint64_t cons = g->proxy ? atomic_load_explicit(&g->db, memory_order_acquire)
				 : doca_gpunetio_hd_load_acquire_u64(&g->h_cpu->cons);
	uint32_t slot;
	struct doca_gpu_eth_rxq_cqe *c;

	/* One test on the way of a frame: a cons past prod also makes prod - cons >= nslots. */
	if (SD_UNLIKELY(g->failed || prod - cons >= g->nslots)) {
		if (!g->failed && (int64_t)(cons - prod) > 0) {
			/* Read once above; a consumer index past the producer's is no lap of this ring. */
			g->failed = true;
			SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				  "%s: the GPU released receive slots up to %llu with %llu packets placed; the queue "
				  "drops every packet until it is restarted: the consumer index never passes the "
				  "packets received",
				  g->name, (unsigned long long)cons, (unsigned long long)prod);
		}
		return false;
	}
	slot = (uint32_t)(prod % g->nslots);
	c = &g->cqe_cpu[slot];
	c->timestamp_ns = m->timestamp;
	c->bytes = len;
	g->prod = prod + 1;
	if (g->stage != NULL) {
		/* GPU-only memory: the seq waits for the batch's copy (stage_flush, stage_reap). */
		memcpy(g->stage + (size_t)slot * g->stride, frame, len);
		g->last_len = len;
		return true;
	}
	memcpy(g->slots_cpu + (size_t)slot * g->stride, frame, len);
	doca_gpunetio_hd_store_release_u32(&c->seq, (uint32_t)(prod + 1));
	return true;
}

void eth_rxq_gpu_stopping(struct eth_rxq_gpu *g)
{
	if (g == NULL || g->thread == NULL)
		return;
	/* Unbound: no drain reaches the queue any more. What it received lands and is published. */
	if (eth_rxq_gpu_flush(g, true) || g->stage != NULL)
		SD_DBG(COMP, "%s: %llu packets into GPU-only memory in %llu batches, %llu copies", g->name,
		       (unsigned long long)g->pub, (unsigned long long)g->st_batches, (unsigned long long)g->st_copies);
	rx_thread_put(g->thread);
	g->thread = NULL;
}

void eth_rxq_gpu_stopped(struct eth_rxq_gpu *g)
{
	if (g == NULL)
		return;
	eth_rxq_gpu_stopping(g);
	busy_take(g); /* a proxy round on another thread finishes before the ring goes */
	g->started = false;
	busy_drop(g);
	if (g->stage != NULL)
		stage_free(g);
	if (g->mem_gpu != NULL)
		g->ops->mem_free(g->gpu, g->mem_gpu);
	g->mem_gpu = NULL;
	g->mem_cpu = NULL;
	g->h_gpu = g->h_cpu = NULL;
	g->cqe_cpu = NULL;
}

void eth_rxq_gpu_destroy(struct eth_rxq_gpu *g)
{
	if (g == NULL)
		return;
	eth_rxq_gpu_stopped(g);
	free(g);
}

doca_error_t eth_rxq_gpu_handle(const struct eth_rxq_gpu *g, const char *name, struct doca_gpu_eth_rxq **out)
{
	if (g == NULL || g->gpu == NULL)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_eth_rxq_get_gpu_handle: %s runs on the CPU data path; give it a GPU with "
				 "doca_ctx_set_datapath_on_gpu() and the CYCLIC type before doca_ctx_start()",
				 name);
	if (!g->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_rxq_get_gpu_handle: %s is not started; call doca_ctx_start() first", name);
	*out = g->h_gpu;
	return DOCA_SUCCESS;
}

/* ---- doca_eth_rxq_gpu_data_path.h ---- */

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_enable_mcst_qp(struct doca_eth_rxq *eth_rxq)
{
	struct doca_ctx *ctx = doca_eth_rxq_as_doca_ctx(eth_rxq);

	if (ctx == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_gpu_enable_mcst_qp: NULL queue");
	/* The software NIC releases each completion after its packet bytes: nothing to flush. */
	return ctx_check_idle(ctx, NULL);
}

/* The queue's GPU part for a setter: INVALID_VALUE for NULL, BAD_STATE unless idle. */
static doca_error_t idle_part(struct doca_eth_rxq *eth_rxq, const char *call, struct eth_rxq_gpu **out)
{
	struct doca_ctx *ctx = doca_eth_rxq_as_doca_ctx(eth_rxq);
	struct eth_rxq_gpu **g;
	doca_error_t ret;

	if (ctx == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL queue", call);
	ret = priv_doca_ctx_check_idle(ctx, call, NULL);
	if (ret != DOCA_SUCCESS)
		return ret;
	g = eth_rxq_gpu_of(eth_rxq);
	ret = gpu_part(g, call, priv_doca_ctx_name(ctx));
	if (ret == DOCA_SUCCESS)
		*out = *g;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_set_uar_on_cpu(struct doca_eth_rxq *eth_rxq)
{
	struct eth_rxq_gpu *g = NULL;
	doca_error_t ret = idle_part(eth_rxq, "doca_eth_rxq_gpu_set_uar_on_cpu", &g);

	if (ret != DOCA_SUCCESS)
		return ret;
	g->proxy = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_set_rq_mem_type(struct doca_eth_rxq *eth_rxq,
								enum doca_gpu_mem_type rq_mem_type)
{
	struct eth_rxq_gpu *g = NULL;
	doca_error_t ret;

	if (eth_rxq == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_gpu_set_rq_mem_type: NULL queue");
	if (eth_gpu_mem_type_name(rq_mem_type) == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_gpu_set_rq_mem_type: %s: memory type %d is not one; pass "
				 "DOCA_GPU_MEM_TYPE_GPU, DOCA_GPU_MEM_TYPE_GPU_CPU or DOCA_GPU_MEM_TYPE_CPU_GPU",
				 priv_doca_ctx_name(doca_eth_rxq_as_doca_ctx(eth_rxq)), (int)rq_mem_type);
	ret = idle_part(eth_rxq, "doca_eth_rxq_gpu_set_rq_mem_type", &g);
	if (ret != DOCA_SUCCESS)
		return ret;
	g->mem_type = rq_mem_type;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_cpu_proxy_progress(struct doca_eth_rxq *rxq)
{
	struct doca_ctx *ctx = doca_eth_rxq_as_doca_ctx(rxq);
	struct eth_rxq_gpu *g;
	uint64_t cons;

	if (ctx == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_gpu_cpu_proxy_progress: NULL queue");
	g = *eth_rxq_gpu_of(rxq);
	if (!eth_rxq_gpu_on(g) || !g->proxy)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_eth_rxq_gpu_cpu_proxy_progress: %s %s; call doca_eth_rxq_gpu_set_uar_on_cpu() "
				 "and doca_ctx_set_datapath_on_gpu() before doca_ctx_start()",
				 priv_doca_ctx_name(ctx),
				 eth_rxq_gpu_on(g) ? "rings its doorbell from the GPU" : "runs on the CPU data path");
	if (atomic_flag_test_and_set_explicit(&g->busy, memory_order_acquire))
		return DOCA_SUCCESS; /* another thread is in a round of this queue */
	if (!g->started) {
		busy_drop(g);
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_rxq_gpu_cpu_proxy_progress: %s is not started; call doca_ctx_start() first",
				 priv_doca_ctx_name(ctx));
	}
	/*
	 * The device released cons after its last reads of the slots below it; this acquire and
	 * the release of db hand that on to the NIC, whose acquire of db orders its next writes
	 * into those slots after them. Only this thread writes db (busy): a plain compare first.
	 */
	cons = doca_gpunetio_hd_load_acquire_u64(&g->h_cpu->cons);
	if (cons != atomic_load_explicit(&g->db, memory_order_relaxed))
		atomic_store_explicit(&g->db, cons, memory_order_release);
	busy_drop(g);
	return DOCA_SUCCESS;
}
