/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * frame.c - the software NIC's frame parser and Internet checksums (nic.h).
 *
 * The parser walks one frame from the outside in: Ethernet, up to two VLAN tags, IPv4 or IPv6
 * (with its extension headers), then TCP, UDP or ICMP. Every layer is checked against the bytes
 * that remain before it is read; a layer that does not fit or does not make sense ends the walk
 * and leaves its fields (and those of the layers inside it) zero. The parser is pure: no state,
 * no allocation, no logging, so it runs on the receive path for every frame and under a fuzzer.
 *
 * What a layer needs to be found:
 *   VLAN   a complete 4-byte tag; a third tag is not parsed (eth_type reads 0x8100/0x88a8).
 *   IPv4   version 4, IHL >= 5, IHL * 4 <= total length <= bytes left (Ethernet padding after
 *          the total length is ignored). A bad header checksum is reported (l3_ok = 0), not a
 *          reason to stop: a NIC still classifies such a frame.
 *   IPv6   version 6, 40 + payload length <= bytes left (jumbograms, payload length 0, are not
 *          parsed); hop-by-hop, routing, fragment and destination options headers skipped, at
 *          most NIC_IP6_MAX_EXT of them; a truncated chain makes the IPv6 layer malformed.
 *   frag   IPv4 with MF or an offset, IPv6 with a fragment header that has MF or an offset:
 *          ip_frag = 1, no L4 (l4 = NONE; a first fragment's ports are not trusted).
 *   TCP    data offset >= 5 and within the IP payload; UDP: 8 <= length field <= IP payload;
 *          ICMP and ICMPv6: the 8-byte header. Another IP protocol is L4 OTHER, l4_off and
 *          payload_off both at the end of the L3 headers.
 *   l4_ok  set only for a found TCP, UDP or ICMP layer whose checksum verifies (UDP over IPv4
 *          with checksum 0 counts as valid: "no checksum").
 * payload_off is the first byte after the last layer found (after the VLAN tags for a frame
 * without L3).
 */
#include <errno.h>
#include <string.h>
/* SD_CSUM_PORTABLE: the C loop every machine runs, also on x86-64 (a test builds it so) */
#if defined(__x86_64__) && !defined(SD_CSUM_PORTABLE)
#define CSUM_ADC 1
#include <x86intrin.h>
#endif

#include "nic_internal.h"

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * A few hundred instructions for a 1500-byte frame where 16 bits at a time took thousands. A piece
 * of odd length may only be the last one of a message (frame_tx.c turns a piece that starts at an
 * odd offset around).
 */
uint64_t nic_csum_acc(uint64_t acc, const uint8_t *p, size_t len)
{
	uint64_t w;
	size_t k = 0;

	if (len >= 32) {
#ifdef CSUM_ADC
		/* one add-with-carry chain: a load and an adc per 8 bytes */
		unsigned char c = 0;
		unsigned long long a = acc;

		for (; len >= 32; p += 32, len -= 32) {
			uint64_t w0, w1, w2, w3;

			memcpy(&w0, p, 8);
			memcpy(&w1, p + 8, 8);
			memcpy(&w2, p + 16, 8);
			memcpy(&w3, p + 24, 8);
			c = _addcarry_u64(c, a, w0, &a);
			c = _addcarry_u64(c, a, w1, &a);
			c = _addcarry_u64(c, a, w2, &a);
			c = _addcarry_u64(c, a, w3, &a);
		}
		acc = nic_csum_add(a, c);
#else
		__extension__ unsigned __int128 wide = 0; /* add with carry: carries land in the top half */

		for (; len >= 32; p += 32, len -= 32) {
			uint64_t w0, w1, w2, w3;

			memcpy(&w0, p, 8);
			memcpy(&w1, p + 8, 8);
			memcpy(&w2, p + 16, 8);
			memcpy(&w3, p + 24, 8);
			wide += w0;
			wide += w1;
			wide += w2;
			wide += w3;
		}
		acc = nic_csum_add(acc, (uint64_t)wide);
		acc = nic_csum_add(acc, (uint64_t)(wide >> 64));
#endif
	}
	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		acc = nic_csum_add(acc, w);
	}
	if (len == 0)
		return acc;
	/* the last bytes in a word of their own, each at the place it has in memory */
	w = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CSUM_AT(v, k) ((uint64_t)(v) << (8 * (k)))
#else
#define CSUM_AT(v, k) ((uint64_t)(v) << (64 - 8 * (k)-8 * sizeof(v)))
#endif
	if (len & 4) {
		uint32_t v;

		memcpy(&v, p, 4);
		w = CSUM_AT(v, 0);
		k = 4;
	}
	if (len & 2) {
		uint16_t v;

		memcpy(&v, p + k, 2);
		w |= CSUM_AT(v, k);
		k += 2;
	}
	if (len & 1)
		w |= CSUM_AT(p[k], k);
#undef CSUM_AT
	return nic_csum_add(acc, w);
}

