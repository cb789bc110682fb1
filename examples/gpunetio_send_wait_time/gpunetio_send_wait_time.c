/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_send_wait_time - a kernel sends bursts of frames at fixed times with wait-on-time,
 * in the shape of DOCA's gpunetio_send_wait_time sample:
 *
 *   doca_gpu_create(-g) ── doca_dev of -n ── wait-on-time NATIVE? ── doca_eth_txq (8192),
 *   L3/L4 checksum offloads, completions on the GPU, wait-on-time ── datapath on the GPU ──
 *   start ── apply_queue_id(0) ── doca_eth_txq_get_gpu_handle ── packet memory (GPU), mmap
 *   slot k's time: first + k x interval (first = now + 50 ms, UTC), converted with
 *   doca_eth_txq_calculate_timestamp into GPU-visible memory
 *   kernel: a block of -b threads, burst k = one doca_gpu_dev_eth_txq_wait_send per thread
 *   behind slot k's time, NOTIFY on the last; a completion poll per burst
 *
 *   gpunetio_send_wait_time -g <GPU PCI address> [-n 03:00.0] [-c frames] [-b frames per burst]
 *                           [-i interval in us] [-s bytes]
 *
 * Frames are gpunetio_simple_send's (frame j carries j as softdoca-wire recv's "seq"). No frame
 * of burst k leaves the NIC before first + k x interval. At the end it prints one line
 * "stats {json}" with the frames sent and the schedule ("first_ns": slot 0's UTC time,
 * "interval_ns", "burst"). Exit status 0 when every frame was sent; 1 otherwise. Built twice:
 * with the CUDA kernel (only where meson finds nvcc) and, for the tests' fake CUDA runtime, with
 * a CPU thread in its place.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <doca_argp.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_gpu_data_path.h>
#include <doca_gpunetio.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "../eth_examples.h"
#include "example_args.h"
#include "gpunetio_send_wait_time.h"

DOCA_LOG_REGISTER(GPUNETIO_SEND_WAIT_TIME);

#define NIC_DEFAULT   "03:00.0"
#define TX_NWQE	      8192u
#define GPU_PAGE      65536u
#define START_AHEAD   50000000u /* ns from now to slot 0 */
#define MAX_FRAMES    10000000
#define DONE_WAIT_SEC 10

struct cfg {
	struct example_gpu_nic dev; /* first: example_nic_cb and example_gpu_cb fill it */
	uint32_t size;
	uint32_t burst;
	uint32_t interval_us;
	uint64_t packets;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	(void)sig;
	stop_signal = 1;
}

