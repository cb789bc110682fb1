/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_bench.c - DOCA Ethernet packets per second between two ports, through the public API
 * only (doca_eth_txq / doca_eth_rxq, doca_pe, doca_mmap, doca_buf_inventory).
 *
 *   eth_bench [--duration S] [--sizes 64,1500] [--rows RX:TX,...] [--json] [--no-pin]
 *             [--one-thread] [--csum] [--veth | --udp] [-s PCI] [-r PCI]
 *
 *   sender thread (its PE)                          receiver thread (its PE)
 *     doca_eth_txq on -s (03:00.1) ══ medium ══▶ doca_eth_rxq on -r (03:00.0)
 *       single: send tasks, resubmitted              task:    receive tasks, resubmitted
 *               from their callback                  managed: managed-mempool events
 *       batch:  send task batches of 64              batch:   batch managed events (<= 128)
 *
 * Sender and receiver are two threads of one process, each with its own PE, busy-polling and
 * pinned to a CPU of its own: one core each on a 2-core machine, shared counters without any
 * IPC, and one process may open both ends of a cable (the medium's ring protocol and its
 * core-to-core traffic are the same as between two processes). The medium is whatever the topology
 * gives the two devices (SOFTDOCA_CONFIG; the default cables 03:00.0 <-> 03:00.1 with a wire),
 * so the same rows run over another medium unchanged.
 *
 * Each row: the sender sends frames of SIZE bytes (Ethernet + IPv4 + UDP, checksums right, FCS
 * excluded) for S seconds as fast as completions come back; the receiver counts what arrives.
 * sent = send completions, received = frames delivered to the application, dropped = sent -
 * received once the receiver has been quiet for 50 ms (frames the receiver had no room for:
 * no posted task, no free stride, a full medium ring). Rates are per the sender's time. CPU time
 * per frame is each thread's (CLOCK_THREAD_CPUTIME_ID) while the sender sent, divided by what it
 * sent or received; "empty polls" is the share of the receiver's doca_pe_progress() calls that
 * found nothing meanwhile (its CPU time per frame includes them).
 *
 * --csum: the send queue computes the IPv4 and UDP checksums of every frame (L3 and L4 checksum
 * offload), as an application that leaves them to the NIC would have it.
 *
 * --veth (root): the two devices go on the two ends of a veth pair the bench makes and deletes
 * (medium afpacket; sender 03:00.0 on the a end, receiver 03:00.1 on the b end, in a namespace),
 * and raw AF_PACKET runs on the same pair, the same frames, the same threads and CPUs
 * (bench/veth_raw.h) before the first row of each frame size and after every row: the "vs raw"
 * column is a row's received packets/s over the mean of the raw runs just before and just after
 * it. The rate a virtual machine gets drifts within seconds; the two neighbours see the same drift.
 * --udp: the two devices are cabled by the udp medium over two ports of 127.0.0.1 (sender
 * 03:00.0, receiver 03:00.1), and raw sendmmsg/recvmmsg runs between two sockets of the same
 * loopback, the same datagrams, threads and CPUs (bench/udp_raw.h) around every row in the same
 * way: "vs raw" is the row against the kernel's own UDP path.
 * --rounds N runs all of that N times (every size once per round) and ends with each row's
 * ratio as median (min-max) over the rounds.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_cpu_data_path.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_cpu_data_path.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "bench_util.h"
#include "udp_raw.h"
#include "veth_raw.h"

