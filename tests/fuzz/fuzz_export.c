/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_export.c - libFuzzer target for the PCI export descriptor decoder (export_desc_decode),
 * the one parser of bytes that arrive from another process.
 *
 * Each input is decoded twice: as given, and with its header and checksum made valid, so the
 * fuzzer also reaches the field checks behind the checksum. The contract checked on top of the
 * sanitizers: a success yields fields in range and re-encodes to the very same bytes (the
 * format has one spelling per descriptor); a failure leaves a zeroed result and a message, cut
 * cleanly in a small buffer.
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

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

static void one(const uint8_t *data, size_t size)
{
	struct export_desc d;
	uint8_t again[EXPORT_DESC_LEN];
	char err[256], small[12];

	memset(&d, 0xee, sizeof(d));
	if (export_desc_decode(data, size, &d, err, sizeof(err)) == DOCA_SUCCESS) {
		check(size == EXPORT_DESC_LEN);
		check(d.pid > 0 && d.memfd >= 0 && d.start_time != 0);
		check(d.addr != 0 && d.len != 0 && d.addr + d.len > d.addr);
		check(d.access != 0 &&
		      (d.access & ~(uint32_t)(DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)) == 0);
		check(d.dev <= 0x1f && d.fn <= 7);
		check(d.side == EXPORT_SIDE_DPU || d.side == EXPORT_SIDE_HOST);
		export_desc_encode(&d, again);
		check(memcmp(again, data, EXPORT_DESC_LEN) == 0);
		return;
	}
	check(memchr(err, '\0', sizeof(err)) != NULL && err[0] != '\0');
	check(all_zero(&d, sizeof(d)));
	check(export_desc_decode(data, size, &d, small, sizeof(small)) == DOCA_ERROR_INVALID_VALUE);
	check(memchr(small, '\0', sizeof(small)) != NULL);
	check(strncmp(small, err, strlen(small)) == 0);
	check(export_desc_decode(data, size, &d, NULL, 0) == DOCA_ERROR_INVALID_VALUE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	one(data, size);
	if (size != EXPORT_DESC_LEN)
		return 0;
	/* The same bytes behind a valid header and checksum: what a buggy or hostile peer sends. */
	copy = malloc(size);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	memcpy(copy, EXPORT_DESC_MAGIC, 8);
	copy[8] = EXPORT_DESC_VERSION;
	copy[9] = 0;
	copy[10] = EXPORT_DESC_LEN;
	copy[11] = 0;
	{
		uint64_t h = export_desc_checksum(copy, EXPORT_DESC_LEN - 8);

		for (int i = 0; i < 8; i++)
			copy[EXPORT_DESC_LEN - 8 + i] = (uint8_t)(h >> (8 * i));
	}
	one(copy, size);
	free(copy);
	return 0;
}
