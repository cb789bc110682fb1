/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_frame.c - the frame parser and checksums (src/nic/frame.c) on hand-built frames: every
 * layer it knows, each malformed and truncated form, and checksums against known vectors.
 *
 * Frames are built by one small builder (below) that fills lengths and checksums with the
 * helpers under test; the helpers themselves are first checked against vectors computed
 * elsewhere, so a wrong checksum cannot make the builder and the parser agree by accident.
 * Every parse reads from a heap copy of exactly the frame's size, so an ASan build catches a
 * read past the end.
 */
#include <arpa/inet.h>
#include <errno.h>

#include "../common/sd_test.h"
#include "nic.h"

#define P_ICMP	1
#define P_TCP	6
#define P_UDP	17
#define P_ICMP6 58

struct spec {
	unsigned int vlans; /* 0..3 tags */
	int ip;		    /* 4, 6 or 0 (EtherType 0x0806, no L3) */
	unsigned int opts;  /* IPv4 option bytes (multiple of 4) */
	uint16_t frag;	    /* IPv4 flags/offset word */
	const uint8_t *ext; /* IPv6 extension header codes, in order */
	unsigned int nb_ext;
	uint16_t ext_frag; /* IPv6 fragment header's offset/M word */
	uint8_t proto;
	unsigned int tcp_opts; /* TCP option bytes (multiple of 4) */
	unsigned int payload;
	unsigned int pad; /* Ethernet padding after the IP packet */
};

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Builds @s into @f; returns its length and the offsets of L3 and L4. */
static size_t build(uint8_t *f, const struct spec *s, size_t *l3o, size_t *l4o)
{
	static const uint8_t mac[12] = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2};
	size_t off = 12, l3, l4, end;
	unsigned int i;

	memcpy(f, mac, 12);
	for (i = 0; i < s->vlans; i++) {
		wr16(f + off, i == 0 && s->vlans > 1 ? 0x88a8 : 0x8100);
		wr16(f + off + 2, (uint16_t)(0x2000 | (100 + i)));
		off += 4;
	}
	wr16(f + off, s->ip == 4 ? 0x0800 : s->ip == 6 ? 0x86dd : 0x0806);
	off += 2;
	l3 = off;
	if (s->ip == 4) {
		memset(f + off, 0, 20 + s->opts);
		f[off] = (uint8_t)(0x40 | (20 + s->opts) / 4);
		wr16(f + off + 6, s->frag);
		f[off + 8] = 64;
		f[off + 9] = s->proto;
		memcpy(f + off + 12, (uint8_t[]){10, 0, 0, 1, 10, 0, 0, 2}, 8);
		memset(f + off + 20, 1, s->opts); /* NOP options */
		off += 20 + s->opts;
	} else if (s->ip == 6) {
		uint8_t nh = s->nb_ext ? s->ext[0] : s->proto;

		memset(f + off, 0, 40);
		f[off] = 0x60;
		f[off + 6] = nh;
		f[off + 7] = 33;
		for (i = 0; i < 16; i++) {
			f[off + 8 + i] = (uint8_t)(0x20 + i);
			f[off + 24 + i] = (uint8_t)(0x40 + i);
		}
		off += 40;
		for (i = 0; i < s->nb_ext; i++) {
			size_t hl = s->ext[i] == 44 ? 8 : 16;

			memset(f + off, 0, hl);
			f[off] = i + 1 < s->nb_ext ? s->ext[i + 1] : s->proto;
			if (s->ext[i] == 44)
				wr16(f + off + 2, s->ext_frag);
			else
				f[off + 1] = 1; /* (1 + 1) * 8 bytes */
			off += hl;
		}
	}
	l4 = off;
	if (s->ip) {
		unsigned int hl = 0;

		switch (s->proto) {
		case P_TCP:
			hl = 20 + s->tcp_opts;
			memset(f + off, 0, hl);
			wr16(f + off, 1234);
			wr16(f + off + 2, 80);
			memcpy(f + off + 4, (uint8_t[]){0xde, 0xad, 0xbe, 0xef}, 4);
			f[off + 12] = (uint8_t)((hl / 4) << 4);
			f[off + 13] = 0x12; /* SYN ACK */
			wr16(f + off + 14, 65535);
			memset(f + off + 20, 1, s->tcp_opts);
			break;
		case P_UDP:
			hl = 8;
			wr16(f + off, 5000);
			wr16(f + off + 2, 4789);
			wr16(f + off + 4, (uint16_t)(8 + s->payload));
			wr16(f + off + 6, 0);
			break;
		case P_ICMP:
		case P_ICMP6:
			hl = 8;
			memset(f + off, 0, 8);
			f[off] = s->proto == P_ICMP ? 8 : 128; /* echo request */
			f[off + 1] = 0;
			wr16(f + off + 4, 7);
			wr16(f + off + 6, 1);
			break;
		default:
			break;
		}
		off += hl;
	}
	for (i = 0; i < s->payload; i++)
		f[off + i] = (uint8_t)(i * 7 + 3);
	off += s->payload;
	end = off;
	if (s->ip == 4) {
		wr16(f + l3 + 2, (uint16_t)(end - l3));
		wr16(f + l3 + 10, priv_doca_nic_ip4_csum(f + l3, 20 + s->opts));
	} else if (s->ip == 6) {
		wr16(f + l3 + 4, (uint16_t)(end - l3 - 40));
	}
	if (s->ip && (s->proto == P_TCP || s->proto == P_UDP || s->proto == P_ICMP || s->proto == P_ICMP6)) {
		unsigned int co = s->proto == P_TCP ? 16 : s->proto == P_UDP ? 6 : 2;

		wr16(f + l4 + co, priv_doca_nic_l4_csum(f + l3, s->proto, f + l4, end - l4));
	}
	memset(f + end, 0, s->pad);
	*l3o = l3;
	*l4o = l4;
	return end + s->pad;
}

