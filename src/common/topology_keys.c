/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology_keys.c - the SOFTDOCA_CONFIG parser's values and keys: the error line
 * ("line N: field 'F': ..."), the parsers of each kind of value (numbers with sizes, booleans,
 * names, PCI and MAC addresses) and every key's setter and table entry.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv(), GNU strerror_r() */
#endif

#include "topology_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- error reporting -------------------------------------------------------------------- */

/* Writes "line N: field 'F': <reason>" and returns -1, so callers read `return topo_fail(...)`. */
__attribute__((format(printf, 4, 5))) int topo_fail(struct parser *p, uint32_t line, struct span field, const char *fmt,
						    ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->err_len)
		return -1;
	n = snprintf(p->err, p->err_len, "line %" PRIu32 ": field '" SPAN_FMT "': ", line, SPAN_ARG(field));
	if (n < 0 || (size_t)n >= p->err_len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->err_len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* An error in the value of the key being parsed on the current line. */
/* ---- value parsers ---- */

void topo_format_pci(char buf[DOCA_DEVINFO_PCI_ADDR_SIZE], uint16_t domain, uint8_t bus, uint8_t dev, uint8_t fn)
{
	snprintf(buf, DOCA_DEVINFO_PCI_ADDR_SIZE, "%04x:%02x:%02x.%x", domain, bus, dev & 0x1f, fn & 7);
}

int topo_parse_pci_span(struct parser *p, struct span v, uint16_t *domain, uint8_t *bus, uint8_t *dev, uint8_t *fn)
{
	char buf[16];

	if (v.n < sizeof(buf)) {
		memcpy(buf, v.p, v.n);
		buf[v.n] = '\0';
		if (topo_parse_pci(buf, domain, bus, dev, fn) == 0)
			return 0;
	}
	return bad(p,
		   "malformed PCI address '" SPAN_FMT "'; expected BB:DD.F or DDDD:BB:DD.F "
		   "(hex, device at most 1f, function at most 7)",
		   SPAN_ARG(v));
}

/*
 * A decimal number in [min, max]. With @sized, one suffix K, M or G (any case) multiplies
 * by a power of 1024.
 */
static int parse_uint(struct parser *p, struct span v, bool sized, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t x = 0;
	size_t i = 0;
	bool overflow = false;

	if (v.p[0] == '-')
		return bad(p, "'" SPAN_FMT "' is negative; expected %" PRIu64 "..%" PRIu64, SPAN_ARG(v), min, max);
	if (!is_digit(v.p[0]))
		return bad(p, "'" SPAN_FMT "' is not a decimal number", SPAN_ARG(v));
	for (; i < v.n && is_digit(v.p[i]); i++) {
		unsigned int d = (unsigned int)(v.p[i] - '0');

		if (x > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			x = x * 10 + d;
	}
	if (sized && i < v.n) {
		unsigned int shift = 0;

		switch (v.p[i]) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		}
		if (shift) {
			if (x > UINT64_MAX >> shift)
				overflow = true;
			x <<= shift;
			i++;
		}
	}
	if (i < v.n)
		return bad(p, "unexpected '" SPAN_FMT "' after the number%s",
			   SPAN_ARG(((struct span){v.p + i, v.n - i})),
			   sized ? " (a size takes one suffix: K, M or G)" : "");
	if (overflow || x < min || x > max)
		return bad(p, "'" SPAN_FMT "' is out of range (%" PRIu64 "..%" PRIu64 ")", SPAN_ARG(v), min, max);
	*out = x;
	return 0;
}

static int parse_u32(struct parser *p, struct span v, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t x = 0; /* gcc -O3 cannot see that parse_uint() sets it on success */

	if (parse_uint(p, v, false, min, max, &x))
		return -1;
	*out = (uint32_t)x;
	return 0;
}

static int parse_bool(struct parser *p, struct span v, uint8_t *out)
{
	if (span_eq(v, "yes"))
		*out = 1;
	else if (span_eq(v, "no"))
		*out = 0;
	else
		return bad(p, "expected yes or no, not '" SPAN_FMT "'", SPAN_ARG(v));
	return 0;
}

/* Names become ibdev/iface/profile names: letters, digits, '_', '.', '-'. */
int topo_parse_name(struct parser *p, struct span v, char *dst, size_t size)
{
	if (v.n >= size)
		return bad(p, "'" SPAN_FMT "' is longer than %zu characters", SPAN_ARG(v), size - 1);
	for (size_t i = 0; i < v.n; i++) {
		char c = v.p[i];

		if (!(is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
		      c == '-'))
			return bad(p,
				   "character '%c' is not allowed in a name (letters, digits, "
				   "'_', '.', '-')",
				   c);
	}
	memcpy(dst, v.p, v.n);
	dst[v.n] = '\0';
	return 0;
}

static int parse_mac(struct parser *p, struct span v, uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE])
{
	if (v.n != 17)
		goto malformed;
	for (int i = 0; i < 6; i++) {
		int hi = hex_value(v.p[i * 3]);
		int lo = hex_value(v.p[i * 3 + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && v.p[i * 3 + 2] != ':'))
			goto malformed;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	/* A device address must be unicast and not the "no address" value. */
	if (mac[0] & 1)
		return bad(p, "'" SPAN_FMT "' is a multicast address", SPAN_ARG(v));
	if (!(mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]))
		return bad(p, "the all-zero address is not allowed");
	return 0;
malformed:
	return bad(p, "malformed MAC address '" SPAN_FMT "'; expected aa:bb:cc:dd:ee:ff", SPAN_ARG(v));
}

