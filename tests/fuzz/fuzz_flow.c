/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_flow.c - libFuzzer target for DOCA Flow's spec path: random match templates, masks,
 * forwards and entries through the public API, then random parsed frames through the port's
 * steering (priv_doca_nic_steer), as the receive path calls it.
 *
 * Input: a header (pipe type, flags, queue count), field writes into the template and the mask,
 * a list of entries (priority, field writes, forward, pkt_meta), then raw nic_frame_info
 * values. Properties: no crash, no read out of bounds; every call returns SUCCESS,
 * INVALID_VALUE, NOT_SUPPORTED, ALREADY_EXIST or FULL; every verdict is a known kind, and a
 * frame sent to a queue went to queues[rss_hash % n] of the one queue array this input uses;
 * after the pipes are flushed every frame is a miss.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_flow.h>
#include <doca_log.h>

#include "core.h"
#include "nic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PROPERTY(cond)                                                                                                 \
	do {                                                                                                           \
		if (!(cond))                                                                                           \
			abort();                                                                                       \
	} while (0)

struct rd {
	const uint8_t *p;
	size_t n;
};

static uint8_t u8(struct rd *r)
{
	if (r->n == 0)
		return 0;
	r->n--;
	return *r->p++;
}

static void bytes(struct rd *r, void *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		((uint8_t *)out)[i] = u8(r);
}

#define F(f, s)                                                                                                        \
	{                                                                                                              \
		offsetof(struct doca_flow_match, f), s                                                                 \
	}
static const struct {
	uint16_t off, size;
} fields[] = {
    F(meta.pkt_meta, 4),
    F(meta.u32[0], 4),
    F(parser_meta.port_id, 2),
    F(parser_meta.outer_l2_type, 4),
    F(parser_meta.outer_l3_type, 4),
    F(parser_meta.outer_l4_type, 4),
    F(parser_meta.outer_ip_fragmented, 1),
    F(parser_meta.outer_l3_ok, 1),
    F(parser_meta.outer_l4_ok, 1),
    F(parser_meta.random, 2),
    F(outer.eth.dst_mac, 6),
    F(outer.eth.src_mac, 6),
    F(outer.eth.type, 2),
    F(outer.l2_valid_headers, 2),
    F(outer.eth_vlan[0].tci, 2),
    F(outer.l3_type, 4),
    F(outer.ip4.src_ip, 4),
    F(outer.ip4.dst_ip, 4),
    F(outer.ip4.next_proto, 1),
    F(outer.ip4.ttl, 1),
    F(outer.ip4.total_len, 2),
    F(outer.ip6.src_ip, 16),
    F(outer.ip6.dst_ip, 16),
    F(outer.l4_type_ext, 4),
    F(outer.tcp.l4_port.src_port, 2),
    F(outer.tcp.l4_port.dst_port, 2),
    F(outer.tcp.flags, 1),
    F(outer.icmp.type, 1),
    F(outer.icmp.code, 1),
    F(tun.type, 4),
    F(inner.l3_type, 4),
};

/* Writes: count, then (field index, value bytes) each; selectors get small values. */
static void read_match(struct rd *r, struct doca_flow_match *m)
{
	unsigned int n = u8(r) % 8;

	memset(m, 0, sizeof(*m));
	for (unsigned int i = 0; i < n; i++) {
		unsigned int f = u8(r) % (sizeof(fields) / sizeof(fields[0]));

		if (fields[f].size == 4 && fields[f].off != offsetof(struct doca_flow_match, meta.pkt_meta) &&
		    fields[f].off != offsetof(struct doca_flow_match, meta.u32[0]) &&
		    fields[f].off != offsetof(struct doca_flow_match, outer.ip4.src_ip) &&
		    fields[f].off != offsetof(struct doca_flow_match, outer.ip4.dst_ip)) {
			uint8_t v = u8(r);
			uint32_t e = v == 0xff ? UINT32_MAX : v % 8; /* an enum: mostly valid values */

			memcpy((uint8_t *)m + fields[f].off, &e, 4);
		} else {
			bytes(r, (uint8_t *)m + fields[f].off, fields[f].size);
		}
	}
}

static uint16_t queues[16];
static unsigned int nq;

