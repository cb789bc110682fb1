/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_eth_txq.c - send queues on the GPU data path without a GPU: the fake CUDA runtime gives
 * the memory, CPU threads play the GPU through doca_gpunetio_dev_eth_txq.cuh compiled by the C
 * compiler (THREAD scope), and the frames go over the default topology's wire from 03:00.1 to
 * 03:00.0, where a GPU receive queue (and a collector thread playing its kernel) takes them.
 *
 *   api       capabilities, every rejection of the control path
 *   order     two posting threads, 1200 frames through a ring of 64 descriptors (it wraps
 *             many times): frames arrive in ticket order, intact; completions counted by polls
 *             (packet memory CPU_GPU: read directly; GPU: fetched through the stage)
 *   notify    only NOTIFY sends (and failures) write completions
 *   bad       a wrong mkey, a range outside the mmap, an mmap without the device, a length
 *             beyond the MTU: error completions (UNEXPECTED from the poll), the ring goes on
 *   events    without completion on the GPU: NOTIFY sends and failures as CPU events, run
 *             only by doca_pe_progress(), with position and send time; an armed handle wakes;
 *             a PE that does not progress holds the queue back (full event ring), losing nothing
 *   csum      L3/L4 offloads: the received IPv4/UDP frame has valid checksums
 *   proxy     CPU-proxy mode: nothing leaves before doca_eth_txq_gpu_cpu_proxy_progress(),
 *             then everything; the low-level prepare + submit path (nothing before the submit)
 *   sample    gpunetio_simple_send's host order (packet memory registered after the start,
 *             GPU-only), a thread looping on the proxy while a block's worth of sends goes out
 *   wait      wait-on-time: frames leave in order, none before its timestamp (the wire stamps
 *             each frame with CLOCK_REALTIME when the NIC hands it over, the clock of the check)
 *   stop      stopping the queue while a thread keeps posting: nothing is taken afterwards,
 *             what arrived is in order, and the queue starts again from position 0
 *   runaway   a doorbell 2^40 past the descriptors taken (CPU proxy): one line, nothing taken,
 *             also once the doorbell is sane again; a restart works
 *   batched   GPU-only packet memory (CPU proxy): one proxy round fetches a burst of 32 frames
 *             with one wait (cudaEventSynchronize), adjacent frames in one cudaMemcpyAsync,
 *             no cudaMemcpy, while a kernel runs on a blocking stream; the frames arrive
 *             intact (copies land 300 us late: a frame sent before the wait would carry stale
 *             bytes)
 *
 * Every case uses its own runtime directory, so its cable starts empty.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mman.h>

#include <doca_eth_rxq.h>
#include <doca_eth_rxq_gpu_data_path.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_cpu_data_path.h>
#include <doca_eth_txq_gpu_data_path.h>
#include <doca_gpunetio_dev_eth_rxq.cuh>
#include <doca_gpunetio_dev_eth_txq.cuh>
#include <doca_log.h>

#include "../fuzz/gpu_ring_seed.h"
#include "gpu_test.h"
#include "nic.h"

#define DEV_RX	  "03:00.0"
#define DEV_TX	  "03:00.1"
#define MAX_PKT	  256
#define RX_SLOTS  1024
#define NWQE	  64
#define NBUF	  64 /* frame buffers per poster: one per descriptor */
#define WAIT_MS	  30000
#define ETHERTYPE 0x88b5
#define MAX_REC	  4096
/* Frames sent but not yet collected, at most: the wire (512 slots) drops what does not fit. */
#define RX_AHEAD 256

static struct doca_gpu *gpu;
static struct doca_dev *dev_rx, *dev_tx;
static int log_fd = -1;

static uint32_t len_of(uint32_t seq)
{
	return 60 + (seq * 37) % (MAX_PKT - 60 + 1);
}

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

/* ---- the receiving side: a GPU rxq and a thread playing its kernel ---- */

struct rec {
	uint32_t seq, bytes;
	uint64_t ts;
	uint8_t intact, l3_ok, l4_ok;
};

static struct {
	struct doca_eth_rxq *rxq;
	struct doca_mmap *mmap;
	void *mem;
	struct doca_gpu_eth_rxq *h;
	pthread_t tid;
	atomic_bool stop;
	atomic_uint n;
	struct rec r[MAX_REC];
} rx;

static void *collect(void *arg)
{
	(void)arg;
	while (!atomic_load(&rx.stop)) {
		struct doca_gpu_dev_eth_rxq_attr attr[32];
		uint64_t first = 0;
		uint32_t num = 0, n = atomic_load_explicit(&rx.n, memory_order_relaxed);

		CHECK_OK(
		    doca_gpunetio_hd_rxq_recv(rx.h, 32, 1000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL));
		for (uint32_t i = 0; i < num && n < MAX_REC; i++, n++) {
			const uint8_t *p =
			    (const uint8_t *)(uintptr_t)doca_gpu_dev_eth_rxq_get_pkt_addr(rx.h, first + i);
			struct rec *r = &rx.r[n];
			uint8_t want[MAX_PKT];
			struct nic_frame_info info;

			memcpy(&r->seq, p + 14, 4);
			r->bytes = attr[i].bytes;
			r->ts = attr[i].timestamp_ns;
			r->intact = 1;
			if (p[12] == (ETHERTYPE >> 8) && p[13] == (ETHERTYPE & 0xff)) {
				make_frame(want, r->seq, len_of(r->seq));
				r->intact = r->bytes == len_of(r->seq) && memcmp(p, want, r->bytes) == 0;
			}
			CHECK(priv_doca_nic_frame_parse(p, r->bytes, &info) == 0);
			r->l3_ok = info.l3_ok;
			r->l4_ok = info.l4_ok;
		}
		atomic_store_explicit(&rx.n, n, memory_order_release);
	}
	return NULL;
}

static void rx_start(void)
{
	size_t len = (size_t)RX_SLOTS * MAX_PKT;

	CHECK_OK(doca_gpu_mem_alloc(gpu, len, 4096, DOCA_GPU_MEM_TYPE_CPU_GPU, &rx.mem, &(void *){NULL}));
	rx.mmap = sd_mmap_local(dev_rx, rx.mem, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_eth_rxq_create(dev_rx, RX_SLOTS, MAX_PKT, &rx.rxq));
	CHECK_OK(doca_eth_rxq_set_type(rx.rxq, DOCA_ETH_RXQ_TYPE_CYCLIC));
	CHECK_OK(doca_eth_rxq_set_pkt_buf(rx.rxq, rx.mmap, 0, (uint32_t)len));
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(rx.rxq), gpu));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rx.rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rx.rxq, 0));
	CHECK_OK(doca_eth_rxq_get_gpu_handle(rx.rxq, &rx.h));
	atomic_store(&rx.stop, false);
	atomic_store(&rx.n, 0);
	CHECK(pthread_create(&rx.tid, NULL, collect, NULL) == 0);
}

static void rx_stop(void)
{
	atomic_store(&rx.stop, true);
	CHECK(pthread_join(rx.tid, NULL) == 0);
	CHECK_OK(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(rx.rxq)));
	CHECK_OK(doca_eth_rxq_destroy(rx.rxq));
	CHECK_OK(doca_mmap_stop(rx.mmap));
	CHECK_OK(doca_mmap_destroy(rx.mmap));
	CHECK_OK(doca_gpu_mem_free(gpu, rx.mem));
}

static unsigned int rx_count(void)
{
	return atomic_load_explicit(&rx.n, memory_order_acquire);
}

