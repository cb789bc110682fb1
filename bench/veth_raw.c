/* SPDX-License-Identifier: BSD-3-Clause */
/* veth_raw.c - the veth pair and raw AF_PACKET baseline of the afpacket benchmarks (veth_raw.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "veth_raw.h"

#define BURST	   32
#define RING_BYTES (16u << 20)
#define BLOCK	   (256u << 10)

static struct veth made; /* what cleanup() deletes; empty when nothing was made */

static void cleanup(void)
{
	char cmd[128];

	if (made.ns[0] == '\0')
		return;
	/* deleting the namespace deletes the veth end in it, and with it the pair */
	snprintf(cmd, sizeof(cmd), "ip link del %s >/dev/null 2>&1; ip netns del %s >/dev/null 2>&1", made.a, made.ns);
	made.ns[0] = '\0';
	if (system(cmd) < 0)
		perror("system");
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

int veth_make(struct veth *v)
{
	char cmd[768];
	int pid = (int)getpid() % 1000000;

	snprintf(v->a, sizeof(v->a), "sdb%da", pid);
	snprintf(v->b, sizeof(v->b), "sdb%db", pid);
	snprintf(v->ns, sizeof(v->ns), "sdb%d", pid);
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	snprintf(cmd, sizeof(cmd), "ip netns add %s", v->ns);
	if (system(cmd) != 0) {
		fprintf(stderr, "cannot make the namespace %s (is iproute2 installed?)\n", v->ns);
		return -1;
	}
	made = *v;
	snprintf(cmd, sizeof(cmd),
		 "ip link add %s type veth peer name %s && ip link set %s netns %s && "
		 "echo 1 > /proc/sys/net/ipv6/conf/%s/disable_ipv6 && "
		 "ip netns exec %s sh -c 'echo 1 > /proc/sys/net/ipv6/conf/%s/disable_ipv6' && "
		 "ip link set %s up && ip -n %s link set %s up",
		 v->a, v->b, v->b, v->ns, v->a, v->ns, v->b, v->a, v->ns, v->b);
	if (system(cmd) != 0) {
		fprintf(stderr, "cannot make the veth pair %s <-> %s\n", v->a, v->b);
		return -1;
	}
	return 0;
}

int veth_config(const struct veth *v, char *path_template, const char *extra)
{
	int fd = mkstemp(path_template);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (fp == NULL) {
		perror(path_template);
		return -1;
	}
	fprintf(fp,
		"[profile default]\neth.supported = yes\n%s[device 03:00.0]\nside = dpu\nifname = %s\n"
		"[device 03:00.1]\nside = dpu\nifname = %s\nnetns = %s\n",
		extra != NULL ? extra : "", v->a, v->b, v->ns);
	return fclose(fp) == 0 ? 0 : -1;
}

static int raw_socket(const char *ifname, const char *ns)
{
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL)};
	struct packet_mreq mr = {.mr_type = PACKET_MR_PROMISC};
	int fd, one = 1;

	if (ns != NULL) {
		char path[64];
		int nsfd;

		snprintf(path, sizeof(path), "/run/netns/%s", ns);
		nsfd = open(path, O_RDONLY | O_CLOEXEC);
		if (nsfd < 0 || setns(nsfd, CLONE_NEWNET) != 0) {
			perror("setns");
			exit(1);
		}
		close(nsfd);
	}
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0) {
		perror("socket");
		exit(1);
	}
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	mr.mr_ifindex = sll.sll_ifindex;
	if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) != 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) != 0) {
		perror(ifname);
		exit(1);
	}
	return fd;
}

struct raw_run {
	const struct veth *v;
	const uint8_t *frames; /* @nframes frames of @size bytes, back to back */
	uint32_t nframes, size;
	double secs;
	_Atomic bool ready, stop_rx;
	struct veth_result res;
};

