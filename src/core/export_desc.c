/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * export_desc.c - the PCI export descriptor codec (format in export.h).
 *
 * Kept apart from export.c so that the fuzz target and white-box tests can compile it alone:
 * it depends on nothing but libc and the DOCA headers. Integers are read and written byte by
 * byte, so the format does not depend on the host's byte order or on alignment.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <doca_types.h>

#include "export.h"

#define OFF_MAGIC   0
#define OFF_VERSION 8
#define OFF_LENGTH  10
#define OFF_FLAGS   12
#define OFF_ID	    16
#define OFF_PID	    32
#define OFF_MEMFD   36
#define OFF_START   40
#define OFF_PIDNS   48
#define OFF_ADDR    56
#define OFF_LEN	    64
#define OFF_ACCESS  72
#define OFF_UID	    76
#define OFF_DOMAIN  80
#define OFF_BUS	    82
#define OFF_DEV	    83
#define OFF_FN	    84
#define OFF_SIDE    85
#define OFF_RSVD    86
#define OFF_CSUM    88

_Static_assert(OFF_CSUM + 8 == EXPORT_DESC_LEN, "the checksum ends the descriptor");
_Static_assert(sizeof(EXPORT_DESC_MAGIC) - 1 == 8, "the magic is 8 bytes");

#define PCI_RIGHTS (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)

static void put(uint8_t *p, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

uint64_t export_desc_checksum(const uint8_t *bytes, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= bytes[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

void export_desc_encode(const struct export_desc *d, uint8_t out[EXPORT_DESC_LEN])
{
	memset(out, 0, EXPORT_DESC_LEN);
	memcpy(out + OFF_MAGIC, EXPORT_DESC_MAGIC, 8);
	put(out + OFF_VERSION, EXPORT_DESC_VERSION, 2);
	put(out + OFF_LENGTH, EXPORT_DESC_LEN, 2);
	memcpy(out + OFF_ID, d->id, EXPORT_ID_LEN);
	put(out + OFF_PID, (uint32_t)d->pid, 4);
	put(out + OFF_MEMFD, (uint32_t)d->memfd, 4);
	put(out + OFF_START, d->start_time, 8);
	put(out + OFF_PIDNS, d->pidns, 8);
	put(out + OFF_ADDR, d->addr, 8);
	put(out + OFF_LEN, d->len, 8);
	put(out + OFF_ACCESS, d->access, 4);
	put(out + OFF_UID, d->uid, 4);
	put(out + OFF_DOMAIN, d->domain, 2);
	out[OFF_BUS] = d->bus;
	out[OFF_DEV] = d->dev;
	out[OFF_FN] = d->fn;
	out[OFF_SIDE] = d->side;
	put(out + OFF_CSUM, export_desc_checksum(out, OFF_CSUM), 8);
}

static __attribute__((format(printf, 4, 5))) doca_error_t bad(struct export_desc *out, char *err, size_t err_len,
							      const char *fmt, ...)
{
	va_list ap;

	memset(out, 0, sizeof(*out));
	if (err != NULL && err_len > 0) {
		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t export_desc_decode(const void *bytes, size_t len, struct export_desc *out, char *err, size_t err_len)
{
	const uint8_t *p = bytes;
	uint64_t version, length, csum;

	if (p == NULL || len == 0)
		return bad(out, err, err_len, "empty descriptor");
	if (memcmp(p, EXPORT_DESC_MAGIC, len < 8 ? len : 8) != 0)
		return bad(out, err, err_len, "not a softdoca export descriptor (bad magic)");
	if (len < OFF_LENGTH + 2)
		return bad(out, err, err_len, "descriptor truncated to %zu bytes (a version %d descriptor has %d)", len,
			   EXPORT_DESC_VERSION, EXPORT_DESC_LEN);
	version = get(p + OFF_VERSION, 2);
	length = get(p + OFF_LENGTH, 2);
	if (version != EXPORT_DESC_VERSION)
		return bad(out, err, err_len,
			   "descriptor format version %u; this softdoca reads version %d (exporter and importer must "
			   "use compatible softdoca builds)",
			   (unsigned int)version, EXPORT_DESC_VERSION);
	if (length != EXPORT_DESC_LEN)
		return bad(out, err, err_len, "descriptor header says %u bytes; version %d descriptors have %d",
			   (unsigned int)length, EXPORT_DESC_VERSION, EXPORT_DESC_LEN);
	if (len != EXPORT_DESC_LEN)
		return bad(out, err, err_len,
			   "descriptor %s: %zu bytes given, %d expected; pass export_desc_len as "
			   "returned by doca_mmap_export_pci()",
			   len < EXPORT_DESC_LEN ? "truncated" : "too long", len, EXPORT_DESC_LEN);
	csum = get(p + OFF_CSUM, 8);
	if (csum != export_desc_checksum(p, OFF_CSUM))
		return bad(out, err, err_len, "descriptor corrupted (checksum mismatch)");
	if (get(p + OFF_FLAGS, 4) != 0 || get(p + OFF_RSVD, 2) != 0)
		return bad(out, err, err_len, "descriptor has reserved bits set");

	memcpy(out->id, p + OFF_ID, EXPORT_ID_LEN);
	out->pid = (int32_t)(uint32_t)get(p + OFF_PID, 4);
	out->memfd = (int32_t)(uint32_t)get(p + OFF_MEMFD, 4);
	out->start_time = get(p + OFF_START, 8);
	out->pidns = get(p + OFF_PIDNS, 8);
	out->addr = get(p + OFF_ADDR, 8);
	out->len = get(p + OFF_LEN, 8);
	out->access = (uint32_t)get(p + OFF_ACCESS, 4);
	out->uid = (uint32_t)get(p + OFF_UID, 4);
	out->domain = (uint16_t)get(p + OFF_DOMAIN, 2);
	out->bus = p[OFF_BUS];
	out->dev = p[OFF_DEV];
	out->fn = p[OFF_FN];
	out->side = p[OFF_SIDE];

	if (out->pid <= 0)
		return bad(out, err, err_len, "descriptor names pid %d", (int)(int32_t)get(p + OFF_PID, 4));
	if (out->memfd < 0)
		return bad(out, err, err_len, "descriptor names record fd %d", (int)(int32_t)get(p + OFF_MEMFD, 4));
	if (out->start_time == 0)
		return bad(out, err, err_len, "descriptor has no exporter start time");
	if (out->addr == 0 || out->len == 0 || out->addr + out->len < out->addr)
		return bad(out, err, err_len, "descriptor range 0x%llx + %llu is empty or wraps around",
			   (unsigned long long)get(p + OFF_ADDR, 8), (unsigned long long)get(p + OFF_LEN, 8));
	if ((out->access & PCI_RIGHTS) == 0 || (out->access & ~(uint32_t)PCI_RIGHTS) != 0)
		return bad(out, err, err_len, "descriptor rights 0x%x are not PCI rights",
			   (unsigned int)get(p + OFF_ACCESS, 4));
	if (out->dev > 0x1f || out->fn > 7)
		return bad(out, err, err_len, "descriptor names device %02x:%02x.%x, not a PCI address", p[OFF_BUS],
			   p[OFF_DEV], p[OFF_FN]);
	if (out->side != EXPORT_SIDE_DPU && out->side != EXPORT_SIDE_HOST)
		return bad(out, err, err_len, "descriptor names device side %u", p[OFF_SIDE]);
	return DOCA_SUCCESS;
}
