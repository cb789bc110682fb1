/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_afpacket.c - the afpacket medium (src/nic/afpacket.c) on a veth pair the test makes:
 * sdv<pid>a in this process's namespace (device 03:00.0), sdv<pid>b in the namespace sd<pid>
 * (device 03:00.1, netns = sd<pid>, profile eth.max_packet_size = 1000).
 *
 *   ports      both attach, MTU = interface MTU + 14 (a), the profile's cap (b)
 *   frames     a -> b frames of random sizes arrive in order, byte for byte; b -> a a gather
 *              list arrives whole; a VLAN-tagged frame keeps its tag; counters add up
 *   drops      a frame above b's MTU and one under 14 bytes are counted in rx_drop_bad and
 *              never delivered, and the next frame still arrives
 *   link down  a frame sent while the interface is down is lost, not retried forever;
 *              frames flow again once it is up
 *   pcap       SOFTDOCA_PCAP captures what each port sent and received
 *   threads    two threads send at once while another receives and reads counters: all
 *              frames, each sender's in order, counters exact (run under TSan, the medium's
 *              threading contract)
 *   flood      frames beyond the receive ring while nobody drains: the excess is counted in
 *              rx_drop_full, the port keeps receiving afterwards
 *   rx_enable  off, the port takes nothing in (no frame, no drop) and the kernel visits none of
 *              its sockets for a frame (none bound to every protocol, /proc/net/packet) nor is
 *              the interface promiscuous for it; on again, it receives what is sent from then
 *              on, never what waited in its ring before
 *   eth        a doca_eth_txq on one end, a doca_eth_rxq on the other, both ways: frames
 *              arrive byte for byte through the DOCA Ethernet API
 *   missing    an interface or a namespace that does not exist: OPERATING_SYSTEM, logged
 *
 * Needs root (CAP_NET_RAW, CAP_NET_ADMIN, CAP_SYS_ADMIN) and `ip`: skipped (77) otherwise. The
 * veth pair and the namespace are deleted at exit, whatever the outcome.
 */
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "../eth/eth_test.h"
#include "core.h"
#include "nic.h"

#define PCI_A "03:00.0"
#define PCI_B "03:00.1"
#define MTU_B 1000u

static char if_a[16], if_b[16], ns[16];
static bool made;

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs a shell command line; its exit status. */
static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

static void cleanup(void)
{
	if (!made)
		return;
	made = false;
	/* deleting the namespace deletes the veth end in it, and with it the pair */
	sh("ip link del %s >/dev/null 2>&1; ip netns del %s >/dev/null 2>&1", if_a, ns);
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void make_veth(void)
{
	pid_t pid = getpid();

	if (geteuid() != 0)
		T_SKIP("needs root (CAP_NET_RAW and CAP_NET_ADMIN) to make a veth pair");
	{
		int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);

		if (fd < 0)
			T_SKIP("no AF_PACKET socket (%s): needs CAP_NET_RAW", strerror(errno));
		close(fd);
	}
	if (sh("ip -V >/dev/null 2>&1") != 0)
		T_SKIP("no `ip` command (iproute2)");
	snprintf(if_a, sizeof(if_a), "sdv%da", (int)pid % 10000000);
	snprintf(if_b, sizeof(if_b), "sdv%db", (int)pid % 10000000);
	snprintf(ns, sizeof(ns), "sd%d", (int)pid % 10000000);
	atexit(cleanup);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (sh("ip netns add %s", ns) != 0)
		T_SKIP("cannot create a network namespace here");
	made = true;
	/* IPv6 off: no router solicitations or MLD reports cross the pair behind the test's back */
	if (sh("ip link add %s type veth peer name %s && ip link set %s netns %s && "
	       "echo 1 > /proc/sys/net/ipv6/conf/%s/disable_ipv6; "
	       "ip netns exec %s sh -c 'echo 1 > /proc/sys/net/ipv6/conf/%s/disable_ipv6'; "
	       "ip link set %s up && ip -n %s link set %s up",
	       if_a, if_b, if_b, ns, if_a, ns, if_b, if_a, ns, if_b) != 0)
		T_SKIP("cannot make the veth pair %s/%s", if_a, if_b);
}

