/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_frame_tx.c - the frame builder (src/nic/frame_tx.c) against a reference written here
 * the plainest way: a frame flattened into one array, summed 16 bits at a time in network
 * order. It checks:
 *   - checksum offloads on IPv4 and IPv6, TCP and UDP, 0-2 VLAN tags, IPv4 and TCP options, an
 *     IPv6 extension header, payloads of odd and even lengths, with the frame's rest handed over
 *     as a gather list cut at every kind of offset (odd, even, 1-byte pieces, empty pieces),
 *     each piece in a heap buffer of exactly its size (an ASan build catches a read past it);
 *   - what is summed: the IP length's bytes and not the Ethernet padding, the frame's bytes when
 *     the length lies, nothing for a fragment, UDP's 0 sent as 0xffff;
 *   - LSO segments: every header field (IPv4 total length, id + k across the wrap, header
 *     checksum; IPv6 payload length; TCP sequence number across the wrap; FIN and PSH only on
 *     the last segment, CWR only on the first; UDP length), each segment's checksum against
 *     the reference, the templates LSO takes and the ones it refuses.
 */
#include <errno.h>
#include <stdlib.h>

#include "../common/sd_test.h"
#include "nic.h"

#define P_TCP 6
#define P_UDP 17

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)rd16(p) << 16 | rd16(p + 2);
}

/* ---- the reference: RFC 1071 by the book ---- */

static uint32_t ref_sum(uint32_t sum, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		sum += (i & 1) ? p[i] : (uint32_t)p[i] << 8;
	return sum;
}

static uint16_t ref_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint16_t ref_ip4(const uint8_t *ip)
{
	size_t ihl = (size_t)(ip[0] & 0xf) * 4;
	uint32_t sum = ref_sum(0, ip, 10);

	return ref_fold(ref_sum(sum, ip + 12, ihl - 12));
}

/* The L4 checksum of @len bytes at @l4 behind the IP header @ip (its field taken as zero). */
static uint16_t ref_l4(const uint8_t *ip, bool v6, uint8_t proto, const uint8_t *l4, size_t len)
{
	size_t field = proto == P_TCP ? 16 : 6;
	uint32_t sum = v6 ? ref_sum(0, ip + 8, 32) : ref_sum(0, ip + 12, 8);
	uint16_t c;

	sum += proto + (uint32_t)(len >> 16) + (uint32_t)(len & 0xffff);
	sum = ref_sum(sum, l4, field);
	sum = ref_sum(sum, l4 + field + 2, len - field - 2);
	c = ref_fold(sum);
	return (c == 0 && proto == P_UDP) ? 0xffff : c;
}

/* ---- frames ---- */

struct spec {
	unsigned int vlans;
	int ip;				     /* 4 or 6 */
	unsigned int ip_opts, tcp_opts, ext; /* IPv4 option bytes, TCP option bytes, IPv6 hop-by-hop bytes */
	uint8_t proto;
	unsigned int payload, pad;
	uint16_t frag; /* IPv4 flags/offset word */
	int len_delta; /* added to the IP length field (a lie) */
};

struct frame {
	uint8_t b[NIC_MAX_FRAME];
	size_t len;
	size_t l3, l4, pay; /* offsets */
	size_t l4_len;	    /* as the IP length gives it */
};

