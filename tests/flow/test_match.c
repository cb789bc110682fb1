/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_match.c - the classifier through the steering a started port registers: BASIC pipes
 * (changeable and constant fields, 1000 entries), CONTROL pipes (masks, priorities), forwards
 * to pipes, drop and miss, the pkt_meta action, counters, CONTROL priorities against a reference
 * model, and the default steering after stop.
 */
#include "flow_test.h"

static struct doca_dev *dev;
static struct doca_flow_port *port;

static void basic_5tuple(void)
{
	struct doca_flow_match tmpl, m;
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	uint16_t q[] = {7};
	struct doca_flow_fwd fwd = ft_rss(q, 1, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP);
	struct doca_flow_fwd drop = ft_fwd(DOCA_FLOW_FWD_DROP, NULL);
	static struct doca_flow_pipe_entry *e[1000];
	struct doca_flow_pipe *pipe;
	struct nic_frame_info f;
	struct nic_verdict v;

	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	tmpl.outer.ip4.src_ip = 0xffffffff;
	tmpl.outer.ip4.dst_ip = 0xffffffff;
	tmpl.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	tmpl.outer.udp.l4_port.src_port = 0xffff;
	tmpl.outer.udp.l4_port.dst_port = 0xffff;
	CHECK_OK(
	    ft_pipe(port, "5tuple", DOCA_FLOW_PIPE_BASIC, true, &tmpl, NULL, NULL, &mon, &fwd, &drop, true, &pipe));
	for (int i = 0; i < 1000; i++) {
		memset(&m, 0, sizeof(m));
		m.outer.ip4.src_ip = htonl(0x0a000001);
		m.outer.ip4.dst_ip = htonl(0x0a000002);
		m.outer.udp.l4_port.src_port = htons(1000);
		m.outer.udp.l4_port.dst_port = htons((uint16_t)(2000 + i));
		CHECK_OK(doca_flow_pipe_basic_add_entry(0, pipe, &m, 0, NULL, NULL, NULL, 0, NULL, &e[i]));
	}
	/* The same key twice is refused. */
	{
		struct doca_flow_pipe_entry *dup;

		CHECK_ERR(doca_flow_pipe_basic_add_entry(0, pipe, &m, 0, NULL, NULL, NULL, 0, NULL, &dup),
			  DOCA_ERROR_ALREADY_EXIST);
	}
	CHECK_OK(doca_flow_entries_process(port, 0, 1000, 0));
	for (int i = 0; i < 1000; i += 37) {
		f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, (uint16_t)(2000 + i));
		v = ft_steer(dev, &f);
		CHECK_EQ(v.kind, NIC_TO_QUEUE);
		CHECK_EQ(v.queue, 7);
		CHECK_EQ(v.pkt_meta, 0);
		CHECK_EQ(ft_hits(e[i]), 1);
		CHECK_EQ(ft_hits(e[i + 1 < 1000 ? i + 1 : 0]), i + 1 < 1000 ? 0 : 1);
	}
	/* Another port, source, protocol: a miss, dropped by fwd_miss and counted. */
	f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, 3000);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_DROP);
	f = ft_ip4(0x0a000009, 0x0a000002, NIC_L4_UDP, 1000, 2000);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_DROP);
	f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_TCP, 1000, 2000);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_DROP);
	CHECK_EQ(ft_misses(pipe), 3);
	/* Removal: the entry stops matching at once. */
	CHECK_OK(doca_flow_pipe_remove_entry(0, 0, e[0]));
	f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, 2000);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_DROP);
	CHECK_ERR(doca_flow_pipe_remove_entry(0, 0, e[0]), DOCA_ERROR_INVALID_VALUE);
	f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, 2001);
	CHECK_EQ(ft_steer(dev, &f).queue, 7);
	doca_flow_pipe_destroy(pipe);
	/* No root pipe any more: every frame is a miss of the port. */
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_NO_MATCH);
}