#define DIE(...) (fprintf(stderr, "eth_bench: " __VA_ARGS__), fputc('\n', stderr), exit(1))
#define OK(call)                                                                                                       \
	do {                                                                                                           \
		doca_error_t e_ = (call);                                                                              \
		if (e_ != DOCA_SUCCESS)                                                                                \
			DIE("%s: %s", #call, doca_error_get_name(e_));                                                 \
	} while (0)

#define MAX_PKT	   1536u /* receive queues' max_packet_size (and stride) */
#define TX_BUFS	   1024u /* frames the sender cycles through, one doca_buf each */
#define TX_TASKS   1024u /* single sends in flight */
#define TX_BATCH   64u	 /* tasks per send batch */
#define TX_BATCHES 16u	 /* send batches in flight */
#define RX_TASKS   1024u /* receive tasks posted */
#define RX_STRIDES 4096u /* managed packet buffer, in strides */
#define BURST	   256u	 /* queues' max_burst_size */
#define QUIET_NS   50000000ull

enum rx_mode { RX_TASK, RX_MANAGED, RX_BATCH };
enum tx_mode { TX_SINGLE, TX_BATCHED };
static const char *const rx_names[] = {"task", "managed", "batch"};
static const char *const tx_names[] = {"single", "batch"};
static bool tx_csum; /* --csum: L3 and L4 checksum offload on the send queue */

struct row {
	uint32_t size;
	enum rx_mode rx;
	enum tx_mode tx;
	double seconds;
	uint64_t sent, received;
	uint64_t tx_ns;		     /* the sender's time, first submit to last completion */
	uint64_t tx_cpu, rx_cpu;     /* each thread's CPU time over the row */
	uint64_t rx_polls, rx_empty; /* the receiver's progress calls, and those that found nothing */
};

struct tx_side {
	uint8_t *mem;
	size_t mem_len;
	struct doca_mmap *mm;
	struct doca_buf_inventory *inv;
	struct doca_buf *bufs[TX_BUFS];
	struct doca_pe *pe;
	struct doca_eth_txq *txq;
	struct doca_ctx *ctx;
};

struct rx_side {
	uint8_t *mem;
	size_t mem_len;
	struct doca_mmap *mm;
	struct doca_buf_inventory *inv; /* receive tasks' bufs */
	struct doca_buf *bufs[RX_TASKS];
	struct doca_pe *pe;
	struct doca_eth_rxq *rxq;
	struct doca_ctx *ctx;
};

struct bench {
	struct doca_dev *tx_dev, *rx_dev;
	double duration;
	struct row *row;
	struct tx_side tx;
	struct rx_side rx;
	/*
	 * Each thread's counters in a cache line of its own: a count written per frame in a line
	 * the other thread also writes would move that line between the cores on every frame.
	 */
	/* the sender's */
	alignas(64) uint64_t sent;
	bool tx_stop;
	uint32_t tx_inflight;
	/* the receiver's */
	alignas(64) uint64_t received;
	/* the hand-overs */
	alignas(64) _Atomic bool rx_ready, tx_done;
};

/* ---- devices and memory ---- */

static struct doca_dev *open_dev(const char *pci)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			OK(doca_dev_open(list[i], &dev));
	}
	OK(doca_devinfo_destroy_list(list));
	if (dev == NULL)
		DIE("no device %s (SOFTDOCA_SIDE=all shows both sides; SOFTDOCA_CONFIG names the topology)", pci);
	return dev;
}

static struct doca_mmap *mmap_over(struct doca_dev *dev, void *addr, size_t len)
{
	struct doca_mmap *m;

	OK(doca_mmap_create(&m));
	OK(doca_mmap_set_memrange(m, addr, len));
	OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	OK(doca_mmap_add_dev(m, dev));
	OK(doca_mmap_start(m));
	return m;
}