/* Until @n frames were collected (a hang becomes a failure). */
static void rx_wait(unsigned int n)
{
	uint64_t deadline = sd_now_ms() + WAIT_MS;

	while (rx_count() < n) {
		if (sd_now_ms() >= deadline)
			fprintf(stderr, "rx_wait: %u of %u frames arrived\n", rx_count(), n);
		CHECK(sd_now_ms() < deadline);
		sched_yield();
	}
}

/* ---- the sending side ---- */

struct txq {
	struct doca_eth_txq *txq;
	struct doca_mmap *mmap;
	void *mem;    /* GPU address */
	uint8_t *cpu; /* the test's view (the fake runtime: the same memory) */
	uint32_t mkey_be;
	struct doca_gpu_eth_txq *h;
	bool device_only; /* DOCA_GPU_MEM_TYPE_GPU packet memory */
};

enum { OPT_PROXY = 1, OPT_WAIT = 2, OPT_CSUM = 4, OPT_EVENTS = 8 };

/*
 * With SOFTDOCA_DUMP_RING_DIR set: writes @q's ring as the device left it, with the walker's
 * position @next and doorbell @db, as a seed of tests/fuzz/fuzz_gpu_txq_ring (gpu_ring_seed.h);
 * @extra: a second map (mkey, base, length, flags), or NULL.
 */
static void dump_ring(const struct txq *q, const char *name, uint64_t next, uint64_t db, uint8_t mode,
		      const struct gpu_ring_seed_map *extra)
{
	const char *dir = getenv("SOFTDOCA_DUMP_RING_DIR");
	struct gpu_ring_seed s = {
	    .magic = GPU_RING_SEED_MAGIC,
	    .nslots_log2 = (uint8_t)__builtin_ctz(NWQE),
	    .mode = mode,
	    .mtu = 1500,
	    .budget = 32,
	    .next = next,
	    .doorbell = db,
	    .map = {{.mkey = ntohl(q->mkey_be),
		     .flags = SEED_MAP_READ | SEED_MAP_WRITE | (q->device_only ? SEED_MAP_DEVICE_ONLY : 0),
		     .base = (uint64_t)(uintptr_t)q->mem,
		     .len = (uint64_t)NBUF * MAX_PKT}},
	};
	struct timespec ts;
	char path[PATH_MAX];
	FILE *f;

	if (dir == NULL)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	s.now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (extra != NULL)
		s.map[1] = *extra;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	CHECK(f != NULL);
	CHECK(fwrite(&s, sizeof(s), 1, f) == 1);
	CHECK(fwrite(q->h->wqe, sizeof(*q->h->wqe), NWQE, f) == NWQE);
	CHECK(fclose(f) == 0);
}

/* OPT_EVENTS: completions as CPU events on ev.pe, counted by these handlers. */
#define EV_MAX 512
static struct {
	struct doca_pe *pe;
	unsigned int n_notify, n_err, n_bad_ud;
	struct {
		uint16_t pos;
		uint8_t err;
		uint64_t ts;
	} e[EV_MAX];
} ev;

static void on_notify(struct doca_eth_txq_gpu_event_notify_send_packet *e, union doca_data ud)
{
	unsigned int k = ev.n_notify + ev.n_err;

	ev.n_bad_ud += ud.u64 != 0x1111;
	CHECK(k < EV_MAX);
	CHECK_OK(doca_eth_txq_gpu_event_notify_send_packet_get_position(e, &ev.e[k].pos));
	CHECK_OK(doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(e, &ev.e[k].ts));
	CHECK_ERR(doca_eth_txq_gpu_event_notify_send_packet_get_position(e, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(NULL, &ev.e[k].ts), DOCA_ERROR_INVALID_VALUE);
	ev.e[k].err = 0;
	ev.n_notify++;
}

static void on_error(struct doca_eth_txq_gpu_event_error_send_packet *e, union doca_data ud)
{
	unsigned int k = ev.n_notify + ev.n_err;

	ev.n_bad_ud += ud.u64 != 0x2222;
	CHECK(k < EV_MAX);
	CHECK_OK(doca_eth_txq_gpu_event_error_send_packet_get_position(e, &ev.e[k].pos));
	CHECK_ERR(doca_eth_txq_gpu_event_error_send_packet_get_position(NULL, &ev.e[k].pos), DOCA_ERROR_INVALID_VALUE);
	ev.e[k].err = 1;
	ev.e[k].ts = 0;
	ev.n_err++;
}

/* Progresses ev.pe until @n events in all arrived (a hang becomes a failure). */
static void ev_wait(unsigned int n)
{
	uint64_t deadline = sd_now_ms() + WAIT_MS;

	while (ev.n_notify + ev.n_err < n) {
		CHECK(sd_now_ms() < deadline);
		(void)doca_pe_progress(ev.pe);
	}
}

static void open_devs(const char *name)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", sd_tmpdir(), name);
	CHECK(mkdir(dir, 0700) == 0);
	sd_setenv("XDG_RUNTIME_DIR", dir);
	dev_rx = sd_open_dev(DEV_RX);
	dev_tx = sd_open_dev(DEV_TX);
}

static void close_devs(void)
{
	CHECK_OK(doca_dev_close(dev_tx));
	CHECK_OK(doca_dev_close(dev_rx));
}

static void txq_make(struct txq *q, enum doca_gpu_mem_type mem, size_t bufs, unsigned int opts)
{
	size_t len = bufs * MAX_PKT;
	void *cpu = NULL;
	uint32_t mkey = 0;

	CHECK_OK(doca_gpu_mem_alloc(gpu, len, 4096, mem, &q->mem, mem == DOCA_GPU_MEM_TYPE_GPU ? NULL : &cpu));
	q->cpu = mem == DOCA_GPU_MEM_TYPE_GPU ? q->mem : cpu; /* the fake's GPU memory is host memory */
	q->device_only = mem == DOCA_GPU_MEM_TYPE_GPU;
	q->mmap = sd_mmap_local(dev_tx, q->mem, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_mmap_get_mkey(q->mmap, dev_tx, &mkey));
	q->mkey_be = htonl(mkey);
	CHECK_OK(doca_eth_txq_create(dev_tx, NWQE, &q->txq));
	if (opts & OPT_CSUM) {
		CHECK_OK(doca_eth_txq_set_l3_chksum_offload(q->txq, 1));
		CHECK_OK(doca_eth_txq_set_l4_chksum_offload(q->txq, 1));
	}
	if (!(opts & OPT_EVENTS))
		CHECK_OK(doca_eth_txq_gpu_set_completion_on_gpu(q->txq));
	if (opts & OPT_PROXY)
		CHECK_OK(doca_eth_txq_gpu_set_uar_on_cpu(q->txq));
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(q->txq), gpu));
	if (opts & OPT_EVENTS) {
		/* gpu_packet_processing's order: the GPU first, then the handlers and the PE */
		CHECK_OK(doca_eth_txq_gpu_event_error_send_packet_register(q->txq, on_error,
									   (union doca_data){.u64 = 0x2222}));
		CHECK_OK(doca_eth_txq_gpu_event_notify_send_packet_register(q->txq, on_notify,
									    (union doca_data){.u64 = 0x1111}));
		CHECK_OK(doca_pe_connect_ctx(ev.pe, doca_eth_txq_as_doca_ctx(q->txq)));
	}
	if (opts & OPT_WAIT)
		CHECK_OK(doca_eth_txq_set_wait_on_time_offload(q->txq));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(q->txq)));
	CHECK_OK(doca_eth_txq_apply_queue_id(q->txq, 0));
	CHECK_OK(doca_eth_txq_get_gpu_handle(q->txq, &q->h));
	CHECK(q->h != NULL);
	CHECK_EQ(q->h->nwqe, (uint32_t)NWQE);
}

