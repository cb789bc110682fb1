/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_wire_drops.c - what a receive queue in another process does with what the wire brings:
 * a sender on 03:00.1 sends bursts of mixed frames with a DOCA Ethernet send queue; a receiver
 * on 03:00.0 (a forked process: REGULAR rxq of max_packet_size 1024, 32 posted tasks, DOCA Flow
 * CONTROL root pipe) counts.
 *
 *   valid        IPv4/UDP, right checksums   -> entry "udp" -> queue 0: arrive intact, in order,
 *                                                l3_ok = l4_ok = 1, pkt_meta 5
 *   bad checksum IPv4/UDP, wrong header csum -> no entry matches (udp wants ip4 csum ok): the
 *                                                pipe's miss counter, dropped
 *   runt IPv4    20 bytes, EtherType 0x0800  -> no entry matches: the miss counter, dropped
 *   oversized    IPv4/UDP of 1200 bytes       -> queue 0, longer than the queue's max_packet_size:
 *                                                dropped, counted "too big"
 *   unsteerable  IPv4/TCP                     -> entry "tcp" -> queue 7, which no rxq applied:
 *                                                the entry's counter, dropped
 *   truncated    10 bytes                     -> refused at submit (INVALID_VALUE), never sent
 *
 * The bursts go one at a time (the receiver says when it has steered each), so that the valid
 * frames of a burst never outnumber the posted tasks. Then a flood of 100 valid frames while
 * the receiver does not post its tasks again: exactly the 32 posted ones fill, the other 68
 * are counted as queue-full drops; and the queue keeps working: with its tasks posted again,
 * 50 more frames (two bursts of 25) all arrive. The receiver's counts come
 * from DOCA Flow's counters and from the queue's and the port's statistics lines at stop (its
 * SDK log at debug level, written to a file). Nothing crashes, nothing stalls.
 *
 * Environment: ETH_PAIR_RX_DEV / ETH_PAIR_TX_DEV (default 03:00.0 / 03:00.1); the runtime
 * directory is the test's own (XDG_RUNTIME_DIR in sd_tmpdir()).
 */
#include <arpa/inet.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>

#include <doca_buf.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_cpu_data_path.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_cpu_data_path.h>
#include <doca_flow.h>
#include <doca_log.h>

#include "../common/sd_test.h"

#define WAIT_MS	   20000
#define NB_POSTED  32
#define RX_MAX_PKT 1024
#define ROUNDS	   5
#define PER_ROUND  8 /* valid frames per round; 2 of each bad kind */
#define FLOOD	   100
#define AFTER	   50
#define VALID_LEN  300
#define BIG_LEN	   1200
#define META	   5
#define Q_NOBODY   7

static const char *rx_dev = "03:00.0", *tx_dev = "03:00.1";
static char log_path[PATH_MAX];
static int to_rx[2], to_tx[2];

/* ---- control pipe: one byte commands, a u32 argument ---- */

static void say(int fd, char what, uint32_t arg)
{
	uint8_t m[5] = {(uint8_t)what};

	memcpy(m + 1, &arg, 4);
	if (write(fd, m, 5) != 5)
		sd_die_at(__FILE__, __LINE__, "control pipe write: %s", strerror(errno));
}

static uint32_t hear(int fd, char what)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	uint8_t m[5];
	uint32_t arg;

	if (poll(&pfd, 1, WAIT_MS) != 1 || read(fd, m, 5) != 5)
		sd_die_at(__FILE__, __LINE__, "no '%c' from the other process within %d ms", what, WAIT_MS);
	if (m[0] != (uint8_t)what)
		sd_die_at(__FILE__, __LINE__, "got '%c' from the other process, expected '%c'", m[0], what);
	memcpy(&arg, m + 1, 4);
	return arg;
}