static void read_fwd(struct rd *r, struct doca_flow_fwd *f, struct doca_flow_pipe *next)
{
	uint8_t k = u8(r);

	memset(f, 0, sizeof(*f));
	switch (k % 6) {
	case 1:
		f->type = DOCA_FLOW_FWD_RSS;
		f->rss_type = (k & 0x40) ? DOCA_FLOW_RESOURCE_TYPE_SHARED : DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
		f->rss.queues_array = queues;
		f->rss.nr_queues = (int)nq;
		f->rss.outer_flags = (uint32_t)u8(r) | (uint32_t)u8(r) << 8;
		f->rss.rss_hash_func =
		    (k & 0x80) ? DOCA_FLOW_RSS_HASH_FUNCTION_SYMMETRIC_TOEPLITZ : DOCA_FLOW_RSS_HASH_FUNCTION_TOEPLITZ;
		break;
	case 2:
		f->type = DOCA_FLOW_FWD_DROP;
		break;
	case 3:
		f->type = DOCA_FLOW_FWD_PIPE;
		f->next_pipe = next;
		break;
	case 4:
		f->type = (enum doca_flow_fwd_type)(k >> 3); /* anything, valid or not */
		break;
	default:
		f->type = DOCA_FLOW_FWD_NONE;
	}
}

static bool expected(doca_error_t e)
{
	return e == DOCA_SUCCESS || e == DOCA_ERROR_INVALID_VALUE || e == DOCA_ERROR_NOT_SUPPORTED ||
	       e == DOCA_ERROR_ALREADY_EXIST || e == DOCA_ERROR_FULL;
}

static struct doca_dev *dev;
static struct doca_flow_port *port;

static void setup(void)
{
	struct doca_devinfo **list;
	struct doca_flow_cfg *cfg;
	struct doca_flow_port_cfg *pc;
	uint32_t n;

	(void)doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_CRIT); /* rejections are the point */
	PROPERTY(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS && n > 0);
	PROPERTY(doca_dev_open(list[0], &dev) == DOCA_SUCCESS);
	PROPERTY(doca_devinfo_destroy_list(list) == DOCA_SUCCESS);
	PROPERTY(doca_flow_cfg_create(&cfg) == DOCA_SUCCESS);
	PROPERTY(doca_flow_cfg_set_mode_args(cfg, "vnf") == DOCA_SUCCESS);
	PROPERTY(doca_flow_init(cfg) == DOCA_SUCCESS);
	PROPERTY(doca_flow_cfg_destroy(cfg) == DOCA_SUCCESS);
	PROPERTY(doca_flow_port_cfg_create(&pc) == DOCA_SUCCESS);
	PROPERTY(doca_flow_port_cfg_set_dev(pc, dev) == DOCA_SUCCESS);
	PROPERTY(doca_flow_port_start(pc, &port) == DOCA_SUCCESS);
	PROPERTY(doca_flow_port_cfg_destroy(pc) == DOCA_SUCCESS);
}

