/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_udp.c - the udp medium (src/nic/udp.c) in one process, on the loopback, no privileges:
 *
 *   03:00.0 <-> 03:00.1   127.0.0.1, two free ports the test picks, VNI 42, MTU 1514 (profile):
 *                         every size 14..1514 each way through the nic API, in order, byte for
 *                         byte; counters add up; a gather list arrives whole
 *   03:00.2 <-> socket S  127.0.0.1, VNI 7: the far end is a plain UDP socket of the test, as a
 *                         Linux vxlan interface or tcpdump would see it: each datagram is the
 *                         RFC 7348 header (08 00 00 00 | VNI | 00) and the frame. Then S and a
 *                         stranger's socket send bad datagrams (wrong VNI, flags 0x00 and 0x88,
 *                         21 bytes, 8 bytes, 0 bytes, a frame of MTU + 1, a good one from
 *                         127.0.0.2): each is counted in rx_drop_bad, none delivered, and the good
 *                         frames between them still arrive in order
 *   rx_enable             off, datagrams that come meanwhile are never delivered; on again, what
 *                         comes next is
 *   03:00.3 <-> socket S6 [::1], default MTU 9216: 14 and 9216 bytes both ways (skipped where
 *                         the host has no IPv6 loopback)
 *   03:00.4               udp.local already bound by 03:00.0: the port does not attach, IN_USE
 *   threads               two threads send on 03:00.0 at once while 03:00.1 receives and a third
 *                         reads counters: every frame arrives, each sender's in order, counters
 *                         exact (run under TSan: the medium's threading contract, nic.h)
 *
 * UDP_SEED_DIR=DIR writes the datagrams S received (real ones, from the medium) and the bad ones
 * it sent as seeds for tests/fuzz/corpus/vxlan.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/socket.h>

#include "../common/sd_test.h"
#include "core.h"
#include "nic.h"

#define MTU_SMALL 1514u
#define VNI_AB	  42u
#define VNI_C	  7u

static const char *seed_dir;
static int seed_n;

static void seed(const char *kind, const uint8_t *d, size_t len)
{
	char path[512];
	FILE *f;

	if (seed_dir == NULL)
		return;
	snprintf(path, sizeof(path), "%s/%s-%02d", seed_dir, kind, seed_n++);
	f = fopen(path, "wb");
	CHECK(f != NULL);
	CHECK(fwrite(d, 1, len, f) == len || len == 0);
	fclose(f);
}

/* A UDP socket bound to the loopback (127.0.0.1 + @host4 or ::1) on a free port; its port in
 * *port. -1 for no IPv6. */
static int bound_socket_at(int family, uint32_t host4, uint16_t *port)
{
	struct sockaddr_storage ss = {0};
	socklen_t len;
	int fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_loopback;
		len = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK + host4);
		len = sizeof(*s4);
	}
	if (bind(fd, (struct sockaddr *)&ss, len) != 0) {
		close(fd);
		return -1;
	}
	CHECK(getsockname(fd, (struct sockaddr *)&ss, &len) == 0);
	*port =
	    ntohs(family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port : ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

static int bound_socket(int family, uint16_t *port)
{
	return bound_socket_at(family, 0, port);
}

/* A free port: bound, read, closed (nothing else on this host takes it meanwhile, in practice). */
static uint16_t free_port(void)
{
	uint16_t port = 0;
	int fd = bound_socket(AF_INET, &port);

	CHECK(fd >= 0);
	close(fd);
	return port;
}

/* ---- frames ---- */

static uint32_t make_frame(uint8_t *f, uint32_t seq, uint32_t len)
{
	static const uint8_t hdr[14] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5};

	memcpy(f, hdr, len < 14 ? len : 14);
	for (uint32_t i = 14; i < len; i++)
		f[i] = (uint8_t)(seq * 31 + i);
	if (len >= 18)
		memcpy(f + 14, &seq, 4);
	return len;
}

static struct {
	uint32_t n;
	uint32_t len[4096];
	uint32_t seq[4096];
	bool intact[4096];
} got;