static void txq_free(struct txq *q)
{
	CHECK_OK(doca_ctx_stop(doca_eth_txq_as_doca_ctx(q->txq)));
	CHECK_OK(doca_eth_txq_destroy(q->txq));
	CHECK_OK(doca_mmap_stop(q->mmap));
	CHECK_OK(doca_mmap_destroy(q->mmap));
	CHECK_OK(doca_gpu_mem_free(gpu, q->mem));
}

static uint64_t buf_addr(const struct txq *q, size_t i)
{
	return (uint64_t)(uintptr_t)q->mem + i * MAX_PKT;
}

/* Descriptors the NIC is done with. */
static uint64_t cons_of(const struct txq *q)
{
	return doca_gpunetio_hd_load_acquire_u64(&q->h->cons);
}

/* Waits (at most WAIT_MS) until the NIC has taken @n descriptors: it moves the consumer index
 * after a frame has left, so a receiver may hold the last frame a moment before it moves. */
static void cons_wait(const struct txq *q, uint64_t n)
{
	uint64_t deadline = sd_now_ms() + WAIT_MS;

	while (cons_of(q) < n) {
		if (sd_now_ms() >= deadline)
			fprintf(stderr, "cons_wait: %" PRIu64 " of %" PRIu64 " descriptors taken\n", cons_of(q), n);
		CHECK(sd_now_ms() < deadline);
		sched_yield();
	}
}

static char *log_text(void)
{
	off_t n = lseek(log_fd, 0, SEEK_END);
	char *s = calloc(1, (size_t)n + 1);

	CHECK(s != NULL);
	CHECK(pread(log_fd, s, (size_t)n, 0) == n);
	return s;
}

/* ---- api ---- */

static void case_api(void)
{
	struct doca_devinfo *info;
	struct doca_eth_txq *q;
	struct doca_gpu_eth_txq *h = NULL;
	enum doca_eth_wait_on_time_type mode = DOCA_ETH_WAIT_ON_TIME_TYPE_NONE;
	uint64_t ts = 0;
	struct doca_pe *pe;

	open_devs("api");
	info = doca_dev_as_devinfo(dev_tx);
	CHECK_OK(doca_eth_txq_cap_is_type_supported(info, DOCA_ETH_TXQ_TYPE_REGULAR, DOCA_ETH_TXQ_DATA_PATH_TYPE_GPU));
	CHECK_OK(doca_eth_txq_cap_is_type_supported(info, DOCA_ETH_TXQ_TYPE_REGULAR, DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU));
	CHECK_OK(doca_eth_txq_cap_get_wait_on_time_offload_supported(info, &mode));
	CHECK_EQ(mode, DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE);

	/* NULLs */
	CHECK_ERR(doca_eth_txq_gpu_set_completion_on_gpu(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_gpu_set_uar_on_cpu(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_gpu_cpu_proxy_progress(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_calculate_timestamp(NULL, 1, &ts), DOCA_ERROR_INVALID_VALUE);

	/* A CPU queue: no handle, no proxy, no wait-on-time at start. */
	CHECK_OK(doca_eth_txq_create(dev_tx, NWQE, &q));
	CHECK_ERR(doca_eth_txq_get_gpu_handle(q, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_get_gpu_handle(q, &h), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_eth_txq_gpu_cpu_proxy_progress(q), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_calculate_timestamp(q, 1, &ts), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_eth_txq_set_wait_on_time_offload(q));
	CHECK_OK(doca_eth_txq_calculate_timestamp(q, 123456789, &ts));
	CHECK_EQ(ts, 123456789u);
	pe = sd_pe();
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(q)));
	CHECK_ERR(doca_ctx_start(doca_eth_txq_as_doca_ctx(q)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_eth_txq_destroy(q));
	CHECK_OK(doca_eth_txq_create(dev_tx, NWQE, &q));
	CHECK_OK(doca_eth_txq_gpu_set_uar_on_cpu(q));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(q)));
	CHECK_ERR(doca_ctx_start(doca_eth_txq_as_doca_ctx(q)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_eth_txq_destroy(q));
	CHECK_OK(doca_pe_destroy(pe));

	/* A GPU queue: not with tasks; no handle before start; setters only while idle. */
	CHECK_OK(doca_eth_txq_create(dev_tx, NWQE, &q));
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(q), (struct doca_gpu *)&ts),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(q), gpu));
	CHECK_ERR(doca_eth_txq_get_gpu_handle(q, &h), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_gpu_cpu_proxy_progress(q), DOCA_ERROR_BAD_STATE); /* not a proxy queue */
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(q)));
	CHECK_OK(doca_eth_txq_get_gpu_handle(q, &h));
	CHECK(h != NULL);
	CHECK_ERR(doca_eth_txq_gpu_set_uar_on_cpu(q), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_gpu_set_completion_on_gpu(q), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_set_wait_on_time_offload(q), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_gpu_cpu_proxy_progress(q), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_BAD_STATE); /* the rings are its memory */
	CHECK_OK(doca_ctx_stop(doca_eth_txq_as_doca_ctx(q)));
	CHECK_ERR(doca_eth_txq_get_gpu_handle(q, &h), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_eth_txq_task_send_set_conf(q, (doca_eth_txq_task_send_completion_cb_t)(void (*)(void))abort,
						 (doca_eth_txq_task_send_completion_cb_t)(void (*)(void))abort, 4));
	CHECK_ERR(doca_ctx_start(doca_eth_txq_as_doca_ctx(q)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_eth_txq_destroy(q));
	close_devs();
}

/* ---- order: two posters, the ring wraps ---- */

#define ORDER_PER_POSTER 600
#define ORDER_NOTIFY	 16 /* every 16th frame of a poster asks for a completion */

struct poster {
	struct txq *q;
	uint32_t id;
	uint64_t tickets[ORDER_PER_POSTER];
	uint32_t polled;
};

static uint32_t seq_of(uint32_t id, uint32_t j)
{
	return id << 16 | j;
}

static void *post(void *arg)
{
	struct poster *p = arg;
	uint64_t deadline = sd_now_ms() + WAIT_MS;

	for (uint32_t j = 0; j < ORDER_PER_POSTER; j++) {
		size_t b = (size_t)p->id * NBUF + j % NBUF;
		uint32_t seq = seq_of(p->id, j), num = 0;
		uint32_t flags = (j + 1) % ORDER_NOTIFY == 0 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : 0;

		/* The buffer's last frame has left; and the receiver keeps up (the wire: no drop). */
		while ((j >= NBUF && cons_of(p->q) <= p->tickets[j - NBUF]) || cons_of(p->q) >= rx_count() + RX_AHEAD) {
			CHECK(sd_now_ms() < deadline);
			sched_yield();
		}
		make_frame(p->q->cpu + b * MAX_PKT, seq, len_of(seq));
		CHECK_OK(doca_gpunetio_hd_txq_send(p->q->h, buf_addr(p->q, b), p->q->mkey_be, len_of(seq), flags,
						   &p->tickets[j]));
		if (flags) {
			CHECK_OK(doca_gpunetio_hd_txq_poll(p->q->h, 1, 1, 1, &num));
			CHECK_EQ(num, 1u);
			p->polled++;
		}
	}
	return NULL;
}