static void write_config(void)
{
	char text[1024];
	char *path;

	snprintf(text, sizeof(text),
		 "[profile default]\neth.supported = yes\n"
		 "[profile small]\neth.supported = yes\neth.max_packet_size = %u\n"
		 "[device 03:00.0]\nside = dpu\nmedium = afpacket\nifname = %s\n"
		 "[device 03:00.1]\nside = dpu\nprofile = small\nifname = %s\nnetns = %s\n"
		 "[device 03:00.2]\nside = dpu\nifname = %sx\nnetns = %s\n"
		 "[device 03:00.3]\nside = dpu\nifname = %s\nnetns = %sx\n",
		 MTU_B, if_a, if_b, ns, if_b, ns, if_b, ns);
	path = sd_tmpfile("afpacket.conf", text);
	sd_setenv("SOFTDOCA_CONFIG", path);
	sd_setenv("SOFTDOCA_SIDE", "all");
	free(path);
}

/* ---- frames ---- */

/* A frame whose bytes follow from @seq and @len: 14-byte header, seq, len, then a pattern. */
static uint32_t make_frame(uint8_t *f, uint32_t seq, uint32_t len)
{
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x88\xb5", 14);
	memcpy(f + 14, &seq, 4);
	memcpy(f + 18, &len, 4);
	for (uint32_t i = 22; i < len; i++)
		f[i] = (uint8_t)(seq * 31 + i);
	return len;
}

static struct {
	uint32_t n;
	uint32_t seq[256];
	uint32_t len[256];
	bool intact[256];
	uint8_t last[NIC_MAX_FRAME];
	uint32_t last_len;
} got;

static void on_rx(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	uint8_t want[NIC_MAX_FRAME];
	uint32_t seq = 0, i = got.n % 256;

	(void)arg;
	CHECK(ts > 1000000000ull);
	if (len >= 22)
		memcpy(&seq, frame + 14, 4);
	got.seq[i] = seq;
	got.len[i] = len;
	got.intact[i] = len >= 22 && make_frame(want, seq, len) == len && memcmp(want, frame, len) == 0;
	memcpy(got.last, frame, len);
	got.last_len = len;
	got.n++;
}

/* Receives on @port until @want frames came in all, or 5 s passed; how many came. */
static uint32_t recv_until(const struct nic_port_ops *ops, void *port, uint32_t want)
{
	uint64_t end = sd_now_ms() + 5000;
	struct pollfd pfd = {.fd = ops->rx_fd(port), .events = POLLIN};

	CHECK(pfd.fd >= 0);
	got.n = 0;
	while (got.n < want && sd_now_ms() < end) {
		if (ops->rx_burst(port, 64, on_rx, NULL) == 0) {
			ops->rx_rearm(port);
			poll(&pfd, 1, 50);
		}
	}
	return got.n;
}

/* Receives whatever comes within @ms after the last frame. */
static uint32_t drain(const struct nic_port_ops *ops, void *port, int ms)
{
	struct pollfd pfd = {.fd = ops->rx_fd(port), .events = POLLIN};
	uint32_t n = 0;

	got.n = 0;
	for (;;) {
		unsigned int k = ops->rx_burst(port, 256, on_rx, NULL);

		n += k;
		if (k != 0)
			continue;
		ops->rx_rearm(port); /* before a sleep on the fd (nic.h) */
		if (poll(&pfd, 1, ms) <= 0 && ops->rx_burst(port, 256, on_rx, NULL) == 0)
			return n;
	}
}

static void send_all(const struct nic_port_ops *ops, void *port, const struct nic_tx_frame *f, unsigned int n)
{
	uint64_t end = sd_now_ms() + 5000;
	unsigned int done = 0;

	while (done < n) {
		done += ops->tx_burst(port, f + done, n - done);
		CHECK(sd_now_ms() < end);
	}
}

static void send_one(const struct nic_port_ops *ops, void *port, const uint8_t *frame, uint32_t len)
{
	struct iovec iov = {.iov_base = (void *)frame, .iov_len = len};
	struct nic_tx_frame f = {.iov = &iov, .iovcnt = 1, .len = len};

	send_all(ops, port, &f, 1);
}

