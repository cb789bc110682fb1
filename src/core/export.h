/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * export.h - cross-process memory: the PCI export descriptor, the exporter's export record, and
 * the importer's view of an exporter (from-export mmaps).
 *
 *   exporter process                                   importer process
 *   ----------------                                   ----------------
 *   doca_mmap_export_pci(mmap, dev)                    doca_mmap_create_from_export(desc, dev)
 *     export record in a one-page memfd:                 export_desc_decode(): format, version,
 *       {id, pid, start time, range, rights,               checksum, field ranges (pure)
 *        state = LIVE}                                   device pairing (export.c)
 *     descriptor (96 bytes, export_desc.c):   ──────▶    /proc/<pid>/stat start time == desc
 *       {magic, version, id, pid, start time,            open /proc/<pid>/fd/<memfd>, map it
 *        memfd number, range, rights, device,            record == descriptor, state LIVE
 *        checksum}   (file, socket, Comch: the           pidfd_open(pid), start time again
 *                     application carries it)            probe: process_vm_readv of one byte
 *   doca_mmap_stop / destroy: state = REVOKED          engines, before each process_vm_* call:
 *   exit: the kernel closes the memfd; every             state == LIVE, pidfd not readable
 *         importer's pidfd turns readable                (mem_domain in engine.h)
 *
 * No thread and no further call is needed from the exporter: the kernel does the copies
 * (process_vm_readv/writev) and reports its death (pidfd), and the record page carries the
 * only state the exporter ever changes. See docs/cross-process.md for the security meaning.
 *
 * Threading: exports and imports are control-path calls on application threads. The record's
 * state word is written by the exporter only and read by importers' engine threads (release /
 * acquire); everything else in a record is written once before the descriptor exists.
 */
#ifndef SD_EXPORT_H_
#define SD_EXPORT_H_

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <doca_error.h>

#include "engine.h"

struct doca_mmap;
struct doca_dev;

/* ---- the descriptor (export_desc.c: a pure codec, fuzzed by tests/fuzz/fuzz_export.c) ---- */

/*
 * Wire format, version 1: EXPORT_DESC_LEN bytes, integers little-endian.
 *
 *   off size field
 *     0    8 magic "SDOCAXP1"
 *     8    2 version (1)
 *    10    2 length of the whole descriptor (96)
 *    12    4 flags, 0 (reserved)
 *    16   16 export id: 128 random bits naming this export
 *    32    4 exporter pid
 *    36    4 exporter's fd number of the export record memfd
 *    40    8 exporter start time, clock ticks after boot (/proc/<pid>/stat field 22)
 *    48    8 exporter's PID namespace (inode of /proc/self/ns/pid; 0 = unknown)
 *    56    8 start address of the exported range, in the exporter
 *    64    8 length of the range
 *    72    4 granted rights: DOCA_ACCESS_FLAG_PCI_READ_ONLY and/or PCI_READ_WRITE
 *    76    4 exporter's real user id (for messages)
 *    80    2 PCI domain of the exporting device
 *    82    1 bus   83 1 device   84 1 function
 *    85    1 side of the exporting device: 0 DPU, 1 host
 *    86    2 reserved, 0
 *    88    8 checksum: FNV-1a 64 of bytes 0..87
 *
 * The checksum catches truncation and corruption in transit, not forgery: anyone can compute
 * it. A forged descriptor is caught at import, where every field is compared with the
 * exporter's own record (reached only with the kernel's permission to read the exporter).
 */
#define EXPORT_DESC_MAGIC   "SDOCAXP1"
#define EXPORT_DESC_VERSION 1
#define EXPORT_DESC_LEN	    96
#define EXPORT_ID_LEN	    16

enum export_side { EXPORT_SIDE_DPU = 0, EXPORT_SIDE_HOST = 1 };

struct export_desc {
	uint8_t id[EXPORT_ID_LEN];
	int32_t pid;
	int32_t memfd;
	uint64_t start_time;
	uint64_t pidns;
	uint64_t addr;
	uint64_t len;
	uint32_t access;
	uint32_t uid;
	uint16_t domain;
	uint8_t bus, dev, fn;
	uint8_t side;
};

/* Writes @d as EXPORT_DESC_LEN bytes (magic, version, length and checksum included). */
void export_desc_encode(const struct export_desc *d, uint8_t out[EXPORT_DESC_LEN]);

/*
 * Parses @len bytes at @bytes into @out. A pure function of its input: reads nothing past @len,
 * touches no global state. Returns DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE with the reason
 * in @err (NUL-terminated, truncated to @err_len; @out is then zeroed). Checks the format
 * (length, magic, version, reserved bits, checksum) and that every field is in range; whether
 * the descriptor names a live export is export_import()'s business.
 */
doca_error_t export_desc_decode(const void *bytes, size_t len, struct export_desc *out, char *err, size_t err_len);

