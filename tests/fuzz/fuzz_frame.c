/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_frame.c - libFuzzer target for the software NIC's frame parser (src/nic/frame.c), the
 * parser every received frame goes through, and its frame builder (src/nic/frame_tx.c), which
 * every send path runs on bytes an application or a GPU kernel wrote.
 *
 * Beyond the sanitizers, the contract of nic.h is checked: -EINVAL exactly for sizes outside
 * [14, NIC_MAX_FRAME] with a zeroed result; offsets inside the frame and in layer order; an
 * absent layer's fields zero; and a checksum the parser calls valid is the one the checksum
 * helpers compute for the same bytes.
 *
 * The builder gets the same input as a frame to send; its last 4 bytes (frame bytes as well,
 * so every seed of the parser's corpus is one) choose how many header bytes it sees, where the
 * gather list of the rest is cut and the MSS. Checked: the header offsets in order and within
 * the bytes given, the same layers as the parser where the parser found them, the same header
 * bytes whatever the cuts, and what it built parses as valid: checksums over the length the
 * parser sums verify, and every LSO segment has a valid IPv4 header checksum and L4 checksum,
 * its lengths, sequence number, id and flags. Each piece is a heap buffer of exactly its size.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)rd16(p) << 16 | rd16(p + 2);
}

/* One's complement has two zeros: a stored 0xffff and a computed 0 (or back) are the same sum. */
static int same_csum(uint16_t a, uint16_t b)
{
	return a == b || (a ^ b) == 0xffff;
}

static void check_csums(const uint8_t *data, const struct nic_frame_info *o)
{
	const uint8_t *l3 = data + o->l3_off, *l4 = data + o->l4_off;
	size_t l4_len;
	unsigned int co;

	if (o->l3 == NIC_L3_IPV4 && o->l3_ok)
		check(same_csum(priv_doca_nic_ip4_csum(l3, (size_t)(l3[0] & 0xf) * 4), rd16(l3 + 10)));
	if (!o->l4_ok || o->l4 == NIC_L4_OTHER)
		return;
	if (o->l4 == NIC_L4_UDP)
		l4_len = rd16(l4 + 4);
	else if (o->l3 == NIC_L3_IPV4)
		l4_len = (size_t)o->l3_off + rd16(l3 + 2) - o->l4_off;
	else
		l4_len = (size_t)o->l3_off + 40 + rd16(l3 + 4) - o->l4_off;
	co = o->l4 == NIC_L4_TCP ? 16 : o->l4 == NIC_L4_UDP ? 6 : 2;
	if (o->l4 == NIC_L4_UDP && o->l3 == NIC_L3_IPV4 && rd16(l4 + 6) == 0)
		return;
	check(same_csum(priv_doca_nic_l4_csum(l3, o->ip_proto, l4, l4_len), rd16(l4 + co)));
}

/* ---- the builder ---- */

static uint32_t ctl_rng;

static uint32_t ctl_next(void)
{
	ctl_rng = ctl_rng * 1103515245u + 12345u;
	return ctl_rng >> 8;
}

/* @len bytes at @p as a gather list of heap pieces of exactly their size, cut where ctl_next() says. */
static unsigned int cut(const uint8_t *p, size_t len, struct iovec *iov, unsigned int max, unsigned int grain)
{
	unsigned int n = 0;

	for (size_t off = 0; off < len || n == 0; n++) {
		size_t take = n + 1 == max ? len - off : ctl_next() % (grain + 1);

		if (take > len - off)
			take = len - off;
		iov[n].iov_base = malloc(take ? take : 1);
		check(iov[n].iov_base != NULL);
		memcpy(iov[n].iov_base, p + off, take);
		iov[n].iov_len = take;
		off += take;
	}
	return n;
}

static void uncut(struct iovec *iov, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		free(iov[i].iov_base);
}

