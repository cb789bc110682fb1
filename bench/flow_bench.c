/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flow_bench.c - DOCA Flow's classifier cost per received frame: frames steered through
 * priv_doca_nic_steer() on a started port whose root pipe holds N entries.
 *
 *   flow_bench [--entries N] [--frames M] [--basic]   (--basic: the BASIC cases only)
 *
 * Cases: a BASIC pipe matching the IPv4/UDP 5-tuple (hash lookup) forwarding with RSS over 4
 * queues; the same frames missing (miss path); a CONTROL pipe of 16 priority entries in front
 * of a BASIC pipe (two lookups); a CONTROL pipe of N entries where the frame matches the last
 * one (two masks: two probes of its index). One line per case: ns of this thread's CPU time per frame.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_dev.h>
#include <doca_flow.h>

#include "core.h"
#include "nic.h"

#define DIE(...) (fprintf(stderr, __VA_ARGS__), fputc('\n', stderr), exit(1))
#define OK(call)                                                                                                       \
	do {                                                                                                           \
		doca_error_t e_ = (call);                                                                              \
		if (e_ != DOCA_SUCCESS)                                                                                \
			DIE("%s: %s", #call, doca_error_get_name(e_));                                                 \
	} while (0)

/* The thread's CPU time: on a shared machine, time spent preempted is not the classifier's. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct doca_dev *open_dev(const char *pci)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t eq = 0;

		OK(doca_devinfo_is_equal_pci_addr(list[i], pci, &eq));
		if (eq)
			OK(doca_dev_open(list[i], &dev));
	}
	OK(doca_devinfo_destroy_list(list));
	if (dev == NULL)
		DIE("no device %s", pci);
	return dev;
}

static struct doca_flow_pipe *make_pipe(struct doca_flow_port *port, const char *name, enum doca_flow_pipe_type type,
					bool root, const struct doca_flow_match *m, const struct doca_flow_fwd *fwd,
					const struct doca_flow_fwd *miss, uint32_t nr)
{
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_pipe *p;

	OK(doca_flow_pipe_cfg_create(&pc, port));
	OK(doca_flow_pipe_cfg_set_name(pc, name));
	OK(doca_flow_pipe_cfg_set_type(pc, type));
	OK(doca_flow_pipe_cfg_set_is_root(pc, root));
	OK(doca_flow_pipe_cfg_set_nr_entries(pc, nr));
	if (m != NULL)
		OK(doca_flow_pipe_cfg_set_match(pc, m, NULL));
	OK(doca_flow_pipe_create(pc, fwd, miss, &p));
	OK(doca_flow_pipe_cfg_destroy(pc));
	return p;
}

static void frame(struct nic_frame_info *f, uint32_t i)
{
	memset(f, 0, sizeof(*f));
	f->len = 64;
	f->eth_type = htons(0x0800);
	f->l3 = NIC_L3_IPV4;
	f->l4 = NIC_L4_UDP;
	f->ip_proto = 17;
	f->l3_ok = f->l4_ok = 1;
	f->ip4_src = htonl(0x0a000000 | (i & 0xffff));
	f->ip4_dst = htonl(0x0b000001);
	f->l4_src = htons((uint16_t)(1000 + (i >> 16)));
	f->l4_dst = htons(4791);
}

static double run(struct doca_dev *dev, const struct nic_frame_info *frames, uint32_t nb, uint32_t rounds,
		  enum nic_verdict_kind want)
{
	volatile uint32_t sink = 0;
	uint64_t t0;

	for (uint32_t r = 0; r < 2; r++) /* warm up */
		for (uint32_t i = 0; i < nb; i++) {
			struct nic_verdict v;

			priv_doca_nic_steer(dev, &frames[i], NULL, &v);
			if (v.kind != want)
				DIE("frame %u: verdict %d, expected %d", i, v.kind, want);
		}
	t0 = now_ns();
	for (uint32_t r = 0; r < rounds; r++)
		for (uint32_t i = 0; i < nb; i++) {
			struct nic_verdict v;

			priv_doca_nic_steer(dev, &frames[i], NULL, &v);
			sink += v.queue;
		}
	(void)sink;
	return (double)(now_ns() - t0) / ((double)rounds * nb);
}