static void run_order(enum doca_gpu_mem_type mem, const char *dir)
{
	static struct poster ps[2];
	static uint32_t by_ticket[2 * ORDER_PER_POSTER];
	struct txq q = {0};
	pthread_t t[2];
	uint32_t n = 0;

	open_devs(dir);
	rx_start();
	txq_make(&q, mem, 2 * NBUF, 0);
	for (uint32_t i = 0; i < 2; i++) {
		ps[i] = (struct poster){.q = &q, .id = i};
		CHECK(pthread_create(&t[i], NULL, post, &ps[i]) == 0);
	}
	for (uint32_t i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	rx_wait(2 * ORDER_PER_POSTER);
	/* Tickets are positions: every one once, and the frames arrived in ticket order. */
	memset(by_ticket, 0xff, sizeof(by_ticket));
	for (uint32_t i = 0; i < 2; i++) {
		CHECK_EQ(ps[i].polled, (uint32_t)(ORDER_PER_POSTER / ORDER_NOTIFY));
		for (uint32_t j = 0; j < ORDER_PER_POSTER; j++) {
			CHECK(ps[i].tickets[j] < 2 * ORDER_PER_POSTER);
			CHECK_EQ(by_ticket[ps[i].tickets[j]], UINT32_MAX);
			by_ticket[ps[i].tickets[j]] = seq_of(i, j);
			if (j > 0)
				CHECK(ps[i].tickets[j] > ps[i].tickets[j - 1]);
		}
	}
	CHECK_EQ(rx_count(), 2u * ORDER_PER_POSTER);
	for (uint32_t k = 0; k < 2 * ORDER_PER_POSTER; k++) {
		CHECK_EQ(rx.r[k].seq, by_ticket[k]);
		CHECK(rx.r[k].intact);
		n++;
	}
	CHECK_EQ(n, 2u * ORDER_PER_POSTER);
	cons_wait(&q, 2 * ORDER_PER_POSTER);
	CHECK_EQ(cons_of(&q), (uint64_t)(2 * ORDER_PER_POSTER)); /* wrapped 1200 / 64 times */
	{
		/* The NIC's line for the packet memory's mkey names the way frames leave it. */
		char *log = log_text(), *last = NULL;
		const char *way = mem == DOCA_GPU_MEM_TYPE_GPU ? "GPU-only memory" : "CPU-addressable memory";

		for (char *p = strstr(log, " is mmap "); p != NULL; p = strstr(p + 1, " is mmap "))
			last = p;
		CHECK(last != NULL && strstr(last, way) != NULL);
		free(log);
	}
	txq_free(&q);
	rx_stop();
	close_devs();
}

static void case_order(void)
{
	run_order(DOCA_GPU_MEM_TYPE_CPU_GPU, "order-cpu-gpu");
	run_order(DOCA_GPU_MEM_TYPE_GPU, "order-gpu");
}

/* ---- notify: completions only where asked ---- */

static void send_one(struct txq *q, size_t b, uint32_t seq, uint32_t flags, uint64_t *ticket)
{
	make_frame(q->cpu + b * MAX_PKT, seq, len_of(seq));
	CHECK_OK(doca_gpunetio_hd_txq_send(q->h, buf_addr(q, b), q->mkey_be, len_of(seq), flags, ticket));
}

static void case_notify(void)
{
	struct txq q = {0};
	uint64_t ticket = 0;
	uint32_t num = 7;
	doca_error_t st = DOCA_ERROR_UNKNOWN;

	open_devs("notify");
	rx_start();
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, 0);
	for (uint32_t i = 0; i < 10; i++)
		send_one(&q, i, i, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, NULL);
	send_one(&q, 10, 10, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, &ticket);
	CHECK_EQ(ticket, 10u);
	CHECK_OK(doca_gpunetio_hd_txq_poll(q.h, 1, 0, 1, &num));
	CHECK_EQ(num, 1u);
	rx_wait(11);
	/* One completion, for position 10; the next one is not written. */
	CHECK_EQ(q.h->cqe[0].wqe_idx, 10u);
	CHECK_EQ(q.h->cqe[0].status, (uint32_t)DOCA_SUCCESS);
	CHECK(!doca_gpunetio_hd_txq_cqe_ready(q.h, 1, &st));
	CHECK_ERR(doca_gpunetio_hd_txq_poll_at(q.h, 1, 0), DOCA_ERROR_AGAIN);
	CHECK_OK(doca_gpunetio_hd_txq_poll_at(q.h, 0, 0)); /* still readable, not taken */
	/* A non-blocking poll takes the position but reports nothing written. */
	CHECK_OK(doca_gpunetio_hd_txq_poll(q.h, 1, 0, 0, &num));
	CHECK_EQ(num, 0u);
	send_one(&q, 11, 11, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL);
	CHECK_OK(doca_gpunetio_hd_txq_poll_at(q.h, 1, 1));
	CHECK_EQ(q.h->cqe[1].wqe_idx, 11u);
	rx_wait(12);
	for (uint32_t i = 0; i < 12; i++) {
		CHECK_EQ(rx.r[i].seq, i);
		CHECK(rx.r[i].intact);
	}
	CHECK_ERR(doca_gpunetio_hd_txq_poll(q.h, 0, 0, 0, &num), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpunetio_hd_txq_send(NULL, 0, 0, 0, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	txq_free(&q);
	rx_stop();
	close_devs();
}

/* ---- bad descriptors ---- */

static void case_bad(void)
{
	struct txq q = {0};
	struct doca_mmap *other;
	void *other_mem = NULL;
	uint32_t other_mkey = 0, num = 0;
	uint64_t t = 0;
	char *log;
	static const struct {
		uint32_t status;
		const char *line;
	} want[] = {
	    {DOCA_ERROR_INVALID_VALUE, "names no started mmap"},
	    {DOCA_ERROR_INVALID_VALUE, "is outside mmap"},
	    {DOCA_ERROR_NOT_PERMITTED, "does not include the queue's device"},
	    {DOCA_ERROR_INVALID_VALUE, "the port sends 14.."},
	};

	open_devs("bad");
	rx_start();
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, 0);
	CHECK_OK(doca_gpu_mem_alloc(gpu, 4096, 4096, DOCA_GPU_MEM_TYPE_CPU_GPU, &other_mem, &(void *){NULL}));
	other = sd_mmap_local(dev_rx, other_mem, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE); /* not dev_tx's */
	CHECK_OK(doca_mmap_get_mkey(other, dev_rx, &other_mkey));
	make_frame(q.cpu, 0, 100);
	make_frame(q.cpu + MAX_PKT, 1, 100);
	make_frame(other_mem, 2, 100);
	/* good, wrong mkey, outside the range, an mmap without the device, too long, good */
	CHECK_OK(doca_gpunetio_hd_txq_send(q.h, buf_addr(&q, 0), q.mkey_be, 100, 0, NULL));
	CHECK_OK(doca_gpunetio_hd_txq_send(q.h, buf_addr(&q, 1), q.mkey_be ^ htonl(0x5a5a), 100, 0, NULL));
	CHECK_OK(doca_gpunetio_hd_txq_send(q.h, buf_addr(&q, NBUF), q.mkey_be, 100, 0, NULL));
	CHECK_OK(doca_gpunetio_hd_txq_send(q.h, (uint64_t)(uintptr_t)other_mem, htonl(other_mkey), 100, 0, NULL));
	CHECK_OK(doca_gpunetio_hd_txq_send(q.h, buf_addr(&q, 1), q.mkey_be, 20000, 0, NULL));
	CHECK_OK(
	    doca_gpunetio_hd_txq_send(q.h, buf_addr(&q, 1), q.mkey_be, 100, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, &t));
	CHECK_EQ(t, 5u);
	/* Five completions: four failures (UNEXPECTED), then the NOTIFY send. */
	CHECK_ERR(doca_gpunetio_hd_txq_poll(q.h, 5, 1, 1, &num), DOCA_ERROR_UNEXPECTED);
	CHECK_EQ(num, 5u);
	for (uint32_t i = 0; i < 4; i++) {
		CHECK_EQ(q.h->cqe[i].wqe_idx, (uint64_t)(i + 1));
		CHECK_EQ(q.h->cqe[i].status, want[i].status);
	}
	CHECK_EQ(q.h->cqe[4].wqe_idx, 5u);
	CHECK_EQ(q.h->cqe[4].status, (uint32_t)DOCA_SUCCESS);
	CHECK_ERR(doca_gpunetio_hd_txq_poll_at(q.h, 0, 1), DOCA_ERROR_UNEXPECTED);
	rx_wait(2);
	CHECK_EQ(rx.r[0].seq, 0u);
	CHECK_EQ(rx.r[1].seq, 1u);
	cons_wait(&q, 6); /* the NOTIFY's completion is written before the index moves */
	CHECK_EQ(cons_of(&q), 6u);
	dump_ring(&q, "bad", 0, 6, 0,
		  &(struct gpu_ring_seed_map){.mkey = other_mkey, .base = (uint64_t)(uintptr_t)other_mem, .len = 4096});
	dump_ring(&q, "bad-rewrite", 0, 6, SEED_MODE_REWRITE, NULL);
	log = log_text();
	for (uint32_t i = 0; i < N_ELEMS(want); i++)
		CHECK(strstr(log, want[i].line) != NULL);
	free(log);
	txq_free(&q);
	rx_stop();
	CHECK_EQ(rx_count(), 2u); /* nothing else left */
	CHECK_OK(doca_mmap_stop(other));
	CHECK_OK(doca_mmap_destroy(other));
	CHECK_OK(doca_gpu_mem_free(gpu, other_mem));
	close_devs();
}

/* ---- events: completions as CPU events, delivered by doca_pe_progress() ---- */

static uint64_t realtime_ns(void);

static void case_events(void)
{
	struct txq q = {0};
	struct doca_eth_txq *cq;
	uint64_t t0, t1, cons;
	doca_notification_handle_t fd = -1;
	char *log;

	open_devs("events");
	rx_start();
	memset(&ev, 0, sizeof(ev));
	ev.pe = sd_pe();
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, OPT_EVENTS);
	CHECK_ERR(doca_eth_txq_gpu_event_notify_send_packet_register(q.txq, on_notify, (union doca_data){0}),
		  DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_gpu_event_error_send_packet_register(q.txq, on_error, (union doca_data){0}),
		  DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_gpu_set_sq_mem_type(q.txq, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_BAD_STATE);

	/* 10 plain sends, a NOTIFY at 10, a bad mkey at 11, a NOTIFY at 12 */
	t0 = realtime_ns();
	for (uint32_t i = 0; i < 10; i++)
		send_one(&q, i, i, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, NULL);
	send_one(&q, 10, 10, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL);
	make_frame(q.cpu + 11 * MAX_PKT, 11, 100);
	CHECK_OK(doca_gpunetio_hd_txq_send(q.h, buf_addr(&q, 11), q.mkey_be ^ htonl(0x77), 100, 0, NULL));
	send_one(&q, 12, 12, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL);
	rx_wait(12);
	while (cons_of(&q) < 13)
		sched_yield();
	t1 = realtime_ns();
	/* Nothing runs outside doca_pe_progress(), and nothing went to the GPU's ring. */
	CHECK_EQ(ev.n_notify + ev.n_err, 0u);
	CHECK_EQ(q.h->cqe[0].seq, 0u);
	ev_wait(3);
	CHECK_EQ(ev.n_notify, 2u);
	CHECK_EQ(ev.n_err, 1u);
	CHECK_EQ(ev.n_bad_ud, 0u);
	CHECK(ev.e[0].pos == 10 && !ev.e[0].err);
	CHECK(ev.e[1].pos == 11 && ev.e[1].err);
	CHECK(ev.e[2].pos == 12 && !ev.e[2].err);
	CHECK(ev.e[0].ts >= t0 && ev.e[0].ts <= ev.e[2].ts && ev.e[2].ts <= t1);
	CHECK_EQ(q.h->cqe[0].seq, 0u);
	for (uint32_t i = 0; i < 10; i++)
		CHECK_EQ(rx.r[i].seq, i);
	CHECK_EQ(rx.r[10].seq, 10u);
	CHECK_EQ(rx.r[11].seq, 12u);

	/* An armed notification handle wakes for an event. */
	CHECK_OK(doca_pe_get_notification_handle(ev.pe, &fd));
	CHECK_OK(doca_pe_request_notification(ev.pe));
	send_one(&q, 13, 13, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL);
	CHECK(poll(&(struct pollfd){.fd = fd, .events = POLLIN}, 1, WAIT_MS) == 1);
	CHECK_OK(doca_pe_clear_notification(ev.pe, 0));
	ev_wait(4);
	CHECK(ev.e[3].pos == 13 && !ev.e[3].err);
	rx_wait(13);
	/* Arming while an event waits: the handle is readable at once. */
	send_one(&q, 14, 14, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL);
	while (cons_of(&q) < 15)
		sched_yield();
	CHECK_OK(doca_pe_request_notification(ev.pe));
	CHECK(poll(&(struct pollfd){.fd = fd, .events = POLLIN}, 1, 0) == 1);
	CHECK_OK(doca_pe_clear_notification(ev.pe, 0));
	ev_wait(5);
	CHECK(ev.e[4].pos == 14 && !ev.e[4].err);
	rx_wait(14);

	/*
	 * A PE that does not progress holds the queue back, losing nothing: a full lap of NOTIFY
	 * sends fills the event ring (NWQE entries), the next descriptor waits.
	 */
	cons = cons_of(&q);
	CHECK_EQ(cons, 15u);
	for (uint32_t i = 0; i < NWQE; i++) {
		while (cons_of(&q) + NWQE <= 15 + i) /* its slot is free */
			sched_yield();
		send_one(&q, i % NBUF, 15 + i, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL);
	}
	while (cons_of(&q) < 15 + NWQE)
		sched_yield();
	send_one(&q, 0, 15 + NWQE, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL);
	usleep(20000);
	CHECK_EQ(cons_of(&q), (uint64_t)(15 + NWQE)); /* not taken: the ring of events is full */
	ev_wait(5 + NWQE + 1);
	CHECK_EQ(ev.n_err, 1u);
	for (uint32_t i = 0; i <= NWQE; i++)
		CHECK_EQ(ev.e[5 + i].pos, (uint16_t)(15 + i));
	rx_wait(14 + NWQE + 1); /* every frame but the bad one (11) */
	CHECK_EQ(rx_count(), 14u + NWQE + 1);
	for (uint32_t i = 0; i <= NWQE; i++)
		CHECK_EQ(rx.r[14 + i].seq, 15 + i);
	txq_free(&q);

	/* The other order (PE first, then the GPU) works too; every memory type is accepted. */
	CHECK_OK(doca_eth_txq_create(dev_tx, NWQE, &cq));
	CHECK_ERR(doca_eth_txq_gpu_set_sq_mem_type(NULL, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_gpu_set_sq_mem_type(cq, (enum doca_gpu_mem_type)7), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_txq_gpu_set_sq_mem_type(cq, DOCA_GPU_MEM_TYPE_GPU_CPU));
	CHECK_OK(doca_eth_txq_gpu_set_sq_mem_type(cq, DOCA_GPU_MEM_TYPE_CPU_GPU));
	CHECK_ERR(doca_eth_txq_gpu_event_notify_send_packet_register(cq, NULL, (union doca_data){0}),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_gpu_event_error_send_packet_register(NULL, on_error, (union doca_data){0}),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_txq_gpu_event_notify_send_packet_register(cq, on_notify, (union doca_data){.u64 = 0x1111}));
	/* A CPU queue with GPU handlers does not start. */
	CHECK_OK(doca_pe_connect_ctx(ev.pe, doca_eth_txq_as_doca_ctx(cq)));
	CHECK_ERR(doca_ctx_start(doca_eth_txq_as_doca_ctx(cq)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(cq), gpu));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(cq)));
	CHECK_OK(doca_ctx_stop(doca_eth_txq_as_doca_ctx(cq)));
	CHECK_OK(doca_eth_txq_destroy(cq));
	log = log_text();
	CHECK(strstr(log, "(DOCA_GPU_MEM_TYPE_CPU_GPU asked)") != NULL);
	CHECK(strstr(log, "GPU send event handlers") != NULL);
	free(log);

	/* Handlers on a GPU queue without a PE: refused at start. */
	CHECK_OK(doca_eth_txq_create(dev_tx, NWQE, &cq));
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(cq), gpu));
	CHECK_OK(doca_eth_txq_gpu_event_error_send_packet_register(cq, on_error, (union doca_data){.u64 = 0x2222}));
	CHECK_ERR(doca_ctx_start(doca_eth_txq_as_doca_ctx(cq)), DOCA_ERROR_NOT_CONNECTED);
	/* With completion on the GPU, the handlers never run (a warning says so). */
	CHECK_OK(doca_eth_txq_gpu_set_completion_on_gpu(cq));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(cq)));
	CHECK_OK(doca_ctx_stop(doca_eth_txq_as_doca_ctx(cq)));
	CHECK_OK(doca_eth_txq_destroy(cq));
	log = log_text();
	CHECK(strstr(log, "has send event handlers but no progress engine") != NULL);
	CHECK(strstr(log, "so its send event handlers will not run") != NULL);
	free(log);
	CHECK_OK(doca_pe_destroy(ev.pe));
	rx_stop();
	close_devs();
}

