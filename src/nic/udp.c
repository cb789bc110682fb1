/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp.c - the udp medium: a port whose frames travel in UDP datagrams with VXLAN framing
 * (RFC 7348, vxlan.h) between this host and one peer, over IPv4 or IPv6, with no privileges.
 * The peer is another softdoca port (on another machine, in another namespace, in this process)
 * or anything that speaks VXLAN: a Linux vxlan interface, a switch's VTEP.
 *
 *   port ──tx_burst──▶ sendmmsg(socket, to udp.peer)   one system call per burst of up to 64
 *                      [VXLAN header | frame]           the header one constant of the port,
 *                                                       the frame the caller's gather list
 *   port ◀─rx_burst─── recvmmsg(socket)                 one system call per up to 64 datagrams,
 *                      sender, flags, VNI, size checked  into the port's own buffers
 *
 * One SOCK_DGRAM socket, non-blocking, bound to udp.local (default: any address of the peer's
 * family, port 4789) and not connected: a datagram from any address but udp.peer's is received
 * so it can be counted, then dropped (the peer's source port is not checked: VXLAN senders pick
 * one per flow). rx_fd() is the socket itself, readable while datagrams wait
 * (level-triggered: nothing to arm, rx_rearm is not needed).
 *
 * Every datagram is untrusted: it lands in a private buffer one byte longer than the largest
 * good one, its sender is compared with udp.peer, then vxlan_parse() checks flags, VNI and
 * length (VXLAN_MIN_FRAME..MTU). A bad one is counted in rx_drop_bad and dropped; the first of
 * each rule is said in one warning line naming the sender, later ones at DEBUG at most once a
 * second per port. Datagrams the kernel dropped because the socket's buffer was full
 * (SO_RXQ_OVFL) are counted in rx_drop_full.
 *
 * Sizes: datagrams are sent with fragmentation allowed (IP_PMTUDISC_DONT), so a frame of the
 * port's MTU crosses a path of a smaller MTU in IP fragments, as Linux's vxlan does by default.
 *
 * Threads: tx_burst from any threads at once (the kernel serialises the sends; each burst's
 * mmsghdr and iovec arrays are on its stack; the header is read-only), rx_burst and rx_enable
 * from one thread at a time (the receive buffers are the port's), stats from any thread.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sendmmsg, recvmmsg */
#endif

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "core.h"
#include "nic_internal.h"
#include "vxlan.h"

#define COMP "nic"

#define UDP_BATCH     64u	     /* datagrams per sendmmsg / recvmmsg */
#define UDP_TX_IOV    256u	     /* iovecs of one sendmmsg: headers and gather lists */
#define UDP_SOCKBUF   (4 << 20)	     /* send and receive buffers asked for */
#define UDP_LOG_NS    1000000000ull  /* later drops of a rule: one DEBUG line a second */
#define UDP_DRAIN_MAX 4096u	     /* rx_enable: batches read at most when dropping stale ones */
#define UDP_FOREIGN   VXLAN_VERDICTS /* a drop reason beyond the parser's: not the peer */
#define UDP_REASONS   (VXLAN_VERDICTS + 1)

#ifndef SO_RXQ_OVFL
#define SO_RXQ_OVFL 40
#endif

struct udp_port {
	struct doca_dev *dev;
	int fd;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char local_str[INET6_ADDRSTRLEN + 8], peer_str[INET6_ADDRSTRLEN + 8];
	uint32_t mtu, vni;
	uint8_t hdr[VXLAN_HDR_LEN]; /* every datagram's header: read-only once set up */
	struct sockaddr_storage peer;
	socklen_t peer_len;
	/* receive side: the receiving thread's */
	bool rx_on;
	uint32_t slot; /* bytes of one receive buffer: header + MTU + 1 */
	uint8_t *rx_mem;
	struct mmsghdr rx_msg[UDP_BATCH];
	struct iovec rx_iov[UDP_BATCH];
	struct sockaddr_storage rx_from[UDP_BATCH];
	uint8_t rx_ctl[UDP_BATCH][CMSG_SPACE(sizeof(uint32_t))];
	uint32_t ovfl_seen; /* the socket's drop count at the last look (SO_RXQ_OVFL) */
	uint64_t drops[UDP_REASONS];
	uint64_t next_log_ns;
	uint32_t said; /* bit per reason: its warning line was written */
	/* counters: tx_* by the sending threads (fetch_add), rx_* by the receiving one; rx_drop_bad
	 * by both (a bad size meets either side) */
	_Atomic uint64_t tx_frames, tx_bytes, tx_full;
	_Atomic uint64_t rx_frames, rx_bytes, rx_drop_bad, rx_drop_full;
	_Atomic int tx_errno; /* last errno that lost frames, said once per change */
	struct nic_pcap *pcap;
};

static void counter_add(_Atomic uint64_t *c, uint64_t v)
{
	/* one writer per counter: a plain read-modify-write */
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v, memory_order_relaxed);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* "192.0.2.1:4789" or "[2001:db8::1]:4789". */
static void addr_str(const struct sockaddr_storage *ss, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		snprintf(out, len, "[%s]:%u", a, ntohs(s6->sin6_port));
	} else if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		snprintf(out, len, "%s:%u", a, ntohs(s4->sin_port));
	} else {
		snprintf(out, len, "(address family %u)", (unsigned int)ss->ss_family);
	}
}