static void mmap_release(struct doca_mmap *m)
{
	OK(doca_mmap_stop(m));
	OK(doca_mmap_destroy(m));
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Ethernet + IPv4 + UDP of @size bytes in all, frame @k (source port and payload vary). */
static void build_frame(uint8_t *f, uint32_t size, uint32_t k)
{
	uint8_t *ip = f + 14, *udp = ip + 20;
	uint32_t ulen = size - 34;
	uint16_t c;

	memset(f, 0, size);
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00", 14);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t)(size - 14));
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	put16(ip + 10, csum_fold(csum_add(0, ip, 20)));
	put16(udp, (uint16_t)(10000 + k % 1000));
	put16(udp + 2, 4791);
	put16(udp + 4, (uint16_t)ulen);
	for (uint32_t i = 8; i < ulen; i++)
		udp[i] = (uint8_t)(k + i);
	c = csum_fold(csum_add(csum_add(0, ip + 12, 8) + 17 + ulen, udp, ulen));
	put16(udp + 6, c == 0 ? 0xffff : c);
}

static void progress_until_idle(struct doca_pe *pe, struct doca_ctx *ctx)
{
	enum doca_ctx_states st;
	doca_error_t ret = doca_ctx_stop(ctx);

	if (ret != DOCA_SUCCESS && ret != DOCA_ERROR_IN_PROGRESS)
		DIE("doca_ctx_stop: %s", doca_error_get_name(ret));
	do {
		doca_pe_progress(pe);
		OK(doca_ctx_get_state(ctx, &st));
	} while (st != DOCA_CTX_STATE_IDLE);
}

/* ---- the sender ---- */

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	struct bench *b = cud.ptr;

	(void)ud;
	b->sent++;
	if (!b->tx_stop && doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)) == DOCA_SUCCESS)
		return;
	b->tx_inflight--;
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void send_err(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	struct bench *b = cud.ptr;

	(void)ud;
	if (!b->tx_stop)
		DIE("a send task failed: %s",
		    doca_error_get_name(doca_task_get_status(doca_eth_txq_task_send_as_doca_task(t))));
	b->tx_inflight--;
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void batch_done(struct doca_task_batch *tb, uint16_t n, union doca_data cud, union doca_data bud,
		       union doca_data *uds, struct doca_buf **pkts, doca_error_t *status)
{
	struct bench *b = cud.ptr;

	(void)bud;
	(void)uds;
	(void)pkts;
	(void)status;
	b->sent += n;
	if (!b->tx_stop && doca_task_batch_submit(tb) == DOCA_SUCCESS)
		return;
	b->tx_inflight--;
	doca_task_batch_free(tb);
}

static void batch_err(struct doca_task_batch *tb, uint16_t n, union doca_data cud, union doca_data bud,
		      union doca_data *uds, struct doca_buf **pkts, doca_error_t *status)
{
	struct bench *b = cud.ptr;

	(void)n;
	(void)bud;
	(void)uds;
	(void)pkts;
	if (!b->tx_stop)
		DIE("a send batch failed: %s", doca_error_get_name(status[0]));
	b->tx_inflight--;
	doca_task_batch_free(tb);
}

static void sender_open(struct bench *b)
{
	struct tx_side *t = &b->tx;
	uint32_t size = b->row->size;

	t->mem_len = (size_t)TX_BUFS * size;
	t->mem = bench_alloc(t->mem_len, 0);
	if (t->mem == NULL)
		DIE("cannot allocate %zu bytes of frames", t->mem_len);
	for (uint32_t i = 0; i < TX_BUFS; i++)
		build_frame(t->mem + (size_t)i * size, size, i);
	t->mm = mmap_over(b->tx_dev, t->mem, t->mem_len);
	OK(doca_buf_inventory_create(TX_BUFS, &t->inv));
	OK(doca_buf_inventory_start(t->inv));
	for (uint32_t i = 0; i < TX_BUFS; i++)
		OK(doca_buf_inventory_buf_get_by_data(t->inv, t->mm, t->mem + (size_t)i * size, size, &t->bufs[i]));
	OK(doca_pe_create(&t->pe));
	OK(doca_eth_txq_create(b->tx_dev, BURST, &t->txq));
	t->ctx = doca_eth_txq_as_doca_ctx(t->txq);
	OK(doca_ctx_set_user_data(t->ctx, (union doca_data){.ptr = b}));
	if (b->row->tx == TX_SINGLE)
		OK(doca_eth_txq_task_send_set_conf(t->txq, send_done, send_err, TX_TASKS));
	else
		OK(doca_eth_txq_task_batch_send_set_conf(t->txq, DOCA_TASK_BATCH_MAX_TASKS_NUMBER_64, TX_BATCHES,
							 batch_done, batch_err));
	if (tx_csum) {
		OK(doca_eth_txq_set_l3_chksum_offload(t->txq, 1));
		OK(doca_eth_txq_set_l4_chksum_offload(t->txq, 1));
	}
	OK(doca_pe_connect_ctx(t->pe, t->ctx));
	OK(doca_ctx_start(t->ctx));
}

/* Puts every task (or batch) in flight; their callbacks resubmit them until tx_stop. */
static void sender_go(struct bench *b)
{
	struct tx_side *t = &b->tx;

	if (b->row->tx == TX_SINGLE) {
		for (uint32_t i = 0; i < TX_TASKS; i++) {
			struct doca_eth_txq_task_send *task;

			OK(doca_eth_txq_task_send_allocate_init(t->txq, t->bufs[i % TX_BUFS],
								(union doca_data){.u64 = i}, &task));
			OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(task)));
			b->tx_inflight++;
		}
		return;
	}
	for (uint32_t i = 0; i < TX_BATCHES; i++) {
		struct doca_task_batch *tb;
		struct doca_buf **pkts;
		union doca_data *uds;

		OK(doca_eth_txq_task_batch_send_allocate(t->txq, TX_BATCH, (union doca_data){.u64 = i}, &pkts, &uds,
							 &tb));
		for (uint32_t k = 0; k < TX_BATCH; k++)
			pkts[k] = t->bufs[(i * TX_BATCH + k) % TX_BUFS];
		OK(doca_task_batch_submit(tb));
		b->tx_inflight++;
	}
}

static void sender_close(struct bench *b)
{
	struct tx_side *t = &b->tx;

	progress_until_idle(t->pe, t->ctx);
	OK(doca_eth_txq_destroy(t->txq));
	OK(doca_pe_destroy(t->pe));
	for (uint32_t i = 0; i < TX_BUFS; i++)
		OK(doca_buf_dec_refcount(t->bufs[i], NULL));
	OK(doca_buf_inventory_stop(t->inv));
	OK(doca_buf_inventory_destroy(t->inv));
	mmap_release(t->mm);
	bench_free(t->mem, t->mem_len);
}

static void *sender(void *arg)
{
	struct bench *b = arg;
	struct row *row = b->row;
	uint64_t t0, end;

	sender_open(b);
	while (!atomic_load(&b->rx_ready))
		;
	t0 = bench_now_ns();
	row->tx_cpu = bench_thread_cpu_ns();
	end = t0 + (uint64_t)(b->duration * 1e9);
	sender_go(b);
	for (uint32_t i = 0;; i++) {
		doca_pe_progress(b->tx.pe);
		if ((i & 255) == 0 && bench_now_ns() >= end)
			break;
	}
	b->tx_stop = true;
	while (b->tx_inflight > 0)
		doca_pe_progress(b->tx.pe);
	row->tx_ns = bench_now_ns() - t0;
	row->tx_cpu = bench_thread_cpu_ns() - row->tx_cpu;
	atomic_store(&b->tx_done, true);
	sender_close(b);
	return NULL;
}

