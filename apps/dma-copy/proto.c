/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * proto.c - checks the messages of doca_dma_copy's protocol (dma_copy.h) before either side
 * reads a field of them. A pure function of its bytes: the other side is another program,
 * possibly another version or a hostile peer, so nothing it sends is trusted; fuzzed by
 * tests/fuzz/fuzz_dma_copy_msg.c.
 */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include <doca_error.h>

#include "dma_copy.h"

static uint32_t min_len(uint16_t type)
{
	switch (type) {
	case MSG_START:
		return sizeof(struct msg_start);
	case MSG_EXPORT:
		return sizeof(struct msg_export);
	case MSG_DONE:
	case MSG_RESULT:
	case MSG_ERROR:
	case MSG_LANDED:
	case MSG_PROGRESS:
	case MSG_CREDIT:
	case MSG_FILLED:
		return sizeof(struct msg_status);
	default:
		return 0;
	}
}

int dc_msg_check(const void *msg, uint32_t len, char *why, size_t why_len)
{
	struct msg_hdr h;
	uint32_t need;

	if (len < sizeof(h)) {
		snprintf(why, why_len, "%u bytes, shorter than a message header", len);
		return 0;
	}
	memcpy(&h, msg, sizeof(h));
	if (h.magic != DMA_COPY_MAGIC) {
		snprintf(why, why_len, "not a doca_dma_copy message (magic 0x%08x)", h.magic);
		return 0;
	}
	if (h.version != DMA_COPY_VERSION) {
		snprintf(why, why_len,
			 "protocol version %u, this side speaks %u: run the same softdoca version on both sides",
			 h.version, DMA_COPY_VERSION);
		return 0;
	}
	need = min_len(h.type);
	if (need == 0) {
		snprintf(why, why_len, "unknown message type %u", h.type);
		return 0;
	}
	if (len < need) {
		snprintf(why, why_len, "message type %u of %u bytes, it needs %u", h.type, len, need);
		return 0;
	}
	if (h.type == MSG_EXPORT) {
		struct msg_export e;

		memcpy(&e, msg, sizeof(e));
		/* An empty file exports nothing: no range, no descriptor. */
		if (e.desc_len > len - sizeof(e) || (e.desc_len == 0) != (e.len == 0)) {
			snprintf(why, why_len,
				 "export descriptor of %u bytes for %llu exported bytes in a message of %u", e.desc_len,
				 (unsigned long long)e.len, len);
			return 0;
		}
		if (e.addr + e.len < e.addr) {
			snprintf(why, why_len, "exported range 0x%llx + %llu wraps", (unsigned long long)e.addr,
				 (unsigned long long)e.len);
			return 0;
		}
	} else if (h.type != MSG_START) {
		/* Messages arrive at any alignment: read the fields by offset, never through a cast. */
		const uint8_t *b = msg;
		int32_t st;

		memcpy(&st, b + offsetof(struct msg_status, status), sizeof(st));
		if (memchr(b + offsetof(struct msg_status, text), '\0', sizeof(((struct msg_status *)0)->text)) ==
		    NULL) {
			snprintf(why, why_len, "status text without its terminating NUL");
			return 0;
		}
		if (st < 0 || st > DOCA_ERROR_DEVICE_FATAL_ERROR) {
			snprintf(why, why_len, "status %d is not a DOCA error code", st);
			return 0;
		}
	}
	return h.type;
}