static socklen_t to_sockaddr(const struct topo_udp_addr *a, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == 6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(a->port);
		memcpy(&s6->sin6_addr, a->addr, 16);
		return sizeof(*s6);
	}
	{
		struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(a->port);
		memcpy(&s4->sin_addr, a->addr, 4);
		return sizeof(*s4);
	}
}

/* ---- receive side ---- */

/*
 * Whether the datagram came from udp.peer's address. Not its port: a VXLAN sender picks the
 * source port per flow (RFC 7348 section 5: a hash of the inner frame, as Linux's vxlan does),
 * and only the destination port is VXLAN's.
 */
static bool from_peer(const struct udp_port *p, const struct sockaddr_storage *from, socklen_t len)
{
	if (from->ss_family != p->peer.ss_family || len < p->peer_len)
		return false;
	if (from->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)from)->sin6_addr,
			      &((const struct sockaddr_in6 *)&p->peer)->sin6_addr, 16) == 0;
	return ((const struct sockaddr_in *)from)->sin_addr.s_addr ==
	       ((const struct sockaddr_in *)&p->peer)->sin_addr.s_addr;
}

/* A datagram that is not a frame of this port: counted; its rule said once, then at DEBUG. */
static void rx_drop(struct udp_port *p, unsigned int why, const struct sockaddr_storage *from, size_t len)
{
	char who[INET6_ADDRSTRLEN + 8];
	const char *rule =
	    why == UDP_FOREIGN ? "not from udp.peer's address" : vxlan_verdict_str((enum vxlan_verdict)why);
	uint64_t now;

	p->drops[why]++;
	atomic_fetch_add_explicit(&p->rx_drop_bad, 1, memory_order_relaxed);
	if (!(p->said & (1u << why))) {
		p->said |= 1u << why;
		addr_str(from, who, sizeof(who));
		SD_WARN(COMP,
			"port %s: udp %s: a datagram of %zu bytes from %s dropped: %s (VNI %u, peer %s); counted in "
			"rx_drop_bad, said once per rule; check the far end's VXLAN settings",
			p->pci, p->local_str, len, who, rule, p->vni, p->peer_str);
		return;
	}
	now = sd_mono_ns();
	if (now < p->next_log_ns)
		return;
	p->next_log_ns = now + UDP_LOG_NS;
	addr_str(from, who, sizeof(who));
	SD_DBG(COMP, "port %s: udp: dropped a datagram of %zu bytes from %s: %s (%llu so far for this rule)", p->pci,
	       len, who, rule, (unsigned long long)p->drops[why]);
}

/* The socket's drop count (SO_RXQ_OVFL) in the control data of @m, if the kernel put it there. */
static void rx_ovfl(struct udp_port *p, struct msghdr *m)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c != NULL; c = CMSG_NXTHDR(m, c)) {
		uint32_t v;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_RXQ_OVFL || c->cmsg_len < CMSG_LEN(sizeof(v)))
			continue;
		memcpy(&v, CMSG_DATA(c), sizeof(v));
		if (v != p->ovfl_seen) {
			atomic_fetch_add_explicit(&p->rx_drop_full, (uint32_t)(v - p->ovfl_seen), memory_order_relaxed);
			p->ovfl_seen = v;
		}
	}
}