/* ---- key setters ---------------------------------------------------------------------------- */

/*
 * Profile keys are table-driven: each names a field of struct topo_profile by offset, its
 * type and its range (the key_def of the key being parsed is p->key).
 */

static int set_profile_value(struct parser *p, struct span v);

static int set_side(struct parser *p, struct span v)
{
	if (span_eq(v, "dpu"))
		p->dev->side = TOPO_SIDE_DPU;
	else if (span_eq(v, "host"))
		p->dev->side = TOPO_SIDE_HOST;
	else
		return bad(p, "expected dpu or host, not '" SPAN_FMT "'", SPAN_ARG(v));
	return 0;
}

static int set_ibdev(struct parser *p, struct span v)
{
	return topo_parse_name(p, v, p->dev->ibdev, sizeof(p->dev->ibdev));
}

static int set_iface(struct parser *p, struct span v)
{
	return topo_parse_name(p, v, p->dev->iface, sizeof(p->dev->iface));
}

static int set_mac(struct parser *p, struct span v)
{
	return parse_mac(p, v, p->dev->mac);
}

static int set_profile(struct parser *p, struct span v)
{
	return topo_parse_name(p, v, p->meta_cur->profile, sizeof(p->meta_cur->profile));
}

static int set_func(struct parser *p, struct span v)
{
	if (span_eq(v, "pf"))
		p->dev->func = DOCA_PCI_FUNC_TYPE_PF;
	else if (span_eq(v, "vf"))
		p->dev->func = DOCA_PCI_FUNC_TYPE_VF;
	else if (span_eq(v, "sf"))
		p->dev->func = DOCA_PCI_FUNC_TYPE_SF;
	else
		return bad(p, "expected pf, vf or sf, not '" SPAN_FMT "'", SPAN_ARG(v));
	return 0;
}

static int set_sf_index(struct parser *p, struct span v)
{
	return parse_u32(p, v, 0, UINT32_MAX, &p->dev->sf_index);
}

static bool same_rep_pci(const struct topo_rep *a, const struct topo_rep *b)
{
	return a->domain == b->domain && a->bus == b->bus && a->dev == b->dev && a->fn == b->fn;
}

