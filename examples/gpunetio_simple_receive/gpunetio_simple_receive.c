/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_receive - receive Ethernet frames straight into GPU memory and count them in
 * a persistent kernel, in the shape of DOCA's gpunetio_simple_receive sample:
 *
 *   doca_gpu_create(-g) ── doca_dev of -n ── GPU memory for the packets (-m) ── doca_mmap
 *   doca_eth_rxq CYCLIC, datapath on the GPU ── start ── apply_queue_id(0)
 *   DOCA Flow root pipe: every frame of the port to queue 0 ── doca_eth_rxq_get_gpu_handle
 *   kernel: doca_gpu_dev_eth_rxq_recv in a loop, counts packets, bytes, UDP packets, errors
 *   CPU: prints the counts every second; stops after -t seconds, -c packets or SIGINT / SIGTERM
 *
 *   gpunetio_simple_receive -g <GPU PCI address> [-n 03:00.0] [-e 0|1|2] [-m gpu|cpu_gpu]
 *                           [-t seconds] [-c packets]
 *
 * It prints "receiving on <nic> ..." once frames sent from then on are received, and at the end
 * one line "stats {json}" on stdout. Exit status 0 when the receiver saw no error and, with -c,
 * at least that many packets arrived; 1 otherwise. The device needs Ethernet (eth.supported in
 * its profile) and a port medium; the default topology cables 03:00.0 to 03:00.1, so
 * `softdoca-wire send -p 03:00.1 -n 1000` feeds it. Built twice: with the CUDA kernel (only
 * where meson finds nvcc) and, for the tests' fake CUDA runtime, with a CPU thread in its place.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_gpu_data_path.h>
#include <doca_gpunetio.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "../eth_examples.h"
#include "example_args.h"
#include "gpunetio_simple_receive.h"

DOCA_LOG_REGISTER(GPUNETIO_SIMPLE_RECEIVE);

#define NIC_DEFAULT   "03:00.0"
#define RX_SLOTS      8192u
#define RX_PKT_SIZE   2048u
#define GPU_PAGE      65536u
#define POLL_US	      5000
#define DONE_WAIT_SEC 5

struct cfg {
	struct example_gpu_nic dev; /* first: example_nic_cb and example_gpu_cb fill it */
	enum sr_scope scope;
	enum doca_gpu_mem_type mem;
	uint32_t seconds; /* 0: no limit */
	uint64_t packets; /* 0: no limit */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	(void)sig;
	stop_signal = 1;
}

static doca_error_t scope_cb(void *param, void *config)
{
	int v;
	doca_error_t ret = example_scope_arg(param, &v);

	if (ret == DOCA_SUCCESS)
		((struct cfg *)config)->scope = (enum sr_scope)v;
	return ret;
}

static doca_error_t mem_cb(void *param, void *config)
{
	return example_mem_arg(param, &((struct cfg *)config)->mem);
}

static doca_error_t seconds_cb(void *param, void *config)
{
	int v = *(int *)param;

	if (v < 0 || v > 86400) {
		DOCA_LOG_ERR("seconds %d is outside 0..86400 (0: no limit)", v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct cfg *)config)->seconds = (uint32_t)v;
	return DOCA_SUCCESS;
}

