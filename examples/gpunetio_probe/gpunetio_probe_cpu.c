/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU threads in place of gpunetio_probe's kernels, for the build that runs with the tests'
 * fake CUDA runtime (tests/gpunetio/fake_cudart.c), whose GPU memory is host memory: the same
 * receive and send loops through the THREAD-scope ring cores of the device headers (compiled by
 * the C compiler), whatever scope is asked. The device attributes are the fake's answers (read
 * through SOFTDOCA_CUDART); the clock step is CLOCK_MONOTONIC's. With a real GPU use the CUDA build.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_gpunetio_dev_eth_rxq.cuh>
#include <doca_gpunetio_dev_eth_txq.cuh>

#include "gpunetio_probe.h"

#define NS 1000000000ull

static struct {
	struct pb_rx_args a;
	pthread_t tid;
} rx;

static struct {
	struct pb_tx_args a;
	pthread_t tid;
} tx;

static uint64_t now_ns(void)
{
	return doca_gpunetio_hd_now_ns();
}

static void *rx_loop(void *arg)
{
	struct doca_gpu_dev_eth_rxq_attr attr[PB_MAX_RX_PKTS];
	const struct pb_rx_args *a = &rx.a;
	struct pb_ctl *c = a->ctl;
	uint64_t t0 = now_ns(), packets = 0, bytes = 0, mism = 0, bad = 0, errors = 0;

	(void)arg;
	while (packets < a->expect) {
		uint64_t first = 0;
		uint32_t num = 0,
			 want = a->expect - packets < PB_MAX_RX_PKTS ? (uint32_t)(a->expect - packets) : PB_MAX_RX_PKTS;

		if (__atomic_load_n(&c->exit, __ATOMIC_ACQUIRE) != 0)
			break;
		if (now_ns() - t0 > a->deadline_ns) {
			__atomic_store_n(&c->timed_out, 1, __ATOMIC_RELEASE);
			break;
		}
		if (doca_gpunetio_hd_rxq_recv(a->rxq, want, PB_RX_TIMEOUT_NS, &first, &num, attr,
					      DOCA_GPUNETIO_ETH_RX_ATTR_ALL) != DOCA_SUCCESS) {
			errors++;
			num = 0;
		}
		for (uint32_t i = 0; i < num && a->frame_size != 0; i++) {
			const uint8_t *p =
			    (const uint8_t *)(uintptr_t)doca_gpu_dev_eth_rxq_get_pkt_addr(a->rxq, first + i);
			uint32_t seq = a->first_seq + (uint32_t)(packets + i);

			if (attr[i].bytes != a->frame_size) {
				bad++;
				continue;
			}
			bad += pb_frame_seq(p) != seq;
			mism += pb_check_bytes(p, seq, PB_SEQ_OFF + 4, a->frame_size);
		}
		for (uint32_t i = 0; i < num; i++)
			bytes += attr[i].bytes;
		packets += num;
		__atomic_store_n(&c->bytes, bytes, __ATOMIC_RELEASE);
		__atomic_store_n(&c->mismatches, mism, __ATOMIC_RELEASE);
		__atomic_store_n(&c->bad_frames, bad, __ATOMIC_RELEASE);
		__atomic_store_n(&c->errors, errors, __ATOMIC_RELEASE);
		__atomic_store_n(&c->packets, packets, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

doca_error_t pb_rx_launch(const struct pb_rx_args *a)
{
	int err;

	rx.a = *a;
	err = pthread_create(&rx.tid, NULL, rx_loop, NULL);
	if (err != 0) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

doca_error_t pb_rx_wait(void)
{
	return pthread_join(rx.tid, NULL) == 0 ? DOCA_SUCCESS : DOCA_ERROR_DRIVER;
}

/* Not before @due: sleeps through long waits, spins the last 100 us. */
static void pace(uint64_t due)
{
	for (uint64_t t = now_ns(); t < due; t = now_ns()) {
		if (due - t > 200000u)
			nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = (long)(due - t - 100000u)}, NULL);
	}
}

/* Waits until @end for completion @pos: 1 sent, 0 failed, -1 never written. */
static int poll_until(struct doca_gpu_eth_txq *txq, uint64_t pos, uint64_t end)
{
	for (;;) {
		doca_error_t ret = doca_gpunetio_hd_txq_poll_at(txq, pos, 0);

		if (ret != DOCA_ERROR_AGAIN)
			return ret == DOCA_SUCCESS;
		if (now_ns() > end)
			return -1;
	}
}

static void *tx_loop(void *arg)
{
	const struct pb_tx_args *a = &tx.a;
	struct pb_ctl *c = a->ctl;
	uint64_t t0 = now_ns(), end = t0 + a->deadline_ns, seq = 0, round = 0, prev = 0, packets = 0, errors = 0;
	uint64_t step_t0 = t0, step_frames = 0;
	uint32_t step = 0;

	(void)arg;
	for (;;) {
		uint64_t n = a->round;

		if (__atomic_load_n(&c->exit, __ATOMIC_ACQUIRE) != 0)
			break;
		if (now_ns() > end) {
			__atomic_store_n(&c->timed_out, 1, __ATOMIC_RELEASE);
			break;
		}
		if (a->nrates == 0) {
			if (seq >= a->count)
				break;
			if (a->count - seq < n)
				n = a->count - seq;
		} else {
			/* The step ends when its next round would start past step_ns, or it ran twice as long. */
			while (step < a->nrates) {
				uint64_t due = step_frames * NS / a->rates[step], t = now_ns();

				if (due < a->step_ns && t - step_t0 < 2 * a->step_ns)
					break;
				__atomic_store_n(&c->step_frames[step], step_frames, __ATOMIC_RELEASE);
				__atomic_store_n(&c->step_ns[step], t - step_t0, __ATOMIC_RELEASE);
				step++;
				step_t0 = t;
				step_frames = 0;
			}
			if (step == a->nrates)
				break;
		}
		if (a->rx_packets != NULL) {
			bool late = false;

			while (__atomic_load_n(a->rx_packets, __ATOMIC_ACQUIRE) + a->window < seq + n) {
				if (now_ns() > end || __atomic_load_n(&c->exit, __ATOMIC_ACQUIRE) != 0) {
					late = true;
					break;
				}
			}
			if (late) {
				__atomic_store_n(&c->timed_out, 1, __ATOMIC_RELEASE);
				break;
			}
		}
		for (uint64_t i = 0; i < n; i++) {
			uint64_t addr = a->pkt_addr + ((round & 1) * a->round + i) * a->frame_size, ticket = 0;
			enum doca_gpu_eth_send_flags flags =
			    i == n - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE;

			if (a->nrates != 0)
				pace(step_t0 + (step_frames + i) * NS / a->rates[step]);
			pb_fill_frame((uint8_t *)(uintptr_t)addr, a->frame_size, (uint32_t)(seq + i), a->src_mac);
			if (doca_gpunetio_hd_txq_send(a->txq, addr, a->mkey_be, a->frame_size, (uint32_t)flags,
						      &ticket) != DOCA_SUCCESS)
				errors++;
			if (a->tickets != NULL && seq + i < a->count)
				a->tickets[seq + i] = ticket;
		}
		seq += n;
		step_frames += n;
		__atomic_store_n(&c->rounds, round + 1, __ATOMIC_RELEASE);
		/* The previous round's half may be written again once its completion is in. */
		if (round > 0) {
			int r = poll_until(a->txq, a->cqe_base + round - 1, end + NS);

			packets += r == 1 ? prev : 0;
			errors += r != 1;
			__atomic_store_n(&c->errors, errors, __ATOMIC_RELEASE);
			__atomic_store_n(&c->packets, packets, __ATOMIC_RELEASE);
			if (r < 0)
				break;
		}
		prev = n;
		round++;
	}
	if (prev != 0) {
		int r = poll_until(a->txq, a->cqe_base + round - 1, end + NS);

		packets += r == 1 ? prev : 0;
		errors += r != 1;
	}
	if (a->nrates != 0 && step < a->nrates) {
		__atomic_store_n(&c->step_frames[step], step_frames, __ATOMIC_RELEASE);
		__atomic_store_n(&c->step_ns[step], now_ns() - step_t0, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&c->errors, errors, __ATOMIC_RELEASE);
	__atomic_store_n(&c->packets, packets, __ATOMIC_RELEASE);
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

doca_error_t pb_tx_launch(const struct pb_tx_args *a)
{
	int err;

	tx.a = *a;
	err = pthread_create(&tx.tid, NULL, tx_loop, NULL);
	if (err != 0) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

doca_error_t pb_tx_wait(void)
{
	return pthread_join(tx.tid, NULL) == 0 ? DOCA_SUCCESS : DOCA_ERROR_DRIVER;
}

doca_error_t pb_device_info(const char *pci, struct pb_dev_info *out)
{
	/* cudaDevAttr numbers, as the CUDA runtime's header has them. */
	static const int attrs[] = {75, 76, 16, 13, 19, 89, 88, 86};
	int *vals[] = {&out->cc_major,	   &out->cc_minor,	     &out->sm_count,	    &out->clock_khz,
		       &out->can_map_host, &out->concurrent_managed, &out->pageable_access, &out->host_native_atomics};
	const char *lib = getenv("SOFTDOCA_CUDART");
	int (*get_attr)(int *, int, int) = NULL;
	int (*by_pci)(int *, const char *) = NULL;
	void *h = lib != NULL ? dlopen(lib, RTLD_NOW | RTLD_NOLOAD) : NULL;
	uint64_t step = UINT64_MAX;
	int dev = 0;

	if (h != NULL) {
		*(void **)&get_attr = dlsym(h, "cudaDeviceGetAttribute");
		*(void **)&by_pci = dlsym(h, "cudaDeviceGetByPCIBusId");
	}
	if (get_attr == NULL || (by_pci != NULL && by_pci(&dev, pci) != 0)) {
		fprintf(stderr, "the CUDA runtime (SOFTDOCA_CUDART) has no cudaDeviceGetAttribute for %s\n", pci);
		return DOCA_ERROR_DRIVER;
	}
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (get_attr(vals[i], attrs[i], dev) != 0)
			*vals[i] = -1;
	for (int i = 0; i < 100000; i++) {
		uint64_t a = now_ns(), b = now_ns();

		while (b == a)
			b = now_ns();
		if (b - a < step)
			step = b - a;
	}
	out->timer_step_ns = step;
	out->skipped = "fake CUDA runtime: its attributes are made up, the clock is the CPU's CLOCK_MONOTONIC, "
		       "no %globaltimer and no HMM to look at";
	return DOCA_SUCCESS;
}

doca_error_t pb_gpu_read(void *host, const void *gpu, size_t len)
{
	memcpy(host, gpu, len);
	return DOCA_SUCCESS;
}

doca_error_t pb_gpu_write(void *gpu, const void *host, size_t len)
{
	memcpy(gpu, host, len);
	return DOCA_SUCCESS;
}

const char *pb_kind(void)
{
	return "CPU threads in place of the kernels (THREAD scope; fake CUDA runtime build)";
}
