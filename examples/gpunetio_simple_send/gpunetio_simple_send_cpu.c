/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A CPU thread in place of gpunetio_simple_send's kernel, for the build that runs with the
 * tests' fake CUDA runtime (tests/gpunetio/fake_cudart.c), whose GPU memory is host memory: it
 * runs the same rounds through the THREAD-scope core of doca_gpunetio_dev_eth_txq.cuh (compiled
 * by the C compiler), whatever scope -e asks for. With a real GPU use the CUDA build.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <doca_gpunetio_dev_eth_txq.cuh>

#include "gpunetio_simple_send.h"

static struct {
	struct doca_gpu_eth_txq *txq;
	struct ss_params prm;
	struct ss_stats *stats;
	pthread_t tid;
} tx;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Not before @due (CLOCK_MONOTONIC ns): sleeps through long waits, spins the last 100 us. */
static void pace(uint64_t due)
{
	for (uint64_t t = now_ns(); t < due; t = now_ns()) {
		if (due - t > 200000u)
			nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = (long)(due - t - 100000u)}, NULL);
	}
}

/*
 * Waits for the completion of @round (the oldest not yet polled: high level, the next completion
 * position; low level, completion @round itself); adds its @frames to the counts.
 */
static void poll_round(struct ss_stats *s, uint64_t round, uint64_t frames, uint64_t *packets, uint64_t *bytes,
		       uint64_t *errors)
{
	uint32_t num = 0;
	doca_error_t ret = tx.prm.low_level ? doca_gpunetio_hd_txq_poll_at(tx.txq, round, 1)
					    : doca_gpunetio_hd_txq_poll(tx.txq, 1, 1, 1, &num);

	if (ret != DOCA_SUCCESS)
		(*errors)++;
	*packets += frames;
	*bytes += frames * tx.prm.size;
	__atomic_store_n(&s->bytes, *bytes, __ATOMIC_RELEASE);
	__atomic_store_n(&s->errors, *errors, __ATOMIC_RELEASE);
	__atomic_store_n(&s->packets, *packets, __ATOMIC_RELEASE);
}

static void *send_loop(void *arg)
{
	const struct ss_params *prm = &tx.prm;
	struct ss_stats *s = tx.stats;
	uint64_t packets = 0, bytes = 0, errors = 0, seq = 0, prev = 0, last = 0, t0 = now_ns();

	(void)arg;
	for (uint64_t round = 0;; round++) {
		uint64_t n = SS_ROUND;

		if (__atomic_load_n(&s->exit, __ATOMIC_ACQUIRE) != 0)
			break;
		if (prm->count != 0 && prm->count - seq < n)
			n = prm->count - seq;
		if (n == 0)
			break;
		for (uint64_t i = 0; i < n; i++, seq++) {
			uint64_t slot = (round & 1) * SS_ROUND + i, addr = prm->pkt_addr + slot * SS_MAX_SIZE;
			enum doca_gpu_eth_send_flags flags =
			    i == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE;

			if (prm->rate != 0)
				pace(t0 + seq * 1000000000u / prm->rate);
			ss_build_frame((uint8_t *)(uintptr_t)addr, prm, prm->size, (uint32_t)seq);
			if (prm->low_level) {
				/* frame seq is descriptor seq; at most 2 rounds out, far below the ring's size */
				uint16_t idx = (uint16_t)seq;

				(void)doca_gpu_dev_eth_txq_wqe_prepare_send(
				    tx.txq, doca_gpu_dev_eth_txq_get_wqe_ptr(tx.txq, idx), idx, addr, prm->mkey_be,
				    prm->size, flags);
			} else {
				(void)doca_gpunetio_hd_txq_send(tx.txq, addr, prm->mkey_be, prm->size, (uint32_t)flags,
								NULL);
			}
		}
		if (prm->low_level)
			doca_gpunetio_hd_txq_submit(tx.txq, seq); /* the round may go */
		/* The previous round's half may be written again once its completion is in. */
		if (round > 0)
			poll_round(s, round - 1, prev, &packets, &bytes, &errors);
		prev = n;
		last = round;
	}
	if (prev != 0)
		poll_round(s, last, prev, &packets, &bytes, &errors);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

doca_error_t ss_sender_launch(struct doca_gpu_eth_txq *txq, const struct ss_params *prm, struct ss_stats *stats,
			      enum ss_scope scope)
{
	int err;

	(void)scope;
	tx.txq = txq;
	tx.prm = *prm;
	tx.stats = stats;
	err = pthread_create(&tx.tid, NULL, send_loop, NULL);
	if (err != 0) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

doca_error_t ss_sender_wait(void)
{
	return pthread_join(tx.tid, NULL) == 0 ? DOCA_SUCCESS : DOCA_ERROR_DRIVER;
}

const char *ss_sender_kind(void)
{
	return "CPU thread in place of the kernel (THREAD scope whatever -e says; fake CUDA runtime build)";
}
