/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_send - a persistent kernel builds UDP frames in GPU memory and sends them
 * through a GPU send queue, in the shape of DOCA's gpunetio_simple_send sample:
 *
 *   doca_gpu_create(-g) ── doca_dev of -n ── doca_eth_txq (8192 descriptors), L3/L4 checksum
 *   offloads, completions on the GPU, (-p) descriptors taken by a CPU proxy ── datapath on the
 *   GPU ── start ── apply_queue_id(0) ── doca_eth_txq_get_gpu_handle
 *   packet memory (-m) after the start ── doca_mmap ── mkey, big-endian
 *   kernel: rounds of 256 frames with doca_gpu_dev_eth_txq_send (scope -e), or (-w) with
 *   prepare_send at positions of its own and one submit, NOTIFY on each round's last, a
 *   completion poll per round; (-p) a CPU thread calls
 *   doca_eth_txq_gpu_cpu_proxy_progress until the kernel is done
 *   CPU: prints the counts every second; stops after -c frames, -t seconds or SIGINT / SIGTERM
 *
 *   gpunetio_simple_send -g <GPU PCI address> [-n 03:00.0] [-e 0|1|2] [-m gpu|cpu_gpu] [-p] [-w]
 *                        [-s bytes] [-c frames] [-t seconds] [-r frames per second]
 *
 * Frame k carries k in the first 4 bytes of its UDP payload (softdoca-wire recv prints it as
 * "seq"), flows cycle over 4 destination ports. It prints "sending on <nic> ..." once the
 * kernel runs, and at the end one line "stats {json}" on stdout with the frames the NIC
 * completed. Exit status 0 when no send failed and, with -c, every frame was sent; 1 otherwise.
 * The default topology cables 03:00.0 to 03:00.1: `softdoca-wire recv -p 03:00.1` sees the
 * frames. Built twice: with the CUDA kernel (only where meson finds nvcc) and, for the tests'
 * fake CUDA runtime, with a CPU thread in its place.
 */
#include <pthread.h>
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
#include "gpunetio_simple_send.h"

DOCA_LOG_REGISTER(GPUNETIO_SIMPLE_SEND);

#define NIC_DEFAULT   "03:00.0"
#define TX_NWQE	      8192u
#define GPU_PAGE      65536u
#define POLL_US	      5000
#define DONE_WAIT_SEC 10

struct cfg {
	struct example_gpu_nic dev; /* first: example_nic_cb and example_gpu_cb fill it */
	enum ss_scope scope;
	enum doca_gpu_mem_type mem;
	bool proxy;
	bool low_level;
	uint32_t size;
	uint32_t seconds; /* 0: no limit */
	uint64_t packets; /* 0: no limit */
	uint64_t rate;	  /* 0: no limit */
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
		((struct cfg *)config)->scope = (enum ss_scope)v;
	return ret;
}

static doca_error_t mem_cb(void *param, void *config)
{
	return example_mem_arg(param, &((struct cfg *)config)->mem);
}

