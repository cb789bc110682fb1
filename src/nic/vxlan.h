/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vxlan.h - the VXLAN framing of the udp medium (RFC 7348): an 8-byte header before each
 * Ethernet frame in a UDP datagram.
 *
 *   byte 0     flags: 0x08 (I, "the VNI is valid"); the other seven bits are reserved
 *   bytes 1-3  reserved, zero
 *   bytes 4-6  VNI, 24 bits, network order
 *   byte 7     reserved, zero
 *
 * vxlan.c depends on libc only: the parser of every datagram the udp medium receives, and
 * fuzzed as such (tests/fuzz/fuzz_vxlan.c).
 */
#ifndef SD_NIC_VXLAN_H_
#define SD_NIC_VXLAN_H_

#include <stddef.h>
#include <stdint.h>

#define VXLAN_HDR_LEN	8u
#define VXLAN_FLAG_I	0x08u
#define VXLAN_VNI_MAX	0xffffffu
#define VXLAN_UDP_PORT	4789u /* IANA */
#define VXLAN_MIN_FRAME 14u   /* an Ethernet header */

/* Why a datagram is not a frame of this port; VXLAN_OK when it is. */
enum vxlan_verdict {
	VXLAN_OK = 0,
	VXLAN_SHORT, /* fewer bytes than the header and an Ethernet header */
	VXLAN_FLAGS, /* the I flag clear, or a reserved flag set (an extension: GBP, GPE) */
	VXLAN_VNI,   /* another VNI */
	VXLAN_LONG,  /* the frame is longer than the port's MTU */
	VXLAN_VERDICTS
};

/*
 * Parses the datagram of @len bytes at @buf. VXLAN_OK: *frame points at the Ethernet frame inside
 * @buf, *frame_len is its length (VXLAN_MIN_FRAME..@max_frame). Otherwise *frame is NULL and
 * *frame_len 0. Reserved bytes are ignored, as RFC 7348 says a receiver does; a reserved flag bit
 * is not, as Linux drops such datagrams too (they carry an extension this port does not speak).
 * Reads nothing outside [buf, buf + len); pure.
 */
enum vxlan_verdict vxlan_parse(const uint8_t *buf, size_t len, uint32_t expected_vni, uint32_t max_frame,
			       const uint8_t **frame, uint32_t *frame_len);

/* Writes the header of a frame of VNI @vni (its low 24 bits): flags 0x08, reserved bytes zero. */
void vxlan_encap_header(uint8_t hdr[VXLAN_HDR_LEN], uint32_t vni);

/* What a verdict says of a datagram, for log lines: "of another VNI". */
const char *vxlan_verdict_str(enum vxlan_verdict v);

#endif /* SD_NIC_VXLAN_H_ */