/* ---- checksum offloads ---- */

static void case_csum(void)
{
	struct txq q = {0};
	uint8_t *f;
	uint32_t num = 0;

	open_devs("csum");
	rx_start();
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, OPT_CSUM);
	/* IPv4 / UDP with both checksums left 0xdead (wrong), 64 bytes of payload */
	f = q.cpu;
	memset(f, 0, MAX_PKT);
	memset(f, 0xff, 6);
	memcpy(f + 6, (uint8_t[]){2, 0, 0, 0, 0, 1}, 6);
	f[12] = 0x08;
	f[14] = 0x45;
	f[17] = 20 + 8 + 64; /* total length */
	f[22] = 64;	     /* TTL */
	f[23] = 17;	     /* UDP */
	f[24] = 0xde, f[25] = 0xad;
	memcpy(f + 26, (uint8_t[]){10, 0, 0, 1, 10, 0, 0, 2}, 8);
	f[35] = 7, f[37] = 9; /* ports */
	f[39] = 8 + 64;
	f[40] = 0xde, f[41] = 0xad;
	for (int i = 0; i < 64; i++)
		f[42 + i] = (uint8_t)i;
	CHECK_OK(doca_gpunetio_hd_txq_send(q.h, buf_addr(&q, 0), q.mkey_be, 14 + 20 + 8 + 64,
					   DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL));
	CHECK_OK(doca_gpunetio_hd_txq_poll(q.h, 1, 0, 1, &num));
	rx_wait(1);
	CHECK_EQ(rx.r[0].bytes, 14u + 20 + 8 + 64);
	CHECK_EQ(rx.r[0].l3_ok, 1);
	CHECK_EQ(rx.r[0].l4_ok, 1);
	CHECK(f[24] == 0xde && f[25] == 0xad); /* the application's bytes are not touched */
	txq_free(&q);
	rx_stop();
	close_devs();
}

