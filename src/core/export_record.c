/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * export_record.c - the importer's check of an exporter's record (format in export.h).
 *
 * The record lives in a page the exporter writes and the importer maps: nothing in it is
 * trusted. export_import() copies the page once into private memory (export.c) and hands the
 * copy to export_record_check(), a pure function of the copy and the decoded descriptor, kept
 * apart so that the fuzz target (tests/fuzz/fuzz_export_record.c) compiles it alone: it depends
 * on nothing but libc and the DOCA headers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <doca_types.h>

#include "export.h"

static enum export_record_verdict say(enum export_record_verdict v, char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	if (why_len > 0) {
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return v;
}

enum export_record_verdict export_record_check(const struct export_record *rec, const struct export_desc *d, char *why,
					       size_t why_len)
{
	uint32_t n = atomic_load_explicit(&rec->ndevs, memory_order_relaxed);
	uint32_t state = atomic_load_explicit(&rec->state, memory_order_relaxed);
	const uint32_t rights = DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE;

	if (why_len > 0)
		why[0] = '\0';
	if (rec->magic != EXPORT_RECORD_MAGIC || memcmp(rec->id, d->id, EXPORT_ID_LEN) != 0)
		return say(EXPORT_RECORD_NOT_OURS, why, why_len, "no export with this id");
	/* The rules of the record itself: broken only by an exporter that is not softdoca's. */
	if (rec->version != EXPORT_RECORD_VERSION)
		return say(EXPORT_RECORD_BROKEN, why, why_len, "record version %u, this softdoca reads version %d",
			   rec->version, EXPORT_RECORD_VERSION);
	if (state != MEM_DOMAIN_LIVE && state != MEM_DOMAIN_REVOKED)
		return say(EXPORT_RECORD_BROKEN, why, why_len, "state word %u is neither LIVE (%d) nor REVOKED (%d)",
			   state, MEM_DOMAIN_LIVE, MEM_DOMAIN_REVOKED);
	if (n > EXPORT_RECORD_MAX_DEVS)
		return say(EXPORT_RECORD_BROKEN, why, why_len, "device count %u exceeds the %d a record holds", n,
			   EXPORT_RECORD_MAX_DEVS);
	if (rec->access == 0 || (rec->access & ~rights) != 0)
		return say(EXPORT_RECORD_BROKEN, why, why_len, "access rights 0x%x are not PCI read-only/read-write",
			   rec->access);
	if (rec->len == 0 || rec->addr + rec->len < rec->addr)
		return say(EXPORT_RECORD_BROKEN, why, why_len, "range 0x%llx + %llu wraps or is empty",
			   (unsigned long long)rec->addr, (unsigned long long)rec->len);
	/* Then the descriptor against the record: a difference is a forged descriptor. */
	if (rec->pid != d->pid)
		return say(EXPORT_RECORD_MISMATCH, why, why_len, "exporter pid");
	if (rec->start_time != d->start_time)
		return say(EXPORT_RECORD_MISMATCH, why, why_len, "exporter start time");
	if (rec->pidns != d->pidns)
		return say(EXPORT_RECORD_MISMATCH, why, why_len, "PID namespace");
	if (rec->uid != d->uid)
		return say(EXPORT_RECORD_MISMATCH, why, why_len, "exporter user id");
	if (rec->addr != d->addr)
		return say(EXPORT_RECORD_MISMATCH, why, why_len, "start address");
	if (rec->len != d->len)
		return say(EXPORT_RECORD_MISMATCH, why, why_len, "length");
	if (rec->access != d->access)
		return say(EXPORT_RECORD_MISMATCH, why, why_len, "access rights field");
	for (uint32_t i = 0; i < n; i++) {
		const struct export_record_dev *e = &rec->devs[i];

		if (e->domain == d->domain && e->bus == d->bus && e->dev == d->dev && e->fn == d->fn) {
			if (e->side != d->side)
				return say(EXPORT_RECORD_MISMATCH, why, why_len, "device side");
			return state == MEM_DOMAIN_LIVE ? EXPORT_RECORD_OK
							: say(EXPORT_RECORD_REVOKED, why, why_len, "revoked");
		}
	}
	return say(EXPORT_RECORD_MISMATCH, why, why_len, "exporting device (the map was not exported through it)");
}
