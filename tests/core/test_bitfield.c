/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bitfield.c - doca_bitfield.h: byte order and bitfield macros.
 *
 * Byte order is checked against the bytes in memory (a big-endian word keeps its most
 * significant byte first), not against another conversion routine. Bitfields are checked by
 * packing fields into device-format words and reading them back, against masks computed bit by
 * bit here, including the compile-time use programs make of the mask macros.
 */
#include <stdint.h>
#include <string.h>

#include <doca_bitfield.h>

#include "../common/sd_test.h"

/* A device-format header word: a 4-bit version, a 12-bit length (16 bits); 8/20/4 (32 bits). */
#define HDR_VERSION DOCA_BE16_GENMASK(15, 12)
#define HDR_LENGTH  DOCA_BE16_GENMASK(11, 0)
#define W_TYPE	    DOCA_BE32_GENMASK(31, 24)
#define W_INDEX	    DOCA_BE32_GENMASK(23, 4)
#define W_FLAGS	    DOCA_BE32_GENMASK(3, 0)
#define B_HI	    DOCA_U8_GENMASK(7, 4)
#define B_LO	    DOCA_U8_GENMASK(3, 0)

/* Usable where C requires constant expressions. */
static const doca_be32_t const_mask = DOCA_BE32_GENMASK(23, 4);
_Static_assert(DOCA_U8_GENMASK(7, 4) == 0xf0, "U8 mask is a constant expression");

static uint64_t mask_bits(int h, int l)
{
	uint64_t m = 0;

	for (int b = l; b <= h; b++)
		m |= UINT64_C(1) << b;
	return m;
}

static void check_bytes(const void *p, const uint8_t *want, size_t n)
{
	CHECK_MEM(p, want, n);
}

static void test_byte_order(void)
{
	volatile uint16_t v16 = 0x1234; /* volatile: the run-time path, not only folding */
	volatile uint32_t v32 = 0x12345678;
	volatile uint64_t v64 = 0x0102030405060708ull;
	uint16_t b16 = DOCA_HTOBE16(v16);
	uint32_t b32 = DOCA_HTOBE32(v32);
	uint64_t b64 = DOCA_HTOBE64(v64);
	static const uint8_t w16[] = {0x12, 0x34}, w32[] = {0x12, 0x34, 0x56, 0x78},
			     w64[] = {1, 2, 3, 4, 5, 6, 7, 8};

	check_bytes(&b16, w16, 2);
	check_bytes(&b32, w32, 4);
	check_bytes(&b64, w64, 8);
	CHECK(DOCA_BETOH16(b16) == 0x1234);
	CHECK(DOCA_BETOH32(b32) == 0x12345678);
	CHECK(DOCA_BETOH64(b64) == 0x0102030405060708ull);
	/* The same as the libc conversions the header documents itself against. */
	CHECK(DOCA_HTOBE16(v16) == htons(v16));
	CHECK(DOCA_HTOBE32(v32) == htonl(v32));
	CHECK(DOCA_HTOBE32(0xa1b2c3d4u) == htonl(0xa1b2c3d4u));
}

static void test_shift_and_masks(void)
{
	CHECK(DOCA_SHIFT(0) == 0);
	for (int b = 0; b < 64; b++)
		CHECK(DOCA_SHIFT(UINT64_C(1) << b) == b);
	CHECK(DOCA_SHIFT(0xf0) == 4);

	for (int h = 0; h < 8; h++)
		for (int l = 0; l <= h; l++)
			CHECK(DOCA_U8_GENMASK(h, l) == mask_bits(h, l));
	for (int h = 0; h < 16; h++)
		for (int l = 0; l <= h; l++)
			CHECK(DOCA_BETOH16(DOCA_BE16_GENMASK(h, l)) == mask_bits(h, l));
	for (int h = 0; h < 32; h++)
		for (int l = 0; l <= h; l++)
			CHECK(DOCA_BETOH32(DOCA_BE32_GENMASK(h, l)) == mask_bits(h, l));
	CHECK(const_mask == htonl(0x00fffff0));
	CHECK(DOCA_BE16_GENMASK(11, 4) == htons(0x0ff0));

	uint8_t u8 = 0;
	doca_be16_t be16 = 0;
	doca_be32_t be32 = 0;

	DOCA_U8P_GENMASK(5, 2, &u8);
	CHECK(u8 == 0x3c);
	DOCA_BE16P_GENMASK(15, 8, &be16);
	CHECK(be16 == htons(0xff00));
	DOCA_BE32P_GENMASK(31, 31, &be32);
	CHECK(be32 == htonl(0x80000000u));
}

static void test_set_get(void)
{
	/* 16-bit header: version 6, length 0xabc. */
	doca_be16_t hdr = DOCA_BE16_SET(HDR_VERSION, 6) | DOCA_BE16_SET(HDR_LENGTH, 0xabc);
	static const uint8_t hdr_bytes[] = {0x6a, 0xbc};

	check_bytes(&hdr, hdr_bytes, 2);
	CHECK(DOCA_BE16_GET(HDR_VERSION, hdr) == 6);
	CHECK(DOCA_BE16_GET(HDR_LENGTH, hdr) == 0xabc);
	/* A value wider than its field is cut to the field. */
	CHECK(DOCA_BE16_SET(HDR_VERSION, 0x1f) == DOCA_BE16_SET(HDR_VERSION, 0xf));

	/* 32-bit word through the pointer forms: fields OR into what is there. */
	doca_be32_t w = 0;

	DOCA_BE32P_SET(W_TYPE, 0x5a, &w);
	DOCA_BE32P_SET(W_INDEX, 0x12345, &w);
	DOCA_BE32P_SET(W_FLAGS, 0x9, &w);
	static const uint8_t w_bytes[] = {0x5a, 0x12, 0x34, 0x59};

	check_bytes(&w, w_bytes, 4);
	CHECK(DOCA_BE32_GET(W_TYPE, w) == 0x5a);
	CHECK(DOCA_BE32_GET(W_INDEX, w) == 0x12345);
	CHECK(DOCA_BE32_GET(W_FLAGS, w) == 0x9);
	CHECK(DOCA_BE32_SET(W_TYPE, 0xff) == DOCA_BE32_GENMASK(31, 24)); /* a full top field */

	doca_be16_t h2 = 0;

	DOCA_BE16P_SET(HDR_LENGTH, 1, &h2);
	CHECK(DOCA_BE16_GET(HDR_LENGTH, h2) == 1 && DOCA_BE16_GET(HDR_VERSION, h2) == 0);

	uint8_t b = DOCA_U8_SET(B_HI, 0xc) | DOCA_U8_SET(B_LO, 0x3);

	CHECK(b == 0xc3);
	CHECK(DOCA_U8_GET(B_HI, b) == 0xc && DOCA_U8_GET(B_LO, b) == 0x3);
	b = 0;
	DOCA_U8P_SET(B_LO, 0x7, &b);
	DOCA_U8P_SET(B_HI, 0x1, &b);
	CHECK(b == 0x17);

	/* Statement macros are single statements (if/else without braces). */
	if (b == 0)
		DOCA_U8P_SET(B_LO, 1, &b);
	else
		DOCA_U8P_SET(B_HI, 0xf, &b);
	CHECK(b == 0xf7);
}

int main(void)
{
	test_byte_order();
	test_shift_and_masks();
	test_set_get();
	printf("bitfield: ok\n");
	return T_EXIT_PASS;
}
