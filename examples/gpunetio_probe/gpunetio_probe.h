/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_probe.h - what the host part of gpunetio_probe shares with the code that plays its
 * kernels: the CUDA kernels (gpunetio_probe_kernel.cu) or, in the build for the tests' fake CUDA
 * runtime, CPU threads (gpunetio_probe_cpu.c).
 *
 *   sender (GPU txq on the cabled port)     receiver (GPU rxq, CYCLIC, GPU memory)
 *   -----------------------------------     --------------------------------------
 *   rounds of pb_tx_args.round frames in    doca_gpu_dev_eth_rxq_recv in a loop (scope), checks
 *   two halves of its packet memory: build  every byte of every frame against pb_fill_frame's
 *   frame seq, send (scope, lanes), NOTIFY  pattern, counts packets, mismatching bytes and
 *   on the round's last, poll the previous  frames out of order; publishes (release); until
 *   round's completion by position; with a  expect frames, exit, or its own deadline (then
 *   window, never more than window frames   timed_out = 1); done = 1
 *   ahead of the receiver's count; with
 *   rates, steps of rising rate
 *
 * Every wait on either side has a deadline (deadline_ns, relative to the start); the CPU waits
 * for done with one of its own. One writer per word on each side: the device side writes the
 * counters, done and timed_out, the CPU writes exit.
 */
#ifndef GPUNETIO_PROBE_H_
#define GPUNETIO_PROBE_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#define PB_MAX_RX_PKTS	 64	 /* packets one receive takes at most */
#define PB_RX_TIMEOUT_NS 200000u /* a receive waits at most this long, so exit and deadlines are seen */
#define PB_MAX_STEPS	 8	 /* send_ceiling's rate steps */
#define PB_SEQ_OFF	 14	 /* frame: Ethernet header, then the sequence number, then the pattern */
#define PB_ETHERTYPE	 0x88b5u /* local experimental: nothing else reads these frames */

enum pb_scope {
	PB_SCOPE_THREAD = 0,
	PB_SCOPE_WARP = 1,
	PB_SCOPE_BLOCK = 2,
};

/* One side's control block, in CPU_GPU memory (the GPU writes, the CPU reads). */
struct pb_ctl {
	uint64_t packets;		    /* rx: frames received; tx: frames whose round completed */
	uint64_t bytes;			    /* rx: bytes received */
	uint64_t mismatches;		    /* rx: payload bytes that differ from the pattern */
	uint64_t bad_frames;		    /* rx: frames of the wrong size or with a sequence number out of order */
	uint64_t errors;		    /* failed receive calls, failed completions */
	uint64_t rounds;		    /* tx: rounds posted (each ends in one NOTIFY, so one completion) */
	uint64_t step_frames[PB_MAX_STEPS]; /* tx with rates: frames posted in each step */
	uint64_t step_ns[PB_MAX_STEPS];	    /* tx with rates: how long each step took */
	uint32_t exit;			    /* written by the CPU: 1 = stop */
	uint32_t done;			    /* written by the device side: 1 = it returned */
	uint32_t timed_out;		    /* written by the device side: its own deadline passed */
	uint32_t pad;
};

struct pb_rx_args {
	struct doca_gpu_eth_rxq *rxq;
	struct pb_ctl *ctl;	/* GPU address */
	uint64_t expect;	/* frames to receive, then return */
	uint64_t deadline_ns;	/* give up this long after the start */
	uint32_t frame_size;	/* every frame has this many bytes */
	uint32_t first_seq;	/* the first frame's sequence number */
	enum pb_scope scope;	/* THREAD: 1 thread; WARP: lanes threads; BLOCK: lanes threads */
	uint32_t lanes;		/* threads of the block (WARP: 1..32) */
	uint32_t legacy_stream; /* 1: launched with <<<>>> on the legacy default stream */
};

