/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_eth_rxq.c - CYCLIC receive queues on the GPU data path without a GPU: the fake CUDA
 * runtime gives the memory, CPU threads play the GPU through doca_gpunetio_dev_eth_rxq.cuh
 * compiled by the C compiler (THREAD scope), and the frames come over the default topology's
 * wire from 03:00.1 to 03:00.0, sent with the port's ops, received by the NIC's receive thread.
 *
 *   api        capabilities, estimate, every rejection of the control path
 *   order      frames arrive in order, intact, with their sizes, and the ring wraps many times
 *              (packet memory CPU_GPU: written directly; GPU: through the staging mirror)
 *   max        max_rx_pkts caps a receive, the timeout ends one that has fewer, both 0 waits for
 *              a full ring
 *   full       frames arriving while every slot holds an untaken packet are dropped (counted in
 *              the stop line), the taken ones are intact, the next frame lands after them
 *   stop       stopping the queue while a sender thread keeps sending; it starts again from 0
 *   share      a CPU queue on a PE and a GPU queue on one port (steering by frame parity): the
 *              CPU queue gets every frame of its own while the GPU queue's ring stays full
 *   proxy_api  doca_eth_rxq_gpu_set_uar_on_cpu / _set_rq_mem_type / _cpu_proxy_progress: every
 *              rejection, its code and its line
 *   proxy_idle a CPU-proxy queue nobody progresses: it fills once, then drops everything even
 *              after the device gave its slots back; one proxy round lets the next frame in
 *   proxy_run  two threads looping on the proxy while frames stream in: all arrive, none drops
 *   mem_types  each ring memory type receives, and the start line names the type asked
 *   mkey       doca_gpu_dev_eth_rxq_get_pkt_mkey is htobe32 of the packet mmap's mkey, and a
 *              GPU send queue sends a frame back from its receive slot with it
 *   lying_cons a device that publishes a consumer index past the packets placed: one line,
 *              every later frame dropped (even once it tells the truth), a restart works
 *   staged     GPU-only packet memory with copies that land 50 ms late (FAKE_CUDA_LAND_US): a
 *              "kernel" thread sees each completion only with its frame's bytes in place; a
 *              burst of 64 frames goes in one cudaMemcpyAsync (two where it wraps the ring),
 *              no synchronous copy
 *
 * Every case uses its own runtime directory, so its cable starts empty.
 */
#include <endian.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_cpu_data_path.h>
#include <doca_eth_rxq_gpu_data_path.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_gpu_data_path.h>
#include <doca_gpunetio_dev_eth_rxq.cuh>
#include <doca_gpunetio_dev_eth_txq.cuh>
#include <doca_log.h>

#include "core.h"
#include <stdatomic.h>

#include "gpu_test.h"
#include "nic.h"

#define DEV_RX	  "03:00.0"
#define DEV_TX	  "03:00.1"
#define MAX_PKT	  256 /* stride 256 */
#define NSLOTS	  16
#define WAIT_MS	  30000 /* a hang becomes a failure */
#define ETHERTYPE 0x88b5

static struct doca_gpu *gpu;
static struct doca_dev *dev_rx, *dev_tx;
static const struct nic_port_ops *tx_ops;
static void *tx_port;
static int log_fd = -1;

/* Frame @seq: broadcast, local EtherType, seq in bytes 14..17, then a pattern up to @len. */
static uint32_t make_frame(uint8_t *f, uint32_t seq, uint32_t len)
{
	memset(f, 0xff, 6);
	memcpy(f + 6, (uint8_t[]){2, 0, 0, 0, 0, 1}, 6);
	f[12] = ETHERTYPE >> 8;
	f[13] = ETHERTYPE & 0xff;
	memcpy(f + 14, &seq, 4);
	for (uint32_t i = 18; i < len; i++)
		f[i] = (uint8_t)(seq * 7 + i);
	return len;
}

static uint32_t len_of(uint32_t seq)
{
	return 60 + (seq * 37) % (MAX_PKT - 60 + 1);
}

static void send_frame(uint32_t seq)
{
	uint8_t f[MAX_PKT];
	uint32_t len = make_frame(f, seq, len_of(seq));
	struct iovec iov = {.iov_base = f, .iov_len = len};
	struct nic_tx_frame fr = {.iov = &iov, .iovcnt = 1, .len = len};

	CHECK_EQ(tx_ops->tx_burst(tx_port, &fr, 1), 1u);
}

/* The frame in slot @idx (GPU address: host memory with the fake runtime) is frame @seq. */
static void check_frame(struct doca_gpu_eth_rxq *h, uint64_t idx, uint32_t seq, uint32_t bytes)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)doca_gpu_dev_eth_rxq_get_pkt_addr(h, idx);
	uint8_t want[MAX_PKT];
	uint32_t got_seq;

	memcpy(&got_seq, p + 14, 4);
	CHECK_EQ(got_seq, seq);
	CHECK_EQ(bytes, len_of(seq));
	make_frame(want, seq, len_of(seq));
	CHECK_MEM(p, want, len_of(seq));
}

struct queue {
	struct doca_eth_rxq *rxq;
	struct doca_mmap *mmap;
	void *pkt_gpu;
	struct doca_gpu_eth_rxq *h;
};

static void queue_make(struct queue *q, enum doca_gpu_mem_type mem, uint32_t nslots)
{
	void *cpu = NULL;
	size_t len = (size_t)nslots * MAX_PKT;

	CHECK_OK(doca_gpu_mem_alloc(gpu, len, 4096, mem, &q->pkt_gpu, mem == DOCA_GPU_MEM_TYPE_GPU ? NULL : &cpu));
	q->mmap = sd_mmap_local(dev_rx, q->pkt_gpu, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_eth_rxq_create(dev_rx, nslots, MAX_PKT, &q->rxq));
	CHECK_OK(doca_eth_rxq_set_type(q->rxq, DOCA_ETH_RXQ_TYPE_CYCLIC));
	CHECK_OK(doca_eth_rxq_set_pkt_buf(q->rxq, q->mmap, 0, (uint32_t)len));
	CHECK_OK(doca_eth_rxq_gpu_enable_mcst_qp(q->rxq));
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(q->rxq), gpu));
}

static void queue_start_id(struct queue *q, uint16_t id)
{
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q->rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(q->rxq, id));
	CHECK_OK(doca_eth_rxq_get_gpu_handle(q->rxq, &q->h));
	CHECK(q->h != NULL);
}

static void queue_start(struct queue *q)
{
	queue_start_id(q, 0);
}

static void queue_free(struct queue *q)
{
	CHECK_OK(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q->rxq)));
	CHECK_OK(doca_eth_rxq_destroy(q->rxq));
	CHECK_OK(doca_mmap_stop(q->mmap));
	CHECK_OK(doca_mmap_destroy(q->mmap));
	CHECK_OK(doca_gpu_mem_free(gpu, q->pkt_gpu));
}

