/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_dma_copy_seq.c - libFuzzer target for the order of doca_dma_copy's messages over a session
 * (apps/dma-copy/seq.c). Input: one byte (bit 0: this side is the DPU side), then per message
 * one byte (bit 0: received from the other side), its length (2 bytes, little-endian) and its
 * bytes; tests/apps/shrink_shim.c records real sessions in this layout (SHIM_RECORD). Whatever
 * the messages, dc_seq_step() refuses one with a reason, or accepts it and then: what it
 * recorded never shrinks, stays within the announced size, PROGRESS within what the host
 * filled in or left room for, FILLED within the ring past PROGRESS, CREDIT within what landed.
 */
#include <stdlib.h>
#include <string.h>

#include "../../apps/dma-copy/dma_copy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                                     \
	do {                                                                                                           \
		if (!(c))                                                                                              \
			abort();                                                                                       \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dc_seq s;
	size_t off = 1;

	if (size < 1)
		return 0;
	dc_seq_init(&s, data[0] & 1);
	while (off + 3 <= size) {
		bool from_peer = data[off] & 1;
		uint32_t len = (uint32_t)data[off + 1] | (uint32_t)data[off + 2] << 8;
		struct dc_seq before = s;
		char why[200];
		uint8_t *msg;
		int type;

		off += 3;
		if (len > size - off)
			len = (uint32_t)(size - off);
		/* An exact-size copy: reading one byte past the message is an ASan report. */
		msg = malloc(len ? len : 1);
		REQUIRE(msg != NULL);
		memcpy(msg, data + off, len);
		off += len;
		why[0] = '\0';
		type = dc_seq_step(&s, from_peer, msg, len, why, sizeof(why));
		free(msg);
		if (type == 0) {
			REQUIRE(why[0] != '\0' && memchr(why, '\0', sizeof(why)) != NULL);
			break; /* the copy stops at the first break */
		}
		REQUIRE(type >= MSG_START && type <= MSG_FILLED);
		REQUIRE(s.dpu == before.dpu);
		REQUIRE(s.progress >= before.progress && s.filled >= before.filled && s.credit >= before.credit);
		REQUIRE(s.phase >= before.phase);
		if (s.phase == before.phase && type != MSG_START && type != MSG_EXPORT && type != MSG_ERROR) {
			REQUIRE(s.size == before.size && s.ring == before.ring);
		}
		if (s.progress > before.progress || s.filled > before.filled || s.credit > before.credit) {
			REQUIRE(s.progress <= s.size && s.filled <= s.size && s.credit <= s.size);
			if (s.file_on_host)
				REQUIRE(s.progress <= s.filled && s.credit == 0);
			else
				REQUIRE(s.progress <= s.credit + s.ring && s.filled == 0);
		}
	}
	return 0;
}