/* Parses a heap copy of exactly @len bytes of @f. */
static int parse(const uint8_t *f, size_t len, struct nic_frame_info *o)
{
	uint8_t *copy = malloc(len ? len : 1);
	int ret;

	if (copy == NULL)
		sd_die_at(__FILE__, __LINE__, "out of memory");
	memcpy(copy, f, len);
	memset(o, 0xa5, sizeof(*o)); /* the parser must overwrite all of it */
	ret = priv_doca_nic_frame_parse(copy, len, o);
	free(copy);
	return ret;
}

static bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/* Everything the L3 layer (and so L4) reports is zero. */
static bool no_l3(const struct nic_frame_info *o)
{
	return o->l3 == NIC_L3_NONE && o->l4 == NIC_L4_NONE && o->l3_off == 0 && o->l4_off == 0 && o->ip_proto == 0 &&
	       o->ip_ttl == 0 && o->l3_ok == 0 && o->l4_ok == 0 && o->ip_frag == 0 && o->ip4_src == 0 &&
	       o->ip4_dst == 0 && all_zero(o->ip6_src, 16) && all_zero(o->ip6_dst, 16) && o->l4_src == 0 &&
	       o->l4_dst == 0 && o->tcp_seq == 0 && o->tcp_flags == 0;
}

static bool no_l4(const struct nic_frame_info *o)
{
	return o->l4 == NIC_L4_NONE && o->l4_off == 0 && o->l4_ok == 0 && o->l4_src == 0 && o->l4_dst == 0 &&
	       o->tcp_seq == 0 && o->tcp_flags == 0;
}

static uint8_t f[NIC_MAX_FRAME + 64];