int main(int argc, char **argv)
{
	uint32_t nb = 1000, total = 10000000, rounds;
	bool basic_only = false;
	struct doca_flow_cfg *cfg;
	struct doca_flow_port_cfg *pc;
	struct doca_flow_port *port;
	struct doca_flow_pipe *basic, *ctl;
	struct doca_flow_pipe_entry *e;
	struct doca_flow_match tmpl, m;
	struct nic_frame_info *frames, *missing;
	uint16_t q[] = {0, 1, 2, 3};
	struct doca_flow_fwd rss, drop, to_basic;
	struct doca_dev *dev;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--entries") == 0 && i + 1 < argc)
			nb = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
			total = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--basic") == 0)
			basic_only = true;
		else
			DIE("usage: flow_bench [--entries N] [--frames M]");
	}
	if (nb == 0 || nb > 1000000 || total < nb)
		DIE("--entries 1..1000000, --frames at least the entries");
	rounds = total / nb;
	frames = calloc(nb, sizeof(*frames));
	missing = calloc(nb, sizeof(*missing));
	if (frames == NULL || missing == NULL)
		DIE("out of memory");
	for (uint32_t i = 0; i < nb; i++) {
		frame(&frames[i], i);
		frame(&missing[i], i);
		missing[i].l4_dst = htons(9);
	}
	dev = open_dev("03:00.0");
	OK(doca_flow_cfg_create(&cfg));
	OK(doca_flow_cfg_set_mode_args(cfg, "vnf"));
	OK(doca_flow_init(cfg));
	OK(doca_flow_cfg_destroy(cfg));
	OK(doca_flow_port_cfg_create(&pc));
	OK(doca_flow_port_cfg_set_dev(pc, dev));
	OK(doca_flow_port_start(pc, &port));
	OK(doca_flow_port_cfg_destroy(pc));

	memset(&rss, 0, sizeof(rss));
	rss.type = DOCA_FLOW_FWD_RSS;
	rss.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	rss.rss.queues_array = q;
	rss.rss.nr_queues = 4;
	rss.rss.outer_flags = DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP;
	memset(&drop, 0, sizeof(drop));
	drop.type = DOCA_FLOW_FWD_DROP;

	/* BASIC: 5-tuple, N entries. */
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	tmpl.outer.ip4.src_ip = tmpl.outer.ip4.dst_ip = 0xffffffff;
	tmpl.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	tmpl.outer.udp.l4_port.src_port = tmpl.outer.udp.l4_port.dst_port = 0xffff;
	basic = make_pipe(port, "basic", DOCA_FLOW_PIPE_BASIC, true, &tmpl, &rss, &drop, nb);
	for (uint32_t i = 0; i < nb; i++) {
		memset(&m, 0, sizeof(m));
		m.outer.ip4.src_ip = frames[i].ip4_src;
		m.outer.ip4.dst_ip = frames[i].ip4_dst;
		m.outer.udp.l4_port.src_port = frames[i].l4_src;
		m.outer.udp.l4_port.dst_port = frames[i].l4_dst;
		OK(doca_flow_pipe_basic_add_entry(0, basic, &m, 0, NULL, NULL, NULL, 0, NULL, &e));
	}
	printf("basic 5-tuple, %u entries, RSS over 4 queues: %.1f ns/frame\n", nb,
	       run(dev, frames, nb, rounds, NIC_TO_QUEUE));
	printf("basic 5-tuple, %u entries, miss -> drop:      %.1f ns/frame\n", nb,
	       run(dev, missing, nb, rounds, NIC_DROP));

	if (basic_only)
		goto out;
	/* CONTROL root of 16 entries (the UDP one last) in front of the BASIC pipe. */
	doca_flow_pipe_destroy(basic);
	basic = make_pipe(port, "basic", DOCA_FLOW_PIPE_BASIC, false, &tmpl, &rss, &drop, nb);
	for (uint32_t i = 0; i < nb; i++) {
		memset(&m, 0, sizeof(m));
		m.outer.ip4.src_ip = frames[i].ip4_src;
		m.outer.ip4.dst_ip = frames[i].ip4_dst;
		m.outer.udp.l4_port.src_port = frames[i].l4_src;
		m.outer.udp.l4_port.dst_port = frames[i].l4_dst;
		OK(doca_flow_pipe_basic_add_entry(0, basic, &m, 0, NULL, NULL, NULL, 0, NULL, &e));
	}
	ctl = make_pipe(port, "control", DOCA_FLOW_PIPE_CONTROL, true, NULL, NULL, NULL, nb + 16);
	memset(&to_basic, 0, sizeof(to_basic));
	to_basic.type = DOCA_FLOW_FWD_PIPE;
	to_basic.next_pipe = basic;
	for (uint32_t i = 0; i < 15; i++) {
		memset(&m, 0, sizeof(m));
		m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
		m.outer.ip4.dst_ip = htonl(0xc0a80000 + i);
		OK(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, NULL, i, &drop, NULL,
						    &e));
	}
	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP;
	OK(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, NULL, 100, &to_basic, NULL, &e));
	printf("control (16 entries) -> basic (%u entries):    %.1f ns/frame\n", nb,
	       run(dev, frames, nb, rounds, NIC_TO_QUEUE));

	/* CONTROL of N entries, the frames match the last one only. */
	doca_flow_pipe_destroy(ctl);
	ctl = make_pipe(port, "control-n", DOCA_FLOW_PIPE_CONTROL, true, NULL, NULL, NULL, nb + 1);
	for (uint32_t i = 0; i < nb; i++) {
		memset(&m, 0, sizeof(m));
		m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
		m.outer.ip4.dst_ip = htonl(0xc0a80000 + i);
		OK(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, NULL, i, &drop, NULL,
						    &e));
	}
	OK(doca_flow_pipe_control_add_entry(0, ctl, NULL, NULL, NULL, NULL, NULL, NULL, NULL, nb, &rss, NULL, &e));
	printf("control, %u entries, last one matches:        %.1f ns/frame\n", nb,
	       run(dev, frames, nb, rounds / 10 + 1, NIC_TO_QUEUE));

out:
	OK(doca_flow_port_stop(port));
	doca_flow_destroy();
	OK(doca_dev_close(dev));
	free(frames);
	free(missing);
	return 0;
}
