/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A CPU thread in place of gpunetio_simple_receive's kernel, for the build that runs with the
 * tests' fake CUDA runtime (tests/gpunetio/fake_cudart.c), whose GPU memory is host memory: it
 * runs the same receive loop through the THREAD-scope ring core of doca_gpunetio_dev_eth_rxq.cuh
 * (compiled by the C compiler), whatever scope -e asks for. With a real GPU use the CUDA build.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <doca_gpunetio_dev_eth_rxq.cuh>

#include "gpunetio_simple_receive.h"

static struct {
	struct doca_gpu_eth_rxq *rxq;
	struct sr_stats *stats;
	uint32_t max_pkt_size;
	pthread_t tid;
} rx;

static void *receive_loop(void *arg)
{
	struct doca_gpu_dev_eth_rxq_attr attr[SR_MAX_RX_PKTS];
	struct sr_stats *s = rx.stats;
	uint64_t packets = 0, bytes = 0, udp = 0, errors = 0;

	(void)arg;
	while (__atomic_load_n(&s->exit, __ATOMIC_ACQUIRE) == 0) {
		uint64_t first = 0;
		uint32_t num = 0;

		if (doca_gpunetio_hd_rxq_recv(rx.rxq, SR_MAX_RX_PKTS, SR_RX_TIMEOUT_NS, &first, &num, attr,
					      DOCA_GPUNETIO_ETH_RX_ATTR_ALL) != DOCA_SUCCESS) {
			errors++;
			num = 0;
		}
		for (uint32_t i = 0; i < num; i++) {
			const uint8_t *p =
			    (const uint8_t *)(uintptr_t)doca_gpu_dev_eth_rxq_get_pkt_addr(rx.rxq, first + i);

			if (attr[i].bytes == 0 || attr[i].bytes > rx.max_pkt_size) {
				errors++;
				continue;
			}
			bytes += attr[i].bytes;
			udp += (uint64_t)sr_is_udp(p, attr[i].bytes);
		}
		packets += num;
		__atomic_store_n(&s->bytes, bytes, __ATOMIC_RELEASE);
		__atomic_store_n(&s->udp, udp, __ATOMIC_RELEASE);
		__atomic_store_n(&s->errors, errors, __ATOMIC_RELEASE);
		__atomic_store_n(&s->packets, packets, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

doca_error_t sr_receiver_launch(struct doca_gpu_eth_rxq *rxq, struct sr_stats *stats, enum sr_scope scope,
				uint32_t max_pkt_size)
{
	int err;

	(void)scope;
	rx.rxq = rxq;
	rx.stats = stats;
	rx.max_pkt_size = max_pkt_size;
	err = pthread_create(&rx.tid, NULL, receive_loop, NULL);
	if (err != 0) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

doca_error_t sr_receiver_wait(void)
{
	return pthread_join(rx.tid, NULL) == 0 ? DOCA_SUCCESS : DOCA_ERROR_DRIVER;
}

const char *sr_receiver_kind(void)
{
	return "CPU thread in place of the kernel (THREAD scope whatever -e says; fake CUDA runtime build)";
}