/* ---- frames ---- */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t csum(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* IPv4 + UDP (17) or TCP (6) of @len bytes; payload starts with @seq, then a pattern of it. */
static uint32_t build(uint8_t *f, uint8_t proto, uint32_t len, uint32_t seq, bool bad_ip_csum)
{
	uint32_t l4h = proto == 6 ? 20 : 8, l4_len = len - 34;
	uint8_t *ip = f + 14, *l4 = ip + 20, *pl = l4 + l4h;

	memset(f, 0, len);
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00", 14);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t)(len - 14));
	ip[8] = 64;
	ip[9] = proto;
	memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	put16(l4, 40000);
	put16(l4 + 2, 5001);
	if (proto == 6)
		l4[12] = 5 << 4;
	else
		put16(l4 + 4, (uint16_t)l4_len);
	memcpy(pl, &seq, 4);
	for (uint32_t i = 4; i < l4_len - l4h; i++)
		pl[i] = (uint8_t)(seq * 7 + i);
	put16(ip + 10, csum(0, ip, 20));
	{
		uint32_t sum = 0;

		for (int i = 12; i < 20; i += 2)
			sum += (uint32_t)ip[i] << 8 | ip[i + 1];
		put16(l4 + (proto == 6 ? 16 : 6), csum(sum + proto + l4_len, l4, l4_len));
	}
	if (bad_ip_csum)
		ip[10] ^= 0x5a;
	return len;
}

/* ---- the receiver (a child process) ---- */

struct rx_state {
	uint32_t received, next_seq, bad, held_n;
	bool repost;
	struct doca_eth_rxq_task_recv *held[NB_POSTED];
};

static struct rx_state rx;

static void rx_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;
	const uint32_t *meta = NULL;
	uint8_t *data = NULL, l3 = 0, l4 = 0;
	uint8_t want[VALID_LEN];
	size_t len = 0;

	(void)ud;
	(void)cud;
	doca_eth_rxq_task_recv_get_pkt(t, &b);
	doca_buf_get_data(b, (void **)&data);
	doca_buf_get_data_len(b, &len);
	doca_eth_rxq_task_recv_get_l3_ok(t, &l3);
	doca_eth_rxq_task_recv_get_l4_ok(t, &l4);
	doca_eth_rxq_task_recv_get_metadata_array(t, &meta);
	build(want, 17, VALID_LEN, rx.next_seq, false);
	if (len != VALID_LEN || memcmp(data, want, VALID_LEN) != 0 || l3 != 1 || l4 != 1 || meta == NULL ||
	    meta[0] != META) {
		fprintf(stderr, "frame %u (%zu bytes, l3_ok %u l4_ok %u, pkt_meta %u) is not valid frame seq %u\n",
			rx.received, len, l3, l4, meta != NULL ? meta[0] : 0, rx.next_seq);
		rx.bad++;
	}
	rx.next_seq++;
	rx.received++;
	doca_buf_reset_data_len(b);
	if (!rx.repost) {
		rx.held[rx.held_n++] = t;
		return;
	}
	if (doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)) != DOCA_SUCCESS)
		rx.bad++;
}