/* Reads up to @m datagrams into the port's buffers; how many (0 when none waited). */
static int rx_read(struct udp_port *p, unsigned int m)
{
	int r;

	for (unsigned int i = 0; i < m; i++) {
		struct msghdr *h = &p->rx_msg[i].msg_hdr;

		h->msg_name = &p->rx_from[i];
		h->msg_namelen = sizeof(p->rx_from[i]);
		h->msg_iov = &p->rx_iov[i];
		h->msg_iovlen = 1;
		h->msg_control = p->rx_ctl[i];
		h->msg_controllen = sizeof(p->rx_ctl[i]);
		h->msg_flags = 0;
	}
	do
		r = recvmmsg(p->fd, p->rx_msg, m, MSG_DONTWAIT, NULL);
	while (r < 0 && errno == EINTR);
	return r > 0 ? r : 0;
}

static unsigned int udp_rx_burst(void *port, unsigned int n, nic_rx_fn cb, void *cb_arg)
{
	struct udp_port *p = port;
	uint64_t bytes = 0;
	unsigned int k = 0, visited = 0;

	if (SD_UNLIKELY(!p->rx_on))
		return 0;
	/* every datagram read counts toward @n, delivered or not */
	while (visited < n) {
		unsigned int m = n - visited < UDP_BATCH ? n - visited : UDP_BATCH;
		int r = rx_read(p, m);
		uint64_t ts;

		if (r == 0)
			break;
		ts = now_ns();
		for (int i = 0; i < r; i++) {
			struct msghdr *h = &p->rx_msg[i].msg_hdr;
			size_t len = p->rx_msg[i].msg_len;
			const uint8_t *frame;
			uint32_t flen;
			enum vxlan_verdict v;

			if (SD_UNLIKELY(h->msg_controllen != 0))
				rx_ovfl(p, h);
			if (SD_UNLIKELY(!from_peer(p, &p->rx_from[i], h->msg_namelen))) {
				rx_drop(p, UDP_FOREIGN, &p->rx_from[i], len);
				continue;
			}
			/* a datagram longer than the buffer was cut: its frame is over the MTU */
			v = (h->msg_flags & MSG_TRUNC)
				? VXLAN_LONG
				: vxlan_parse(p->rx_iov[i].iov_base, len, p->vni, p->mtu, &frame, &flen);
			if (SD_UNLIKELY(v != VXLAN_OK)) {
				rx_drop(p, v, &p->rx_from[i], len);
				continue;
			}
			if (p->pcap != NULL)
				nic_pcap_write(p->pcap, NULL, 0, frame, flen, ts);
			cb(cb_arg, frame, flen, ts);
			bytes += flen;
			k++;
		}
		visited += (unsigned int)r;
		if ((unsigned int)r < m)
			break; /* the socket is empty */
	}
	if (k) {
		counter_add(&p->rx_frames, k);
		counter_add(&p->rx_bytes, bytes);
		if (p->pcap != NULL)
			nic_pcap_flush(p->pcap);
	}
	return k;
}

static int udp_rx_fd(void *port)
{
	/* readable while datagrams wait (level-triggered, nothing to arm) */
	return ((const struct udp_port *)port)->fd;
}

/*
 * Off: the socket stays bound (the peer is not told; what it sends meanwhile waits in the
 * socket's buffer, and beyond it the kernel drops). On: whatever waited is read and dropped
 * uncounted, so the port receives what arrives from then on.
 */
static void udp_rx_enable(void *port, bool on)
{
	struct udp_port *p = port;

	if (on == p->rx_on)
		return;
	if (on)
		for (unsigned int i = 0; i < UDP_DRAIN_MAX && rx_read(p, UDP_BATCH) == (int)UDP_BATCH; i++)
			;
	p->rx_on = on;
}

/* ---- send side ---- */

