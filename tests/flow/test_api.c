/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_api.c - DOCA Flow's rules: configuration, init/destroy, port start/stop, pipe and entry
 * validation (INVALID_VALUE for broken rules, NOT_SUPPORTED outside the subset), the entry
 * callback from doca_flow_entries_process, and helpers.
 */
#include "flow_test.h"

static int cb_add, cb_del;
static void *cb_last_ctx;

static void entry_cb(struct doca_flow_pipe_entry *entry, uint16_t pipe_queue, enum doca_flow_entry_status status,
		     enum doca_flow_entry_op op, void *user_ctx)
{
	(void)entry;
	CHECK_EQ(pipe_queue, 1);
	CHECK_EQ(status, DOCA_FLOW_ENTRY_STATUS_SUCCESS);
	if (op == DOCA_FLOW_ENTRY_OP_ADD)
		cb_add++;
	else if (op == DOCA_FLOW_ENTRY_OP_DEL)
		cb_del++;
	cb_last_ctx = user_ctx;
}

static void cfg_rules(void)
{
	struct doca_flow_cfg *cfg;
	struct doca_flow_port_cfg *pc;
	struct doca_flow_port *port;
	uint8_t key[40] = {1};

	CHECK_ERR(doca_flow_cfg_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_flow_cfg_create(&cfg));
	CHECK_ERR(doca_flow_init(cfg), DOCA_ERROR_INVALID_VALUE); /* no mode */
	CHECK_ERR(doca_flow_cfg_set_mode_args(cfg, "switch"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_flow_cfg_set_mode_args(cfg, "bogus"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_cfg_set_mode_args(cfg, "vnf,frobnicate"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_flow_cfg_set_mode_args(cfg, ""), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_cfg_set_pipe_queues(cfg, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_cfg_set_pipe_queues(cfg, 65), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_cfg_set_rss_key(cfg, key, 16), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_cfg_set_nr_meters(cfg, 4), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_flow_cfg_set_pipe_queues(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_flow_cfg_destroy(cfg));

	/* A port before init. */
	CHECK_OK(doca_flow_port_cfg_create(&pc));
	CHECK_ERR(doca_flow_port_start(pc, &port), DOCA_ERROR_INVALID_VALUE); /* no device */
	CHECK_OK(doca_flow_port_cfg_set_devargs(pc, "0000:03:00.0"));
	CHECK_ERR(doca_flow_port_start(pc, &port), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_flow_port_cfg_set_dev_rep(pc, NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_flow_port_cfg_set_dev(pc, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_port_cfg_set_operation_state(pc, DOCA_FLOW_PORT_OPERATION_STATE_STANDBY),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_flow_port_cfg_destroy(pc));
}

static struct doca_flow_match ip4_udp_dport(void)
{
	struct doca_flow_match m;

	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	m.outer.udp.l4_port.dst_port = 0xffff;
	return m;
}

static void pipe_rules(struct doca_flow_port *port)
{
	struct doca_flow_pipe *p, *root;
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_match m;
	struct doca_flow_actions act;
	struct doca_flow_monitor mon;
	uint16_t q[] = {1};
	struct doca_flow_fwd fwd = ft_rss(q, 1, DOCA_FLOW_RSS_IPV4), bad;

	CHECK_OK(doca_flow_pipe_cfg_create(&pc, port));
	CHECK_ERR(doca_flow_pipe_cfg_set_type(pc, DOCA_FLOW_PIPE_LPM), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_flow_pipe_cfg_set_type(pc, (enum doca_flow_pipe_type)42), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_cfg_set_nr_entries(pc, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_cfg_set_domain(pc, DOCA_FLOW_PIPE_DOMAIN_EGRESS), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_flow_pipe_cfg_set_name(pc, ""), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_cfg_set_actions(pc, NULL, NULL, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	memset(&act, 0, sizeof(act));
	act.pop_vlan = true;
	{
		struct doca_flow_actions *a = &act;

		CHECK_ERR(doca_flow_pipe_cfg_set_actions(pc, &a, NULL, NULL, 1), DOCA_ERROR_NOT_SUPPORTED);
	}
	memset(&mon, 0, sizeof(mon));
	mon.counter_type = DOCA_FLOW_RESOURCE_TYPE_SHARED;
	CHECK_ERR(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_ERROR_NOT_SUPPORTED);
	mon.counter_type = DOCA_FLOW_RESOURCE_TYPE_NONE;
	mon.meter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	CHECK_ERR(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_flow_pipe_cfg_destroy(pc));

	/* Matches outside the subset, or a union member without its selector. */
	m = ip4_udp_dport();
	m.tun.type = DOCA_FLOW_TUN_VXLAN;
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &fwd, NULL, false, &p),
		  DOCA_ERROR_NOT_SUPPORTED);
	m = ip4_udp_dport();
	m.inner.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &fwd, NULL, false, &p),
		  DOCA_ERROR_NOT_SUPPORTED);
	m = ip4_udp_dport();
	m.meta.u32[0] = 1;
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &fwd, NULL, false, &p),
		  DOCA_ERROR_NOT_SUPPORTED);
	m = ip4_udp_dport();
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_NONE;
	m.outer.ip4.src_ip = 0xffffffff;
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &fwd, NULL, false, &p),
		  DOCA_ERROR_INVALID_VALUE);
	m = ip4_udp_dport();
	m.outer.ip4.total_len = 0xffff;
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &fwd, NULL, false, &p),
		  DOCA_ERROR_NOT_SUPPORTED);
	m = ip4_udp_dport();
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV6; /* conflicts with l3_type IP4 */
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &fwd, NULL, false, &p),
		  DOCA_ERROR_INVALID_VALUE);

	/* Forwards. */
	m = ip4_udp_dport();
	bad = fwd;
	bad.rss_type = DOCA_FLOW_RESOURCE_TYPE_SHARED;
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &bad, NULL, false, &p),
		  DOCA_ERROR_NOT_SUPPORTED);
	bad = fwd;
	bad.rss.nr_queues = 0;
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &bad, NULL, false, &p),
		  DOCA_ERROR_INVALID_VALUE);
	bad = fwd;
	bad.rss.outer_flags = DOCA_FLOW_RSS_ESP;
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &bad, NULL, false, &p),
		  DOCA_ERROR_NOT_SUPPORTED);
	bad = ft_fwd(DOCA_FLOW_FWD_PORT, NULL);
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &bad, NULL, false, &p),
		  DOCA_ERROR_NOT_SUPPORTED);
	bad = ft_fwd(DOCA_FLOW_FWD_PIPE, NULL);
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &fwd, &bad, false, &p),
		  DOCA_ERROR_INVALID_VALUE);
	bad = ft_fwd(DOCA_FLOW_FWD_CHANGEABLE, NULL);
	CHECK_ERR(ft_pipe(port, "t", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, &fwd, &bad, false, &p),
		  DOCA_ERROR_INVALID_VALUE);

	/* One root per port. */
	CHECK_OK(ft_pipe(port, "root", DOCA_FLOW_PIPE_CONTROL, true, NULL, NULL, NULL, NULL, NULL, NULL, false, &root));
	CHECK_ERR(ft_pipe(port, "root2", DOCA_FLOW_PIPE_BASIC, true, &m, NULL, NULL, NULL, &fwd, NULL, false, &p),
		  DOCA_ERROR_ALREADY_EXIST);
	doca_flow_pipe_destroy(root);
	doca_flow_pipe_destroy(root); /* logged, ignored */
}