/* A fresh cable: its own runtime directory, both devices opened anew. */
static void open_devs(const char *name)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", sd_tmpdir(), name);
	CHECK(mkdir(dir, 0700) == 0);
	sd_setenv("XDG_RUNTIME_DIR", dir);
	dev_rx = sd_open_dev(DEV_RX);
	dev_tx = sd_open_dev(DEV_TX);
	CHECK_OK(priv_doca_nic_port_get(dev_tx, &tx_ops, &tx_port));
	CHECK_STR(tx_ops->medium, "wire");
}

static void close_devs(void)
{
	CHECK_OK(doca_dev_close(dev_tx));
	CHECK_OK(doca_dev_close(dev_rx));
}

/* ---- api ---- */

static void case_api(void)
{
	struct doca_devinfo *info;
	struct doca_eth_rxq *cpu_q;
	struct doca_gpu_eth_rxq *h = NULL;
	struct doca_pe *pe;
	struct queue q = {0};
	uint32_t size = 0;
	void *small_gpu = NULL;
	struct doca_mmap *small;

	open_devs("api");
	info = doca_dev_as_devinfo(dev_rx);
	CHECK_OK(doca_eth_rxq_cap_is_type_supported(info, DOCA_ETH_RXQ_TYPE_CYCLIC, DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU));
	CHECK_ERR(doca_eth_rxq_cap_is_type_supported(info, DOCA_ETH_RXQ_TYPE_CYCLIC, DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_eth_rxq_cap_is_type_supported(info, DOCA_ETH_RXQ_TYPE_REGULAR, DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_eth_rxq_cap_is_type_supported(info, DOCA_ETH_RXQ_TYPE_REGULAR, DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU));
	/* CYCLIC: one slot of max_packet_size rounded up to 64 per packet of the burst. */
	CHECK_OK(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, 1500, 1000, 0, 0, 0, &size));
	CHECK_EQ(size, 1536u * 1000u);
	CHECK_OK(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, 2048, 16384, 0, 0, 0, &size));
	CHECK_EQ(size, 2048u * 16384u);

	/* CYCLIC without a GPU, a GPU queue that is not CYCLIC. */
	CHECK_OK(doca_eth_rxq_create(dev_rx, 16, MAX_PKT, &cpu_q));
	CHECK_ERR(doca_eth_rxq_get_gpu_handle(cpu_q, &h), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_eth_rxq_set_type(cpu_q, DOCA_ETH_RXQ_TYPE_CYCLIC));
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(cpu_q)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(cpu_q), (struct doca_gpu *)&size),
		  DOCA_ERROR_INVALID_VALUE);
	pe = sd_pe();
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(cpu_q)));
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(cpu_q)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_eth_rxq_destroy(cpu_q));
	CHECK_OK(doca_pe_destroy(pe));

	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	CHECK_ERR(doca_eth_rxq_get_gpu_handle(q.rxq, &h), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_eth_rxq_set_type(q.rxq, DOCA_ETH_RXQ_TYPE_REGULAR));
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q.rxq)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_eth_rxq_set_type(q.rxq, DOCA_ETH_RXQ_TYPE_CYCLIC));
	/* A packet buffer of one slot. */
	CHECK_OK(doca_gpu_mem_alloc(gpu, MAX_PKT, 0, DOCA_GPU_MEM_TYPE_GPU, &small_gpu, NULL));
	small = sd_mmap_local(dev_rx, small_gpu, MAX_PKT, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_eth_rxq_set_pkt_buf(q.rxq, small, 0, MAX_PKT));
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q.rxq)), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_rxq_set_pkt_buf(q.rxq, q.mmap, 0, NSLOTS * MAX_PKT));
	/* The GPU keeps the memory of a started queue. */
	queue_start(&q);
	CHECK_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_BAD_STATE);
	CHECK_EQ(q.h->nslots, (uint32_t)NSLOTS);
	CHECK_EQ(q.h->stride, (uint32_t)MAX_PKT);
	CHECK_EQ(q.h->pkt_base, (uint64_t)(uintptr_t)q.pkt_gpu);
	CHECK_ERR(doca_eth_rxq_gpu_enable_mcst_qp(q.rxq), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_rxq_gpu_enable_mcst_qp(NULL), DOCA_ERROR_INVALID_VALUE);
	{
		uint64_t first = 0;
		uint32_t num = 0;

		CHECK_ERR(doca_gpunetio_hd_rxq_recv(NULL, 1, 1, &first, &num, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_gpunetio_hd_rxq_recv(q.h, 1, 1, &first, &num, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_ALL),
			  DOCA_ERROR_INVALID_VALUE);
	}
	queue_free(&q);
	CHECK_OK(doca_mmap_stop(small));
	CHECK_OK(doca_mmap_destroy(small));
	CHECK_OK(doca_gpu_mem_free(gpu, small_gpu));
	close_devs();
}

static char *log_text(void);

/* ---- order: a consumer thread plays the kernel ---- */

#define ORDER_FRAMES 400
#define ORDER_BURST  4

struct consumer {
	struct doca_gpu_eth_rxq *h;
	atomic_uint taken;
	uint32_t want;
	uint32_t calls;
};

