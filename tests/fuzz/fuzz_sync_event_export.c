/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_sync_event_export.c - libFuzzer target for the sync event export decoder
 * (se_export_decode: the blob doca_sync_event_create_from_export() is handed by a peer).
 *
 * Each input is decoded twice: as given, and, when it has the blob's length, with both parts'
 * magic, version and checksums made valid, so the fuzzer reaches the field checks behind them.
 * The contract on top of the sanitizers: a success yields a decoded mmap part, a fd number >= 0,
 * and re-encodes to the very same bytes; a failure leaves a zeroed result and a message, cut
 * cleanly in a small buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sync_event_desc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void one(const uint8_t *data, size_t size)
{
	struct se_export_desc x;
	uint8_t again[SE_DESC_LEN];
	char err[256], small[12];

	memset(&x, 0xee, sizeof(x));
	if (se_export_decode(data, size, &x, err, sizeof(err)) == DOCA_SUCCESS) {
		check(size == SE_DESC_LEN && x.memfd >= 0);
		check(x.mmap.pid > 0 && x.mmap.len != 0);
		memcpy(again, data, EXPORT_DESC_LEN);
		se_export_encode(x.id, x.memfd, again);
		check(memcmp(again, data, SE_DESC_LEN) == 0);
		return;
	}
	check(memchr(err, '\0', sizeof(err)) != NULL && err[0] != '\0');
	check(all_zero(&x, sizeof(x)));
	check(se_export_decode(data, size, &x, small, sizeof(small)) == DOCA_ERROR_INVALID_VALUE);
	check(memchr(small, '\0', sizeof(small)) != NULL);
	check(strncmp(small, err, strlen(small)) == 0);
	check(se_export_decode(data, size, &x, NULL, 0) == DOCA_ERROR_INVALID_VALUE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t copy[SE_DESC_LEN];

	one(data, size);
	if (size != SE_DESC_LEN)
		return 0;
	/* The same bytes behind valid headers and checksums: what a buggy or hostile peer sends. */
	memcpy(copy, data, size);
	memcpy(copy, EXPORT_DESC_MAGIC, 8);
	copy[8] = EXPORT_DESC_VERSION;
	copy[9] = 0;
	copy[10] = EXPORT_DESC_LEN;
	copy[11] = 0;
	put64(copy + EXPORT_DESC_LEN - 8, export_desc_checksum(copy, EXPORT_DESC_LEN - 8));
	memcpy(copy + EXPORT_DESC_LEN, SE_TRAILER_MAGIC, 8);
	copy[EXPORT_DESC_LEN + 8] = SE_TRAILER_VERSION;
	copy[EXPORT_DESC_LEN + 10] = SE_TRAILER_LEN;
	put64(copy + SE_DESC_LEN - 8, export_desc_checksum(copy, SE_DESC_LEN - 8));
	one(copy, size);
	return 0;
}
