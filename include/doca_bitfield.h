/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_bitfield.h - byte-order conversion and bitfield helpers for device-format words.
 *
 * Header-only. Big-endian words (doca_be16_t, doca_be32_t) are what devices and wire formats
 * hold; masks are "shifted masks": the field's bits set in place, e.g. bits 11..4 of a 16-bit
 * word are DOCA_BE16_GENMASK(11, 4). SET returns the field value placed under its mask (OR it
 * into the word; the P variants OR it into the word at a pointer); GET extracts a field as a
 * host-order value.
 *
 * Every macro is a constant expression when its arguments are, so masks can be built at
 * compile time. Arguments may be evaluated more than once: pass no expressions with side
 * effects.
 */
#ifndef DOCA_BITFIELD_H_
#define DOCA_BITFIELD_H_

#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h> /* DOCA's doca_bitfield.h includes it */

#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Position of the lowest set bit of @_x (0 for 0). */
#define DOCA_SHIFT(_x) ((_x) ? __builtin_ctzll((unsigned long long)(_x)) : 0)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/** Host order to big endian, 16 bits. */
#define DOCA_HTOBE16(_x) __builtin_bswap16((uint16_t)(_x))
/** Host order to big endian, 32 bits. */
#define DOCA_HTOBE32(_x) __builtin_bswap32((uint32_t)(_x))
/** Host order to big endian, 64 bits. */
#define DOCA_HTOBE64(_x) __builtin_bswap64((uint64_t)(_x))
#else
#define DOCA_HTOBE16(_x) ((uint16_t)(_x))
#define DOCA_HTOBE32(_x) ((uint32_t)(_x))
#define DOCA_HTOBE64(_x) ((uint64_t)(_x))
#endif
/** Big endian to host order, 16 bits. */
#define DOCA_BETOH16(_x) DOCA_HTOBE16(_x)
/** Big endian to host order, 32 bits. */
#define DOCA_BETOH32(_x) DOCA_HTOBE32(_x)
/** Big endian to host order, 64 bits. */
#define DOCA_BETOH64(_x) DOCA_HTOBE64(_x)

/** Bits @_l..@_h (inclusive, 0 = least significant) of a byte, e.g. (7, 4) -> 0xf0. */
#define DOCA_U8_GENMASK(_h, _l) ((uint8_t)((0xffu << (_l)) & (0xffu >> (7 - (_h)))))
/** Stores DOCA_U8_GENMASK(@_h, @_l) at @_p (uint8_t *). */
#define DOCA_U8P_GENMASK(_h, _l, _p)                                                                                   \
	do {                                                                                                           \
		*(uint8_t *)(_p) = DOCA_U8_GENMASK((_h), (_l));                                                        \
	} while (0)

/** Bits @_l..@_h of a 16-bit word, as a big-endian mask, e.g. (11, 4) -> htons(0x0ff0). */
#define DOCA_BE16_GENMASK(_h, _l) ((doca_be16_t)DOCA_HTOBE16((0xffffu << (_l)) & (0xffffu >> (15 - (_h)))))
/** Stores DOCA_BE16_GENMASK(@_h, @_l) at @_p (doca_be16_t *). */
#define DOCA_BE16P_GENMASK(_h, _l, _p)                                                                                 \
	do {                                                                                                           \
		*(doca_be16_t *)(_p) = DOCA_BE16_GENMASK((_h), (_l));                                                  \
	} while (0)

/** Bits @_l..@_h of a 32-bit word, as a big-endian mask, e.g. (23, 4) -> htonl(0x00fffff0). */
#define DOCA_BE32_GENMASK(_h, _l) ((doca_be32_t)DOCA_HTOBE32((UINT32_MAX << (_l)) & (UINT32_MAX >> (31 - (_h)))))
/** Stores DOCA_BE32_GENMASK(@_h, @_l) at @_p (doca_be32_t *). */
#define DOCA_BE32P_GENMASK(_h, _l, _p)                                                                                 \
	do {                                                                                                           \
		*(doca_be32_t *)(_p) = DOCA_BE32_GENMASK((_h), (_l));                                                  \
	} while (0)

/** Host value @_v placed in the byte field of mask @_m (bits outside the mask dropped). */
#define DOCA_U8_SET(_m, _v) ((uint8_t)(((_v) << DOCA_SHIFT(_m)) & (_m)))
/** ORs DOCA_U8_SET(@_m, @_v) into the byte at @_p. */
#define DOCA_U8P_SET(_m, _v, _p)                                                                                       \
	do {                                                                                                           \
		*(uint8_t *)(_p) |= DOCA_U8_SET((_m), (_v));                                                           \
	} while (0)

/** Host value @_v placed in the field of big-endian mask @_m, as a big-endian word. */
#define DOCA_BE16_SET(_m, _v) ((doca_be16_t)(DOCA_HTOBE16((uint32_t)(_v) << DOCA_SHIFT(DOCA_BETOH16(_m))) & (_m)))
/** ORs DOCA_BE16_SET(@_m, @_v) into the big-endian word at @_p (doca_be16_t *). */
#define DOCA_BE16P_SET(_m, _v, _p)                                                                                     \
	do {                                                                                                           \
		*(doca_be16_t *)(_p) |= DOCA_BE16_SET((_m), (_v));                                                     \
	} while (0)

/** Host value @_v placed in the field of big-endian mask @_m, as a big-endian word. */
#define DOCA_BE32_SET(_m, _v) ((doca_be32_t)(DOCA_HTOBE32((uint64_t)(_v) << DOCA_SHIFT(DOCA_BETOH32(_m))) & (_m)))
/** ORs DOCA_BE32_SET(@_m, @_v) into the big-endian word at @_p (doca_be32_t *). */
#define DOCA_BE32P_SET(_m, _v, _p)                                                                                     \
	do {                                                                                                           \
		*(doca_be32_t *)(_p) |= DOCA_BE32_SET((_m), (_v));                                                     \
	} while (0)

/** The field of mask @_m in byte @_f, shifted down to a host value. */
#define DOCA_U8_GET(_m, _f) ((uint8_t)(((_m) & (_f)) >> DOCA_SHIFT(_m)))
/** The field of big-endian mask @_m in big-endian word @_f, as a host value. */
#define DOCA_BE16_GET(_m, _f) ((uint16_t)(DOCA_BETOH16((_m) & (_f)) >> DOCA_SHIFT(DOCA_BETOH16(_m))))
/** The field of big-endian mask @_m in big-endian word @_f, as a host value. */
#define DOCA_BE32_GET(_m, _f) ((uint32_t)(DOCA_BETOH32((_m) & (_f)) >> DOCA_SHIFT(DOCA_BETOH32(_m))))

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BITFIELD_H_ */