static void get_port(const char *pci, struct doca_dev **dev, const struct nic_port_ops **ops, void **port)
{
	*dev = sd_open_dev(pci);
	CHECK_OK(priv_doca_nic_port_get(*dev, ops, port));
	CHECK_STR((*ops)->medium, "afpacket");
}

/* ---- ports: frames, drops, pcap ---- */

#define NB_FRAMES 200u

static uint8_t frames[NB_FRAMES][1024];

static void test_ports(const char *pcap_dir)
{
	const struct nic_port_ops *oa, *ob;
	struct nic_port_stats sa0, sb0, sa, sb;
	struct nic_tx_frame tf[NB_FRAMES];
	struct iovec iov[NB_FRAMES];
	struct doca_dev *da, *db;
	void *pa, *pb;
	uint64_t bytes = 0;
	uint32_t len;

	get_port(PCI_A, &da, &oa, &pa);
	get_port(PCI_B, &db, &ob, &pb);
	CHECK_EQ(oa->mtu(pa), 1514);
	CHECK_EQ(ob->mtu(pb), MTU_B);
	oa->stats(pa, &sa0);
	ob->stats(pb, &sb0);

	/* a -> b: sizes 14 .. MTU_B, in order, intact */
	srand((unsigned int)getpid());
	for (uint32_t i = 0; i < NB_FRAMES; i++) {
		len = i == 0 ? 22 : i == 1 ? MTU_B : 22 + (uint32_t)rand() % (MTU_B - 22);
		make_frame(frames[i], i, len);
		iov[i] = (struct iovec){.iov_base = frames[i], .iov_len = len};
		tf[i] = (struct nic_tx_frame){.iov = &iov[i], .iovcnt = 1, .len = len};
		bytes += len;
	}
	send_all(oa, pa, tf, NB_FRAMES);
	CHECK_EQ(recv_until(ob, pb, NB_FRAMES), NB_FRAMES);
	for (uint32_t i = 0; i < NB_FRAMES; i++) {
		CHECK_EQ(got.seq[i], i);
		CHECK_EQ(got.len[i], tf[i].len);
		CHECK(got.intact[i]);
	}
	oa->stats(pa, &sa);
	ob->stats(pb, &sb);
	CHECK_EQ(sa.tx_frames - sa0.tx_frames, NB_FRAMES);
	CHECK_EQ(sa.tx_bytes - sa0.tx_bytes, bytes);
	CHECK_EQ(sb.rx_frames - sb0.rx_frames, NB_FRAMES);
	CHECK_EQ(sb.rx_bytes - sb0.rx_bytes, bytes);
	CHECK_EQ(sb.rx_drop_bad, 0);
	CHECK_EQ(sb.rx_drop_full, 0);

	/* b -> a: a gather list of three pieces arrives as one frame (and b's own frame is not
	 * received back by b) */
	{
		uint8_t f[600];
		struct iovec g[3] = {{f, 10}, {f + 10, 290}, {f + 300, 300}};
		struct nic_tx_frame t = {.iov = g, .iovcnt = 3, .len = 600};

		make_frame(f, 7777, 600);
		send_all(ob, pb, &t, 1);
		CHECK_EQ(recv_until(oa, pa, 1), 1);
		CHECK(got.intact[0] && got.seq[0] == 7777 && got.len[0] == 600);
		CHECK_EQ(drain(ob, pb, 20), 0);
	}

	/* a VLAN-tagged frame keeps its tag, though the kernel hands it over without it */
	{
		uint8_t f[200];

		memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x81\x00\x20\x07\x88\xb5", 18);
		for (int i = 18; i < 200; i++)
			f[i] = (uint8_t)i;
		send_one(oa, pa, f, sizeof(f));
		CHECK_EQ(recv_until(ob, pb, 1), 1);
		CHECK_EQ(got.last_len, sizeof(f));
		CHECK_MEM(got.last, f, sizeof(f));
	}

	/* too long for b: counted at b, not delivered; too short to send: counted at a; the
	 * next frame still arrives */
	{
		static uint8_t big[1400];
		uint8_t tiny[10] = {0};

		ob->stats(pb, &sb0);
		oa->stats(pa, &sa0);
		make_frame(big, 9001, sizeof(big));
		send_one(oa, pa, big, sizeof(big));
		send_one(oa, pa, tiny, sizeof(tiny));
		make_frame(frames[0], 9002, 100);
		send_one(oa, pa, frames[0], 100);
		CHECK_EQ(recv_until(ob, pb, 1), 1);
		CHECK_EQ(got.seq[0], 9002);
		CHECK(got.intact[0]);
		CHECK_EQ(drain(ob, pb, 20), 0);
		ob->stats(pb, &sb);
		oa->stats(pa, &sa);
		CHECK_EQ(sb.rx_drop_bad - sb0.rx_drop_bad, 1);
		CHECK_EQ(sb.rx_frames - sb0.rx_frames, 1);
		CHECK_EQ(sa.rx_drop_bad - sa0.rx_drop_bad, 1);
		CHECK_EQ(sa.tx_frames - sa0.tx_frames, 2);
	}
	/* the interface goes down: a frame sent meanwhile is lost (counted as sent, as on an
	 * unplugged wire), the send does not wait for the link; once it is up, frames flow again */
	{
		oa->stats(pa, &sa0);
		CHECK_EQ(sh("ip link set %s down", if_a), 0);
		make_frame(frames[0], 9100, 120);
		send_one(oa, pa, frames[0], 120);
		CHECK_EQ(sh("ip link set %s up", if_a), 0);
		/* the flap left an error pending on a's socket: once rx_rearm had its chance to read
		 * it (at most every 100 ms), a's fd no longer reports POLLERR to a sleeping PE */
		{
			struct pollfd pfd = {.fd = oa->rx_fd(pa), .events = POLLIN};

			usleep(150000);
			oa->rx_rearm(pa);
			CHECK_EQ(poll(&pfd, 1, 0), 0);
		}
		make_frame(frames[0], 9101, 120);
		send_one(oa, pa, frames[0], 120);
		CHECK_EQ(recv_until(ob, pb, 1), 1);
		CHECK_EQ(got.seq[0], 9101);
		CHECK_EQ(drain(ob, pb, 20), 0);
		/* down and up again, then at once a frame: the error the flap left pending must not
		 * cost it */
		CHECK_EQ(sh("ip link set %s down && ip link set %s up", if_a, if_a), 0);
		make_frame(frames[0], 9102, 120);
		send_one(oa, pa, frames[0], 120);
		CHECK_EQ(recv_until(ob, pb, 1), 1);
		CHECK_EQ(got.seq[0], 9102);
		oa->stats(pa, &sa);
		CHECK_EQ(sa.tx_frames - sa0.tx_frames, 3);
		CHECK_EQ(sa.tx_full - sa0.tx_full, 0);
	}
	CHECK_OK(doca_dev_close(da));
	CHECK_OK(doca_dev_close(db));

	/* the captures: a sent NB_FRAMES + 6 (one lost) and received 1; b received NB_FRAMES + 4
	 * and sent 1 */
	{
		char path[512];
		uint8_t hdr[24], rec[16];
		uint32_t want[2] = {NB_FRAMES + 7, NB_FRAMES + 5};
		const char *pci[2] = {"0000:03:00.0", "0000:03:00.1"};

		for (int k = 0; k < 2; k++) {
			FILE *fp;
			uint32_t n = 0, incl;

			snprintf(path, sizeof(path), "%s/%s.pcap", pcap_dir, pci[k]);
			fp = fopen(path, "rb");
			CHECK(fp != NULL);
			CHECK(fread(hdr, 1, 24, fp) == 24);
			CHECK_MEM(hdr, "\x4d\x3c\xb2\xa1", 4);
			while (fread(rec, 1, 16, fp) == 16) {
				memcpy(&incl, rec + 8, 4);
				CHECK(incl >= 14 && incl <= NIC_MAX_FRAME);
				if (k == 1 && n == 0) {
					uint8_t first[NIC_MAX_FRAME];

					/* b's first record is a's first frame, received */
					CHECK(fread(first, 1, incl, fp) == incl);
					CHECK_EQ(incl, 22);
					CHECK_MEM(first, frames[0], 14);
				} else {
					CHECK(fseek(fp, (long)incl, SEEK_CUR) == 0);
				}
				n++;
			}
			fclose(fp);
			CHECK_EQ(n, want[k]);
		}
	}
}