static void *tx_thread(void *arg)
{
	struct raw_run *r = arg;
	struct iovec iov[BURST];
	struct mmsghdr msg[BURST];
	uint64_t t0, end, sent = 0, tx_full = 0; /* counted here: no line shared with the receiver */
	uint32_t next = 0;
	int fd = raw_socket(r->v->a, NULL);

	for (int i = 0; i < BURST; i++) {
		iov[i] = (struct iovec){.iov_len = r->size};
		msg[i] = (struct mmsghdr){.msg_hdr = {.msg_iov = &iov[i], .msg_iovlen = 1}};
	}
	while (!atomic_load(&r->ready))
		sched_yield();
	t0 = bench_now_ns();
	end = t0 + (uint64_t)(r->secs * 1e9);
	while (bench_now_ns() < end) {
		int k;
		unsigned int n;

		/* the frames in turn, as a sender cycling through its buffers does */
		for (int i = 0; i < BURST; i++) {
			iov[i].iov_base = (void *)(r->frames + (size_t)next * r->size);
			next = next + 1 == r->nframes ? 0 : next + 1;
		}
		k = sendmmsg(fd, msg, BURST, MSG_DONTWAIT);
		n = k > 0 ? (unsigned int)k : 0;
		tx_full += BURST - n;
		sent += n;
		next = (uint32_t)((next + r->nframes - (BURST - n) % r->nframes) % r->nframes); /* resend the refused */
	}
	r->res.send_ns = bench_now_ns() - t0;
	r->res.sent = sent;
	r->res.tx_full = tx_full;
	close(fd);
	return NULL;
}

static void *rx_thread(void *arg)
{
	struct raw_run *r = arg;
	struct tpacket_req3 req = {.tp_block_size = BLOCK,
				   .tp_block_nr = RING_BYTES / BLOCK,
				   .tp_frame_size = 2048,
				   .tp_frame_nr = RING_BYTES / 2048,
				   .tp_retire_blk_tov = 1};
	struct tpacket_stats_v3 ts;
	socklen_t sl = sizeof(ts);
	int v3 = TPACKET_V3, fd = raw_socket(r->v->b, r->v->ns);
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	uint64_t bytes = 0, received = 0; /* counted here: no line shared with the sender */
	uint8_t *ring;
	uint32_t blk = 0;

	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v3, sizeof(v3)) != 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) != 0) {
		perror("ring");
		exit(1);
	}
	ring = mmap(NULL, RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (ring == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	(void)getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &ts, &sl); /* from zero */
	atomic_store(&r->ready, true);
	while (!atomic_load(&r->stop_rx)) {
		struct tpacket_block_desc *bd = (void *)(ring + (size_t)blk * BLOCK);
		const uint8_t *h;

		if (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER)) {
			poll(&pfd, 1, 1);
			continue;
		}
		/* read every packet, as a program that uses them must */
		h = (const uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt;
		for (uint32_t k = bd->hdr.bh1.num_pkts; k > 0; k--) {
			const struct tpacket3_hdr *t = (const void *)h;

			bytes += t->tp_snaplen + h[t->tp_mac];
			received++;
			h += t->tp_next_offset;
		}
		__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
		blk = (blk + 1) % (RING_BYTES / BLOCK);
	}
	r->res.received = received;
	sl = sizeof(ts);
	if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &ts, &sl) == 0)
		r->res.drops = ts.tp_drops;
	munmap(ring, RING_BYTES);
	close(fd);
	(void)bytes;
	return NULL;
}

void veth_raw_run(const struct veth *v, const uint8_t *frames, uint32_t nframes, uint32_t size, double secs, bool pin,
		  struct veth_result *out)
{
	struct raw_run r = {.v = v, .frames = frames, .nframes = nframes ? nframes : 1, .size = size, .secs = secs};
	pthread_attr_t ar, at;
	pthread_t tx, rx;

	pthread_attr_init(&ar);
	pthread_attr_init(&at);
	if (pin) {
		bench_thread_attr_on(&ar, 0);
		bench_thread_attr_on(&at, 1);
	}
	if (pthread_create(&rx, &ar, rx_thread, &r) != 0 || pthread_create(&tx, &at, tx_thread, &r) != 0) {
		perror("pthread_create");
		exit(1);
	}
	pthread_attr_destroy(&ar);
	pthread_attr_destroy(&at);
	pthread_join(tx, NULL);
	usleep(100000); /* the last blocks retire after 1 ms; be generous */
	atomic_store(&r.stop_rx, true);
	pthread_join(rx, NULL);
	*out = r.res;
}
