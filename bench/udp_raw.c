/* SPDX-License-Identifier: BSD-3-Clause */
/* udp_raw.c - raw sendmmsg/recvmmsg on the loopback, the udp medium's baseline (udp_raw.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench_util.h"
#include "udp_raw.h"

#define BATCH 64
#define SLOT  (8 + 1514 + 1)
#define BUF   (4 << 20)

/* A UDP socket on 127.0.0.1:@port (0: a free one, written back). */
static int udp_socket(uint16_t *port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(*port)};
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), v = BUF;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
		perror("udp socket on 127.0.0.1");
		exit(1);
	}
	/* as the medium asks for its buffers */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) != 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)) != 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	*port = ntohs(sa.sin_port);
	return fd;
}

int udp_raw_config(char *path_template)
{
	uint16_t pa = 0, pb = 0;
	int a = udp_socket(&pa), b = udp_socket(&pb);
	int fd = mkstemp(path_template);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

	close(a);
	close(b);
	if (fp == NULL) {
		perror(path_template);
		return -1;
	}
	fprintf(fp,
		"[profile default]\neth.supported = yes\n"
		"[device 03:00.0]\nside = dpu\nudp.local = 127.0.0.1:%u\nudp.peer = 127.0.0.1:%u\n"
		"[device 03:00.1]\nside = dpu\nudp.local = 127.0.0.1:%u\nudp.peer = 127.0.0.1:%u\n",
		pa, pb, pb, pa);
	return fclose(fp) == 0 ? 0 : -1;
}

struct raw_run {
	const uint8_t *frames;
	uint32_t nframes, size;
	double secs;
	int rx_fd;
	struct sockaddr_in to;
	_Atomic bool ready, stop_rx;
	struct veth_result res;
};

static void *tx_thread(void *arg)
{
	struct raw_run *r = arg;
	static const uint8_t hdr[8] = {0x08, 0, 0, 0, 0, 0, 0, 0};
	struct iovec iov[BATCH][2];
	struct mmsghdr msg[BATCH];
	uint64_t t0, end, sent = 0, tx_full = 0;
	uint32_t next = 0;
	uint16_t port = 0;
	int fd = udp_socket(&port);

	for (int i = 0; i < BATCH; i++) {
		iov[i][0] = (struct iovec){.iov_base = (void *)hdr, .iov_len = sizeof(hdr)};
		iov[i][1] = (struct iovec){.iov_len = r->size};
		msg[i] = (struct mmsghdr){
		    .msg_hdr = {.msg_name = &r->to, .msg_namelen = sizeof(r->to), .msg_iov = iov[i], .msg_iovlen = 2}};
	}
	while (!atomic_load(&r->ready))
		sched_yield();
	t0 = bench_now_ns();
	end = t0 + (uint64_t)(r->secs * 1e9);
	while (bench_now_ns() < end) {
		int k;
		unsigned int n;

		for (int i = 0; i < BATCH; i++) {
			iov[i][1].iov_base = (void *)(r->frames + (size_t)next * r->size);
			next = next + 1 == r->nframes ? 0 : next + 1;
		}
		k = sendmmsg(fd, msg, BATCH, MSG_DONTWAIT);
		n = k > 0 ? (unsigned int)k : 0;
		tx_full += BATCH - n;
		sent += n;
		next = (uint32_t)((next + r->nframes - (BATCH - n) % r->nframes) % r->nframes); /* resend the refused */
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
	static uint8_t bufs[BATCH][SLOT];
	struct iovec iov[BATCH];
	struct mmsghdr msg[BATCH];
	uint64_t received = 0, sum = 0;

	for (int i = 0; i < BATCH; i++)
		iov[i] = (struct iovec){.iov_base = bufs[i], .iov_len = SLOT};
	atomic_store(&r->ready, true);
	while (!atomic_load_explicit(&r->stop_rx, memory_order_relaxed)) {
		int k;

		for (int i = 0; i < BATCH; i++)
			msg[i].msg_hdr = (struct msghdr){.msg_iov = &iov[i], .msg_iovlen = 1};
		k = recvmmsg(r->rx_fd, msg, BATCH, MSG_DONTWAIT, NULL);
		for (int i = 0; i < k; i++)
			sum += bufs[i][8]; /* a program uses what it receives */
		if (k > 0)
			received += (uint64_t)k;
	}
	r->res.received = received;
	(void)sum;
	return NULL;
}

void udp_raw_run(const uint8_t *frames, uint32_t nframes, uint32_t size, double secs, bool pin, struct veth_result *out)
{
	struct raw_run r = {.frames = frames, .nframes = nframes ? nframes : 1, .size = size, .secs = secs};
	uint16_t port = 0;
	pthread_attr_t ar, at;
	pthread_t tx, rx;

	r.rx_fd = udp_socket(&port);
	r.to = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons(port)};
	r.to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
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
	usleep(50000); /* what is still in the socket's buffer */
	atomic_store(&r.stop_rx, true);
	pthread_join(rx, NULL);
	close(r.rx_fd);
	*out = r.res;
}