static void steer_frames(struct rd *r, bool flushed)
{
	unsigned int n = u8(r) % 16;

	for (unsigned int i = 0; i < n; i++) {
		struct nic_frame_info f;
		uint8_t frame[14];
		struct nic_verdict v;

		bytes(r, &f, sizeof(f));
		bytes(r, frame, sizeof(frame));
		f.len = (uint16_t)(f.len < 14 ? 14 : f.len);
		priv_doca_nic_steer(dev, &f, frame, &v);
		PROPERTY(v.kind == NIC_TO_QUEUE || v.kind == NIC_DROP || v.kind == NIC_NO_MATCH);
		if (flushed)
			PROPERTY(v.kind == NIC_NO_MATCH);
		if (v.kind == NIC_TO_QUEUE)
			PROPERTY(nq > 0 && v.queue == queues[v.rss_hash % nq]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd r = {data, size};
	struct doca_flow_match tmpl, mask, m;
	struct doca_flow_fwd fwd, miss, efwd;
	struct doca_flow_actions act, *ap = &act;
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_pipe *leaf = NULL, *root = NULL;
	uint8_t hdr, flags;
	unsigned int ne;
	doca_error_t e;

	if (dev == NULL)
		setup();
	hdr = u8(&r);
	flags = u8(&r);
	nq = 1 + u8(&r) % 16;
	for (unsigned int i = 0; i < nq; i++)
		queues[i] = (uint16_t)(100 + i);

	/* A leaf BASIC pipe that entries may forward to, matching pkt_meta. */
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.meta.pkt_meta = UINT32_MAX;
	memset(&fwd, 0, sizeof(fwd));
	fwd.type = DOCA_FLOW_FWD_RSS;
	fwd.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	fwd.rss.queues_array = queues;
	fwd.rss.nr_queues = (int)nq;
	fwd.rss.outer_flags = DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP;
	PROPERTY(doca_flow_pipe_cfg_create(&pc, port) == DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_cfg_set_match(pc, &tmpl, NULL) == DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_cfg_set_nr_entries(pc, 64) == DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_create(pc, &fwd, NULL, &leaf) == DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_cfg_destroy(pc) == DOCA_SUCCESS);

	/* The root pipe the input describes. */
	read_match(&r, &tmpl);
	read_match(&r, &mask);
	read_fwd(&r, &fwd, leaf);
	read_fwd(&r, &miss, leaf);
	memset(&act, 0, sizeof(act));
	bytes(&r, &act.meta.pkt_meta, 4);
	PROPERTY(doca_flow_pipe_cfg_create(&pc, port) == DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_cfg_set_type(pc, (hdr & 1) ? DOCA_FLOW_PIPE_CONTROL : DOCA_FLOW_PIPE_BASIC) ==
		 DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_cfg_set_is_root(pc, true) == DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_cfg_set_nr_entries(pc, 16) == DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_cfg_set_miss_counter(pc, (flags & 8) != 0) == DOCA_SUCCESS);
	PROPERTY(doca_flow_pipe_cfg_set_match(pc, (flags & 1) ? &tmpl : NULL, (flags & 2) ? &mask : NULL) ==
		 DOCA_SUCCESS);
	if (flags & 4)
		PROPERTY(expected(doca_flow_pipe_cfg_set_actions(pc, &ap, NULL, NULL, 1)));
	if (flags & 16)
		PROPERTY(doca_flow_pipe_cfg_set_monitor(pc, &mon) == DOCA_SUCCESS);
	e = doca_flow_pipe_create(pc, (flags & 32) ? &fwd : NULL, (flags & 64) ? &miss : NULL, &root);
	PROPERTY(expected(e) && e != DOCA_ERROR_FULL);
	PROPERTY(doca_flow_pipe_cfg_destroy(pc) == DOCA_SUCCESS);

	ne = e == DOCA_SUCCESS ? u8(&r) % 24 : 0;
	for (unsigned int i = 0; i < ne; i++) {
		struct doca_flow_pipe_entry *entry;
		uint8_t prio = u8(&r);

		read_match(&r, &m);
		read_match(&r, &mask);
		read_fwd(&r, &efwd, leaf);
		memset(&act, 0, sizeof(act));
		bytes(&r, &act.meta.pkt_meta, 4);
		if (hdr & 1)
			e = doca_flow_pipe_control_add_entry(0, root, &m, (prio & 1) ? &mask : NULL, NULL, &act, NULL,
							     NULL, (prio & 2) ? &mon : NULL, prio, &efwd, NULL, &entry);
		else
			e = doca_flow_pipe_basic_add_entry(0, root, &m, 0, &act, (prio & 2) ? &mon : NULL, &efwd, 0,
							   NULL, &entry);
		PROPERTY(expected(e));
		if (e == DOCA_SUCCESS && (prio & 0x80))
			PROPERTY(doca_flow_pipe_remove_entry(0, 0, entry) == DOCA_SUCCESS);
		/* The leaf matches what an entry's pkt_meta may be. */
		if (e == DOCA_SUCCESS && (prio & 4)) {
			memset(&m, 0, sizeof(m));
			m.meta.pkt_meta = act.meta.pkt_meta;
			PROPERTY(expected(
			    doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, NULL, NULL, 0, NULL, &entry)));
		}
	}
	PROPERTY(doca_flow_entries_process(port, 0, 0, 0) == DOCA_SUCCESS);
	steer_frames(&r, false);
	doca_flow_port_pipes_flush(port);
	steer_frames(&r, true);
	return 0;
}