/* A frame as @s says, random addresses and payload, garbage in the checksum fields. */
static void build(const struct spec *s, struct frame *f)
{
	uint8_t *p = f->b;
	size_t off = 12, l3len, hl4;

	for (size_t i = 0; i < sizeof(f->b); i++)
		p[i] = (uint8_t)rnd();
	for (unsigned int v = 0; v < s->vlans; v++, off += 4)
		wr16(p + off, v == 0 && s->vlans == 2 ? 0x88a8 : 0x8100);
	wr16(p + off, s->ip == 4 ? 0x0800 : 0x86dd);
	f->l3 = off + 2;
	hl4 = s->proto == P_TCP ? 20 + s->tcp_opts : 8;
	if (s->ip == 4) {
		uint8_t *ip = p + f->l3;

		ip[0] = (uint8_t)(0x40 | (20 + s->ip_opts) / 4);
		wr16(ip + 6, s->frag);
		ip[9] = s->proto;
		f->l4 = f->l3 + 20 + s->ip_opts;
		l3len = 20 + s->ip_opts + hl4 + s->payload;
		wr16(ip + 2, (uint16_t)(l3len + (size_t)s->len_delta));
	} else {
		uint8_t *ip = p + f->l3;

		ip[0] = 0x60;
		ip[6] = s->ext ? 0 : s->proto;
		f->l4 = f->l3 + 40;
		if (s->ext) {
			ip[40] = s->proto;
			ip[41] = (uint8_t)(s->ext / 8 - 1);
			f->l4 += s->ext;
		}
		l3len = 40 + s->ext + hl4 + s->payload;
		wr16(ip + 4, (uint16_t)(l3len - 40 + (size_t)s->len_delta));
	}
	if (s->proto == P_TCP)
		p[f->l4 + 12] = (uint8_t)((hl4 / 4) << 4 | (p[f->l4 + 12] & 0x0f));
	else
		wr16(p + f->l4 + 4, (uint16_t)(hl4 + s->payload));
	f->pay = f->l4 + hl4;
	f->len = f->l3 + l3len + s->pad;
	f->l4_len = f->l3 + l3len - f->l4;
}

/* The rest of a frame as a gather list cut by @mode, each piece in a heap buffer of its size. */
struct pieces {
	struct iovec iov[64];
	unsigned int cnt;
};

static void cut(const uint8_t *p, size_t len, int mode, struct pieces *ps)
{
	size_t off = 0;

	ps->cnt = 0;
	while (off < len || (mode == 3 && ps->cnt == 0)) {
		size_t take;

		switch (mode) {
		case 0:
			take = len; /* one piece */
			break;
		case 1:
			take = 1 + 2 * (rnd() % 40); /* odd pieces: every other one starts at an odd offset */
			break;
		case 2:
			take = ps->cnt < 8 ? 1 : len; /* single bytes, then the rest */
			break;
		case 3:
			take = ps->cnt % 3 == 1 ? 0 : 1 + rnd() % 300; /* empty pieces between */
			break;
		default:
			take = 1 + rnd() % 97;
			break;
		}
		if (ps->cnt == 63)
			take = len - off;
		if (take > len - off)
			take = len - off;
		ps->iov[ps->cnt].iov_base = malloc(take ? take : 1);
		CHECK(ps->iov[ps->cnt].iov_base != NULL);
		memcpy(ps->iov[ps->cnt].iov_base, p + off, take);
		ps->iov[ps->cnt].iov_len = take;
		ps->cnt++;
		off += take;
		if (take == 0 && off == len)
			break;
	}
}

static void uncut(struct pieces *ps)
{
	for (unsigned int i = 0; i < ps->cnt; i++)
		free(ps->iov[i].iov_base);
}

/*
 * Offloads on frame @f: the builder's header bytes must be the frame's with the reference
 * checksums in place (@l4_len bytes of L4 summed; 0: no L4 checksum expected).
 */
static void check_offload(const struct spec *s, struct frame *f, size_t l4_len, int mode)
{
	uint8_t want[NIC_MAX_FRAME];
	uint8_t *hdr;
	struct nic_tx_hdr h;
	struct pieces ps;

	memcpy(want, f->b, f->len);
	if (s->ip == 4)
		wr16(want + f->l3 + 10, ref_ip4(want + f->l3));
	if (l4_len > 0)
		wr16(want + f->l4 + (s->proto == P_TCP ? 16 : 6),
		     ref_l4(want + f->l3, s->ip == 6, s->proto, want + f->l4, l4_len));

	hdr = malloc(f->len);
	CHECK(hdr != NULL);
	memcpy(hdr, f->b, f->len);
	CHECK_EQ(priv_doca_nic_tx_parse(hdr, f->len < 256 ? f->len : 256, f->len, &h), 0);
	CHECK_EQ(h.l3, s->ip == 4 ? NIC_L3_IPV4 : NIC_L3_IPV6);
	CHECK_EQ(h.l3_off, f->l3);
	CHECK_EQ(h.l3_end, f->l4);
	CHECK_EQ(h.ip6_ext, s->ext != 0);
	if (l4_len > 0) {
		CHECK_EQ(h.l4, s->proto == P_TCP ? NIC_L4_TCP : NIC_L4_UDP);
		CHECK_EQ(h.l4_off, f->l4);
		CHECK_EQ(h.hdr_end, f->pay);
		CHECK_EQ(h.l4_len, l4_len);
	} else {
		CHECK_EQ(h.l4, NIC_L4_NONE);
	}
	cut(f->b + h.hdr_end, f->len - h.hdr_end, mode, &ps);
	priv_doca_nic_tx_csum(hdr, &h, NIC_TX_CSUM_L3 | NIC_TX_CSUM_L4, ps.iov, ps.cnt);
	CHECK_MEM(hdr, want, h.hdr_end);
	CHECK_MEM(hdr + h.hdr_end, f->b + h.hdr_end, f->len - h.hdr_end); /* past the headers: untouched */
	uncut(&ps);

	/* one offload alone touches its own field only */
	memcpy(hdr, f->b, f->len);
	priv_doca_nic_tx_csum(hdr, &h, NIC_TX_CSUM_L3, NULL, 0);
	if (s->ip == 4)
		CHECK_EQ(rd16(hdr + f->l3 + 10), rd16(want + f->l3 + 10));
	if (l4_len > 0)
		CHECK_MEM(hdr + f->l4, f->b + f->l4, h.hdr_end - f->l4);
	free(hdr);
}