/* "representor = PCI [vuid]"; the line is kept for the end-of-file checks. */
static int set_representor(struct parser *p, struct span v)
{
	struct topo_device *d = p->dev;
	struct span vuid = split_word(&v);
	struct topo_rep r = {0};
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	if (d->nb_reps == TOPO_MAX_REPS)
		return bad(p, "more than %d representors on one device", TOPO_MAX_REPS);
	if (topo_parse_pci_span(p, v, &r.domain, &r.bus, &r.dev, &r.fn))
		return -1;
	/* One host function has one representor, on whichever device lists it first. */
	for (const struct topo_device *o = p->out->devices; o <= d; o++) {
		const struct dev_meta *m = &p->meta[o - p->out->devices];

		for (uint32_t i = 0; i < o->nb_reps; i++) {
			if (!same_rep_pci(&o->reps[i], &r))
				continue;
			topo_format_pci(pci, r.domain, r.bus, r.dev, r.fn);
			return bad(p, "representor %s already listed on line %" PRIu32, pci, m->rep_line[i]);
		}
	}
	if (vuid.n) {
		for (size_t i = 0; i < vuid.n; i++)
			if (is_space(vuid.p[i]))
				return bad(p, "expected 'PCI [vuid]', got more than two words");
		if (vuid.n >= sizeof(r.vuid))
			return bad(p, "vuid '" SPAN_FMT "' is longer than %zu characters", SPAN_ARG(vuid),
				   sizeof(r.vuid) - 1);
		memcpy(r.vuid, vuid.p, vuid.n);
		r.vuid[vuid.n] = '\0';
	} else {
		topo_default_vuid(d, &r);
	}
	p->meta_cur->rep_line[d->nb_reps] = p->line;
	d->reps[d->nb_reps++] = r;
	return 0;
}

static int set_medium(struct parser *p, struct span v)
{
	if (span_eq(v, "none"))
		p->dev->medium = TOPO_MEDIUM_NONE;
	else if (span_eq(v, "wire"))
		p->dev->medium = TOPO_MEDIUM_WIRE;
	else if (span_eq(v, "afpacket"))
		p->dev->medium = TOPO_MEDIUM_AFPACKET;
	else if (span_eq(v, "udp"))
		p->dev->medium = TOPO_MEDIUM_UDP;
	else
		return bad(p, "expected wire, afpacket, udp or none, not '" SPAN_FMT "'", SPAN_ARG(v));
	return 0;
}

/* "ifname = NAME": a Linux interface name, as the kernel accepts it and fits IFNAMSIZ. */
static int set_ifname(struct parser *p, struct span v)
{
	if (!v.n)
		return bad(p, "empty; expected the Linux interface, e.g. ifname = veth0");
	if (v.n >= TOPO_IFNAME_SIZE)
		return bad(p, "'" SPAN_FMT "' is longer than %d characters (IFNAMSIZ)", SPAN_ARG(v),
			   TOPO_IFNAME_SIZE - 1);
	if (span_eq(v, ".") || span_eq(v, ".."))
		return bad(p, "'" SPAN_FMT "' is not an interface name", SPAN_ARG(v));
	return topo_parse_name(p, v, p->dev->ifname, sizeof(p->dev->ifname));
}

/* "netns = NAME" (a namespace of `ip netns`, /run/netns/NAME) or "netns = /PATH" (any nsfs file). */
static int set_netns(struct parser *p, struct span v)
{
	if (!v.n)
		return bad(p, "empty; expected a namespace name (ip netns) or an absolute path");
	if (v.n >= TOPO_NETNS_SIZE)
		return bad(p, "'" SPAN_FMT "' is longer than %d characters", SPAN_ARG(v), TOPO_NETNS_SIZE - 1);
	if (v.p[0] != '/') {
		if (span_eq(v, ".") || span_eq(v, ".."))
			return bad(p, "'" SPAN_FMT "' is not a namespace name", SPAN_ARG(v));
		return topo_parse_name(p, v, p->dev->netns, sizeof(p->dev->netns));
	}
	for (size_t i = 0; i < v.n; i++)
		if (is_space(v.p[i]) || (unsigned char)v.p[i] < 0x20 || v.p[i] == 0x7f)
			return bad(p, "a netns path may not hold spaces or control characters");
	memcpy(p->dev->netns, v.p, v.n);
	p->dev->netns[v.n] = '\0';
	return 0;
}

/*
 * "udp.local / udp.peer = ADDR[:PORT]": an IPv4 address (192.0.2.1:4789) or an IPv6 one in
 * brackets ([2001:db8::1]:4789), numeric (no name lookups while a file is read), the port
 * 1..65535, TOPO_UDP_PORT when omitted.
 */
