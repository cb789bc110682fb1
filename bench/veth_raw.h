/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * veth_raw.h - a veth pair for the afpacket benchmarks, and raw AF_PACKET over it: the
 * baseline softdoca's afpacket medium is measured against, in the same run.
 *
 * veth_make() needs root: it makes sdb<pid>a here and sdb<pid>b in a namespace sdb<pid> (IPv6
 * off on both, so the kernel sends nothing of its own) and deletes both at exit or on SIGINT /
 * SIGTERM. veth_config() writes a SOFTDOCA_CONFIG putting device 03:00.0 on the a end and
 * 03:00.1 on the b end (medium afpacket).
 *
 * veth_raw_run(): a sender thread sends @nframes frames of @size bytes (back to back at @frames), in
 * turn, from the a end in bursts of 32 for
 * @secs seconds with sendmmsg and PACKET_QDISC_BYPASS, the way the medium sends; a receiver
 * thread takes frames from the b end through a TPACKET_V3 ring of 16 MiB (1 ms block timeout),
 * reading every packet, and poll()s when the ring is empty, the way the medium receives.
 */
#ifndef SD_BENCH_VETH_RAW_H_
#define SD_BENCH_VETH_RAW_H_

#include <stdbool.h>
#include <stdint.h>

struct veth {
	char a[16], b[16], ns[16];
};

struct veth_result {
	uint64_t sent, tx_full;	  /* frames sendmmsg took; frames it refused (the burst's rest) */
	uint64_t received, drops; /* frames read from the ring; the kernel's tp_drops */
	uint64_t send_ns;	  /* the sender's time */
};

/* 0, or -1 with a line on stderr. */
int veth_make(struct veth *v);
/* Writes the topology to a new file made from @path_template (mkstemp); 0 or -1. */
int veth_config(const struct veth *v, char *path_template, const char *extra);
/* @pin: the receiver on CPU 0 and the sender on CPU 1, as eth_bench pins its threads. */
void veth_raw_run(const struct veth *v, const uint8_t *frames, uint32_t nframes, uint32_t size, double secs, bool pin,
		  struct veth_result *out);

#endif
