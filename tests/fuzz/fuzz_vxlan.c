/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_vxlan.c - libFuzzer target for the udp medium's datagram parser (src/nic/vxlan.c), which
 * every datagram a udp port receives goes through, whoever sent it.
 *
 * The input is the datagram. It is parsed against the VNI its own header holds and against
 * another, with the MTU of a small and of the largest port, and the contract of vxlan.h is
 * checked beyond the sanitizers: a frame exactly when the length is 22..8 + MTU, the flags byte
 * is 0x08 and the VNI is the expected one; the frame is then the bytes after the header; a
 * refusal names the first rule broken and leaves no frame; the header the medium writes for a
 * VNI parses back as that VNI.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vxlan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

static void one(const uint8_t *d, size_t n, uint32_t vni, uint32_t mtu)
{
	const uint8_t *f = (const uint8_t *)d;
	uint32_t flen = 12345;
	enum vxlan_verdict v = vxlan_parse(d, n, vni, mtu, &f, &flen), want;

	if (n < VXLAN_HDR_LEN + VXLAN_MIN_FRAME)
		want = VXLAN_SHORT;
	else if (d[0] != VXLAN_FLAG_I)
		want = VXLAN_FLAGS;
	else if (((uint32_t)d[4] << 16 | (uint32_t)d[5] << 8 | d[6]) != (vni & VXLAN_VNI_MAX))
		want = VXLAN_VNI;
	else if (n - VXLAN_HDR_LEN > mtu)
		want = VXLAN_LONG;
	else
		want = VXLAN_OK;
	check(v == want);
	if (v == VXLAN_OK) {
		check(f == d + VXLAN_HDR_LEN && flen == n - VXLAN_HDR_LEN);
		check(flen >= VXLAN_MIN_FRAME && flen <= mtu);
	} else {
		check(f == NULL && flen == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly @size bytes: a read past the datagram is a heap overflow */
	uint8_t *d = calloc(1, size ? size : 1);
	uint32_t own = size >= 7 ? (uint32_t)data[4] << 16 | (uint32_t)data[5] << 8 | data[6] : 0;

	if (d == NULL)
		return 0;
	if (size)
		memcpy(d, data, size);
	one(d, size, own, 1514);
	one(d, size, own, 9216);
	one(d, size, own ^ 0x800001u, 1514);
	one(d, size, own | 0xff000000u, 64);
	/* the header written for the VNI the input holds parses back, with the input's bytes after it */
	if (size >= VXLAN_HDR_LEN + VXLAN_MIN_FRAME) {
		const uint8_t *f;
		uint32_t flen;

		vxlan_encap_header(d, own);
		check(vxlan_parse(d, size, own, 9216, &f, &flen) ==
		      (size - VXLAN_HDR_LEN <= 9216 ? VXLAN_OK : VXLAN_LONG));
		check(d[1] == 0 && d[2] == 0 && d[3] == 0 && d[7] == 0);
	}
	free(d);
	return 0;
}