static void on_rx(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	uint8_t want[NIC_MAX_FRAME];
	uint32_t seq = len, i = got.n % 4096; /* a frame too short for its seq is sent with seq = len */

	(void)arg;
	CHECK(ts > 1000000000ull);
	if (len >= 18)
		memcpy(&seq, frame + 14, 4);
	got.len[i] = len;
	got.seq[i] = seq;
	make_frame(want, seq, len);
	got.intact[i] = memcmp(want, frame, len) == 0;
	got.n++;
}

/* Receives on @port until @want frames came in all, or 5 s passed; how many came. */
static uint32_t recv_until(const struct nic_port_ops *ops, void *port, uint32_t want)
{
	uint64_t end = sd_now_ms() + 5000;
	struct pollfd pfd = {.fd = ops->rx_fd(port), .events = POLLIN};

	CHECK(pfd.fd >= 0);
	got.n = 0;
	while (got.n < want && sd_now_ms() < end)
		if (ops->rx_burst(port, 64, on_rx, NULL) == 0)
			poll(&pfd, 1, 50);
	return got.n;
}

/* Whatever comes within @ms. */
static uint32_t drain(const struct nic_port_ops *ops, void *port, int ms)
{
	struct pollfd pfd = {.fd = ops->rx_fd(port), .events = POLLIN};
	uint64_t end = sd_now_ms() + 1000; /* a port that is off leaves its fd readable */
	uint32_t n = 0;

	got.n = 0;
	while (sd_now_ms() < end) {
		unsigned int k = ops->rx_burst(port, 256, on_rx, NULL);

		n += k;
		if (k != 0)
			continue;
		if (poll(&pfd, 1, ms) <= 0) {
			n += ops->rx_burst(port, 256, on_rx, NULL);
			break;
		}
		usleep(1000);
	}
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

static void get_port(const char *pci, struct doca_dev **dev, const struct nic_port_ops **ops, void **port)
{
	*dev = sd_open_dev(pci);
	CHECK_OK(priv_doca_nic_port_get(*dev, ops, port));
	CHECK_STR((*ops)->medium, "udp");
}

/* ---- 03:00.0 <-> 03:00.1: every size, both ways ---- */

static uint8_t frames[64][NIC_MAX_FRAME];

/* Every size 14..MTU_SMALL from @o/@p to @ro/@rp, 64 at a time, each batch received in order. */
static void every_size(const struct nic_port_ops *o, void *p, const struct nic_port_ops *ro, void *rp)
{
	struct nic_port_stats s0, r0, s, r;
	struct nic_tx_frame tf[64];
	struct iovec iov[64];
	uint64_t bytes = 0;
	uint32_t len = 14, total = 0;

	o->stats(p, &s0);
	ro->stats(rp, &r0);
	while (len <= MTU_SMALL) {
		unsigned int m = 0;

		for (; m < 64 && len <= MTU_SMALL; m++, len++) {
			make_frame(frames[m], len, len);
			iov[m] = (struct iovec){.iov_base = frames[m], .iov_len = len};
			tf[m] = (struct nic_tx_frame){.iov = &iov[m], .iovcnt = 1, .len = len};
			bytes += len;
		}
		send_all(o, p, tf, m);
		CHECK_EQ(recv_until(ro, rp, m), m);
		for (unsigned int i = 0; i < m; i++) {
			CHECK_EQ(got.len[i], tf[i].len);
			CHECK(got.intact[i]);
			if (got.len[i] >= 18)
				CHECK_EQ(got.seq[i], tf[i].len);
		}
		total += m;
	}
	CHECK_EQ(drain(ro, rp, 20), 0);
	o->stats(p, &s);
	ro->stats(rp, &r);
	CHECK_EQ(s.tx_frames - s0.tx_frames, total);
	CHECK_EQ(s.tx_bytes - s0.tx_bytes, bytes);
	CHECK_EQ(r.rx_frames - r0.rx_frames, total);
	CHECK_EQ(r.rx_bytes - r0.rx_bytes, bytes);
	CHECK_EQ(r.rx_drop_bad - r0.rx_drop_bad, 0);
	CHECK_EQ(r.rx_drop_full - r0.rx_drop_full, 0);
}

static void test_pair(void)
{
	const struct nic_port_ops *oa, *ob;
	struct doca_dev *da, *db;
	void *pa, *pb;

	get_port("03:00.0", &da, &oa, &pa);
	get_port("03:00.1", &db, &ob, &pb);
	CHECK_EQ(oa->mtu(pa), MTU_SMALL);
	CHECK_EQ(ob->mtu(pb), MTU_SMALL);
	every_size(oa, pa, ob, pb);
	every_size(ob, pb, oa, pa);
	/* a gather list of three pieces arrives as one frame */
	{
		uint8_t f[600];
		struct iovec g[3] = {{f, 10}, {f + 10, 290}, {f + 300, 300}};
		struct nic_tx_frame t = {.iov = g, .iovcnt = 3, .len = 600};

		make_frame(f, 7777, 600);
		send_all(ob, pb, &t, 1);
		CHECK_EQ(recv_until(oa, pa, 1), 1);
		CHECK(got.intact[0] && got.seq[0] == 7777 && got.len[0] == 600);
	}
	/* frames out of the port's sizes are not sent: counted at the sender */
	{
		struct nic_port_stats s0, s;
		uint8_t tiny[13] = {0};

		oa->stats(pa, &s0);
		send_one(oa, pa, tiny, sizeof(tiny));
		send_one(oa, pa, frames[0], MTU_SMALL + 1);
		oa->stats(pa, &s);
		CHECK_EQ(s.rx_drop_bad - s0.rx_drop_bad, 2);
		CHECK_EQ(s.tx_frames - s0.tx_frames, 0);
		CHECK_EQ(drain(ob, pb, 20), 0);
	}
	/* rx_enable: off, nothing of what comes meanwhile is ever delivered; on, what comes next is */
	{
		CHECK(ob->rx_enable != NULL);
		ob->rx_enable(pb, false);
		for (uint32_t i = 0; i < 5; i++)
			send_one(oa, pa, frames[0], make_frame(frames[0], 100 + i, 100));
		CHECK_EQ(drain(ob, pb, 20), 0);
		usleep(20000);
		ob->rx_enable(pb, true);
		send_one(oa, pa, frames[0], make_frame(frames[0], 200, 100));
		CHECK_EQ(recv_until(ob, pb, 1), 1);
		CHECK_EQ(got.seq[0], 200);
		CHECK_EQ(drain(ob, pb, 20), 0);
	}
	/* 03:00.4 wants 03:00.0's address: refused, and 03:00.0 goes on */
	{
		struct doca_dev *de = sd_open_dev("03:00.4");
		const struct nic_port_ops *oe = NULL;
		void *pe = NULL;

		CHECK_ERR(priv_doca_nic_port_get(de, &oe, &pe), DOCA_ERROR_IN_USE);
		CHECK_OK(doca_dev_close(de));
		send_one(ob, pb, frames[0], make_frame(frames[0], 300, 64));
		CHECK_EQ(recv_until(oa, pa, 1), 1);
	}
	CHECK_OK(doca_dev_close(da));
	CHECK_OK(doca_dev_close(db));
}

/* ---- threads: two senders, one receiver ---- */

#define TH_FRAMES 3000u
#define TH_AHEAD  96u

struct sender {
	const struct nic_port_ops *ops;
	void *port;
	uint32_t id;
	uint64_t end;
};

static _Atomic uint32_t th_sent, th_recv;

static void *send_thread(void *arg)
{
	struct sender *t = arg;
	uint8_t f[16][128];
	struct iovec iov[16];
	struct nic_tx_frame tf[16];

	for (uint32_t i = 0; i < TH_FRAMES; i += 16) {
		for (uint32_t k = 0; k < 16; k++) {
			make_frame(f[k], t->id << 24 | (i + k), 128);
			iov[k] = (struct iovec){.iov_base = f[k], .iov_len = 128};
			tf[k] = (struct nic_tx_frame){.iov = &iov[k], .iovcnt = 1, .len = 128};
		}
		/* at most TH_AHEAD datagrams in the receiver's socket, whatever its buffer and speed */
		while (atomic_load(&th_sent) - atomic_load(&th_recv) > TH_AHEAD && sd_now_ms() < t->end)
			sched_yield();
		send_all(t->ops, t->port, tf, i + 16 <= TH_FRAMES ? 16 : TH_FRAMES - i);
		atomic_fetch_add(&th_sent, i + 16 <= TH_FRAMES ? 16 : TH_FRAMES - i);
	}
	return NULL;
}

static _Atomic bool th_stop;

static void *stats_thread(void *arg)
{
	struct sender *t = arg;
	struct nic_port_stats st;

	while (!atomic_load(&th_stop))
		t->ops->stats(t->port, &st);
	return NULL;
}

static struct {
	uint32_t next[2], n, bad;
} th;

static void on_th(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	uint32_t seq;

	(void)arg;
	(void)ts;
	memcpy(&seq, frame + 14, 4);
	if (len != 128 || seq >> 24 > 1 || (seq & 0xffffff) != th.next[seq >> 24])
		th.bad++;
	else
		th.next[seq >> 24]++;
	th.n++;
}

static void test_threads(void)
{
	const struct nic_port_ops *oa, *ob;
	struct nic_port_stats sa0, sb0, sa, sb;
	struct doca_dev *da, *db;
	void *pa, *pb;
	pthread_t tx[2], stt;
	struct sender s[2];
	uint64_t end;

	get_port("03:00.0", &da, &oa, &pa);
	get_port("03:00.1", &db, &ob, &pb);
	oa->stats(pa, &sa0);
	ob->stats(pb, &sb0);
	for (uint32_t i = 0; i < 2; i++) {
		s[i] = (struct sender){.ops = oa, .port = pa, .id = i, .end = sd_now_ms() + 20000};
		CHECK(pthread_create(&tx[i], NULL, send_thread, &s[i]) == 0);
	}
	CHECK(pthread_create(&stt, NULL, stats_thread, &s[0]) == 0);
	end = sd_now_ms() + 20000;
	while (th.n < 2 * TH_FRAMES && sd_now_ms() < end)
		if (ob->rx_burst(pb, 64, on_th, NULL) == 0)
			usleep(50);
		else
			atomic_store(&th_recv, th.n);
	for (int i = 0; i < 2; i++)
		pthread_join(tx[i], NULL);
	atomic_store(&th_stop, true);
	pthread_join(stt, NULL);
	CHECK_EQ(th.bad, 0);
	CHECK_EQ(th.n, 2 * TH_FRAMES);
	oa->stats(pa, &sa);
	ob->stats(pb, &sb);
	CHECK_EQ(sa.tx_frames - sa0.tx_frames, 2 * TH_FRAMES);
	CHECK_EQ(sa.tx_bytes - sa0.tx_bytes, 2 * TH_FRAMES * 128ull);
	CHECK_EQ(sb.rx_frames - sb0.rx_frames, 2 * TH_FRAMES);
	CHECK_EQ(sb.rx_drop_full - sb0.rx_drop_full, 0);
	CHECK_OK(doca_dev_close(da));
	CHECK_OK(doca_dev_close(db));
}

/* ---- 03:00.2 <-> socket S: the datagrams on the wire, and bad ones ---- */

static void sock_send(int fd, uint16_t to_port, const uint8_t *d, size_t len)
{
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(to_port)};

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(sendto(fd, d, len, 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)len);
}