/* A non-all-ones template value is the pipe's constant; pkt_meta from a constant action. */
static void basic_constant_and_meta(void)
{
	struct doca_flow_match tmpl;
	struct doca_flow_actions act;
	uint16_t q[] = {3};
	struct doca_flow_fwd fwd = ft_rss(q, 1, 0);
	struct doca_flow_pipe *pipe;
	struct doca_flow_pipe_entry *e;
	struct nic_frame_info f;
	struct nic_verdict v;

	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	tmpl.outer.ip4.next_proto = 17;
	memset(&act, 0, sizeof(act));
	act.meta.pkt_meta = htonl(1234);
	CHECK_OK(
	    ft_pipe(port, "udp-only", DOCA_FLOW_PIPE_BASIC, true, &tmpl, NULL, &act, NULL, &fwd, NULL, false, &pipe));
	CHECK_OK(doca_flow_pipe_basic_add_entry(0, pipe, &tmpl, 0, &act, NULL, NULL, 0, NULL, &e));
	f = ft_ip4(1, 2, NIC_L4_UDP, 5, 6);
	v = ft_steer(dev, &f);
	CHECK_EQ(v.kind, NIC_TO_QUEUE);
	CHECK_EQ(v.queue, 3);
	CHECK_EQ(v.pkt_meta, 1234);
	f = ft_ip4(1, 2, NIC_L4_TCP, 5, 6);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_NO_MATCH); /* no fwd_miss */
	f = ft_ip6("::1", "::2", NIC_L4_UDP, 5, 6);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_NO_MATCH);
	/* Counters were not asked for. */
	{
		struct doca_flow_resource_query qr;

		CHECK_ERR(doca_flow_resource_query_entry(e, &qr), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_flow_resource_query_pipe_miss(pipe, &qr), DOCA_ERROR_INVALID_VALUE);
	}
	doca_flow_pipe_destroy(pipe);
}

/*
 * CONTROL root: the lowest priority that matches wins; forwards to a BASIC pipe that matches
 * the pkt_meta the control entry set, to drop, to RSS.
 */