struct pb_tx_args {
	struct doca_gpu_eth_txq *txq;
	struct pb_ctl *ctl;	      /* GPU address */
	const uint64_t *rx_packets;   /* the receiver's count (GPU address) for the window; NULL: none */
	uint64_t *tickets;	      /* GPU address of count tickets (CPU_GPU memory), or NULL */
	uint64_t pkt_addr;	      /* GPU memory of 2 * round frames of frame_size bytes */
	uint64_t count;		      /* frames to send (without rates) */
	uint64_t cqe_base;	      /* completion position of this run's first round */
	uint64_t deadline_ns;	      /* give up this long after the start */
	uint64_t step_ns;	      /* with rates: each step's length */
	uint64_t rates[PB_MAX_STEPS]; /* frames per second of each step; nrates 0: as fast as possible */
	uint32_t nrates;
	uint32_t window; /* frames ahead of *rx_packets at most */
	uint32_t mkey_be;
	uint32_t frame_size;
	uint32_t round; /* frames per round: a multiple of lanes */
	enum pb_scope scope;
	uint32_t lanes; /* threads that send together (WARP: 1..32, a partial warp below 32) */
	uint8_t src_mac[6];
};

struct pb_dev_info {
	int cc_major, cc_minor, sm_count, clock_khz, can_map_host, concurrent_managed, pageable_access,
	    host_native_atomics;
	uint64_t timer_step_ns; /* smallest nonzero step of %globaltimer (CPU build: CLOCK_MONOTONIC) */
	const char *skipped;	/* why the values mean nothing here, or NULL */
};

#if defined(__CUDACC__)
#define PB_HD __host__ __device__ static inline
#else
#define PB_HD static inline
#endif

/* Payload byte @k (offset in the frame) of frame @seq. */
PB_HD uint8_t pb_pattern(uint32_t seq, uint32_t k)
{
	return (uint8_t)(seq * 131u + k * 7u + (seq >> 8));
}

/* Frame @seq of @size bytes at @p: broadcast, from @src, PB_ETHERTYPE, @seq, the pattern. */
PB_HD void pb_fill_frame(uint8_t *p, uint32_t size, uint32_t seq, const uint8_t src[6])
{
	for (int i = 0; i < 6; i++) {
		p[i] = 0xff;
		p[6 + i] = src[i];
	}
	p[12] = (uint8_t)(PB_ETHERTYPE >> 8);
	p[13] = (uint8_t)PB_ETHERTYPE;
	p[PB_SEQ_OFF] = (uint8_t)seq;
	p[PB_SEQ_OFF + 1] = (uint8_t)(seq >> 8);
	p[PB_SEQ_OFF + 2] = (uint8_t)(seq >> 16);
	p[PB_SEQ_OFF + 3] = (uint8_t)(seq >> 24);
	for (uint32_t k = PB_SEQ_OFF + 4; k < size; k++)
		p[k] = pb_pattern(seq, k);
}

/* The sequence number of the frame at @p. */
PB_HD uint32_t pb_frame_seq(const uint8_t *p)
{
	return (uint32_t)p[PB_SEQ_OFF] | (uint32_t)p[PB_SEQ_OFF + 1] << 8 | (uint32_t)p[PB_SEQ_OFF + 2] << 16 |
	       (uint32_t)p[PB_SEQ_OFF + 3] << 24;
}

/* Bytes [@from, @to) of the frame at @p that differ from frame @seq's pattern. */
PB_HD uint32_t pb_check_bytes(const uint8_t *p, uint32_t seq, uint32_t from, uint32_t to)
{
	uint32_t bad = 0;

	for (uint32_t k = from; k < to; k++)
		bad += p[k] != pb_pattern(seq, k);
	return bad;
}

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the receiver; returns once it runs. DOCA_ERROR_DRIVER when it could not be started. */
doca_error_t pb_rx_launch(const struct pb_rx_args *a);
/* Waits until the receiver returned (after done was seen); DOCA_ERROR_DRIVER on a CUDA error. */
doca_error_t pb_rx_wait(void);
doca_error_t pb_tx_launch(const struct pb_tx_args *a);
doca_error_t pb_tx_wait(void);
/* The GPU named @pci: attributes and the device clock's step. */
doca_error_t pb_device_info(const char *pci, struct pb_dev_info *out);
/* Copies between host memory and GPU memory (cudaMemcpy; the fake's GPU memory is host memory). */
doca_error_t pb_gpu_read(void *host, const void *gpu, size_t len);
doca_error_t pb_gpu_write(void *gpu, const void *host, size_t len);
/* What plays the kernels: "CUDA kernel" or the CPU stand-in. */
const char *pb_kind(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUNETIO_PROBE_H_ */
