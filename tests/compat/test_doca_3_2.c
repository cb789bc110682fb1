/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_doca_3_2.c - a program written for DOCA 3.2, built and run against softdoca (3.3):
 * the version macros as DOCA defines them (also in #if, as downstream code tests them), and
 * the 3.2 spellings softdoca serves (docs/versions.md): doca_flow_pipe_add_entry,
 * DOCA_FLOW_NO_WAIT / DOCA_FLOW_WAIT_FOR_BATCH and the "vnf,isolated" mode of 3.2's samples.
 */
#include <doca_version.h>

#include "../flow/flow_test.h"

#if DOCA_VERSION_MAJOR < 3 || (DOCA_VERSION_MAJOR == 3 && DOCA_VERSION_MINOR < 2)
#error "DOCA_VERSION_MAJOR/MINOR: a program for 3.2 takes the pre-3.2 branch"
#endif
#if DOCA_VERSION_MINOR >= 2
#define TOOK_3_2_BRANCH 1
#else
#define TOOK_3_2_BRANCH 0
#endif
#if !DOCA_VERSION_LTE_CURRENT(3, 2, 0) || DOCA_VERSION_LTE_CURRENT(3, 4, 0) || !DOCA_VERSION_EQ_CURRENT(3, 3, 0)
#error "DOCA_VERSION_LTE_CURRENT / DOCA_VERSION_EQ_CURRENT in #if"
#endif

/* DOCA's definitions: both comparisons are DOCA_VERSION_CALC(...) against DOCA_VERSION_OFFICIAL. */
static void version_macros(void)
{
	static const int majors[] = {2, 3, 4}, minors[] = {0, 2, 3, 4}, patches[] = {0, 1, 2, 65, 66, 118, 1025};

	CHECK_EQ(TOOK_3_2_BRANCH, 1);
	CHECK_EQ(DOCA_VERSION_MAJOR, 3);
	CHECK_EQ(DOCA_VERSION_MINOR, 3);
	CHECK_EQ(DOCA_VERSION_PATCH, 0);
	CHECK_EQ(DOCA_VERSION_OFFICIAL, DOCA_VERSION_CALC(3, 3, 0));
	CHECK_EQ(DOCA_VERSION_EXACT, DOCA_VERSION_CALC_EXACT(3, 3, 0));
	CHECK_EQ(sizeof(DOCA_VERSION_CALC(3, 2, 0)), sizeof(size_t));
	for (size_t a = 0; a < SD_ARRAY_SIZE(majors); a++)
		for (size_t b = 0; b < SD_ARRAY_SIZE(minors); b++)
			for (size_t c = 0; c < SD_ARRAY_SIZE(patches); c++) {
				int ma = majors[a], mi = minors[b], pa = patches[c];
				int eq = DOCA_VERSION_CALC(ma, mi, pa) == DOCA_VERSION_OFFICIAL;
				int lte = DOCA_VERSION_CALC(ma, mi, pa) <= DOCA_VERSION_OFFICIAL;

				if (DOCA_VERSION_EQ_CURRENT(ma, mi, pa) != eq ||
				    DOCA_VERSION_LTE_CURRENT(ma, mi, pa) != lte) {
					fprintf(stderr,
						"%s:%d: %d.%d.%d: EQ %d LTE %d, DOCA's definitions give %d %d\n",
						__FILE__, __LINE__, ma, mi, pa, DOCA_VERSION_EQ_CURRENT(ma, mi, pa),
						DOCA_VERSION_LTE_CURRENT(ma, mi, pa), eq, lte);
					exit(T_EXIT_FAIL);
				}
			}
	/* Compiled-against and loaded versions: one build, so the same string. */
	CHECK_STR(doca_version(), DOCA_VERSION_STRING);
	CHECK_STR(doca_version_runtime(), DOCA_VERSION_STRING);
}

static void flow_3_2_spellings(void)
{
	struct doca_flow_cfg *cfg;
	struct doca_flow_match tmpl, m;
	uint16_t q[] = {5};
	struct doca_flow_fwd fwd = ft_rss(q, 1, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP);
	struct doca_flow_fwd drop = ft_fwd(DOCA_FLOW_FWD_DROP, NULL);
	struct doca_flow_pipe_entry *e = NULL, *dup = NULL;
	struct doca_flow_port *port;
	struct doca_flow_pipe *pipe;
	struct nic_frame_info f;
	struct doca_dev *dev = sd_open_dev(FT_DEV);

	CHECK_EQ(DOCA_FLOW_NO_WAIT, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT);
	CHECK_EQ(DOCA_FLOW_WAIT_FOR_BATCH, DOCA_FLOW_ENTRY_FLAGS_WAIT_FOR_BATCH);
	CHECK_OK(doca_flow_cfg_create(&cfg));
	CHECK_OK(doca_flow_cfg_set_pipe_queues(cfg, 1));
	CHECK_OK(doca_flow_cfg_set_mode_args(cfg, "vnf,isolated"));
	CHECK_OK(doca_flow_init(cfg));
	CHECK_OK(doca_flow_cfg_destroy(cfg));
	port = ft_port(dev, 0);

	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	tmpl.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	tmpl.outer.udp.l4_port.dst_port = 0xffff;
	CHECK_OK(ft_pipe(port, "v32", DOCA_FLOW_PIPE_BASIC, true, &tmpl, NULL, NULL, NULL, &fwd, &drop, false, &pipe));
	m = tmpl;
	m.outer.udp.l4_port.dst_port = htons(4789);
	/* 3.2's name adds to the same table as 3.3's: the key is then taken for both. */
	CHECK_OK(doca_flow_pipe_add_entry(0, pipe, &m, 0, NULL, NULL, NULL, DOCA_FLOW_NO_WAIT, NULL, &e));
	CHECK(e != NULL);
	CHECK_ERR(
	    doca_flow_pipe_basic_add_entry(0, pipe, &m, 0, NULL, NULL, NULL, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT, NULL, &dup),
	    DOCA_ERROR_ALREADY_EXIST);
	CHECK_ERR(doca_flow_pipe_add_entry(0, pipe, &m, 0, NULL, NULL, NULL, DOCA_FLOW_WAIT_FOR_BATCH, NULL, &dup),
		  DOCA_ERROR_ALREADY_EXIST);
	f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, 4789);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_TO_QUEUE);
	CHECK_EQ(ft_steer(dev, &f).queue, 5);
	f = ft_ip4(0x0a000001, 0x0a000002, NIC_L4_UDP, 1000, 4790);
	CHECK_EQ(ft_steer(dev, &f).kind, NIC_DROP);
	/* Still checked as the 3.3 call is: both flags at once are refused. */
	m.outer.udp.l4_port.dst_port = htons(4790);
	CHECK_ERR(doca_flow_pipe_add_entry(0, pipe, &m, 0, NULL, NULL, NULL,
					   DOCA_FLOW_NO_WAIT | DOCA_FLOW_WAIT_FOR_BATCH, NULL, &dup),
		  DOCA_ERROR_INVALID_VALUE);

	doca_flow_pipe_destroy(pipe);
	CHECK_OK(doca_flow_port_stop(port));
	doca_flow_destroy();
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	version_macros();
	flow_3_2_spellings();
	printf("DOCA 3.2 spellings: version macros and DOCA Flow served\n");
	return 0;
}