static int parse_udp_addr(struct parser *p, struct span v, struct topo_udp_addr *out)
{
	char host[INET6_ADDRSTRLEN + 1];
	struct span h = v, port = {NULL, 0};
	uint64_t x = TOPO_UDP_PORT;
	const char *close;

	if (!v.n)
		return bad(p, "empty; expected ADDR:PORT, e.g. 192.0.2.1:4789 or [2001:db8::1]:4789");
	memset(out, 0, sizeof(*out));
	if (v.p[0] == '[') {
		close = memchr(v.p, ']', v.n);
		if (close == NULL)
			return bad(p, "'" SPAN_FMT "' opens '[' but does not close it; expected [IPV6]:PORT",
				   SPAN_ARG(v));
		h = (struct span){v.p + 1, (size_t)(close - v.p) - 1};
		if ((size_t)(close - v.p) + 1 < v.n) {
			if (close[1] != ':')
				return bad(p, "unexpected '" SPAN_FMT "' after ']'; expected :PORT",
					   SPAN_ARG(((struct span){close + 1, v.n - (size_t)(close - v.p) - 1})));
			port = (struct span){close + 2, v.n - (size_t)(close - v.p) - 2};
		}
		out->family = 6;
	} else {
		const char *colon = memchr(v.p, ':', v.n);

		if (colon != NULL && memchr(colon + 1, ':', v.n - (size_t)(colon - v.p) - 1) != NULL)
			return bad(p, "'" SPAN_FMT "': an IPv6 address goes in brackets, e.g. [2001:db8::1]:4789",
				   SPAN_ARG(v));
		if (colon != NULL) {
			h = (struct span){v.p, (size_t)(colon - v.p)};
			port = (struct span){colon + 1, v.n - (size_t)(colon - v.p) - 1};
		}
		out->family = 4;
	}
	if (h.n == 0 || h.n >= sizeof(host))
		return bad(p, "'" SPAN_FMT "' holds no IPv%u address", SPAN_ARG(v), out->family);
	memcpy(host, h.p, h.n);
	host[h.n] = '\0';
	if (inet_pton(out->family == 6 ? AF_INET6 : AF_INET, host, out->addr) != 1)
		return bad(p, "'" SPAN_FMT "' is not a numeric IPv%u address (no host names)", SPAN_ARG(h),
			   out->family);
	if (port.p != NULL) {
		if (port.n == 0)
			return bad(p, "'" SPAN_FMT "' ends with ':' but names no port", SPAN_ARG(v));
		if (parse_uint(p, port, false, 1, 65535, &x))
			return -1;
	}
	out->port = (uint16_t)x;
	return 0;
}

static int set_udp_local(struct parser *p, struct span v)
{
	return parse_udp_addr(p, v, &p->dev->udp_local);
}

static int set_udp_peer(struct parser *p, struct span v)
{
	if (parse_udp_addr(p, v, &p->dev->udp_peer))
		return -1;
	for (size_t i = 0; i < (p->dev->udp_peer.family == 6 ? 16u : 4u); i++)
		if (p->dev->udp_peer.addr[i] != 0)
			return 0;
	return bad(p, "'" SPAN_FMT "' is the any address; the peer is one host, e.g. 192.0.2.2:4789", SPAN_ARG(v));
}

/* "udp.vni = N": the VXLAN network identifier, 24 bits. */
static int set_udp_vni(struct parser *p, struct span v)
{
	uint64_t x = 0;

	if (parse_uint(p, v, false, 0, 16777215, &x))
		return -1;
	p->dev->udp_vni = (uint32_t)x;
	return 0;
}

/* "wire = PCI": the peer may come later in the file, so it is resolved at the end. */
static int set_wire(struct parser *p, struct span v)
{
	struct topo_rep *w = &p->meta_cur->wire;

	return topo_parse_pci_span(p, v, &w->domain, &w->bus, &w->dev, &w->fn);
}