static void test_offloads(void)
{
	static const unsigned int payloads[] = {0, 1, 2, 3, 7, 63, 64, 65, 1001, 1458};
	unsigned int n = 0;

	for (int ip = 4; ip <= 6; ip += 2)
		for (unsigned int vlans = 0; vlans <= 2; vlans++)
			for (int tcp = 0; tcp < 2; tcp++)
				for (size_t k = 0; k < sizeof(payloads) / sizeof(payloads[0]); k++)
					for (int mode = 0; mode < 5; mode++) {
						struct spec s = {.vlans = vlans,
								 .ip = ip,
								 .proto = tcp ? P_TCP : P_UDP,
								 .payload = payloads[k],
								 .ip_opts = ip == 4 && k % 3 == 1 ? 8 : 0,
								 .tcp_opts = tcp && k % 2 ? 12 : 0,
								 .ext = ip == 6 && k % 4 == 3 ? 16 : 0};
						struct frame f;

						build(&s, &f);
						check_offload(&s, &f, f.l4_len, mode);
						n++;
					}
	printf("  %u frames' offloads match the reference\n", n);
}

/* What is summed when the frame and its length fields disagree; UDP's zero. */
static void test_lengths(void)
{
	struct frame f;
	struct spec s;

	/* Ethernet padding after a short packet is not the message's */
	s = (struct spec){.ip = 4, .proto = P_UDP, .payload = 5, .pad = 13};
	build(&s, &f);
	check_offload(&s, &f, f.l4_len, 1);
	s = (struct spec){.ip = 6, .proto = P_TCP, .payload = 3, .pad = 7, .vlans = 1};
	build(&s, &f);
	check_offload(&s, &f, f.l4_len, 4);
	/* a length that lies (past the frame, or inside the L4 header): the frame's bytes */
	s = (struct spec){.ip = 4, .proto = P_TCP, .payload = 101, .len_delta = 40};
	build(&s, &f);
	check_offload(&s, &f, f.len - f.l4, 1);
	s = (struct spec){.ip = 4, .proto = P_UDP, .payload = 30, .len_delta = -34};
	build(&s, &f);
	check_offload(&s, &f, f.len - f.l4, 2);
	s = (struct spec){.ip = 6, .proto = P_UDP, .payload = 30, .len_delta = 1};
	build(&s, &f);
	check_offload(&s, &f, f.len - f.l4, 3);
	/* a fragment: the IPv4 header's checksum, no L4 one */
	s = (struct spec){.ip = 4, .proto = P_UDP, .payload = 30, .frag = 0x2000};
	build(&s, &f);
	check_offload(&s, &f, 0, 0);
	s = (struct spec){.ip = 4, .proto = P_TCP, .payload = 30, .frag = 0x0010};
	build(&s, &f);
	check_offload(&s, &f, 0, 0);
	/* UDP whose checksum comes out 0 goes out as 0xffff */
	s = (struct spec){.ip = 4, .proto = P_UDP, .payload = 40};
	build(&s, &f);
	wr16(f.b + f.pay + 10, 0);
	{
		uint16_t c = ref_l4(f.b + f.l3, false, P_UDP, f.b + f.l4, f.l4_len);
		struct nic_tx_hdr h;
		struct iovec rest;

		/* c = ~sum: adding c to the payload makes the sum 0xffff, the checksum 0 */
		wr16(f.b + f.pay + 10, c);
		CHECK_EQ(ref_l4(f.b + f.l3, false, P_UDP, f.b + f.l4, f.l4_len), 0xffff);
		CHECK_EQ(priv_doca_nic_tx_parse(f.b, f.len, f.len, &h), 0);
		rest.iov_base = f.b + h.hdr_end;
		rest.iov_len = f.len - h.hdr_end;
		priv_doca_nic_tx_csum(f.b, &h, NIC_TX_CSUM_L4, &rest, 1);
		CHECK_EQ(rd16(f.b + f.l4 + 6), 0xffff);
	}
	/* not IP, too short, too long */
	{
		struct nic_tx_hdr h;
		uint8_t arp[60] = {[12] = 0x08, [13] = 0x06};

		CHECK_EQ(priv_doca_nic_tx_parse(arp, sizeof(arp), sizeof(arp), &h), 0);
		CHECK(h.l3 == NIC_L3_NONE && h.l4 == NIC_L4_NONE && h.hdr_end == 14);
		CHECK_EQ(priv_doca_nic_tx_parse(arp, 13, 13, &h), -EINVAL);
		CHECK_EQ(priv_doca_nic_tx_parse(arp, 60, 59, &h), -EINVAL);
		CHECK_EQ(priv_doca_nic_tx_parse(arp, 60, NIC_MAX_FRAME + 1, &h), -EINVAL);
	}
}