static void *consume(void *arg)
{
	struct consumer *c = arg;
	struct doca_gpu_dev_eth_rxq_attr attr[7];
	uint64_t deadline = sd_now_ms() + WAIT_MS;
	uint32_t next = 0;

	while (next < c->want) {
		uint64_t first = UINT64_MAX;
		uint32_t num = UINT32_MAX;

		CHECK(sd_now_ms() < deadline);
		CHECK_OK(
		    doca_gpunetio_hd_rxq_recv(c->h, 7, 2000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
		CHECK(num <= 7);
		CHECK_EQ(first, (uint64_t)(next % NSLOTS));
		for (uint32_t i = 0; i < num; i++) {
			check_frame(c->h, first + i, next + i, attr[i].bytes);
			CHECK(attr[i].timestamp_ns != 0);
		}
		next += num;
		c->calls++;
		atomic_store_explicit(&c->taken, next, memory_order_release);
	}
	return NULL;
}

static void run_order(enum doca_gpu_mem_type mem, const char *dir)
{
	struct consumer c = {.want = ORDER_FRAMES};
	struct queue q = {0};
	pthread_t t;
	uint64_t deadline = sd_now_ms() + WAIT_MS;

	open_devs(dir);
	queue_make(&q, mem, NSLOTS);
	queue_start(&q);
	{
		/* The start's line names the way frames reach the slots: GPU memory is copied into. */
		char *log = log_text();
		const char *way = mem == DOCA_GPU_MEM_TYPE_GPU ? "GPU-only (copied)" : "CPU-addressable";
		char *last = NULL;

		for (char *p = strstr(log, "CYCLIC on the GPU"); p != NULL; p = strstr(p + 1, "CYCLIC on the GPU"))
			last = p;
		CHECK(last != NULL && strstr(last, way) != NULL);
		free(log);
	}
	c.h = q.h;
	CHECK(pthread_create(&t, NULL, consume, &c) == 0);
	for (uint32_t seq = 0; seq < ORDER_FRAMES;) {
		/* Never more frames than free slots (the consumer holds its last run, up to 7): no drop. */
		if (seq + ORDER_BURST - atomic_load_explicit(&c.taken, memory_order_acquire) > NSLOTS - 7) {
			CHECK(sd_now_ms() < deadline);
			sched_yield();
			continue;
		}
		for (int i = 0; i < ORDER_BURST; i++)
			send_frame(seq++);
	}
	CHECK(pthread_join(t, NULL) == 0);
	CHECK_EQ(atomic_load(&c.taken), (unsigned)ORDER_FRAMES);
	CHECK_EQ(q.h->next, (uint64_t)ORDER_FRAMES); /* wrapped ORDER_FRAMES / NSLOTS times */
	queue_free(&q);
	close_devs();
}

static void case_order(void)
{
	run_order(DOCA_GPU_MEM_TYPE_CPU_GPU, "order-cpu-gpu");
	run_order(DOCA_GPU_MEM_TYPE_GPU, "order-gpu");
}

/* ---- max and timeout ---- */

/* Until the receiving port took @n frames off the wire in total (the NIC placed or dropped them). */
static void wait_rx_frames(uint64_t n)
{
	const struct nic_port_ops *ops;
	struct nic_port_stats st;
	uint64_t deadline = sd_now_ms() + WAIT_MS;
	void *port;

	CHECK_OK(priv_doca_nic_port_get(dev_rx, &ops, &port));
	for (;;) {
		ops->stats(port, &st);
		if (st.rx_frames >= n)
			break;
		CHECK(sd_now_ms() < deadline);
		sched_yield();
	}
	CHECK_EQ(st.rx_frames, n);
}

static void case_max(void)
{
	struct doca_gpu_dev_eth_rxq_attr attr[NSLOTS];
	struct queue q = {0};
	uint64_t first = 0, t0;
	uint32_t num = 0, seq = 0;

	open_devs("max");
	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	queue_start(&q);

	/* Nothing there: the timeout ends it, never before it passed. */
	t0 = doca_gpunetio_hd_now_ns();
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 4, 20000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, 0u);
	CHECK(doca_gpunetio_hd_now_ns() - t0 >= 20000000);

	/* Six frames: max 4 takes four without a timeout, then the timeout ends one with two. */
	for (int i = 0; i < 6; i++)
		send_frame(seq++);
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 4, 0, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, 4u);
	CHECK_EQ(first, 0u);
	for (uint32_t i = 0; i < num; i++)
		check_frame(q.h, first + i, (uint32_t)i, attr[i].bytes);
	wait_rx_frames(6);
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 4, 1000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_TS));
	CHECK_EQ(num, 2u);
	CHECK_EQ(first, 4u);
	CHECK(attr[0].timestamp_ns != 0 && attr[0].bytes == 0);

	/* The slots a call returned go back with the next call: without it, 2 of 16 would drop. */
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 1, 1000000, &first, &num, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE));
	CHECK_EQ(num, 0u);
	CHECK_EQ(q.h->cons, 6u);
	/* Neither max nor timeout: it waits for a full ring, which wraps (first 6, then 6 + 16 - 1). */
	for (int i = 0; i < NSLOTS; i++)
		send_frame(seq++);
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 0, 0, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, (uint32_t)NSLOTS);
	CHECK_EQ(first, 6u);
	for (uint32_t i = 0; i < num; i++)
		check_frame(q.h, first + i, 6 + i, attr[i].bytes);
	/* THREAD scope through DOCA's template name works from C++ only; C calls the core directly. */
	queue_free(&q);
	close_devs();
}

/* ---- full ring ---- */

static char *log_text(void)
{
	off_t end = lseek(log_fd, 0, SEEK_END);
	char *s = calloc(1, (size_t)end + 1);

	CHECK(s != NULL);
	CHECK(pread(log_fd, s, (size_t)end, 0) == end);
	return s;
}

static void case_full(void)
{
	struct doca_gpu_dev_eth_rxq_attr attr[NSLOTS];
	struct queue q = {0};
	uint64_t first = 0;
	uint32_t num = 0;
	char *log, want[128];

	open_devs("full");
	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	queue_start(&q);
	/* 16 fill the ring, 5 find no free slot. */
	for (uint32_t seq = 0; seq < NSLOTS + 5; seq++)
		send_frame(seq);
	wait_rx_frames(NSLOTS + 5);
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 0, 1000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, (uint32_t)NSLOTS);
	for (uint32_t i = 0; i < num; i++)
		check_frame(q.h, first + i, i, attr[i].bytes);
	/* Once the next call handed their slots back, the next frame lands in the slot after them;
	 * the dropped ones never show up. */
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 1, 1000000, &first, &num, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE));
	CHECK_EQ(num, 0u);
	send_frame(1000);
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 1, 0, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, 1u);
	CHECK_EQ(first, 0u);
	check_frame(q.h, first, 1000, attr[0].bytes);
	queue_free(&q);
	log = log_text();
	snprintf(want, sizeof(want), "stopped: %u frames received, 5 dropped (queue full)", NSLOTS + 1);
	if (strstr(log, want) == NULL) {
		fprintf(stderr, "no SDK line says \"%s\"; the log:\n%s\n", want, log);
		CHECK(false);
	}
	free(log);
	close_devs();
}

/* ---- stop while frames arrive ---- */

struct sender {
	atomic_bool stop;
	uint32_t sent;
};

static void *send_loop(void *arg)
{
	struct sender *s = arg;

	while (!atomic_load(&s->stop) && s->sent < 200000) {
		send_frame(s->sent++);
		if (s->sent % 64 == 0)
			sched_yield();
	}
	return NULL;
}

static void case_stop(void)
{
	struct doca_gpu_dev_eth_rxq_attr attr[NSLOTS];
	struct sender s = {0};
	struct queue q = {0};
	uint64_t first = 0;
	uint32_t num = 0, total = 0;
	pthread_t t;

	open_devs("stop");
	queue_make(&q, DOCA_GPU_MEM_TYPE_GPU, NSLOTS);
	CHECK(pthread_create(&t, NULL, send_loop, &s) == 0);
	for (int round = 0; round < 3; round++) {
		uint64_t deadline = sd_now_ms() + WAIT_MS;
		uint32_t prev = UINT32_MAX;

		queue_start(&q);
		CHECK_EQ(q.h->next, 0u); /* every start begins at slot 0 */
		/* Take a few runs of what arrives: each run is in order (drops only leave gaps). On a
		 * loaded machine the sender may not have run yet: go on until something came (within
		 * the deadline), so that the check below does not depend on the scheduler. */
		for (int k = 0; (k < 8 || total == 0) && sd_now_ms() < deadline; k++) {
			CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, NSLOTS, 1000000, &first, &num, attr,
							   DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
			for (uint32_t i = 0; i < num; i++) {
				const uint8_t *p =
				    (const uint8_t *)(uintptr_t)doca_gpu_dev_eth_rxq_get_pkt_addr(q.h, first + i);
				uint32_t seq;

				memcpy(&seq, p + 14, 4);
				CHECK(prev == UINT32_MAX || seq > prev);
				CHECK_EQ(attr[i].bytes, len_of(seq));
				prev = seq;
			}
			total += num;
		}
		/* Stopped while the sender goes on: the receive thread stops placing, then goes. */
		CHECK_OK(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q.rxq)));
		CHECK_ERR(doca_eth_rxq_get_gpu_handle(q.rxq, &q.h), DOCA_ERROR_BAD_STATE);
	}
	atomic_store(&s.stop, true);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(total > 0);
	CHECK_OK(doca_eth_rxq_destroy(q.rxq));
	CHECK_OK(doca_mmap_stop(q.mmap));
	CHECK_OK(doca_mmap_destroy(q.mmap));
	CHECK_OK(doca_gpu_mem_free(gpu, q.pkt_gpu));
	close_devs();
}

