/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_vxlan.c - the udp medium's datagram parser (src/nic/vxlan.c): the header it writes is
 * RFC 7348's (flags 0x08, reserved bytes zero, the VNI in bytes 4-6), and every datagram it is
 * given is a frame only when its flags, VNI and length are right:
 *
 *   header     vxlan_encap_header() for VNIs 0, 1, 0x123456, 0xffffff, and a VNI over 24 bits
 *              keeps its low 24
 *   good       a header and frames of 14 .. max bytes: the frame is the bytes after the header
 *   short      0 .. 21 bytes: VXLAN_SHORT, frame NULL
 *   flags      I clear (0x00), I with a reserved bit (0x88, 0x0c, 0x09), all (0xff): VXLAN_FLAGS
 *   reserved   reserved bytes 1-3 and 7 set: still a frame (RFC 7348: ignored on receipt)
 *   vni        one bit off in each of the 24: VXLAN_VNI
 *   long       max + 1 and more: VXLAN_LONG; the largest the parser accepts is max exactly
 *   every cut  each prefix of a good datagram: a frame or a refusal, never a read past the
 *              length (run under ASan, the buffer ends where the datagram does)
 */
#include <stdlib.h>
#include <string.h>

#include "../common/sd_test.h"
#include "vxlan.h"

static void test_header(void)
{
	uint8_t h[VXLAN_HDR_LEN];
	static const uint32_t vnis[] = {0, 1, 0x123456, 0xffffff};

	for (size_t i = 0; i < sizeof(vnis) / sizeof(vnis[0]); i++) {
		uint8_t want[8] = {0x08, 0, 0, 0, (uint8_t)(vnis[i] >> 16), (uint8_t)(vnis[i] >> 8), (uint8_t)vnis[i],
				   0};

		memset(h, 0xee, sizeof(h));
		vxlan_encap_header(h, vnis[i]);
		CHECK_MEM(h, want, 8);
	}
	vxlan_encap_header(h, 0x7abcdef);
	CHECK_MEM(h, "\x08\x00\x00\x00\xab\xcd\xef\x00", 8);
}

/* @len bytes on the heap, so ASan sees a read past them. */
static uint8_t *dgram(const uint8_t *src, size_t len)
{
	uint8_t *d = malloc(len ? len : 1);

	CHECK(d != NULL);
	if (len)
		memcpy(d, src, len);
	return d;
}

static enum vxlan_verdict parse(const uint8_t *src, size_t len, uint32_t vni, uint32_t max, uint32_t *flen, size_t *off)
{
	uint8_t *d = dgram(src, len);
	const uint8_t *f = (const uint8_t *)1;
	enum vxlan_verdict v = vxlan_parse(d, len, vni, max, &f, flen);

	if (v == VXLAN_OK) {
		CHECK(f == d + VXLAN_HDR_LEN);
		*off = (size_t)(f - d);
	} else {
		CHECK(f == NULL);
		CHECK_EQ(*flen, 0);
	}
	free(d);
	return v;
}

int main(void)
{
	static uint8_t buf[VXLAN_HDR_LEN + 9216 + 16];
	const uint32_t vni = 0x00a1b2, max = 1514;
	uint32_t flen;
	size_t off = 0;

	test_header();
	vxlan_encap_header(buf, vni);
	for (size_t i = VXLAN_HDR_LEN; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7);

	/* good: every frame size the port takes */
	for (uint32_t n = VXLAN_MIN_FRAME; n <= max; n++) {
		CHECK_EQ(parse(buf, VXLAN_HDR_LEN + n, vni, max, &flen, &off), VXLAN_OK);
		CHECK_EQ(flen, n);
		CHECK_EQ(off, VXLAN_HDR_LEN);
	}
	CHECK_EQ(parse(buf, VXLAN_HDR_LEN + 9216, vni, 9216, &flen, &off), VXLAN_OK);
	/* short: every cut below a header and an Ethernet header, and no buffer at all */
	for (size_t n = 0; n < VXLAN_HDR_LEN + VXLAN_MIN_FRAME; n++)
		CHECK_EQ(parse(buf, n, vni, max, &flen, &off), VXLAN_SHORT);
	{
		const uint8_t *f = (const uint8_t *)1;

		CHECK_EQ(vxlan_parse(NULL, 100, vni, max, &f, &flen), VXLAN_SHORT);
		CHECK(f == NULL);
	}
	/* long */
	CHECK_EQ(parse(buf, VXLAN_HDR_LEN + max + 1, vni, max, &flen, &off), VXLAN_LONG);
	CHECK_EQ(parse(buf, sizeof(buf), vni, max, &flen, &off), VXLAN_LONG);
	CHECK_EQ(parse(buf, VXLAN_HDR_LEN + 9217, vni, 9216, &flen, &off), VXLAN_LONG);
	/* flags */
	{
		static const uint8_t bad[] = {0x00, 0x88, 0x0c, 0x09, 0xff, 0x80, 0x04};

		for (size_t i = 0; i < sizeof(bad); i++) {
			uint8_t d[64];

			memcpy(d, buf, sizeof(d));
			d[0] = bad[i];
			CHECK_EQ(parse(d, sizeof(d), vni, max, &flen, &off), VXLAN_FLAGS);
		}
	}
	/* reserved bytes are ignored */
	{
		uint8_t d[64];

		memcpy(d, buf, sizeof(d));
		d[1] = d[2] = d[3] = d[7] = 0xff;
		CHECK_EQ(parse(d, sizeof(d), vni, max, &flen, &off), VXLAN_OK);
		CHECK_EQ(flen, 64 - VXLAN_HDR_LEN);
	}
	/* VNI: each of its 24 bits */
	for (int bit = 0; bit < 24; bit++) {
		uint8_t d[64];

		memcpy(d, buf, sizeof(d));
		d[6 - bit / 8] ^= (uint8_t)(1u << (bit % 8));
		CHECK_EQ(parse(d, sizeof(d), vni, max, &flen, &off), VXLAN_VNI);
		/* and the VNI it holds is the one its header says */
		CHECK_EQ(parse(d, sizeof(d), vni ^ (1u << bit), max, &flen, &off), VXLAN_OK);
	}
	/* the expected VNI is taken modulo 24 bits, as the header writes it */
	CHECK_EQ(parse(buf, 64, vni | 0x5000000u, max, &flen, &off), VXLAN_OK);
	for (int v = VXLAN_OK; v <= VXLAN_VERDICTS; v++)
		CHECK(vxlan_verdict_str((enum vxlan_verdict)v)[0] != '\0');
	printf("vxlan: ok\n");
	return 0;
}