/* ---- LSO ---- */

/* Segments a message of @plen random bytes behind template @s with @mss; checks each one. */
static void check_lso(const struct spec *s, uint32_t plen, uint32_t mss, int mode)
{
	struct frame t;
	uint8_t *msg, seg_hdr[256], flags = 0;
	struct nic_tx_hdr h;
	struct pieces ps;
	uint32_t nseg = (plen + mss - 1) / mss, seq0 = 0;
	uint16_t id0 = 0;

	build(s, &t);
	if (s->proto == P_TCP) {
		t.b[t.l4 + 13] = flags = 0x80 | 0x10 | 0x08 | 0x01; /* CWR ACK PSH FIN */
		wr16(t.b + t.l4 + 4, 0xffff);
		wr16(t.b + t.l4 + 6, (uint16_t)(0x10000 - mss)); /* the sequence number wraps */
		seq0 = rd32(t.b + t.l4 + 4);
	}
	if (s->ip == 4) {
		wr16(t.b + t.l3 + 4, 0xfffe); /* so does the id */
		id0 = 0xfffe;
	}
	CHECK_EQ(priv_doca_nic_lso_parse(t.b, t.pay, &h), 0);
	CHECK_EQ(h.hdr_end, t.pay);
	msg = malloc(plen);
	CHECK(msg != NULL);
	for (uint32_t i = 0; i < plen; i++)
		msg[i] = (uint8_t)rnd();
	for (uint32_t k = 0; k < nseg; k++) {
		uint32_t off = k * mss, seg = plen - off < mss ? plen - off : mss;
		uint8_t full[NIC_MAX_FRAME], *ip, *l4;
		size_t l4_len = t.pay - t.l4 + seg;

		cut(msg + off, seg, mode, &ps);
		memset(seg_hdr, 0xee, sizeof(seg_hdr));
		priv_doca_nic_lso_segment(seg_hdr, t.b, &h, k, off, seg, k + 1 == nseg, ps.iov, ps.cnt);
		uncut(&ps);
		CHECK_EQ(seg_hdr[t.pay], 0xee); /* nothing written past the header */
		memcpy(full, seg_hdr, t.pay);
		memcpy(full + t.pay, msg + off, seg);
		ip = full + t.l3;
		l4 = full + t.l4;
		CHECK_MEM(full, t.b, t.l3); /* Ethernet and tags as given */
		if (s->ip == 4) {
			CHECK_EQ(rd16(ip + 2), t.pay - t.l3 + seg);
			CHECK_EQ(rd16(ip + 4), (uint16_t)(id0 + k));
			CHECK_EQ(rd16(ip + 10), ref_ip4(ip));
			CHECK_MEM(ip + 12, t.b + t.l3 + 12, 8);
		} else {
			CHECK_EQ(rd16(ip + 4), t.pay - t.l3 + seg - 40);
			CHECK_MEM(ip + 6, t.b + t.l3 + 6, 34);
		}
		if (s->proto == P_TCP) {
			uint8_t want = flags;

			CHECK_EQ(rd32(l4 + 4), seq0 + off);
			if (k + 1 < nseg)
				want &= (uint8_t)~0x09;
			if (k > 0)
				want &= (uint8_t)~0x80;
			CHECK_EQ(l4[13], want);
			CHECK_EQ(rd16(l4 + 16), ref_l4(ip, s->ip == 6, P_TCP, l4, l4_len));
		} else {
			CHECK_EQ(rd16(l4 + 4), l4_len);
			CHECK_EQ(rd16(l4 + 6), ref_l4(ip, s->ip == 6, P_UDP, l4, l4_len));
		}
	}
	free(msg);
}

