/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * frame_tx.c - the software NIC's frame builder (nic.h): where a frame to send has its headers,
 * its checksum offloads and its LSO segments, for the CPU send queue and the GPU send rings.
 *
 * It walks the layers as the parser does (nic_frame_l2(), nic_ip6_skip_ext()) and sums with the
 * parser's checksum code (nic_csum_acc()), over a gather list: each piece is summed on its own
 * and one that starts at an odd offset of the message is turned around (its sum rotated by a
 * byte, RFC 1071 §2(B)), so a list may be cut anywhere.
 *
 * Where the parser classifies a received frame and believes a length field only when it is
 * consistent, the builder is lenient as a NIC's send side is: the IP and UDP length fields are
 * the sender's business (a wrong one goes out wrong), they only bound the L4 checksum when
 * they fit the frame. Every read stays within the bytes the caller named.
 */
#include <errno.h>
#include <string.h>

#include "nic_internal.h"

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void wr32(uint8_t *p, uint32_t v)
{
	wr16(p, (uint16_t)(v >> 16));
	wr16(p + 2, (uint16_t)v);
}

/* TCP or UDP at h->l3_end, within @n bytes; @ip_end: where the IP header's length says it ends. */
static void tx_l4(const uint8_t *f, size_t n, size_t frame_len, size_t ip_end, struct nic_tx_hdr *h)
{
	size_t off = h->l3_end, left = n - off, hl;

	if (h->ip_proto == NIC_IPPROTO_TCP) {
		if (left < 20 || (hl = (size_t)(f[off + 12] >> 4) * 4) < 20 || hl > left)
			return;
		h->l4 = NIC_L4_TCP;
	} else if (h->ip_proto == NIC_IPPROTO_UDP) {
		if (left < 8)
			return;
		hl = 8;
		h->l4 = NIC_L4_UDP;
	} else {
		return;
	}
	h->l4_off = (uint16_t)off;
	h->hdr_end = (uint16_t)(off + hl);
	if (ip_end > frame_len || ip_end < off + hl)
		ip_end = frame_len; /* a length field that lies: the frame's bytes */
	h->l4_len = (uint32_t)(ip_end - off);
}

static void tx_ip4(const uint8_t *f, size_t n, size_t frame_len, size_t off, struct nic_tx_hdr *h)
{
	const uint8_t *ip = f + off;
	size_t ihl;

	if (n - off < 20 || (ip[0] >> 4) != 4)
		return;
	ihl = (size_t)(ip[0] & 0xf) * 4;
	if (ihl < 20 || ihl > n - off)
		return;
	h->l3 = NIC_L3_IPV4;
	h->l3_off = (uint16_t)off;
	h->l3_end = h->hdr_end = (uint16_t)(off + ihl);
	h->ip_proto = ip[9];
	if ((rd16(ip + 6) & 0x3fff) != 0) /* MF or a fragment offset: no L4 header to trust */
		return;
	tx_l4(f, n, frame_len, off + rd16(ip + 2), h);
}

static void tx_ip6(const uint8_t *f, size_t n, size_t frame_len, size_t off, struct nic_tx_hdr *h)
{
	const uint8_t *ip = f + off;
	uint8_t nh, frag = 0;
	long l4;

	if (n - off < 40 || (ip[0] >> 4) != 6)
		return;
	nh = ip[6];
	l4 = nic_ip6_skip_ext(f, n, off + 40, &nh, &frag);
	if (l4 < 0)
		return;
	h->l3 = NIC_L3_IPV6;
	h->l3_off = (uint16_t)off;
	h->l3_end = h->hdr_end = (uint16_t)l4;
	h->ip_proto = nh;
	h->ip6_ext = (size_t)l4 != off + 40;
	if (frag)
		return;
	tx_l4(f, n, frame_len, off + 40 + rd16(ip + 4), h);
}

SD_PRIV int priv_doca_nic_tx_parse(const uint8_t *hdr, size_t n, size_t frame_len, struct nic_tx_hdr *h)
{
	uint8_t nb_vlans;
	uint16_t type;
	size_t off;

	memset(h, 0, sizeof(*h));
	if (hdr == NULL || n < NIC_ETH_HLEN || n > frame_len || frame_len > NIC_MAX_FRAME)
		return -EINVAL;
	off = nic_frame_l2(hdr, n, &type, &nb_vlans);
	h->hdr_end = (uint16_t)off;
	if (type == NIC_ETH_P_IPV4)
		tx_ip4(hdr, n, frame_len, off, h);
	else if (type == NIC_ETH_P_IPV6)
		tx_ip6(hdr, n, frame_len, off, h);
	return 0;
}

