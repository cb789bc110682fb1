/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_probe - checks of GPUNetIO that only a real GPU can answer, run in one go:
 *
 *   device           cudaDeviceGetAttribute values and the smallest nonzero step of %globaltimer
 *   stale_bytes      a CYCLIC GPU rxq over GPU-only memory; -c frames sent on the cabled port by
 *                    a GPU txq; the receiving kernel checks every payload byte of every frame
 *   d2d_early        CPU DMA memcpy tasks from one GPU-only buffer to another; at each
 *                    completion the destination is read back (cudaMemcpy): never early
 *   blocking_stream  a persistent receiving kernel on the legacy default stream (<<<>>> without
 *                    a stream) while another kernel sends: every frame arrives, no deadlock
 *   warp_block       WARP (a partial warp of 20 lanes) and BLOCK scope sends and receives:
 *                    every frame arrives intact, in order, every ticket distinct
 *   send_ceiling     rising send rates from a kernel (10k .. 1M frames per second, 0.5 s each):
 *                    achieved rate per step and the first below 90% of the asked one
 *
 *   gpunetio_probe -g <GPU PCI address> [-n 03:00.0] [-p 03:00.1] [-c frames] [-t seconds]
 *
 * The receive queue is on -n, the send queue on -p, its cabled peer (the default topology
 * cables 03:00.0 to 03:00.1), so the probe needs nobody else. It prints one line
 * "probe {json}" on stdout: {"kind": ..., CHECK: {"ok": bool, ...}, ..., "ok": bool}.
 * Exit status 0 when every check passed, 1 when one did not (or the -t watchdog fired), 2 for
 * bad usage, 77 when there is no GPU or CUDA runtime. Every wait has a deadline; a kernel that
 * does not end within its deadline stops the probe there (its memory stays to the exit).
 * Built twice: with CUDA kernels (only where meson finds nvcc) and, for the tests' fake CUDA
 * runtime, with CPU threads in their place (THREAD scope; what cannot mean anything there is
 * reported "skipped").
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <doca_argp.h>
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_gpu_data_path.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_gpu_data_path.h>
#include <doca_gpunetio.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "../eth_examples.h"
#include "example_args.h"
#include "gpunetio_probe.h"

DOCA_LOG_REGISTER(GPUNETIO_PROBE);

#define NIC_DEFAULT  "03:00.0"
#define PEER_DEFAULT "03:00.1"
#define RX_SLOTS     8192u
#define RX_PKT_SIZE  2048u
#define TX_NWQE	     8192u
#define GPU_PAGE     65536u
#define FRAME_SIZE   512u
#define MAX_ROUND    256u
#define WINDOW	     256u /* frames in flight at most: below the wire's ring of 512 */
#define WB_FRAMES    2560u
#define DMA_CHUNK    (64u * 1024u)
#define DMA_TASKS    64u
#define STEP_NS	     500000000ull
#define EXIT_SKIP    77
#define EXIT_USAGE   2
#define NS	     1000000000ull

