/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_threads.c - entries added and removed, pipes created and destroyed, the port stopped and
 * started again while another thread steers frames through priv_doca_nic_steer(): every verdict
 * is one a consistent table could give (run under TSan in CI).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "flow_test.h"

#define NB_PORTS 64

static struct doca_dev *dev;
static atomic_int stop;
static atomic_long steered, wrong, hit;

/* Entry p matches UDP destination port p + 1 and forwards to queue 100 + p; misses are dropped. */
static void *receiver(void *arg)
{
	uint32_t i = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		uint16_t p = (uint16_t)(i++ % NB_PORTS);
		struct nic_frame_info f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 9, (uint16_t)(p + 1));
		struct nic_verdict v = ft_steer(dev, &f);
		bool ok;

		/* queue 0: port stopped (default steering); NO_MATCH: no root pipe yet. */
		ok = v.kind == NIC_DROP || v.kind == NIC_NO_MATCH || (v.kind == NIC_TO_QUEUE && v.queue == 0) ||
		     (v.kind == NIC_TO_QUEUE && v.queue == 100 + p && v.pkt_meta == 0);
		if (!ok)
			atomic_fetch_add(&wrong, 1);
		if (v.kind == NIC_TO_QUEUE && v.queue != 0)
			atomic_fetch_add(&hit, 1);
		atomic_fetch_add(&steered, 1);
	}
	return NULL;
}

/* BASIC and CONTROL pipes take turns (a CONTROL pipe republishes its index at every change). */
static bool ctl;

static struct doca_flow_pipe *make_pipe(struct doca_flow_port *port)
{
	struct doca_flow_match tmpl;
	struct doca_flow_fwd drop = ft_fwd(DOCA_FLOW_FWD_DROP, NULL);
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	struct doca_flow_pipe *pipe;

	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	tmpl.outer.udp.l4_port.dst_port = 0xffff;
	CHECK_OK(ft_pipe(port, "churn", ctl ? DOCA_FLOW_PIPE_CONTROL : DOCA_FLOW_PIPE_BASIC, true, ctl ? NULL : &tmpl,
			 NULL, NULL, &mon, NULL, &drop, true, &pipe));
	return pipe;
}

static struct doca_flow_pipe_entry *add(struct doca_flow_pipe *pipe, uint16_t p)
{
	uint16_t q = (uint16_t)(100 + p);
	struct doca_flow_fwd fwd = ft_rss(&q, 1, DOCA_FLOW_RSS_IPV4);
	struct doca_flow_match m;
	struct doca_flow_pipe_entry *e;

	memset(&m, 0, sizeof(m));
	m.outer.udp.l4_port.dst_port = htons((uint16_t)(p + 1)); /* not 0: a CONTROL match skips zero fields */
	if (ctl) {
		m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
		CHECK_OK(doca_flow_pipe_control_add_entry(0, pipe, &m, NULL, NULL, NULL, NULL, NULL, NULL, p % 3, &fwd,
							  NULL, &e));
	} else {
		CHECK_OK(doca_flow_pipe_basic_add_entry(0, pipe, &m, 0, NULL, NULL, &fwd, 0, NULL, &e));
	}
	return e;
}

int main(void)
{
	struct doca_flow_pipe_entry *e[NB_PORTS] = {0};
	struct doca_flow_port *port;
	struct doca_flow_pipe *pipe;
	pthread_t thr;
	uint32_t x = 1;
	long before;

	dev = sd_open_dev(FT_DEV);
	ft_init(1);
	port = ft_port(dev, 0);
	pipe = make_pipe(port);
	CHECK(pthread_create(&thr, NULL, receiver, NULL) == 0);
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < 2000; i++) {
			uint16_t p;

			x = x * 1103515245u + 12345u;
			p = (uint16_t)((x >> 8) % NB_PORTS);
			if (e[p] == NULL) {
				e[p] = add(pipe, p);
			} else {
				CHECK_OK(doca_flow_pipe_remove_entry(0, 0, e[p]));
				e[p] = NULL;
			}
		}
		CHECK_OK(doca_flow_entries_process(port, 0, 0, 0));
		if (round % 5 == 4) {
			/* Everything goes away under the receiver: pipe, then the port itself. */
			doca_flow_pipe_destroy(pipe);
			CHECK_OK(doca_flow_port_stop(port));
			ctl = !ctl;
			port = ft_port(dev, 0);
			pipe = make_pipe(port);
			memset(e, 0, sizeof(e));
		}
	}
	/* Entries in place now: the receiver must hit them. */
	for (uint16_t p = 0; p < NB_PORTS; p++)
		if (e[p] == NULL)
			e[p] = add(pipe, p);
	before = atomic_load(&hit);
	while (atomic_load(&hit) < before + 1000)
		sched_yield();
	atomic_store(&stop, 1);
	CHECK(pthread_join(thr, NULL) == 0);
	CHECK_EQ(atomic_load(&wrong), 0);
	CHECK(atomic_load(&steered) > 0);
	{
		uint64_t sum = 0;

		for (uint16_t p = 0; p < NB_PORTS; p++)
			sum += ft_hits(e[p]);
		CHECK(sum >= 1000);
	}
	CHECK_OK(doca_flow_port_stop(port));
	doca_flow_destroy();
	CHECK_OK(doca_dev_close(dev));
	return 0;
}