static ssize_t sock_recv(int fd, uint8_t *buf, size_t len)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	if (poll(&pfd, 1, 5000) != 1)
		return -1;
	return recv(fd, buf, len, MSG_DONTWAIT);
}

static void test_far_end(int s, uint16_t port_c)
{
	static uint8_t d[8 + NIC_MAX_FRAME + 64];
	const struct nic_port_ops *oc;
	struct nic_port_stats st0, st;
	struct doca_dev *dc;
	void *pc;
	int stranger, other;
	uint16_t stranger_port, other_port;
	static const uint32_t sizes[] = {14, 60, 64, 1000, MTU_SMALL};

	get_port("03:00.2", &dc, &oc, &pc);
	/* what the medium sends: header, then the frame, one datagram each */
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ssize_t n;

		send_one(oc, pc, frames[0], make_frame(frames[0], (uint32_t)i, sizes[i]));
		n = sock_recv(s, d, sizeof(d));
		CHECK_EQ(n, 8 + sizes[i]);
		CHECK_MEM(d, "\x08\x00\x00\x00\x00\x00\x07\x00", 8);
		CHECK_MEM(d + 8, frames[0], sizes[i]);
		seed("medium", d, (size_t)n);
	}

	/* bad datagrams from the peer, each followed by a good one */
	oc->stats(pc, &st0);
	other = bound_socket(AF_INET, &other_port);
	CHECK(other >= 0);
	stranger = bound_socket_at(AF_INET, 1, &stranger_port); /* 127.0.0.2 */
	CHECK(stranger >= 0);
	{
		struct {
			const char *what;
			uint8_t flags;
			uint32_t vni;
			size_t len; /* whole datagram */
			int from_stranger;
		} bad[] = {
		    {"wrong VNI", 0x08, 8, 8 + 64, 0},
		    {"I clear", 0x00, VNI_C, 8 + 64, 0},
		    {"reserved flag", 0x88, VNI_C, 8 + 64, 0},
		    {"21 bytes", 0x08, VNI_C, 21, 0},
		    {"header only", 0x08, VNI_C, 8, 0},
		    {"empty", 0x08, VNI_C, 0, 0},
		    {"MTU + 1", 0x08, VNI_C, 8 + MTU_SMALL + 1, 0},
		    {"far too long", 0x08, VNI_C, 8 + 9216 + 8, 0},
		    {"not the peer", 0x08, VNI_C, 8 + 64, 1},
		};
		const size_t nb = sizeof(bad) / sizeof(bad[0]);

		for (size_t i = 0; i < nb; i++) {
			d[0] = bad[i].flags;
			d[1] = d[2] = d[3] = d[7] = 0;
			d[4] = (uint8_t)(bad[i].vni >> 16);
			d[5] = (uint8_t)(bad[i].vni >> 8);
			d[6] = (uint8_t)bad[i].vni;
			if (bad[i].len > 8)
				make_frame(d + 8, 5000 + (uint32_t)i,
					   (uint32_t)(bad[i].len - 8 < 14 ? 14 : bad[i].len - 8));
			sock_send(bad[i].from_stranger ? stranger : s, port_c, d, bad[i].len);
			seed("bad", d, bad[i].len);
			/* the good one: reserved bytes set, which a receiver ignores; from the peer's
			 * address but another port every other time (VXLAN senders pick one per flow) */
			memcpy(d, "\x08\x01\x02\x03\x00\x00\x07\x04", 8);
			make_frame(d + 8, 6000 + (uint32_t)i, 100);
			sock_send(i % 2 ? other : s, port_c, d, 8 + 100);
		}
		CHECK_EQ(recv_until(oc, pc, (uint32_t)nb), nb);
		for (size_t i = 0; i < nb; i++) {
			CHECK_EQ(got.seq[i], 6000 + i);
			CHECK(got.intact[i]);
		}
		CHECK_EQ(drain(oc, pc, 20), 0);
		oc->stats(pc, &st);
		CHECK_EQ(st.rx_drop_bad - st0.rx_drop_bad, nb);
		CHECK_EQ(st.rx_frames - st0.rx_frames, nb);
	}
	close(stranger);
	close(other);
	CHECK_OK(doca_dev_close(dc));
}