/* ---- flood ---- */

static void test_flood(void)
{
	const struct nic_port_ops *oa, *ob;
	struct nic_port_stats sa0, sb0, sa, sb;
	struct nic_tx_frame tf[64];
	struct iovec iov[64];
	struct doca_dev *da, *db;
	void *pa, *pb;
	const uint32_t total = 40000; /* about 40 MB: more than b's 16 MiB ring holds */
	uint32_t got_after, delivered;

	get_port(PCI_A, &da, &oa, &pa);
	get_port(PCI_B, &db, &ob, &pb);
	oa->stats(pa, &sa0);
	ob->stats(pb, &sb0);
	make_frame(frames[0], 1, MTU_B);
	for (int i = 0; i < 64; i++) {
		iov[i] = (struct iovec){.iov_base = frames[0], .iov_len = MTU_B};
		tf[i] = (struct nic_tx_frame){.iov = &iov[i], .iovcnt = 1, .len = MTU_B};
	}
	/* nobody receives on b meanwhile */
	for (uint32_t sent = 0; sent < total; sent += 64)
		send_all(oa, pa, tf, 64);
	oa->stats(pa, &sa);
	CHECK_EQ(sa.tx_frames - sa0.tx_frames, total);
	delivered = drain(ob, pb, 100);
	ob->stats(pb, &sb);
	printf("flood: %u sent, %u delivered, %llu dropped at the ring, %llu refused by a full socket\n", total,
	       delivered, (unsigned long long)(sb.rx_drop_full - sb0.rx_drop_full),
	       (unsigned long long)(sa.tx_full - sa0.tx_full));
	CHECK_EQ(sb.rx_frames - sb0.rx_frames, delivered);
	CHECK(delivered > 0);
	CHECK(sb.rx_drop_full - sb0.rx_drop_full > 0);
	/* the kernel may also drop in the veth's backlog, which no socket sees: never more arrives */
	CHECK(delivered + (sb.rx_drop_full - sb0.rx_drop_full) <= total);
	/* not stalled: a frame after the flood arrives */
	make_frame(frames[1], 4242, 300);
	send_one(oa, pa, frames[1], 300);
	got_after = recv_until(ob, pb, 1);
	CHECK_EQ(got_after, 1);
	CHECK_EQ(got.seq[0], 4242);
	CHECK_OK(doca_dev_close(da));
	CHECK_OK(doca_dev_close(db));
}

