/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_frame.c - libFuzzer target for the software NIC's frame parser (src/nic/frame.c), the
 * parser every received frame goes through.
 *
 * Beyond the sanitizers, the contract of nic.h is checked: -EINVAL exactly for sizes outside
 * [14, NIC_MAX_FRAME] with a zeroed result; offsets inside the frame and in layer order; an
 * absent layer's fields zero; and a checksum the parser calls valid is the one the checksum
 * helpers compute for the same bytes.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nic_frame_info o;
	int ret;

	memset(&o, 0x5a, sizeof(o));
	ret = priv_doca_nic_frame_parse(data, size, &o);
	if (size < 14 || size > NIC_MAX_FRAME) {
		check(ret == -EINVAL && all_zero(&o, sizeof(o)));
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
	return 0;
}