/* A frame the network refused for good: said once per reason. */
static void tx_lost(struct udp_port *p, int err)
{
	if (atomic_exchange_explicit(&p->tx_errno, err, memory_order_relaxed) != err)
		SD_WARN(COMP,
			"port %s: udp %s: sending to %s fails: %s; frames are lost until it works (is there a route "
			"to the peer? check udp.peer in SOFTDOCA_CONFIG)",
			p->pci, p->local_str, p->peer_str, strerror(err));
}

static unsigned int udp_tx_burst(void *port, const struct nic_tx_frame *frames, unsigned int n)
{
	struct udp_port *p = port;
	struct mmsghdr msg[UDP_BATCH];
	struct iovec iov[UDP_TX_IOV];
	unsigned int idx[UDP_BATCH]; /* msg[k] is frames[idx[k]] */
	uint8_t flat[NIC_MAX_FRAME]; /* a frame of more pieces than one sendmmsg takes, made whole */
	uint64_t ts = p->pcap != NULL ? now_ns() : 0, sent = 0, bytes = 0, bad = 0;
	unsigned int i = 0, taken = n;

	while (i < n) {
		unsigned int m = 0, used = 0;
		int r;

		/* a batch of well-sized frames, each [header | its gather list]; bad ones are counted */
		for (; i < n && m < UDP_BATCH; i++) {
			const struct nic_tx_frame *f = &frames[i];
			struct msghdr *h = &msg[m].msg_hdr;

			if (SD_UNLIKELY(f->len < VXLAN_MIN_FRAME || f->len > p->mtu)) {
				bad++;
				continue;
			}
			if (SD_UNLIKELY(f->iovcnt + 1 > UDP_TX_IOV - used)) {
				if (m != 0)
					break; /* the next batch */
				{
					uint32_t off = 0;

					for (unsigned int j = 0; j < f->iovcnt && off < f->len; j++) {
						size_t c =
						    f->iov[j].iov_len < f->len - off ? f->iov[j].iov_len : f->len - off;

						memcpy(flat + off, f->iov[j].iov_base, c);
						off += (uint32_t)c;
					}
				}
				iov[0] = (struct iovec){.iov_base = p->hdr, .iov_len = VXLAN_HDR_LEN};
				iov[1] = (struct iovec){.iov_base = flat, .iov_len = f->len};
				*h = (struct msghdr){
				    .msg_name = &p->peer, .msg_namelen = p->peer_len, .msg_iov = iov, .msg_iovlen = 2};
				msg[m].msg_len = 0;
				idx[m++] = i++;
				break; /* alone in its batch */
			}
			iov[used] = (struct iovec){.iov_base = p->hdr, .iov_len = VXLAN_HDR_LEN};
			memcpy(&iov[used + 1], f->iov, f->iovcnt * sizeof(*f->iov));
			*h = (struct msghdr){.msg_name = &p->peer,
					     .msg_namelen = p->peer_len,
					     .msg_iov = &iov[used],
					     .msg_iovlen = f->iovcnt + 1};
			msg[m].msg_len = 0;
			used += f->iovcnt + 1;
			idx[m++] = i;
		}
		if (m == 0) {
			if (i < n)
				taken = i; /* no memory to make a frame whole: the rest waits */
			break;
		}
		do
			r = sendmmsg(p->fd, msg, m, MSG_DONTWAIT);
		while (r < 0 && errno == EINTR);
		if (r < 0) {
			int err = errno;

			if (err == EAGAIN || err == ENOBUFS) {
				/* the socket's buffer is full: the caller tries again */
				taken = idx[0];
				break;
			}
			/* the network refuses the first frame for good (no route, too big): it left the
			 * port and is lost, as on an unplugged wire (counted as sent); the rest goes on */
			tx_lost(p, err);
			sent++;
			bytes += frames[idx[0]].len;
			if (p->pcap != NULL)
				nic_pcap_write(p->pcap, frames[idx[0]].iov, frames[idx[0]].iovcnt, NULL,
					       frames[idx[0]].len, ts);
			i = idx[0] + 1;
			continue;
		}
		if (SD_UNLIKELY(atomic_load_explicit(&p->tx_errno, memory_order_relaxed) != 0))
			atomic_store_explicit(&p->tx_errno, 0, memory_order_relaxed);
		for (int k = 0; k < r; k++) {
			const struct nic_tx_frame *f = &frames[idx[k]];

			sent++;
			bytes += f->len;
			if (p->pcap != NULL)
				nic_pcap_write(p->pcap, f->iov, f->iovcnt, NULL, f->len, ts);
		}
		if ((unsigned int)r < m) {
			/* the kernel took a prefix; an error on the next frame shows on the next call */
			taken = idx[r];
			break;
		}
	}
	/* senders may be several threads (several txqs): one atomic add per burst */
	if (taken < n)
		atomic_fetch_add_explicit(&p->tx_full, n - taken, memory_order_relaxed);
	if (sent) {
		atomic_fetch_add_explicit(&p->tx_frames, sent, memory_order_relaxed);
		atomic_fetch_add_explicit(&p->tx_bytes, bytes, memory_order_relaxed);
		if (p->pcap != NULL)
			nic_pcap_flush(p->pcap);
	}
	if (SD_UNLIKELY(bad))
		atomic_fetch_add_explicit(&p->rx_drop_bad, bad, memory_order_relaxed);
	return taken;
}