SD_PRIV uint16_t priv_doca_nic_ip4_csum(const uint8_t *ip4, size_t hdr_len)
{
	if (hdr_len < 12)
		return (uint16_t)~nic_csum_fold(nic_csum_acc(0, ip4, hdr_len));
	return (uint16_t)~nic_csum_fold(nic_csum_acc(nic_csum_acc(0, ip4, 10), ip4 + 12, hdr_len - 12));
}

/* Where @proto keeps its checksum, or -1 for a protocol without one we know. */
static int l4_csum_off(uint8_t proto)
{
	switch (proto) {
	case NIC_IPPROTO_TCP:
		return 16;
	case NIC_IPPROTO_UDP:
		return 6;
	case NIC_IPPROTO_ICMP:
	case NIC_IPPROTO_ICMPV6:
		return 2;
	default:
		return -1;
	}
}

uint64_t nic_csum_pseudo(const uint8_t *l3, bool ip6, uint8_t proto, size_t l4_len)
{
	/* protocol and length as the words they are in either pseudo-header: 0 proto, len hi, len lo */
	const uint8_t pl[6] = {
	    0, proto, (uint8_t)(l4_len >> 24), (uint8_t)(l4_len >> 16), (uint8_t)(l4_len >> 8), (uint8_t)l4_len};
	uint64_t acc = nic_csum_acc(0, pl, sizeof(pl));

	if (!ip6)
		return proto == NIC_IPPROTO_ICMP ? 0 : nic_csum_acc(acc, l3 + 12, 8);
	return nic_csum_acc(acc, l3 + 8, 32);
}

/* The pseudo-header's sum of the IP header at @l3, its version read from it. */
static uint64_t pseudo_acc(const uint8_t *l3, uint8_t proto, size_t l4_len)
{
	return nic_csum_pseudo(l3, (l3[0] >> 4) != 4, proto, l4_len);
}

SD_PRIV uint16_t priv_doca_nic_l4_csum(const uint8_t *l3, uint8_t proto, const uint8_t *l4, size_t l4_len)
{
	int off = l4_csum_off(proto);
	uint64_t acc;
	uint16_t c;

	if (off < 0 || l4_len < (size_t)off + 2)
		return 0;
	acc = pseudo_acc(l3, proto, l4_len);
	acc = nic_csum_acc(acc, l4, (size_t)off);
	acc = nic_csum_acc(acc, l4 + off + 2, l4_len - (size_t)off - 2);
	c = (uint16_t)~nic_csum_fold(acc);
	if (c == 0 && proto == NIC_IPPROTO_UDP)
		c = 0xffff;
	return c;
}

/* Whether the message's checksum, its field included, verifies. */
static int l4_csum_ok(const uint8_t *l3, uint8_t proto, const uint8_t *l4, size_t l4_len)
{
	return nic_csum_fold(nic_csum_acc(pseudo_acc(l3, proto, l4_len), l4, l4_len)) == 0xffff;
}

static int ip6_is_ext(uint8_t nh)
{
	return nh == NIC_IPPROTO_HOPOPTS || nh == NIC_IPPROTO_ROUTING || nh == NIC_IPPROTO_FRAGMENT ||
	       nh == NIC_IPPROTO_DSTOPTS;
}

/*
 * Skips IPv6 extension headers from @off (at most NIC_IP6_MAX_EXT: a longer chain is treated
 * as malformed); returns the offset of the upper layer, its protocol in @nh, or -1.
 */
long nic_ip6_skip_ext(const uint8_t *f, size_t end, size_t off, uint8_t *nh, uint8_t *frag)
{
	unsigned int i;

	for (i = 0; ip6_is_ext(*nh); i++) {
		size_t hl;

		if (i == NIC_IP6_MAX_EXT || end - off < 8)
			return -1;
		if (*nh == NIC_IPPROTO_FRAGMENT) {
			hl = 8;
			/* fragment offset (13 bits) and M flag: anything but an atomic fragment */
			if ((rd16(f + off + 2) & 0xfff9) != 0)
				*frag = 1;
		} else {
			hl = ((size_t)f[off + 1] + 1) * 8;
		}
		if (end - off < hl)
			return -1;
		*nh = f[off];
		off += hl;
	}
	return (long)off;
}