/* ---- the receiver ---- */

static void recv_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct bench *b = cud.ptr;

	b->received++;
	doca_buf_reset_data_len(ud.ptr);
	if (doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)) != DOCA_SUCCESS)
		doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

static void recv_err(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t)); /* flushed at stop */
}

static void managed_done(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data ud)
{
	struct bench *b = ud.ptr;

	(void)ev;
	b->received++;
	doca_buf_dec_refcount(pkt, NULL);
}

static void managed_err(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data ud)
{
	(void)ud;
	(void)pkt;
	DIE("a managed receive event failed: %s", doca_error_get_name(doca_eth_rxq_event_managed_recv_get_status(ev)));
}

static void batch_recv(struct doca_eth_rxq_event_batch_managed_recv *ev, uint16_t n, union doca_data ud,
		       doca_error_t status, struct doca_buf **pkts)
{
	struct bench *b = ud.ptr;

	(void)ev;
	(void)status;
	b->received += n;
	doca_eth_rxq_event_batch_managed_recv_pkt_array_free(pkts);
}

static void batch_recv_err(struct doca_eth_rxq_event_batch_managed_recv *ev, uint16_t n, union doca_data ud,
			   doca_error_t status, struct doca_buf **pkts)
{
	(void)ev;
	(void)n;
	(void)ud;
	(void)pkts;
	DIE("a batch managed receive event failed: %s", doca_error_get_name(status));
}

static void receiver_open(struct bench *b)
{
	struct rx_side *r = &b->rx;
	enum rx_mode mode = b->row->rx;

	r->mem_len = mode == RX_TASK ? (size_t)RX_TASKS * MAX_PKT : (size_t)RX_STRIDES * MAX_PKT;
	r->mem = bench_alloc(r->mem_len, 0);
	if (r->mem == NULL)
		DIE("cannot allocate %zu bytes of receive buffers", r->mem_len);
	r->mm = mmap_over(b->rx_dev, r->mem, r->mem_len);
	OK(doca_pe_create(&r->pe));
	OK(doca_eth_rxq_create(b->rx_dev, BURST, MAX_PKT, &r->rxq));
	r->ctx = doca_eth_rxq_as_doca_ctx(r->rxq);
	OK(doca_ctx_set_user_data(r->ctx, (union doca_data){.ptr = b}));
	if (mode == RX_TASK) {
		OK(doca_eth_rxq_set_type(r->rxq, DOCA_ETH_RXQ_TYPE_REGULAR));
		OK(doca_eth_rxq_task_recv_set_conf(r->rxq, recv_done, recv_err, RX_TASKS));
	} else {
		OK(doca_eth_rxq_set_type(r->rxq, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL));
		OK(doca_eth_rxq_set_pkt_buf(r->rxq, r->mm, 0, (uint32_t)r->mem_len));
		if (mode == RX_MANAGED)
			OK(doca_eth_rxq_event_managed_recv_register(r->rxq, (union doca_data){.ptr = b}, managed_done,
								    managed_err));
		else
			OK(doca_eth_rxq_event_batch_managed_recv_register(
			    r->rxq, DOCA_EVENT_BATCH_EVENTS_NUMBER_128, DOCA_EVENT_BATCH_EVENTS_NUMBER_1,
			    (union doca_data){.ptr = b}, batch_recv, batch_recv_err));
	}
	OK(doca_pe_connect_ctx(r->pe, r->ctx));
	OK(doca_ctx_start(r->ctx));
	OK(doca_eth_rxq_apply_queue_id(r->rxq, 0));
	if (mode != RX_TASK)
		return;
	OK(doca_buf_inventory_create(RX_TASKS, &r->inv));
	OK(doca_buf_inventory_start(r->inv));
	for (uint32_t i = 0; i < RX_TASKS; i++) {
		struct doca_eth_rxq_task_recv *t;

		OK(doca_buf_inventory_buf_get_by_addr(r->inv, r->mm, r->mem + (size_t)i * MAX_PKT, MAX_PKT,
						      &r->bufs[i]));
		OK(doca_eth_rxq_task_recv_allocate_init(r->rxq, r->bufs[i], (union doca_data){.ptr = r->bufs[i]}, &t));
		OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}
}

static void receiver_close(struct bench *b)
{
	struct rx_side *r = &b->rx;

	progress_until_idle(r->pe, r->ctx);
	OK(doca_eth_rxq_destroy(r->rxq));
	OK(doca_pe_destroy(r->pe));
	if (r->inv != NULL) {
		for (uint32_t i = 0; i < RX_TASKS; i++)
			OK(doca_buf_dec_refcount(r->bufs[i], NULL));
		OK(doca_buf_inventory_stop(r->inv));
		OK(doca_buf_inventory_destroy(r->inv));
	}
	mmap_release(r->mm);
	bench_free(r->mem, r->mem_len);
}