/* ---- threads: two send at once while another receives and reads the counters ---- */

#define THREAD_FRAMES 3008u /* per sender, a multiple of the burst, 16 */
#define SENDER_BIT    0x80000000u

static _Atomic uint32_t next_seq[2]; /* the next frame the receiver expects from each sender */

struct sender {
	const struct nic_port_ops *ops;
	void *port;
	uint32_t id;
};

static void *send_thread(void *arg)
{
	const struct sender *s = arg;
	uint8_t f[16][256];
	struct iovec iov[16];
	struct nic_tx_frame tf[16];

	for (uint32_t seq = 0; seq < THREAD_FRAMES; seq += 16) {
		for (uint32_t k = 0; k < 16; k++) {
			uint32_t len = 60 + (seq + k + s->id * 7) % 190;

			make_frame(f[k], (seq + k) | (s->id ? SENDER_BIT : 0), len);
			iov[k] = (struct iovec){.iov_base = f[k], .iov_len = len};
			tf[k] = (struct nic_tx_frame){.iov = &iov[k], .iovcnt = 1, .len = len};
		}
		/* at most 128 frames in flight each, so no queue on the way (the kernel's backlog
		 * holds 1000) can overflow: this checks order and counters, not rate */
		while (seq + 16 - atomic_load(&next_seq[s->id]) > 128)
			usleep(100);
		send_all(s->ops, s->port, tf, 16);
	}
	return NULL;
}

static bool in_order = true;