static void test_vectors(void)
{
	/* RFC 1071-style example header, checksum 0xb861 */
	static const uint8_t ip[20] = {0x45, 0,	   0,	 0x73, 0, 0, 0x40, 0,	 0x40, 0x11,
				       0xff, 0xff, 0xc0, 0xa8, 0, 1, 0xc0, 0xa8, 0,    0xc7};
	static const uint8_t ip4[20] = {0x45, 0, 0, 32, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2};
	static const uint8_t udp[12] = {0x12, 0x34, 0x56, 0x78, 0, 12, 0x55, 0x55, 'a', 'b', 'c', 'd'};
	uint8_t ip6[40] = {0x60, 0, 0, 0, 0, 23, 6, 64};
	static const uint8_t tcp[23] = {0x04, 0xd2, 0,	  0x50, 0,    0,    0, 1, 0,   0,   0,	0,
					0x50, 0x02, 0xff, 0xff, 0x77, 0x77, 0, 0, 'h', 'i', '!'};

	CHECK_EQ(priv_doca_nic_ip4_csum(ip, sizeof(ip)), 0xb861);
	CHECK_EQ(priv_doca_nic_l4_csum(ip4, P_UDP, udp, sizeof(udp)), 0xbe60);
	memcpy(ip6 + 8, (uint8_t[]){0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 16);
	memcpy(ip6 + 24, (uint8_t[]){0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, 16);
	CHECK_EQ(priv_doca_nic_l4_csum(ip6, P_TCP, tcp, sizeof(tcp)), 0xc5de);
	CHECK_EQ(priv_doca_nic_l4_csum(ip4, 47, udp, sizeof(udp)), 0); /* no checksum known for GRE */
}

static void test_udp4(void)
{
	struct spec s = {.ip = 4, .proto = P_UDP, .payload = 5, .pad = 13};
	struct nic_frame_info o;
	size_t l3, l4, n = build(f, &s, &l3, &l4);

	CHECK_EQ(parse(f, n, &o), 0);
	CHECK_EQ(o.len, n);
	CHECK_EQ(o.eth_type, htons(0x0800));
	CHECK_EQ(o.nb_vlans, 0);
	CHECK_EQ(o.vlan_tci, 0);
	CHECK_EQ(o.l3, NIC_L3_IPV4);
	CHECK_EQ(o.l4, NIC_L4_UDP);
	CHECK_EQ(o.ip_proto, P_UDP);
	CHECK_EQ(o.ip_ttl, 64);
	CHECK_EQ(o.l3_ok, 1);
	CHECK_EQ(o.l4_ok, 1);
	CHECK_EQ(o.ip_frag, 0);
	CHECK_EQ(o.l3_off, 14);
	CHECK_EQ(o.l4_off, 34);
	CHECK_EQ(o.payload_off, 42);
	CHECK_EQ(o.ip4_src, htonl(0x0a000001));
	CHECK_EQ(o.ip4_dst, htonl(0x0a000002));
	CHECK_EQ(o.l4_src, htons(5000));
	CHECK_EQ(o.l4_dst, htons(4789));
	CHECK(all_zero(o.ip6_src, 16) && o.tcp_seq == 0 && o.tcp_flags == 0 && o.pad == 0);

	/* a flipped payload bit fails the UDP checksum only */
	f[l4 + 9] ^= 0x10;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_UDP && o.l4_ok == 0 && o.l3_ok == 1);
	f[l4 + 9] ^= 0x10;
	/* checksum 0: none, valid over IPv4 */
	wr16(f + l4 + 6, 0);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_UDP && o.l4_ok == 1);
	/* UDP length past the IP payload, and below 8: no UDP */
	wr16(f + l4 + 4, 14);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV4 && no_l4(&o) && o.payload_off == l4);
	wr16(f + l4 + 4, 7);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV4 && no_l4(&o));
	/* a bad IPv4 header checksum is reported, the frame still parsed */
	n = build(f, &s, &l3, &l4);
	f[l3 + 8] = 63;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV4 && o.l3_ok == 0 && o.l4 == NIC_L4_UDP && o.l4_ok == 1 && o.ip_ttl == 63);
}

