/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_eth_txq_ring.cpp - DOCA 3.3's send templates (doca_gpunetio_dev_eth_txq.cuh), built by
 * the C++ compiler in THREAD scope, over a hand-made ring (this file plays the NIC): tickets,
 * the wait descriptor ahead of wait_send's frame, the full ring, prepare (one and two
 * segments) + submit, poll_completion ALL / LAST, blocking or not, poll_completion_at, and
 * positions past 65536 (descriptors carry 16 bits of theirs).
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <doca_gpunetio_dev_eth_txq.cuh>

#define NWQE 8

static int failures;

#define EXPECT_EQ(got, want)                                                                                           \
	do {                                                                                                           \
		unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want);                    \
		if (g_ != w_) {                                                                                        \
			std::fprintf(stderr, "%s:%d: %s is %llu, expected %llu\n", __FILE__, __LINE__, #got, g_, w_);  \
			failures++;                                                                                    \
		}                                                                                                      \
	} while (0)

static struct doca_gpu_dev_eth_txq_wqe wqe[NWQE];
static struct doca_gpu_eth_txq_cqe cqe[NWQE];
static uint64_t resv[2];
static struct doca_gpu_eth_txq txq;
static uint64_t next, cq_prod;

/* The NIC's side: takes what is ready (seq, and SELF_DB or below the doorbell); @fail fails sends. */
static unsigned int nic_take(bool fail)
{
	unsigned int n = 0;

	for (;;) {
		const struct doca_gpu_dev_eth_txq_wqe *w = &wqe[next % NWQE];
		uint32_t seq = doca_gpunetio_hd_load_acquire_u32(&w->seq);

		if ((seq & 0xffff) != ((next + 1) & 0xffff))
			break;
		if (!(w->flags & DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB) &&
		    next >= doca_gpunetio_hd_load_acquire_u64(&txq.doorbell))
			break;
		bool is_send = w->opcode == DOCA_GPUNETIO_ETH_TXQ_WQE_SEND;
		if ((is_send && fail) || (w->flags & DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY)) {
			struct doca_gpu_eth_txq_cqe *c = &cqe[cq_prod % NWQE];

			c->wqe_idx = next;
			c->status = is_send && fail ? DOCA_ERROR_INVALID_VALUE : DOCA_SUCCESS;
			doca_gpunetio_hd_store_release_u32(&c->seq, (uint32_t)(cq_prod + 1));
			cq_prod++;
		}
		next++;
		doca_gpunetio_hd_store_release_u64(&txq.cons, next);
		n++;
	}
	return n;
}