/* The checksum offloads: one piece or many, the same bytes; a message the parser finds verifies. */
static void check_tx_csum(const uint8_t *data, size_t size, const struct nic_tx_hdr *h, unsigned int grain, int whole)
{
	uint8_t *a = malloc(size), *b = malloc(h->hdr_end);
	struct iovec one, iov[16];
	struct nic_frame_info o;
	unsigned int n;

	check(a != NULL && b != NULL);
	memcpy(a, data, size);
	memcpy(b, data, h->hdr_end);
	one.iov_base = a + h->hdr_end;
	one.iov_len = size - h->hdr_end;
	priv_doca_nic_tx_csum(a, h, NIC_TX_CSUM_L3 | NIC_TX_CSUM_L4, &one, 1);
	check(memcmp(a + h->hdr_end, data + h->hdr_end, size - h->hdr_end) == 0);
	n = cut(data + h->hdr_end, size - h->hdr_end, iov, 16, grain);
	priv_doca_nic_tx_csum(b, h, NIC_TX_CSUM_L3 | NIC_TX_CSUM_L4, iov, n);
	uncut(iov, n);
	check(memcmp(a, b, h->hdr_end) == 0);
	if (whole && priv_doca_nic_frame_parse(a, size, &o) == 0) {
		if (o.l3 == NIC_L3_IPV4)
			check(o.l3_ok);
		/* the parser sums UDP's length field, the builder the IP length: where they agree */
		if ((o.l4 == NIC_L4_TCP || o.l4 == NIC_L4_UDP) &&
		    (o.l4 == NIC_L4_TCP || rd16(a + o.l4_off + 4) == h->l4_len))
			check(o.l4_ok);
	}
	free(a);
	free(b);
}

/* LSO of the input's bytes past its headers behind its headers, each segment parsed back. */
static void check_lso(const uint8_t *data, size_t size, size_t hn, uint32_t mss_ctl, unsigned int grain)
{
	struct nic_tx_hdr L;
	uint32_t plen, mss, nseg;
	uint8_t *tmpl, *seg_hdr, *full;

	tmpl = malloc(hn);
	check(tmpl != NULL);
	memcpy(tmpl, data, hn);
	if (priv_doca_nic_lso_parse(tmpl, hn, &L) != 0 || size == hn) {
		free(tmpl);
		return;
	}
	check(L.hdr_end == hn && (L.l3 == NIC_L3_NONE || (L.l4 != NIC_L4_NONE && !L.ip6_ext)));
	plen = (uint32_t)(size - hn);
	mss = 1 + mss_ctl % plen;
	if (mss < (plen + 15) / 16)
		mss = (plen + 15) / 16; /* at most 16 segments */
	nseg = (plen + mss - 1) / mss;
	seg_hdr = malloc(hn);
	full = malloc(size);
	check(seg_hdr != NULL && full != NULL);
	for (uint32_t k = 0; k < nseg; k++) {
		uint32_t off = k * mss, seg = plen - off < mss ? plen - off : mss;
		struct iovec iov[16];
		struct nic_frame_info o;
		unsigned int n = cut(data + hn + off, seg, iov, 16, grain);

		priv_doca_nic_lso_segment(seg_hdr, tmpl, &L, k, off, seg, k + 1 == nseg, iov, n);
		uncut(iov, n);
		memcpy(full, seg_hdr, hn);
		memcpy(full + hn, data + hn + off, seg);
		if (L.l3 == NIC_L3_NONE) {
			check(memcmp(full, data, hn) == 0);
			continue;
		}
		check(priv_doca_nic_frame_parse(full, hn + seg, &o) == 0);
		check(o.l3 == L.l3 && o.l3_off == L.l3_off && o.l3_ok);
		check(o.l4 == L.l4 && o.l4_off == L.l4_off && o.payload_off == hn && o.l4_ok);
		if (o.l3 == NIC_L3_IPV4)
			check(rd16(full + L.l3_off + 4) == (uint16_t)(rd16(data + L.l3_off + 4) + k));
		if (o.l4 == NIC_L4_TCP) {
			uint8_t f = data[L.l4_off + 13];

			if (k + 1 < nseg)
				f &= (uint8_t)~0x09;
			if (k > 0)
				f &= (uint8_t)~0x80;
			check(full[L.l4_off + 13] == f);
			check(rd32(full + L.l4_off + 4) == rd32(data + L.l4_off + 4) + off);
		}
	}
	free(full);
	free(seg_hdr);
	free(tmpl);
}