/* The executors of the backend list in src/engines/meson.build (engine_list.h is generated). */
#define ENGINE_NAME_EXECUTOR(n) n,
#define ENGINE_NAME_TRANSPORT(n)
#define ENGINE_BACKEND(name, kind) ENGINE_NAME_##kind(#name)
static const char *const executor_names[] = {
#include "engine_list.h"
};
#undef ENGINE_BACKEND
#undef ENGINE_NAME_EXECUTOR
#undef ENGINE_NAME_TRANSPORT

static int set_engine_name(struct parser *p, struct span v)
{
	char list[256];
	size_t n = 0;

	for (size_t i = 0; i < SD_ARRAY_SIZE(executor_names); i++)
		if (span_eq(v, executor_names[i]))
			goto known;
	for (size_t i = 0; i < SD_ARRAY_SIZE(executor_names) && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      i == 0				       ? ""
				      : i + 1 == SD_ARRAY_SIZE(executor_names) ? " or "
									       : ", ",
				      executor_names[i]);
	return bad(p, "expected %s, not '" SPAN_FMT "'", list, SPAN_ARG(v));
known:
	memcpy(p->out->engine, v.p, v.n);
	p->out->engine[v.n] = '\0';
	return 0;
}

static int set_workers(struct parser *p, struct span v)
{
	return parse_u32(p, v, 1, TOPO_MAX_WORKERS, &p->out->workers);
}

#define PKEY(key, alias_, type_, min_, max_, member)                                                                   \
	{                                                                                                              \
		.name = (key), .set = set_profile_value, .alias = (alias_), .type = (type_), .min = (min_),            \
		.max = (max_), .off = offsetof(struct topo_profile, member)                                            \
	}

const struct key_def topo_profile_keys[PK_COUNT] = {
    [PK_EXPORT_PCI] = PKEY("export_pci", NULL, V_BOOL, 0, 1, export_pci),
    [PK_IMPORT_PCI] = PKEY("import_pci", NULL, V_BOOL, 0, 1, import_pci),
    [PK_DMA_SUPPORTED] = PKEY("dma.supported", "dma", V_BOOL, 0, 1, dma.supported),
    [PK_DMA_MAX_BUF_SIZE] = PKEY("dma.max_buf_size", "max_buf_size", V_SIZE64, 1, TOPO_MAX_BUF_SIZE, dma.max_buf_size),
    [PK_DMA_MAX_BUF_LIST_LEN] =
	PKEY("dma.max_buf_list_len", "max_buf_list_len", V_U32, 1, TOPO_MAX_LIST_LEN, dma.max_buf_list_len),
    [PK_DMA_MAX_TASKS] = PKEY("dma.max_tasks", "max_tasks", V_U32, 1, TOPO_MAX_POOL, dma.max_tasks),
    [PK_DMA_QUEUE_DEPTH] = PKEY("dma.queue_depth", "queue_depth", V_U32, 1, TOPO_MAX_POOL, dma.queue_depth),
    [PK_COMCH_SUPPORTED] = PKEY("comch.supported", NULL, V_BOOL, 0, 1, comch.supported),
    [PK_COMCH_MAX_MSG_SIZE] =
	PKEY("comch.max_msg_size", NULL, V_SIZE32, 1, TOPO_COMCH_MAX_MSG_SIZE, comch.max_msg_size),
    /* At least one character and the NUL. */
    [PK_COMCH_MAX_NAME_LEN] = PKEY("comch.max_name_len", NULL, V_U32, 2, TOPO_COMCH_MAX_NAME_LEN, comch.max_name_len),
    [PK_COMCH_MAX_CLIENTS] = PKEY("comch.max_clients", NULL, V_U32, 1, TOPO_COMCH_MAX_CLIENTS, comch.max_clients),
    [PK_COMCH_MAX_SEND_TASKS] =
	PKEY("comch.max_send_tasks", NULL, V_U32, 1, TOPO_COMCH_MAX_SEND_TASKS, comch.max_send_tasks),
    [PK_COMCH_MAX_RECV_QUEUE_SIZE] =
	PKEY("comch.max_recv_queue_size", NULL, V_U32, 1, TOPO_COMCH_MAX_RECV_QUEUE, comch.max_recv_queue_size),
    [PK_COMCH_MAX_CONSUMERS] =
	PKEY("comch.max_consumers", NULL, V_U32, 1, TOPO_COMCH_MAX_PER_CONN, comch.max_consumers),
    [PK_COMCH_MAX_PRODUCERS] =
	PKEY("comch.max_producers", NULL, V_U32, 1, TOPO_COMCH_MAX_PER_CONN, comch.max_producers),
    [PK_COMCH_CONSUMER_MAX_NUM_TASKS] =
	PKEY("comch.consumer_max_num_tasks", NULL, V_U32, 1, TOPO_COMCH_MAX_DP_TASKS, comch.consumer_max_num_tasks),
    [PK_COMCH_PRODUCER_MAX_NUM_TASKS] =
	PKEY("comch.producer_max_num_tasks", NULL, V_U32, 1, TOPO_COMCH_MAX_DP_TASKS, comch.producer_max_num_tasks),
    [PK_COMCH_CONSUMER_MAX_BUF_SIZE] =
	PKEY("comch.consumer_max_buf_size", NULL, V_SIZE32, 1, TOPO_COMCH_MAX_DP_BUF_SIZE, comch.consumer_max_buf_size),
    [PK_COMCH_PRODUCER_MAX_BUF_SIZE] =
	PKEY("comch.producer_max_buf_size", NULL, V_SIZE32, 1, TOPO_COMCH_MAX_DP_BUF_SIZE, comch.producer_max_buf_size),
    [PK_ETH_SUPPORTED] = PKEY("eth.supported", NULL, V_BOOL, 0, 1, eth.supported),
    [PK_ETH_MAX_BURST_SIZE] = PKEY("eth.max_burst_size", NULL, V_U32, 1, 65536, eth.max_burst_size),
    /* An Ethernet frame is at least 64 bytes; 64 KiB is the largest IPv4 packet. */
    [PK_ETH_MAX_PACKET_SIZE] = PKEY("eth.max_packet_size", NULL, V_SIZE32, 64, 65536, eth.max_packet_size),
    [PK_ETH_MAX_QUEUE_SIZE] = PKEY("eth.max_queue_size", NULL, V_U32, 1, 65536, eth.max_queue_size),
};

