/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * afpacket.c - the afpacket medium: a port on a Linux interface (a veth, a tap, a real NIC)
 * through one AF_PACKET socket, optionally opened inside a named network namespace.
 *
 *   port ──tx_burst──▶ sendmmsg(send socket)  one system call per burst, QDISC_BYPASS
 *                                               (the kernel copies each gather list)
 *   port ◀─rx_burst─── TPACKET_V3 ring          of the receive socket: blocks the kernel retires
 *                                               when full or after 1 ms; read in place, handed
 *                                               back per block
 *
 * Two SOCK_RAW sockets bound to the interface. The send socket has protocol 0: the kernel
 * never hands it a frame. The receive socket, while the port receives (rx_enable), is bound
 * to ETH_P_ALL and promiscuous (PACKET_MR_PROMISC: a NIC port sees every frame on its wire,
 * whatever its destination). Frames the host itself sends on the interface (PACKET_OUTGOING)
 * are not received: PACKET_IGNORE_OUTGOING where the kernel has it, and the ring's sll_pkttype
 * otherwise. While the port does not receive, the receive socket is bound to AFP_PROTO_NONE, a
 * protocol no Ethernet frame carries, is not promiscuous and holds a filter that takes
 * nothing: the kernel does not visit it for any frame, so an idle port costs the interface's
 * traffic nothing (a socket bound to ETH_P_ALL is visited for every frame, filter or not).
 *
 * Receive ring: AFP_RING_BYTES split in blocks of a power of two that holds at least
 * AFP_FRAMES_PER_BLOCK frames of the interface's MTU (256 KiB for 1500, 2 MiB for 9000).
 * The receiving thread owns the cursor (block, packets left, next packet); a block goes back
 * to the kernel (block_status = TP_STATUS_KERNEL, release) once its last packet was handed to
 * the callback. The kernel publishes a block by storing TP_STATUS_USER after its contents: an
 * acquire load of the status orders the reads of the block after it. The block is walked by
 * afp_block.c as untrusted bytes (every offset and length checked against the block size, each
 * header read once): a damaged block loses its frames, said once, never a read outside it. A
 * burst counts every packet and block it looks at, delivered or not.
 *
 * Frames the kernel could not place because every block was ours are counted by the kernel
 * (PACKET_STATISTICS tp_drops, reset on each read): stats() folds them into rx_drop_full.
 * A frame the kernel stripped a VLAN tag from (veth and most NICs do, TP_STATUS_VLAN_VALID)
 * gets its tag back in a per-port buffer, so a port receives the frame that was sent.
 *
 * Threads: tx_burst on any threads at once (several txqs; the kernel serialises the sends, and
 * the tx counters take one fetch_add per burst), rx_burst/rx_fd/rx_rearm on one thread at a
 * time, stats from any thread; the rx counters are single-writer atomics (tp_drops: fetch_add).
 *
 * Namespace: with netns set, the socket is created on a short-lived thread that setns()
 * into the namespace (only that thread moves); the socket stays in that namespace, and every
 * later call on it (ioctl, bind, send) acts there.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* setns, sendmmsg */
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "afp_block.h"
#include "core.h"
#include "nic_internal.h"

#define COMP "nic"

#ifndef PACKET_QDISC_BYPASS
#define PACKET_QDISC_BYPASS 20
#endif
#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

#define AFP_RING_BYTES	     (16u << 20) /* receive ring per port */
#define AFP_FRAMES_PER_BLOCK 128u
#define AFP_MIN_BLOCK	     (256u << 10)
#define AFP_FRAME_SIZE	     2048u /* V3 packs frames; this only sets tp_frame_nr */
#define AFP_RETIRE_MS	     1u	   /* a partly filled block reaches the receiver after 1 ms */
#define AFP_TX_BATCH	     64u   /* frames per sendmmsg */
#define AFP_SNDBUF	     (4 << 20)
#define AFP_HDR_ROOM	     128u	  /* tpacket3_hdr + sockaddr_ll + alignment, per frame */
#define AFP_ERR_CLEAR_NS     100000000ull /* rx_rearm reads a pending socket error at most this often */
#define AFP_RX_IDLE_NS	     20000ull	  /* after an empty look, the ring is not looked at for this long */
/*
 * The receive socket's protocol while the port does not receive: below ETH_P_802_3_MIN, so not
 * an EtherType, and none of the values eth_type_trans() gives an 802.3 frame (ETH_P_802_3,
 * ETH_P_802_2): no frame of an Ethernet interface is of this protocol.
 */