static void test_vlans(void)
{
	struct spec s = {.ip = 4, .proto = P_UDP, .payload = 20};
	struct nic_frame_info o;
	size_t l3, l4, n;

	s.vlans = 1;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.nb_vlans == 1 && o.vlan_tci == htons(0x2000 | 100) && o.eth_type == htons(0x0800));
	CHECK(o.l3_off == 18 && o.l4 == NIC_L4_UDP && o.l4_ok);

	s.vlans = 2; /* 0x88a8 outer, 0x8100 inner */
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.nb_vlans == 2 && o.vlan_tci == htons(0x2000 | 100) && o.eth_type == htons(0x0800));
	CHECK(o.l3_off == 22 && o.l4_off == 42 && o.l4 == NIC_L4_UDP);

	s.vlans = 3; /* the third tag is not parsed */
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.nb_vlans == 2 && o.eth_type == htons(0x8100) && no_l3(&o) && o.payload_off == 22);

	/* a tag cut short: the tags before it count */
	CHECK_EQ(parse(f, 16, &o), 0);
	CHECK(o.nb_vlans == 0 && o.eth_type == htons(0x88a8) && no_l3(&o) && o.payload_off == 14);
	CHECK_EQ(parse(f, 20, &o), 0);
	CHECK(o.nb_vlans == 1 && o.eth_type == htons(0x8100) && no_l3(&o));

	s.vlans = 0;
	s.ip = 0; /* ARP: L2 only */
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, 60, &o), 0);
	CHECK(o.eth_type == htons(0x0806) && no_l3(&o) && o.payload_off == 14 && o.len == 60);
}

static void test_ip4_forms(void)
{
	struct spec s = {.ip = 4, .proto = P_TCP, .opts = 8, .payload = 30};
	struct nic_frame_info o;
	size_t l3, l4, n = build(f, &s, &l3, &l4);

	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV4 && o.l3_ok == 1 && o.l4_off == 14 + 28 && o.l4 == NIC_L4_TCP && o.l4_ok == 1);

	/* IHL below 5, version 5, total length past the frame or below IHL: no L3 */
	f[l3] = 0x44;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o) && o.eth_type == htons(0x0800));
	f[l3] = 0x57;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o));
	f[l3] = 0x47;
	wr16(f + l3 + 2, (uint16_t)(n - l3 + 1));
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o));
	wr16(f + l3 + 2, 24);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o));
	/* IHL 15 with a total length that covers it but leaves no TCP room */
	f[l3] = 0x4f;
	wr16(f + l3 + 2, 60);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV4 && o.l3_ok == 0 && no_l4(&o) && o.payload_off == l3 + 60);

	/* fragments: MF, then an offset; never L4 */
	s.frag = 0x2000;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV4 && o.ip_frag == 1 && no_l4(&o) && o.l3_ok == 1 && o.payload_off == l4);
	s.frag = 0x0010;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.ip_frag == 1 && no_l4(&o));
	s.frag = 0x4000; /* DF alone is not a fragment */
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.ip_frag == 0 && o.l4 == NIC_L4_TCP);

	/* another protocol: L4 OTHER at the end of the IP header */
	s.proto = 47;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_OTHER && o.ip_proto == 47 && o.l4_off == l4 && o.payload_off == l4 && o.l4_ok == 0);
}

static void test_tcp(void)
{
	struct spec s = {.ip = 4, .proto = P_TCP, .tcp_opts = 12, .payload = 100};
	struct nic_frame_info o;
	size_t l3, l4, n = build(f, &s, &l3, &l4);

	CHECK_EQ(parse(f, n, &o), 0);
	CHECK_EQ(o.l4, NIC_L4_TCP);
	CHECK_EQ(o.tcp_flags, 0x12);
	CHECK_EQ(o.tcp_seq, htonl(0xdeadbeef));
	CHECK_EQ(o.l4_src, htons(1234));
	CHECK_EQ(o.l4_dst, htons(80));
	CHECK_EQ(o.payload_off, l4 + 32);
	CHECK_EQ(o.l4_ok, 1);
	/* a wrong byte in the pseudo-header (the destination address) fails the L4 checksum */
	f[l3 + 19] ^= 1;
	wr16(f + l3 + 10, priv_doca_nic_ip4_csum(f + l3, 20));
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3_ok == 1 && o.l4 == NIC_L4_TCP && o.l4_ok == 0);
	f[l3 + 19] ^= 1;
	/* data offset below 5 or past the segment */
	f[l4 + 12] = 0x40;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV4 && no_l4(&o));
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, l4 + 31 + 0, &o), 0); /* IP total length past the cut: no L3 at all */
	CHECK(no_l3(&o));
	wr16(f + l3 + 2, 20 + 24);
	f[l4 + 12] = 0x70;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV4 && no_l4(&o));
}

