/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca-wire - puts frames on a software NIC port and watches what arrives, without a DOCA
 * program: a traffic generator and a sniffer for the wires of the topology (src/nic/nic.h).
 *
 *   softdoca-wire send -p 03:00.1 --count 1000 --proto udp --flows 8
 *   softdoca-wire recv -p 03:00.0 --count 1000
 *   softdoca-wire stats
 *
 * It is a client of the NIC's internal boundary (nic.h), not of DOCA Ethernet: what it sends
 * goes through the same port and medium a doca_eth_txq uses, and `recv` takes the port's
 * receive side exactly as a DOCA Ethernet receive queue would (one receiving process per port).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <doca_dev.h>

#include "core.h"
#include "nic.h"
#include "opt_error.h"

#define BURST 32

enum proto { P_UDP, P_TCP, P_ICMP, P_RAW };

struct opts {
	const char *pci;
	uint64_t count;
	uint32_t size;
	uint64_t rate;
	uint32_t flows;
	double timeout;
	enum proto proto;
	bool quiet;
	bool count_set;
};

static void usage(FILE *f)
{
	fprintf(f, "NAME\n"
		   "    softdoca-wire - send frames on a software NIC port, receive them, show port counters\n\n"
		   "SYNOPSIS\n"
		   "    softdoca-wire send -p PCI [--count N] [--size B] [--rate PPS] [--proto udp|tcp|icmp|raw]\n"
		   "                       [--flows F]\n"
		   "    softdoca-wire recv -p PCI [--count N] [--timeout S] [--quiet]\n"
		   "    softdoca-wire stats [-p PCI]\n"
		   "    softdoca-wire --version | --help\n\n"
		   "DESCRIPTION\n"
		   "    send puts N frames of B bytes (FCS excluded) on the port of device PCI; they arrive at\n"
		   "    the port at the other end of its wire (topology keys medium and wire). IPv4 frames\n"
		   "    go from 10.0.0.1 to 10.0.0.2 with valid checksums; F flows differ in their source\n"
		   "    port (udp, tcp) or ICMP identifier; every payload starts with a 32-bit sequence number.\n"
		   "    A port that nobody receives loses what is sent to it, as an unplugged cable does.\n"
		   "    recv receives on the port, one line per frame (unless --quiet) and a summary; it says\n"
		   "    'receiving on PCI' once the port is its own. stats prints every wired port's counters\n"
		   "    (they belong to the cable and add up over all programs that used it; a cable no\n"
		   "    program has used yet reads as zeros, and stats does not create it).\n\n"
		   "OPTIONS\n"
		   "    -p, --pci-addr ADDR   the device (BB:DD.F or DDDD:BB:DD.F)\n"
		   "    -n, --count N         frames to send (default 10) or to wait for (default: until timeout)\n"
		   "    -s, --size B          frame size, 60..9216 (default 64; at least the headers)\n"
		   "    -r, --rate PPS        frames per second (default 0: as fast as the port takes them)\n"
		   "    -P, --proto PROTO     udp (default), tcp (SYN without data), icmp (echo request) or raw "
		   "(EtherType 0x88b5)\n"
		   "    -f, --flows F         distinct flows, 1..65535 (default 1)\n"
		   "    -t, --timeout S       recv: seconds without a frame before giving up (default 10, 0 = never)\n"
		   "    -q, --quiet           recv: the summary only\n"
		   "    -v, --version         print the versions\n"
		   "    -h, --help            this text\n\n"
		   "EXIT STATUS\n"
		   "    0 success; 1 failure (recv: fewer than N frames before the timeout); 2 bad usage;\n"
		   "    3 no such device, or the device has no port medium\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "softdoca-wire: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "; see softdoca-wire --help\n");
	return 2;
}

static bool parse_num(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return priv_sd_parse_u64(s, min, max, out) == 0;
}

static bool valid_pci(const char *pci)
{
	unsigned int b, d, f, dom;
	char tail;

	return strlen(pci) <= 12 && (sscanf(pci, "%2x:%2x.%1x%c", &b, &d, &f, &tail) == 3 ||
				     sscanf(pci, "%4x:%2x:%2x.%1x%c", &dom, &b, &d, &f, &tail) == 4);
}

