/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_steer.c - the port steering registry (src/nic/steer.c): the default without DOCA Flow,
 * one steering per port, and a receiver on another thread that always sees a function with its
 * own argument while the steering is set and cleared under it (run under TSan in CI).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "../common/sd_test.h"
#include "core.h"
#include "nic.h"

struct tag {
	uint16_t queue;
	uint32_t meta;
};

static void steer_a(void *arg, const struct nic_frame_info *info, const uint8_t *frame, struct nic_verdict *out)
{
	const struct tag *t = arg;

	(void)frame;
	out->kind = NIC_TO_QUEUE;
	out->queue = t->queue;
	out->pkt_meta = t->meta + info->len;
}

static void steer_drop(void *arg, const struct nic_frame_info *info, const uint8_t *frame, struct nic_verdict *out)
{
	(void)arg;
	(void)info;
	(void)frame;
	out->kind = NIC_DROP;
}

static struct doca_dev *dev;
static atomic_int stop;
static atomic_long seen, mixed;

static void *receiver(void *p)
{
	struct nic_frame_info info = {.len = 0};

	(void)p;
	while (!atomic_load(&stop)) {
		struct nic_verdict v;

		priv_doca_nic_steer(dev, &info, NULL, &v);
		if (v.kind != NIC_TO_QUEUE)
			continue;
		/* queue 0 = the default (no steering), 1 and 2 come with their own meta */
		if (!((v.queue == 0 && v.pkt_meta == 0) || (v.queue == 1 && v.pkt_meta == 0xa) ||
		      (v.queue == 2 && v.pkt_meta == 0xb)))
			atomic_fetch_add(&mixed, 1);
		atomic_fetch_add(&seen, 1);
	}
	return NULL;
}

int main(void)
{
	struct tag a = {1, 0xa}, b = {2, 0xb};
	struct nic_frame_info info = {.len = 60};
	struct nic_verdict v;
	pthread_t thr;

	dev = sd_open_dev("03:00.0");
	/* No DOCA Flow port: everything to queue 0. */
	priv_doca_nic_steer(dev, &info, NULL, &v);
	CHECK(v.kind == NIC_TO_QUEUE && v.queue == 0 && v.pkt_meta == 0);

	CHECK_OK(priv_doca_nic_set_steer(dev, steer_a, &a));
	priv_doca_nic_steer(dev, &info, NULL, &v);
	CHECK(v.kind == NIC_TO_QUEUE && v.queue == 1);
	CHECK_EQ(v.pkt_meta, 0xa + 60);
	CHECK_ERR(priv_doca_nic_set_steer(dev, steer_a, &b), DOCA_ERROR_IN_USE); /* one per port */
	CHECK_OK(priv_doca_nic_set_steer(dev, NULL, NULL));
	CHECK_OK(priv_doca_nic_set_steer(dev, steer_drop, NULL));
	priv_doca_nic_steer(dev, &info, NULL, &v);
	CHECK(v.kind == NIC_DROP);
	CHECK_OK(priv_doca_nic_set_steer(dev, NULL, NULL));
	CHECK_ERR(priv_doca_nic_set_steer(NULL, steer_a, &a), DOCA_ERROR_INVALID_VALUE);

	/* Set and cleared under a receiver: never a function with another's argument. */
	CHECK(pthread_create(&thr, NULL, receiver, NULL) == 0);
	for (int i = 0; i < 2000; i++) {
		CHECK_OK(priv_doca_nic_set_steer(dev, steer_a, (i & 1) ? &a : &b));
		CHECK_OK(priv_doca_nic_set_steer(dev, NULL, NULL));
	}
	atomic_store(&stop, 1);
	CHECK(pthread_join(thr, NULL) == 0);
	CHECK_EQ(atomic_load(&mixed), 0);
	printf("%ld verdicts while steering changed 4000 times, none mixed\n", atomic_load(&seen));
	CHECK_OK(doca_dev_close(dev));
	return T_EXIT_PASS;
}