static void control_chain(void)
{
	struct doca_flow_match m, mk, tmpl;
	struct doca_flow_actions act, amask;
	uint16_t q12[] = {1, 2}, q5[] = {5}, q9[] = {9}, q4[] = {4};
	struct doca_flow_fwd to_q5 = ft_rss(q5, 1, 0), to_q9 = ft_rss(q9, 1, 0), to_q4 = ft_rss(q4, 1, 0);
	struct doca_flow_fwd rss12 = ft_rss(q12, 2, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP);
	struct doca_flow_fwd drop = ft_fwd(DOCA_FLOW_FWD_DROP, NULL), to_next;
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	struct doca_flow_pipe *root, *udp;
	struct doca_flow_pipe_entry *e_udp, *e_syn, *e_ip4, *e_top, *e_meta;
	struct nic_frame_info f;
	struct nic_verdict v;
	int seen[3] = {0};

	/* udp: matches the meta the root's entry wrote, RSS over queues 1 and 2. */
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.meta.pkt_meta = 0xffffffff;
	CHECK_OK(
	    ft_pipe(port, "udp", DOCA_FLOW_PIPE_BASIC, false, &tmpl, NULL, NULL, NULL, &rss12, &to_q4, true, &udp));
	memset(&m, 0, sizeof(m));
	m.meta.pkt_meta = htonl(77);
	CHECK_OK(doca_flow_pipe_basic_add_entry(0, udp, &m, 0, NULL, &mon, NULL, 0, NULL, &e_meta));

	/* The pipe's monitor counts every entry, also those added without one (e_top). */
	CHECK_OK(ft_pipe(port, "root", DOCA_FLOW_PIPE_CONTROL, true, NULL, NULL, NULL, &mon, NULL, NULL, false, &root));
	to_next = ft_fwd(DOCA_FLOW_FWD_PIPE, udp);
	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP;
	memset(&act, 0, sizeof(act));
	act.meta.pkt_meta = htonl(77);
	CHECK_OK(doca_flow_pipe_control_add_entry(0, root, &m, NULL, NULL, &act, NULL, NULL, &mon, 10, &to_next, NULL,
						  &e_udp));
	memset(&m, 0, sizeof(m));
	memset(&mk, 0, sizeof(mk));
	m.outer.l3_type = mk.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = mk.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	m.outer.tcp.flags = DOCA_FLOW_MATCH_TCP_FLAG_SYN;
	mk.outer.tcp.flags = DOCA_FLOW_MATCH_TCP_FLAG_SYN;
	CHECK_OK(
	    doca_flow_pipe_control_add_entry(0, root, &m, &mk, NULL, NULL, NULL, NULL, &mon, 20, &drop, NULL, &e_syn));
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	CHECK_OK(doca_flow_pipe_control_add_entry(0, root, &m, NULL, NULL, NULL, NULL, NULL, &mon, 30, &to_q5, NULL,
						  &e_ip4));

	/* UDP: root -> udp (meta 77 matched) -> RSS over 1,2. */
	for (uint16_t p = 0; p < 64; p++) {
		f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, (uint16_t)(4000 + p));
		v = ft_steer(dev, &f);
		CHECK_EQ(v.kind, NIC_TO_QUEUE);
		CHECK(v.queue == 1 || v.queue == 2);
		CHECK_EQ(v.pkt_meta, 77);
		CHECK(v.rss_hash != 0);
		CHECK_EQ(v.queue, q12[v.rss_hash % 2]);
		seen[v.queue]++;
	}
	CHECK(seen[1] > 0 && seen[2] > 0); /* 64 flows over two queues: both used */
	CHECK_EQ(ft_hits(e_udp), 64);
	CHECK_EQ(ft_hits(e_meta), 64);
	/* TCP SYN (with ACK too: the mask looks at SYN only) dropped; other TCP to queue 5. */
	f = ft_ip4(1, 2, NIC_L4_TCP, 1, 2);
	f.tcp_flags = DOCA_FLOW_MATCH_TCP_FLAG_SYN | DOCA_FLOW_MATCH_TCP_FLAG_ACK;
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_DROP);
	f.tcp_flags = DOCA_FLOW_MATCH_TCP_FLAG_ACK;
	v = ft_steer(dev, &f);
	CHECK_EQ(v.kind, NIC_TO_QUEUE);
	CHECK_EQ(v.queue, 5);
	CHECK_EQ(v.pkt_meta, 0);
	CHECK_EQ(ft_hits(e_syn), 1);
	CHECK_EQ(ft_hits(e_ip4), 1);
	/* IPv6 matches nothing and the root has no fwd_miss. */
	f = ft_ip6("fe80::1", "fe80::2", NIC_L4_UDP, 1, 2);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_NO_MATCH);

	/* A more urgent entry (priority 1) takes one source first; removing it restores the rest. */
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.src_ip = htonl(0x0a000001);
	CHECK_OK(
	    doca_flow_pipe_control_add_entry(0, root, &m, NULL, NULL, NULL, NULL, NULL, NULL, 1, &to_q9, NULL, &e_top));
	f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, 4000);
	CHECK_EQ(ft_steer(dev, &f).queue, 9);
	f = ft_ip4(0x0a000003, 0x0a000002, NIC_L4_UDP, 1000, 4000);
	CHECK(ft_steer(dev, &f).queue != 9);
	CHECK_EQ(ft_hits(e_top), 1);
	CHECK_OK(doca_flow_pipe_remove_entry(0, 0, e_top));
	f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, 4000);
	CHECK(ft_steer(dev, &f).queue != 9);

	/* A meta the udp pipe has no entry for: its miss goes to queue 4. */
	memset(&amask, 0, sizeof(amask));
	CHECK_OK(doca_flow_pipe_remove_entry(0, 0, e_meta));
	v = ft_steer(dev, &f);
	CHECK_EQ(v.kind, NIC_TO_QUEUE);
	CHECK_EQ(v.queue, 4);
	CHECK_EQ(ft_misses(udp), 1);

	/* udp destroyed while root forwards to it: what reaches it is dropped. */
	doca_flow_pipe_destroy(udp);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_DROP);
	doca_flow_pipe_destroy(root);
}

/*
 * CONTROL priorities against a reference: random masked entries (a few masks, many ties) and
 * random frames; the winner must be the matching entry of lowest priority, the first added
 * among equals, also after random removals.
 */
#define REF_N 200

struct ref_entry {
	bool live;
	uint32_t prio, src, msrc, dst, mdst;
	uint16_t dport, mdport;
	struct doca_flow_pipe_entry *e;
};

