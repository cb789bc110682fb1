/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_dp_page.c - libFuzzer target for the comch fast path's shared ring page (src/comch/
 * dp_page.c): the input is a whole page image as a peer may leave it, header, posts[] and
 * comps[].
 *
 * It does with the image what each side does with the page: the producer's attach check on a
 * copy of the header, then, when the page passes, the producer taking posts as the (fuzzed)
 * post index allows, and the consumer reaping completions as the (fuzzed) completion index
 * allows, against a table of outstanding posts of its own. The promises checked: a page that
 * passes has exactly the size its ring gives; no loop runs past what the ring holds; a
 * completion accepted as a success fits its buffer and immediate data; every status handed to a
 * task is a doca_error_t. The sanitizers watch every index into the image.
 *
 * Seeds in corpus/dp_page are pages dumped from a run (test_comch_dp_hostile dump DIR).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp_page.h"

#define MUST(cond)                                                                                                     \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "fuzz_dp_page: broken promise: %s\n", #cond);                                 \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

#define BUF_CAP 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dp_shm hdr;
	struct dp_shm *page;
	uint32_t ring, taken = 0, reaped = 0;
	uint64_t tail = 0, head;

	if (size < sizeof(struct dp_shm))
		return 0;
	/* The page as mapped: aligned, exactly @size bytes (ASan sees a read past them). */
	page = aligned_alloc(64, (size + 63) & ~(size_t)63);
	if (page == NULL)
		return 0;
	memcpy(page, data, size);
	memcpy(&hdr, page, DP_HDR_ID_LEN);
	if (dp_page_check(&hdr, size, hdr.consumer_id) != NULL) {
		free(page);
		return 0;
	}
	ring = hdr.ring;
	MUST(dp_page_size(ring) == size && ring != 0 && (ring & (ring - 1)) == 0);

	/* The producer: the post index is read once per take, as in prod_submit(). */
	for (;;) {
		struct dp_post post;
		enum dp_take v;

		head = atomic_load_explicit(&page->post_head, memory_order_acquire);
		v = dp_page_take(tail, head, ring);
		if (v != DP_TAKE_ONE)
			break;
		post = dp_page_posts(page)[tail & (ring - 1)];
		(void)post;
		tail++;
		taken++;
		MUST(taken <= ring); /* the page says at most a ring ahead, and nothing moves it here */
	}

	/* The consumer: every post outstanding, post i with sequence number i and BUF_CAP bytes. */
	head = atomic_load_explicit(&page->comp_head, memory_order_acquire);
	if (dp_page_comps_ok(0, head, ring)) {
		for (uint64_t t = 0; t != head; t++) {
			struct dp_comp c = dp_page_comps(page, ring)[t & (ring - 1)];
			uint8_t imm[DP_IMM_MAX];
			int st = dp_comp_status(&c, true, c.seq & (ring - 1), BUF_CAP, DP_IMM_MAX);

			MUST(++reaped <= ring);
			if (st < 0)
				continue;
			MUST(st <= DOCA_ERROR_DEVICE_FATAL_ERROR);
			if (st == DOCA_SUCCESS) {
				MUST(c.len <= BUF_CAP && c.imm_len <= DP_IMM_MAX);
				memcpy(imm, c.imm, c.imm_len);
			}
		}
	}
	free(page);
	return 0;
}