/* ---- CPU proxy ---- */

static void case_proxy(void)
{
	struct txq q = {0}, other = {0};
	uint32_t num = 0;
	uint64_t deadline;

	open_devs("proxy");
	rx_start();
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, OPT_PROXY);
	txq_make(&other, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, 0); /* on the port's send thread */
	CHECK_EQ(q.h->nic_handler, (uint32_t)DOCA_GPUNETIO_ETH_NIC_HANDLER_CPU_PROXY);
	CHECK_EQ(other.h->nic_handler, (uint32_t)DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO);
	for (uint32_t i = 0; i < 20; i++)
		send_one(&q, i, i, i == 19 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : 0, NULL);
	/*
	 * Nobody walks a proxy queue but the application: the port's send thread sends one frame
	 * of the other queue, then a second one; the round that took the second began after the
	 * first had left, i.e. after the proxy queue's frames were posted, and left them alone.
	 */
	dump_ring(&q, "proxy-20", 0, doca_gpunetio_hd_load_acquire_u64(&q.h->doorbell), 0, NULL);
	dump_ring(&q, "proxy-20-full", 0, doca_gpunetio_hd_load_acquire_u64(&q.h->doorbell),
		  SEED_MODE_FULL_MEDIUM | SEED_MODE_NO_ROOM, NULL);
	send_one(&other, 0, 1000, 0, NULL);
	rx_wait(1);
	send_one(&other, 1, 1001, 0, NULL);
	rx_wait(2);
	CHECK_OK(doca_gpunetio_hd_txq_poll(q.h, 1, 1, 0, &num));
	CHECK_EQ(num, 0u);
	CHECK_EQ(cons_of(&q), 0u);
	CHECK_EQ(rx_count(), 2u);
	CHECK_EQ(rx.r[0].seq, 1000u);
	CHECK_EQ(rx.r[1].seq, 1001u);
	CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(q.txq));
	CHECK_EQ(cons_of(&q), 20u);
	CHECK_OK(doca_gpunetio_hd_txq_poll_at(q.h, 0, 0));
	CHECK_EQ(q.h->cqe[0].wqe_idx, 19u);
	rx_wait(22);

	/* Low level: prepared descriptors wait for the submit. */
	for (uint16_t i = 20; i < 28; i++) {
		make_frame(q.cpu + (size_t)i * MAX_PKT, i, len_of(i));
		CHECK_OK(doca_gpu_dev_eth_txq_wqe_prepare_send(
		    q.h, doca_gpu_dev_eth_txq_get_wqe_ptr(q.h, i), i, buf_addr(&q, i), q.mkey_be, len_of(i),
		    i == 27 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE));
	}
	CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(q.txq));
	CHECK_EQ(cons_of(&q), 20u);
	dump_ring(&q, "proxy-prepared", 20, 24, 0, NULL);
	doca_gpunetio_hd_txq_submit(q.h, 24);
	CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(q.txq));
	CHECK_EQ(cons_of(&q), 24u);
	doca_gpunetio_hd_txq_submit(q.h, 28);
	deadline = sd_now_ms() + WAIT_MS;
	while (doca_gpunetio_hd_txq_poll_at(q.h, 1, 0) != DOCA_SUCCESS) {
		CHECK(sd_now_ms() < deadline);
		CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(q.txq));
	}
	CHECK_EQ(q.h->cqe[1].wqe_idx, 27u);
	rx_wait(30);
	for (uint32_t i = 0; i < 28; i++) {
		CHECK_EQ(rx.r[i + 2].seq, i);
		CHECK(rx.r[i + 2].intact);
	}
	txq_free(&other);
	txq_free(&q);
	CHECK_EQ(rx_count(), 30u);
	rx_stop();
	close_devs();
}