struct cfg {
	struct example_gpu_nic dev; /* first: example_nic_cb and example_gpu_cb fill it */
	char peer[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint32_t seconds;
	uint32_t frames;
};

/* What the checks share. */
struct probe {
	struct cfg cfg;
	struct doca_gpu *gpu;
	struct doca_dev *rx_dev, *tx_dev;
	struct doca_eth_rxq *rxq;
	struct doca_eth_txq *txq;
	struct doca_gpu_eth_rxq *rxq_gpu;
	struct doca_gpu_eth_txq *txq_gpu;
	struct doca_mmap *rx_mmap, *tx_mmap;
	struct eth_example_flow flow;
	void *rx_pkt, *tx_pkt;
	struct pb_ctl *rx_ctl_gpu, *rx_ctl, *tx_ctl_gpu, *tx_ctl;
	uint64_t *tickets_gpu, *tickets;
	uint32_t mkey_be, rx_pkt_size;
	uint8_t src_mac[6];
	bool rxq_started, txq_started;
	bool stuck;	   /* a kernel did not end: nothing may be freed or run any more */
	uint64_t cqe_next; /* the send queue's next completion position */
	uint64_t end_ns;
};

static char json[16384];
static size_t json_len;

static void out(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (json_len >= sizeof(json))
		return;
	va_start(ap, fmt);
	n = vsnprintf(json + json_len, sizeof(json) - json_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		json_len = json_len + (size_t)n < sizeof(json) ? json_len + (size_t)n : sizeof(json) - 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

static uint64_t load64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static uint32_t load32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* The -t watchdog: a probe that overran its time says so on stdout and ends at once. */
static void on_alarm(int sig)
{
	static const char line[] = "probe {\"ok\": false, \"error\": \"watchdog: the probe overran -t\"}\n";

	(void)sig;
	if (write(STDOUT_FILENO, line, sizeof(line) - 1) < 0) {
	}
	_exit(EXIT_FAILURE);
}

static doca_error_t peer_cb(void *param, void *config)
{
	return example_pci_arg(((struct cfg *)config)->peer, param);
}

static doca_error_t seconds_cb(void *param, void *config)
{
	int v = *(int *)param;

	if (v < 10 || v > 3600) {
		DOCA_LOG_ERR("seconds %d is outside 10..3600", v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct cfg *)config)->seconds = (uint32_t)v;
	return DOCA_SUCCESS;
}

static doca_error_t frames_cb(void *param, void *config)
{
	int v = *(int *)param;

	if (v < 1 || v > 10000000) {
		DOCA_LOG_ERR("frames %d is outside 1..10000000", v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct cfg *)config)->frames = (uint32_t)v;
	return DOCA_SUCCESS;
}

static doca_error_t begin(int argc, char **argv, struct cfg *cfg)
{
	doca_error_t ret;

	ret = example_log_argp_init(cfg);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = example_param("g", "gpu", "GPU PCI address, as nvidia-smi prints it", DOCA_ARGP_TYPE_STRING,
			    example_gpu_cb, true);
	if (ret == DOCA_SUCCESS)
		ret = example_param("n", "nic", "receiving NIC port (default " NIC_DEFAULT ")", DOCA_ARGP_TYPE_STRING,
				    example_nic_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("p", "peer", "sending NIC port, cabled to -n (default " PEER_DEFAULT ")",
				    DOCA_ARGP_TYPE_STRING, peer_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("c", "count", "frames of the stale_bytes check (default 20000)", DOCA_ARGP_TYPE_INT,
				    frames_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("t", "time", "overall limit in seconds, 10..3600 (default 120)", DOCA_ARGP_TYPE_INT,
				    seconds_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	if (ret != DOCA_SUCCESS)
		doca_argp_destroy();
	return ret;
}

/* The device at @pci, if it can have a CYCLIC receive queue on the GPU. */
static doca_error_t open_rx_nic(const char *pci, struct doca_dev **dev)
{
	doca_error_t ret = eth_example_open_device(pci, dev);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_eth_rxq_cap_is_type_supported(doca_dev_as_devinfo(*dev), DOCA_ETH_RXQ_TYPE_CYCLIC,
						 DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("device %s has no CYCLIC receive queues on the GPU: %s", pci, doca_error_get_descr(ret));
		(void)doca_dev_close(*dev);
		*dev = NULL;
	}
	return ret;
}

/* The receive queue on -n (CYCLIC, GPU-only packet memory) and the send queue on -p. */
static doca_error_t setup(struct probe *pb)
{
	uint32_t nslots = RX_SLOTS, cap = 0, mkey = 0;
	size_t rx_len, tx_len = ((size_t)2 * MAX_ROUND * FRAME_SIZE + GPU_PAGE - 1) / GPU_PAGE * GPU_PAGE;
	doca_error_t ret;

	pb->rx_pkt_size = RX_PKT_SIZE;
	ret = open_rx_nic(pb->cfg.dev.nic, &pb->rx_dev);
	if (ret == DOCA_SUCCESS)
		ret = eth_example_open_device(pb->cfg.peer, &pb->tx_dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (doca_eth_rxq_cap_get_max_packet_size(doca_dev_as_devinfo(pb->rx_dev), &cap) == DOCA_SUCCESS &&
	    cap < pb->rx_pkt_size)
		pb->rx_pkt_size = cap;
	if (doca_eth_rxq_cap_get_max_burst_size(doca_dev_as_devinfo(pb->rx_dev), &cap) == DOCA_SUCCESS && cap < nslots)
		nslots = cap;
	ret = doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, pb->rx_pkt_size, nslots, 0, 0, 0,
						    &cap);
	rx_len = cap;
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(pb->gpu, rx_len, GPU_PAGE, DOCA_GPU_MEM_TYPE_GPU, &pb->rx_pkt, NULL);
	if (ret == DOCA_SUCCESS)
		ret = eth_example_gpu_mmap(pb->rx_dev, pb->rx_pkt, rx_len, &pb->rx_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_create(pb->rx_dev, nslots, pb->rx_pkt_size, &pb->rxq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_set_type(pb->rxq, DOCA_ETH_RXQ_TYPE_CYCLIC);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_set_pkt_buf(pb->rxq, pb->rx_mmap, 0, (uint32_t)rx_len);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(pb->rxq), pb->gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_eth_rxq_as_doca_ctx(pb->rxq));
	if (ret == DOCA_SUCCESS) {
		pb->rxq_started = true;
		ret = doca_eth_rxq_apply_queue_id(pb->rxq, 0);
	}
	if (ret == DOCA_SUCCESS)
		ret = eth_example_flow_start(pb->rx_dev, 0, &pb->flow);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_get_gpu_handle(pb->rxq, &pb->rxq_gpu);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot set up the GPU receive queue on %s: %s", pb->cfg.dev.nic,
			     doca_error_get_descr(ret));
		return ret;
	}
	ret = doca_eth_txq_create(pb->tx_dev, TX_NWQE, &pb->txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_gpu_set_completion_on_gpu(pb->txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(pb->txq), pb->gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_eth_txq_as_doca_ctx(pb->txq));
	if (ret == DOCA_SUCCESS) {
		pb->txq_started = true;
		ret = doca_eth_txq_apply_queue_id(pb->txq, 0);
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_get_gpu_handle(pb->txq, &pb->txq_gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(pb->gpu, tx_len, GPU_PAGE, DOCA_GPU_MEM_TYPE_GPU, &pb->tx_pkt, NULL);
	if (ret == DOCA_SUCCESS)
		ret = eth_example_gpu_mmap(pb->tx_dev, pb->tx_pkt, tx_len, &pb->tx_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_get_mkey(pb->tx_mmap, pb->tx_dev, &mkey);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot set up the GPU send queue on %s: %s", pb->cfg.peer, doca_error_get_descr(ret));
		return ret;
	}
	pb->mkey_be = htonl(mkey);
	eth_example_src_mac(pb->tx_dev, pb->src_mac);
	ret = doca_gpu_mem_alloc(pb->gpu, sizeof(struct pb_ctl), 0, DOCA_GPU_MEM_TYPE_CPU_GPU, (void **)&pb->rx_ctl_gpu,
				 (void **)&pb->rx_ctl);
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(pb->gpu, sizeof(struct pb_ctl), 0, DOCA_GPU_MEM_TYPE_CPU_GPU,
					 (void **)&pb->tx_ctl_gpu, (void **)&pb->tx_ctl);
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(pb->gpu, (size_t)WB_FRAMES * sizeof(uint64_t), 0, DOCA_GPU_MEM_TYPE_CPU_GPU,
					 (void **)&pb->tickets_gpu, (void **)&pb->tickets);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("cannot allocate the control blocks: %s", doca_error_get_descr(ret));
	return ret;
}

/* Sets exit on @ctl and waits, until @end at most, for done. */
static bool stop_side(struct pb_ctl *ctl, uint64_t end)
{
	__atomic_store_n(&ctl->exit, 1, __ATOMIC_RELEASE);
	while (load32(&ctl->done) == 0) {
		if (now_ns() > end)
			return false;
		usleep(1000);
	}
	return true;
}

struct run_result {
	bool host_watchdog; /* the CPU had to set exit: a side had not ended by its deadline */
	bool launched;
};

/*
 * Runs a receiver (@rx, may be NULL) and a sender (@tx, may be NULL) together until both
 * returned; past @deadline_ns (plus a margin) the CPU sets exit itself. A side that does not
 * end even then leaves the probe stuck.
 */
static void run_pair(struct probe *pb, struct pb_rx_args *rx, struct pb_tx_args *tx, uint64_t deadline_ns,
		     struct run_result *r)
{
	uint64_t end = now_ns() + deadline_ns + 2 * NS;
	bool rx_running = false, tx_running = false;

	memset(r, 0, sizeof(*r));
	memset(pb->rx_ctl, 0, sizeof(*pb->rx_ctl));
	memset(pb->tx_ctl, 0, sizeof(*pb->tx_ctl));
	if (end > pb->end_ns)
		end = pb->end_ns;
	if (rx != NULL) {
		rx->rxq = pb->rxq_gpu;
		rx->ctl = pb->rx_ctl_gpu;
		rx->deadline_ns = deadline_ns;
		if (pb_rx_launch(rx) != DOCA_SUCCESS)
			return;
		rx_running = true;
	}
	if (tx != NULL) {
		tx->txq = pb->txq_gpu;
		tx->ctl = pb->tx_ctl_gpu;
		tx->pkt_addr = (uint64_t)(uintptr_t)pb->tx_pkt;
		tx->mkey_be = pb->mkey_be;
		tx->deadline_ns = deadline_ns;
		tx->cqe_base = pb->cqe_next;
		memcpy(tx->src_mac, pb->src_mac, 6);
		if (pb_tx_launch(tx) != DOCA_SUCCESS) {
			if (!stop_side(pb->rx_ctl, now_ns() + 2 * NS))
				pb->stuck = true;
			else
				(void)pb_rx_wait();
			return;
		}
		tx_running = true;
	}
	r->launched = true;
	while ((rx_running && load32(&pb->rx_ctl->done) == 0) || (tx_running && load32(&pb->tx_ctl->done) == 0)) {
		/* A receiver that only counts (frame_size 0) runs as long as the sender. */
		if (tx_running && rx_running && rx->frame_size == 0 && load32(&pb->tx_ctl->done) != 0)
			break;
		if (now_ns() > end) {
			r->host_watchdog = true;
			break;
		}
		usleep(1000);
	}
	if (tx_running && !stop_side(pb->tx_ctl, now_ns() + 2 * NS))
		pb->stuck = true;
	if (rx_running && !stop_side(pb->rx_ctl, now_ns() + 2 * NS))
		pb->stuck = true;
	if (pb->stuck) {
		DOCA_LOG_ERR("a kernel did not end within 2 s of exit: the probe stops here");
		return;
	}
	if (tx_running) {
		pb->cqe_next += load64(&pb->tx_ctl->rounds);
		(void)pb_tx_wait();
	}
	if (rx_running)
		(void)pb_rx_wait();
}

static uint64_t budget(const struct probe *pb, uint64_t want)
{
	uint64_t t = now_ns(), left = pb->end_ns > t + 3 * NS ? pb->end_ns - t - 3 * NS : NS;

	return want < left ? want : left;
}

/* 1. The device's attributes and clock. */
static bool check_device(struct probe *pb)
{
	struct pb_dev_info d = {0};
	doca_error_t ret = pb_device_info(pb->cfg.dev.gpu, &d);
	bool ok = ret == DOCA_SUCCESS;

	out("\"device\": {\"ok\": %s, \"compute_capability\": \"%d.%d\", \"sm_count\": %d, \"clock_khz\": %d, "
	    "\"can_map_host_memory\": %d, \"concurrent_managed_access\": %d, \"pageable_memory_access\": %d, "
	    "\"host_native_atomics\": %d, \"timer_step_ns\": %llu",
	    ok ? "true" : "false", d.cc_major, d.cc_minor, d.sm_count, d.clock_khz, d.can_map_host,
	    d.concurrent_managed, d.pageable_access, d.host_native_atomics, (unsigned long long)d.timer_step_ns);
	if (d.skipped != NULL)
		out(", \"skipped\": \"%s\"", d.skipped);
	out("}");
	return ok;
}

/* The receiver's counts as JSON members. */
static void out_rx(const struct pb_ctl *c)
{
	out("\"received\": %llu, \"mismatched_bytes\": %llu, \"bad_frames\": %llu, \"rx_errors\": %llu, "
	    "\"rx_timed_out\": %s",
	    (unsigned long long)load64(&c->packets), (unsigned long long)load64(&c->mismatches),
	    (unsigned long long)load64(&c->bad_frames), (unsigned long long)load64(&c->errors),
	    load32(&c->timed_out) ? "true" : "false");
}

static bool rx_clean(const struct pb_ctl *c, uint64_t expect)
{
	return load64(&c->packets) == expect && load64(&c->mismatches) == 0 && load64(&c->bad_frames) == 0 &&
	       load64(&c->errors) == 0 && load32(&c->timed_out) == 0;
}

/* 2. Every byte of -c frames received into GPU-only memory. */
static bool check_stale_bytes(struct probe *pb)
{
	struct pb_rx_args rx = {
	    .expect = pb->cfg.frames, .frame_size = FRAME_SIZE, .scope = PB_SCOPE_THREAD, .lanes = 1};
	struct pb_tx_args tx = {.count = pb->cfg.frames,
				.rx_packets = &pb->rx_ctl_gpu->packets,
				.window = WINDOW,
				.frame_size = FRAME_SIZE,
				.round = 128,
				.scope = PB_SCOPE_THREAD,
				.lanes = 1};
	struct run_result r;
	uint64_t t0 = now_ns();
	bool ok;

	run_pair(pb, &rx, &tx, budget(pb, 60 * NS), &r);
	ok = r.launched && !pb->stuck && !r.host_watchdog && rx_clean(pb->rx_ctl, pb->cfg.frames);
	out("\"stale_bytes\": {\"ok\": %s, \"frames\": %u, \"frame_size\": %u, \"checked_bytes_per_frame\": %u, ",
	    ok ? "true" : "false", pb->cfg.frames, FRAME_SIZE, FRAME_SIZE - PB_SEQ_OFF);
	out_rx(pb->rx_ctl);
	out(", \"sent\": %llu, \"tx_errors\": %llu, \"seconds\": %.3f}",
	    (unsigned long long)load64(&pb->tx_ctl->packets), (unsigned long long)load64(&pb->tx_ctl->errors),
	    (double)(now_ns() - t0) / 1e9);
	return ok;
}

/* 3. DMA between GPU-only buffers: at each completion its bytes are there. */
struct dma_state {
	uint8_t *src_gpu, *dst_gpu;
	uint8_t *expect, *seen;
	uint32_t done, early, failed, read_errors;
};

static void dma_ok(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data cud)
{
	struct dma_state *s = cud.ptr;
	uint64_t i = ud.u64;

	if (pb_gpu_read(s->seen, s->dst_gpu + i * DMA_CHUNK, DMA_CHUNK) != DOCA_SUCCESS)
		s->read_errors++;
	else if (memcmp(s->seen, s->expect + i * DMA_CHUNK, DMA_CHUNK) != 0)
		s->early++;
	s->done++;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static void dma_err(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data cud)
{
	struct dma_state *s = cud.ptr;

	(void)ud;
	s->failed++;
	s->done++;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static bool check_d2d_early(struct probe *pb)
{
	struct dma_state s = {0};
	struct doca_buf_inventory *inv = NULL;
	struct doca_mmap *ms = NULL, *md = NULL;
	struct doca_dma *dma = NULL;
	struct doca_pe *pe = NULL;
	size_t len = (size_t)DMA_TASKS * DMA_CHUNK;
	uint32_t submitted = 0;
	uint64_t end = now_ns() + budget(pb, 20 * NS);
	bool started = false, ok = false, timed_out = false;
	doca_error_t ret;

	ret = doca_dma_cap_task_memcpy_is_supported(doca_dev_as_devinfo(pb->rx_dev));
	if (ret != DOCA_SUCCESS) {
		out("\"d2d_early\": {\"ok\": false, \"error\": \"%s has no DMA memcpy: %s\"}", pb->cfg.dev.nic,
		    doca_error_get_descr(ret));
		return false;
	}
	s.expect = malloc(len);
	s.seen = malloc(DMA_CHUNK);
	ret = s.expect != NULL && s.seen != NULL ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;
	if (ret == DOCA_SUCCESS) {
		for (size_t k = 0; k < len; k++)
			s.expect[k] = pb_pattern((uint32_t)(k / 4096), (uint32_t)k);
		ret = doca_gpu_mem_alloc(pb->gpu, len, GPU_PAGE, DOCA_GPU_MEM_TYPE_GPU, (void **)&s.src_gpu, NULL);
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(pb->gpu, len, GPU_PAGE, DOCA_GPU_MEM_TYPE_GPU, (void **)&s.dst_gpu, NULL);
	if (ret == DOCA_SUCCESS)
		ret = pb_gpu_write(s.src_gpu, s.expect, len);
	if (ret == DOCA_SUCCESS) {
		memset(s.seen, 0, DMA_CHUNK);
		for (uint32_t i = 0; i < DMA_TASKS && ret == DOCA_SUCCESS; i++)
			ret = pb_gpu_write(s.dst_gpu + (size_t)i * DMA_CHUNK, s.seen, DMA_CHUNK);
	}
	if (ret == DOCA_SUCCESS)
		ret = eth_example_gpu_mmap(pb->rx_dev, s.src_gpu, len, &ms);
	if (ret == DOCA_SUCCESS)
		ret = eth_example_gpu_mmap(pb->rx_dev, s.dst_gpu, len, &md);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(2 * DMA_TASKS, &inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_create(pb->rx_dev, &dma);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_task_memcpy_set_conf(dma, dma_ok, dma_err, DMA_TASKS);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(doca_dma_as_ctx(dma), (union doca_data){.ptr = &s});
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma));
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_dma_as_ctx(dma));
	started = ret == DOCA_SUCCESS;
	for (uint32_t i = 0; ret == DOCA_SUCCESS && i < DMA_TASKS; i++) {
		struct doca_buf *bs = NULL, *bd = NULL;
		struct doca_dma_task_memcpy *t = NULL;

		ret = doca_buf_inventory_buf_get_by_data(inv, ms, s.src_gpu + (size_t)i * DMA_CHUNK, DMA_CHUNK, &bs);
		if (ret == DOCA_SUCCESS)
			ret = doca_buf_inventory_buf_get_by_addr(inv, md, s.dst_gpu + (size_t)i * DMA_CHUNK, DMA_CHUNK,
								 &bd);
		if (ret == DOCA_SUCCESS)
			ret = doca_dma_task_memcpy_alloc_init(dma, bs, bd, (union doca_data){.u64 = i}, &t);
		if (ret == DOCA_SUCCESS) {
			ret = doca_task_submit(doca_dma_task_memcpy_as_task(t));
			if (ret != DOCA_SUCCESS)
				doca_task_free(doca_dma_task_memcpy_as_task(t));
		}
		/* The task holds its own references. */
		if (bs != NULL)
			(void)doca_buf_dec_refcount(bs, NULL);
		if (bd != NULL)
			(void)doca_buf_dec_refcount(bd, NULL);
		if (ret == DOCA_SUCCESS)
			submitted++;
	}
	while (started && s.done < submitted) {
		if (now_ns() > end) {
			timed_out = true;
			break;
		}
		(void)doca_pe_progress(pe);
	}
	ok = ret == DOCA_SUCCESS && !timed_out && s.done == DMA_TASKS && s.early == 0 && s.failed == 0 &&
	     s.read_errors == 0;
	out("\"d2d_early\": {\"ok\": %s, \"tasks\": %u, \"bytes_per_task\": %u, \"completed\": %u, \"early\": %u, "
	    "\"failed\": %u, \"read_errors\": %u, \"timed_out\": %s",
	    ok ? "true" : "false", DMA_TASKS, DMA_CHUNK, s.done, s.early, s.failed, s.read_errors,
	    timed_out ? "true" : "false");
	if (ret != DOCA_SUCCESS)
		out(", \"error\": \"%s\"", doca_error_get_descr(ret));
	out("}");
	if (timed_out) {
		pb->stuck = true; /* tasks still in flight: their memory stays */
		return false;
	}
	if (dma != NULL) {
		if (started)
			(void)eth_example_stop(pe, doca_dma_as_ctx(dma), DOCA_SUCCESS);
		(void)doca_dma_destroy(dma);
	}
	eth_example_release(pe, inv, NULL);
	if (ms != NULL) {
		(void)doca_mmap_stop(ms);
		(void)doca_mmap_destroy(ms);
	}
	if (md != NULL) {
		(void)doca_mmap_stop(md);
		(void)doca_mmap_destroy(md);
	}
	if (s.src_gpu != NULL)
		(void)doca_gpu_mem_free(pb->gpu, s.src_gpu);
	if (s.dst_gpu != NULL)
		(void)doca_gpu_mem_free(pb->gpu, s.dst_gpu);
	free(s.expect);
	free(s.seen);
	return ok;
}

/* 4. A persistent receiver on the legacy default stream while another kernel sends. */
static bool check_blocking_stream(struct probe *pb)
{
	const uint32_t k = 4096;
	struct pb_rx_args rx = {
	    .expect = k, .frame_size = FRAME_SIZE, .scope = PB_SCOPE_THREAD, .lanes = 1, .legacy_stream = 1};
	struct pb_tx_args tx = {.count = k,
				.rx_packets = &pb->rx_ctl_gpu->packets,
				.window = WINDOW,
				.frame_size = FRAME_SIZE,
				.round = 128,
				.scope = PB_SCOPE_THREAD,
				.lanes = 1};
	struct run_result r;
	bool ok;

	run_pair(pb, &rx, &tx, budget(pb, 20 * NS), &r);
	ok = r.launched && !pb->stuck && !r.host_watchdog && rx_clean(pb->rx_ctl, k);
	out("\"blocking_stream\": {\"ok\": %s, \"expected\": %u, \"host_watchdog\": %s, ", ok ? "true" : "false", k,
	    r.host_watchdog ? "true" : "false");
	out_rx(pb->rx_ctl);
	out("}");
	return ok;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* 5. WARP (a partial warp) and BLOCK scope, sending and receiving. */
static bool check_warp_block(struct probe *pb)
{
	static const struct {
		const char *name;
		enum pb_scope scope;
		uint32_t lanes, round;
	} runs[] = {{"warp20", PB_SCOPE_WARP, 20, 120}, {"block128", PB_SCOPE_BLOCK, 128, 128}};
	bool all = true;

	out("\"warp_block\": {");
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		uint64_t n = WB_FRAMES / runs[i].round * runs[i].round, dup = 0;
		struct pb_rx_args rx = {
		    .expect = n, .frame_size = FRAME_SIZE, .scope = runs[i].scope, .lanes = runs[i].lanes};
		struct pb_tx_args tx = {.count = n,
					.rx_packets = &pb->rx_ctl_gpu->packets,
					.tickets = pb->tickets_gpu,
					.window = WINDOW,
					.frame_size = FRAME_SIZE,
					.round = runs[i].round,
					.scope = runs[i].scope,
					.lanes = runs[i].lanes};
		struct run_result r;
		bool ok;

		memset(pb->tickets, 0xff, (size_t)WB_FRAMES * sizeof(uint64_t));
		if (!pb->stuck)
			run_pair(pb, &rx, &tx, budget(pb, 20 * NS), &r);
		else
			memset(&r, 0, sizeof(r));
		if (!pb->stuck) {
			qsort(pb->tickets, n, sizeof(uint64_t), cmp_u64);
			for (uint64_t j = 0; j < n; j++)
				dup += pb->tickets[j] == UINT64_MAX || (j > 0 && pb->tickets[j] == pb->tickets[j - 1]);
		}
		ok = r.launched && !pb->stuck && !r.host_watchdog && rx_clean(pb->rx_ctl, n) &&
		     load64(&pb->tx_ctl->packets) == n && load64(&pb->tx_ctl->errors) == 0 && dup == 0;
		all = all && ok;
		out("\"%s\": {\"ok\": %s, \"lanes\": %u, \"sent\": %llu, \"tx_errors\": %llu, "
		    "\"duplicate_or_missing_tickets\": %llu, \"host_watchdog\": %s, ",
		    runs[i].name, ok ? "true" : "false", runs[i].lanes,
		    (unsigned long long)load64(&pb->tx_ctl->packets), (unsigned long long)load64(&pb->tx_ctl->errors),
		    (unsigned long long)dup, r.host_watchdog ? "true" : "false");
		out_rx(pb->rx_ctl);
		out("}, ");
	}
	out("\"ok\": %s", all ? "true" : "false");
	if (strcmp(pb_kind(), "CUDA kernel") != 0)
		out(", \"note\": \"CPU threads send and receive in THREAD scope (WARP and BLOCK need CUDA)\"");
	out("}");
	return all;
}

/* 6. Rising send rates from a kernel: the first step that falls below 90% of the asked rate. */
static bool check_send_ceiling(struct probe *pb)
{
	static const uint64_t rates[] = {10000, 50000, 100000, 200000, 500000, 1000000};
	const uint32_t nr = sizeof(rates) / sizeof(rates[0]);
	struct pb_rx_args rx = {.expect = UINT64_MAX, .frame_size = 0, .scope = PB_SCOPE_THREAD, .lanes = 1};
	struct pb_tx_args tx = {.step_ns = STEP_NS,
				.nrates = nr,
				.frame_size = FRAME_SIZE,
				.round = 128,
				.scope = PB_SCOPE_THREAD,
				.lanes = 1};
	struct run_result r;
	int first_below = -1;
	bool ok;

	memcpy(tx.rates, rates, sizeof(rates));
	/* A receiver that only counts keeps the wire drained; what it sees is not judged. */
	run_pair(pb, &rx, &tx, budget(pb, (uint64_t)nr * 3 * STEP_NS + 5 * NS), &r);
	ok = r.launched && !pb->stuck && !r.host_watchdog && load64(&pb->tx_ctl->errors) == 0;
	out("\"send_ceiling\": {\"ok\": %s, \"frame_size\": %u, \"steps\": [", ok ? "true" : "false", FRAME_SIZE);
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t f = load64(&pb->tx_ctl->step_frames[i]), t = load64(&pb->tx_ctl->step_ns[i]);
		double pps = t != 0 ? (double)f * 1e9 / (double)t : 0.0;

		if (first_below < 0 && pps < 0.9 * (double)rates[i])
			first_below = (int)i;
		out("%s{\"asked_pps\": %llu, \"achieved_pps\": %.0f, \"frames\": %llu, \"seconds\": %.3f}",
		    i ? ", " : "", (unsigned long long)rates[i], pps, (unsigned long long)f, (double)t / 1e9);
	}
	out("], \"ceiling_asked_pps\": ");
	if (first_below >= 0)
		out("%llu", (unsigned long long)rates[first_below]);
	else
		out("null");
	out(", \"completed\": %llu, \"tx_errors\": %llu, \"received\": %llu, \"host_watchdog\": %s}",
	    (unsigned long long)load64(&pb->tx_ctl->packets), (unsigned long long)load64(&pb->tx_ctl->errors),
	    (unsigned long long)load64(&pb->rx_ctl->packets), r.host_watchdog ? "true" : "false");
	return ok;
}

static void teardown(struct probe *pb)
{
	eth_example_flow_stop(&pb->flow);
	if (pb->rxq != NULL) {
		if (pb->rxq_started)
			(void)doca_ctx_stop(doca_eth_rxq_as_doca_ctx(pb->rxq));
		(void)doca_eth_rxq_destroy(pb->rxq);
	}
	if (pb->txq != NULL) {
		if (pb->txq_started)
			(void)doca_ctx_stop(doca_eth_txq_as_doca_ctx(pb->txq));
		(void)doca_eth_txq_destroy(pb->txq);
	}
	if (pb->rx_mmap != NULL) {
		(void)doca_mmap_stop(pb->rx_mmap);
		(void)doca_mmap_destroy(pb->rx_mmap);
	}
	if (pb->tx_mmap != NULL) {
		(void)doca_mmap_stop(pb->tx_mmap);
		(void)doca_mmap_destroy(pb->tx_mmap);
	}
	if (pb->rx_ctl_gpu != NULL)
		(void)doca_gpu_mem_free(pb->gpu, pb->rx_ctl_gpu);
	if (pb->tx_ctl_gpu != NULL)
		(void)doca_gpu_mem_free(pb->gpu, pb->tx_ctl_gpu);
	if (pb->tickets_gpu != NULL)
		(void)doca_gpu_mem_free(pb->gpu, pb->tickets_gpu);
	if (pb->rx_pkt != NULL)
		(void)doca_gpu_mem_free(pb->gpu, pb->rx_pkt);
	if (pb->tx_pkt != NULL)
		(void)doca_gpu_mem_free(pb->gpu, pb->tx_pkt);
	if (pb->rx_dev != NULL)
		(void)doca_dev_close(pb->rx_dev);
	if (pb->tx_dev != NULL)
		(void)doca_dev_close(pb->tx_dev);
	if (pb->gpu != NULL)
		(void)doca_gpu_destroy(pb->gpu);
}

int main(int argc, char **argv)
{
	static struct probe pb = {
	    .cfg = {.dev.nic = NIC_DEFAULT, .peer = PEER_DEFAULT, .seconds = 120, .frames = 20000}};
	bool ok = true;
	doca_error_t ret;

	if (begin(argc, argv, &pb.cfg) != DOCA_SUCCESS)
		return EXIT_USAGE;
	pb.end_ns = now_ns() + (uint64_t)pb.cfg.seconds * NS;
	signal(SIGALRM, on_alarm);
	alarm(pb.cfg.seconds + 5);
	out("probe {\"kind\": \"%s\", \"gpu\": \"%s\", \"nic\": \"%s\", \"peer\": \"%s\", ", pb_kind(), pb.cfg.dev.gpu,
	    pb.cfg.dev.nic, pb.cfg.peer);
	ret = doca_gpu_create(pb.cfg.dev.gpu, &pb.gpu);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR(
		    "cannot open the GPU %s: %s (doca-env lists the GPUs CUDA sees, or says why there are none)",
		    pb.cfg.dev.gpu, doca_error_get_descr(ret));
		out("\"ok\": false, \"skipped\": \"no GPU %s: %s\"}", pb.cfg.dev.gpu, doca_error_get_descr(ret));
		printf("%s\n", json);
		doca_argp_destroy();
		return EXIT_SKIP;
	}
	ret = setup(&pb);
	if (ret != DOCA_SUCCESS) {
		out("\"ok\": false, \"error\": \"set-up: %s\"}", doca_error_get_descr(ret));
		printf("%s\n", json);
		teardown(&pb);
		doca_argp_destroy();
		return EXIT_FAILURE;
	}
	DOCA_LOG_DBG("probing GPU %s with %s: receive on %s, send on %s", pb.cfg.dev.gpu, pb_kind(), pb.cfg.dev.nic,
		     pb.cfg.peer);
	ok = check_device(&pb) && ok;
	out(", ");
	ok = check_stale_bytes(&pb) && ok;
	out(", ");
	if (!pb.stuck)
		ok = check_d2d_early(&pb) && ok;
	else
		out("\"d2d_early\": {\"ok\": false, \"skipped\": \"an earlier kernel did not end\"}");
	out(", ");
	if (!pb.stuck)
		ok = check_blocking_stream(&pb) && ok;
	else
		out("\"blocking_stream\": {\"ok\": false, \"skipped\": \"an earlier kernel did not end\"}");
	out(", ");
	if (!pb.stuck)
		ok = check_warp_block(&pb) && ok;
	else
		out("\"warp_block\": {\"ok\": false, \"skipped\": \"an earlier kernel did not end\"}");
	out(", ");
	if (!pb.stuck)
		ok = check_send_ceiling(&pb) && ok;
	else
		out("\"send_ceiling\": {\"ok\": false, \"skipped\": \"an earlier kernel did not end\"}");
	out(", \"ok\": %s}", ok ? "true" : "false");
	alarm(0);
	printf("%s\n", json);
	fflush(stdout);
	if (pb.stuck) {
		/* A kernel may still touch the queues and their memory: leave them to the exit. */
		doca_argp_destroy();
		return EXIT_FAILURE;
	}
	teardown(&pb);
	doca_argp_destroy();
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