static void test_icmp(void)
{
	struct spec s = {.ip = 4, .proto = P_ICMP, .payload = 56};
	struct nic_frame_info o;
	size_t l3, l4, n = build(f, &s, &l3, &l4);

	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_ICMP && o.l4_src == htons(8 << 8 | 0) && o.l4_dst == 0 && o.l4_ok == 1);
	CHECK_EQ(o.payload_off, l4 + 8);
	f[l4 + 20] ^= 0xff;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_ICMP && o.l4_ok == 0);

	s.ip = 6;
	s.proto = P_ICMP6;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV6 && o.l4 == NIC_L4_ICMP && o.l4_src == htons(128 << 8) && o.l4_ok == 1);
	/* ICMPv6 checksum covers the pseudo-header */
	f[l3 + 8] ^= 1;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_ICMP && o.l4_ok == 0);
	/* ICMPv4 inside IPv6 is not ICMP */
	s.proto = P_ICMP;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_OTHER && o.ip_proto == P_ICMP);
}

static void test_ip6(void)
{
	static const uint8_t exts[] = {0, 43, 60};
	static const uint8_t frag[] = {0, 44};
	static const uint8_t long_chain[9] = {60, 60, 60, 60, 60, 60, 60, 60, 60};
	struct spec s = {.ip = 6, .proto = P_TCP, .payload = 30};
	struct nic_frame_info o;
	size_t l3, l4, n = build(f, &s, &l3, &l4);

	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.eth_type == htons(0x86dd) && o.l3 == NIC_L3_IPV6 && o.l3_ok == 1 && o.ip_ttl == 33);
	CHECK(o.l3_off == 14 && o.l4_off == 54 && o.l4 == NIC_L4_TCP && o.l4_ok == 1 && o.ip_proto == P_TCP);
	CHECK(o.ip6_src[0] == 0x20 && o.ip6_src[15] == 0x2f && o.ip6_dst[0] == 0x40 && o.ip6_dst[15] == 0x4f);
	CHECK(o.ip4_src == 0 && o.ip4_dst == 0);

	s.ext = exts;
	s.nb_ext = 3;
	s.proto = P_UDP;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV6 && o.ip_proto == P_UDP && o.l4 == NIC_L4_UDP && o.l4_off == 54 + 48 && o.l4_ok);
	/* UDP over IPv6 must carry a checksum */
	wr16(f + l4 + 6, 0);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_UDP && o.l4_ok == 0);
	/* an extension header claiming more than the payload: the IPv6 layer is malformed */
	f[l3 + 40 + 16 + 1] = 200;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o) && o.eth_type == htons(0x86dd));

	/* atomic fragment header: not a fragment; with M or an offset: a fragment */
	s.ext = frag;
	s.nb_ext = 2;
	s.ext_frag = 0;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.ip_frag == 0 && o.l4 == NIC_L4_UDP && o.l4_off == 54 + 24);
	s.ext_frag = 1;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV6 && o.ip_frag == 1 && no_l4(&o) && o.ip_proto == P_UDP && o.payload_off == l4);

	/* nine extension headers: beyond the bound, malformed */
	s.ext = long_chain;
	s.nb_ext = 9;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o));
	s.nb_ext = 8;
	n = build(f, &s, &l3, &l4);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l3 == NIC_L3_IPV6 && o.l4 == NIC_L4_UDP && o.l4_ok == 1);

	/* payload length 0 (jumbogram) or past the frame; wrong version */
	s.nb_ext = 0;
	n = build(f, &s, &l3, &l4);
	wr16(f + l3 + 4, 0);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o));
	wr16(f + l3 + 4, (uint16_t)(n - l3 - 39));
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o));
	n = build(f, &s, &l3, &l4);
	f[l3] = 0x40;
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(no_l3(&o));
}