/* ---- the samples' order: packet memory after the start, a proxy thread ---- */

struct proxy_loop {
	struct doca_eth_txq *txq;
	atomic_bool quit;
};

static void *proxy_run(void *arg)
{
	struct proxy_loop *l = arg;

	while (!atomic_load(&l->quit))
		CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(l->txq));
	return NULL;
}

static void case_sample(void)
{
	struct proxy_loop l = {0};
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_mmap *mmap;
	void *mem = NULL;
	uint32_t mkey = 0, num = 0;
	pthread_t t;

	open_devs("sample");
	rx_start();
	/* gpunetio_simple_send's host calls, in its order */
	CHECK_OK(doca_eth_txq_create(dev_tx, 8192, &l.txq));
	CHECK_OK(doca_eth_txq_set_l3_chksum_offload(l.txq, 1));
	CHECK_OK(doca_eth_txq_set_l4_chksum_offload(l.txq, 1));
	CHECK_OK(doca_eth_txq_gpu_set_completion_on_gpu(l.txq));
	CHECK_OK(doca_eth_txq_gpu_set_uar_on_cpu(l.txq));
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(l.txq), gpu));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(l.txq)));
	CHECK_OK(doca_eth_txq_apply_queue_id(l.txq, 0));
	CHECK_OK(doca_eth_txq_get_gpu_handle(l.txq, &h));
	CHECK_EQ(h->nwqe, 8192u);
	CHECK_OK(doca_gpu_mem_alloc(gpu, 64 * MAX_PKT, 4096, DOCA_GPU_MEM_TYPE_GPU, &mem, NULL));
	mmap = sd_mmap_local(dev_tx, mem, 64 * MAX_PKT, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_mmap_get_mkey(mmap, dev_tx, &mkey));
	CHECK(pthread_create(&t, NULL, proxy_run, &l) == 0);
	/* A block of 64 threads, one of them asking for the completion; four rounds. */
	for (uint32_t round = 0; round < 4; round++) {
		for (uint32_t i = 0; i < 64; i++) {
			uint32_t seq = round * 64 + i;

			make_frame((uint8_t *)mem + (size_t)i * MAX_PKT, seq, len_of(seq));
			CHECK_OK(doca_gpunetio_hd_txq_send(h, (uint64_t)(uintptr_t)mem + (size_t)i * MAX_PKT,
							   htonl(mkey), len_of(seq),
							   i == 63 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : 0, NULL));
		}
		CHECK_OK(doca_gpunetio_hd_txq_poll(h, 1, 1, 1, &num));
		CHECK_EQ(num, 1u);
		rx_wait((round + 1) * 64); /* the buffers are rewritten next round */
	}
	atomic_store(&l.quit, true);
	CHECK(pthread_join(t, NULL) == 0);
	for (uint32_t k = 0; k < 256; k++) {
		CHECK_EQ(rx.r[k].seq, k);
		CHECK(rx.r[k].intact);
	}
	CHECK_OK(doca_ctx_stop(doca_eth_txq_as_doca_ctx(l.txq)));
	CHECK_OK(doca_eth_txq_destroy(l.txq));
	CHECK_OK(doca_mmap_stop(mmap));
	CHECK_OK(doca_mmap_destroy(mmap));
	CHECK_OK(doca_gpu_mem_free(gpu, mem));
	rx_stop();
	close_devs();
}

/* ---- wait-on-time ---- */

#define WAIT_BURSTS 5
#define WAIT_FRAMES 4

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void case_wait(void)
{
	struct txq q = {0};
	uint64_t due[WAIT_BURSTS * WAIT_FRAMES + 1], base = realtime_ns() + 5000000, t, ts;
	uint32_t num = 0, n = 0;

	open_devs("wait");
	rx_start();
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, OPT_WAIT);
	/* Bursts 2 ms apart, given in reverse time order within each burst: the ring order wins. */
	for (uint32_t b = 0; b < WAIT_BURSTS; b++) {
		for (uint32_t i = 0; i < WAIT_FRAMES; i++, n++) {
			CHECK_OK(doca_eth_txq_calculate_timestamp(
			    q.txq, base + b * 2000000 + (WAIT_FRAMES - i) * 100000, &ts));
			due[n] = ts;
			make_frame(q.cpu + (size_t)n * MAX_PKT, n, len_of(n));
			CHECK_OK(doca_gpunetio_hd_txq_wait_send(
			    q.h, ts, buf_addr(&q, n), q.mkey_be, len_of(n),
			    i == WAIT_FRAMES - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : 0, &t));
			CHECK_EQ(t, 2u * n + 1); /* behind its wait descriptor */
		}
	}
	/* One plain send behind them all: it waits for the last wait too. */
	make_frame(q.cpu + (size_t)n * MAX_PKT, n, len_of(n));
	due[n] = due[n - 1];
	CHECK_OK(doca_gpunetio_hd_txq_send(q.h, buf_addr(&q, n), q.mkey_be, len_of(n),
					   DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, NULL));
	n++;
	CHECK_OK(doca_gpunetio_hd_txq_poll(q.h, WAIT_BURSTS + 1, 1, 1, &num));
	CHECK_EQ(num, (uint32_t)WAIT_BURSTS + 1);
	rx_wait(n);
	dump_ring(&q, "wait", 0, doca_gpunetio_hd_load_acquire_u64(&q.h->doorbell), 0, NULL);
	for (uint32_t k = 0; k < n; k++) {
		uint64_t need = due[k];

		/* No frame before its own wait, nor before any wait ahead of it in the ring. */
		for (uint32_t j = 0; j < k; j++)
			need = due[j] > need ? due[j] : need;
		CHECK_EQ(rx.r[k].seq, k);
		CHECK(rx.r[k].intact);
		if (rx.r[k].ts < need)
			sd_die_at(__FILE__, __LINE__, "frame %u left at %llu, before %llu", k,
				  (unsigned long long)rx.r[k].ts, (unsigned long long)need);
	}
	txq_free(&q);
	rx_stop();
	close_devs();
}

/* ---- stop while a thread keeps posting ---- */

struct stop_poster {
	struct txq *q;
	atomic_bool quit;
	atomic_uint posted;
};

static void *post_until_quit(void *arg)
{
	struct stop_poster *s = arg;
	uint32_t j = 0;

	while (!atomic_load(&s->quit)) {
		uint64_t pos;

		/* Non-blocking reservation: after the stop nothing frees a slot. The wire: no drop. */
		if (cons_of(s->q) >= rx_count() + RX_AHEAD ||
		    doca_gpunetio_hd_txq_reserve(s->q->h, 1, &pos) != DOCA_SUCCESS) {
			sched_yield();
			continue;
		}
		/* Position pos reuses buffer pos % NBUF, whose last frame left (its slot is free). */
		make_frame(s->q->cpu + (size_t)(pos % NBUF) * MAX_PKT, (uint32_t)pos, len_of((uint32_t)pos));
		doca_gpunetio_hd_txq_write_send(s->q->h, pos, buf_addr(s->q, pos % NBUF), s->q->mkey_be,
						len_of((uint32_t)pos), 0, 0, 0, DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB);
		atomic_store(&s->posted, ++j);
	}
	return NULL;
}