static int set_profile_value(struct parser *p, struct span v)
{
	const struct key_def *k = p->key;
	uint8_t *field = (uint8_t *)p->prof + k->off;
	uint64_t x = 0;

	switch (k->type) {
	case V_BOOL:
		return parse_bool(p, v, field);
	case V_SIZE64:
		if (parse_uint(p, v, true, k->min, k->max, &x))
			return -1;
		memcpy(field, &x, sizeof(uint64_t));
		return 0;
	case V_U32:
	case V_SIZE32:
		if (parse_uint(p, v, k->type == V_SIZE32, k->min, k->max, &x))
			return -1;
		uint32_t y = (uint32_t)x;
		memcpy(field, &y, sizeof(y));
		return 0;
	}
	return bad(p, "internal error: bad key type");
}

const struct key_def topo_device_keys[DK_COUNT] = {
    [DK_SIDE] = {"side", set_side},
    [DK_IBDEV] = {"ibdev", set_ibdev},
    [DK_IFACE] = {"iface", set_iface},
    [DK_MAC] = {"mac", set_mac},
    [DK_PROFILE] = {"profile", set_profile},
    [DK_FUNC] = {"func", set_func},
    [DK_SF_INDEX] = {"sf_index", set_sf_index},
    [DK_REPRESENTOR] = {"representor", set_representor},
    [DK_MEDIUM] = {"medium", set_medium},
    [DK_WIRE] = {"wire", set_wire},
    [DK_IFNAME] = {"ifname", set_ifname},
    [DK_NETNS] = {"netns", set_netns},
    [DK_UDP_LOCAL] = {"udp.local", set_udp_local},
    [DK_UDP_PEER] = {"udp.peer", set_udp_peer},
    [DK_UDP_VNI] = {"udp.vni", set_udp_vni},
};

const struct key_def topo_engine_keys[EK_COUNT] = {
    [EK_NAME] = {"name", set_engine_name},
    [EK_WORKERS] = {"workers", set_workers},
};