static void entry_rules(struct doca_flow_port *port)
{
	struct doca_flow_pipe *basic, *ctl, *chg;
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_pipe_entry *e, *e2, *e3;
	struct doca_flow_match m = ip4_udp_dport(), v;
	uint16_t q[] = {1};
	struct doca_flow_fwd fwd = ft_rss(q, 1, DOCA_FLOW_RSS_IPV4);
	struct doca_flow_match_condition cond;
	struct doca_flow_resource_query qr;
	int ctx_a, ctx_b;

	CHECK_OK(doca_flow_pipe_cfg_create(&pc, port));
	CHECK_OK(doca_flow_pipe_cfg_set_nr_entries(pc, 2));
	CHECK_OK(doca_flow_pipe_cfg_set_match(pc, &m, NULL));
	CHECK_OK(doca_flow_pipe_create(pc, &fwd, NULL, &basic));
	CHECK_OK(doca_flow_pipe_cfg_destroy(pc));
	CHECK_OK(ft_pipe(port, "ctl", DOCA_FLOW_PIPE_CONTROL, false, NULL, NULL, NULL, NULL, NULL, NULL, false, &ctl));
	CHECK_OK(ft_pipe(port, "chg", DOCA_FLOW_PIPE_BASIC, false, &m, NULL, NULL, NULL, NULL, NULL, false, &chg));

	memset(&v, 0, sizeof(v));
	v.outer.udp.l4_port.dst_port = htons(53);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(0, basic, &v, 0, NULL, NULL, NULL, 0, NULL, NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(2, basic, &v, 0, NULL, NULL, NULL, 0, NULL, &e),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(0, ctl, &v, 0, NULL, NULL, NULL, 0, NULL, &e),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(0, basic, &v, 1, NULL, NULL, NULL, 0, NULL, &e),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(0, basic, &v, 0, NULL, NULL, NULL, 0x80, NULL, &e),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(0, chg, &v, 0, NULL, NULL, NULL, 0, NULL, &e),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(0, NULL, &v, 0, NULL, NULL, NULL, 0, NULL, &e),
		  DOCA_ERROR_INVALID_VALUE);
	/* Queue 1 of 2, with the entry callback's usr_ctx. */
	CHECK_OK(doca_flow_pipe_basic_add_entry(1, basic, &v, 0, NULL, NULL, NULL, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT,
						&ctx_a, &e));
	v.outer.udp.l4_port.dst_port = htons(54);
	CHECK_OK(doca_flow_pipe_basic_add_entry(1, basic, &v, 0, NULL, NULL, NULL, 0, &ctx_b, &e2));
	v.outer.udp.l4_port.dst_port = htons(55);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(1, basic, &v, 0, NULL, NULL, NULL, 0, NULL, &e3), DOCA_ERROR_FULL);
	CHECK_EQ(doca_flow_pipe_entry_get_status(e), DOCA_FLOW_ENTRY_STATUS_SUCCESS);
	CHECK_ERR(doca_flow_resource_query_entry(e, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_resource_query_entry(e, &qr), DOCA_ERROR_INVALID_VALUE); /* no counter */
	/* Reports come from entries_process, at most max_processed_entries at a time, per queue. */
	CHECK_OK(doca_flow_entries_process(port, 0, 0, 0));
	CHECK_EQ(cb_add, 0);
	CHECK_OK(doca_flow_entries_process(port, 1, 0, 1));
	CHECK_EQ(cb_add, 1);
	CHECK(cb_last_ctx == &ctx_a);
	CHECK_OK(doca_flow_pipe_remove_entry(1, 0, e));
	CHECK_OK(doca_flow_entries_process(port, 1, 0, 0));
	CHECK_EQ(cb_add, 2);
	CHECK_EQ(cb_del, 1);
	CHECK(cb_last_ctx == &ctx_a);
	CHECK_ERR(doca_flow_entries_process(port, 2, 0, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_entries_process(NULL, 0, 0, 0), DOCA_ERROR_INVALID_VALUE);

	/* CONTROL: an entry needs a forward when the pipe has none; conditions are not supported. */
	memset(&v, 0, sizeof(v));
	v.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	CHECK_ERR(doca_flow_pipe_control_add_entry(0, ctl, &v, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, &e3),
		  DOCA_ERROR_INVALID_VALUE);
	memset(&cond, 0, sizeof(cond));
	CHECK_ERR(doca_flow_pipe_control_add_entry(0, ctl, &v, NULL, &cond, NULL, NULL, NULL, NULL, 0, &fwd, NULL, &e3),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(
	    doca_flow_pipe_control_add_entry(0, basic, &v, NULL, NULL, NULL, NULL, NULL, NULL, 0, &fwd, NULL, &e3),
	    DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_flow_pipe_control_add_entry(0, ctl, &v, NULL, NULL, NULL, NULL, NULL, NULL, 0, &fwd, NULL, &e3));

	/* Destroying the pipe takes its entries: their handles are refused afterwards. */
	doca_flow_pipe_destroy(basic);
	CHECK_ERR(doca_flow_pipe_remove_entry(0, 0, e2), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(doca_flow_pipe_entry_get_status(e2), DOCA_FLOW_ENTRY_STATUS_ERROR);
	CHECK_ERR(doca_flow_pipe_basic_add_entry(0, basic, &v, 0, NULL, NULL, NULL, 0, NULL, &e),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_resource_query_pipe_miss(basic, &qr), DOCA_ERROR_INVALID_VALUE);
	doca_flow_pipe_destroy(chg);
	/* ctl (with an entry) is left for the port stop. */
}

static void helpers(void)
{
	struct doca_flow_header_mpls mpls;
	uint32_t label;
	uint8_t tc, ttl;
	bool bos;

	CHECK_OK(doca_flow_mpls_label_encode(0xabcde, 5, 64, true, &mpls));
	CHECK_EQ(ntohl(mpls.label), 0xabcde000u | 5u << 9 | 1u << 8 | 64u);
	CHECK_OK(doca_flow_mpls_label_decode(&mpls, &label, &tc, &ttl, &bos));
	CHECK_EQ(label, 0xabcde);
	CHECK_EQ(tc, 5);
	CHECK_EQ(ttl, 64);
	CHECK(bos);
	CHECK_ERR(doca_flow_mpls_label_encode(1u << 20, 0, 0, false, &mpls), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_flow_get_target(DOCA_FLOW_TARGET_KERNEL, NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(doca_flow_port_switch_get(NULL) == NULL);
}

int main(void)
{
	struct doca_flow_cfg *cfg;
	struct doca_flow_port *port, *port2;
	struct doca_flow_port_cfg *pc;
	struct doca_dev *dev = sd_open_dev(FT_DEV), *dev2 = sd_open_dev("03:00.1");
	struct nic_frame_info f = ft_ip4(1, 2, NIC_L4_UDP, 3, 4);

	cfg_rules();
	CHECK_OK(doca_flow_cfg_create(&cfg));
	CHECK_OK(doca_flow_cfg_set_mode_args(cfg, "vnf"));
	CHECK_OK(doca_flow_cfg_set_pipe_queues(cfg, 2));
	CHECK_OK(doca_flow_cfg_set_cb_entry_process(cfg, entry_cb));
	CHECK_OK(doca_flow_init(cfg));
	CHECK_ERR(doca_flow_init(cfg), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_flow_cfg_destroy(cfg));

	port = ft_port(dev, 0);
	/* One port per device, one device per port id. */
	CHECK_OK(doca_flow_port_cfg_create(&pc));
	CHECK_OK(doca_flow_port_cfg_set_dev(pc, dev));
	CHECK_OK(doca_flow_port_cfg_set_port_id(pc, 1));
	CHECK_ERR(doca_flow_port_start(pc, &port2), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_flow_port_cfg_set_dev(pc, dev2));
	CHECK_OK(doca_flow_port_cfg_set_port_id(pc, 0));
	CHECK_ERR(doca_flow_port_start(pc, &port2), DOCA_ERROR_ALREADY_EXIST);
	CHECK_OK(doca_flow_port_cfg_set_port_id(pc, 1));
	CHECK_OK(doca_flow_port_start(pc, &port2));
	CHECK_OK(doca_flow_port_cfg_destroy(pc));

	pipe_rules(port);
	entry_rules(port);
	helpers();

	CHECK_OK(doca_flow_port_stop(port));
	CHECK_ERR(doca_flow_port_stop(port), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(ft_steer(dev, &f).queue, 0);
	/* Destroy stops what is still started: port2's device gets its default steering back. */
	CHECK_EQ(ft_steer(dev2, &f).kind, NIC_NO_MATCH);
	doca_flow_destroy();
	CHECK_EQ(ft_steer(dev2, &f).kind, NIC_TO_QUEUE);
	CHECK_EQ(ft_steer(dev2, &f).queue, 0);
	/* And DOCA Flow can be initialised again. */
	ft_init(1);
	port = ft_port(dev, 5);
	CHECK_OK(doca_flow_port_stop(port));
	doca_flow_destroy();
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_dev_close(dev2));
	return 0;
}