static void control_reference(void)
{
	static struct ref_entry r[REF_N];
	static uint16_t qid[REF_N];
	static const uint32_t m32[] = {0, 0xffffffff, 0xffffff00};
	static const uint16_t m16[] = {0, 0xffff, 0xff00};
	struct doca_flow_pipe *root;
	uint32_t x = 99;

	CHECK_OK(ft_pipe(port, "ref", DOCA_FLOW_PIPE_CONTROL, true, NULL, NULL, NULL, NULL, NULL, NULL, false, &root));
	for (int i = 0; i < REF_N; i++) {
		struct doca_flow_match m, mk;
		struct doca_flow_fwd fwd;

		qid[i] = (uint16_t)(1000 + i);
		fwd = ft_rss(&qid[i], 1, 0);
		x = x * 1103515245u + 12345u;
		r[i].prio = (x >> 4) % 8;
		r[i].msrc = m32[(x >> 8) % 3];
		r[i].mdst = m32[(x >> 12) % 3];
		r[i].mdport = m16[(x >> 16) % 3];
		r[i].src = 0x0a000000u | ((x >> 18) % 4);
		r[i].dst = 0x0b000000u | ((x >> 21) % 4) << 8;
		r[i].dport = (uint16_t)(0x1200 | ((x >> 24) % 4));
		memset(&m, 0, sizeof(m));
		memset(&mk, 0, sizeof(mk));
		m.outer.l3_type = mk.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
		m.outer.l4_type_ext = mk.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
		m.outer.ip4.src_ip = htonl(r[i].src);
		mk.outer.ip4.src_ip = htonl(r[i].msrc);
		m.outer.ip4.dst_ip = htonl(r[i].dst);
		mk.outer.ip4.dst_ip = htonl(r[i].mdst);
		m.outer.udp.l4_port.dst_port = htons(r[i].dport);
		mk.outer.udp.l4_port.dst_port = htons(r[i].mdport);
		CHECK_OK(doca_flow_pipe_control_add_entry(0, root, &m, &mk, NULL, NULL, NULL, NULL, NULL, r[i].prio,
							  &fwd, NULL, &r[i].e));
		r[i].live = true;
	}
	for (int round = 0; round < 4; round++) {
		for (int t = 0; t < 2000; t++) {
			uint32_t src, dst;
			uint16_t dport;
			struct nic_frame_info f;
			struct nic_verdict v;
			int want = -1;

			x = x * 1103515245u + 12345u;
			src = 0x0a000000u | ((x >> 3) % 4);
			dst = 0x0b000000u | ((x >> 7) % 4) << 8;
			dport = (uint16_t)(0x1200 | ((x >> 11) % 4));
			for (int i = 0; i < REF_N; i++) {
				if (!r[i].live || ((src ^ r[i].src) & r[i].msrc) || ((dst ^ r[i].dst) & r[i].mdst) ||
				    ((dport ^ r[i].dport) & r[i].mdport))
					continue;
				if (want < 0 || r[i].prio < r[want].prio)
					want = i;
			}
			f = ft_ip4(src, dst, NIC_L4_UDP, 7, dport);
			v = ft_steer(dev, &f);
			if (want < 0) {
				CHECK_EQ(v.kind, NIC_NO_MATCH);
			} else {
				CHECK_EQ(v.kind, NIC_TO_QUEUE);
				CHECK_EQ(v.queue, qid[want]);
			}
		}
		/* Remove a quarter of what is left, at random. */
		for (int i = 0; i < REF_N; i++) {
			x = x * 1103515245u + 12345u;
			if (r[i].live && (x >> 10) % 4 == 0) {
				CHECK_OK(doca_flow_pipe_remove_entry(0, 0, r[i].e));
				r[i].live = false;
			}
		}
	}
	doca_flow_pipe_destroy(root);
}

int main(void)
{
	struct nic_frame_info f = ft_ip4(1, 2, NIC_L4_UDP, 3, 4);

	dev = sd_open_dev(FT_DEV);
	ft_init(1);
	port = ft_port(dev, 0);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_NO_MATCH); /* started, no root pipe yet */
	basic_5tuple();
	basic_constant_and_meta();
	control_chain();
	control_reference();
	CHECK_OK(doca_flow_port_stop(port));
	/* Stopped: the device's default steering, everything to queue 0. */
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_TO_QUEUE);
	CHECK_EQ(ft_steer(dev, &f).queue, 0);
	doca_flow_destroy();
	CHECK_OK(doca_dev_close(dev));
	return 0;
}
