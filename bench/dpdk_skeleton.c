/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpdk_skeleton.c - the baseline: DPDK's software DMA device (dma_skeleton), driven through
 * rte_dma_copy / rte_dma_submit / rte_dma_completed, its copy thread on the other core.
 * Built only when libdpdk is found.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_dmadev.h>
#include <rte_eal.h>

#include "bench_util.h"

#define BURST 32

double dpdk_skeleton_run(size_t size, unsigned int qd, bool cold, double secs, double *gbps, double *lat_p50,
			 double *lat_p99);

double dpdk_skeleton_run(size_t size, unsigned int qd, bool cold, double secs, double *gbps, double *lat_p50,
			 double *lat_p99)
{
	char *eal_argv[] = {"dma_bench",
			    "--no-huge",
			    "--no-pci",
			    "--iova-mode=va",
			    "-l",
			    "0",
			    "--vdev=dma_skeleton0,lcore=1",
			    "--log-level=error",
			    "--no-telemetry",
			    NULL};
	struct rte_dma_conf conf = {.nb_vchans = 1};
	struct rte_dma_vchan_conf vconf = {.direction = RTE_DMA_DIR_MEM_TO_MEM, .nb_desc = 1024};
	struct rte_dma_info info;
	size_t len = cold ? bench_cold_arena_bytes() : size, off = 0;
	uint8_t *src, *dst;
	uint64_t done = 0, inflight = 0, t0, deadline;
	int16_t dev;

	if (len < size)
		len = size;
	if (rte_eal_init(9, eal_argv) < 0)
		return -1;
	if (rte_dma_count_avail() == 0)
		return -1;
	dev = rte_dma_next_dev(0);
	if (rte_dma_info_get(dev, &info) != 0 || rte_dma_configure(dev, &conf) != 0)
		return -1;
	if (vconf.nb_desc > info.max_desc)
		vconf.nb_desc = (uint16_t)info.max_desc;
	if (qd > vconf.nb_desc)
		qd = vconf.nb_desc;
	if (rte_dma_vchan_setup(dev, 0, &vconf) != 0 || rte_dma_start(dev) != 0)
		return -1;
	src = bench_alloc(len, 0x5a);
	dst = bench_alloc(len, 0);
	if (src == NULL || dst == NULL)
		return -1;

	/* Latency: one copy at a time, submit -> completion seen. */
	if (lat_p50 != NULL && qd == 1 && size <= 64) {
		enum { N = 20000 };
		static uint64_t lat[N];
		uint16_t last;
		bool err;

		for (int i = 0; i < N; i++) {
			uint64_t a = bench_now_ns();

			rte_dma_copy(dev, 0, (rte_iova_t)(uintptr_t)src, (rte_iova_t)(uintptr_t)dst, (uint32_t)size,
				     RTE_DMA_OP_FLAG_SUBMIT);
			while (rte_dma_completed(dev, 0, 1, &last, &err) == 0)
				;
			lat[i] = bench_now_ns() - a;
		}
		for (int i = 1; i < N; i++)
			for (int j = i; j > 0 && lat[j - 1] > lat[j]; j--) {
				uint64_t t = lat[j];
				lat[j] = lat[j - 1];
				lat[j - 1] = t;
			}
		*lat_p50 = (double)lat[N / 2];
		if (lat_p99 != NULL)
			*lat_p99 = (double)lat[N * 99 / 100];
	}

	t0 = bench_now_ns();
	deadline = t0 + (uint64_t)(secs * 1e9);
	while (bench_now_ns() < deadline || inflight > 0) {
		bool more = bench_now_ns() < deadline;
		unsigned int queued = 0;
		uint16_t last;
		bool err = false;

		while (more && inflight < qd && queued < BURST) {
			if (rte_dma_copy(dev, 0, (rte_iova_t)(uintptr_t)(src + off), (rte_iova_t)(uintptr_t)(dst + off),
					 (uint32_t)size, 0) < 0)
				break;
			inflight++;
			queued++;
			if (cold) {
				off += size;
				if (off + size > len)
					off = 0;
			}
		}
		if (queued)
			rte_dma_submit(dev, 0);
		uint16_t n = rte_dma_completed(dev, 0, BURST, &last, &err);

		if (err)
			return -1;
		inflight -= n;
		done += n;
	}
	double el = (double)(bench_now_ns() - t0) / 1e9;

	*gbps = (double)done * (double)size / el / 1e9;
	rte_dma_stop(dev);
	rte_dma_close(dev);
	bench_free(src, len);
	bench_free(dst, len);
	return (double)done / el / 1e6;
}
