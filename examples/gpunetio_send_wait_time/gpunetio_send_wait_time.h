/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_send_wait_time.h - what the host part of gpunetio_send_wait_time shares with the code
 * that plays its kernel: the CUDA kernel (gpunetio_send_wait_time_kernel.cu) or, in the build for
 * the tests' fake CUDA runtime, a CPU thread (gpunetio_send_wait_time_cpu.c).
 *
 *   CPU (host part)                          sender (kernel, or its CPU stand-in)
 *   ---------------                          ------------------------------------
 *   slot k's time: doca_eth_txq_calculate_   burst k: -b frames into half (k % 2) of the packet
 *   timestamp(first + k * interval), into    memory, each with doca_gpu_dev_eth_txq_wait_send
 *   times[] (CPU_GPU memory)                 (times[k]), NOTIFY on the burst's last; then poll
 *   stats = zeros, launch                    the previous burst's completion, publish stats
 *   wait for done                            (release); done = 1 (release)
 *
 * Frames are those of gpunetio_simple_send (ss_build_frame): frame j carries j as its "seq".
 */
#ifndef GPUNETIO_SEND_WAIT_TIME_H_
#define GPUNETIO_SEND_WAIT_TIME_H_

#include <stdint.h>

#include <doca_error.h>

#include "../gpunetio_simple_send/gpunetio_simple_send.h"

#define SW_MAX_BURST 256u /* frames per time slot at most (-b); a block of that many threads */

struct sw_stats {
	uint64_t packets; /* frames completed */
	uint64_t bytes;
	uint64_t errors; /* bursts whose completion reported a failed send */
	uint32_t exit;	 /* written by the CPU: 1 = stop after the current burst */
	uint32_t done;	 /* written by the sender: 1 = it returned */
};

struct sw_params {
	struct ss_params frame; /* packet memory (2 * SW_MAX_BURST slots of SS_MAX_SIZE), mkey, size, MACs */
	uint64_t count;		/* frames to send */
	uint32_t burst;		/* frames per time slot */
	const uint64_t *times;	/* GPU address: the wait value of each slot, ceil(count / burst) of them */
};

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu_eth_txq;

/* Starts the sender on @txq; DOCA_ERROR_DRIVER when it could not be started. */
doca_error_t sw_sender_launch(struct doca_gpu_eth_txq *txq, const struct sw_params *prm, struct sw_stats *stats);
/* Waits until the sender returned; DOCA_ERROR_DRIVER on a CUDA error. */
doca_error_t sw_sender_wait(void);
/* What plays the sender, for the start line. */
const char *sw_sender_kind(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUNETIO_SEND_WAIT_TIME_H_ */