static void udp_stats(void *port, struct nic_port_stats *out)
{
	struct udp_port *p = port;

	*out = (struct nic_port_stats){
	    .tx_frames = atomic_load_explicit(&p->tx_frames, memory_order_relaxed),
	    .tx_bytes = atomic_load_explicit(&p->tx_bytes, memory_order_relaxed),
	    .tx_full = atomic_load_explicit(&p->tx_full, memory_order_relaxed),
	    .rx_frames = atomic_load_explicit(&p->rx_frames, memory_order_relaxed),
	    .rx_bytes = atomic_load_explicit(&p->rx_bytes, memory_order_relaxed),
	    .rx_drop_full = atomic_load_explicit(&p->rx_drop_full, memory_order_relaxed),
	    .rx_drop_bad = atomic_load_explicit(&p->rx_drop_bad, memory_order_relaxed),
	};
}

static uint32_t udp_mtu(void *port)
{
	return ((const struct udp_port *)port)->mtu;
}

static const struct nic_port_ops udp_ops = {
    .medium = "udp",
    .tx_burst = udp_tx_burst,
    .rx_burst = udp_rx_burst,
    .rx_fd = udp_rx_fd,
    .stats = udp_stats,
    .mtu = udp_mtu,
    .rx_enable = udp_rx_enable,
};

/* ---- the socket ---- */

static void setopt_or_say(struct udp_port *p, int level, int name, int val, const char *what)
{
	if (setsockopt(p->fd, level, name, &val, sizeof(val)) != 0)
		SD_DBG(COMP, "port %s: udp %s: %s: %s", p->pci, p->local_str, what, strerror(errno));
}

