/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_dma_copy_msg.c - libFuzzer target for doca_dma_copy's protocol messages
 * (apps/dma-copy/proto.c): whatever the other side sends, dc_msg_check() either refuses it with
 * a reason or accepts a message every field of which may then be read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../apps/dma-copy/dma_copy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise is a crash libFuzzer reports, in release builds too (no assert). */
#define REQUIRE(c)                                                                                                     \
	do {                                                                                                           \
		if (!(c))                                                                                              \
			abort();                                                                                       \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[160];
	uint8_t *msg;
	int type;

	if (size > 65536)
		return 0;
	/* An exact-size copy: reading one byte past the message is an ASan report. */
	msg = malloc(size ? size : 1);
	if (msg == NULL)
		return 0;
	memcpy(msg, data, size);
	why[0] = '\0';
	type = dc_msg_check(msg, (uint32_t)size, why, sizeof(why));
	if (type == 0) {
		REQUIRE(why[0] != '\0' && memchr(why, '\0', sizeof(why)) != NULL);
	} else if (type == MSG_EXPORT) {
		const struct msg_export *e = (const struct msg_export *)msg;
		volatile uint8_t sink = 0;

		REQUIRE(size >= sizeof(*e) && e->desc_len <= size - sizeof(*e) && (e->desc_len == 0) == (e->len == 0));
		REQUIRE(e->addr + e->len >= e->addr);
		for (uint32_t i = 0; i < e->desc_len; i++)
			sink ^= e->desc[i];
		(void)sink;
	} else if (type == MSG_START) {
		REQUIRE(size >= sizeof(struct msg_start));
	} else {
		const struct msg_status *s = (const struct msg_status *)msg;

		REQUIRE(type == MSG_DONE || type == MSG_RESULT || type == MSG_ERROR || type == MSG_LANDED ||
			type == MSG_PROGRESS || type == MSG_CREDIT || type == MSG_FILLED);
		REQUIRE(size >= sizeof(*s) && strlen(s->text) < sizeof(s->text));
		REQUIRE(s->status >= 0 && s->status <= 31);
	}
	free(msg);
	return 0;
}