static doca_error_t packets_cb(void *param, void *config)
{
	int v = *(int *)param;

	if (v < 0) {
		DOCA_LOG_ERR("packets %d is negative (0: no limit)", v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct cfg *)config)->packets = (uint64_t)v;
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
		ret = example_param("n", "nic", "NIC PCI address (default " NIC_DEFAULT ")", DOCA_ARGP_TYPE_STRING,
				    example_nic_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("e", "exec-scope", "receive scope: 0 thread (default), 1 warp, 2 block",
				    DOCA_ARGP_TYPE_INT, scope_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("m", "memory", "packet memory: gpu (default) or cpu_gpu", DOCA_ARGP_TYPE_STRING,
				    mem_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("t", "time", "stop after this many seconds (default 0: no limit)",
				    DOCA_ARGP_TYPE_INT, seconds_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("c", "count", "stop after this many packets (default 0: no limit)",
				    DOCA_ARGP_TYPE_INT, packets_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	if (ret != DOCA_SUCCESS)
		doca_argp_destroy();
	return ret;
}

/* The device at @pci, if it can have a CYCLIC receive queue on the GPU. */
static doca_error_t open_nic(const char *pci, struct doca_dev **dev)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	doca_error_t ret = doca_devinfo_create_list(&list, &n);

	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot list devices: %s", doca_error_get_descr(ret));
		return ret;
	}
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) != DOCA_SUCCESS || !eq)
			continue;
		ret = doca_eth_rxq_cap_is_type_supported(list[i], DOCA_ETH_RXQ_TYPE_CYCLIC,
							 DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU);
		if (ret != DOCA_SUCCESS)
			DOCA_LOG_ERR("device %s has no CYCLIC receive queues on the GPU: %s (set eth.supported = yes "
				     "in its profile)",
				     pci, doca_error_get_descr(ret));
		else
			ret = doca_dev_open(list[i], dev);
		break;
	}
	if (ret == DOCA_ERROR_NOT_FOUND)
		DOCA_LOG_ERR("no device %s (try doca_caps --list-devs)", pci);
	doca_devinfo_destroy_list(list);
	return ret;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

struct window {
	uint64_t t_first, t_last; /* when the CPU first and last saw the count change */
	uint64_t at_first;	  /* the count at t_first */
};

/* Until -t, -c or a signal; prints the counts every second. */
static void watch(const struct cfg *cfg, struct sr_stats *st, struct window *w)
{
	uint64_t start = now_ns(), next_print = start + 1000000000u, seen = 0;

	memset(w, 0, sizeof(*w));
	while (!stop_signal) {
		uint64_t t = now_ns(), pk = load(&st->packets);

		if (pk != seen) {
			if (seen == 0) {
				w->t_first = t;
				w->at_first = pk;
			}
			w->t_last = t;
			seen = pk;
		}
		if (cfg->packets != 0 && pk >= cfg->packets)
			break;
		if (cfg->seconds != 0 && t - start >= (uint64_t)cfg->seconds * 1000000000u)
			break;
		if (t >= next_print) {
			DOCA_LOG_INFO("received %lu packets, %lu bytes, %lu UDP, %lu errors", (unsigned long)pk,
				      (unsigned long)load(&st->bytes), (unsigned long)load(&st->udp),
				      (unsigned long)load(&st->errors));
			next_print += 1000000000u;
		}
		usleep(POLL_US);
	}
}

/* Sets exit and waits (bounded) until the receiver says it returned. */
static doca_error_t stop_receiver(struct sr_stats *st)
{
	uint64_t end = now_ns() + (uint64_t)DONE_WAIT_SEC * 1000000000u;

	__atomic_store_n(&st->exit, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&st->done, __ATOMIC_ACQUIRE) == 0) {
		if (now_ns() > end) {
			DOCA_LOG_ERR("the receiver did not end within %d s of exit", DONE_WAIT_SEC);
			return DOCA_ERROR_TIME_OUT;
		}
		usleep(1000);
	}
	return sr_receiver_wait();
}

