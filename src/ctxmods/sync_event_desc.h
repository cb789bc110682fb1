/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_event_desc.h - what two processes sharing a sync event exchange: the export blob of
 * doca_sync_event_export_to_remote_pci() and the page both map (model in sync_event.c, user's
 * view in docs/sync-event.md). The codec and the importer's check of the page are pure
 * functions (sync_event_desc.c), fuzzed by tests/fuzz/fuzz_sync_event_export.c and
 * fuzz_sync_event_page.c.
 */
#ifndef SD_SYNC_EVENT_DESC_H_
#define SD_SYNC_EVENT_DESC_H_

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "export.h"

/*
 * The export blob: an mmap export descriptor of the page (EXPORT_DESC_LEN bytes, export.h),
 * then a trailer of SE_TRAILER_LEN bytes, integers little-endian:
 *
 *   off size field (offsets in the trailer)
 *     0    8 magic "SDOCASE1"
 *     8    1 version (1)   9 1 reserved, 0
 *    10    1 trailer length (48)   11 1 reserved, 0
 *    12    4 reserved, 0
 *    16   16 the page's id (struct se_shm.id)
 *    32    4 exporter's fd number of the page's memfd
 *    36    4 reserved, 0
 *    40    8 checksum: FNV-1a 64 of the blob's bytes 0..135 (both parts)
 */
#define SE_TRAILER_MAGIC   "SDOCASE1"
#define SE_TRAILER_VERSION 1
#define SE_TRAILER_LEN	   48
#define SE_DESC_LEN	   (EXPORT_DESC_LEN + SE_TRAILER_LEN)
#define SE_ID_LEN	   16

#define SE_SHM_MAGIC 0x31455341434f4453ull /* "SDOCASE1" */

enum se_shm_state { SE_LIVE = 1, SE_DESTROYED = 2 };

/*
 * The page both processes map. magic, id and self_addr are written once by the creator before
 * any export exists; the importer reads them once, at import (a private copy). The rest is
 * written by both at any time: every value of value, seq and sleepers is legal, and state is
 * read per operation (anything but SE_LIVE ends the event for the reader).
 */
struct se_shm {
	uint64_t magic;
	uint8_t id[SE_ID_LEN];
	uint64_t self_addr; /* where the creator maps the page: the start of its mmap export */
	_Atomic uint32_t state;
	_Alignas(64) _Atomic uint64_t value;
	_Alignas(64) _Atomic uint32_t seq; /* futex word: bumped after every change */
	_Atomic uint32_t sleepers;	   /* threads (any process) sleeping on seq */
};

struct se_export_desc {
	struct export_desc mmap; /* the first part, decoded by export_desc_decode() */
	uint8_t id[SE_ID_LEN];
	int32_t memfd;
};

/* Writes the trailer of @desc (whose first EXPORT_DESC_LEN bytes hold the mmap descriptor). */
void se_export_encode(const uint8_t id[SE_ID_LEN], int memfd, uint8_t desc[SE_DESC_LEN]);

/*
 * Parses @len bytes at @bytes: both parts. A pure function of its input: reads nothing past
 * @len, touches no global state. DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE with the reason in
 * @err (NUL-terminated, truncated to @err_len; @out is then zeroed).
 */
doca_error_t se_export_decode(const void *bytes, size_t len, struct se_export_desc *out, char *err, size_t err_len);

enum se_page_verdict {
	SE_PAGE_OK,	   /* this event's page, LIVE */
	SE_PAGE_NOT_OURS,  /* magic, id or address differ: the fd holds another page (stale or forged) */
	SE_PAGE_DESTROYED, /* the creator destroyed the event */
	SE_PAGE_BROKEN,	   /* the state word is neither LIVE nor DESTROYED: a rule broken by the creator */
};

/*
 * The importer's check of @page, a private copy of the shared page, against the id of the
 * export and the start of the exported range @addr. Pure; writes only @why (the rule, or "").
 */
enum se_page_verdict se_page_check(const struct se_shm *page, const uint8_t id[SE_ID_LEN], uint64_t addr, char *why,
				   size_t why_len);

#endif /* SD_SYNC_EVENT_DESC_H_ */