static void rx_fail(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;

	(void)ud;
	(void)cud;
	doca_eth_rxq_task_recv_get_pkt(t, &b);
	doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

static uint64_t counted(struct doca_flow_pipe_entry *e)
{
	struct doca_flow_resource_query q;

	CHECK_OK(doca_flow_resource_query_entry(e, &q));
	return q.counter.total_pkts;
}

static uint64_t missed(struct doca_flow_pipe *p)
{
	struct doca_flow_resource_query q;

	CHECK_OK(doca_flow_resource_query_pipe_miss(p, &q));
	return q.counter.total_pkts;
}

/* Progresses @pe until the port steered @total frames (DOCA Flow's counters say) and no more come. */
#define STEER_UNTIL(total)                                                                                             \
	do {                                                                                                           \
		uint64_t end_ = sd_now_ms() + WAIT_MS;                                                                 \
		while (counted(e_udp) + counted(e_tcp) + missed(root) < (total) && sd_now_ms() < end_)                 \
			doca_pe_progress(pe);                                                                          \
		for (int i_ = 0; i_ < 100; i_++)                                                                       \
			doca_pe_progress(pe);                                                                          \
		CHECK_EQ(counted(e_udp) + counted(e_tcp) + missed(root), (total));                                     \
	} while (0)

static int receiver(void)
{
	static uint8_t mem[NB_POSTED][RX_MAX_PKT];
	struct doca_log_backend *be;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_mmap *mm;
	struct doca_buf_inventory *inv;
	struct doca_eth_rxq *rxq;
	struct doca_flow_cfg *fc;
	struct doca_flow_port_cfg *pc;
	struct doca_flow_port *port;
	struct doca_flow_pipe_cfg *pipe_cfg;
	struct doca_flow_pipe *root;
	struct doca_flow_pipe_entry *e_udp, *e_tcp;
	struct doca_flow_match m;
	struct doca_flow_actions act;
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	struct doca_flow_fwd to_q0, to_nobody, drop;
	uint16_t q0 = 0, q7 = Q_NOBODY;
	unsigned long long st_rx = 0, st_full = 0, st_big = 0, p_bad = 9, p_pipe = 0, p_miss = 0, p_noq = 0;
	uint32_t total, bad_kinds;
	FILE *log;
	char line[512];
	bool found = false, found_port = false;

	/* The SDK log at debug level into a file: the queue's statistics line is read from it. */
	log = fopen(log_path, "w");
	CHECK(log != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(log, &be));
	CHECK_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DEBUG));

	dev = sd_open_dev(rx_dev);
	pe = sd_pe();
	mm = sd_mmap_local(dev, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	inv = sd_inventory(NB_POSTED);
	CHECK_OK(doca_eth_rxq_create(dev, NB_POSTED, RX_MAX_PKT, &rxq));
	CHECK_OK(doca_eth_rxq_set_metadata_num(rxq, 1));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, rx_done, rx_fail, NB_POSTED));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));
	rx.repost = true;
	for (int i = 0; i < NB_POSTED; i++) {
		struct doca_eth_rxq_task_recv *t;
		struct doca_buf *b;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, mm, mem[i], RX_MAX_PKT, &b));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, b, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}

	/* DOCA Flow: UDP with a right IPv4 checksum -> queue 0 (pkt_meta 5), TCP -> queue 7, rest dropped. */
	CHECK_OK(doca_flow_cfg_create(&fc));
	CHECK_OK(doca_flow_cfg_set_pipe_queues(fc, 1));
	CHECK_OK(doca_flow_cfg_set_mode_args(fc, "vnf,hws"));
	CHECK_OK(doca_flow_cfg_set_nr_counters(fc, 64));
	CHECK_OK(doca_flow_init(fc));
	CHECK_OK(doca_flow_cfg_destroy(fc));
	CHECK_OK(doca_flow_port_cfg_create(&pc));
	CHECK_OK(doca_flow_port_cfg_set_port_id(pc, 0));
	CHECK_OK(doca_flow_port_cfg_set_dev(pc, dev));
	CHECK_OK(doca_flow_port_start(pc, &port));
	CHECK_OK(doca_flow_port_cfg_destroy(pc));
	memset(&drop, 0, sizeof(drop));
	drop.type = DOCA_FLOW_FWD_DROP;
	CHECK_OK(doca_flow_pipe_cfg_create(&pipe_cfg, port));
	CHECK_OK(doca_flow_pipe_cfg_set_name(pipe_cfg, "root"));
	CHECK_OK(doca_flow_pipe_cfg_set_type(pipe_cfg, DOCA_FLOW_PIPE_CONTROL));
	CHECK_OK(doca_flow_pipe_cfg_set_is_root(pipe_cfg, true));
	CHECK_OK(doca_flow_pipe_cfg_set_miss_counter(pipe_cfg, true));
	CHECK_OK(doca_flow_pipe_cfg_set_monitor(pipe_cfg, &mon));
	CHECK_OK(doca_flow_pipe_create(pipe_cfg, NULL, &drop, &root));
	CHECK_OK(doca_flow_pipe_cfg_destroy(pipe_cfg));
	memset(&to_q0, 0, sizeof(to_q0));
	to_q0.type = DOCA_FLOW_FWD_RSS;
	to_q0.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	to_q0.rss.queues_array = &q0;
	to_q0.rss.nr_queues = 1;
	to_q0.rss.outer_flags = DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP;
	to_nobody = to_q0;
	to_nobody.rss.queues_array = &q7;
	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP;
	m.parser_meta.outer_ip4_checksum_ok = 1;
	memset(&act, 0, sizeof(act));
	act.meta.pkt_meta = htonl(META);
	CHECK_OK(doca_flow_pipe_control_add_entry(0, root, &m, NULL, NULL, &act, NULL, NULL, &mon, 10, &to_q0, NULL,
						  &e_udp));
	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_TCP;
	CHECK_OK(doca_flow_pipe_control_add_entry(0, root, &m, NULL, NULL, NULL, NULL, NULL, &mon, 20, &to_nobody, NULL,
						  &e_tcp));

	doca_pe_progress(pe); /* the port is this process's from here on */
	say(to_tx[1], 'R', 0);

	/*
	 * 1. Mixed bursts: the valid frames arrive, the rest is counted where it was dropped. One
	 * burst at a time (each has fewer valid frames than posted tasks), so that no frame of them
	 * finds the queue without a task.
	 */
	total = 0;
	for (int r = 0; r < ROUNDS; r++) {
		total += hear(to_rx[0], 'M');
		STEER_UNTIL(total);
		say(to_tx[1], 'm', 0);
	}
	bad_kinds = ROUNDS * 2;
	CHECK_EQ(rx.received, ROUNDS * PER_ROUND);
	CHECK_EQ(rx.bad, 0);
	CHECK_EQ(counted(e_udp), ROUNDS * PER_ROUND + bad_kinds); /* valid + oversized */
	CHECK_EQ(counted(e_tcp), bad_kinds);
	CHECK_EQ(missed(root), 2 * bad_kinds); /* bad checksum + runt IPv4 */

	/* 2. A flood while no task is posted again: the posted ones fill, the rest are drops. */
	rx.repost = false;
	say(to_tx[1], 'F', 0);
	total += hear(to_rx[0], 'f');
	STEER_UNTIL(total);
	CHECK_EQ(rx.received, ROUNDS * PER_ROUND + NB_POSTED);
	CHECK_EQ(rx.held_n, NB_POSTED);

	/* 3. Posted again, the queue takes everything that comes. */
	rx.repost = true;
	for (uint32_t i = 0; i < rx.held_n; i++)
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(rx.held[i])));
	rx.held_n = 0;
	/* The flood's frames that found no task are gone: the next one expected follows the sender's count. */
	rx.next_seq += FLOOD - NB_POSTED;
	say(to_tx[1], 'P', 0);
	for (int r = 0; r < 2; r++) {
		total += hear(to_rx[0], 'a');
		STEER_UNTIL(total);
		say(to_tx[1], 'k', 0);
	}
	CHECK_EQ(rx.received, ROUNDS * PER_ROUND + NB_POSTED + AFTER);
	CHECK_EQ(rx.bad, 0);

	doca_flow_pipe_destroy(root);
	CHECK_OK(doca_flow_port_stop(port));
	doca_flow_destroy();
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), pe, NULL, WAIT_MS);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_stop(mm));
	CHECK_OK(doca_mmap_destroy(mm));
	CHECK_OK(doca_dev_close(dev));
	fflush(log);

	/* The queue's own counts, from its statistics line at stop. */
	CHECK((log = freopen(log_path, "r", log)) != NULL);
	while (fgets(line, sizeof(line), log) != NULL) {
		const char *s = strstr(line, " stopped: ");

		if (s != NULL && strstr(line, "eth_rxq") != NULL &&
		    sscanf(s, " stopped: %llu frames received, %llu dropped (queue full), %llu too big", &st_rx,
			   &st_full, &st_big) == 3)
			found = true;
		s = strstr(line, " frames dropped before any queue: ");
		if (s != NULL && strstr(line, rx_dev) != NULL &&
		    sscanf(s,
			   " frames dropped before any queue: %llu unparsable, %llu by a pipe, %llu missed every pipe, "
			   "%llu for a queue id no rxq applied",
			   &p_bad, &p_pipe, &p_miss, &p_noq) == 4)
			found_port = true;
	}
	fclose(log);
	CHECK(found);
	CHECK_EQ(st_rx, ROUNDS * PER_ROUND + NB_POSTED + AFTER);
	CHECK_EQ(st_full, FLOOD - NB_POSTED);
	CHECK_EQ(st_big, bad_kinds);
	/* And the port's, for what no queue saw. */
	CHECK(found_port);
	CHECK_EQ(p_bad, 0);
	CHECK_EQ(p_pipe + p_miss, 2 * bad_kinds);
	CHECK_EQ(p_noq, bad_kinds);
	printf("receiver: %u valid frames intact; dropped: %u bad checksum + runt (pipe misses), %u too big, %u for "
	       "queue %u, %llu while no task was posted\n",
	       rx.received, 2 * bad_kinds, bad_kinds, bad_kinds, Q_NOBODY, st_full);
	return T_EXIT_PASS;
}