int main()
{
	doca_gpu_dev_eth_ticket_t t = 99;
	uint32_t num = 99;
	uint64_t pos = 0;

	txq.wqe = wqe;
	txq.cqe = cqe;
	txq.reserve = &resv[0];
	txq.cq_reserve = &resv[1];
	txq.nwqe = txq.ncqe = NWQE;
	txq.wqe_mask = txq.cqe_mask = NWQE - 1;

	/* send: tickets are positions; NOTIFY gets the completion, the others none. */
	doca_gpu_dev_eth_txq_send(&txq, 0x1000, 0x01000000, 64, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, &t);
	EXPECT_EQ(t, 0);
	doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
				  DOCA_GPUNETIO_ETH_NIC_HANDLER_CPU_PROXY, DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(
	    &txq, 0x2000, 0x01000000, 128, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, &t);
	EXPECT_EQ(t, 1);
	EXPECT_EQ(wqe[1].addr, 0x2000);
	EXPECT_EQ(wqe[1].nbytes, 128);
	EXPECT_EQ(wqe[1].mkey, 0x01000000);
	EXPECT_EQ(doca_gpu_dev_eth_txq_poll_completion(&txq, 1, DOCA_GPUNETIO_ETH_WAIT_FLAG_NB, &num), DOCA_SUCCESS);
	EXPECT_EQ(num, 0); /* the NIC took nothing yet; that position is taken anyway */
	EXPECT_EQ(nic_take(false), 2);
	EXPECT_EQ(doca_gpu_dev_eth_txq_poll_completion_at(&txq, 0, DOCA_GPUNETIO_ETH_WAIT_FLAG_NB), DOCA_SUCCESS);
	EXPECT_EQ(cqe[0].wqe_idx, 1);

	/* wait_send: a wait descriptor, then the frame. */
	doca_gpu_dev_eth_txq_wait_send(&txq, 12345, 0x3000, 0x01000000, 60, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, &t);
	EXPECT_EQ(t, 3);
	EXPECT_EQ(wqe[2].opcode, DOCA_GPUNETIO_ETH_TXQ_WQE_WAIT);
	EXPECT_EQ(wqe[2].wait_ts, 12345);
	EXPECT_EQ(wqe[3].opcode, DOCA_GPUNETIO_ETH_TXQ_WQE_SEND);
	EXPECT_EQ(nic_take(false), 2);
	EXPECT_EQ(doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_LAST>(
		      &txq, 1, DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &num),
		  DOCA_SUCCESS);
	EXPECT_EQ(num, 1);
	EXPECT_EQ(cqe[1].wqe_idx, 3);

	/* A full ring: the reservation says AGAIN until the NIC frees slots. */
	for (int i = 0; i < NWQE; i++)
		doca_gpu_dev_eth_txq_send(&txq, 0x4000, 0x01000000, 60,
					  i == NWQE - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
					  &t);
	EXPECT_EQ(t, 4 + NWQE - 1);
	EXPECT_EQ(doca_gpunetio_hd_txq_reserve(&txq, 1, &pos), DOCA_ERROR_AGAIN);
	EXPECT_EQ(doca_gpunetio_hd_txq_reserve(&txq, NWQE + 1, &pos), DOCA_ERROR_INVALID_VALUE);
	EXPECT_EQ(nic_take(true), NWQE); /* every send fails: NWQE completions, one of them NOTIFY too */
	EXPECT_EQ(doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_ALL>(
		      &txq, NWQE, DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &num),
		  DOCA_ERROR_UNEXPECTED);
	EXPECT_EQ(num, NWQE);
	EXPECT_EQ(doca_gpu_dev_eth_txq_poll_completion_at(&txq, 2, DOCA_GPUNETIO_ETH_WAIT_FLAG_B), DOCA_ERROR_UNEXPECTED);

	/* Low level: prepared descriptors wait for the submit; the two-segment overload. */
	{
		uint64_t base = doca_gpunetio_hd_load_acquire_dev_u64(txq.reserve);
		uint16_t idx = (uint16_t)base;

		doca_gpu_dev_eth_txq_wqe_prepare_send(&txq, doca_gpu_dev_eth_txq_get_wqe_ptr(&txq, idx), idx, 0x5000,
						      0x01000000, 60, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
		doca_gpu_dev_eth_txq_wqe_prepare_send(&txq, doca_gpu_dev_eth_txq_get_wqe_ptr(&txq, idx + 1),
						      (uint16_t)(idx + 1), 0x6000, 0x01000000, 14, 0x7000, 0x02000000,
						      50, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
		EXPECT_EQ(wqe[(idx + 1) % NWQE].nbytes2, 50);
		EXPECT_EQ(wqe[(idx + 1) % NWQE].addr2, 0x7000);
		EXPECT_EQ(nic_take(false), 0);
		doca_gpu_dev_eth_txq_submit(&txq, base + 1);
		EXPECT_EQ(nic_take(false), 1);
		doca_gpu_dev_eth_txq_submit(&txq, base + 2);
		EXPECT_EQ(nic_take(false), 1);
		EXPECT_EQ(cqe[(cq_prod - 1) % NWQE].wqe_idx, base + 1);
		EXPECT_EQ(doca_gpu_dev_eth_txq_poll_completion_at(&txq, cq_prod - 1, DOCA_GPUNETIO_ETH_WAIT_FLAG_NB),
			  DOCA_SUCCESS);
		EXPECT_EQ(doca_gpu_dev_eth_txq_poll_completion_at(&txq, cq_prod, DOCA_GPUNETIO_ETH_WAIT_FLAG_NB),
			  DOCA_ERROR_AGAIN);
		/* the high-level reservation moves past the caller's positions before the styles meet again */
		resv[0] = base + 2;
	}

	/* Positions past 65536: 16 bits of each are enough to tell this lap from the last. */
	for (uint32_t i = 0; i < 70000; i++) {
		doca_gpu_dev_eth_txq_send(&txq, 0x8000, 0x01000000, 60, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, &t);
		EXPECT_EQ(nic_take(false), 1);
		if (failures)
			break;
	}
	EXPECT_EQ(next, t + 1);
	EXPECT_EQ(doca_gpu_dev_eth_get_lane_id(), 0);

	/* A ring of one cannot hold a wait and its frame: refused at once, never a wait for room. */
	{
		static struct doca_gpu_dev_eth_txq_wqe one_wqe[1];
		static struct doca_gpu_eth_txq_cqe one_cqe[1];
		static uint64_t one_resv[2];
		struct doca_gpu_eth_txq one = {};

		one.wqe = one_wqe;
		one.cqe = one_cqe;
		one.reserve = &one_resv[0];
		one.cq_reserve = &one_resv[1];
		one.nwqe = one.ncqe = 1;
		EXPECT_EQ(doca_gpunetio_hd_txq_wait_send(&one, 1, 0x8000, 0x01000000, 60, 0, &pos),
			  DOCA_ERROR_INVALID_VALUE);
		EXPECT_EQ(doca_gpunetio_hd_txq_reserve_wait(&one, 2, &pos), DOCA_ERROR_INVALID_VALUE);
		EXPECT_EQ(doca_gpunetio_hd_txq_send(&one, 0x8000, 0x01000000, 60, 0, &pos), DOCA_SUCCESS);
		EXPECT_EQ(pos, 0);
	}

	/* DOCA 3.3's names of the handle's fields, and its helpers, on the same queue. */
	{
		uint64_t polled = txq.cqe_ci, first;

		EXPECT_EQ(txq.cqe_num, txq.ncqe);
		EXPECT_EQ(txq.wqe_pi, txq.doorbell);
		EXPECT_EQ(polled != 0, 1); /* the polls above moved it */
		first = doca_gpu_dev_eth_txq_reserve_wq_slots(&txq, 3);
		EXPECT_EQ(doca_gpu_dev_eth_txq_reserve_wq_slots<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA>(&txq, 1),
			  first + 3);
		doca_gpu_dev_eth_fence_release<DOCA_GPUNETIO_ETH_SYNC_SCOPE_SYS>();
		doca_gpu_dev_eth_fence_acquire<DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA>();
		EXPECT_EQ(DOCA_GPUNETIO_ETH_BSWAP16(0x1234), 0x3412);
		EXPECT_EQ(doca_gpu_dev_eth_bswap32(0x12345678u), 0x78563412u);
		EXPECT_EQ(doca_gpu_dev_eth_bswap64(0x0102030405060708ull), 0x0807060504030201ull);
	}

	if (failures) {
		std::fprintf(stderr, "%d checks failed\n", failures);
		return 1;
	}
	std::printf("gpunetio eth txq ring: all checks passed\n");
	return 0;
}