/* ---- 03:00.3 <-> socket S6 over IPv6, the default MTU ---- */

static void test_ipv6(int s6, uint16_t port_d)
{
	static uint8_t d[8 + NIC_MAX_FRAME + 8];
	const struct nic_port_ops *od;
	struct sockaddr_in6 to = {.sin6_family = AF_INET6, .sin6_port = htons(port_d), .sin6_addr = in6addr_loopback};
	struct doca_dev *dd;
	void *pd;
	static const uint32_t sizes[] = {14, NIC_MAX_FRAME};

	get_port("03:00.3", &dd, &od, &pd);
	CHECK_EQ(od->mtu(pd), NIC_MAX_FRAME);
	for (int i = 0; i < 2; i++) {
		ssize_t n;

		send_one(od, pd, frames[0], make_frame(frames[0], 10 + (uint32_t)i, sizes[i]));
		n = sock_recv(s6, d, sizeof(d));
		CHECK_EQ(n, 8 + sizes[i]);
		CHECK_MEM(d, "\x08\x00\x00\x00\x00\x00\x07\x00", 8);
		CHECK_MEM(d + 8, frames[0], sizes[i]);
		if (i == 0)
			seed("medium6", d, (size_t)n);
		/* and back */
		make_frame(d + 8, 20 + (uint32_t)i, sizes[i]);
		CHECK(sendto(s6, d, 8 + sizes[i], 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)(8 + sizes[i]));
		CHECK_EQ(recv_until(od, pd, 1), 1);
		CHECK_EQ(got.len[0], sizes[i]);
		CHECK(got.intact[0]);
	}
	CHECK_OK(doca_dev_close(dd));
}