static void check_builder(const uint8_t *data, size_t size, const struct nic_frame_info *rx)
{
	struct nic_tx_hdr h;
	const uint8_t *c;
	size_t n;

	if (size < 14 || size > NIC_MAX_FRAME) {
		check(priv_doca_nic_tx_parse(data, size < 14 ? size : 14, size, &h) == -EINVAL);
		return;
	}
	c = data + size - 4;
	ctl_rng = (uint32_t)c[2] << 8 | c[3];
	n = size < 256 ? size : 256; /* as the CPU send queue sees a frame */
	if (c[0] & 1)
		n = n < 14u + c[0] / 2 ? n : 14u + c[0] / 2;
	check(priv_doca_nic_tx_parse(data, n, size, &h) == 0);
	check(h.hdr_end <= n && h.hdr_end >= 14);
	if (h.l3 == NIC_L3_NONE) {
		check(h.l3_off == 0 && h.l3_end == 0 && h.l4 == NIC_L4_NONE && h.ip_proto == 0 && h.ip6_ext == 0);
		check(h.hdr_end <= 22 && h.hdr_end % 4 == 2);
	} else {
		check(h.l3_off >= 14 && h.l3_off <= 22 && h.l3_end >= h.l3_off + (h.l3 == NIC_L3_IPV4 ? 20 : 40));
		check(h.l3_end <= h.hdr_end);
	}
	if (h.l4 == NIC_L4_NONE) {
		check(h.l4_off == 0 && h.l4_len == 0);
		if (h.l3 != NIC_L3_NONE)
			check(h.hdr_end == h.l3_end);
	} else {
		check(h.l4 == NIC_L4_TCP || h.l4 == NIC_L4_UDP);
		check(h.l4_off == h.l3_end && h.hdr_end - h.l4_off >= (h.l4 == NIC_L4_TCP ? 20 : 8));
		check(h.l4_len >= (uint32_t)(h.hdr_end - h.l4_off) && h.l4_off + h.l4_len <= size);
	}
	if (n == size && rx->l3 != NIC_L3_NONE) {
		/* the builder finds what the parser found (it is the more lenient) */
		check(h.l3 == rx->l3 && h.l3_off == rx->l3_off && h.ip_proto == rx->ip_proto);
		if (rx->l4 == NIC_L4_TCP || rx->l4 == NIC_L4_UDP)
			check(h.l4 == rx->l4 && h.l4_off == rx->l4_off && h.hdr_end == rx->payload_off);
	}
	check_tx_csum(data, size, &h, 1u + c[1] % 64, n == size);
	check_lso(data, size, h.hdr_end, (uint32_t)c[1] << 8 | c[2], 1u + c[3] % 200);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nic_frame_info o;
	int ret;

	memset(&o, 0x5a, sizeof(o));
	ret = priv_doca_nic_frame_parse(data, size, &o);
	if (size < 14 || size > NIC_MAX_FRAME) {
		check(ret == -EINVAL && all_zero(&o, sizeof(o)));
		check_builder(data, size, &o);
		return 0;
	}
	check(ret == 0 && o.len == size && o.nb_vlans <= 2 && o.pad == 0);
	check(o.payload_off <= size && o.l4_off <= o.payload_off);
	if (o.l3 == NIC_L3_NONE) {
		check(o.l3_off == 0 && o.l4 == NIC_L4_NONE && o.ip_proto == 0 && o.ip_ttl == 0 && o.l3_ok == 0 &&
		      o.ip_frag == 0 && o.ip4_src == 0 && o.ip4_dst == 0 && all_zero(o.ip6_src, 16) &&
		      all_zero(o.ip6_dst, 16));
		check(o.payload_off == 14 + 4u * o.nb_vlans);
	} else {
		check(o.l3_off == 14 + 4u * o.nb_vlans);
		check(o.payload_off >= o.l3_off + (o.l3 == NIC_L3_IPV4 ? 20 : 40));
		if (o.l3 == NIC_L3_IPV6)
			check(o.l3_ok == 1 && o.ip4_src == 0 && o.ip4_dst == 0);
		else
			check(all_zero(o.ip6_src, 16) && all_zero(o.ip6_dst, 16));
	}
	if (o.l4 == NIC_L4_NONE || o.l4 == NIC_L4_OTHER) {
		check(o.l4_ok == 0 && o.l4_src == 0 && o.l4_dst == 0 && o.tcp_seq == 0 && o.tcp_flags == 0);
		check(o.l4 == NIC_L4_NONE ? o.l4_off == 0 : o.l4_off == o.payload_off);
	} else {
		check(o.ip_frag == 0 && o.l4_off >= o.l3_off + 20);
		check(o.payload_off == o.l4_off + (o.l4 == NIC_L4_TCP ? (data[o.l4_off + 12] >> 4) * 4u : 8u));
		if (o.l4 != NIC_L4_TCP)
			check(o.tcp_seq == 0 && o.tcp_flags == 0);
	}
	check_csums(data, &o);
	check_builder(data, size, &o);
	return 0;
}