/* ---- share: a CPU queue and a GPU queue on one port ---- */

#define SHARE_FRAMES 200 /* half to each queue */
#define SHARE_TASKS  8

static uint32_t cpu_got, cpu_bad;

/* Even frames to queue 0 (the CPU's), odd ones to queue 1 (the GPU's). */
static void steer_parity(void *arg, const struct nic_frame_info *info, const uint8_t *frame, struct nic_verdict *out)
{
	uint32_t seq;

	(void)arg;
	(void)info;
	memcpy(&seq, frame + 14, 4);
	memset(out, 0, sizeof(*out));
	out->kind = NIC_TO_QUEUE;
	out->queue = (uint16_t)(seq & 1);
}

static void cpu_recv(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;
	void *data = NULL;
	size_t len = 0;
	uint32_t seq;

	(void)ud;
	(void)cud;
	CHECK_OK(doca_eth_rxq_task_recv_get_pkt(t, &b));
	CHECK_OK(doca_buf_get_data(b, &data));
	CHECK_OK(doca_buf_get_data_len(b, &len));
	memcpy(&seq, (uint8_t *)data + 14, 4);
	if (seq != 2 * cpu_got || len != len_of(seq))
		cpu_bad++;
	cpu_got++;
	CHECK_OK(doca_buf_reset_data_len(b));
	CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
}

static void cpu_flushed(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;

	(void)ud;
	(void)cud;
	doca_eth_rxq_task_recv_get_pkt(t, &b);
	doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

static void case_share(void)
{
	static uint8_t mem[SHARE_TASKS][MAX_PKT];
	struct doca_gpu_dev_eth_rxq_attr attr[NSLOTS];
	struct doca_buf_inventory *inv;
	struct doca_eth_rxq *cpu_q;
	struct doca_mmap *mm;
	struct doca_pe *pe;
	struct queue q = {0};
	uint64_t first = 0, deadline = sd_now_ms() + WAIT_MS;
	uint32_t num = 0;
	char *log, want[128];

	open_devs("share");
	CHECK_OK(priv_doca_nic_set_steer(dev_rx, steer_parity, NULL));
	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	queue_start_id(&q, 1);
	pe = sd_pe();
	inv = sd_inventory(SHARE_TASKS);
	mm = sd_mmap_local(dev_rx, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_eth_rxq_create(dev_rx, 16, MAX_PKT, &cpu_q));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(cpu_q, cpu_recv, cpu_flushed, SHARE_TASKS));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(cpu_q)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(cpu_q)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(cpu_q, 0));
	for (int i = 0; i < SHARE_TASKS; i++) {
		struct doca_eth_rxq_task_recv *t;
		struct doca_buf *b;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, mm, mem[i], MAX_PKT, &b));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(cpu_q, b, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}
	/* Rounds of 8 frames (4 for each queue); the CPU queue takes its 4 before the next round. */
	for (uint32_t seq = 0; seq < SHARE_FRAMES;) {
		for (int i = 0; i < 8; i++)
			send_frame(seq++);
		while (cpu_got < seq / 2) {
			CHECK(sd_now_ms() < deadline);
			doca_pe_progress(pe);
		}
	}
	CHECK_EQ(cpu_got, (uint32_t)SHARE_FRAMES / 2);
	CHECK_EQ(cpu_bad, 0u);
	wait_rx_frames(SHARE_FRAMES);
	/* The GPU queue never took anything: it holds its first 16 frames, the rest dropped. */
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 0, 1000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, (uint32_t)NSLOTS);
	for (uint32_t i = 0; i < num; i++)
		check_frame(q.h, first + i, 2 * i + 1, attr[i].bytes);
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(cpu_q), pe, NULL, WAIT_MS);
	CHECK_OK(doca_eth_rxq_destroy(cpu_q));
	queue_free(&q);
	log = log_text();
	snprintf(want, sizeof(want), "stopped: %u frames received, %u dropped (queue full)", NSLOTS,
		 SHARE_FRAMES / 2 - NSLOTS);
	if (strstr(log, want) == NULL) {
		fprintf(stderr, "no SDK line says \"%s\"; the log:\n%s\n", want, log);
		CHECK(false);
	}
	free(log);
	CHECK_OK(priv_doca_nic_set_steer(dev_rx, NULL, NULL));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_stop(mm));
	CHECK_OK(doca_mmap_destroy(mm));
	close_devs();
}

/* ---- CPU proxy: the doorbell rung from the CPU ---- */

/* The log's length now: expect_logged() looks only at what came after. */
static size_t log_mark(void)
{
	return (size_t)lseek(log_fd, 0, SEEK_END);
}

/* Exactly one line was logged since *@mark, and it contains @needle; moves *@mark past it. */
static void expect_logged(size_t *mark, const char *needle)
{
	char *log = log_text();
	const char *since = log + *mark;
	const char *nl = strchr(since, '\n');

	if (strstr(since, needle) == NULL || nl == NULL || nl[1] != '\0') {
		fprintf(stderr, "wanted one line with \"%s\"; logged since:\n%s\n", needle, since);
		CHECK(false);
	}
	*mark = strlen(log);
	free(log);
}

/* The stop line of the last queue that stopped says @received and @dropped. */
static void expect_stop_line(uint32_t received, uint32_t dropped)
{
	char *log = log_text(), want[128];

	snprintf(want, sizeof(want), "stopped: %u frames received, %u dropped (queue full)", received, dropped);
	if (strstr(log, want) == NULL) {
		fprintf(stderr, "no SDK line says \"%s\"; the log:\n%s\n", want, log);
		CHECK(false);
	}
	free(log);
}

