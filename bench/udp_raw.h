/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp_raw.h - two UDP sockets on the loopback for the udp medium's benchmark, and raw
 * sendmmsg/recvmmsg between them: the baseline the medium is measured against, in the same run.
 *
 * udp_raw_config() picks two free ports on 127.0.0.1 and writes a SOFTDOCA_CONFIG cabling
 * 03:00.0 and 03:00.1 over udp between them. udp_raw_run(): a sender thread sends @nframes
 * frames of @size bytes (back to back at @frames) in turn, each behind an 8-byte VXLAN header in
 * a datagram of its own, 64 to a sendmmsg(MSG_DONTWAIT), for @secs seconds; a receiver thread
 * takes them with recvmmsg(MSG_DONTWAIT) 64 at a time into buffers of its own and reads each
 * one's first byte, busy-polling as eth_bench's receiver does: the medium's system calls
 * without the medium.
 */
#ifndef SD_BENCH_UDP_RAW_H_
#define SD_BENCH_UDP_RAW_H_

#include <stdbool.h>
#include <stdint.h>

#include "veth_raw.h" /* struct veth_result */

/* Writes the topology to a new file made from @path_template (mkstemp); 0 or -1. */
int udp_raw_config(char *path_template);
/* @pin: the receiver on CPU 0 and the sender on CPU 1, as eth_bench pins its threads. */
void udp_raw_run(const uint8_t *frames, uint32_t nframes, uint32_t size, double secs, bool pin,
		 struct veth_result *out);

#endif