static void case_stop(void)
{
	struct stop_poster s = {0};
	struct txq q = {0};
	pthread_t t;
	uint64_t cons, deadline = sd_now_ms() + WAIT_MS;
	unsigned int got, posted;

	open_devs("stop");
	rx_start();
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, 0);
	s.q = &q;
	CHECK(pthread_create(&t, NULL, post_until_quit, &s) == 0);
	while (rx_count() < 200) {
		CHECK(sd_now_ms() < deadline);
		sched_yield();
	}
	CHECK_OK(doca_ctx_stop(doca_eth_txq_as_doca_ctx(q.txq)));
	cons = cons_of(&q);
	/* The poster goes on until the ring is full: nothing takes its descriptors any more. */
	while (atomic_load(&s.posted) < cons + NWQE) {
		CHECK(sd_now_ms() < deadline);
		sched_yield();
	}
	CHECK_EQ(cons_of(&q), cons);
	atomic_store(&s.quit, true);
	CHECK(pthread_join(t, NULL) == 0);
	posted = atomic_load(&s.posted);
	CHECK_EQ(posted, (unsigned)cons + NWQE);
	rx_wait((unsigned)cons);
	got = rx_count();
	CHECK_EQ(got, (unsigned)cons);
	for (unsigned int k = 0; k < got; k++) {
		CHECK_EQ(rx.r[k].seq, k);
		CHECK(rx.r[k].intact);
	}
	{
		char *log = log_text();

		CHECK(strstr(log, "frames sent") != NULL);
		free(log);
	}
	/* Started again: a new ring from position 0. */
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(q.txq)));
	CHECK_OK(doca_eth_txq_get_gpu_handle(q.txq, &q.h));
	CHECK_EQ(cons_of(&q), 0u);
	for (uint32_t i = 0; i < 5; i++)
		send_one(&q, i, got + i, i == 4 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : 0, NULL);
	CHECK_OK(doca_gpunetio_hd_txq_poll(q.h, 1, 1, 1, &(uint32_t){0}));
	rx_wait(got + 5);
	for (unsigned int k = got; k < got + 5; k++)
		CHECK_EQ(rx.r[k].seq, k);
	txq_free(&q);
	rx_stop();
	close_devs();
}

/* ---- a doorbell more than a ring ahead ---- */

static unsigned int count_of(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (const char *p = strstr(hay, needle); p != NULL; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void case_runaway(void)
{
	struct txq q = {0};
	char *log;

	open_devs("runaway");
	rx_start();
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, OPT_PROXY);
	/* Two well-formed descriptors, then a doorbell 2^40 past them: slots the NIC never released. */
	for (uint16_t i = 0; i < 2; i++) {
		make_frame(q.cpu + (size_t)i * MAX_PKT, i, len_of(i));
		CHECK_OK(doca_gpu_dev_eth_txq_wqe_prepare_send(q.h, doca_gpu_dev_eth_txq_get_wqe_ptr(q.h, i), i,
							       buf_addr(&q, i), q.mkey_be, len_of(i),
							       DOCA_GPUNETIO_ETH_SEND_FLAG_NONE));
	}
	doca_gpunetio_hd_txq_submit(q.h, 1ull << 40);
	dump_ring(&q, "runaway", 0, 1ull << 40, 0, NULL);
	for (int i = 0; i < 4; i++)
		CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(q.txq));
	CHECK_EQ(cons_of(&q), 0u); /* nothing taken */
	/* Back to a sane doorbell: the queue stays failed until it is restarted. */
	doca_gpunetio_hd_txq_submit(q.h, 2);
	CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(q.txq));
	CHECK_EQ(cons_of(&q), 0u);
	txq_free(&q);
	log = log_text();
	if (count_of(log, "rang the send doorbell at 1099511627776 with 0 descriptors taken, more than the ring's 64 "
			  "ahead") != 1) {
		fprintf(stderr, "want one line naming the doorbell; the log:\n%s\n", log);
		CHECK(false);
	}
	free(log);
	CHECK_EQ(rx_count(), 0u);
	/* A restart starts afresh. */
	txq_make(&q, DOCA_GPU_MEM_TYPE_CPU_GPU, NBUF, 0);
	send_one(&q, 0, 7, 0, NULL);
	cons_wait(&q, 1);
	rx_wait(1);
	CHECK_EQ(rx.r[0].seq, 7u);
	txq_free(&q);
	rx_stop();
	close_devs();
}

/* ---- batched: GPU-only frames fetched a burst at a time ---- */

static void case_batched(void)
{
	struct fake_cuda fake = fake_cuda_get();
	struct txq q = {0};
	uint32_t seq = 0;
	unsigned int got = 0;

	open_devs("batched");
	rx_start();
	txq_make(&q, DOCA_GPU_MEM_TYPE_GPU, NBUF, OPT_PROXY);
	fake.kernel_begin(0); /* a persistent kernel on a blocking stream: the fetches must not wait for it */
	for (int round = 0; round < 2; round++) {
		long c0 = fake.copies(), a0 = fake.async_copies(), w0 = fake.waits();
		size_t off = 0;

		/* Round 0: 32 frames back to back in GPU memory; round 1: one per 256-byte buffer. */
		for (uint32_t i = 0; i < 32; i++, seq++) {
			if (round == 1)
				off = (size_t)i * MAX_PKT;
			make_frame(q.cpu + off, seq, len_of(seq));
			CHECK_OK(doca_gpunetio_hd_txq_send(q.h, (uint64_t)(uintptr_t)q.mem + off, q.mkey_be,
							   len_of(seq), 0, NULL));
			off += len_of(seq);
		}
		dump_ring(&q, round == 0 ? "batched-adjacent" : "batched-apart", seq - 32, seq, SEED_MODE_STAGED, NULL);
		dump_ring(&q, round == 0 ? "batched-adjacent-full" : "batched-apart-full", seq - 32, seq,
			  SEED_MODE_STAGED | SEED_MODE_FULL_MEDIUM | SEED_MODE_NO_ROOM, NULL);
		CHECK_OK(doca_eth_txq_gpu_cpu_proxy_progress(q.txq));
		CHECK_EQ(cons_of(&q), (uint64_t)seq);
		rx_wait(seq);
		for (; got < seq; got++) {
			CHECK_EQ(rx.r[got].seq, got);
			CHECK(rx.r[got].intact);
		}
		CHECK_EQ(fake.waits() - w0, 1L);
		CHECK_EQ(fake.async_copies() - a0, round == 0 ? 1L : 32L);
		CHECK_EQ(fake.copies() - c0, fake.async_copies() - a0); /* no cudaMemcpy */
	}
	fake.kernel_end(0);
	txq_free(&q);
	CHECK_EQ(rx_count(), seq);
	rx_stop();
	close_devs();
}

int main(void)
{
	struct doca_log_backend *be = NULL, *err_be = NULL;
	char *conf = sd_tmpfile("eth.conf", "[profile default]\neth.supported = yes\n");

	sd_setenv("SOFTDOCA_CONFIG", conf);
	sd_setenv("SOFTDOCA_SIDE", "all");
	free(conf);
	log_fd = memfd_create("gpu-txq-log", MFD_CLOEXEC);
	CHECK(log_fd >= 0);
	CHECK_OK(doca_log_backend_create_with_fd_sdk(log_fd, &be));
	CHECK_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &err_be));
	CHECK_OK(doca_log_backend_set_sdk_level(err_be, DOCA_LOG_LEVEL_WARNING));
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DEBUG)); /* the stop lines with counts */
	CHECK_OK(doca_gpu_create(FAKE_GPU_PCI, &gpu));

	case_api();
	case_order();
	case_notify();
	case_bad();
	case_events();
	case_csum();
	case_proxy();
	case_sample();
	case_wait();
	case_stop();
	case_runaway();
	case_batched();

	CHECK_OK(doca_gpu_destroy(gpu));
	CHECK_EQ(fake_cuda_get().live_allocations(), 0);
	printf("gpunetio eth txq: all checks passed\n");
	return 0;
}