static void case_proxy_api(void)
{
	struct doca_eth_rxq *cpu_q;
	struct doca_pe *pe;
	struct queue q = {0}, plain = {0};
	size_t mark;

	open_devs("proxy-api");
	mark = log_mark();
	CHECK_ERR(doca_eth_rxq_gpu_set_uar_on_cpu(NULL), DOCA_ERROR_INVALID_VALUE);
	expect_logged(&mark, "doca_eth_rxq_gpu_set_uar_on_cpu: NULL queue");
	CHECK_ERR(doca_eth_rxq_gpu_set_rq_mem_type(NULL, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_INVALID_VALUE);
	expect_logged(&mark, "doca_eth_rxq_gpu_set_rq_mem_type: NULL queue");
	CHECK_ERR(doca_eth_rxq_gpu_cpu_proxy_progress(NULL), DOCA_ERROR_INVALID_VALUE);
	expect_logged(&mark, "doca_eth_rxq_gpu_cpu_proxy_progress: NULL queue");

	/* A queue on the CPU data path: no proxy round, and no start with CPU-proxy mode. */
	CHECK_OK(doca_eth_rxq_create(dev_rx, 16, MAX_PKT, &cpu_q));
	pe = sd_pe();
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(cpu_q)));
	mark = log_mark();
	CHECK_ERR(doca_eth_rxq_gpu_cpu_proxy_progress(cpu_q), DOCA_ERROR_NOT_SUPPORTED);
	expect_logged(&mark, "runs on the CPU data path; call doca_eth_rxq_gpu_set_uar_on_cpu()");
	CHECK_OK(doca_eth_rxq_gpu_set_uar_on_cpu(cpu_q));
	CHECK_ERR(doca_eth_rxq_gpu_cpu_proxy_progress(cpu_q), DOCA_ERROR_NOT_SUPPORTED);
	mark = log_mark();
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(cpu_q)), DOCA_ERROR_NOT_SUPPORTED);
	expect_logged(&mark, "runs on the CPU data path but has CPU-proxy mode (doca_eth_rxq_gpu_set_uar_on_cpu)");
	CHECK_OK(doca_eth_rxq_destroy(cpu_q));
	CHECK_OK(doca_pe_destroy(pe));

	/* Bad memory types: each refused with the valid ones named. */
	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	mark = log_mark();
	CHECK_ERR(doca_eth_rxq_gpu_set_rq_mem_type(q.rxq, (enum doca_gpu_mem_type)3), DOCA_ERROR_INVALID_VALUE);
	expect_logged(&mark, "memory type 3 is not one; pass DOCA_GPU_MEM_TYPE_GPU, DOCA_GPU_MEM_TYPE_GPU_CPU or "
			     "DOCA_GPU_MEM_TYPE_CPU_GPU");
	CHECK_ERR(doca_eth_rxq_gpu_set_rq_mem_type(q.rxq, (enum doca_gpu_mem_type) - 1), DOCA_ERROR_INVALID_VALUE);
	expect_logged(&mark, "memory type -1 is not one");

	/* A proxy queue: BAD_STATE before the start, and for every setter once started. */
	CHECK_OK(doca_eth_rxq_gpu_set_uar_on_cpu(q.rxq));
	mark = log_mark();
	CHECK_ERR(doca_eth_rxq_gpu_cpu_proxy_progress(q.rxq), DOCA_ERROR_BAD_STATE);
	expect_logged(&mark, "doca_eth_rxq_gpu_cpu_proxy_progress: ");
	queue_start(&q);
	CHECK_OK(doca_eth_rxq_gpu_cpu_proxy_progress(q.rxq));
	mark = log_mark();
	CHECK_ERR(doca_eth_rxq_gpu_set_uar_on_cpu(q.rxq), DOCA_ERROR_BAD_STATE);
	expect_logged(&mark, "doca_eth_rxq_gpu_set_uar_on_cpu: ");
	CHECK_ERR(doca_eth_rxq_gpu_set_rq_mem_type(q.rxq, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_BAD_STATE);
	expect_logged(&mark, "doca_eth_rxq_gpu_set_rq_mem_type: ");
	CHECK_OK(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q.rxq)));
	mark = log_mark();
	CHECK_ERR(doca_eth_rxq_gpu_cpu_proxy_progress(q.rxq), DOCA_ERROR_BAD_STATE);
	expect_logged(&mark, "is not started; call doca_ctx_start() first");
	queue_start(&q);

	/* A GPU queue whose doorbell the GPU rings has no proxy. */
	queue_make(&plain, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	queue_start_id(&plain, 1);
	mark = log_mark();
	CHECK_ERR(doca_eth_rxq_gpu_cpu_proxy_progress(plain.rxq), DOCA_ERROR_NOT_SUPPORTED);
	expect_logged(&mark, "rings its doorbell from the GPU; call doca_eth_rxq_gpu_set_uar_on_cpu()");
	queue_free(&plain);
	queue_free(&q);
	close_devs();
}

/* Receives what is there (up to the ring) within 1 ms; checks it is frames @seq0.. in order. */
static uint32_t take(struct queue *q, uint32_t seq0)
{
	struct doca_gpu_dev_eth_rxq_attr attr[NSLOTS];
	uint64_t first = 0;
	uint32_t num = 0;

	CHECK_OK(doca_gpunetio_hd_rxq_recv(q->h, 0, 1000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	for (uint32_t i = 0; i < num; i++)
		check_frame(q->h, first + i, seq0 + i, attr[i].bytes);
	return num;
}

static void case_proxy_idle(void)
{
	struct queue q = {0};
	uint32_t seq = 0;

	open_devs("proxy-idle");
	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	CHECK_OK(doca_eth_rxq_gpu_set_rq_mem_type(q.rxq, DOCA_GPU_MEM_TYPE_CPU_GPU));
	CHECK_OK(doca_eth_rxq_gpu_set_uar_on_cpu(q.rxq));
	queue_start(&q);
	/* The first lap fills the ring; 5 more find it full. */
	for (; seq < NSLOTS + 5; seq++)
		send_frame(seq);
	wait_rx_frames(NSLOTS + 5);
	CHECK_EQ(take(&q, 0), (uint32_t)NSLOTS);
	/* The device gives the 16 slots back (cons), but nobody rings the doorbell: all drop. */
	CHECK_EQ(take(&q, NSLOTS), 0u);
	CHECK_EQ(q.h->cons, (uint64_t)NSLOTS);
	for (; seq < 2 * NSLOTS + 5; seq++)
		send_frame(seq);
	wait_rx_frames(2 * NSLOTS + 5);
	CHECK_EQ(take(&q, NSLOTS), 0u);
	/* One proxy round rings it: the next frame lands in slot 0. */
	CHECK_OK(doca_eth_rxq_gpu_cpu_proxy_progress(q.rxq));
	CHECK_OK(doca_eth_rxq_gpu_cpu_proxy_progress(q.rxq)); /* nothing changed: the same */
	send_frame(NSLOTS);
	wait_rx_frames(2 * NSLOTS + 6);
	CHECK_EQ(take(&q, NSLOTS), 1u);
	queue_free(&q);
	expect_stop_line(NSLOTS + 1, NSLOTS + 5);
	close_devs();
}

#define PROXY_FRAMES  400
#define PROXY_THREADS 2

struct proxy_loop {
	struct doca_eth_rxq *rxq;
	atomic_bool quit, stopping;
	atomic_uint_fast64_t rounds[PROXY_THREADS];
	atomic_uint next_id;
};

static void *proxy_run(void *arg)
{
	struct proxy_loop *l = arg;
	unsigned int id = atomic_fetch_add(&l->next_id, 1);

	while (!atomic_load(&l->quit)) {
		doca_error_t ret = doca_eth_rxq_gpu_cpu_proxy_progress(l->rxq);

		if (ret == DOCA_ERROR_BAD_STATE && atomic_load(&l->stopping))
			break; /* the queue stopped under it */
		CHECK_OK(ret);
		atomic_fetch_add_explicit(&l->rounds[id], 1, memory_order_release);
	}
	return NULL;
}

/*
 * Until a proxy round that began after this call copied cons: two more rounds of every thread
 * (a round that found the other thread busy follows a real round of it that began later).
 */
static void proxy_sync(struct proxy_loop *l, uint64_t deadline)
{
	uint64_t r[PROXY_THREADS];

	for (int i = 0; i < PROXY_THREADS; i++)
		r[i] = atomic_load_explicit(&l->rounds[i], memory_order_acquire);
	for (int i = 0; i < PROXY_THREADS; i++) {
		while (atomic_load_explicit(&l->rounds[i], memory_order_acquire) < r[i] + 2) {
			CHECK(sd_now_ms() < deadline);
			sched_yield();
		}
	}
}

static void case_proxy_run(void)
{
	struct consumer c = {.want = PROXY_FRAMES};
	struct proxy_loop l = {0};
	struct queue q = {0};
	pthread_t t, pt[PROXY_THREADS];
	uint64_t deadline = sd_now_ms() + WAIT_MS;

	open_devs("proxy-run");
	queue_make(&q, DOCA_GPU_MEM_TYPE_GPU, NSLOTS);
	CHECK_OK(doca_eth_rxq_gpu_set_uar_on_cpu(q.rxq));
	queue_start(&q);
	c.h = q.h;
	l.rxq = q.rxq;
	for (int i = 0; i < PROXY_THREADS; i++)
		CHECK(pthread_create(&pt[i], NULL, proxy_run, &l) == 0);
	CHECK(pthread_create(&t, NULL, consume, &c) == 0);
	for (uint32_t seq = 0; seq < PROXY_FRAMES;) {
		/* Free slots as the device says (cons), then a proxy round that saw it: no drop. */
		uint64_t cons = doca_gpunetio_hd_load_acquire_u64(&q.h->cons);

		if (seq + ORDER_BURST - cons > NSLOTS) {
			CHECK(sd_now_ms() < deadline);
			sched_yield();
			continue;
		}
		proxy_sync(&l, deadline);
		for (int i = 0; i < ORDER_BURST; i++)
			send_frame(seq++);
	}
	CHECK(pthread_join(t, NULL) == 0);
	CHECK_EQ(atomic_load(&c.taken), (unsigned)PROXY_FRAMES);
	/* Stopped while the proxies still loop: their rounds end before the ring goes. */
	atomic_store(&l.stopping, true);
	CHECK_OK(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q.rxq)));
	expect_stop_line(PROXY_FRAMES, 0);
	atomic_store(&l.quit, true);
	for (int i = 0; i < PROXY_THREADS; i++)
		CHECK(pthread_join(pt[i], NULL) == 0);
	CHECK_OK(doca_eth_rxq_destroy(q.rxq));
	CHECK_OK(doca_mmap_stop(q.mmap));
	CHECK_OK(doca_mmap_destroy(q.mmap));
	CHECK_OK(doca_gpu_mem_free(gpu, q.pkt_gpu));
	close_devs();
}