static void order_cb(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	uint8_t want[256];
	uint32_t raw, id;

	(void)arg;
	(void)ts;
	memcpy(&raw, frame + 14, 4);
	id = raw & SENDER_BIT ? 1 : 0;
	if ((raw & ~SENDER_BIT) != atomic_load(&next_seq[id]) || len > sizeof(want) ||
	    make_frame(want, raw, len) != len || memcmp(want, frame, len))
		in_order = false;
	atomic_fetch_add(&next_seq[id], 1);
}

/* Two senders on one port (two txqs on two PEs do that): each one's frames in order, counters exact. */
static void test_threads(void)
{
	const struct nic_port_ops *oa, *ob;
	struct nic_port_stats sa0, sb0, sa, sb;
	struct doca_dev *da, *db;
	struct sender s[2];
	pthread_t th[2];
	void *pa, *pb;
	uint64_t end;
	struct pollfd pfd;

	get_port(PCI_A, &da, &oa, &pa);
	get_port(PCI_B, &db, &ob, &pb);
	oa->stats(pa, &sa0);
	ob->stats(pb, &sb0);
	pfd = (struct pollfd){.fd = ob->rx_fd(pb), .events = POLLIN};
	for (uint32_t i = 0; i < 2; i++) {
		s[i] = (struct sender){oa, pa, i};
		CHECK(pthread_create(&th[i], NULL, send_thread, &s[i]) == 0);
	}
	end = sd_now_ms() + 20000;
	while (atomic_load(&next_seq[0]) + atomic_load(&next_seq[1]) < 2 * THREAD_FRAMES && sd_now_ms() < end) {
		if (ob->rx_burst(pb, 64, order_cb, NULL) == 0) {
			ob->rx_rearm(pb);
			poll(&pfd, 1, 10);
		}
		oa->stats(pa, &sa); /* while the senders count */
	}
	for (uint32_t i = 0; i < 2; i++)
		CHECK(pthread_join(th[i], NULL) == 0);
	oa->stats(pa, &sa);
	ob->stats(pb, &sb);
	CHECK(in_order);
	CHECK_EQ(atomic_load(&next_seq[0]), THREAD_FRAMES);
	CHECK_EQ(atomic_load(&next_seq[1]), THREAD_FRAMES);
	CHECK_EQ(sa.tx_frames - sa0.tx_frames, 2 * THREAD_FRAMES);
	CHECK_EQ(sb.rx_frames - sb0.rx_frames, 2 * THREAD_FRAMES);
	CHECK_EQ(sb.rx_drop_full - sb0.rx_drop_full, 0);
	CHECK_OK(doca_dev_close(da));
	CHECK_OK(doca_dev_close(db));
}

/* ---- DOCA Ethernet over afpacket ---- */

static struct {
	int sent, send_err, recv, recv_err;
	struct doca_eth_rxq_task_recv *got[16];
} st;

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *pkt = NULL;

	(void)ud;
	(void)cud;
	st.sent++;
	CHECK_OK(doca_eth_txq_task_send_get_pkt(t, &pkt));
	CHECK_OK(doca_buf_dec_refcount(pkt, NULL));
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void send_fail(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *pkt = NULL;

	(void)ud;
	(void)cud;
	st.send_err++;
	if (doca_eth_txq_task_send_get_pkt(t, &pkt) == DOCA_SUCCESS && pkt != NULL)
		doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void recv_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	st.got[st.recv++ % 16] = t;
}