/* ---- the sender (this process) ---- */

struct tx {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_mmap *mm;
	struct doca_buf_inventory *inv;
	struct doca_eth_txq *txq;
	uint8_t (*slots)[BIG_LEN];
	uint32_t nb_slots, done, failed;
};

#define TX_SLOTS 256

static void tx_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	struct tx *tx = cud.ptr;
	struct doca_buf *b = NULL;

	(void)ud;
	doca_eth_txq_task_send_get_pkt(t, &b);
	doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
	tx->done++;
}

static void tx_fail(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	struct tx *tx = cud.ptr;

	tx->failed++;
	tx_done(t, ud, cud);
}

/* Sends frames slot[0..n) (lengths @len) and waits until every task completed. */
static void tx_send(struct tx *tx, const uint32_t *len, uint32_t n)
{
	uint32_t want = tx->done + n;

	for (uint32_t i = 0; i < n; i++) {
		struct doca_eth_txq_task_send *t;
		struct doca_buf *b;

		CHECK_OK(doca_buf_inventory_buf_get_by_data(tx->inv, tx->mm, tx->slots[i], len[i], &b));
		CHECK_OK(doca_eth_txq_task_send_allocate_init(tx->txq, b, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
	}
	for (uint64_t end = sd_now_ms() + WAIT_MS; tx->done < want && sd_now_ms() < end;)
		doca_pe_progress(tx->pe);
	CHECK_EQ(tx->done, want);
	CHECK_EQ(tx->failed, 0);
}

/* @n valid frames from sequence number @seq. */
static void tx_valid(struct tx *tx, uint32_t seq, uint32_t n)
{
	uint32_t len[TX_SLOTS];

	for (uint32_t i = 0; i < n; i++)
		len[i] = build(tx->slots[i], 17, VALID_LEN, seq + i, false);
	tx_send(tx, len, n);
}

int main(void)
{
	static uint8_t slots[TX_SLOTS][BIG_LEN];
	struct tx tx = {.slots = slots, .nb_slots = TX_SLOTS};
	const char *dir, *e;
	char run[PATH_MAX];
	uint32_t len[TX_SLOTS], n = 0, seq = 0, total = 0;
	struct doca_eth_txq_task_send *t;
	struct doca_buf *b;
	pid_t pid;
	int st;

	if ((e = getenv("ETH_PAIR_RX_DEV")) != NULL && *e != '\0')
		rx_dev = e;
	if ((e = getenv("ETH_PAIR_TX_DEV")) != NULL && *e != '\0')
		tx_dev = e;
	dir = sd_tmpdir();
	snprintf(run, sizeof(run), "%s/run", dir);
	snprintf(log_path, sizeof(log_path), "%s/rx-sdk.log", dir);
	CHECK(mkdir(run, 0700) == 0);
	sd_setenv("XDG_RUNTIME_DIR", run);
	CHECK(pipe(to_rx) == 0 && pipe(to_tx) == 0);
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		exit(receiver());
	}

	tx.dev = sd_open_dev(tx_dev);
	tx.pe = sd_pe();
	tx.mm = sd_mmap_local(tx.dev, slots, sizeof(slots), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	tx.inv = sd_inventory(TX_SLOTS + 1);
	CHECK_OK(doca_eth_txq_create(tx.dev, 32, &tx.txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(tx.txq, tx_done, tx_fail, TX_SLOTS + 1));
	CHECK_OK(doca_ctx_set_user_data(doca_eth_txq_as_doca_ctx(tx.txq), (union doca_data){.ptr = &tx}));
	CHECK_OK(doca_pe_connect_ctx(tx.pe, doca_eth_txq_as_doca_ctx(tx.txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(tx.txq)));

	/* A frame shorter than an Ethernet header is refused at submit: it never reaches the wire. */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(tx.inv, tx.mm, slots[0], 10, &b));
	CHECK_OK(doca_eth_txq_task_send_allocate_init(tx.txq, b, (union doca_data){.u64 = 0}, &t));
	CHECK_ERR(doca_task_try_submit(doca_eth_txq_task_send_as_doca_task(t)), DOCA_ERROR_INVALID_VALUE);
	doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));

	hear(to_tx[0], 'R');
	/* 1. Mixed bursts, one per round: valid frames among each kind of bad one. */
	for (uint32_t r = 0; r < ROUNDS; r++) {
		n = 0;
		for (uint32_t k = 0; k < PER_ROUND; k++) {
			len[n] = build(slots[n], 17, VALID_LEN, seq++, false);
			n++;
			if (k % 4 == 1) /* bad IPv4 header checksum */
				len[n] = build(slots[n], 17, VALID_LEN, 9999, true), n++;
			if (k % 4 == 2) /* longer than the receiver's max_packet_size */
				len[n] = build(slots[n], 17, BIG_LEN, 9999, false), n++;
			if (k % 4 == 3) /* TCP: steered to a queue nobody applied */
				len[n] = build(slots[n], 6, VALID_LEN, 9999, false), n++;
			if (k % 4 == 0) { /* an IPv4 header cut short */
				build(slots[n], 17, VALID_LEN, 9999, false);
				len[n++] = 20;
			}
		}
		tx_send(&tx, len, n);
		total += n;
		say(to_rx[1], 'M', n);
		hear(to_tx[0], 'm');
	}

	/* 2. A flood the receiver has too few tasks for. */
	hear(to_tx[0], 'F');
	tx_valid(&tx, seq, FLOOD);
	seq += FLOOD;
	say(to_rx[1], 'f', FLOOD);

	/* 3. The queue after the flood. */
	hear(to_tx[0], 'P');
	for (int r = 0; r < 2; r++) {
		tx_valid(&tx, seq, AFTER / 2);
		seq += AFTER / 2;
		say(to_rx[1], 'a', AFTER / 2);
		hear(to_tx[0], 'k');
	}

	while (waitpid(pid, &st, 0) != pid)
		CHECK(errno == EINTR);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(tx.txq), tx.pe, NULL, WAIT_MS);
	CHECK_OK(doca_eth_txq_destroy(tx.txq));
	CHECK_OK(doca_pe_destroy(tx.pe));
	CHECK_OK(doca_buf_inventory_stop(tx.inv));
	CHECK_OK(doca_buf_inventory_destroy(tx.inv));
	CHECK_OK(doca_mmap_stop(tx.mm));
	CHECK_OK(doca_mmap_destroy(tx.mm));
	CHECK_OK(doca_dev_close(tx.dev));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		FILE *log = fopen(log_path, "r");
		char line[512];

		fprintf(stderr, "the receiver failed (status 0x%x); its SDK log:\n", st);
		while (log != NULL && fgets(line, sizeof(line), log) != NULL)
			if (strstr(line, "[DBG]") == NULL)
				fputs(line, stderr);
		if (log != NULL)
			fclose(log);
		return T_EXIT_FAIL;
	}
	printf("sender: %u frames in mixed bursts, a flood of %u, then %u\n", total, FLOOD, AFTER);
	return T_EXIT_PASS;
}