/* ---- ring memory types ---- */

static void case_mem_types(void)
{
	static const struct {
		enum doca_gpu_mem_type t;
		const char *asked;
	} types[] = {
	    {DOCA_GPU_MEM_TYPE_GPU, "(GPU asked; "},
	    {DOCA_GPU_MEM_TYPE_GPU_CPU, "(GPU_CPU asked; "},
	    {DOCA_GPU_MEM_TYPE_CPU_GPU, "(CPU_GPU asked)"},
	};
	char dir[32];

	for (size_t k = 0; k < N_ELEMS(types); k++) {
		struct queue q = {0};
		uint32_t seq = 0, got = 0;
		char *log, *last = NULL;

		snprintf(dir, sizeof(dir), "mem-types-%zu", k);
		open_devs(dir);
		queue_make(&q, DOCA_GPU_MEM_TYPE_GPU, NSLOTS);
		CHECK_OK(doca_eth_rxq_gpu_set_rq_mem_type(q.rxq, types[k].t));
		queue_start(&q);
		log = log_text();
		for (char *p = strstr(log, "CYCLIC on the GPU"); p != NULL; p = strstr(p + 1, "CYCLIC on the GPU"))
			last = p;
		CHECK(last != NULL);
		*strchrnul(last, '\n') = '\0';
		if (strstr(last, "ring in CPU_GPU memory ") == NULL || strstr(last, types[k].asked) == NULL ||
		    strstr(last, "doorbell rung by the GPU") == NULL) {
			fprintf(stderr, "start line \"%s\" does not say %s\n", last, types[k].asked);
			CHECK(false);
		}
		free(log);
		/* End to end: two laps of the ring (an empty receive gives the last lap's slots back). */
		for (int lap = 0; lap < 2; lap++) {
			uint64_t deadline;

			CHECK_EQ(take(&q, got), 0u);
			for (int i = 0; i < NSLOTS; i++)
				send_frame(seq++);
			wait_rx_frames(seq);
			/* placed; GPU-only packet memory completes once the batch's copy has landed */
			deadline = sd_now_ms() + WAIT_MS;
			while (got < seq) {
				CHECK(sd_now_ms() < deadline);
				got += take(&q, got);
			}
			CHECK_EQ(got, seq);
		}
		queue_free(&q);
		expect_stop_line(2 * NSLOTS, 0);
		close_devs();
	}
}

struct stopper {
	struct queue *q;
	atomic_bool done;
};

static void *stop_queue(void *arg)
{
	struct stopper *st = arg;

	CHECK_OK(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(st->q->rxq)));
	CHECK_OK(doca_eth_rxq_destroy(st->q->rxq));
	atomic_store(&st->done, true);
	return NULL;
}

/*
 * A queue stopped and destroyed while its persistent kernel still runs (a kernel of any
 * stream): what the kernel may read stays until the GPU goes, so the stop neither waits for the
 * kernel (a cudaFree synchronizes the device) nor frees memory under it.
 */
static void case_stop_under_kernel(void)
{
	struct fake_cuda fake = fake_cuda_get();
	struct stopper st = {0};
	struct queue q = {0};
	uint64_t deadline;
	pthread_t t;
	bool in_time;

	open_devs("stop-under-kernel");
	queue_make(&q, DOCA_GPU_MEM_TYPE_GPU, NSLOTS);
	queue_start(&q);
	st.q = &q;
	fake.kernel_begin(1);
	CHECK(pthread_create(&t, NULL, stop_queue, &st) == 0);
	for (deadline = sd_now_ms() + 3000; !atomic_load(&st.done) && sd_now_ms() < deadline;)
		usleep(1000);
	in_time = atomic_load(&st.done);
	fake.kernel_end(1); /* a stop that waited for the kernel goes on now */
	CHECK(pthread_join(t, NULL) == 0);
	if (!in_time) {
		fprintf(stderr, "stop under a running kernel: it waited for the kernel\n");
		exit(T_EXIT_FAIL);
	}
	CHECK_OK(doca_mmap_stop(q.mmap));
	CHECK_OK(doca_mmap_destroy(q.mmap));
	CHECK_OK(doca_gpu_mem_free(gpu, q.pkt_gpu));
	close_devs();
}

