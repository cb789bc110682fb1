/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_event_desc.c - the sync event export codec and the importer's check of the shared page
 * (formats in sync_event_desc.h). Depends on libc, the DOCA headers and export_desc.c only, so
 * that the fuzz targets compile it alone. Integers are read and written byte by byte.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sync_event_desc.h"

#define T_MAGIC	  0
#define T_VERSION 8
#define T_LENGTH  10
#define T_ID	  16
#define T_MEMFD	  32
#define T_CSUM	  40

_Static_assert(T_CSUM + 8 == SE_TRAILER_LEN, "the checksum ends the trailer");
_Static_assert(sizeof(SE_TRAILER_MAGIC) - 1 == 8, "the magic is 8 bytes");

static void say(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (err_len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

void se_export_encode(const uint8_t id[SE_ID_LEN], int memfd, uint8_t desc[SE_DESC_LEN])
{
	uint8_t *t = desc + EXPORT_DESC_LEN;
	uint64_t sum;

	memset(t, 0, SE_TRAILER_LEN);
	memcpy(t + T_MAGIC, SE_TRAILER_MAGIC, 8);
	t[T_VERSION] = SE_TRAILER_VERSION;
	t[T_LENGTH] = SE_TRAILER_LEN;
	memcpy(t + T_ID, id, SE_ID_LEN);
	for (int i = 0; i < 4; i++)
		t[T_MEMFD + i] = (uint8_t)((uint32_t)memfd >> (8 * i));
	sum = export_desc_checksum(desc, SE_DESC_LEN - 8);
	for (int i = 0; i < 8; i++)
		t[T_CSUM + i] = (uint8_t)(sum >> (8 * i));
}

doca_error_t se_export_decode(const void *bytes, size_t len, struct se_export_desc *out, char *err, size_t err_len)
{
	const uint8_t *desc = bytes, *t;
	uint64_t sum = 0;
	uint32_t fd = 0;
	char why[160];

	memset(out, 0, sizeof(*out));
	if (err_len > 0)
		err[0] = '\0';
	if (len != SE_DESC_LEN) {
		say(err, err_len,
		    "%zu bytes of export data; a softdoca sync event export is %d bytes: pass exactly what "
		    "doca_sync_event_export_to_remote_pci() returned",
		    len, SE_DESC_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	t = desc + EXPORT_DESC_LEN;
	if (memcmp(t + T_MAGIC, SE_TRAILER_MAGIC, 8) != 0) {
		say(err, err_len,
		    "not a sync event export (no sync event part); pass the bytes of "
		    "doca_sync_event_export_to_remote_pci(), not those of doca_mmap_export_pci()");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (int i = 0; i < 8; i++)
		sum |= (uint64_t)t[T_CSUM + i] << (8 * i);
	if (sum != export_desc_checksum(desc, SE_DESC_LEN - 8)) {
		say(err, err_len, "the export data is corrupted (checksum mismatch); pass the bytes unchanged");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t[T_VERSION] != SE_TRAILER_VERSION || t[T_VERSION + 1] != 0 || t[T_LENGTH] != SE_TRAILER_LEN ||
	    t[T_LENGTH + 1] != 0) {
		say(err, err_len,
		    "export data of version %u; this softdoca reads version %d (use the same softdoca on both sides)",
		    t[T_VERSION], SE_TRAILER_VERSION);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (int i = 12; i < 16; i++) {
		if (t[i] != 0 || t[T_MEMFD + 4 + (i - 12)] != 0) {
			say(err, err_len, "reserved bytes are set; data corrupted");
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	for (int i = 0; i < 4; i++)
		fd |= (uint32_t)t[T_MEMFD + i] << (8 * i);
	if ((int32_t)fd < 0) {
		say(err, err_len, "bad fd number %d in the export data", (int32_t)fd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (export_desc_decode(desc, EXPORT_DESC_LEN, &out->mmap, why, sizeof(why)) != DOCA_SUCCESS) {
		memset(out, 0, sizeof(*out));
		say(err, err_len, "its mmap part: %s", why);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(out->id, t + T_ID, SE_ID_LEN);
	out->memfd = (int32_t)fd;
	return DOCA_SUCCESS;
}

enum se_page_verdict se_page_check(const struct se_shm *page, const uint8_t id[SE_ID_LEN], uint64_t addr, char *why,
				   size_t why_len)
{
	uint32_t state = atomic_load_explicit(&page->state, memory_order_relaxed);

	if (why_len > 0)
		why[0] = '\0';
	if (page->magic != SE_SHM_MAGIC || memcmp(page->id, id, SE_ID_LEN) != 0 || page->self_addr != addr) {
		say(why, why_len, "not the page of this event");
		return SE_PAGE_NOT_OURS;
	}
	if (state == SE_DESTROYED) {
		say(why, why_len, "destroyed");
		return SE_PAGE_DESTROYED;
	}
	if (state != SE_LIVE) {
		say(why, why_len, "state word %u is neither LIVE (%d) nor DESTROYED (%d)", state, SE_LIVE,
		    SE_DESTROYED);
		return SE_PAGE_BROKEN;
	}
	return SE_PAGE_OK;
}