/* ---- devices and ports ---- */

/* Opens the device at @pci and its port; 3 (said why) when there is none. */
static int open_port(const char *pci, struct doca_dev **dev, const struct nic_port_ops **ops, void **port)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	doca_error_t ret;

	*dev = NULL;
	ret = doca_devinfo_create_list(&list, &n);
	if (ret != DOCA_SUCCESS) {
		fprintf(stderr, "softdoca-wire: no devices: %s\n", doca_error_get_descr(ret));
		return 1;
	}
	for (uint32_t i = 0; i < n && *dev == NULL; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq &&
		    (ret = doca_dev_open(list[i], dev)) != DOCA_SUCCESS) {
			fprintf(stderr, "softdoca-wire: cannot open %s: %s\n", pci, doca_error_get_descr(ret));
			doca_devinfo_destroy_list(list);
			return 1;
		}
	}
	doca_devinfo_destroy_list(list);
	if (*dev == NULL) {
		fprintf(stderr, "softdoca-wire: no device %s in the topology (doca_caps --list-devs lists them)\n",
			pci);
		return 3;
	}
	ret = priv_doca_nic_port_get(*dev, ops, port);
	if (ret == DOCA_ERROR_NOT_FOUND) {
		fprintf(stderr,
			"softdoca-wire: device %s has no port medium; give it one in the topology: wire = PCI "
			"(a cable to another device) or ifname = NAME (a Linux interface) (docs/config.md)\n",
			pci);
		doca_dev_close(*dev);
		return 3;
	}
	if (ret != DOCA_SUCCESS) {
		fprintf(stderr, "softdoca-wire: the port of %s cannot be used: %s (see the line above)\n", pci,
			doca_error_get_descr(ret));
		doca_dev_close(*dev);
		return 1;
	}
	return 0;
}

/* ---- send ---- */

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint32_t headers_len(enum proto p)
{
	switch (p) {
	case P_UDP:
	case P_ICMP:
		return 14 + 20 + 8;
	case P_TCP:
		return 14 + 20 + 20;
	default:
		return 14;
	}
}