static doca_error_t proxy_cb(void *param, void *config)
{
	((struct cfg *)config)->proxy = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t low_level_cb(void *param, void *config)
{
	((struct cfg *)config)->low_level = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t size_cb(void *param, void *config)
{
	int v = *(int *)param;

	if (v < (int)SS_MIN_SIZE || v > (int)SS_MAX_SIZE) {
		DOCA_LOG_ERR("frame size %d is outside %u..%u bytes", v, SS_MIN_SIZE, SS_MAX_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct cfg *)config)->size = (uint32_t)v;
	return DOCA_SUCCESS;
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
		DOCA_LOG_ERR("frames %d is negative (0: no limit)", v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct cfg *)config)->packets = (uint64_t)v;
	return DOCA_SUCCESS;
}

static doca_error_t rate_cb(void *param, void *config)
{
	int v = *(int *)param;

	if (v < 0) {
		DOCA_LOG_ERR("rate %d is negative (0: no limit)", v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct cfg *)config)->rate = (uint64_t)v;
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
		ret = example_param("e", "exec-scope", "send scope: 0 thread (default), 1 warp, 2 block",
				    DOCA_ARGP_TYPE_INT, scope_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("m", "memory", "packet memory: gpu (default) or cpu_gpu", DOCA_ARGP_TYPE_STRING,
				    mem_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("p", "proxy", "CPU proxy: a CPU thread hands the kernel's descriptors to the NIC",
				    DOCA_ARGP_TYPE_BOOLEAN, proxy_cb, false);
	if (ret == DOCA_SUCCESS)
		ret =
		    example_param("w", "low-level",
				  "descriptors at the kernel's own positions, one submit per round (non-shared queue)",
				  DOCA_ARGP_TYPE_BOOLEAN, low_level_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("s", "size", "frame size in bytes, 64..1514 (default 512)", DOCA_ARGP_TYPE_INT,
				    size_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("t", "time", "stop after this many seconds (default 0: no limit)",
				    DOCA_ARGP_TYPE_INT, seconds_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("c", "count", "send this many frames (default 0: no limit)", DOCA_ARGP_TYPE_INT,
				    packets_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = example_param("r", "rate", "frames per second at most (default 0: no limit)", DOCA_ARGP_TYPE_INT,
				    rate_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	if (ret != DOCA_SUCCESS)
		doca_argp_destroy();
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

/* The CPU proxy: hands what the kernel posted to the NIC until told to quit. */
struct proxy {
	struct doca_eth_txq *txq;
	pthread_t tid;
	int quit;
	doca_error_t status;
};

static void *proxy_loop(void *arg)
{
	struct proxy *px = arg;

	while (!__atomic_load_n(&px->quit, __ATOMIC_ACQUIRE)) {
		doca_error_t ret = doca_eth_txq_gpu_cpu_proxy_progress(px->txq);

		if (ret != DOCA_SUCCESS) {
			px->status = ret;
			break;
		}
	}
	return NULL;
}

/* Until the sender is done, -t or a signal; prints the counts every second. */
static void watch(const struct cfg *cfg, struct ss_stats *st, uint64_t *t_first, uint64_t *t_last)
{
	uint64_t start = now_ns(), next_print = start + 1000000000u, seen = 0;

	*t_first = *t_last = 0;
	while (!stop_signal && !__atomic_load_n(&st->done, __ATOMIC_ACQUIRE)) {
		uint64_t t = now_ns(), pk = load(&st->packets);

		if (pk != seen) {
			if (seen == 0)
				*t_first = start;
			*t_last = t;
			seen = pk;
		}
		if (cfg->seconds != 0 && t - start >= (uint64_t)cfg->seconds * 1000000000u)
			break;
		if (t >= next_print) {
			DOCA_LOG_INFO("sent %lu frames, %lu bytes, %lu errors", (unsigned long)pk,
				      (unsigned long)load(&st->bytes), (unsigned long)load(&st->errors));
			next_print += 1000000000u;
		}
		usleep(POLL_US);
	}
	if (load(&st->packets) != seen) {
		if (seen == 0)
			*t_first = start;
		*t_last = now_ns();
	}
}

/* Sets exit and waits (bounded) until the sender says it returned. */
static doca_error_t stop_sender(struct ss_stats *st)
{
	uint64_t end = now_ns() + (uint64_t)DONE_WAIT_SEC * 1000000000u;

	__atomic_store_n(&st->exit, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&st->done, __ATOMIC_ACQUIRE) == 0) {
		if (now_ns() > end) {
			DOCA_LOG_ERR("the sender did not end within %d s of exit", DONE_WAIT_SEC);
			return DOCA_ERROR_TIME_OUT;
		}
		usleep(1000);
	}
	return ss_sender_wait();
}

static doca_error_t make_txq(const struct cfg *cfg, struct doca_dev *dev, struct doca_gpu *gpu,
			     struct doca_eth_txq **txq)
{
	doca_error_t ret = doca_eth_txq_create(dev, TX_NWQE, txq);

	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_l3_chksum_offload(*txq, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_l4_chksum_offload(*txq, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_gpu_set_completion_on_gpu(*txq);
	if (ret == DOCA_SUCCESS && cfg->proxy)
		ret = doca_eth_txq_gpu_set_uar_on_cpu(*txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(*txq), gpu);
	return ret;
}

int main(int argc, char **argv)
{
	struct cfg cfg = {.dev.nic = NIC_DEFAULT, .scope = SS_SCOPE_THREAD, .mem = DOCA_GPU_MEM_TYPE_GPU, .size = 512};
	struct ss_params prm = {.dst_mac = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	struct proxy px = {0};
	struct doca_gpu_eth_txq *txq_gpu = NULL;
	struct doca_eth_txq *txq = NULL;
	struct ss_stats *st_gpu = NULL, *st = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_gpu *gpu = NULL;
	struct doca_dev *dev = NULL;
	void *pkt_gpu = NULL, *pkt_cpu = NULL;
	bool running = false, started_ctx = false, proxy_running = false;
	uint64_t t_first = 0, t_last = 0;
	size_t len = ((size_t)2 * SS_ROUND * SS_MAX_SIZE + GPU_PAGE - 1) / GPU_PAGE * GPU_PAGE;
	uint32_t mkey = 0;
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
	ret = eth_example_open_device(cfg.dev.nic, &dev);
	if (ret != DOCA_SUCCESS)
		goto out;
	ret = make_txq(&cfg, dev, gpu, &txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_eth_txq_as_doca_ctx(txq));
	if (ret == DOCA_SUCCESS) {
		started_ctx = true;
		ret = doca_eth_txq_apply_queue_id(txq, 0);
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_get_gpu_handle(txq, &txq_gpu);
	/* The packet memory comes after the start, as in DOCA's sample. */
	if (ret == DOCA_SUCCESS)
		ret = doca_gpu_mem_alloc(gpu, len, GPU_PAGE, cfg.mem, &pkt_gpu,
					 cfg.mem == DOCA_GPU_MEM_TYPE_GPU ? NULL : &pkt_cpu);
	if (ret == DOCA_SUCCESS)
		ret = eth_example_gpu_mmap(dev, pkt_gpu, len, &mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_get_mkey(mmap, dev, &mkey);
	if (ret == DOCA_SUCCESS)
		ret =
		    doca_gpu_mem_alloc(gpu, sizeof(*st), 0, DOCA_GPU_MEM_TYPE_CPU_GPU, (void **)&st_gpu, (void **)&st);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot set up the GPU send queue: %s", doca_error_get_descr(ret));
		goto out;
	}
	memset(st, 0, sizeof(*st));
	prm.pkt_addr = (uint64_t)(uintptr_t)pkt_gpu;
	prm.mkey_be = htonl(mkey);
	prm.size = cfg.size;
	prm.count = cfg.packets;
	prm.rate = cfg.rate;
	prm.low_level = cfg.low_level;
	eth_example_src_mac(dev, prm.src_mac);
	if (cfg.proxy) {
		px.txq = txq;
		px.status = DOCA_SUCCESS;
		if (pthread_create(&px.tid, NULL, proxy_loop, &px) != 0) {
			DOCA_LOG_ERR("cannot start the CPU proxy thread");
			ret = DOCA_ERROR_OPERATING_SYSTEM;
			goto out;
		}
		proxy_running = true;
	}
	ret = ss_sender_launch(txq_gpu, &prm, st_gpu, cfg.scope);
	if (ret != DOCA_SUCCESS)
		goto out;
	running = true;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("sending on %s from GPU %s: %u-byte UDP frames from %s memory, %s sends, scope %s, %s, %s\n",
	       cfg.dev.nic, cfg.dev.gpu, cfg.size, cfg.mem == DOCA_GPU_MEM_TYPE_GPU ? "GPU" : "CPU_GPU",
	       cfg.low_level ? "low-level" : "high-level",
	       cfg.scope == SS_SCOPE_THREAD ? "thread"
	       : cfg.scope == SS_SCOPE_WARP ? "warp"
					    : "block",
	       cfg.proxy ? "CPU proxy" : "NIC takes the descriptors", ss_sender_kind());
	fflush(stdout);
	watch(&cfg, st, &t_first, &t_last);
	ret = stop_sender(st);
	running = ret != DOCA_SUCCESS; /* a sender that did not end still writes the queue */
	{
		uint64_t pk = load(&st->packets), errs = load(&st->errors);
		double secs = t_last > t_first ? (double)(t_last - t_first) / 1e9 : 0.0;
		double pps = secs > 0 ? (double)pk / secs : 0.0;

		printf("stats {\"packets\": %lu, \"bytes\": %lu, \"errors\": %lu, \"seconds\": %.3f, \"pps\": %.0f, "
		       "\"proxy\": %s, \"low_level\": %s}\n",
		       (unsigned long)pk, (unsigned long)load(&st->bytes), (unsigned long)errs, secs, pps,
		       cfg.proxy ? "true" : "false", cfg.low_level ? "true" : "false");
		fflush(stdout);
		if (ret == DOCA_SUCCESS && errs != 0) {
			DOCA_LOG_ERR("%lu rounds reported a failed send", (unsigned long)errs);
			ret = DOCA_ERROR_IO_FAILED;
		}
		if (ret == DOCA_SUCCESS && cfg.packets != 0 && pk < cfg.packets) {
			DOCA_LOG_ERR("%lu of %lu frames sent", (unsigned long)pk, (unsigned long)cfg.packets);
			ret = DOCA_ERROR_TIME_OUT;
		}
	}
out:
	if (running) {
		/* The sender may still touch the queue and its memory: leave them to the exit. */
		doca_argp_destroy();
		return EXIT_FAILURE;
	}
	if (proxy_running) {
		__atomic_store_n(&px.quit, 1, __ATOMIC_RELEASE);
		pthread_join(px.tid, NULL);
		if (ret == DOCA_SUCCESS && px.status != DOCA_SUCCESS) {
			DOCA_LOG_ERR("CPU proxy: %s", doca_error_get_descr(px.status));
			ret = px.status;
		}
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
	if (pkt_gpu != NULL)
		(void)doca_gpu_mem_free(gpu, pkt_gpu);
	if (dev != NULL)
		(void)doca_dev_close(dev);
	if (gpu != NULL)
		(void)doca_gpu_destroy(gpu);
	doca_argp_destroy();
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("gpunetio_simple_send failed: %s", doca_error_get_descr(ret));
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
