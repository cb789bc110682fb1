/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_eth_rxq_ring.cpp - doca_gpu_dev_eth_rxq_recv<>, DOCA 3.3's template, built by the C++
 * compiler in THREAD scope, over a hand-made ring (this file plays the NIC): outputs, the
 * attribute kinds, the slot hand-back one call later, get_pkt_addr's single wrap, and
 * completion sequence numbers that wrap around 2^32.
 */
#include <cstdio>
#include <cstdlib>
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

/* The NIC's side: a packet of @bytes in slot prod % NSLOTS, unless the device holds every slot. */
static bool nic_put(uint32_t bytes)
{
	uint64_t cons = doca_gpunetio_hd_load_acquire_u64(&rxq.cons);
	struct doca_gpu_eth_rxq_cqe *c = &cqe[prod % NSLOTS];

	if (prod - cons >= NSLOTS)
		return false;
	std::memset(slots + (prod % NSLOTS) * STRIDE, (int)(prod & 0xff), STRIDE);
	c->bytes = bytes;
	c->timestamp_ns = 1000 + prod;
	doca_gpunetio_hd_store_release_u32(&c->seq, (uint32_t)(prod + 1));
	prod++;
	return true;
}

static void reset(uint64_t start)
{
	std::memset(cqe, 0, sizeof(cqe));
	std::memset(&rxq, 0, sizeof(rxq));
	rxq.pkt_base = (uint64_t)(uintptr_t)slots;
	rxq.cqe = cqe;
	rxq.stride = STRIDE;
	rxq.nslots = NSLOTS;
	rxq.next = rxq.cons = prod = start;
	/* Entries left by the lap before: one lap behind, never mistaken for the next packet. */
	for (uint64_t i = 0; i < NSLOTS; i++)
		cqe[(start + i) % NSLOTS].seq = (uint32_t)(start + i + 1 - NSLOTS);
}

static void run(uint64_t start)
{
	struct doca_gpu_dev_eth_rxq_attr attr[NSLOTS];
	uint64_t first = 99;
	uint32_t num = 99;

	reset(start);
	for (uint32_t i = 0; i < 5; i++)
		EXPECT_EQ(nic_put(100 + i), 1);
	EXPECT_EQ((doca_gpu_dev_eth_rxq_recv<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD, DOCA_GPUNETIO_ETH_MCST_AUTO,
					     DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(
		      &rxq, 3, 0, &first, &num, attr)),
		  DOCA_SUCCESS);
	EXPECT_EQ(num, 3);
	EXPECT_EQ(first, start % NSLOTS);
	for (uint32_t i = 0; i < num; i++) {
		const unsigned char *p =
		    (const unsigned char *)(uintptr_t)doca_gpu_dev_eth_rxq_get_pkt_addr(&rxq, first + i);

		EXPECT_EQ(attr[i].bytes, 100 + i);
		EXPECT_EQ(attr[i].timestamp_ns, 1000 + start + i);
		EXPECT_EQ(p[0], (start + i) & 0xff);
	}
	/* Held until the next call: the NIC has room for 3 more only (8 - 5). */
	EXPECT_EQ(rxq.cons, start);
	for (uint32_t i = 0; i < 3; i++)
		EXPECT_EQ(nic_put(200 + i), 1);
	EXPECT_EQ(nic_put(999), 0);
	/* The next call hands the 3 back and takes the other 5 (timestamps only). */
	EXPECT_EQ((doca_gpu_dev_eth_rxq_recv<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD, DOCA_GPUNETIO_ETH_MCST_DISABLED,
					     DOCA_GPUNETIO_ETH_NIC_HANDLER_CPU_PROXY, DOCA_GPUNETIO_ETH_RX_ATTR_TS>(
		      &rxq, 0, 1000000, &first, &num, attr)),
		  DOCA_SUCCESS);
	EXPECT_EQ(rxq.cons, start + 3);
	EXPECT_EQ(num, 5);
	EXPECT_EQ(first, (start + 3) % NSLOTS);
	EXPECT_EQ(attr[4].timestamp_ns, 1000 + start + 7);
	EXPECT_EQ(attr[4].bytes, 0);
	/* get_pkt_addr wraps an index past the last slot once. */
	EXPECT_EQ(doca_gpu_dev_eth_rxq_get_pkt_addr(&rxq, first + 4), rxq.pkt_base + ((first + 4) % NSLOTS) * STRIDE);
	/* Nothing more: the default template (THREAD, no attributes) times out with 0. */
	EXPECT_EQ((doca_gpu_dev_eth_rxq_recv<>(&rxq, 4, 1000, &first, &num, NULL)), DOCA_SUCCESS);
	EXPECT_EQ(num, 0);
	EXPECT_EQ(rxq.cons, start + 8);
	EXPECT_EQ((doca_gpu_dev_eth_rxq_recv<>(NULL, 4, 1000, &first, &num, NULL)), DOCA_ERROR_INVALID_VALUE);
	/* The mkey as the handle holds it (big-endian), through a const handle. */
	rxq.pkt_mkey = 0x44332211u;
	EXPECT_EQ(doca_gpu_dev_eth_rxq_get_pkt_mkey(static_cast<const struct doca_gpu_eth_rxq *>(&rxq)), 0x44332211u);
}

int main()
{
	run(0);
	run(0xfffffffcull); /* seq numbers wrap around 2^32 within the run */
	run(0x1fffffffaull);
	if (failures != 0)
		return 1;
	std::printf("eth rxq ring (C++ template, THREAD scope): all checks passed\n");
	return 0;
}