int main(int argc, char **argv)
{
	struct cfg cfg = {.dev.nic = NIC_DEFAULT, .scope = SR_SCOPE_THREAD, .mem = DOCA_GPU_MEM_TYPE_GPU};
	struct eth_example_flow flow = {0};
	struct doca_gpu_eth_rxq *rxq_gpu = NULL;
	struct doca_eth_rxq *rxq = NULL;
	struct sr_stats *st_gpu = NULL, *st = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_gpu *gpu = NULL;
	struct doca_dev *dev = NULL;
	void *pkt_gpu = NULL, *pkt_cpu = NULL;
	uint32_t nslots = RX_SLOTS, pkt_size = RX_PKT_SIZE, cap = 0;
	bool running = false, started_ctx = false;
	struct window w;
	size_t len;
	doca_error_t ret;

	if (begin(argc, argv, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
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
	if (doca_eth_rxq_cap_get_max_packet_size(doca_dev_as_devinfo(dev), &cap) == DOCA_SUCCESS && cap < pkt_size)
		pkt_size = cap;
	if (doca_eth_rxq_cap_get_max_burst_size(doca_dev_as_devinfo(dev), &cap) == DOCA_SUCCESS && cap < nslots)
		nslots = cap;
	ret = doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, pkt_size, nslots, 0, 0, 0, &cap);
	if (ret != DOCA_SUCCESS)
		goto out;
	len = cap;
	ret = doca_gpu_mem_alloc(gpu, len, GPU_PAGE, cfg.mem, &pkt_gpu,
				 cfg.mem == DOCA_GPU_MEM_TYPE_GPU ? NULL : &pkt_cpu);
	if (ret == DOCA_SUCCESS)
		ret = eth_example_gpu_mmap(dev, pkt_gpu, len, &mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_create(dev, nslots, pkt_size, &rxq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_CYCLIC);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_set_pkt_buf(rxq, mmap, 0, (uint32_t)len);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(rxq), gpu);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq));
	if (ret == DOCA_SUCCESS) {
		started_ctx = true;
		ret = doca_eth_rxq_apply_queue_id(rxq, 0);
	}
	if (ret == DOCA_SUCCESS)
		ret = eth_example_flow_start(dev, 0, &flow);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_get_gpu_handle(rxq, &rxq_gpu);
	if (ret == DOCA_SUCCESS)
		ret =
		    doca_gpu_mem_alloc(gpu, sizeof(*st), 0, DOCA_GPU_MEM_TYPE_CPU_GPU, (void **)&st_gpu, (void **)&st);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot set up the GPU receive queue: %s", doca_error_get_descr(ret));
		goto out;
	}
	memset(st, 0, sizeof(*st));
	ret = sr_receiver_launch(rxq_gpu, st_gpu, cfg.scope, pkt_size);
	if (ret != DOCA_SUCCESS)
		goto out;
	running = true;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("receiving on %s into GPU %s: CYCLIC queue of %u slots of %u bytes in %s memory, scope %s, %s\n",
	       cfg.dev.nic, cfg.dev.gpu, nslots, pkt_size, cfg.mem == DOCA_GPU_MEM_TYPE_GPU ? "GPU" : "CPU_GPU",
	       cfg.scope == SR_SCOPE_THREAD ? "thread"
	       : cfg.scope == SR_SCOPE_WARP ? "warp"
					    : "block",
	       sr_receiver_kind());
	fflush(stdout);
	watch(&cfg, st, &w);
	ret = stop_receiver(st);
	running = ret != DOCA_SUCCESS; /* a receiver that did not end still reads the queue */
	{
		uint64_t pk = load(&st->packets), errs = load(&st->errors);
		double secs = w.t_last > w.t_first ? (double)(w.t_last - w.t_first) / 1e9 : 0.0;
		double pps = secs > 0 ? (double)(pk - w.at_first) / secs : 0.0;

		printf("stats {\"packets\": %lu, \"bytes\": %lu, \"udp\": %lu, \"errors\": %lu, \"seconds\": %.3f, "
		       "\"pps\": %.0f}\n",
		       (unsigned long)pk, (unsigned long)load(&st->bytes), (unsigned long)load(&st->udp),
		       (unsigned long)errs, secs, pps);
		fflush(stdout);
		if (ret == DOCA_SUCCESS && errs != 0) {
			DOCA_LOG_ERR("the receiver counted %lu errors", (unsigned long)errs);
			ret = DOCA_ERROR_IO_FAILED;
		}
		if (ret == DOCA_SUCCESS && cfg.packets != 0 && pk < cfg.packets) {
			DOCA_LOG_ERR("%lu of %lu packets arrived", (unsigned long)pk, (unsigned long)cfg.packets);
			ret = DOCA_ERROR_TIME_OUT;
		}
	}
out:
	if (running) {
		/* The receiver may still touch the queue and its memory: leave them to the exit. */
		doca_argp_destroy();
		return EXIT_FAILURE;
	}
	eth_example_flow_stop(&flow);
	if (rxq != NULL) {
		if (started_ctx)
			(void)doca_ctx_stop(doca_eth_rxq_as_doca_ctx(rxq));
		(void)doca_eth_rxq_destroy(rxq);
	}
	if (mmap != NULL) {
		(void)doca_mmap_stop(mmap);
		(void)doca_mmap_destroy(mmap);
	}
	if (st_gpu != NULL)
		(void)doca_gpu_mem_free(gpu, st_gpu);
	if (pkt_gpu != NULL)
		(void)doca_gpu_mem_free(gpu, pkt_gpu);
	if (dev != NULL)
		(void)doca_dev_close(dev);
	if (gpu != NULL)
		(void)doca_gpu_destroy(gpu);
	doca_argp_destroy();
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("gpunetio_simple_receive failed: %s", doca_error_get_descr(ret));
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