/* L4 at [off, end) of protocol @proto behind @o's L3 header; a malformed one leaves @o as it is. */
static void parse_l4(const uint8_t *f, size_t off, size_t end, uint8_t proto, struct nic_frame_info *o)
{
	const uint8_t *l3 = f + o->l3_off, *l4 = f + off;
	size_t left = end - off;
	size_t hl;

	switch (proto) {
	case NIC_IPPROTO_TCP:
		if (left < 20 || (hl = (size_t)(l4[12] >> 4) * 4) < 20 || hl > left)
			return;
		o->l4 = NIC_L4_TCP;
		o->tcp_flags = l4[13];
		memcpy(&o->tcp_seq, l4 + 4, 4);
		break;
	case NIC_IPPROTO_UDP: {
		uint16_t ulen;

		if (left < 8 || (ulen = rd16(l4 + 4)) < 8 || ulen > left)
			return;
		hl = 8;
		left = ulen;
		o->l4 = NIC_L4_UDP;
		break;
	}
	case NIC_IPPROTO_ICMP:
	case NIC_IPPROTO_ICMPV6:
		if (left < 8 || (proto == NIC_IPPROTO_ICMP) != (o->l3 == NIC_L3_IPV4))
			goto other;
		hl = 8;
		o->l4 = NIC_L4_ICMP;
		break;
	default:
		goto other;
	}
	o->l4_off = (uint16_t)off;
	o->payload_off = (uint16_t)(off + hl);
	memcpy(&o->l4_src, l4, 2); /* ICMP: type, code */
	if (o->l4 != NIC_L4_ICMP)
		memcpy(&o->l4_dst, l4 + 2, 2);
	if (o->l4 == NIC_L4_UDP && o->l3 == NIC_L3_IPV4 && rd16(l4 + 6) == 0)
		o->l4_ok = 1;
	else
		o->l4_ok = (uint8_t)l4_csum_ok(l3, proto, l4, left);
	return;
other:
	o->l4 = NIC_L4_OTHER;
	o->l4_off = (uint16_t)off;
	o->payload_off = (uint16_t)off;
}

/* IPv4 at @off, then its L4; a malformed header leaves @o as it is. */
static void parse_ip4(const uint8_t *f, size_t off, size_t len, struct nic_frame_info *o)
{
	const uint8_t *ip = f + off;
	size_t ihl, tot;

	if (len - off < 20 || (ip[0] >> 4) != 4)
		return;
	ihl = (size_t)(ip[0] & 0xf) * 4;
	tot = rd16(ip + 2);
	if (ihl < 20 || tot < ihl || tot > len - off)
		return;
	o->l3 = NIC_L3_IPV4;
	o->l3_off = (uint16_t)off;
	o->ip_proto = ip[9];
	o->ip_ttl = ip[8];
	o->l3_ok = nic_csum_fold(nic_csum_acc(0, ip, ihl)) == 0xffff;
	memcpy(&o->ip4_src, ip + 12, 4);
	memcpy(&o->ip4_dst, ip + 16, 4);
	o->payload_off = (uint16_t)(off + ihl);
	if ((rd16(ip + 6) & 0x3fff) != 0) { /* MF or fragment offset */
		o->ip_frag = 1;
		return;
	}
	parse_l4(f, off + ihl, off + tot, o->ip_proto, o);
}

/* IPv6 at @off, its extension headers, then its L4. */
static void parse_ip6(const uint8_t *f, size_t off, size_t len, struct nic_frame_info *o)
{
	const uint8_t *ip = f + off;
	size_t end;
	uint8_t nh, frag = 0;
	long l4;

	if (len - off < 40 || (ip[0] >> 4) != 6)
		return;
	end = off + 40 + rd16(ip + 4);
	if (end == off + 40 || end > len)
		return;
	nh = ip[6];
	l4 = nic_ip6_skip_ext(f, end, off + 40, &nh, &frag);
	if (l4 < 0)
		return;
	o->l3 = NIC_L3_IPV6;
	o->l3_off = (uint16_t)off;
	o->ip_proto = nh;
	o->ip_ttl = ip[7];
	o->l3_ok = 1;
	memcpy(o->ip6_src, ip + 8, 16);
	memcpy(o->ip6_dst, ip + 24, 16);
	o->payload_off = (uint16_t)l4;
	if (frag) {
		o->ip_frag = 1;
		return;
	}
	parse_l4(f, (size_t)l4, end, nh, o);
}

size_t nic_frame_l2(const uint8_t *f, size_t n, uint16_t *type, uint8_t *nb_vlans)
{
	size_t off = NIC_ETH_HLEN;

	*type = rd16(f + 12);
	*nb_vlans = 0;
	while ((*type == NIC_ETH_P_VLAN || *type == NIC_ETH_P_QINQ) && *nb_vlans < 2 && n - off >= 4) {
		(*nb_vlans)++;
		*type = rd16(f + off + 2);
		off += 4;
	}
	return off;
}

SD_PRIV int priv_doca_nic_frame_parse(const uint8_t *frame, size_t len, struct nic_frame_info *out)
{
	size_t off;
	uint16_t type;

	memset(out, 0, sizeof(*out));
	if (frame == NULL || len < NIC_ETH_HLEN || len > NIC_MAX_FRAME)
		return -EINVAL;
	out->len = (uint16_t)len;
	off = nic_frame_l2(frame, len, &type, &out->nb_vlans);
	if (out->nb_vlans > 0)
		memcpy(&out->vlan_tci, frame + NIC_ETH_HLEN, 2);
	memcpy(&out->eth_type, frame + off - 2, 2);
	out->payload_off = (uint16_t)off;
	if (type == NIC_ETH_P_IPV4)
		parse_ip4(frame, off, len, out);
	else if (type == NIC_ETH_P_IPV6)
		parse_ip6(frame, off, len, out);
	return 0;
}