static void *receiver(void *arg)
{
	struct bench *b = arg;
	struct row *row = b->row;
	uint64_t quiet_since = 0, seen = 0;
	bool tx_seen = false;

	receiver_open(b);
	row->rx_cpu = bench_thread_cpu_ns();
	atomic_store(&b->rx_ready, true);
	for (;;) {
		if (!tx_seen && atomic_load_explicit(&b->tx_done, memory_order_relaxed)) {
			/* the receiver's CPU while the sender sent; what is left is at most a ring */
			row->rx_cpu = bench_thread_cpu_ns() - row->rx_cpu;
			tx_seen = true;
		}
		if (!tx_seen)
			row->rx_polls++;
		if (doca_pe_progress(b->rx.pe) != 0 || b->received != seen) {
			seen = b->received;
			quiet_since = 0;
		} else if (!tx_seen) {
			row->rx_empty++;
		} else {
			uint64_t now = bench_now_ns();

			if (quiet_since == 0)
				quiet_since = now;
			else if (now - quiet_since > QUIET_NS)
				break;
		}
	}
	receiver_close(b);
	return NULL;
}

/*
 * --one-thread: both PEs progressed in turn by one thread. No core-to-core traffic and no
 * scheduler in the figures: CPU time per frame is the software's whole cost of a frame sent
 * and received, and instruction counts (callgrind) are repeatable.
 */
static void run_one_thread(struct bench *b)
{
	struct row *row = b->row;
	uint64_t t0, end, cpu;

	receiver_open(b);
	sender_open(b);
	t0 = bench_now_ns();
	cpu = bench_thread_cpu_ns();
	end = t0 + (uint64_t)(b->duration * 1e9);
	sender_go(b);
	for (uint32_t i = 0;; i++) {
		doca_pe_progress(b->tx.pe);
		doca_pe_progress(b->rx.pe);
		if ((i & 255) == 0 && bench_now_ns() >= end)
			break;
	}
	b->tx_stop = true;
	while (b->tx_inflight > 0) {
		doca_pe_progress(b->tx.pe);
		doca_pe_progress(b->rx.pe);
	}
	for (int i = 0; i < 64; i++)
		doca_pe_progress(b->rx.pe);
	row->tx_ns = bench_now_ns() - t0;
	row->tx_cpu = row->rx_cpu = bench_thread_cpu_ns() - cpu;
	sender_close(b);
	receiver_close(b);
}

/* ---- rows ---- */

/*
 * Two busy-polling threads on one CPU take turns by time slice: the ring fills and drops while
 * the receiver waits for its turn. Each thread gets a CPU of its own when the process may use
 * two (the first two of its affinity mask); other programs may still share them.
 */
static void run_row(struct doca_dev *tx_dev, struct doca_dev *rx_dev, double duration, bool pin, bool one_thread,
		    struct row *row)
{
	struct bench b = {.tx_dev = tx_dev, .rx_dev = rx_dev, .duration = duration, .row = row};
	pthread_attr_t at, ar;
	pthread_t ts, tr;

	if (one_thread) {
		run_one_thread(&b);
		goto done;
	}
	pthread_attr_init(&at);
	pthread_attr_init(&ar);
	if (pin) {
		bench_thread_attr_on(&ar, 0);
		bench_thread_attr_on(&at, 1);
	}
	if (pthread_create(&tr, &ar, receiver, &b) != 0 || pthread_create(&ts, &at, sender, &b) != 0)
		DIE("cannot start the threads");
	pthread_attr_destroy(&at);
	pthread_attr_destroy(&ar);
	pthread_join(ts, NULL);
	pthread_join(tr, NULL);
done:
	row->sent = b.sent;
	row->received = b.received;
	row->seconds = (double)row->tx_ns / 1e9;
}

static double mpps(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e3 / (double)ns : 0.0;
}

static double per(uint64_t ns, uint64_t n)
{
	return n ? (double)ns / (double)n : 0.0;
}