static void recv_fail(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;

	(void)ud;
	(void)cud;
	st.recv_err++;
	if (doca_eth_rxq_task_recv_get_pkt(t, &b) == DOCA_SUCCESS)
		doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

#define ETH_FRAMES 8

static uint8_t rx_mem[ETH_FRAMES][2048], tx_mem[ETH_FRAMES][2048];

/* ETH_FRAMES IPv4/UDP frames from a txq on @pci_tx to a REGULAR rxq on @pci_rx. */
static void eth_one_way(const char *pci_tx, const char *pci_rx)
{
	struct doca_dev *dt = sd_open_dev(pci_tx), *dr = sd_open_dev(pci_rx);
	struct doca_pe *pe = sd_pe();
	struct doca_buf_inventory *inv = sd_inventory(4 * ETH_FRAMES);
	struct doca_mmap *rxm = eth_mmap(dr, rx_mem, sizeof(rx_mem)), *txm = eth_mmap(dt, tx_mem, sizeof(tx_mem));
	struct doca_eth_txq *txq;
	struct doca_eth_rxq *rxq;
	uint32_t len[ETH_FRAMES];
	uint64_t end;

	memset(&st, 0, sizeof(st));
	CHECK_OK(doca_eth_txq_create(dt, 32, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, send_done, send_fail, 32));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_eth_rxq_create(dr, 32, MTU_B, &rxq));
	CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_REGULAR));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, recv_done, recv_fail, ETH_FRAMES));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));
	for (int i = 0; i < ETH_FRAMES; i++) {
		struct doca_eth_rxq_task_recv *t;
		struct doca_buf *b;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, rxm, rx_mem[i], sizeof(rx_mem[i]), &b));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, b, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}
	for (int i = 0; i < ETH_FRAMES; i++) {
		struct doca_eth_txq_task_send *t;
		struct doca_buf *b;

		len[i] = build_ipv4(tx_mem[i], 17, 100 + 100 * (uint32_t)i, (uint8_t)(i * 17), true);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, txm, tx_mem[i], len[i], &b));
		CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, b, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
	}
	end = sd_now_ms() + 5000;
	while ((st.recv < ETH_FRAMES || st.sent < ETH_FRAMES) && sd_now_ms() < end)
		doca_pe_progress(pe);
	CHECK_EQ(st.sent, ETH_FRAMES);
	CHECK_EQ(st.recv, ETH_FRAMES);
	for (int i = 0; i < ETH_FRAMES; i++) {
		struct doca_buf *b = NULL;
		void *data = NULL;
		size_t dlen = 0;
		uint8_t ok = 0;

		CHECK_OK(doca_eth_rxq_task_recv_get_pkt(st.got[i], &b));
		CHECK_OK(doca_buf_get_data(b, &data));
		CHECK_OK(doca_buf_get_data_len(b, &dlen));
		CHECK_EQ(dlen, len[i]);
		CHECK_MEM(data, tx_mem[i], len[i]);
		CHECK_OK(doca_eth_rxq_task_recv_get_l4_ok(st.got[i], &ok));
		CHECK_EQ(ok, 1);
		CHECK_OK(doca_buf_dec_refcount(b, NULL));
		doca_task_free(doca_eth_rxq_task_recv_as_doca_task(st.got[i]));
	}
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), pe, NULL, 5000);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	CHECK_EQ(st.send_err, 0);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	CHECK_OK(doca_eth_txq_destroy(txq));
	eth_test_release(pe, inv, rxm, txm);
	CHECK_OK(doca_dev_close(dt));
	CHECK_OK(doca_dev_close(dr));
}

/* A missing interface or namespace: the port does not attach, with OPERATING_SYSTEM (not
 * NOT_FOUND, which says "no medium configured"), and the device stays usable. */
static void test_missing(void)
{
	const char *pci[2] = {"03:00.2", "03:00.3"};

	for (int i = 0; i < 2; i++) {
		struct doca_dev *d = sd_open_dev(pci[i]);
		const struct nic_port_ops *ops = NULL;
		void *port = NULL;

		CHECK_ERR(priv_doca_nic_port_get(d, &ops, &port), DOCA_ERROR_OPERATING_SYSTEM);
		CHECK_OK(doca_dev_close(d));
	}
}

/* ---- rx_enable: a port that does not receive takes nothing in, and starts afresh ---- */

/* Packet sockets of this namespace bound to interface @ifname with protocol ETH_P_ALL: each
 * is handed every frame of the interface. */
static int sockets_taking_all(const char *ifname)
{
	unsigned int ifindex = if_nametoindex(ifname);
	char line[256];
	int n = 0;
	FILE *f = fopen("/proc/net/packet", "r");

	CHECK(f != NULL && ifindex != 0);
	CHECK(fgets(line, sizeof(line), f) != NULL); /* sk RefCnt Type Proto Iface R Rmem User Inode */
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned int proto, iface, running;

		CHECK(sscanf(line, "%*s %*d %*d %x %u %u", &proto, &iface, &running) == 3);
		if (iface == ifindex && proto == 0x0003 && running)
			n++;
	}
	fclose(f);
	return n;
}

