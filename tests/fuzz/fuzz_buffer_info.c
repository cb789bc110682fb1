/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_buffer_info.c - libFuzzer target for the buffer-info file dma_copy_dpu reads
 * (examples/dma_copy_pair.h, pair_parse_buffer_info): any bytes are refused or give an address
 * and a length the example may allocate and import, and what is accepted prints back the same.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/dma_copy_pair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise is a crash libFuzzer reports, in release builds too (no assert). */
#define REQUIRE(c)                                                                                                     \
	do {                                                                                                           \
		if (!(c))                                                                                              \
			abort();                                                                                       \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1), again[64];
	uint64_t addr = 0, len = 0;

	if (text == NULL)
		return 0;
	memcpy(text, data, size); /* exact size, not terminated: a read past the end is an ASan report */
	if (pair_parse_buffer_info(text, size, &addr, &len)) {
		int n;

		REQUIRE(len >= 1 && len <= PAIR_MAX_BUF_LEN && addr + len >= addr);
		/* Canonical inputs round-trip; others (leading zeros, no final newline) parse the same. */
		n = snprintf(again, sizeof(again), "%" PRIu64 "\n%" PRIu64 "\n", addr, len);
		uint64_t a2, l2;
		REQUIRE(pair_parse_buffer_info(again, (size_t)n, &a2, &l2) && a2 == addr && l2 == len);
	}
	free(text);
	return 0;
}
