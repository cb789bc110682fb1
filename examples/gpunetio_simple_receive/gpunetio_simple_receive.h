/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_receive.h - what the host part of the example shares with the code that plays
 * its receiving kernel: the CUDA kernel (gpunetio_simple_receive_kernel.cu) or, in the build
 * for the tests' fake CUDA runtime, a CPU thread (gpunetio_simple_receive_cpu.c).
 *
 *   CPU (host part)                         receiver (kernel, or its CPU stand-in)
 *   ---------------                         --------------------------------------
 *   stats = zeros (CPU_GPU memory)          loop: doca_gpu_dev_eth_rxq_recv(up to SR_MAX_RX_PKTS)
 *   launch                                        count packets, bytes, UDP, bad sizes
 *   read stats (acquire) every few ms             publish stats (release)
 *   exit = 1 (release)                            until exit (acquire)
 *   wait for the receiver to end                  done = 1 (release)
 *
 * The stats block has one writer on each side: the receiver writes the counters and done, the
 * CPU writes exit.
 */
#ifndef GPUNETIO_SIMPLE_RECEIVE_H_
#define GPUNETIO_SIMPLE_RECEIVE_H_

#include <stdint.h>

#include <doca_error.h>

#define SR_MAX_RX_PKTS	 64	 /* packets one receive takes at most */
#define SR_RX_TIMEOUT_NS 500000u /* a receive waits at most this long, so exit is seen */

/* Receive scopes, as DOCA's sample numbers them (-e). */
enum sr_scope {
	SR_SCOPE_THREAD = 0,
	SR_SCOPE_WARP = 1,
	SR_SCOPE_BLOCK = 2,
};

struct sr_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t udp;	 /* IPv4 UDP packets (Ethernet, optionally one VLAN tag) */
	uint64_t errors; /* receive calls that failed, packets of 0 bytes or over the queue's size */
	uint32_t exit;	 /* written by the CPU: 1 = stop */
	uint32_t done;	 /* written by the receiver: 1 = it returned */
};

#if defined(__CUDACC__)
#define SR_HD __host__ __device__ static inline
#else
#define SR_HD static inline
#endif

/* Whether the @len bytes at @p are an IPv4 UDP packet. */
SR_HD int sr_is_udp(const uint8_t *p, uint32_t len)
{
	uint32_t l3 = 14;
	uint16_t type;

	if (len < 14 + 20)
		return 0;
	type = (uint16_t)(p[12] << 8 | p[13]);
	if (type == 0x8100 && len >= 18 + 20) {
		type = (uint16_t)(p[16] << 8 | p[17]);
		l3 = 18;
	}
	return type == 0x0800 && (p[l3] >> 4) == 4 && p[l3 + 9] == 17;
}

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu_eth_rxq;

/*
 * Starts the receiver on @rxq (the GPU handle of a started CYCLIC queue), publishing into
 * @stats (its GPU address; CPU_GPU memory, zeroed) and counting packets over @max_pkt_size
 * bytes as errors. Returns once it runs; DOCA_ERROR_DRIVER when it could not be started.
 */
doca_error_t sr_receiver_launch(struct doca_gpu_eth_rxq *rxq, struct sr_stats *stats, enum sr_scope scope,
				uint32_t max_pkt_size);
/* Waits until the receiver returned (after exit was set); DOCA_ERROR_DRIVER on a CUDA error. */
doca_error_t sr_receiver_wait(void);
/* What plays the receiver, for the start line: "CUDA kernel" or the CPU stand-in. */
const char *sr_receiver_kind(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUNETIO_SIMPLE_RECEIVE_H_ */