/* The kernel's own flags of @ifname: IFF_PROMISC while any socket asks for it (SIOCGIFFLAGS
 * shows only what `ip link set promisc` set). */
static bool promiscuous(const char *ifname)
{
	char path[128];
	unsigned int flags = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", ifname);
	f = fopen(path, "r");
	CHECK(f != NULL);
	CHECK(fscanf(f, "%x", &flags) == 1);
	fclose(f);
	return (flags & IFF_PROMISC) != 0;
}

static void test_rx_enable(void)
{
	const struct nic_port_ops *oa, *ob;
	struct nic_port_stats st0, st;
	struct doca_dev *da, *db;
	uint8_t f[256];
	void *pa, *pb;

	get_port(PCI_A, &da, &oa, &pa);
	get_port(PCI_B, &db, &ob, &pb);
	CHECK(ob->rx_enable != NULL);
	/* a (this namespace): one socket takes every frame while it receives, none while it does not */
	CHECK_EQ(sockets_taking_all(if_a), 1);
	CHECK(promiscuous(if_a));
	oa->rx_enable(pa, false);
	CHECK_EQ(sockets_taking_all(if_a), 0);
	CHECK(!promiscuous(if_a));
	send_one(oa, pa, f, make_frame(f, 999, 200)); /* the send side does not depend on it */
	CHECK_EQ(recv_until(ob, pb, 1), 1);
	CHECK_EQ(got.seq[0], 999);
	oa->rx_enable(pa, true);
	CHECK_EQ(sockets_taking_all(if_a), 1);
	CHECK(promiscuous(if_a));
	(void)drain(ob, pb, 20);
	ob->stats(pb, &st0);
	ob->rx_enable(pb, false);
	ob->rx_enable(pb, false); /* twice: no change */
	for (uint32_t i = 0; i < 20; i++)
		send_one(oa, pa, f, make_frame(f, 1000 + i, 200));
	CHECK_EQ(drain(ob, pb, 50), 0);
	ob->rx_enable(pb, true);
	for (uint32_t i = 0; i < 5; i++)
		send_one(oa, pa, f, make_frame(f, 2000 + i, 200));
	CHECK_EQ(recv_until(ob, pb, 5), 5);
	for (uint32_t i = 0; i < 5; i++)
		CHECK(got.seq[i] == 2000 + i && got.intact[i]);
	CHECK_EQ(drain(ob, pb, 50), 0);
	ob->stats(pb, &st);
	CHECK_EQ(st.rx_frames - st0.rx_frames, 5);
	CHECK_EQ(st.rx_drop_full - st0.rx_drop_full, 0);
	/* frames that came in while on but were never read do not survive off and on */
	for (uint32_t i = 0; i < 3; i++)
		send_one(oa, pa, f, make_frame(f, 3000 + i, 200));
	usleep(20000); /* the kernel retires the block after 1 ms */
	ob->rx_enable(pb, false);
	ob->rx_enable(pb, true);
	send_one(oa, pa, f, make_frame(f, 4000, 200));
	CHECK_EQ(recv_until(ob, pb, 1), 1);
	CHECK_EQ(got.seq[0], 4000);
	CHECK_OK(doca_dev_close(da));
	CHECK_OK(doca_dev_close(db));
}

int main(void)
{
	const char *dir;
	char pcap_dir[512];

	make_veth();
	write_config();
	dir = sd_tmpdir();
	snprintf(pcap_dir, sizeof(pcap_dir), "%s/pcap", dir);
	CHECK(mkdir(pcap_dir, 0700) == 0);
	sd_setenv("SOFTDOCA_PCAP", pcap_dir);
	test_missing();
	test_ports(pcap_dir);
	sd_setenv("SOFTDOCA_PCAP", NULL);
	test_threads();
	test_flood();
	test_rx_enable();
	eth_one_way(PCI_A, PCI_B);
	eth_one_way(PCI_B, PCI_A);
	printf("afpacket over %s <-> %s (netns %s): ok\n", if_a, if_b, ns);
	return 0;
}