/* FNV-1a 64 of @len bytes: the descriptor checksum. */
uint64_t export_desc_checksum(const uint8_t *bytes, size_t len);

/* ---- the export record: one page of a memfd the exporter owns ---- */

#define EXPORT_RECORD_MAGIC 0x31434552414f4453ull /* "SDOAREC1" */

/* Record layout version: 2 added uid, pidns and the devices (an older importer refuses it). */
#define EXPORT_RECORD_VERSION 2
/* Most devices one mmap is exported through (one descriptor each). */
#define EXPORT_RECORD_MAX_DEVS 32

struct export_record_dev {
	uint16_t domain;
	uint8_t bus, dev, fn;
	uint8_t side; /* enum export_side */
	uint8_t reserved[2];
};

struct export_record {
	uint64_t magic;
	uint32_t version;
	_Atomic uint32_t state; /* enum mem_domain_state: LIVE until stop/destroy */
	uint8_t id[EXPORT_ID_LEN];
	int32_t pid;
	uint32_t access;
	uint64_t start_time;
	uint64_t addr;
	uint64_t len;
	uint64_t pidns;
	uint32_t uid;
	/*
	 * The devices this map was exported through: an entry is written before the descriptor
	 * naming it exists, then published by a release-store of ndevs (importers of earlier
	 * descriptors may read the record meanwhile). Importers accept a descriptor only for a
	 * device listed here, so its device fields cannot be edited.
	 */
	_Atomic uint32_t ndevs;
	struct export_record_dev devs[EXPORT_RECORD_MAX_DEVS];
};

/* ---- the importer's check of a record (export_record.c: pure, fuzzed by fuzz_export_record.c) ---- */

enum export_record_verdict {
	EXPORT_RECORD_OK,	/* the record is this export's, well-formed, matches and is LIVE */
	EXPORT_RECORD_NOT_OURS, /* magic or id differ: the fd holds another record (stale or forged) */
	EXPORT_RECORD_BROKEN,	/* the record breaks its own rules: the exporter is not a softdoca one */
	EXPORT_RECORD_MISMATCH, /* a field of the descriptor differs from the record: forged descriptor */
	EXPORT_RECORD_REVOKED,	/* the export was stopped or destroyed */
};

/*
 * Checks @rec, a private copy of an exporter's record page (export.c makes it), against the
 * decoded descriptor @d. A pure function of its arguments: reads only *rec and *d, bounds every
 * loop by EXPORT_RECORD_MAX_DEVS, writes only @why (NUL-terminated, truncated to @why_len): the
 * rule broken, or the first mismatching field, or "" for EXPORT_RECORD_OK.
 */
enum export_record_verdict export_record_check(const struct export_record *rec, const struct export_desc *d, char *why,
					       size_t why_len);

/* Exporter side, hanging off doca_mmap.exp from the first doca_mmap_export_pci() on. */
struct mmap_export {
	pid_t owner; /* the process that exported; a forked child never revokes its parent's export */
	int memfd;
	struct export_record *rec; /* mapped read-write, one page */
	uint32_t ndescs;
	uint32_t cap;
	/* One descriptor per device the map was exported for; owned here, freed on stop/destroy. */
	struct export_desc_buf {
		const struct doca_dev *dev;
		uint8_t bytes[EXPORT_DESC_LEN];
	} * descs;
};

/* Importer side, hanging off doca_mmap.remote of a from-export map. */
struct mmap_remote {
	struct mem_domain domain; /* the exporter, as transports see it (kind MEM_DOMAIN_PROCESS) */
	struct export_desc desc;
	const struct export_record *rec; /* the exporter's record, mapped read-only */
};

/* ---- export.c: called by mmap.c ---- */

/*
 * Exports a started local @mmap for @dev (mmap.c has checked the API rules: started, rights,
 * device added and able to export). Creates the export record on first use, returns the
 * descriptor for @dev, owned by the map.
 */
doca_error_t export_pci(struct doca_mmap *mmap, const struct doca_dev *dev, const void **desc, size_t *len);

/* The map stops or is destroyed: marks its export REVOKED and frees descriptors and record. */
void export_revoke(struct doca_mmap *mmap);

/*
 * Validates a descriptor for import through @dev and fills @mmap (a zeroed from-export map with
 * its device array allocated) with the exporter's range, rights, pid and a new mmap_remote.
 * Errors: INVALID_VALUE (bad or stale descriptor), NOT_PERMITTED (device pairing, another user,
 * kernel refusal), NOT_SUPPORTED (kernel features missing), NO_MEMORY; each logged with why.
 */
doca_error_t export_import(const void *desc, size_t len, struct doca_dev *dev, struct doca_mmap *mmap);

/* Releases what export_import() attached to a from-export map. */
void export_remote_release(struct doca_mmap *mmap);

#endif /* SD_EXPORT_H_ */
