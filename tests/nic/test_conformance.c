/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_conformance.c MEDIUM - one medium's conformance to the port contract (nic.h), run for
 * every medium of the list in src/nic/meson.build as nic-conformance-MEDIUM. Two cabled ports,
 * a (03:00.0) and b (03:00.1), MTU 1514, through the nic port API only:
 *
 *   wire      the two ports cabled by `wire =` (no privileges)
 *   udp       127.0.0.1, two free ports, VNI 42 (no privileges)
 *   afpacket  a veth pair, b's end in a namespace of its own (root and `ip`, else 77)
 *
 *   order     4096 frames with sequence numbers, at most 128 in flight: each arrives, in order
 *   sizes     every size 14..1514 a -> b, then b -> a: each arrives byte for byte, in order
 *   stats     after order and sizes: tx_frames/tx_bytes of the sender and rx_frames/rx_bytes of
 *             the receiver are exactly what was sent, no drop counted, nothing more to receive
 *   full      more than b's receive ring holds, sent while b does not drain: what the medium
 *             documents, from the table below (drops counted exactly, or within a bound where
 *             the kernel may drop where no counter sees it); b receives again afterwards
 *   wake-up   a thread parked on b's rx_fd (rx_rearm first) wakes when a frame comes: poll()
 *             with a 10 s deadline, so a lost wake-up fails instead of hanging
 *   capture   SOFTDOCA_PCAP: a's file holds the frames a sent, b's the frames b received
 *   peer gone b closed: a's sends do not block or fail, each is counted in tx_frames and lost;
 *             b opened again receives what comes next, never what was sent meanwhile
 */
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "../common/sd_test.h"
#include "core.h"
#include "nic.h"

#define PCI_A "03:00.0"
#define PCI_B "03:00.1"
#define MTU   1514u

/* What a full receive ring does on each medium (its file's header comment says so). */
enum full_rule {
	FULL_RING_EXACT, /* b keeps exactly `ring` frames; every other one is counted in rx_drop_full */
	FULL_SUM_EXACT,	 /* b keeps what its buffer holds; delivered + rx_drop_full == sent, exactly */
	FULL_BOUNDED,	 /* rx_drop_full > 0 and delivered + rx_drop_full <= sent (the kernel may drop
			    before the ring, uncounted: veth's backlog) */
};

static const struct expect {
	const char *medium;
	enum full_rule full;
	uint32_t flood; /* frames of MTU bytes sent at b without draining */
	uint32_t ring;	/* FULL_RING_EXACT: frames b's ring holds */
} expects[] = {
    {"wire", FULL_RING_EXACT, 512 + 100, 512}, /* WIRE_SLOTS; dropped and counted at the receiver */
    {"udp", FULL_SUM_EXACT, 12000, 0},	       /* socket buffer; SO_RXQ_OVFL counts the kernel's drops */
    {"afpacket", FULL_BOUNDED, 40000, 0},      /* 16 MiB TPACKET_V3 ring; tp_drops */
};

static const struct expect *ex;

/* ---- frames ---- */

/* A frame whose bytes follow from @seq and @len: header, then seq (when it fits), a pattern. */
static uint32_t make_frame(uint8_t *f, uint32_t seq, uint32_t len)
{
	static const uint8_t hdr[14] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5};

	memcpy(f, hdr, 14);
	for (uint32_t i = 14; i < len; i++)
		f[i] = (uint8_t)(seq * 31 + i);
	if (len >= 18)
		memcpy(f + 14, &seq, 4);
	return len;
}

static struct {
	uint32_t n;
	uint32_t seq[4096];
	uint32_t len[4096];
	bool intact[4096];
} got;

static void on_rx(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	static uint8_t want[NIC_MAX_FRAME];
	uint32_t seq = len, i = got.n % 4096; /* a frame too short for a seq carries seq = len */

	(void)arg;
	(void)ts;
	if (len >= 18)
		memcpy(&seq, frame + 14, 4);
	got.seq[i] = seq;
	got.len[i] = len;
	got.intact[i] =
	    len >= 14 && len <= NIC_MAX_FRAME && make_frame(want, seq, len) == len && memcmp(want, frame, len) == 0;
	got.n++;
}

