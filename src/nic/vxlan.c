/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vxlan.c - the VXLAN header of the udp medium (vxlan.h): what a received datagram holds, and
 * the header of a sent one. Every datagram is untrusted bytes from the network: each field is
 * read once, the lengths are checked before the frame is named.
 */
#include "vxlan.h"

enum vxlan_verdict vxlan_parse(const uint8_t *buf, size_t len, uint32_t expected_vni, uint32_t max_frame,
			       const uint8_t **frame, uint32_t *frame_len)
{
	uint32_t vni;

	*frame = NULL;
	*frame_len = 0;
	if (buf == NULL || len < VXLAN_HDR_LEN + VXLAN_MIN_FRAME)
		return VXLAN_SHORT;
	if (buf[0] != VXLAN_FLAG_I)
		return VXLAN_FLAGS;
	vni = (uint32_t)buf[4] << 16 | (uint32_t)buf[5] << 8 | buf[6];
	if (vni != (expected_vni & VXLAN_VNI_MAX))
		return VXLAN_VNI;
	if (len - VXLAN_HDR_LEN > max_frame)
		return VXLAN_LONG;
	*frame = buf + VXLAN_HDR_LEN;
	*frame_len = (uint32_t)(len - VXLAN_HDR_LEN);
	return VXLAN_OK;
}

void vxlan_encap_header(uint8_t hdr[VXLAN_HDR_LEN], uint32_t vni)
{
	hdr[0] = VXLAN_FLAG_I;
	hdr[1] = hdr[2] = hdr[3] = 0;
	hdr[4] = (uint8_t)(vni >> 16);
	hdr[5] = (uint8_t)(vni >> 8);
	hdr[6] = (uint8_t)vni;
	hdr[7] = 0;
}

const char *vxlan_verdict_str(enum vxlan_verdict v)
{
	switch (v) {
	case VXLAN_OK:
		return "a frame of this port";
	case VXLAN_SHORT:
		return "shorter than a VXLAN header and an Ethernet header (22 bytes)";
	case VXLAN_FLAGS:
		return "VXLAN flags other than 0x08 (the I flag alone)";
	case VXLAN_VNI:
		return "of another VNI";
	case VXLAN_LONG:
		return "a frame longer than the port's MTU";
	default:
		return "?";
	}
}