static void test_lso(void)
{
	struct nic_tx_hdr h;
	struct frame t;
	struct spec s;

	for (int mode = 0; mode < 5; mode++) {
		check_lso(&(struct spec){.ip = 4, .proto = P_TCP}, 5000, 1400, mode);
		check_lso(&(struct spec){.ip = 4, .proto = P_TCP, .vlans = 2, .ip_opts = 4, .tcp_opts = 12}, 4001, 1001,
			  mode);
		check_lso(&(struct spec){.ip = 6, .proto = P_TCP, .vlans = 1}, 2999, 999, mode);
		check_lso(&(struct spec){.ip = 4, .proto = P_UDP}, 2500, 1000, mode);
		check_lso(&(struct spec){.ip = 6, .proto = P_UDP}, 1, 1000, mode);
		check_lso(&(struct spec){.ip = 4, .proto = P_TCP}, 1400, 1400, mode); /* one segment: all flags */
	}
	/* Ethernet alone, with or without tags: carried as it is */
	{
		uint8_t e[22] = {[12] = 0x81, [13] = 0x00, [16] = 0x88, [17] = 0xb5}, dst[22];
		uint8_t pay[3] = {1, 2, 3};
		struct iovec iov = {.iov_base = pay, .iov_len = 3};

		CHECK_EQ(priv_doca_nic_lso_parse(e, 18, &h), 0);
		CHECK(h.l3 == NIC_L3_NONE && h.hdr_end == 18);
		priv_doca_nic_lso_segment(dst, e, &h, 3, 999, 3, false, &iov, 1);
		CHECK_MEM(dst, e, 18);
		e[12] = 0x08; /* ARP: 14 bytes of Ethernet alone */
		e[13] = 0x06;
		CHECK_EQ(priv_doca_nic_lso_parse(e, 14, &h), 0);
		CHECK_EQ(priv_doca_nic_lso_parse(e, 18, &h), -EINVAL); /* 4 bytes of what? */
		CHECK_EQ(priv_doca_nic_lso_parse(e, 13, &h), -EINVAL);
	}
	/* refused: a byte more or less, an extension header, a fragment, another protocol */
	s = (struct spec){.ip = 4, .proto = P_TCP};
	build(&s, &t);
	CHECK_EQ(priv_doca_nic_lso_parse(t.b, t.pay + 1, &h), -EINVAL);
	CHECK_EQ(priv_doca_nic_lso_parse(t.b, t.pay - 1, &h), -EINVAL);
	t.b[t.l3 + 9] = 47;
	CHECK_EQ(priv_doca_nic_lso_parse(t.b, t.pay, &h), -EINVAL);
	s = (struct spec){.ip = 4, .proto = P_UDP, .frag = 0x2000};
	build(&s, &t);
	CHECK_EQ(priv_doca_nic_lso_parse(t.b, t.pay, &h), -EINVAL);
	s = (struct spec){.ip = 6, .proto = P_UDP, .ext = 8};
	build(&s, &t);
	CHECK_EQ(priv_doca_nic_lso_parse(t.b, t.pay, &h), -EINVAL);
}

int main(void)
{
	test_offloads();
	test_lengths();
	test_lso();
	printf("frame builder: all checks passed\n");
	return T_EXIT_PASS;
}