/* Every prefix of a full frame: a clean result, and layers only where they fit. */
static void test_truncations(void)
{
	static const uint8_t exts[] = {0, 44};
	const struct spec specs[] = {
	    {.vlans = 2, .ip = 4, .opts = 4, .proto = P_TCP, .tcp_opts = 8, .payload = 9},
	    {.vlans = 1, .ip = 6, .ext = exts, .nb_ext = 2, .proto = P_UDP, .payload = 7},
	    {.ip = 6, .proto = P_ICMP6, .payload = 3},
	};

	for (size_t k = 0; k < SD_ARRAY_SIZE(specs); k++) {
		struct nic_frame_info o;
		size_t l3, l4, n = build(f, &specs[k], &l3, &l4);

		for (size_t cut = 0; cut <= n; cut++) {
			int ret = parse(f, cut, &o);

			if (cut < 14) {
				CHECK_EQ(ret, -EINVAL);
				CHECK(all_zero(&o, sizeof(o)));
				continue;
			}
			CHECK_EQ(ret, 0);
			CHECK_EQ(o.len, cut);
			CHECK(o.payload_off <= cut && o.l4_off <= cut && o.l3_off <= cut);
			/* the IP packet ends at n: any cut before it leaves no L3 */
			if (cut < n)
				CHECK(no_l3(&o));
			else
				CHECK(o.l3 != NIC_L3_NONE && o.l4 != NIC_L4_NONE && o.l4_ok == 1);
		}
	}
}

static void test_sizes(void)
{
	struct nic_frame_info o;
	uint8_t small[1] = {0};

	memset(f, 0, sizeof(f));
	CHECK_EQ(priv_doca_nic_frame_parse(NULL, 60, &o), -EINVAL);
	CHECK_EQ(priv_doca_nic_frame_parse(small, 0, &o), -EINVAL);
	CHECK_EQ(parse(f, NIC_MAX_FRAME + 1, &o), -EINVAL);
	CHECK(all_zero(&o, sizeof(o)));
	CHECK_EQ(parse(f, NIC_MAX_FRAME, &o), 0);
	CHECK_EQ(o.len, NIC_MAX_FRAME);

	/* a jumbo UDP frame of the largest size */
	struct spec s = {.ip = 4, .proto = P_UDP, .payload = NIC_MAX_FRAME - 14 - 28};
	size_t l3, l4, n = build(f, &s, &l3, &l4);

	CHECK_EQ(n, NIC_MAX_FRAME);
	CHECK_EQ(parse(f, n, &o), 0);
	CHECK(o.l4 == NIC_L4_UDP && o.l4_ok == 1 && o.payload_off == 42);
}