int main(void)
{
	uint16_t pa = free_port(), pb = free_port(), pc = free_port(), pd = free_port(), ps = 0, ps6 = 0;
	int s = bound_socket(AF_INET, &ps), s6 = bound_socket(AF_INET6, &ps6);
	char text[2048];
	char *path;

	seed_dir = getenv("UDP_SEED_DIR");
	CHECK(s >= 0);
	snprintf(text, sizeof(text),
		 "[profile default]\neth.supported = yes\n"
		 "[profile small]\neth.supported = yes\neth.max_packet_size = %u\n"
		 "[device 03:00.0]\nside = dpu\nprofile = small\nmedium = udp\nudp.local = 127.0.0.1:%u\n"
		 "udp.peer = 127.0.0.1:%u\nudp.vni = %u\n"
		 "[device 03:00.1]\nside = dpu\nprofile = small\nudp.local = 127.0.0.1:%u\nudp.peer = 127.0.0.1:%u\n"
		 "udp.vni = %u\n"
		 "[device 03:00.2]\nside = dpu\nprofile = small\nudp.local = 127.0.0.1:%u\nudp.peer = 127.0.0.1:%u\n"
		 "udp.vni = %u\n"
		 "[device 03:00.3]\nside = dpu\nudp.local = [::1]:%u\nudp.peer = [::1]:%u\nudp.vni = %u\n"
		 "[device 03:00.4]\nside = dpu\nudp.local = 127.0.0.1:%u\nudp.peer = 127.0.0.1:%u\n",
		 MTU_SMALL, pa, pb, VNI_AB, pb, pa, VNI_AB, pc, ps, VNI_C, pd, ps6, VNI_C, pa, pb);
	path = sd_tmpfile("udp.conf", text);
	sd_setenv("SOFTDOCA_CONFIG", path);
	sd_setenv("SOFTDOCA_SIDE", "all");
	free(path);

	test_pair();
	test_threads();
	test_far_end(s, pc);
	if (s6 >= 0)
		test_ipv6(s6, pd);
	else
		printf("no IPv6 loopback here: the IPv6 part is skipped\n");
	close(s);
	if (s6 >= 0)
		close(s6);
	printf("udp over 127.0.0.1 (ports %u, %u, %u)%s: ok\n", pa, pb, pc, s6 >= 0 ? " and [::1]" : "");
	return 0;
}
