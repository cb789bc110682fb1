/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_export_record.c - libFuzzer target for the importer's check of an exporter's record page
 * (export_record_check), over a private copy as export.c makes it.
 *
 * Input: a descriptor (EXPORT_DESC_LEN bytes, as the importer decodes it) followed by the bytes
 * of a record page (what the exporter, hostile or not, wrote). Short inputs are zero-padded.
 * Each input is checked three ways: as given (a descriptor that fails to decode is replaced by
 * one made of the record's own fields), with the descriptor made of the record's fields (so
 * that the fuzzer reaches the device list and the state), and with the record's magic and
 * version made valid. The contract on top of the sanitizers: the verdict is a function of the
 * input (asked twice, same answer), OK only for a LIVE record whose count is in range and
 * which lists the descriptor's device with every field equal, and a reason cut cleanly in a
 * small buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_types.h>

#include "export.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

/* A descriptor naming what @rec says, through its device @k (if it has one). */
static void desc_of(const struct export_record *rec, uint32_t k, struct export_desc *d)
{
	memset(d, 0, sizeof(*d));
	memcpy(d->id, rec->id, EXPORT_ID_LEN);
	d->pid = rec->pid;
	d->start_time = rec->start_time;
	d->pidns = rec->pidns;
	d->addr = rec->addr;
	d->len = rec->len;
	d->access = rec->access;
	d->uid = rec->uid;
	if (k < EXPORT_RECORD_MAX_DEVS) {
		d->domain = rec->devs[k].domain;
		d->bus = rec->devs[k].bus;
		d->dev = rec->devs[k].dev;
		d->fn = rec->devs[k].fn;
		d->side = rec->devs[k].side;
	}
}

static void one(const struct export_record *rec, const struct export_desc *d)
{
	char why[160], small[10];
	enum export_record_verdict v = export_record_check(rec, d, why, sizeof(why));
	uint32_t n = atomic_load(&rec->ndevs);
	int listed = 0;

	check(memchr(why, '\0', sizeof(why)) != NULL);
	check(export_record_check(rec, d, small, sizeof(small)) == v);
	check(memchr(small, '\0', sizeof(small)) != NULL && strncmp(small, why, strlen(small)) == 0);
	check(export_record_check(rec, d, NULL, 0) == v);
	if (v != EXPORT_RECORD_OK) {
		check(why[0] != '\0');
		return;
	}
	check(why[0] == '\0');
	check(rec->magic == EXPORT_RECORD_MAGIC && rec->version == EXPORT_RECORD_VERSION);
	check(atomic_load(&rec->state) == MEM_DOMAIN_LIVE);
	check(n >= 1 && n <= EXPORT_RECORD_MAX_DEVS);
	check(memcmp(rec->id, d->id, EXPORT_ID_LEN) == 0 && rec->pid == d->pid && rec->start_time == d->start_time &&
	      rec->pidns == d->pidns && rec->uid == d->uid && rec->addr == d->addr && rec->len == d->len &&
	      rec->access == d->access);
	check(rec->len != 0 && rec->addr + rec->len > rec->addr);
	for (uint32_t i = 0; i < n; i++)
		if (rec->devs[i].domain == d->domain && rec->devs[i].bus == d->bus && rec->devs[i].dev == d->dev &&
		    rec->devs[i].fn == d->fn && rec->devs[i].side == d->side)
			listed = 1;
	check(listed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct export_record *rec = calloc(1, sizeof(*rec));
	struct export_desc d;
	size_t rlen = size > EXPORT_DESC_LEN ? size - EXPORT_DESC_LEN : 0;
	uint32_t k;

	if (rec == NULL)
		return 0;
	if (rlen > sizeof(*rec))
		rlen = sizeof(*rec);
	if (rlen > 0)
		memcpy(rec, data + EXPORT_DESC_LEN, rlen);
	/* Which device a made-up descriptor names: the last byte, beyond the list now and then. */
	k = size > 0 ? data[size - 1] % (EXPORT_RECORD_MAX_DEVS + 1) : 0;
	if (size < EXPORT_DESC_LEN || export_desc_decode(data, EXPORT_DESC_LEN, &d, NULL, 0) != DOCA_SUCCESS)
		desc_of(rec, k, &d);
	one(rec, &d);
	desc_of(rec, k, &d);
	one(rec, &d);
	rec->magic = EXPORT_RECORD_MAGIC;
	rec->version = EXPORT_RECORD_VERSION;
	one(rec, &d);
	free(rec);
	return 0;
}
