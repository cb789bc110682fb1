/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * loop_port.h - a test medium for the software NIC's ports (nic.h): two devices cabled back to
 * back in one process, each frame copied into the peer's receive ring. Stands in for the real
 * media (src/nic) in libdoca_eth's tests.
 *
 *   loop_pair_install(a, b):  a.tx ──copy──▶ b's ring ──rx_burst──▶ b's receivers
 *                             b.tx ──copy──▶ a's ring ──rx_burst──▶ a's receivers
 *
 * Each ring holds LOOP_RING frames (cap lowers it to test a full medium); a full ring takes
 * fewer frames (tx_burst returns how many, the sender retries). The first LOOP_LOG frames a
 * port sends are kept in its log so tests can check the bytes on the wire.
 * Threads: as nic.h asks of a medium, sends and receives may run on different threads; each
 * port's ring is guarded by its lock (a test medium: simplicity over speed).
 */
#ifndef SD_TEST_LOOP_PORT_H_
#define SD_TEST_LOOP_PORT_H_

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "nic.h"

#define LOOP_RING 256
#define LOOP_LOG  512

struct loop_frame {
	uint32_t len;
	uint8_t data[NIC_MAX_FRAME];
};

struct loop_port {
	pthread_mutex_t lock; /* this port's ring, its rx stats and its peer's tx stats and log */
	struct loop_port *peer;
	uint32_t mtu;
	uint32_t cap; /* frames the ring takes, <= LOOP_RING */
	uint32_t head, tail;
	struct loop_frame ring[LOOP_RING];
	uint32_t nb_sent;
	struct loop_frame *log;
	struct nic_port_stats st;
	int efd; /* loop_enable_fd(): readable while frames wait in the ring; -1 without */
};

static inline void loop_signal(struct loop_port *p)
{
	uint64_t one = 1;

	if (p->efd >= 0 && write(p->efd, &one, sizeof(one)) != sizeof(one))
		abort();
}

static unsigned int loop_tx_burst(void *port, const struct nic_tx_frame *frames, unsigned int n)
{
	struct loop_port *p = port, *d = p->peer;
	unsigned int i;

	pthread_mutex_lock(&d->lock);
	for (i = 0; i < n; i++) {
		struct loop_frame *f;
		uint32_t off = 0;

		if (d->tail - d->head >= d->cap) {
			p->st.tx_full++;
			break;
		}
		f = &d->ring[d->tail % LOOP_RING];
		for (unsigned int k = 0; k < frames[i].iovcnt; k++) {
			memcpy(f->data + off, frames[i].iov[k].iov_base, frames[i].iov[k].iov_len);
			off += (uint32_t)frames[i].iov[k].iov_len;
		}
		if (off != frames[i].len)
			abort(); /* the sender's length must be the sum of its iovecs */
		f->len = off;
		if (p->nb_sent < LOOP_LOG)
			p->log[p->nb_sent] = *f;
		p->nb_sent++;
		d->tail++;
		p->st.tx_frames++;
		p->st.tx_bytes += off;
	}
	if (i > 0)
		loop_signal(d);
	pthread_mutex_unlock(&d->lock);
	return i;
}

static unsigned int loop_rx_burst(void *port, unsigned int n, nic_rx_fn cb, void *cb_arg)
{
	struct loop_port *p = port;
	unsigned int i;

	pthread_mutex_lock(&p->lock);
	for (i = 0; i < n && p->head != p->tail; i++) {
		struct loop_frame *f = &p->ring[p->head % LOOP_RING];

		p->st.rx_frames++;
		p->st.rx_bytes += f->len;
		cb(cb_arg, f->data, f->len, 1000000000ull + p->st.rx_frames);
		p->head++;
	}
	pthread_mutex_unlock(&p->lock);
	return i;
}

static int loop_rx_fd(void *port)
{
	return ((struct loop_port *)port)->efd;
}

/* Called after rx_burst found nothing: clear the fd, unless a frame came in meanwhile. */
static void loop_rx_rearm(void *port)
{
	struct loop_port *p = port;
	uint64_t v;

	if (p->efd < 0)
		return;
	pthread_mutex_lock(&p->lock);
	if (read(p->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		abort();
	if (p->head != p->tail)
		loop_signal(p);
	pthread_mutex_unlock(&p->lock);
}

static void loop_stats(void *port, struct nic_port_stats *out)
{
	struct loop_port *p = port;

	pthread_mutex_lock(&p->lock);
	*out = p->st;
	pthread_mutex_unlock(&p->lock);
}

static uint32_t loop_mtu(void *port)
{
	return ((struct loop_port *)port)->mtu;
}

static const struct nic_port_ops loop_ops = {
    .medium = "loop",
    .tx_burst = loop_tx_burst,
    .rx_burst = loop_rx_burst,
    .rx_fd = loop_rx_fd,
    .rx_rearm = loop_rx_rearm,
    .stats = loop_stats,
    .mtu = loop_mtu,
};

static inline struct loop_port *loop_new(uint32_t mtu)
{
	struct loop_port *p = calloc(1, sizeof(*p));

	if (p == NULL)
		abort();
	p->log = calloc(LOOP_LOG, sizeof(*p->log));
	if (p->log == NULL)
		abort();
	pthread_mutex_init(&p->lock, NULL);
	p->efd = -1;
	p->mtu = mtu;
	p->cap = LOOP_RING;
	return p;
}

/* Cables @a and @b with ports of MTU @mtu; *pa / *pb get their ends. SUCCESS or the install error. */
static inline doca_error_t loop_pair_install(struct doca_dev *a, struct doca_dev *b, uint32_t mtu,
					     struct loop_port **pa, struct loop_port **pb)
{
	struct loop_port *x = loop_new(mtu), *y = loop_new(mtu);
	doca_error_t ret;

	x->peer = y;
	y->peer = x;
	ret = priv_doca_nic_port_install(a, &loop_ops, x);
	if (ret == DOCA_SUCCESS)
		ret = priv_doca_nic_port_install(b, &loop_ops, y);
	*pa = x;
	*pb = y;
	return ret;
}

/* Gives @p's receive side a file descriptor (an eventfd) for the PE to watch; before any queue starts. */
static inline void loop_enable_fd(struct loop_port *p)
{
	p->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->efd < 0)
		abort();
}

/* Frames waiting in @p's receive ring. */
static inline uint32_t loop_pending(struct loop_port *p)
{
	uint32_t n;

	pthread_mutex_lock(&p->lock);
	n = p->tail - p->head;
	pthread_mutex_unlock(&p->lock);
	return n;
}

#endif /* SD_TEST_LOOP_PORT_H_ */