/* Before a sleep on rx_fd (nic.h); optional, as DOCA Ethernet's receive path treats it (udp's fd is
 * level-triggered and has none). */
static void rearm(const struct nic_port_ops *ops, void *port)
{
	if (ops->rx_rearm != NULL)
		ops->rx_rearm(port);
}

/* Receives until @want frames came in all, or 5 s passed; how many came. */
static uint32_t recv_until(const struct nic_port_ops *ops, void *port, uint32_t want)
{
	uint64_t end = sd_now_ms() + 5000;
	struct pollfd pfd = {.fd = ops->rx_fd(port), .events = POLLIN};

	got.n = 0;
	while (got.n < want && sd_now_ms() < end)
		if (ops->rx_burst(port, 64, on_rx, NULL) == 0) {
			rearm(ops, port);
			poll(&pfd, 1, 20);
		}
	return got.n;
}

/* Whatever comes until nothing did for @ms. */
static uint32_t drain(const struct nic_port_ops *ops, void *port, int ms)
{
	struct pollfd pfd = {.fd = ops->rx_fd(port), .events = POLLIN};
	uint64_t end = sd_now_ms() + 20000;
	uint32_t n = 0;

	got.n = 0;
	while (sd_now_ms() < end) {
		unsigned int k = ops->rx_burst(port, 256, on_rx, NULL);

		n += k;
		if (k != 0)
			continue;
		rearm(ops, port);
		if (poll(&pfd, 1, ms) <= 0 && ops->rx_burst(port, 256, on_rx, NULL) == 0)
			return n;
	}
	CHECK(!"drain: frames kept coming for 20 s");
	return n;
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

struct end {
	struct doca_dev *dev;
	const struct nic_port_ops *ops;
	void *port;
};

static void open_end(const char *pci, struct end *e)
{
	e->dev = sd_open_dev(pci);
	CHECK_OK(priv_doca_nic_port_get(e->dev, &e->ops, &e->port));
	CHECK_STR(e->ops->medium, ex->medium);
	CHECK_EQ(e->ops->mtu(e->port), MTU);
	CHECK(e->ops->rx_fd(e->port) >= 0); /* and a wire port's receiver claims it */
}

static void close_end(struct end *e)
{
	CHECK_OK(doca_dev_close(e->dev));
	memset(e, 0, sizeof(*e));
}

/* ---- order, sizes, stats ---- */

static uint8_t frames[64][NIC_MAX_FRAME];

static void test_order(struct end *a, struct end *b, uint64_t *frames_n, uint64_t *bytes_n)
{
	const uint32_t total = 4096, window = 128;
	struct nic_tx_frame tf[16];
	struct iovec iov[16];
	uint32_t sent = 0, next = 0;
	uint64_t end = sd_now_ms() + 20000;

	while (next < total) {
		CHECK(sd_now_ms() < end);
		if (sent < total && sent - next + 16 <= window) {
			for (uint32_t k = 0; k < 16; k++) {
				uint32_t len = 60 + (sent + k) % 200;

				make_frame(frames[k], sent + k, len);
				iov[k] = (struct iovec){.iov_base = frames[k], .iov_len = len};
				tf[k] = (struct nic_tx_frame){.iov = &iov[k], .iovcnt = 1, .len = len};
				*bytes_n += len;
			}
			send_all(a->ops, a->port, tf, 16);
			sent += 16;
			*frames_n += 16;
		}
		got.n = 0;
		b->ops->rx_burst(b->port, 64, on_rx, NULL);
		for (uint32_t i = 0; i < got.n; i++, next++) {
			CHECK_EQ(got.seq[i], next);
			CHECK_EQ(got.len[i], 60 + next % 200);
			CHECK(got.intact[i]);
		}
		if (got.n == 0 && sent == total)
			usleep(100);
	}
}

static void test_sizes(struct end *a, struct end *b, uint64_t *frames_n, uint64_t *bytes_n)
{
	struct nic_tx_frame tf[64];
	struct iovec iov[64];
	uint32_t len = 14;

	while (len <= MTU) {
		unsigned int m = 0;

		for (; m < 64 && len <= MTU; m++, len++) {
			make_frame(frames[m], len, len);
			iov[m] = (struct iovec){.iov_base = frames[m], .iov_len = len};
			tf[m] = (struct nic_tx_frame){.iov = &iov[m], .iovcnt = 1, .len = len};
			*bytes_n += len;
		}
		*frames_n += m;
		send_all(a->ops, a->port, tf, m);
		CHECK_EQ(recv_until(b->ops, b->port, m), m);
		for (unsigned int i = 0; i < m; i++) {
			CHECK_EQ(got.len[i], tf[i].len);
			CHECK(got.intact[i]);
		}
	}
}

static void check_stats(struct end *tx, const struct nic_port_stats *t0, struct end *rx,
			const struct nic_port_stats *r0, uint64_t frames_n, uint64_t bytes_n)
{
	struct nic_port_stats t, r;

	CHECK_EQ(drain(rx->ops, rx->port, 50), 0);
	tx->ops->stats(tx->port, &t);
	rx->ops->stats(rx->port, &r);
	CHECK_EQ(t.tx_frames - t0->tx_frames, frames_n);
	CHECK_EQ(t.tx_bytes - t0->tx_bytes, bytes_n);
	CHECK_EQ(r.rx_frames - r0->rx_frames, frames_n);
	CHECK_EQ(r.rx_bytes - r0->rx_bytes, bytes_n);
	CHECK_EQ(r.rx_drop_full - r0->rx_drop_full, 0);
	CHECK_EQ(r.rx_drop_bad - r0->rx_drop_bad, 0);
	CHECK_EQ(t.tx_full - t0->tx_full, 0);
}

static void test_order_sizes_stats(void)
{
	struct end a, b;
	struct nic_port_stats a0, b0;
	uint64_t fa = 0, ba = 0, fb = 0, bb = 0;

	open_end(PCI_A, &a);
	open_end(PCI_B, &b);
	a.ops->stats(a.port, &a0);
	b.ops->stats(b.port, &b0);
	test_order(&a, &b, &fa, &ba);
	test_sizes(&a, &b, &fa, &ba);
	check_stats(&a, &a0, &b, &b0, fa, ba);
	/* and the other way */
	a.ops->stats(a.port, &a0);
	b.ops->stats(b.port, &b0);
	test_sizes(&b, &a, &fb, &bb);
	check_stats(&b, &b0, &a, &a0, fb, bb);
	printf("%s: order (4096 frames), sizes 14..%u both ways, stats: ok\n", ex->medium, MTU);
	close_end(&a);
	close_end(&b);
}

/* ---- a full receive ring ---- */

static void test_full(void)
{
	struct end a, b;
	struct nic_port_stats a0, b0, as, bs;
	struct nic_tx_frame tf[64];
	struct iovec iov[64];
	uint32_t delivered, sent = 0;
	uint64_t dropped;

	open_end(PCI_A, &a);
	open_end(PCI_B, &b);
	CHECK_EQ(drain(b.ops, b.port, 20), 0);
	a.ops->stats(a.port, &a0);
	b.ops->stats(b.port, &b0);
	make_frame(frames[0], 1, MTU);
	for (int i = 0; i < 64; i++) {
		iov[i] = (struct iovec){.iov_base = frames[0], .iov_len = MTU};
		tf[i] = (struct nic_tx_frame){.iov = &iov[i], .iovcnt = 1, .len = MTU};
	}
	while (sent < ex->flood) {
		uint32_t m = ex->flood - sent < 64 ? ex->flood - sent : 64;

		send_all(a.ops, a.port, tf, m);
		sent += m;
	}
	/* udp: the kernel's drop count reaches the port with the next datagram it keeps */
	if (ex->full == FULL_SUM_EXACT) {
		delivered = drain(b.ops, b.port, 50);
		send_one(a.ops, a.port, frames[0], MTU);
		sent++;
		delivered += recv_until(b.ops, b.port, 1);
		delivered += drain(b.ops, b.port, 50);
	} else
		delivered = drain(b.ops, b.port, 100);
	a.ops->stats(a.port, &as);
	b.ops->stats(b.port, &bs);
	dropped = bs.rx_drop_full - b0.rx_drop_full;
	printf("%s: full ring: %u sent, %u delivered, %llu counted in rx_drop_full\n", ex->medium, sent, delivered,
	       (unsigned long long)dropped);
	CHECK_EQ(as.tx_frames - a0.tx_frames, sent);
	CHECK_EQ(bs.rx_frames - b0.rx_frames, delivered);
	CHECK(delivered > 0);
	CHECK(dropped > 0);
	switch (ex->full) {
	case FULL_RING_EXACT:
		CHECK_EQ(delivered, ex->ring);
		CHECK_EQ(dropped, sent - ex->ring);
		break;
	case FULL_SUM_EXACT:
		CHECK_EQ(delivered + dropped, sent);
		break;
	case FULL_BOUNDED:
		CHECK(delivered + dropped <= sent);
		break;
	}
	/* not stalled */
	send_one(a.ops, a.port, frames[1], make_frame(frames[1], 4242, 300));
	CHECK_EQ(recv_until(b.ops, b.port, 1), 1);
	CHECK_EQ(got.seq[0], 4242);
	close_end(&a);
	close_end(&b);
}

/* ---- wake-up ---- */

static _Atomic int parked;

static void *sleeper(void *arg)
{
	struct end *b = arg;
	struct pollfd pfd = {.fd = b->ops->rx_fd(b->port), .events = POLLIN};
	int r;

	rearm(b->ops, b->port);
	atomic_store(&parked, 1);
	r = poll(&pfd, 1, 10000); /* a deadline, not a measure: a lost wake-up fails here */
	atomic_store(&parked, r == 1 && (pfd.revents & POLLIN) ? 2 : 3);
	return NULL;
}

static void test_wakeup(void)
{
	struct end a, b;
	pthread_t t;

	open_end(PCI_A, &a);
	open_end(PCI_B, &b);
	for (int round = 0; round < 3; round++) {
		CHECK_EQ(drain(b.ops, b.port, 20), 0);
		atomic_store(&parked, 0);
		CHECK(pthread_create(&t, NULL, sleeper, &b) == 0);
		while (atomic_load(&parked) == 0)
			usleep(100);
		if (round == 1)
			usleep(20000); /* the sleeper most likely in poll() by now, not just before it */
		send_one(a.ops, a.port, frames[0], make_frame(frames[0], 77 + (uint32_t)round, 64));
		pthread_join(t, NULL);
		CHECK_EQ(atomic_load(&parked), 2);
		CHECK_EQ(recv_until(b.ops, b.port, 1), 1);
		CHECK_EQ(got.seq[0], 77 + (uint32_t)round);
	}
	printf("%s: wake-up: ok\n", ex->medium);
	close_end(&a);
	close_end(&b);
}

/* ---- capture ---- */

/* The records of @path: each must be the frame make_frame(@seq0 + i, @len0 + i). */
static void check_pcap(const char *path, uint32_t n, uint32_t seq0, uint32_t len0)
{
	static uint8_t rec[NIC_MAX_FRAME], want[NIC_MAX_FRAME];
	FILE *f = fopen(path, "rb");
	uint32_t hdr[6], rh[4], i = 0;

	CHECK(f != NULL);
	CHECK(fread(hdr, 4, 6, f) == 6);
	CHECK_EQ(hdr[0], 0xa1b23c4du);
	CHECK_EQ(hdr[5], 1);
	while (fread(rh, 4, 4, f) == 4) {
		CHECK(i < n);
		CHECK_EQ(rh[2], len0 + i);
		CHECK_EQ(rh[3], len0 + i);
		CHECK(fread(rec, 1, rh[2], f) == rh[2]);
		make_frame(want, seq0 + i, len0 + i);
		CHECK(memcmp(rec, want, rh[2]) == 0);
		i++;
	}
	fclose(f);
	CHECK_EQ(i, n);
}

static void test_capture(void)
{
	char dir[PATH_MAX], pa[PATH_MAX + 32], pb[PATH_MAX + 32];
	struct end a, b;
	const uint32_t n = 40;

	snprintf(dir, sizeof(dir), "%s/pcap", sd_tmpdir());
	CHECK(mkdir(dir, 0700) == 0);
	sd_setenv("SOFTDOCA_PCAP", dir);
	open_end(PCI_A, &a);
	open_end(PCI_B, &b);
	for (uint32_t i = 0; i < n; i++)
		send_one(a.ops, a.port, frames[0], make_frame(frames[0], 500 + i, 60 + i));
	CHECK_EQ(recv_until(b.ops, b.port, n), n);
	close_end(&a);
	close_end(&b);
	sd_setenv("SOFTDOCA_PCAP", NULL);
	snprintf(pa, sizeof(pa), "%s/0000:" PCI_A ".pcap", dir);
	snprintf(pb, sizeof(pb), "%s/0000:" PCI_B ".pcap", dir);
	check_pcap(pa, n, 500, 60);
	check_pcap(pb, n, 500, 60);
	printf("%s: capture: ok\n", ex->medium);
}

/* ---- peer gone ---- */

static void test_peer_gone(void)
{
	struct end a, b;
	struct nic_port_stats a0, as;
	struct nic_tx_frame tf[64];
	struct iovec iov[64];
	uint32_t taken = 0;
	uint64_t end;

	open_end(PCI_A, &a);
	open_end(PCI_B, &b);
	close_end(&b);
	a.ops->stats(a.port, &a0);
	make_frame(frames[0], 900, 200);
	for (int i = 0; i < 64; i++) {
		iov[i] = (struct iovec){.iov_base = frames[0], .iov_len = 200};
		tf[i] = (struct nic_tx_frame){.iov = &iov[i], .iovcnt = 1, .len = 200};
	}
	/* every frame is taken at once (the medium never waits for a peer that is gone) */
	end = sd_now_ms() + 5000;
	for (int k = 0; k < 16 && sd_now_ms() < end; k++)
		taken += a.ops->tx_burst(a.port, tf, 64);
	a.ops->stats(a.port, &as);
	CHECK_EQ(taken, 16 * 64);
	CHECK_EQ(as.tx_frames - a0.tx_frames, 16 * 64);
	CHECK_EQ(as.tx_full - a0.tx_full, 0);
	/* b again: what comes next arrives, nothing of what was sent meanwhile */
	open_end(PCI_B, &b);
	send_one(a.ops, a.port, frames[1], make_frame(frames[1], 901, 100));
	CHECK_EQ(recv_until(b.ops, b.port, 1), 1);
	CHECK_EQ(got.seq[0], 901);
	CHECK_EQ(drain(b.ops, b.port, 50), 0);
	printf("%s: peer gone: %u frames sent and counted, none delivered later: ok\n", ex->medium, taken);
	close_end(&a);
	close_end(&b);
}

/* ---- the media's set-ups ---- */

static void write_config(const char *text)
{
	char *path = sd_tmpfile("conformance.conf", text);

	sd_setenv("SOFTDOCA_CONFIG", path);
	sd_setenv("SOFTDOCA_SIDE", "all");
	free(path);
}

#define PROFILE "[profile small]\neth.supported = yes\neth.max_packet_size = 1514\n"

static void setup_wire(void)
{
	write_config(PROFILE "[device " PCI_A "]\nside = dpu\nprofile = small\nwire = " PCI_B "\n"
			     "[device " PCI_B "]\nside = dpu\nprofile = small\nwire = " PCI_A "\n");
}

static uint16_t free_port(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	CHECK(fd >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	CHECK(getsockname(fd, (struct sockaddr *)&sa, &len) == 0);
	close(fd);
	return ntohs(sa.sin_port);
}

static void setup_udp(void)
{
	uint16_t pa = free_port(), pb = free_port();
	char text[1024];

	snprintf(text, sizeof(text),
		 PROFILE "[device " PCI_A "]\nside = dpu\nprofile = small\nmedium = udp\nudp.local = 127.0.0.1:%u\n"
			 "udp.peer = 127.0.0.1:%u\nudp.vni = 42\n"
			 "[device " PCI_B "]\nside = dpu\nprofile = small\nmedium = udp\nudp.local = 127.0.0.1:%u\n"
			 "udp.peer = 127.0.0.1:%u\nudp.vni = 42\n",
		 pa, pb, pb, pa);
	write_config(text);
}

static char if_a[16], if_b[16], ns[16];
static bool made;

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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
	sh("ip link del %s >/dev/null 2>&1; ip netns del %s >/dev/null 2>&1", if_a, ns);
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* As test_afpacket.c: a veth pair, b's end in a namespace; 77 where that cannot be made. */
static void setup_afpacket(void)
{
	int pid = (int)getpid() % 10000000, fd;
	char text[1024];

	if (geteuid() != 0)
		T_SKIP("needs root (CAP_NET_RAW and CAP_NET_ADMIN) to make a veth pair");
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		T_SKIP("no AF_PACKET socket (%s): needs CAP_NET_RAW", strerror(errno));
	close(fd);
	if (sh("ip -V >/dev/null 2>&1") != 0)
		T_SKIP("no `ip` command (iproute2)");
	snprintf(if_a, sizeof(if_a), "sdc%da", pid);
	snprintf(if_b, sizeof(if_b), "sdc%db", pid);
	snprintf(ns, sizeof(ns), "sdc%d", pid);
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
	snprintf(text, sizeof(text),
		 PROFILE "[device " PCI_A "]\nside = dpu\nprofile = small\nmedium = afpacket\nifname = %s\n"
			 "[device " PCI_B
			 "]\nside = dpu\nprofile = small\nmedium = afpacket\nifname = %s\nnetns = %s\n",
		 if_a, if_b, ns);
	write_config(text);
}

int main(int argc, char **argv)
{
	char run[PATH_MAX];

	if (argc != 2)
		sd_die_at(__FILE__, __LINE__, "usage: %s MEDIUM", argv[0]);
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
		if (strcmp(expects[i].medium, argv[1]) == 0)
			ex = &expects[i];
	/* a medium in the list must say here how it behaves */
	if (ex == NULL)
		sd_die_at(__FILE__, __LINE__, "medium %s has no row in test_conformance.c's expectations", argv[1]);
	signal(SIGPIPE, SIG_DFL); /* a send to a gone peer must not rely on SIGPIPE being ignored */
	sd_setenv("SOFTDOCA_PCAP", NULL);
	snprintf(run, sizeof(run), "%s/run", sd_tmpdir());
	CHECK(mkdir(run, 0700) == 0);
	sd_setenv("XDG_RUNTIME_DIR", run);
	if (strcmp(ex->medium, "wire") == 0)
		setup_wire();
	else if (strcmp(ex->medium, "udp") == 0)
		setup_udp();
	else if (strcmp(ex->medium, "afpacket") == 0)
		setup_afpacket();
	else
		sd_die_at(__FILE__, __LINE__, "medium %s: no set-up in test_conformance.c", ex->medium);
	test_order_sizes_stats();
	test_wakeup();
	test_capture();
	test_full();
	test_peer_gone();
	printf("%s: conforms\n", ex->medium);
	return T_EXIT_PASS;
}