/* RFC 1071 word by word, as plainly as it can be written: what the fast sums must agree with. */
static uint16_t ref_csum(const uint8_t *pseudo, size_t plen, const uint8_t *l4, size_t len, size_t field)
{
	uint32_t sum = 0;

	for (size_t i = 0; i < plen; i += 2)
		sum += (uint32_t)(pseudo[i] << 8 | pseudo[i + 1]);
	for (size_t i = 0; i < len; i += 2) {
		uint32_t hi = i == field ? 0 : l4[i], lo = i + 1 >= len || i == field ? 0 : l4[i + 1];

		sum += hi << 8 | lo;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	return (uint16_t)(sum == 0 ? 0xffff : sum); /* UDP's rule; the test uses UDP and TCP only */
}

/* Every length from 20 to 1600 bytes at every alignment of @buf, over IPv4 (UDP) and IPv6 (TCP). */
static void csum_lengths(const uint8_t *buf, const uint8_t *ip4, const uint8_t *ip6)
{
	for (size_t len = 20; len <= 1600; len++) {
		for (size_t align = 0; align < 8; align++) {
			const uint8_t *l4 = buf + align;
			uint8_t p4[12] = {192, 168, 7, 1, 10, 9, 8, 7, 0, P_UDP, (uint8_t)(len >> 8), (uint8_t)len};
			uint8_t p6[40] = {0};
			uint16_t c, want;

			memcpy(p6, ip6 + 8, 32);
			p6[34] = (uint8_t)(len >> 8);
			p6[35] = (uint8_t)len;
			p6[39] = P_TCP;
			c = priv_doca_nic_l4_csum(ip4, P_UDP, l4, len);
			want = ref_csum(p4, sizeof(p4), l4, len, 6);
			if (c != want) {
				fprintf(stderr, "UDP/IPv4 %zu bytes at +%zu: %#x, the reference %#x\n", len, align, c,
					want);
				exit(T_EXIT_FAIL);
			}
			c = priv_doca_nic_l4_csum(ip6, P_TCP, l4, len);
			want = ref_csum(p6, sizeof(p6), l4, len, 16);
			if (c != want && !(want == 0xffff && c == 0)) { /* TCP keeps a 0 result */
				fprintf(stderr, "TCP/IPv6 %zu bytes at +%zu: %#x, the reference %#x\n", len, align, c,
					want);
				exit(T_EXIT_FAIL);
			}
		}
	}
}

static void test_csum_reference(void)
{
	static uint8_t buf[1600 + 8];
	const uint8_t ip4[20] = {0x45, 0, 0, 0, 0, 0, 0, 0, 64, P_UDP, 0, 0, 192, 168, 7, 1, 10, 9, 8, 7};
	uint8_t ip6[40] = {0x60, 0, 0, 0, 0, 0, P_TCP, 64};
	uint32_t x = 12345;

	for (size_t i = 0; i < 32; i++)
		ip6[8 + i] = (uint8_t)(0xf0 ^ (i * 37));
	/*
	 * Random bytes; all ones (every add carries); all ones but a few; all ones but one 64-bit
	 * word of 1 (little-endian), which makes the carries themselves carry once more.
	 */
	for (int pat = 0; pat < 4; pat++) {
		for (size_t i = 0; i < sizeof(buf); i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = pat == 0 ? (uint8_t)(x >> 16) : pat != 2 || i % 17 != 3 ? 0xff : (uint8_t)(x >> 28);
		}
		if (pat == 3)
			memcpy(buf + 40, (const uint8_t[8]){1, 0, 0, 0, 0, 0, 0, 0}, 8);
		csum_lengths(buf, ip4, ip6);
	}
	/* and the parser's verification: a correct frame passes, any single flipped bit fails */
	struct spec sp = {.ip = 4, .proto = P_UDP, .payload = 1001};
	struct nic_frame_info o;
	size_t l3, l4o, n = build(f, &sp, &l3, &l4o);

	CHECK(parse(f, n, &o) == 0 && o.l4_ok == 1);
	for (size_t i = l4o + 8; i < n; i += 7) {
		f[i] ^= (uint8_t)(1u << (i % 8));
		CHECK(parse(f, n, &o) == 0 && o.l4 == NIC_L4_UDP && o.l4_ok == 0);
		f[i] ^= (uint8_t)(1u << (i % 8));
	}
}

int main(void)
{
	test_vectors();
	test_csum_reference();
	test_udp4();
	test_vlans();
	test_ip4_forms();
	test_tcp();
	test_icmp();
	test_ip6();
	test_truncations();
	test_sizes();
	printf("frame parser: all checks passed\n");
	return T_EXIT_PASS;
}