/* An int option within @lo..@hi, or one line naming it and its range. */
static doca_error_t in_range(const char *what, int v, int lo, int hi, uint32_t *to)
{
	if (v < lo || v > hi) {
		DOCA_LOG_ERR("%s %d is outside %d..%d", what, v, lo, hi);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*to = (uint32_t)v;
	return DOCA_SUCCESS;
}

static doca_error_t size_cb(void *param, void *config)
{
	return in_range("frame size", *(int *)param, SS_MIN_SIZE, SS_MAX_SIZE, &((struct cfg *)config)->size);
}

static doca_error_t burst_cb(void *param, void *config)
{
	return in_range("burst", *(int *)param, 1, SW_MAX_BURST, &((struct cfg *)config)->burst);
}

static doca_error_t interval_cb(void *param, void *config)
{
	return in_range("interval (us)", *(int *)param, 1, 1000000, &((struct cfg *)config)->interval_us);
}

static doca_error_t packets_cb(void *param, void *config)
{
	uint32_t v = 0;
	doca_error_t ret = in_range("frames", *(int *)param, 1, MAX_FRAMES, &v);

	((struct cfg *)config)->packets = v;
	return ret;
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
		ret = example_param("n", "nic", "NIC PCI address (default " NIC_DEFAULT ")", DOCA_ARGP_TYPE_STRING,
				    example_nic_cb, false);
	if (ret == DOCA_SUCCESS)
		ret =
		    example_param("c", "count", "frames to send (default 256)", DOCA_ARGP_TYPE_INT, packets_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("b", "burst", "frames per time slot, 1..256 (default 32)", DOCA_ARGP_TYPE_INT,
				    burst_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("i", "interval", "microseconds between time slots (default 500)",
				    DOCA_ARGP_TYPE_INT, interval_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("s", "size", "frame size in bytes, 64..1514 (default 1024)", DOCA_ARGP_TYPE_INT,
				    size_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	if (ret != DOCA_SUCCESS)
		doca_argp_destroy();
	return ret;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t utc_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Until the sender is done or a signal (then exit), bounded by the schedule plus DONE_WAIT_SEC. */
static doca_error_t wait_sender(struct sw_stats *st, uint64_t schedule_ns)
{
	uint64_t end = mono_ns() + schedule_ns + (uint64_t)DONE_WAIT_SEC * 1000000000u;

	while (__atomic_load_n(&st->done, __ATOMIC_ACQUIRE) == 0) {
		if (stop_signal)
			__atomic_store_n(&st->exit, 1, __ATOMIC_RELEASE);
		if (mono_ns() > end) {
			DOCA_LOG_ERR("the sender did not end within %d s of its schedule", DONE_WAIT_SEC);
			return DOCA_ERROR_TIME_OUT;
		}
		usleep(1000);
	}
	return sw_sender_wait();
}

/* The device at @pci, if its send queues honour wait-on-time. */
static doca_error_t open_nic(const char *pci, struct doca_dev **dev)
{
	enum doca_eth_wait_on_time_type mode = DOCA_ETH_WAIT_ON_TIME_TYPE_NONE;
	doca_error_t ret = eth_example_open_device(pci, dev);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_eth_txq_cap_get_wait_on_time_offload_supported(doca_dev_as_devinfo(*dev), &mode);
	if (ret == DOCA_SUCCESS && mode != DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE) {
		DOCA_LOG_ERR("device %s has no native wait-on-time (mode %d)", pci, (int)mode);
		ret = DOCA_ERROR_NOT_SUPPORTED;
	}
	return ret;
}

static doca_error_t make_txq(struct doca_dev *dev, struct doca_gpu *gpu, struct doca_eth_txq **txq)
{
	doca_error_t ret = doca_eth_txq_create(dev, TX_NWQE, txq);

	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_l3_chksum_offload(*txq, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_l4_chksum_offload(*txq, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_gpu_set_completion_on_gpu(*txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(*txq), gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_wait_on_time_offload(*txq);
	return ret;
}

int main(int argc, char **argv)
{
	struct cfg cfg = {.dev.nic = NIC_DEFAULT, .size = 1024, .burst = 32, .interval_us = 500, .packets = 256};
	struct sw_params prm = {.frame.dst_mac = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	struct doca_gpu_eth_txq *txq_gpu = NULL;
	struct doca_eth_txq *txq = NULL;
	struct sw_stats *st_gpu = NULL, *st = NULL;
	uint64_t *times_gpu = NULL, *times = NULL, first = 0, interval_ns, nslots;
	struct doca_mmap *mmap = NULL;
	struct doca_gpu *gpu = NULL;
	struct doca_dev *dev = NULL;
	void *pkt_gpu = NULL;
	bool running = false, started_ctx = false;
	size_t len = ((size_t)2 * SW_MAX_BURST * SS_MAX_SIZE + GPU_PAGE - 1) / GPU_PAGE * GPU_PAGE;
	uint32_t mkey = 0;
	doca_error_t ret;

	if (begin(argc, argv, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	interval_ns = (uint64_t)cfg.interval_us * 1000u;
	nslots = (cfg.packets + cfg.burst - 1) / cfg.burst;
	ret = doca_gpu_create(cfg.dev.gpu, &gpu);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR(
		    "cannot open the GPU %s: %s (doca-env lists the GPUs CUDA sees, or says why there are none)",
		    cfg.dev.gpu, doca_error_get_descr(ret));
		goto out;
	}
	ret = open_nic(cfg.dev.nic, &dev);
	if (ret != DOCA_SUCCESS)
		goto out;
	ret = make_txq(dev, gpu, &txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_eth_txq_as_doca_ctx(txq));
	if (ret == DOCA_SUCCESS) {
		started_ctx = true;
		ret = doca_eth_txq_apply_queue_id(txq, 0);
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_get_gpu_handle(txq, &txq_gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(gpu, len, GPU_PAGE, DOCA_GPU_MEM_TYPE_GPU, &pkt_gpu, NULL);
	if (ret == DOCA_SUCCESS)
		ret = eth_example_gpu_mmap(dev, pkt_gpu, len, &mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_get_mkey(mmap, dev, &mkey);
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(gpu, nslots * sizeof(uint64_t), 0, DOCA_GPU_MEM_TYPE_CPU_GPU,
					 (void **)&times_gpu, (void **)&times);
	if (ret == DOCA_SUCCESS)
		ret =
		    doca_gpu_mem_alloc(gpu, sizeof(*st), 0, DOCA_GPU_MEM_TYPE_CPU_GPU, (void **)&st_gpu, (void **)&st);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot set up the GPU send queue: %s", doca_error_get_descr(ret));
		goto out;
	}
	memset(st, 0, sizeof(*st));
	first = utc_ns() + START_AHEAD;
	for (uint64_t k = 0; k < nslots; k++) {
		ret = doca_eth_txq_calculate_timestamp(txq, first + k * interval_ns, &times[k]);
		if (ret != DOCA_SUCCESS) {
			DOCA_LOG_ERR("doca_eth_txq_calculate_timestamp of slot %lu: %s", (unsigned long)k,
				     doca_error_get_descr(ret));
			goto out;
		}
	}
	prm.frame.pkt_addr = (uint64_t)(uintptr_t)pkt_gpu;
	prm.frame.mkey_be = htonl(mkey);
	prm.frame.size = cfg.size;
	prm.count = cfg.packets;
	prm.burst = cfg.burst;
	prm.times = times_gpu;
	eth_example_src_mac(dev, prm.frame.src_mac);
	ret = sw_sender_launch(txq_gpu, &prm, st_gpu);
	if (ret != DOCA_SUCCESS)
		goto out;
	running = true;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("sending on %s from GPU %s: %lu %u-byte frames in bursts of %u every %u us, %s\n", cfg.dev.nic,
	       cfg.dev.gpu, (unsigned long)cfg.packets, cfg.size, cfg.burst, cfg.interval_us, sw_sender_kind());
	fflush(stdout);
	ret = wait_sender(st, START_AHEAD + nslots * interval_ns);
	running = ret != DOCA_SUCCESS;
	{
		uint64_t pk = load(&st->packets), errs = load(&st->errors);

		printf("stats {\"packets\": %lu, \"bytes\": %lu, \"errors\": %lu, \"first_ns\": %lu, "
		       "\"interval_ns\": %lu, \"burst\": %u}\n",
		       (unsigned long)pk, (unsigned long)load(&st->bytes), (unsigned long)errs, (unsigned long)first,
		       (unsigned long)interval_ns, cfg.burst);
		fflush(stdout);
		if (ret == DOCA_SUCCESS && errs != 0) {
			DOCA_LOG_ERR("%lu bursts reported a failed send", (unsigned long)errs);
			ret = DOCA_ERROR_IO_FAILED;
		}
		if (ret == DOCA_SUCCESS && pk < cfg.packets) {
			DOCA_LOG_ERR("%lu of %lu frames sent", (unsigned long)pk, (unsigned long)cfg.packets);
			ret = DOCA_ERROR_TIME_OUT;
		}
	}
out:
	if (running) {
		doca_argp_destroy();
		return EXIT_FAILURE;
	}
	if (txq != NULL) {
		if (started_ctx)
			(void)doca_ctx_stop(doca_eth_txq_as_doca_ctx(txq));
		(void)doca_eth_txq_destroy(txq);
	}
	if (mmap != NULL) {
		(void)doca_mmap_stop(mmap);
		(void)doca_mmap_destroy(mmap);
	}
	if (st_gpu != NULL)
		(void)doca_gpu_mem_free(gpu, st_gpu);
	if (times_gpu != NULL)
		(void)doca_gpu_mem_free(gpu, times_gpu);
	if (pkt_gpu != NULL)
		(void)doca_gpu_mem_free(gpu, pkt_gpu);
	if (dev != NULL)
		(void)doca_dev_close(dev);
	if (gpu != NULL)
		(void)doca_gpu_destroy(gpu);
	doca_argp_destroy();
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("gpunetio_send_wait_time failed: %s", doca_error_get_descr(ret));
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