/* @acc plus the first @len bytes of @iov (all it holds when fewer), which start at an even offset. */
static uint64_t csum_iov(uint64_t acc, const struct iovec *iov, unsigned int cnt, size_t len)
{
	unsigned int odd = 0;

	for (unsigned int i = 0; i < cnt && len > 0; i++) {
		size_t take = iov[i].iov_len < len ? iov[i].iov_len : len;
		uint64_t s = nic_csum_acc(0, iov[i].iov_base, take);

		if (odd)
			s = s << 8 | s >> 56; /* its bytes sit one place over in the message's words */
		acc = nic_csum_add(acc, s);
		odd ^= (unsigned int)(take & 1);
		len -= take;
	}
	return acc;
}

/* The L4 checksum of @hdr's TCP or UDP message of @l4_len bytes: its header in @hdr, the rest in @iov. */
static void l4_csum(uint8_t *hdr, const struct nic_tx_hdr *h, uint32_t l4_len, const struct iovec *iov,
		    unsigned int cnt)
{
	uint8_t *l4 = hdr + h->l4_off;
	size_t field = h->l4 == NIC_L4_TCP ? 16 : 6;
	size_t in_hdr = (size_t)h->hdr_end - h->l4_off; /* even: 8, or a multiple of 4 */
	uint64_t acc;
	uint16_t c;

	acc = nic_csum_pseudo(hdr + h->l3_off, h->l3 == NIC_L3_IPV6, h->ip_proto, l4_len);
	acc = nic_csum_acc(acc, l4, field);
	acc = nic_csum_acc(acc, l4 + field + 2, in_hdr - field - 2);
	acc = csum_iov(acc, iov, cnt, l4_len - in_hdr);
	c = (uint16_t)~nic_csum_fold(acc);
	if (c == 0 && h->l4 == NIC_L4_UDP)
		c = 0xffff; /* 0 means "no checksum" */
	wr16(l4 + field, c);
}

SD_PRIV void priv_doca_nic_tx_csum(uint8_t *hdr, const struct nic_tx_hdr *h, unsigned int what,
				   const struct iovec *rest, unsigned int cnt)
{
	if ((what & NIC_TX_CSUM_L3) && h->l3 == NIC_L3_IPV4) {
		uint8_t *ip = hdr + h->l3_off;

		wr16(ip + 10, priv_doca_nic_ip4_csum(ip, (size_t)h->l3_end - h->l3_off));
	}
	if ((what & NIC_TX_CSUM_L4) && h->l4 != NIC_L4_NONE)
		l4_csum(hdr, h, h->l4_len, rest, cnt);
}

SD_PRIV int priv_doca_nic_lso_parse(const uint8_t *tmpl, size_t n, struct nic_tx_hdr *h)
{
	if (priv_doca_nic_tx_parse(tmpl, n, n, h) != 0 || h->hdr_end != n)
		return -EINVAL;
	if (h->l3 == NIC_L3_NONE)
		return 0; /* Ethernet (and its tags) alone */
	if (h->l4 == NIC_L4_NONE || h->ip6_ext)
		return -EINVAL;
	return 0;
}

SD_PRIV void priv_doca_nic_lso_segment(uint8_t *dst, const uint8_t *tmpl, const struct nic_tx_hdr *h, uint32_t k,
				       uint32_t off, uint32_t seg, bool last, const struct iovec *pay, unsigned int cnt)
{
	uint32_t l3_len = (uint32_t)h->hdr_end - h->l3_off + seg;
	uint32_t l4_len = (uint32_t)h->hdr_end - h->l4_off + seg;
	uint8_t *ip = dst + h->l3_off, *l4 = dst + h->l4_off;

	memcpy(dst, tmpl, h->hdr_end);
	if (h->l3 == NIC_L3_NONE)
		return;
	if (h->l3 == NIC_L3_IPV6) {
		wr16(ip + 4, (uint16_t)(l3_len - 40));
	} else {
		wr16(ip + 2, (uint16_t)l3_len);
		wr16(ip + 4, (uint16_t)(rd16(ip + 4) + k));
		wr16(ip + 10, priv_doca_nic_ip4_csum(ip, (size_t)h->l3_end - h->l3_off));
	}
	if (h->l4 == NIC_L4_TCP) {
		wr32(l4 + 4, rd32(l4 + 4) + off);
		if (!last)
			l4[13] &= (uint8_t)~0x09; /* FIN and PSH only on the last segment */
		if (k > 0)
			l4[13] &= (uint8_t)~0x80; /* CWR only on the first */
	} else {
		wr16(l4 + 4, (uint16_t)l4_len);
	}
	l4_csum(dst, h, l4_len, pay, cnt);
}
