/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_rss.c - RSS forwarding: the Toeplitz hash against the Microsoft RSS verification suite
 * (IPv4 and IPv6, with and without TCP ports, default key), the fields outer_flags selects,
 * the symmetric variant, and the spread over a queue array (queue = queues[hash % n]).
 */
#include "flow_test.h"

static struct doca_dev *dev;
static struct doca_flow_port *port;

struct vec4 {
	const char *src, *dst;
	uint16_t sport, dport;
	uint32_t ip, ip_tcp;
};

static const struct vec4 v4[] = {
    {"66.9.149.187", "161.142.100.80", 2794, 1766, 0x323e8fc2, 0x51ccc178},
    {"199.92.111.2", "65.69.140.83", 14230, 4739, 0xd718262a, 0xc626b0ea},
    {"24.19.198.95", "12.22.207.184", 12898, 38024, 0xd2d0a5de, 0x5c2b394a},
    {"38.27.205.30", "209.142.163.6", 48228, 2217, 0x82989176, 0xafc7327f},
    {"153.39.163.191", "202.188.127.2", 44251, 1303, 0x5d1809c5, 0x10e828a2},
};

static const struct vec4 v6[] = {
    {"3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", 2794, 1766, 0x2cc18cd5, 0x40207d3d},
    {"3ffe:501:8::260:97ff:fe40:efab", "ff02::1", 14230, 4739, 0x0f0c461c, 0xdde51bbf},
    {"3ffe:1900:4545:3:200:f8ff:fe21:67cf", "fe80::200:f8ff:fe21:67cf", 44251, 38024, 0x4b61e985, 0x02d1feef},
};

static struct doca_flow_pipe *rss_root(uint16_t *queues, int n, uint32_t flags, bool symmetric)
{
	struct doca_flow_fwd fwd = ft_rss(queues, n, flags);
	struct doca_flow_pipe *pipe;
	struct doca_flow_pipe_entry *e;

	if (symmetric)
		fwd.rss.rss_hash_func = DOCA_FLOW_RSS_HASH_FUNCTION_SYMMETRIC_TOEPLITZ;
	CHECK_OK(ft_pipe(port, "rss", DOCA_FLOW_PIPE_BASIC, true, NULL, NULL, NULL, NULL, &fwd, NULL, false, &pipe));
	CHECK_OK(doca_flow_pipe_basic_add_entry(0, pipe, NULL, 0, NULL, NULL, NULL, 0, NULL, &e));
	return pipe;
}

static uint32_t hash_of(const struct nic_frame_info *f)
{
	struct nic_verdict v = ft_steer(dev, f);

	CHECK_EQ(v.kind, NIC_TO_QUEUE);
	return v.rss_hash;
}

static void vectors(void)
{
	uint16_t q[] = {0};
	struct doca_flow_pipe *p;

	p = rss_root(q, 1, DOCA_FLOW_RSS_IPV4, false);
	for (size_t i = 0; i < SD_ARRAY_SIZE(v4); i++) {
		struct nic_frame_info f =
		    ft_ip4(ft_addr(v4[i].src), ft_addr(v4[i].dst), NIC_L4_TCP, v4[i].sport, v4[i].dport);

		CHECK_EQ(hash_of(&f), v4[i].ip);
	}
	doca_flow_pipe_destroy(p);
	p = rss_root(q, 1, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_TCP, false);
	for (size_t i = 0; i < SD_ARRAY_SIZE(v4); i++) {
		struct nic_frame_info f =
		    ft_ip4(ft_addr(v4[i].src), ft_addr(v4[i].dst), NIC_L4_TCP, v4[i].sport, v4[i].dport);

		CHECK_EQ(hash_of(&f), v4[i].ip_tcp);
		/* UDP is not in the flags: a UDP frame hashes its addresses only. */
		f.l4 = NIC_L4_UDP;
		CHECK_EQ(hash_of(&f), v4[i].ip);
	}
	doca_flow_pipe_destroy(p);
	p = rss_root(q, 1, DOCA_FLOW_RSS_IPV6 | DOCA_FLOW_RSS_UDP, false);
	for (size_t i = 0; i < SD_ARRAY_SIZE(v6); i++) {
		struct nic_frame_info f = ft_ip6(v6[i].src, v6[i].dst, NIC_L4_UDP, v6[i].sport, v6[i].dport);

		CHECK_EQ(hash_of(&f), v6[i].ip_tcp); /* the same input as TCP: addresses then ports */
		f.l4 = NIC_L4_TCP;
		CHECK_EQ(hash_of(&f), v6[i].ip);
	}
	doca_flow_pipe_destroy(p);
}

static void fields_and_symmetric(void)
{
	uint16_t q[] = {0};
	struct doca_flow_pipe *p;
	struct nic_frame_info a = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1111, 2222);
	struct nic_frame_info b = ft_ip4(0x0a000001, 0x0a000063, NIC_L4_UDP, 1111, 2222);
	struct nic_frame_info r = ft_ip4(0x0a000002, 0x0a000001, NIC_L4_UDP, 2222, 1111);

	/* Source address only: another destination hashes the same, another source does not. */
	p = rss_root(q, 1, DOCA_FLOW_RSS_IPV4_SRC, false);
	CHECK_EQ(hash_of(&a), hash_of(&b));
	CHECK(hash_of(&a) != hash_of(&r));
	doca_flow_pipe_destroy(p);
	/* No field applies (IPv6 flags, IPv4 frame): hash 0, the first queue. */
	p = rss_root(q, 1, DOCA_FLOW_RSS_IPV6, false);
	CHECK_EQ(hash_of(&a), 0);
	doca_flow_pipe_destroy(p);
	/* Plain Toeplitz tells the directions apart; symmetric does not. */
	p = rss_root(q, 1, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP, false);
	CHECK(hash_of(&a) != hash_of(&r));
	doca_flow_pipe_destroy(p);
	p = rss_root(q, 1, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP, true);
	CHECK_EQ(hash_of(&a), hash_of(&r));
	CHECK(hash_of(&a) != hash_of(&b));
	doca_flow_pipe_destroy(p);
}

static void spread(void)
{
	uint16_t q[] = {10, 20, 30, 40};
	unsigned int count[4] = {0};
	struct doca_flow_pipe *p = rss_root(q, 4, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_TCP, false);
	uint32_t x = 12345;

	for (int i = 0; i < 4096; i++) {
		struct nic_frame_info f;
		struct nic_verdict v;
		int k;

		x = x * 1103515245u + 12345u;
		f = ft_ip4(x, x ^ 0x5a5a5a5a, NIC_L4_TCP, (uint16_t)(x >> 16), (uint16_t)(x >> 3));
		v = ft_steer(dev, &f);
		CHECK_EQ(v.kind, NIC_TO_QUEUE);
		CHECK_EQ(v.queue, q[v.rss_hash % 4]);
		for (k = 0; k < 4 && q[k] != v.queue; k++)
			;
		CHECK(k < 4);
		count[k]++;
	}
	for (int k = 0; k < 4; k++)
		CHECK(count[k] > 0); /* 4096 flows: every queue gets some */
	doca_flow_pipe_destroy(p);
}

int main(void)
{
	dev = sd_open_dev(FT_DEV);
	ft_init(1);
	port = ft_port(dev, 0);
	vectors();
	fields_and_symmetric();
	spread();
	CHECK_OK(doca_flow_port_stop(port));
	doca_flow_destroy();
	CHECK_OK(doca_dev_close(dev));
	return 0;
}