/* One row; @vs_raw < 0: no raw baseline in this run. */
static void print_row(const struct row *row, bool json, double vs_raw)
{
	uint64_t dropped = row->sent > row->received ? row->sent - row->received : 0;
	char ratio[32] = "";

	if (json) {
		if (vs_raw >= 0)
			snprintf(ratio, sizeof(ratio), ", \"vs_raw\": %.3f", vs_raw);
		printf("{\"size\": %u, \"rx\": \"%s\", \"tx\": \"%s\", \"seconds\": %.3f, \"sent\": %llu, "
		       "\"received\": %llu, \"dropped\": %llu, \"sent_mpps\": %.3f, "
		       "\"received_mpps\": %.3f, \"tx_cpu_ns_per_frame\": %.1f, "
		       "\"rx_cpu_ns_per_frame\": %.1f, \"rx_empty_polls_pct\": %.1f%s}\n",
		       row->size, rx_names[row->rx], tx_names[row->tx], row->seconds, (unsigned long long)row->sent,
		       (unsigned long long)row->received, (unsigned long long)dropped, mpps(row->sent, row->tx_ns),
		       mpps(row->received, row->tx_ns), per(row->tx_cpu, row->sent), per(row->rx_cpu, row->received),
		       100.0 * per(row->rx_empty, row->rx_polls), ratio);
	} else {
		if (vs_raw >= 0)
			snprintf(ratio, sizeof(ratio), " %.2fx |", vs_raw);
		printf("| %u B | %s | %s | %.2f | %.2f | %llu | %llu | %llu | %.0f | %.0f | %.0f |%s\n", row->size,
		       rx_names[row->rx], tx_names[row->tx], mpps(row->sent, row->tx_ns),
		       mpps(row->received, row->tx_ns), (unsigned long long)row->sent,
		       (unsigned long long)row->received, (unsigned long long)dropped, per(row->tx_cpu, row->sent),
		       per(row->rx_cpu, row->received), 100.0 * per(row->rx_empty, row->rx_polls), ratio);
	}
	fflush(stdout);
}

/* A raw AF_PACKET row (dropped: what the kernel counted in tp_drops), or raw UDP (@rx_name
 * "raw recvmmsg"; dropped: sent less received). */
static void print_raw(uint32_t size, const struct veth_result *r, bool json, const char *rx_name)
{
	if (json)
		printf("{\"size\": %u, \"rx\": \"%s\", \"tx\": \"sendmmsg\", "
		       "\"seconds\": %.3f, \"sent\": %llu, \"received\": %llu, \"dropped\": %llu, "
		       "\"sent_mpps\": %.3f, \"received_mpps\": %.3f}\n",
		       size, rx_name, (double)r->send_ns / 1e9, (unsigned long long)r->sent,
		       (unsigned long long)r->received, (unsigned long long)r->drops, mpps(r->sent, r->send_ns),
		       mpps(r->received, r->send_ns));
	else
		printf("| %u B | %s | sendmmsg | %.2f | %.2f | %llu | %llu | %llu | - | - | - | "
		       "baseline |\n",
		       size, rx_name, mpps(r->sent, r->send_ns), mpps(r->received, r->send_ns),
		       (unsigned long long)r->sent, (unsigned long long)r->received, (unsigned long long)r->drops);
	fflush(stdout);
}

/* --rounds: each row's "vs raw" over the rounds, median (min-max). */
static void print_summary(const uint32_t *sizes, int nb_sizes, int rows[6][2], int nb_rows, int rounds,
			  double ratios[16][6][32], bool json)
{
	if (!json)
		printf("\n| size | rx | tx | vs raw, median of %d rounds (min-max) |\n|---|---|---|---|\n", rounds);
	for (int s = 0; s < nb_sizes; s++)
		for (int r = 0; r < nb_rows; r++) {
			double v[32];

			for (int i = 0; i < rounds; i++) {
				int j = i;

				v[i] = ratios[s][r][i];
				for (; j > 0 && v[j - 1] > v[j]; j--) {
					double t = v[j];

					v[j] = v[j - 1];
					v[j - 1] = t;
				}
			}
			double med = rounds % 2 ? v[rounds / 2] : (v[rounds / 2 - 1] + v[rounds / 2]) / 2;

			if (json)
				printf("{\"size\": %u, \"rx\": \"%s\", \"tx\": \"%s\", \"rounds\": %d, "
				       "\"vs_raw_median\": %.3f, \"vs_raw_min\": %.3f, \"vs_raw_max\": %.3f}\n",
				       sizes[s], rx_names[rows[r][0]], tx_names[rows[r][1]], rounds, med, v[0],
				       v[rounds - 1]);
			else
				printf("| %u B | %s | %s | %.2fx (%.2f-%.2f) |\n", sizes[s], rx_names[rows[r][0]],
				       tx_names[rows[r][1]], med, v[0], v[rounds - 1]);
		}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: eth_bench [--duration S] [--sizes N,...] [--rows RX:TX,...] [--json] [--no-pin] [--rounds N] "
		"[--one-thread] [--csum] [-s PCI] [-r PCI]\n"
		"  --duration S   seconds each row sends (default 1.5)\n"
		"  --sizes        frame sizes in bytes, 64..1514 (default 64,1500)\n"
		"  --rows         RX in task, managed, batch; TX in single, batch (default: all six)\n"
		"  --json         one JSON object per row instead of the table\n"
		"  --no-pin       leave the two threads where the scheduler puts them (default: one CPU each)\n"
		"  --one-thread   one thread progresses both queues in turn (CPU per frame = send + receive)\n"
		"  --csum         the send queue computes the IPv4 and UDP checksums (checksum offload)\n"
		"  -s PCI         sending device (default 03:00.1)\n"
		"  -r PCI         receiving device (default 03:00.0)\n"
		"  --veth         root: over afpacket on a veth pair made for the run, against raw AF_PACKET\n"
		"  --udp          over udp on two ports of 127.0.0.1, against raw sendmmsg/recvmmsg there\n"
		"                 on the same pair (sender 03:00.0, receiver 03:00.1 unless -s / -r)\n"
		"  --rounds N     --veth: every size N times over (1..32, default 1), then each row's\n"
		"                 \"vs raw\" as median (min-max) of the N\n"
		"The medium between them is the topology's (SOFTDOCA_CONFIG).\n");
}

