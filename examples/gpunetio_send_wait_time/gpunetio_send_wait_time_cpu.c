/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A CPU thread in place of gpunetio_send_wait_time's kernel, for the build that runs with the
 * tests' fake CUDA runtime (whose GPU memory is host memory): the same bursts through the
 * THREAD-scope core of doca_gpunetio_dev_eth_txq.cuh, one wait descriptor ahead of each frame
 * (all of a burst's with the burst's time). With a real GPU use the CUDA build.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <doca_gpunetio_dev_eth_txq.cuh>

#include "gpunetio_send_wait_time.h"

static struct {
	struct doca_gpu_eth_txq *txq;
	struct sw_params prm;
	struct sw_stats *stats;
	pthread_t tid;
} tx;

static void poll_burst(struct sw_stats *s, uint64_t frames, uint64_t *packets, uint64_t *bytes, uint64_t *errors)
{
	uint32_t num = 0;

	if (doca_gpunetio_hd_txq_poll(tx.txq, 1, 1, 1, &num) != DOCA_SUCCESS)
		(*errors)++;
	*packets += frames;
	*bytes += frames * tx.prm.frame.size;
	__atomic_store_n(&s->bytes, *bytes, __ATOMIC_RELEASE);
	__atomic_store_n(&s->errors, *errors, __ATOMIC_RELEASE);
	__atomic_store_n(&s->packets, *packets, __ATOMIC_RELEASE);
}

static void *send_loop(void *arg)
{
	const struct sw_params *prm = &tx.prm;
	const struct ss_params *f = &prm->frame;
	struct sw_stats *s = tx.stats;
	uint64_t packets = 0, bytes = 0, errors = 0, seq = 0, prev = 0;

	(void)arg;
	for (uint64_t k = 0; seq < prm->count; k++) {
		uint64_t n = prm->count - seq < prm->burst ? prm->count - seq : prm->burst;

		if (__atomic_load_n(&s->exit, __ATOMIC_ACQUIRE) != 0)
			break;
		for (uint64_t i = 0; i < n; i++, seq++) {
			uint64_t addr = f->pkt_addr + ((k & 1) * SW_MAX_BURST + i) * SS_MAX_SIZE;

			ss_build_frame((uint8_t *)(uintptr_t)addr, f, f->size, (uint32_t)seq);
			(void)doca_gpunetio_hd_txq_wait_send(tx.txq, prm->times[k], addr, f->mkey_be, f->size,
							     i == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : 0, NULL);
		}
		/* The previous burst's half may be written again once its completion is in. */
		if (k > 0)
			poll_burst(s, prev, &packets, &bytes, &errors);
		prev = n;
	}
	if (prev != 0)
		poll_burst(s, prev, &packets, &bytes, &errors);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

doca_error_t sw_sender_launch(struct doca_gpu_eth_txq *txq, const struct sw_params *prm, struct sw_stats *stats)
{
	int err;

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

doca_error_t sw_sender_wait(void)
{
	return pthread_join(tx.tid, NULL) == 0 ? DOCA_SUCCESS : DOCA_ERROR_DRIVER;
}

const char *sw_sender_kind(void)
{
	return "CPU thread in place of the kernel (THREAD scope, a wait per frame; fake CUDA runtime build)";
}