/* Plain host memory as a GPU queue's packet buffer: a kernel cannot reach it; refused at start. */
static void case_host_memory(void)
{
	size_t len = (size_t)NSLOTS * MAX_PKT;
	uint8_t *mem = aligned_alloc(4096, len);
	struct doca_mmap *m;
	struct doca_eth_rxq *rxq;
	size_t mark;

	CHECK(mem != NULL);
	open_devs("host-memory");
	m = sd_mmap_local(dev_rx, mem, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_eth_rxq_create(dev_rx, NSLOTS, MAX_PKT, &rxq));
	CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_CYCLIC));
	CHECK_OK(doca_eth_rxq_set_pkt_buf(rxq, m, 0, (uint32_t)len));
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(rxq), gpu));
	mark = log_mark();
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)), DOCA_ERROR_NOT_PERMITTED);
	expect_logged(&mark, "is not memory of GPU");
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	CHECK_OK(doca_mmap_destroy(m));
	free(mem);
	close_devs();
}

/* ---- the packet buffer's mkey: a reply sent from the receive slot ---- */

struct echo_rx {
	uint8_t f[MAX_PKT];
	uint32_t len, n;
};

static void echo_got(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	struct echo_rx *r = arg;

	(void)ts;
	CHECK(len <= MAX_PKT);
	memcpy(r->f, frame, len);
	r->len = len;
	r->n++;
}

static void case_mkey(void)
{
	struct doca_gpu_dev_eth_rxq_attr attr[1];
	struct doca_gpu_eth_txq *th = NULL;
	struct doca_eth_txq *txq;
	struct echo_rx r = {0};
	struct queue q = {0};
	uint64_t first = 0, ticket = 0, deadline = sd_now_ms() + WAIT_MS;
	uint32_t num = 0, mkey = 0;
	uint8_t want[MAX_PKT];

	open_devs("mkey");
	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	queue_start(&q);
	CHECK_OK(doca_mmap_get_mkey(q.mmap, dev_rx, &mkey));
	CHECK_EQ(doca_gpu_dev_eth_rxq_get_pkt_mkey(q.h), htobe32(mkey));
	CHECK(mkey != __builtin_bswap32(mkey)); /* the check above tells the byte orders apart */

	/* A CPU-proxy GPU send queue on the receiving device, sending back over the wire. */
	CHECK_OK(doca_eth_txq_create(dev_rx, 16, &txq));
	CHECK_OK(doca_eth_txq_gpu_set_uar_on_cpu(txq));
	CHECK_OK(doca_eth_txq_gpu_set_completion_on_gpu(txq)); /* polled below */
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(txq), gpu));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_eth_txq_get_gpu_handle(txq, &th));
	CHECK_EQ(tx_ops->rx_burst(tx_port, 1, echo_got, &r), 0u); /* the sender's port receives from now */

	send_frame(7);
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 1, 0, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, 1u);
	check_frame(q.h, first, 7, attr[0].bytes);
	CHECK_OK(doca_gpunetio_hd_txq_send(th, doca_gpu_dev_eth_rxq_get_pkt_addr(q.h, first),
					   doca_gpu_dev_eth_rxq_get_pkt_mkey(q.h), attr[0].bytes,
					   DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, &ticket));
	CHECK_EQ(ticket, 0u);
	while (doca_gpunetio_hd_load_acquire_u64(&th->cons) < 1) {
		CHECK(sd_now_ms() < deadline);
		CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(txq));
	}
	CHECK_EQ(doca_gpunetio_hd_load_acquire_u32(&th->cqe[0].seq), 1u);
	CHECK_EQ(th->cqe[0].status, (uint32_t)DOCA_SUCCESS); /* a wrong mkey completes with an error */
	while (r.n == 0) {
		CHECK(sd_now_ms() < deadline);
		tx_ops->rx_burst(tx_port, 1, echo_got, &r);
		sched_yield();
	}
	CHECK_EQ(r.n, 1u);
	CHECK_EQ(r.len, len_of(7));
	make_frame(want, 7, len_of(7));
	CHECK_MEM(r.f, want, r.len);

	CHECK_OK(doca_ctx_stop(doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_eth_txq_destroy(txq));
	queue_free(&q);
	close_devs();
}

/* ---- a consumer index past the producer's ---- */

/* How many times @needle occurs in @hay. */
static unsigned int count_of(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (const char *p = strstr(hay, needle); p != NULL; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void case_lying_cons(void)
{
	struct doca_gpu_dev_eth_rxq_attr attr[NSLOTS];
	struct queue q = {0};
	uint64_t first = 0;
	uint32_t num = 0;
	char *log;

	open_devs("lying_cons");
	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	queue_start(&q);
	send_frame(0);
	send_frame(1);
	wait_rx_frames(2);
	/* The device claims it took 2^40 packets: slots it was never given. */
	doca_gpunetio_hd_store_release_u64(&q.h->cons, 1ull << 40);
	for (uint32_t seq = 2; seq < 6; seq++)
		send_frame(seq);
	wait_rx_frames(6);
	/* Nothing after the lie was placed: the third slot's completion is still empty. */
	CHECK_EQ(doca_gpunetio_hd_load_acquire_u32(&q.h->cqe[2].seq), 0u);
	/* Back to the truth: the queue stays failed until it is restarted. */
	doca_gpunetio_hd_store_release_u64(&q.h->cons, 0);
	send_frame(6);
	wait_rx_frames(7);
	CHECK_EQ(doca_gpunetio_hd_load_acquire_u32(&q.h->cqe[2].seq), 0u);
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 0, 1000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, 2u);
	queue_free(&q);
	log = log_text();
	if (count_of(log, "the GPU released receive slots up to 1099511627776 with 2 packets placed") != 1 ||
	    strstr(log, "stopped: 2 frames received, 5 dropped (queue full)") == NULL) {
		fprintf(stderr, "want one line naming the consumer index, and 5 drops; the log:\n%s\n", log);
		CHECK(false);
	}
	free(log);
	/* A restart starts afresh. */
	queue_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NSLOTS);
	queue_start(&q);
	send_frame(7);
	wait_rx_frames(8);
	CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 1, 0, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
	CHECK_EQ(num, 1u);
	check_frame(q.h, first, 7, attr[0].bytes);
	queue_free(&q);
	close_devs();
}

/*
 * A persistent kernel on a blocking stream (a <<<>>> launch without a stream) waits for packets:
 * softdoca's copies into its GPU-only packet memory must not wait for that kernel (a copy on the
 * legacy stream would: a deadlock). The frames land with their bytes, then the kernel ends.
 */
