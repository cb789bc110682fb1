/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_gpunetio_3_2.cpp - DOCA 3.2's spelling of the device receive, whose last template
 * argument was a bool (true: fill out_attr), built by the C++ compiler in THREAD scope over a
 * hand-made ring (this file plays the NIC): true fills timestamp_ns and bytes as 3.3's
 * DOCA_GPUNETIO_ETH_RX_ATTR_ALL does, false leaves out_attr alone, and the 3.3 spellings that
 * convert to bool (ATTR_NONE, ATTR_TS) still mean what they mean in 3.3.
 */
#include <cstdio>
#include <cstring>

#include <doca_gpunetio_dev_eth_rxq.cuh>

#define NSLOTS 8
#define STRIDE 64

static int failures;

#define EXPECT_EQ(got, want)                                                                                           \
	do {                                                                                                           \
		unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want);                    \
		if (g_ != w_) {                                                                                        \
			std::fprintf(stderr, "%s:%d: %s is %llu, expected %llu\n", __FILE__, __LINE__, #got, g_, w_);  \
			failures++;                                                                                    \
		}                                                                                                      \
	} while (0)

static unsigned char slots[NSLOTS * STRIDE];
static struct doca_gpu_eth_rxq_cqe cqe[NSLOTS];
static struct doca_gpu_eth_rxq rxq;
static uint64_t prod;

/* One packet of @bytes, stamped 5000 + its index. */
static void nic_put(uint32_t bytes)
{
	struct doca_gpu_eth_rxq_cqe *c = &cqe[prod % NSLOTS];

	c->bytes = bytes;
	c->timestamp_ns = 5000 + prod;
	doca_gpunetio_hd_store_release_u32(&c->seq, (uint32_t)(prod + 1));
	prod++;
}

/* Receives one packet with the attribute spelling @recv and returns what out_attr[0] became. */
template <typename F> static struct doca_gpu_dev_eth_rxq_attr one(uint32_t bytes, F recv)
{
	struct doca_gpu_dev_eth_rxq_attr attr[NSLOTS];
	uint64_t first = 99;
	uint32_t num = 99;

	std::memset(attr, 0xee, sizeof(attr));
	nic_put(bytes);
	EXPECT_EQ(recv(&first, &num, attr), DOCA_SUCCESS);
	EXPECT_EQ(num, 1);
	return attr[0];
}

#define SCOPE DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD
#define MCST  DOCA_GPUNETIO_ETH_MCST_AUTO
#define NICH  DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO

int main()
{
	struct doca_gpu_dev_eth_rxq_attr a;
	const uint64_t untouched = 0xeeeeeeeeeeeeeeeeull;

	rxq.pkt_base = (uint64_t)(uintptr_t)slots;
	rxq.cqe = cqe;
	rxq.stride = STRIDE;
	rxq.nslots = NSLOTS;

	/* 3.2: true, both attributes. */
	a = one(101, [](uint64_t *f, uint32_t *n, struct doca_gpu_dev_eth_rxq_attr *at) {
		return doca_gpu_dev_eth_rxq_recv<SCOPE, MCST, NICH, true>(&rxq, 1, 0, f, n, at);
	});
	EXPECT_EQ(a.bytes, 101);
	EXPECT_EQ(a.timestamp_ns, 5000);
	/* 3.2: false, none. */
	a = one(102, [](uint64_t *f, uint32_t *n, struct doca_gpu_dev_eth_rxq_attr *at) {
		return doca_gpu_dev_eth_rxq_recv<SCOPE, MCST, NICH, false>(&rxq, 1, 0, f, n, at);
	});
	EXPECT_EQ(a.bytes, 0xeeeeeeeeu);
	EXPECT_EQ(a.timestamp_ns, untouched);
	/* 3.3: ATTR_TS (1, which would also convert to true) is the timestamp alone. */
	a = one(103, [](uint64_t *f, uint32_t *n, struct doca_gpu_dev_eth_rxq_attr *at) {
		return doca_gpu_dev_eth_rxq_recv<SCOPE, MCST, NICH, DOCA_GPUNETIO_ETH_RX_ATTR_TS>(&rxq, 1, 0, f, n, at);
	});
	EXPECT_EQ(a.bytes, 0);
	EXPECT_EQ(a.timestamp_ns, 5002);
	/* 3.3: ATTR_NONE and ATTR_ALL. */
	a = one(104, [](uint64_t *f, uint32_t *n, struct doca_gpu_dev_eth_rxq_attr *at) {
		return doca_gpu_dev_eth_rxq_recv<SCOPE, MCST, NICH, DOCA_GPUNETIO_ETH_RX_ATTR_NONE>(&rxq, 1, 0, f, n,
												    at);
	});
	EXPECT_EQ(a.timestamp_ns, untouched);
	a = one(105, [](uint64_t *f, uint32_t *n, struct doca_gpu_dev_eth_rxq_attr *at) {
		return doca_gpu_dev_eth_rxq_recv<SCOPE, MCST, NICH, DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(&rxq, 1, 0, f, n,
												   at);
	});
	EXPECT_EQ(a.bytes, 105);
	EXPECT_EQ(a.timestamp_ns, 5004);
	if (failures != 0)
		return 1;
	std::printf("GPUNetIO receive, DOCA 3.2's bool attribute argument: all checks passed\n");
	return 0;
}