/* The bound socket; DOCA_SUCCESS or the error, logged with its fix. */
static doca_error_t udp_setup(struct udp_port *p, const struct topo_device *td)
{
	struct sockaddr_storage local;
	socklen_t local_len = to_sockaddr(&td->udp_local, &local);
	int fam = td->udp_local.family == 6 ? AF_INET6 : AF_INET, err;

	p->fd = socket(fam, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (p->fd < 0) {
		err = errno;
		return SD_REJECT(err == EAFNOSUPPORT ? DOCA_ERROR_NOT_SUPPORTED : DOCA_ERROR_OPERATING_SYSTEM, COMP,
				 "port %s: no IPv%u UDP socket: %s; %s", p->pci, td->udp_local.family, strerror(err),
				 err == EAFNOSUPPORT ? "this host has no IPv6; use IPv4 addresses" : "see errno");
	}
	if (fam == AF_INET6)
		setopt_or_say(p, IPPROTO_IPV6, IPV6_V6ONLY, 1, "IPV6_V6ONLY");
	/* the kernel's count of datagrams it dropped for a full buffer, with each one read */
	setopt_or_say(p, SOL_SOCKET, SO_RXQ_OVFL, 1, "SO_RXQ_OVFL");
	/* a frame of the port's MTU goes whole or in IP fragments, never refused for its size */
	if (fam == AF_INET6)
		setopt_or_say(p, IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_DONT, "IPV6_MTU_DISCOVER");
	else
		setopt_or_say(p, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DONT, "IP_MTU_DISCOVER");
	/* root may go past net.core.[rw]mem_max; others get what it allows */
	{
		int v = UDP_SOCKBUF;

		if (setsockopt(p->fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) != 0)
			(void)setsockopt(p->fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
		if (setsockopt(p->fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)) != 0)
			(void)setsockopt(p->fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	}
	if (bind(p->fd, (struct sockaddr *)&local, local_len) != 0) {
		err = errno;
		return SD_REJECT(err == EACCES || err == EPERM ? DOCA_ERROR_NOT_PERMITTED
				 : err == EADDRINUSE	       ? DOCA_ERROR_IN_USE
							       : DOCA_ERROR_OPERATING_SYSTEM,
				 COMP, "port %s: cannot bind udp.local %s: %s; %s", p->pci, p->local_str, strerror(err),
				 err == EADDRINUSE ? "another program or port has it: pick another port in udp.local"
				 : err == EADDRNOTAVAIL
				     ? "no interface of this host (or of this network namespace) has that address"
				 : err == EACCES ? "ports below 1024 need privileges: pick a higher one"
						 : "check udp.local in SOFTDOCA_CONFIG");
	}
	return DOCA_SUCCESS;
}

/* ---- the device backend: one port per open device with medium = udp ---- */

static void udp_free(struct udp_port *p)
{
	if (p->fd >= 0)
		close(p->fd);
	nic_pcap_close(p->pcap);
	free(p->rx_mem);
	free(p);
}

static void udp_close(struct doca_dev *dev, void *priv)
{
	priv_doca_nic_port_install(dev, NULL, NULL);
	udp_free(priv);
}

static doca_error_t udp_open(struct doca_dev *dev, void **priv)
{
	const struct topo_device *td = dev->info.tdev;
	const struct topo_profile *prof = dev->info.profile;
	struct sockaddr_storage local;
	struct udp_port *p;
	doca_error_t err;

	if (td == NULL || td->medium != TOPO_MEDIUM_UDP || td->udp_peer.family == 0)
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP,
				 "device %s has no udp peer in the topology; add udp.peer = ADDR:PORT to its "
				 "[device] section",
				 priv_doca_dev_name(&dev->info));
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	p->dev = dev;
	p->fd = -1;
	p->rx_on = true;
	p->vni = td->udp_vni & VXLAN_VNI_MAX;
	vxlan_encap_header(p->hdr, p->vni);
	p->mtu = prof != NULL && prof->eth.max_packet_size < NIC_MAX_FRAME ? prof->eth.max_packet_size : NIC_MAX_FRAME;
	snprintf(p->pci, sizeof(p->pci), "%04x:%02x:%02x.%x", td->domain, td->bus, td->dev & 0x1f, td->fn & 7);
	p->peer_len = to_sockaddr(&td->udp_peer, &p->peer);
	addr_str(&p->peer, p->peer_str, sizeof(p->peer_str));
	(void)to_sockaddr(&td->udp_local, &local);
	addr_str(&local, p->local_str, sizeof(p->local_str));
	/* one byte more than the largest good datagram: a longer one shows as too long */
	p->slot = VXLAN_HDR_LEN + p->mtu + 1;
	p->rx_mem = malloc((size_t)p->slot * UDP_BATCH);
	if (p->rx_mem == NULL) {
		free(p);
		return DOCA_ERROR_NO_MEMORY;
	}
	for (unsigned int i = 0; i < UDP_BATCH; i++)
		p->rx_iov[i] = (struct iovec){.iov_base = p->rx_mem + (size_t)i * p->slot, .iov_len = p->slot};
	err = udp_setup(p, td);
	if (err != DOCA_SUCCESS)
		goto fail;
	if (nic_pcap_open(p->pci, &p->pcap) < 0) {
		err = DOCA_ERROR_BAD_CONFIG;
		goto fail;
	}
	err = priv_doca_nic_port_install(dev, &udp_ops, p);
	if (err != DOCA_SUCCESS)
		goto fail;
	*priv = p;
	return DOCA_SUCCESS;
fail:
	udp_free(p);
	return err;
}

/* media.c attaches it once per device (nic_media_provider). */
const struct dev_backend_ops nic_udp_backend = {
    .name = "nic-udp",
    .open = udp_open,
    .close = udp_close,
};
