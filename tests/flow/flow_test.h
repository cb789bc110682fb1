/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flow_test.h - DOCA Flow test helpers: a started "vnf" port on a device, frames described as
 * struct nic_frame_info (the parser is the NIC's), and steering through priv_doca_nic_steer()
 * as the receive path does.
 */
#ifndef FLOW_TEST_H_
#define FLOW_TEST_H_

#include <arpa/inet.h>
#include <string.h>

#include <doca_flow.h>

#include "../common/sd_test.h"
#include "core.h"
#include "nic.h"

#define FT_DEV "03:00.0"

static inline void ft_init(uint16_t queues)
{
	struct doca_flow_cfg *cfg;

	CHECK_OK(doca_flow_cfg_create(&cfg));
	CHECK_OK(doca_flow_cfg_set_pipe_queues(cfg, queues));
	CHECK_OK(doca_flow_cfg_set_mode_args(cfg, "vnf,hws"));
	CHECK_OK(doca_flow_cfg_set_nr_counters(cfg, 1024));
	CHECK_OK(doca_flow_init(cfg));
	CHECK_OK(doca_flow_cfg_destroy(cfg));
}

static inline struct doca_flow_port *ft_port(struct doca_dev *dev, uint16_t id)
{
	struct doca_flow_port_cfg *pc;
	struct doca_flow_port *port = NULL;

	CHECK_OK(doca_flow_port_cfg_create(&pc));
	CHECK_OK(doca_flow_port_cfg_set_port_id(pc, id));
	CHECK_OK(doca_flow_port_cfg_set_dev(pc, dev));
	CHECK_OK(doca_flow_port_start(pc, &port));
	CHECK_OK(doca_flow_port_cfg_destroy(pc));
	return port;
}

/* A pipe; @match may be NULL (match everything). */
static inline doca_error_t ft_pipe(struct doca_flow_port *port, const char *name, enum doca_flow_pipe_type type,
				   bool root, const struct doca_flow_match *match, const struct doca_flow_match *mask,
				   struct doca_flow_actions *actions, const struct doca_flow_monitor *mon,
				   const struct doca_flow_fwd *fwd, const struct doca_flow_fwd *miss, bool miss_counter,
				   struct doca_flow_pipe **pipe)
{
	struct doca_flow_pipe_cfg *pc;
	doca_error_t err;

	CHECK_OK(doca_flow_pipe_cfg_create(&pc, port));
	CHECK_OK(doca_flow_pipe_cfg_set_name(pc, name));
	CHECK_OK(doca_flow_pipe_cfg_set_type(pc, type));
	CHECK_OK(doca_flow_pipe_cfg_set_is_root(pc, root));
	CHECK_OK(doca_flow_pipe_cfg_set_miss_counter(pc, miss_counter));
	err = doca_flow_pipe_cfg_set_match(pc, match, mask);
	if (err == DOCA_SUCCESS && actions != NULL)
		err = doca_flow_pipe_cfg_set_actions(pc, &actions, NULL, NULL, 1);
	if (err == DOCA_SUCCESS && mon != NULL)
		err = doca_flow_pipe_cfg_set_monitor(pc, mon);
	if (err == DOCA_SUCCESS)
		err = doca_flow_pipe_create(pc, fwd, miss, pipe);
	CHECK_OK(doca_flow_pipe_cfg_destroy(pc));
	return err;
}

static inline struct doca_flow_fwd ft_rss(uint16_t *queues, int n, uint32_t flags)
{
	struct doca_flow_fwd f;

	memset(&f, 0, sizeof(f));
	f.type = DOCA_FLOW_FWD_RSS;
	f.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	f.rss.queues_array = queues;
	f.rss.nr_queues = n;
	f.rss.outer_flags = flags;
	return f;
}

static inline struct doca_flow_fwd ft_fwd(enum doca_flow_fwd_type type, struct doca_flow_pipe *next)
{
	struct doca_flow_fwd f;

	memset(&f, 0, sizeof(f));
	f.type = type;
	f.next_pipe = next;
	return f;
}

/* An IPv4 frame; @l4 NIC_L4_TCP / _UDP / _ICMP / _NONE; addresses and ports in host order. */
static inline struct nic_frame_info ft_ip4(uint32_t src, uint32_t dst, uint8_t l4, uint16_t sport, uint16_t dport)
{
	struct nic_frame_info f;

	memset(&f, 0, sizeof(f));
	f.len = 60;
	f.eth_type = htons(0x0800);
	f.l3 = NIC_L3_IPV4;
	f.l3_ok = 1;
	f.l4_ok = 1;
	f.l3_off = 14;
	f.ip_ttl = 64;
	f.ip4_src = htonl(src);
	f.ip4_dst = htonl(dst);
	f.l4 = l4;
	f.ip_proto = l4 == NIC_L4_TCP ? 6 : l4 == NIC_L4_UDP ? 17 : l4 == NIC_L4_ICMP ? 1 : 0;
	if (l4 != NIC_L4_NONE) {
		f.l4_off = 34;
		f.l4_src = htons(sport);
		f.l4_dst = htons(dport);
	}
	return f;
}

static inline struct nic_frame_info ft_ip6(const char *src, const char *dst, uint8_t l4, uint16_t sport, uint16_t dport)
{
	struct nic_frame_info f;

	memset(&f, 0, sizeof(f));
	f.len = 80;
	f.eth_type = htons(0x86dd);
	f.l3 = NIC_L3_IPV6;
	f.l3_ok = 1;
	f.l4_ok = 1;
	f.ip_ttl = 64;
	CHECK(inet_pton(AF_INET6, src, f.ip6_src) == 1);
	CHECK(inet_pton(AF_INET6, dst, f.ip6_dst) == 1);
	f.l4 = l4;
	f.ip_proto = l4 == NIC_L4_TCP ? 6 : 17;
	f.l4_src = htons(sport);
	f.l4_dst = htons(dport);
	return f;
}

static inline uint32_t ft_addr(const char *dotted)
{
	struct in_addr a;

	CHECK(inet_pton(AF_INET, dotted, &a) == 1);
	return ntohl(a.s_addr);
}

static inline struct nic_verdict ft_steer(struct doca_dev *dev, const struct nic_frame_info *info)
{
	struct nic_verdict v;

	memset(&v, 0xa5, sizeof(v)); /* the steering must fill every field */
	priv_doca_nic_steer(dev, info, NULL, &v);
	return v;
}

static inline uint64_t ft_hits(struct doca_flow_pipe_entry *e)
{
	struct doca_flow_resource_query q;

	CHECK_OK(doca_flow_resource_query_entry(e, &q));
	return q.counter.total_pkts;
}

static inline uint64_t ft_misses(struct doca_flow_pipe *p)
{
	struct doca_flow_resource_query q;

	CHECK_OK(doca_flow_resource_query_pipe_miss(p, &q));
	return q.counter.total_pkts;
}

#endif /* FLOW_TEST_H_ */