static int parse_rows(const char *arg, int rows[6][2])
{
	char *copy = strdup(arg), *save = NULL;
	int n = 0;

	if (copy == NULL)
		DIE("out of memory");
	for (char *tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		int rx = -1, tx = -1;

		if (colon == NULL || n == 6)
			DIE("--rows: '%s' is not RX:TX (at most 6 rows)", tok);
		*colon = '\0';
		for (int i = 0; i < 3; i++)
			if (strcmp(tok, rx_names[i]) == 0)
				rx = i;
		for (int i = 0; i < 2; i++)
			if (strcmp(colon + 1, tx_names[i]) == 0)
				tx = i;
		if (rx < 0 || tx < 0)
			DIE("--rows: receive mode '%s' or send mode '%s' unknown (task|managed|batch : single|batch)",
			    tok, colon + 1);
		rows[n][0] = rx;
		rows[n][1] = tx;
		n++;
	}
	free(copy);
	return n;
}

/* The raw kernel path of this run's medium: AF_PACKET on @veth, or UDP on the loopback (NULL). */
static void raw_run(const struct veth *veth, const uint8_t *frames, uint32_t size, double secs, bool pin,
		    struct veth_result *out)
{
	if (veth != NULL) {
		veth_raw_run(veth, frames, TX_BUFS, size, secs, pin, out);
		return;
	}
	udp_raw_run(frames, TX_BUFS, size, secs, pin, out);
	out->drops = out->sent > out->received ? out->sent - out->received : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"duration", required_argument, NULL, 'd'}, {"sizes", required_argument, NULL, 'z'},
	    {"rows", required_argument, NULL, 'w'},	{"json", no_argument, NULL, 'j'},
	    {"no-pin", no_argument, NULL, 'p'},		{"one-thread", no_argument, NULL, 'o'},
	    {"veth", no_argument, NULL, 'v'},		{"rounds", required_argument, NULL, 'n'},
	    {"csum", no_argument, NULL, 'c'},		{"udp", no_argument, NULL, 'u'},
	    {"help", no_argument, NULL, 'h'},		{NULL, 0, NULL, 0}};
	const char *tx_pci = NULL, *rx_pci = NULL;
	char cfg[] = "/tmp/eth_bench-XXXXXX";
	static uint8_t raw_frames[TX_BUFS * 1514];
	struct veth veth;
	uint32_t sizes[16] = {64, 1500};
	int nb_sizes = 2, rows[6][2], nb_rows = 0, c;
	double duration = 1.5;
	int rounds = 1;
	static double ratios[16][6][32]; /* [size][row][round]: vs raw */
	bool json = false, pin = true, one_thread = false, use_veth = false, use_udp = false, raw;
	struct doca_dev *tx_dev, *rx_dev;
	const char *raw_name;

	while ((c = getopt_long(argc, argv, "s:r:h", opts, NULL)) != -1) {
		char *end = NULL;

		switch (c) {
		case 'd':
			errno = 0;
			duration = strtod(optarg, &end);
			if (errno || end == optarg || *end != '\0' || !(duration > 0 && duration <= 600))
				DIE("--duration: '%s' is not a number of seconds in (0, 600]", optarg);
			break;
		case 'z':
			nb_sizes = 0;
			for (char *p = optarg; *p != '\0'; p = *end ? end + 1 : end) {
				unsigned long v;

				errno = 0;
				v = strtoul(p, &end, 10);
				if (errno || end == p || (*end != ',' && *end != '\0') || v < 64 || v > 1514 ||
				    nb_sizes == 16)
					DIE("--sizes: '%s' is not a list of up to 16 sizes in 64..1514", optarg);
				sizes[nb_sizes++] = (uint32_t)v;
			}
			break;
		case 'w':
			nb_rows = parse_rows(optarg, rows);
			break;
		case 'j':
			json = true;
			break;
		case 'p':
			pin = false;
			break;
		case 'c':
			tx_csum = true;
			break;
		case 'o':
			one_thread = true;
			break;
		case 'v':
			use_veth = true;
			break;
		case 'u':
			use_udp = true;
			break;
		case 'n':
			errno = 0;
			rounds = (int)strtol(optarg, &end, 10);
			if (errno || end == optarg || *end != '\0' || rounds < 1 || rounds > 32)
				DIE("--rounds: '%s' is not a number of rounds in 1..32", optarg);
			break;
		case 's':
			tx_pci = optarg;
			break;
		case 'r':
			rx_pci = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (nb_rows == 0) {
		for (int rx = 0; rx < 3; rx++)
			for (int tx = 0; tx < 2; tx++, nb_rows++) {
				rows[nb_rows][0] = rx;
				rows[nb_rows][1] = tx;
			}
	}
	raw = use_veth || use_udp;
	if (use_veth && use_udp)
		DIE("--veth or --udp: one medium per run");
	if (rounds > 1 && !raw)
		DIE("--rounds repeats the comparison with the raw kernel path: add --veth or --udp");
	if (use_udp) {
		if (one_thread)
			DIE("--udp measures two threads against raw UDP's two: drop --one-thread");
		if (udp_raw_config(cfg) != 0)
			return 1;
		setenv("SOFTDOCA_CONFIG", cfg, 1);
		setenv("SOFTDOCA_SIDE", "all", 1);
	}
	if (use_veth) {
		if (geteuid() != 0) {
			fprintf(stderr, "eth_bench: --veth needs root (a veth pair, a namespace, CAP_NET_RAW)\n");
			return 77;
		}
		if (one_thread)
			DIE("--veth measures two threads against raw AF_PACKET's two: drop --one-thread");
		if (veth_make(&veth) != 0 || veth_config(&veth, cfg, NULL) != 0)
			return 1;
		setenv("SOFTDOCA_CONFIG", cfg, 1);
		setenv("SOFTDOCA_SIDE", "all", 1);
	}
	raw_name = use_udp ? "raw recvmmsg" : "raw AF_PACKET";
	if (tx_pci == NULL)
		tx_pci = raw ? "03:00.0" : "03:00.1";
	if (rx_pci == NULL)
		rx_pci = raw ? "03:00.1" : "03:00.0";
	tx_dev = open_dev(tx_pci);
	rx_dev = open_dev(rx_pci);
	if (raw)
		unlink(cfg); /* read once, when the devices opened */
	if (!json)
		printf(
		    "eth_bench: %s -> %s%s, %.1f s per row, one queue each way, %s\n\n"
		    "| size | rx | tx | sent Mpps | received Mpps | sent | received | dropped | tx CPU ns/frame | rx "
		    "CPU ns/frame | rx empty polls %% |%s\n"
		    "|---|---|---|---|---|---|---|---|---|---|---|%s\n",
		    tx_pci, rx_pci,
		    use_veth  ? " over a veth pair (afpacket)"
		    : use_udp ? " over udp on 127.0.0.1"
			      : "",
		    duration, one_thread ? "one thread" : "sender and receiver threads", raw ? " vs raw |" : "",
		    raw ? "---|" : "");
	for (int k = 0; k < nb_sizes * rounds; k++) {
		int s = k % nb_sizes; /* rounds go over every size before repeating one */
		struct row done[6];
		struct veth_result base[7] = {{0}};

		if (raw) {
			/* the sender's frames: TX_BUFS of them, built alike */
			for (uint32_t i = 0; i < TX_BUFS; i++)
				build_frame(raw_frames + (size_t)i * sizes[s], sizes[s], i);
			raw_run(use_veth ? &veth : NULL, raw_frames, sizes[s], duration, pin, &base[0]);
			print_raw(sizes[s], &base[0], json, raw_name);
		}
		for (int r = 0; r < nb_rows; r++) {
			done[r] = (struct row){
			    .size = sizes[s], .rx = (enum rx_mode)rows[r][0], .tx = (enum tx_mode)rows[r][1]};
			run_row(tx_dev, rx_dev, duration, pin, one_thread, &done[r]);
			if (!raw) {
				print_row(&done[r], json, -1);
				continue;
			}
			/* the raw run right after this row is the next row's "before" */
			raw_run(use_veth ? &veth : NULL, raw_frames, sizes[s], duration, pin, &base[r + 1]);
			double raw_mpps = (mpps(base[r].received, base[r].send_ns) +
					   mpps(base[r + 1].received, base[r + 1].send_ns)) /
					  2;
			ratios[s][r][k / nb_sizes] =
			    raw_mpps > 0 ? mpps(done[r].received, done[r].tx_ns) / raw_mpps : 0;
			print_row(&done[r], json, ratios[s][r][k / nb_sizes]);
			print_raw(sizes[s], &base[r + 1], json, raw_name);
		}
	}
	if (raw && rounds > 1)
		print_summary(sizes, nb_sizes, rows, nb_rows, rounds, ratios, json);
	OK(doca_dev_close(tx_dev));
	OK(doca_dev_close(rx_dev));
	return 0;
}
