/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_send.h - what the host part of gpunetio_simple_send shares with the code that
 * plays its sending kernel: the CUDA kernel (gpunetio_simple_send_kernel.cu) or, in the build for
 * the tests' fake CUDA runtime, a CPU thread (gpunetio_simple_send_cpu.c).
 *
 *   CPU (host part)                         sender (kernel, or its CPU stand-in)
 *   ---------------                         ------------------------------------
 *   stats = zeros (CPU_GPU memory)          rounds of SS_ROUND frames, into half (round % 2) of
 *   launch                                  the packet memory: build each frame (seq = its
 *   read stats (acquire) every few ms       number), doca_gpu_dev_eth_txq_send (or, -w, prepare
 *   exit = 1 (release) after -t seconds     + one submit), NOTIFY on the round's last; then poll
 *                                           the previous round's
 *   wait for the sender to end              completion (its half is free again), publish
 *                                           stats (release); until -c frames or exit;
 *                                           done = 1 (release)
 *
 * The stats block has one writer on each side: the sender writes the counters and done, the
 * CPU writes exit. packets counts frames whose completion was polled (the NIC took them).
 */
#ifndef GPUNETIO_SIMPLE_SEND_H_
#define GPUNETIO_SIMPLE_SEND_H_

#include <stdint.h>

#include <doca_error.h>

#define SS_ROUND     256u  /* frames per round: one completion each */
#define SS_MAX_SIZE  1514u /* frame size limits (-s) */
#define SS_MIN_SIZE  64u
#define SS_UDP_PORT0 5000u /* destination port of the first flow */

/* Send scopes, as DOCA's samples number them (-e). */
enum ss_scope {
	SS_SCOPE_THREAD = 0,
	SS_SCOPE_WARP = 1,
	SS_SCOPE_BLOCK = 2,
};

struct ss_stats {
	uint64_t packets; /* frames completed */
	uint64_t bytes;
	uint64_t errors; /* rounds whose completion reported a failed send */
	uint32_t exit;	 /* written by the CPU: 1 = stop after the current round */
	uint32_t done;	 /* written by the sender: 1 = it returned */
};

/* What the sender needs, copied by value into the kernel's arguments. */
struct ss_params {
	uint64_t pkt_addr;  /* GPU address of 2 * SS_ROUND frame slots of SS_MAX_SIZE bytes */
	uint32_t mkey_be;   /* doca_mmap_get_mkey of it, big-endian */
	uint32_t size;	    /* frame size in bytes */
	uint64_t count;	    /* frames to send; 0: until exit */
	uint64_t rate;	    /* frames per second at most; 0: as fast as the queue takes them */
	uint32_t low_level; /* 1: descriptors at positions of our own, one submit and one completion
			     * poll by position per round (DOCA's non-shared queue); 0: the
			     * high-level send, which reserves positions itself */
	uint8_t dst_mac[6]; /* the frames' Ethernet addresses */
	uint8_t src_mac[6];
};

#if defined(__CUDACC__)
#define SS_HD __host__ __device__ static inline
#else
#define SS_HD static inline
#endif

/*
 * Writes frame @seq of @size bytes at @p: Ethernet, IPv4 10.0.0.1 > 10.0.0.2 (checksum left to
 * the queue's L3 offload), UDP 4000 > SS_UDP_PORT0 + seq % 4 (checksum: L4 offload), then the
 * payload: @seq (4 bytes, host order, what softdoca-wire recv prints as "seq") and a pattern.
 */
SS_HD void ss_build_frame(uint8_t *p, const struct ss_params *prm, uint32_t size, uint32_t seq)
{
	uint32_t ip_len = size - 14, udp_len = size - 34;
	uint16_t dport = (uint16_t)(SS_UDP_PORT0 + seq % 4);

	for (int i = 0; i < 6; i++) {
		p[i] = prm->dst_mac[i];
		p[6 + i] = prm->src_mac[i];
	}
	p[12] = 0x08;
	p[13] = 0x00;
	p[14] = 0x45;
	p[15] = 0;
	p[16] = (uint8_t)(ip_len >> 8);
	p[17] = (uint8_t)ip_len;
	p[18] = (uint8_t)(seq >> 8);
	p[19] = (uint8_t)seq;
	p[20] = 0x40; /* DF */
	p[21] = 0;
	p[22] = 64;
	p[23] = 17;
	p[24] = p[25] = 0;
	p[26] = 10, p[27] = 0, p[28] = 0, p[29] = 1;
	p[30] = 10, p[31] = 0, p[32] = 0, p[33] = 2;
	p[34] = 4000 >> 8;
	p[35] = 4000 & 0xff;
	p[36] = (uint8_t)(dport >> 8);
	p[37] = (uint8_t)dport;
	p[38] = (uint8_t)(udp_len >> 8);
	p[39] = (uint8_t)udp_len;
	p[40] = p[41] = 0;
	p[42] = (uint8_t)seq;
	p[43] = (uint8_t)(seq >> 8);
	p[44] = (uint8_t)(seq >> 16);
	p[45] = (uint8_t)(seq >> 24);
	for (uint32_t k = 46; k < size; k++)
		p[k] = (uint8_t)(seq + k);
}

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu_eth_txq;

/*
 * Starts the sender on @txq (the GPU handle of a started queue), publishing into @stats (its GPU
 * address; CPU_GPU memory, zeroed). Returns once it runs; DOCA_ERROR_DRIVER when it could not
 * be started.
 */
doca_error_t ss_sender_launch(struct doca_gpu_eth_txq *txq, const struct ss_params *prm, struct ss_stats *stats,
			      enum ss_scope scope);
/* Waits until the sender returned; DOCA_ERROR_DRIVER on a CUDA error. */
doca_error_t ss_sender_wait(void);
/* What plays the sender, for the start line: "CUDA kernel" or the CPU stand-in. */
const char *ss_sender_kind(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUNETIO_SIMPLE_SEND_H_ */