static void case_blocking_kernel(void)
{
	struct fake_cuda fake = fake_cuda_get();
	struct queue q = {0};
	struct doca_gpu_dev_eth_rxq_attr attr[4];
	uint64_t first = UINT64_MAX, deadline;
	uint32_t got = 0, num;

	open_devs("blocking-kernel");
	queue_make(&q, DOCA_GPU_MEM_TYPE_GPU, NSLOTS);
	queue_start(&q);
	fake.kernel_begin(0);
	for (uint32_t seq = 0; seq < 4; seq++)
		send_frame(seq);
	deadline = sd_now_ms() + 5000;
	while (got < 4 && sd_now_ms() < deadline) {
		num = 0;
		CHECK_OK(doca_gpunetio_hd_rxq_recv(q.h, 4 - got, 100000000, &first, &num, attr,
						   DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
		for (uint32_t i = 0; i < num; i++)
			check_frame(q.h, first + i, got + i, attr[i].bytes);
		got += num;
	}
	fake.kernel_end(0); /* the NIC thread of a softdoca that copies on the legacy stream goes on now */
	if (got != 4) {
		fprintf(stderr, "blocking kernel: %u of 4 frames reached GPU memory while it ran\n", got);
		exit(T_EXIT_FAIL);
	}
	queue_free(&q);
	close_devs();
}

/* ---- staged: GPU-only packet memory through the pinned mirror, in batches ---- */

#define STAGE_SLOTS 96
#define STAGE_BURST 64 /* ETH_RX_BUDGET: one drain */
#define GATE_SEQ    0xfffffffu

static atomic_int gate; /* 0: open; 2: the port's drain waits in the steering */

/* Frames to queue 0; the gate frame is dropped after holding the drain until the test opens it. */
static void steer_gate(void *arg, const struct nic_frame_info *info, const uint8_t *frame, struct nic_verdict *out)
{
	uint64_t deadline = sd_now_ms() + WAIT_MS;
	uint32_t seq;

	(void)arg;
	(void)info;
	memcpy(&seq, frame + 14, 4);
	memset(out, 0, sizeof(*out));
	out->kind = NIC_TO_QUEUE;
	if (seq != GATE_SEQ)
		return;
	out->kind = NIC_DROP;
	atomic_store(&gate, 2);
	while (atomic_load(&gate) == 2 && sd_now_ms() < deadline)
		sched_yield();
}

struct stage_kernel {
	struct doca_gpu_eth_rxq *h;
	uint32_t want;
	atomic_uint taken;
};

/* The kernel: every frame it is given must be whole in GPU memory (check_frame). */
static void *stage_consume(void *arg)
{
	struct stage_kernel *k = arg;
	struct doca_gpu_dev_eth_rxq_attr attr[STAGE_BURST];
	uint64_t deadline = sd_now_ms() + WAIT_MS;
	uint32_t next = 0;

	while (next < k->want) {
		uint64_t first = UINT64_MAX;
		uint32_t num = 0;

		CHECK(sd_now_ms() < deadline);
		CHECK_OK(doca_gpunetio_hd_rxq_recv(k->h, STAGE_BURST, 1000000, &first, &num, attr,
						   DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
		for (uint32_t i = 0; i < num; i++)
			check_frame(k->h, first + i, next + i, attr[i].bytes);
		next += num;
		/* one more call hands the slots back (the test waits for cons before the next burst) */
		if (num > 0)
			CHECK_OK(doca_gpunetio_hd_rxq_recv(k->h, 1, 1000, &first, &num, attr,
							   DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
		CHECK_EQ(num, 0u);
		atomic_store_explicit(&k->taken, next, memory_order_release);
	}
	return NULL;
}

static void case_staged(void)
{
	struct fake_cuda fake = fake_cuda_get();
	/* slots 0..63, 64..95 + 0..31 (wraps: two copies), 32..95 */
	static const long want_copies[] = {1, 2, 1};
	struct stage_kernel k = {.want = STAGE_BURST * N_ELEMS(want_copies)};
	struct queue q = {0};
	pthread_t t;
	uint32_t seq = 0;

	sd_setenv("FAKE_CUDA_LAND_US", "50000"); /* 50 ms: a completion published before its copy lands is seen */
	open_devs("staged");
	CHECK_OK(priv_doca_nic_set_steer(dev_rx, steer_gate, NULL));
	queue_make(&q, DOCA_GPU_MEM_TYPE_GPU, STAGE_SLOTS);
	queue_start(&q);
	k.h = q.h;
	CHECK(pthread_create(&t, NULL, stage_consume, &k) == 0);
	for (size_t r = 0; r < N_ELEMS(want_copies); r++) {
		uint64_t deadline = sd_now_ms() + WAIT_MS;
		long async0, sync0;

		/* Hold the NIC's drain in the steering while the whole burst goes onto the wire. */
		send_frame(GATE_SEQ);
		while (atomic_load(&gate) != 2)
			CHECK(sd_now_ms() < deadline);
		async0 = fake.async_copies();
		sync0 = fake.copies() - async0;
		for (uint32_t i = 0; i < STAGE_BURST; i++)
			send_frame(seq++);
		atomic_store(&gate, 0);
		while (atomic_load_explicit(&k.taken, memory_order_acquire) < seq ||
		       doca_gpunetio_hd_load_acquire_u64(&q.h->cons) < seq)
			CHECK(sd_now_ms() < deadline);
		if (fake.async_copies() - async0 != want_copies[r]) {
			fprintf(stderr, "staged: burst %zu of %u frames took %ld copies, want %ld\n", r, STAGE_BURST,
				fake.async_copies() - async0, want_copies[r]);
			exit(T_EXIT_FAIL);
		}
		CHECK_EQ(fake.copies() - fake.async_copies(), sync0); /* no synchronous copy */
	}
	CHECK(pthread_join(t, NULL) == 0);
	CHECK_EQ(atomic_load(&k.taken), seq);
	CHECK_OK(priv_doca_nic_set_steer(dev_rx, NULL, NULL));
	queue_free(&q);
	close_devs();
	CHECK(unsetenv("FAKE_CUDA_LAND_US") == 0);
}

int main(void)
{
	struct doca_log_backend *be = NULL, *err_be = NULL;
	char *conf = sd_tmpfile("eth.conf", "[profile default]\neth.supported = yes\n");

	sd_setenv("SOFTDOCA_CONFIG", conf);
	sd_setenv("SOFTDOCA_SIDE", "all");
	free(conf);
	log_fd = memfd_create("gpu-rxq-log", MFD_CLOEXEC);
	CHECK(log_fd >= 0);
	CHECK_OK(doca_log_backend_create_with_fd_sdk(log_fd, &be));
	CHECK_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &err_be));
	CHECK_OK(doca_log_backend_set_sdk_level(err_be, DOCA_LOG_LEVEL_WARNING));
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DEBUG)); /* the stop lines with counts */
	CHECK_OK(doca_gpu_create(FAKE_GPU_PCI, &gpu));

	case_api();
	case_order();
	case_max();
	case_full();
	case_stop();
	case_share();
	case_proxy_api();
	case_proxy_idle();
	case_proxy_run();
	case_mem_types();
	case_mkey();
	case_lying_cons();
	case_blocking_kernel();
	case_host_memory();
	case_stop_under_kernel();
	case_staged();

	CHECK_OK(doca_gpu_destroy(gpu));
	CHECK_EQ(fake_cuda_get().live_allocations(), 0);
	printf("gpunetio eth rxq: all checks passed\n");
	return 0;
}