#define AFP_PROTO_NONE 0x05ff

struct afp_port {
	struct doca_dev *dev;
	int fd;	   /* the receive socket: the ring, rx_fd */
	int tx_fd; /* the send socket */
	int ifindex;
	char ifname[TOPO_IFNAME_SIZE];
	char where[TOPO_NETNS_SIZE + 16]; /* "netns X" or "this process's netns", for log lines */
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint32_t mtu;
	bool rx_on; /* the receive socket bound to ETH_P_ALL, promiscuous, without filter */
	/* receive ring, receiving thread */
	uint8_t *ring;
	size_t ring_len;
	uint32_t block_size, nb_blocks;
	uint32_t blk;		/* the block the cursor is in */
	struct afp_cursor cur;	/* in blk; cur.left == 0: blk not yet ours */
	bool bad_block_said;	/* a block broke the TPACKET_V3 layout: said once */
	uint8_t *vlan_buf;	/* a frame with its VLAN tag put back */
	uint64_t err_clear_ns;	/* rx_rearm: when it next reads a pending socket error */
	uint64_t rx_idle_until; /* rx_burst: an empty look at the ring is not repeated before this */
	/* counters: tx_* by the sending threads (fetch_add), rx_* by the receiving one; the drops by
	 * both, with fetch_add (bad sizes meet either side, tp_drops is folded in by stats()) */
	_Atomic uint64_t tx_frames, tx_bytes, tx_full;
	_Atomic uint64_t rx_frames, rx_bytes, rx_drop_bad, rx_drop_full;
	_Atomic int tx_errno; /* last errno that lost frames, logged once per change */
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

static struct tpacket_block_desc *block_at(const struct afp_port *p, uint32_t b)
{
	return (struct tpacket_block_desc *)(p->ring + (size_t)b * p->block_size);
}

/* ---- receive side ---- */

static void block_release(struct afp_port *p)
{
	__atomic_store_n(&block_at(p, p->blk)->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	p->blk = p->blk + 1 == p->nb_blocks ? 0 : p->blk + 1;
	p->cur.left = 0;
}

/* A block that breaks the TPACKET_V3 layout (afp_block.h): its frames are dropped, said once. */
static void rx_bad_block(struct afp_port *p, const char *why)
{
	atomic_fetch_add_explicit(&p->rx_drop_bad, 1, memory_order_relaxed);
	if (p->bad_block_said)
		return;
	p->bad_block_said = true;
	SD_ERR(COMP,
	       "port %s: interface %s (%s): a block of the receive ring breaks the TPACKET_V3 layout: %s; "
	       "the rest of the block is dropped (said once); a kernel bug, or memory damaged",
	       p->pci, p->ifname, p->where, why);
}

/* Delivers the packet @pk (a bad one is counted); true when it reached the callback. */
static bool rx_one(struct afp_port *p, const struct afp_pkt *pk, nic_rx_fn cb, void *cb_arg, uint64_t *bytes)
{
	const uint8_t *data = pk->frame;
	uint32_t len = pk->snaplen, limit = p->mtu;

	if (SD_UNLIKELY(pk->pkttype == PACKET_OUTGOING))
		return false; /* the host's own traffic on the interface, not the wire's */
	if (SD_UNLIKELY(pk->status & TP_STATUS_VLAN_VALID)) {
		uint16_t tpid = (pk->status & TP_STATUS_VLAN_TPID_VALID) ? pk->vlan_tpid : ETH_P_8021Q;
		uint16_t be_tpid = htons(tpid), be_tci = htons(pk->vlan_tci);

		if (len < 12 || len > NIC_MAX_FRAME) {
			atomic_fetch_add_explicit(&p->rx_drop_bad, 1, memory_order_relaxed);
			return false;
		}
		memcpy(p->vlan_buf, data, 12);
		memcpy(p->vlan_buf + 12, &be_tpid, 2);
		memcpy(p->vlan_buf + 14, &be_tci, 2);
		memcpy(p->vlan_buf + 16, data + 12, len - 12);
		data = p->vlan_buf;
		len += 4;
		limit += 4; /* the tag rides on top of the MTU, as on any Linux interface */
	}
	/* shorter than a header, longer than the port takes, or truncated by the ring */
	if (SD_UNLIKELY(len < 14 || len > limit || pk->snaplen != pk->len)) {
		atomic_fetch_add_explicit(&p->rx_drop_bad, 1, memory_order_relaxed);
		return false;
	}
	if (p->pcap != NULL)
		nic_pcap_write(p->pcap, NULL, 0, data, len, pk->ts_ns);
	cb(cb_arg, data, len, pk->ts_ns);
	*bytes += len;
	return true;
}

static unsigned int afp_rx_burst(void *port, unsigned int n, nic_rx_fn cb, void *cb_arg)
{
	struct afp_port *p = port;
	uint64_t bytes = 0;
	unsigned int k = 0;

	/*
	 * The kernel updates the header of the block it fills on every frame (count, length),
	 * and the receiver's look at that block's status reads the same cache line: a receiver
	 * that busy-polls would pull the line away from the sending core once per frame, which
	 * costs the sender more than the frame itself (on veth the kernel delivers in the sender's
	 * context). A block reaches the receiver only when the kernel retires it (full, or after
	 * AFP_RETIRE_MS), so after an empty look the ring is left alone for AFP_RX_IDLE_NS, a
	 * fiftieth of that. rx_rearm (before a sleep on the fd) ends the pause.
	 */
	if (p->cur.left == 0 && p->rx_idle_until != 0 && sd_mono_ns() < p->rx_idle_until)
		return 0;
	p->rx_idle_until = 0;
	/* every packet or block looked at counts toward @n, delivered or not */
	for (unsigned int visited = 0; visited < n; visited++) {
		const uint8_t *bd = (const uint8_t *)block_at(p, p->blk);
		struct afp_pkt pk;
		const char *why;
		int r;

		if (p->cur.left == 0) {
			if (!(__atomic_load_n(&block_at(p, p->blk)->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
			      TP_STATUS_USER)) {
				if (k == 0)
					p->rx_idle_until = sd_mono_ns() + AFP_RX_IDLE_NS;
				break;
			}
			why = afp_block_open(bd, p->block_size, &p->cur);
			if (SD_UNLIKELY(why != NULL))
				rx_bad_block(p, why);
			if (p->cur.left == 0) {
				block_release(p); /* empty, or unreadable */
				continue;
			}
		}
		r = afp_block_next(bd, p->block_size, &p->cur, &pk, &why);
		if (SD_UNLIKELY(r < 0))
			rx_bad_block(p, why);
		else if (r > 0 && rx_one(p, &pk, cb, cb_arg, &bytes))
			k++;
		if (p->cur.left == 0)
			block_release(p);
	}
	if (k) {
		counter_add(&p->rx_frames, k);
		counter_add(&p->rx_bytes, bytes);
		if (p->pcap != NULL)
			nic_pcap_flush(p->pcap);
	}
	return k;
}

static int afp_rx_fd(void *port)
{
	/* readable while a block is the receiver's (level-triggered, nothing to rearm) */
	return ((const struct afp_port *)port)->fd;
}

/*
 * Nothing to arm: the ring's socket is readable while a block is ours. But a link that went
 * down leaves an error pending on the socket, and the PE's epoll reports EPOLLERR for it on
 * every wait until something reads it; a receiver that never sends would spin. Before
 * sleeping, at most every AFP_ERR_CLEAR_NS (a clock read otherwise, no system call), the
 * pending error is read and dropped: the receive ring does not need it.
 */
/*
 * Off: the receive socket is bound to AFP_PROTO_NONE (the kernel stops visiting it; bind(2)
 * with protocol 0 would not do, it keeps the current protocol), leaves promiscuous mode, and a
 * filter that takes nothing (one BPF instruction, "return 0") stops whatever the kernel might
 * still hand it before any copy into the ring. On: the filter goes first, then the socket joins
 * promiscuous mode and binds to ETH_P_ALL; every block the ring held is handed back unread
 * (rx_enable). Returns 0 or -errno with @step set to what failed.
 */
static int afp_rx_hook(struct afp_port *p, bool on, const char **step)
{
	struct sock_filter none[] = {BPF_STMT(BPF_RET | BPF_K, 0)};
	struct sock_fprog prog = {.len = 1, .filter = none};
	struct packet_mreq mr = {.mr_ifindex = p->ifindex, .mr_type = PACKET_MR_PROMISC};
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_ifindex = p->ifindex};
	int dummy = 0;

	sll.sll_protocol = htons(on ? ETH_P_ALL : AFP_PROTO_NONE);
	if (on) {
		*step = "removing the take-nothing filter";
		if (setsockopt(p->fd, SOL_SOCKET, SO_DETACH_FILTER, &dummy, sizeof(dummy)) != 0 && errno != ENOENT)
			return -errno;
		*step = "promiscuous mode (PACKET_ADD_MEMBERSHIP)";
		if (setsockopt(p->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) != 0)
			return -errno;
		*step = "binding to every protocol";
		return bind(p->fd, (struct sockaddr *)&sll, sizeof(sll)) == 0 ? 0 : -errno;
	}
	*step = "the take-nothing filter";
	if (setsockopt(p->fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) != 0)
		return -errno;
	*step = "binding to no protocol";
	if (bind(p->fd, (struct sockaddr *)&sll, sizeof(sll)) != 0)
		return -errno;
	*step = "leaving promiscuous mode (PACKET_DROP_MEMBERSHIP)";
	return setsockopt(p->fd, SOL_PACKET, PACKET_DROP_MEMBERSHIP, &mr, sizeof(mr)) == 0 ? 0 : -errno;
}

static void afp_rx_enable(void *port, bool on)
{
	struct afp_port *p = port;
	const char *step = "";
	int rc;

	if (on == p->rx_on)
		return;
	if (on) {
		if (p->cur.left != 0)
			block_release(p);
		for (uint32_t i = 0; i < p->nb_blocks; i++) {
			if (!(__atomic_load_n(&block_at(p, p->blk)->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
			      TP_STATUS_USER))
				break;
			block_release(p);
		}
	}
	rc = afp_rx_hook(p, on, &step);
	if (rc != 0) {
		SD_WARN(COMP, "port %s: interface %s (%s): cannot %s receiving: %s: %s", p->pci, p->ifname, p->where,
			on ? "start" : "stop", step, strerror(-rc));
		return;
	}
	p->rx_on = on;
}

static void afp_rx_rearm(void *port)
{
	struct afp_port *p = port;
	uint64_t now = sd_mono_ns();

	p->rx_idle_until = 0; /* the first look after the sleep reads the ring */
	if (now >= p->err_clear_ns) {
		int err = 0;
		socklen_t len = sizeof(err);

		p->err_clear_ns = now + AFP_ERR_CLEAR_NS;
		(void)getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &err, &len);
	}
}

/* ---- send side ---- */

/* A frame the interface refused for good: logged once per reason. */
static void tx_lost(struct afp_port *p, int err)
{
	if (atomic_exchange_explicit(&p->tx_errno, err, memory_order_relaxed) != err) {
		SD_WARN(COMP,
			"port %s: interface %s (%s) refuses frames: %s; they are lost until it takes them (is it up? "
			"ip link set %s up)",
			p->pci, p->ifname, p->where, strerror(err), p->ifname);
	}
}

static unsigned int afp_tx_burst(void *port, const struct nic_tx_frame *frames, unsigned int n)
{
	struct afp_port *p = port;
	struct mmsghdr msg[AFP_TX_BATCH];
	unsigned int idx[AFP_TX_BATCH]; /* msg[k] is frames[idx[k]] */
	uint64_t ts = p->pcap != NULL ? now_ns() : 0, sent = 0, bytes = 0, bad = 0;
	unsigned int i = 0, taken = n;

	while (i < n) {
		unsigned int m = 0;
		int r;

		/* a batch of well-sized frames; bad ones are counted and skipped */
		for (; i < n && m < AFP_TX_BATCH; i++) {
			const struct nic_tx_frame *f = &frames[i];

			if (SD_UNLIKELY(f->len < 14 || f->len > p->mtu)) {
				bad++;
				continue;
			}
			msg[m].msg_hdr = (struct msghdr){.msg_iov = (struct iovec *)f->iov, .msg_iovlen = f->iovcnt};
			msg[m].msg_len = 0;
			idx[m++] = i;
		}
		if (m == 0)
			break;
		r = sendmmsg(p->tx_fd, msg, m, MSG_DONTWAIT);
		if (SD_UNLIKELY(r < 0) && errno != EAGAIN && errno != ENOBUFS && errno != EINTR)
			/* a link that went down and up leaves ENETDOWN pending on the socket, reported
			 * (and cleared) by the next send whatever the link is now: look once more */
			r = sendmmsg(p->tx_fd, msg, m, MSG_DONTWAIT);
		if (r < 0) {
			int err = errno;

			if (err == EAGAIN || err == ENOBUFS || err == EINTR) {
				/* the socket's or the device's queue is full: the caller tries again */
				taken = idx[0];
				break;
			}
			/* the kernel refuses the first frame for good: it left the port and is lost, as
			 * on an unplugged wire (counted as sent); the rest goes on */
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

static void afp_stats(void *port, struct nic_port_stats *out)
{
	struct afp_port *p = port;
	struct tpacket_stats_v3 st = {0};
	socklen_t sl = sizeof(st);

	/* the kernel's count restarts at each read: fold it in */
	if (getsockopt(p->fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl) == 0 && st.tp_drops)
		atomic_fetch_add_explicit(&p->rx_drop_full, st.tp_drops, memory_order_relaxed);
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

static uint32_t afp_mtu(void *port)
{
	return ((const struct afp_port *)port)->mtu;
}

static const struct nic_port_ops afp_ops = {
    .medium = "afpacket",
    .tx_burst = afp_tx_burst,
    .rx_burst = afp_rx_burst,
    .rx_fd = afp_rx_fd,
    .rx_rearm = afp_rx_rearm,
    .stats = afp_stats,
    .mtu = afp_mtu,
    .rx_enable = afp_rx_enable,
};

/* ---- opening the socket ---- */

struct ns_socket {
	int nsfd;
	int fd;	 /* result */
	int err; /* errno of the failed step */
	const char *step;
};

static void *ns_socket_thread(void *arg)
{
	struct ns_socket *s = arg;

	/* only this thread enters the namespace; it ends there, the socket stays */
	if (setns(s->nsfd, CLONE_NEWNET) != 0) {
		s->err = errno;
		s->step = "setns";
		return NULL;
	}
	s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (s->fd < 0) {
		s->err = errno;
		s->step = "socket";
	}
	return NULL;
}

/* An AF_PACKET socket in @netns ("" = ours), of protocol 0 (unbound, it takes no frame in);
 * -errno, logged with the fix. */
static int afp_socket(struct afp_port *p, const char *netns)
{
	struct ns_socket s = {.nsfd = -1, .fd = -1};
	char path[TOPO_NETNS_SIZE + 16];
	pthread_t th;
	int ret;

	if (netns[0] == '\0') {
		s.fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
		if (s.fd < 0) {
			s.err = errno;
			s.step = "socket";
		}
	} else {
		snprintf(path, sizeof(path), "%s%s", netns[0] == '/' ? "" : "/run/netns/", netns);
		s.nsfd = open(path, O_RDONLY | O_CLOEXEC);
		if (s.nsfd < 0) {
			int err = errno;

			SD_ERR(COMP, "port %s: cannot open network namespace %s (%s): %s; %s", p->pci, netns, path,
			       strerror(err),
			       err == ENOENT ? "create it (ip netns add NAME) or fix netns in SOFTDOCA_CONFIG"
					     : "check its permissions");
			return -err;
		}
		ret = pthread_create(&th, NULL, ns_socket_thread, &s);
		if (ret != 0) {
			close(s.nsfd);
			SD_ERR(COMP, "port %s: no thread to enter netns %s: %s", p->pci, netns, strerror(ret));
			return -ret;
		}
		pthread_join(th, NULL);
		close(s.nsfd);
	}
	if (s.fd >= 0)
		return s.fd;
	if (strcmp(s.step, "setns") == 0)
		SD_ERR(COMP, "port %s: cannot enter network namespace %s: %s; %s", p->pci, netns, strerror(s.err),
		       s.err == EPERM ? "needs CAP_SYS_ADMIN: run as root" : "is it a network namespace file?");
	else if (s.err == EPERM || s.err == EACCES)
		SD_ERR(COMP,
		       "port %s: no AF_PACKET socket for interface %s: %s; needs CAP_NET_RAW: run as root or "
		       "setcap cap_net_raw+ep on the program",
		       p->pci, p->ifname, strerror(s.err));
	else
		SD_ERR(COMP, "port %s: no AF_PACKET socket for interface %s: %s", p->pci, p->ifname, strerror(s.err));
	return -s.err;
}

static int afp_setopt(struct afp_port *p, int fd, int level, int name, const void *val, socklen_t len, const char *what)
{
	if (setsockopt(fd, level, name, val, len) == 0)
		return 0;
	{
		int err = errno;

		SD_ERR(COMP, "port %s: interface %s (%s): %s failed: %s", p->pci, p->ifname, p->where, what,
		       strerror(err));
		return -err;
	}
}

static uint32_t pow2_at_least(uint32_t x)
{
	uint32_t v = 1;

	while (v < x)
		v <<= 1;
	return v;
}

/* Sets up both sockets (the ring, the binding; the port receives); -errno, logged. */
static int afp_setup(struct afp_port *p, uint32_t cap_mtu)
{
	struct ifreq ifr;
	struct sockaddr_ll sll;
	struct tpacket_req3 req;
	int one = 1, v3 = TPACKET_V3, sndbuf = AFP_SNDBUF, ret;
	const char *step = "";
	uint32_t ifmtu;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->ifname);
	if (ioctl(p->fd, SIOCGIFINDEX, &ifr) != 0) {
		int err = errno;

		SD_ERR(COMP, "port %s: no interface %s in %s: %s; create it or fix ifname/netns in SOFTDOCA_CONFIG",
		       p->pci, p->ifname, p->where, strerror(err));
		return -err;
	}
	p->ifindex = ifr.ifr_ifindex;
	if (ioctl(p->fd, SIOCGIFMTU, &ifr) != 0) {
		int err = errno;

		SD_ERR(COMP, "port %s: interface %s (%s): no MTU: %s", p->pci, p->ifname, p->where, strerror(err));
		return -err;
	}
	ifmtu = ifr.ifr_mtu > 0 ? (uint32_t)ifr.ifr_mtu + 14u : 14u;
	p->mtu = ifmtu < cap_mtu ? ifmtu : cap_mtu;
	if (ioctl(p->fd, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP))
		SD_WARN(COMP, "port %s: interface %s (%s) is down: nothing moves until it is up (ip link set %s up)",
			p->pci, p->ifname, p->where, p->ifname);

	/* the send socket: protocol 0, so bound, it is never handed a frame */
	if ((ret = afp_setopt(p, p->tx_fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one), "PACKET_QDISC_BYPASS")) <
	    0)
		return ret;
	if (setsockopt(p->tx_fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) != 0)
		(void)setsockopt(p->tx_fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = p->ifindex;
	if (bind(p->tx_fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		int err = errno;

		SD_ERR(COMP, "port %s: cannot bind to interface %s (%s): %s", p->pci, p->ifname, p->where,
		       strerror(err));
		return -err;
	}

	/* the receive socket */
	if ((ret = afp_setopt(p, p->fd, SOL_PACKET, PACKET_VERSION, &v3, sizeof(v3), "TPACKET_V3")) < 0)
		return ret;
	{
		uint32_t room = pow2_at_least(AFP_FRAMES_PER_BLOCK * (p->mtu + 4 + AFP_HDR_ROOM));

		p->block_size = room < AFP_MIN_BLOCK ? AFP_MIN_BLOCK : room;
		p->nb_blocks = AFP_RING_BYTES / p->block_size;
		if (p->nb_blocks < 4)
			p->nb_blocks = 4;
	}
	memset(&req, 0, sizeof(req));
	req.tp_block_size = p->block_size;
	req.tp_block_nr = p->nb_blocks;
	req.tp_frame_size = AFP_FRAME_SIZE;
	req.tp_frame_nr = p->block_size / AFP_FRAME_SIZE * p->nb_blocks;
	req.tp_retire_blk_tov = AFP_RETIRE_MS;
	if ((ret = afp_setopt(p, p->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req),
			      "the receive ring (PACKET_RX_RING)")) < 0)
		return ret;
	p->ring_len = (size_t)p->block_size * p->nb_blocks;
	p->ring = mmap(NULL, p->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, p->fd, 0);
	if (p->ring == MAP_FAILED) {
		int err = errno;

		p->ring = NULL;
		SD_ERR(COMP, "port %s: interface %s: cannot map its %zu-byte receive ring: %s", p->pci, p->ifname,
		       p->ring_len, strerror(err));
		return -err;
	}
	/* older kernels lack it: then the ring's sll_pkttype tells outgoing frames apart */
	(void)setsockopt(p->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	ret = afp_rx_hook(p, true, &step);
	if (ret < 0) {
		SD_ERR(COMP, "port %s: interface %s (%s): %s failed: %s", p->pci, p->ifname, p->where, step,
		       strerror(-ret));
		return ret;
	}
	p->rx_on = true;
	return 0;
}

/* ---- the device backend: one port per open device with medium = afpacket ---- */

static void afp_free(struct afp_port *p)
{
	if (p->ring != NULL)
		munmap(p->ring, p->ring_len);
	if (p->fd >= 0)
		close(p->fd);
	if (p->tx_fd >= 0)
		close(p->tx_fd);
	nic_pcap_close(p->pcap);
	free(p->vlan_buf);
	free(p);
}

static void afp_close(struct doca_dev *dev, void *priv)
{
	priv_doca_nic_port_install(dev, NULL, NULL);
	afp_free(priv);
}

static doca_error_t afp_open(struct doca_dev *dev, void **priv)
{
	const struct topo_device *td = dev->info.tdev;
	const struct topo_profile *prof = dev->info.profile;
	struct afp_port *p;
	doca_error_t err;
	uint32_t cap;
	int ret;

	if (td == NULL || td->medium != TOPO_MEDIUM_AFPACKET || td->ifname[0] == '\0')
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP,
				 "device %s has no afpacket interface in the topology; add medium = afpacket and "
				 "ifname = NAME to its [device] section",
				 priv_doca_dev_name(&dev->info));
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	p->dev = dev;
	p->fd = -1;
	p->tx_fd = -1;
	p->vlan_buf = malloc(NIC_MAX_FRAME + 8);
	if (p->vlan_buf == NULL) {
		free(p);
		return DOCA_ERROR_NO_MEMORY;
	}
	snprintf(p->ifname, sizeof(p->ifname), "%s", td->ifname);
	snprintf(p->pci, sizeof(p->pci), "%04x:%02x:%02x.%x", td->domain, td->bus, td->dev & 0x1f, td->fn & 7);
	if (td->netns[0] != '\0')
		snprintf(p->where, sizeof(p->where), "netns %s", td->netns);
	else
		snprintf(p->where, sizeof(p->where), "this process's netns");
	cap = prof != NULL && prof->eth.max_packet_size < NIC_MAX_FRAME ? prof->eth.max_packet_size : NIC_MAX_FRAME;
	for (int i = 0; i < 2; i++) {
		ret = afp_socket(p, td->netns);
		if (ret < 0) {
			err = ret == -EPERM || ret == -EACCES ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_OPERATING_SYSTEM;
			goto fail;
		}
		*(i == 0 ? &p->fd : &p->tx_fd) = ret;
	}
	ret = afp_setup(p, cap);
	if (ret < 0) {
		/* a missing interface is not NOT_FOUND: to a port's users that means no medium at all */
		err = ret == -EPERM    ? DOCA_ERROR_NOT_PERMITTED
		      : ret == -ENOMEM ? DOCA_ERROR_NO_MEMORY
				       : DOCA_ERROR_OPERATING_SYSTEM;
		goto fail;
	}
	if (nic_pcap_open(p->pci, &p->pcap) < 0) {
		err = DOCA_ERROR_BAD_CONFIG;
		goto fail;
	}
	err = priv_doca_nic_port_install(dev, &afp_ops, p);
	if (err != DOCA_SUCCESS)
		goto fail;
	*priv = p;
	return DOCA_SUCCESS;
fail:
	afp_free(p);
	return err;
}

/* media.c attaches it once per device (nic_media_provider). */
const struct dev_backend_ops nic_afpacket_backend = {
    .name = "nic-afpacket",
    .open = afp_open,
    .close = afp_close,
};