/* Frame @seq of flow @flow into @f (@size bytes). */
static void build(uint8_t *f, const struct opts *o, const uint8_t *src_mac, const uint8_t *dst_mac, uint32_t seq,
		  uint32_t flow)
{
	uint32_t size = o->size, hl = headers_len(o->proto);
	uint8_t *ip = f + 14, *l4 = f + 34;

	memcpy(f, dst_mac, 6);
	memcpy(f + 6, src_mac, 6);
	memset(f + 12, 0, size - 12);
	memcpy(f + hl, &seq, 4);
	for (uint32_t i = hl + 4; i < size; i++)
		f[i] = (uint8_t)(i ^ seq);
	if (o->proto == P_RAW) {
		wr16(f + 12, 0x88b5);
		return;
	}
	wr16(f + 12, 0x0800);
	ip[0] = 0x45;
	wr16(ip + 2, (uint16_t)(size - 14));
	wr16(ip + 4, (uint16_t)seq);
	ip[8] = 64;
	ip[9] = o->proto == P_UDP ? 17 : o->proto == P_TCP ? 6 : 1;
	memcpy(ip + 12, (uint8_t[]){10, 0, 0, 1, 10, 0, 0, 2}, 8);
	wr16(ip + 10, priv_doca_nic_ip4_csum(ip, 20));
	switch (o->proto) {
	case P_UDP:
		wr16(l4, (uint16_t)(10000 + flow));
		wr16(l4 + 2, 5001);
		wr16(l4 + 4, (uint16_t)(size - 34));
		wr16(l4 + 6, priv_doca_nic_l4_csum(ip, 17, l4, size - 34));
		break;
	case P_TCP:
		/* A SYN carries no data (stacks and NVIDIA's applications parse what follows its
		 * header as options and data): the datagram ends with the header; the rest of the
		 * frame is Ethernet padding, holding the sequence number as every payload does. */
		wr16(ip + 2, 40);
		ip[10] = ip[11] = 0;
		wr16(ip + 10, priv_doca_nic_ip4_csum(ip, 20));
		wr16(l4, (uint16_t)(10000 + flow));
		wr16(l4 + 2, 5001);
		memcpy(l4 + 4, &seq, 4);
		l4[12] = 5 << 4;
		l4[13] = 0x02; /* SYN */
		wr16(l4 + 14, 65535);
		wr16(l4 + 16, priv_doca_nic_l4_csum(ip, 6, l4, 20));
		break;
	default: /* ICMP echo request, identifier = flow */
		l4[0] = 8;
		wr16(l4 + 4, (uint16_t)flow);
		wr16(l4 + 6, (uint16_t)seq);
		wr16(l4 + 2, priv_doca_nic_l4_csum(ip, 1, l4, size - 34));
		break;
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = {(time_t)(t / 1000000000ull), (long)(t % 1000000000ull)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int cmd_send(const struct opts *o)
{
	static uint8_t frames[BURST][NIC_MAX_FRAME];
	const struct topology *topo = priv_doca_topology();
	const struct nic_port_ops *ops;
	struct nic_port_stats st;
	struct iovec iov[BURST];
	struct nic_tx_frame tf[BURST];
	struct doca_dev *dev;
	uint8_t dst_mac[6];
	uint64_t sent = 0, t0;
	void *port;
	int rc;

	rc = open_port(o->pci, &dev, &ops, &port);
	if (rc != 0)
		return rc;
	if (o->size > ops->mtu(port)) {
		fprintf(stderr, "softdoca-wire: --size %u is above the MTU %u of %s (eth.max_packet_size)\n", o->size,
			ops->mtu(port), o->pci);
		doca_dev_close(dev);
		return 2;
	}
	/* to the MAC of the device at the other end of the wire; broadcast on an interface */
	if (dev->info.tdev->medium == TOPO_MEDIUM_WIRE)
		memcpy(dst_mac, topo->devices[dev->info.tdev->wire_peer].mac, 6);
	else
		memset(dst_mac, 0xff, 6);
	t0 = now_ns();
	while (sent < o->count) {
		unsigned int n = o->count - sent < BURST ? (unsigned int)(o->count - sent) : BURST;

		if (o->rate) {
			n = 1;
			sleep_until(t0 + sent * 1000000000ull / o->rate);
		}
		for (unsigned int i = 0; i < n; i++) {
			build(frames[i], o, dev->info.tdev->mac, dst_mac, (uint32_t)(sent + i),
			      (uint32_t)((sent + i) % o->flows));
			iov[i] = (struct iovec){frames[i], o->size};
			tf[i] = (struct nic_tx_frame){&iov[i], 1, o->size};
		}
		sent += ops->tx_burst(port, tf, n);
	}
	ops->stats(port, &st);
	printf("sent %" PRIu64 " frames of %u bytes on %s in %.3f s; port tx %" PRIu64 " frames %" PRIu64 " bytes\n",
	       sent, o->size, o->pci, (double)(now_ns() - t0) / 1e9, st.tx_frames, st.tx_bytes);
	doca_dev_close(dev);
	return 0;
}

/* ---- recv ---- */

struct recv_state {
	const struct opts *o;
	uint64_t frames, bytes;
};

static const char *l4_name(const struct nic_frame_info *fi)
{
	switch (fi->l4) {
	case NIC_L4_TCP:
		return "tcp";
	case NIC_L4_UDP:
		return "udp";
	case NIC_L4_ICMP:
		return "icmp";
	case NIC_L4_OTHER:
		return "ip";
	default:
		return fi->l3 == NIC_L3_NONE ? "l2" : "ip";
	}
}

static void on_frame(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	struct recv_state *s = arg;
	struct nic_frame_info fi;

	s->frames++;
	s->bytes += len;
	if (s->o->quiet)
		return;
	if (priv_doca_nic_frame_parse(frame, len, &fi) != 0) {
		printf("%" PRIu64 ".%09" PRIu64 " len %u (not a frame)\n", ts / 1000000000u, ts % 1000000000u, len);
		return;
	}
	printf("%" PRIu64 ".%09" PRIu64 " len %u type 0x%04x", ts / 1000000000u, ts % 1000000000u, len,
	       (unsigned int)ntohs(fi.eth_type));
	if (fi.nb_vlans)
		printf(" vlan %u", (unsigned int)(ntohs(fi.vlan_tci) & 0xfff));
	if (fi.l3 == NIC_L3_IPV4) {
		const uint8_t *a = (const uint8_t *)&fi.ip4_src, *b = (const uint8_t *)&fi.ip4_dst;

		printf(" %s %u.%u.%u.%u", l4_name(&fi), a[0], a[1], a[2], a[3]);
		if (fi.l4 == NIC_L4_TCP || fi.l4 == NIC_L4_UDP)
			printf(":%u", (unsigned int)ntohs(fi.l4_src));
		printf(" > %u.%u.%u.%u", b[0], b[1], b[2], b[3]);
		if (fi.l4 == NIC_L4_TCP || fi.l4 == NIC_L4_UDP)
			printf(":%u", (unsigned int)ntohs(fi.l4_dst));
		printf("%s%s", fi.l3_ok ? "" : " bad-ip-csum",
		       fi.l4 != NIC_L4_OTHER && !fi.l4_ok ? " bad-l4-csum" : "");
		if (fi.l4 == NIC_L4_TCP) {
			/* The segment's data: the datagram's length less both headers. */
			uint32_t ip_end = fi.l3_off + ((uint32_t)frame[fi.l3_off + 2] << 8 | frame[fi.l3_off + 3]);

			printf("%s payload %d", fi.tcp_flags & 0x02 ? " syn" : "",
			       ip_end > fi.payload_off ? (int)(ip_end - fi.payload_off) : 0);
		}
	} else if (fi.l3 == NIC_L3_IPV6) {
		printf(" %s ipv6", l4_name(&fi));
	}
	if (fi.payload_off + 4u <= len) {
		uint32_t seq;

		memcpy(&seq, frame + fi.payload_off, 4);
		printf(" seq %u", seq);
	}
	printf("\n");
}

static int cmd_recv(const struct opts *o)
{
	const struct nic_port_ops *ops;
	struct recv_state s = {o, 0, 0};
	struct nic_port_stats st;
	struct doca_dev *dev;
	void *port;
	int fd, rc, ret = 0;

	rc = open_port(o->pci, &dev, &ops, &port);
	if (rc != 0)
		return rc;
	fd = ops->rx_fd(port);
	if (fd < 0) {
		fprintf(stderr, "softdoca-wire: cannot receive on %s (see the line above)\n", o->pci);
		doca_dev_close(dev);
		return 1;
	}
	printf("receiving on %s\n", o->pci);
	fflush(stdout);
	while (!o->count_set || s.frames < o->count) {
		struct pollfd pfd = {fd, POLLIN, 0};
		unsigned int want =
		    o->count_set && o->count - s.frames < BURST ? (unsigned int)(o->count - s.frames) : BURST;
		int n;

		if (ops->rx_burst(port, want, on_frame, &s) > 0)
			continue;
		ops->rx_rearm(port);
		if (ops->rx_burst(port, want, on_frame, &s) > 0)
			continue;
		n = poll(&pfd, 1, o->timeout > 0 ? (int)(o->timeout * 1000) : -1);
		if (n == 0) {
			if (o->count_set) {
				fprintf(stderr, "softdoca-wire: %" PRIu64 " of %" PRIu64 " frames in time on %s\n",
					s.frames, o->count, o->pci);
				ret = 1;
			}
			break;
		}
		if (n < 0 && errno != EINTR) {
			perror("softdoca-wire: poll");
			ret = 1;
			break;
		}
	}
	ops->stats(port, &st);
	printf("received %" PRIu64 " frames, %" PRIu64 " bytes on %s; port rx %" PRIu64 " frames, dropped %" PRIu64
	       " (ring full) %" PRIu64 " (bad)\n",
	       s.frames, s.bytes, o->pci, st.rx_frames, st.rx_drop_full, st.rx_drop_bad);
	doca_dev_close(dev);
	return ret;
}

/* ---- stats ---- */

/* Whether a program has laid the wire cable between @a and @b (its file exists). */
static bool cable_exists(const struct topo_device *a, const struct topo_device *b)
{
	char dir[PATH_MAX - 64], pa[16], pb[16], name[64];
	int dirfd = priv_sd_rundir_open(dir, sizeof(dir), "wire cables");
	bool found;

	if (dirfd < 0)
		return true; /* opening the port says why */
	snprintf(pa, sizeof(pa), "%04x:%02x:%02x.%x", a->domain, a->bus, a->dev & 0x1f, a->fn & 7);
	snprintf(pb, sizeof(pb), "%04x:%02x:%02x.%x", b->domain, b->bus, b->dev & 0x1f, b->fn & 7);
	if (strcmp(pa, pb) < 0)
		snprintf(name, sizeof(name), NIC_WIRE_CABLE_NAME, pa, pb);
	else
		snprintf(name, sizeof(name), NIC_WIRE_CABLE_NAME, pb, pa);
	found = faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
	close(dirfd);
	return found;
}

static int cmd_stats(const struct opts *o)
{
	const struct topology *topo = priv_doca_topology();
	int shown = 0, ret = 0;

	if (topo == NULL) {
		fprintf(stderr, "softdoca-wire: no topology (see the line above)\n");
		return 1;
	}
	for (uint32_t i = 0; i < topo->nb_devices; i++) {
		const struct topo_device *d = &topo->devices[i];
		const struct topo_device *peer = &topo->devices[d->wire_peer];
		const struct nic_port_ops *ops;
		struct nic_port_stats st;
		struct doca_dev *dev;
		char pci[16];
		void *port;
		int rc;

		snprintf(pci, sizeof(pci), "%04x:%02x:%02x.%x", d->domain, d->bus, d->dev & 0x1f, d->fn & 7);
		if (o->pci != NULL) {
			if (strcasecmp(pci, o->pci) != 0 && strcasecmp(pci + 5, o->pci) != 0)
				continue;
		} else if (d->medium == TOPO_MEDIUM_NONE) {
			continue;
		}
		if (d->medium == TOPO_MEDIUM_WIRE && !cable_exists(d, peer)) {
			/* Nothing to count, and opening the port would lay the cable. */
			printf("%s  medium wire  peer %02x:%02x.%x  no cable yet (no program used the port)\n", pci + 5,
			       peer->bus, peer->dev, peer->fn);
			printf("    tx 0 frames 0 bytes (refused 0)\n    rx 0 frames 0 bytes, dropped 0 ring full, 0 "
			       "bad\n");
			shown++;
			continue;
		}
		rc = open_port(pci, &dev, &ops, &port);
		if (rc != 0) {
			ret = rc;
			continue;
		}
		ops->stats(port, &st);
		if (d->medium == TOPO_MEDIUM_AFPACKET) {
			printf("%s  medium %s  ifname %s%s%s  mtu %u\n", pci + 5, ops->medium, d->ifname,
			       d->netns[0] ? "@" : "", d->netns, ops->mtu(port));
		} else if (d->medium == TOPO_MEDIUM_UDP) {
			char addr[INET6_ADDRSTRLEN] = "?";

			inet_ntop(d->udp_peer.family == 6 ? AF_INET6 : AF_INET, d->udp_peer.addr, addr, sizeof(addr));
			printf("%s  medium %s  peer %s%s%s:%u  vni %u  mtu %u\n", pci + 5, ops->medium,
			       d->udp_peer.family == 6 ? "[" : "", addr, d->udp_peer.family == 6 ? "]" : "",
			       d->udp_peer.port, d->udp_vni, ops->mtu(port));
		} else
			printf("%s  medium %s  peer %02x:%02x.%x  mtu %u\n", pci + 5, ops->medium, peer->bus, peer->dev,
			       peer->fn, ops->mtu(port));
		printf("    tx %" PRIu64 " frames %" PRIu64 " bytes (refused %" PRIu64 ")\n", st.tx_frames, st.tx_bytes,
		       st.tx_full);
		printf("    rx %" PRIu64 " frames %" PRIu64 " bytes, dropped %" PRIu64 " ring full, %" PRIu64 " bad\n",
		       st.rx_frames, st.rx_bytes, st.rx_drop_full, st.rx_drop_bad);
		doca_dev_close(dev);
		shown++;
	}
	if (o->pci != NULL && shown == 0 && ret == 0) {
		fprintf(stderr, "softdoca-wire: no device %s in the topology\n", o->pci);
		return 3;
	}
	if (shown == 0 && ret == 0)
		printf("no device has a port medium in this topology\n");
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"pci-addr", required_argument, NULL, 'p'},
	    {"count", required_argument, NULL, 'n'},
	    {"size", required_argument, NULL, 's'},
	    {"rate", required_argument, NULL, 'r'},
	    {"proto", required_argument, NULL, 'P'},
	    {"flows", required_argument, NULL, 'f'},
	    {"timeout", required_argument, NULL, 't'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"version", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const char shorts[] = ":p:n:s:r:P:f:t:qvh";
	struct opts o = {.count = 10, .size = 64, .flows = 1, .timeout = 10, .proto = P_UDP};
	const char *cmd = NULL;
	uint64_t v;
	int c;

	opterr = 0; /* its messages carry argv[0] and leave the hint to a second line */
	while ((c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (!valid_pci(optarg))
				return bad_usage("'%s' is not a PCI address (BB:DD.F or DDDD:BB:DD.F)", optarg);
			o.pci = optarg;
			break;
		case 'n':
			if (!parse_num(optarg, 1, UINT64_MAX, &o.count))
				return bad_usage("--count '%s' is not a number of frames (1 or more)", optarg);
			o.count_set = true;
			break;
		case 's':
			if (!parse_num(optarg, 60, NIC_MAX_FRAME, &v))
				return bad_usage("--size '%s' is not a frame size in 60..9216", optarg);
			o.size = (uint32_t)v;
			break;
		case 'r':
			if (!parse_num(optarg, 0, 1000000000, &o.rate))
				return bad_usage("--rate '%s' is not a number of frames per second", optarg);
			break;
		case 'P':
			if (strcmp(optarg, "udp") == 0)
				o.proto = P_UDP;
			else if (strcmp(optarg, "tcp") == 0)
				o.proto = P_TCP;
			else if (strcmp(optarg, "icmp") == 0)
				o.proto = P_ICMP;
			else if (strcmp(optarg, "raw") == 0)
				o.proto = P_RAW;
			else
				return bad_usage("--proto '%s': expected udp, tcp, icmp or raw", optarg);
			break;
		case 'f':
			if (!parse_num(optarg, 1, 65535, &v))
				return bad_usage("--flows '%s' is not a number in 1..65535", optarg);
			o.flows = (uint32_t)v;
			break;
		case 't': {
			char *end;

			errno = 0;
			o.timeout = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o.timeout >= 0 && o.timeout <= 86400))
				return bad_usage("--timeout '%s' is not a number of seconds in 0..86400", optarg);
			break;
		}
		case 'q':
			o.quiet = true;
			break;
		case 'v':
			printf("softdoca-wire %s (DOCA %s)\n", SD_TOOL_VERSION, SD_DOCA_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default: /* '?' or ':' */
			return tool_option_error("softdoca-wire", c, argv, shorts);
		}
	}
	/* getopt_long moves the words that are not options to the end: the command, and nothing else */
	if (optind < argc)
		cmd = argv[optind++];
	if (optind < argc)
		return bad_usage("unexpected argument '%s'", argv[optind]);
	if (cmd == NULL)
		return bad_usage("%s", "a command is needed: send, recv or stats");
	if (strcmp(cmd, "stats") == 0)
		return cmd_stats(&o);
	if (strcmp(cmd, "send") != 0 && strcmp(cmd, "recv") != 0)
		return bad_usage("unknown command '%s' (send, recv or stats)", cmd);
	if (o.pci == NULL)
		return bad_usage("%s needs -p PCI", cmd);
	/* 60 bytes hold any of the headers and the sequence number */
	return strcmp(cmd, "send") == 0 ? cmd_send(&o) : cmd_recv(&o);
}
