/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_sync_event_page.c - libFuzzer target for the importer's check of a sync event page
 * (se_page_check), over a private copy as sync_event.c makes it.
 *
 * Input: the export's page id (SE_ID_LEN bytes) and the exported range's start (8 bytes,
 * little-endian), then the bytes of the page (what the creator, hostile or not, wrote); short
 * inputs are zero-padded. Checked as given, and with the page's magic, id and address made to
 * match, so the fuzzer reaches the state word. The contract: the verdict is a function of the
 * input, OK only for a LIVE page of this id at this address, a reason cut cleanly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sync_event_desc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEAD (SE_ID_LEN + 8)

static void check(int cond)
{
	if (!cond)
		abort();
}

static void one(const struct se_shm *page, const uint8_t *id, uint64_t addr)
{
	char why[128], small[8];
	enum se_page_verdict v = se_page_check(page, id, addr, why, sizeof(why));

	check(memchr(why, '\0', sizeof(why)) != NULL);
	check(se_page_check(page, id, addr, small, sizeof(small)) == v);
	check(memchr(small, '\0', sizeof(small)) != NULL && strncmp(small, why, strlen(small)) == 0);
	check(se_page_check(page, id, addr, NULL, 0) == v);
	check((v == SE_PAGE_OK) == (why[0] == '\0'));
	if (v == SE_PAGE_OK)
		check(page->magic == SE_SHM_MAGIC && memcmp(page->id, id, SE_ID_LEN) == 0 && page->self_addr == addr &&
		      atomic_load(&page->state) == SE_LIVE);
	if (v == SE_PAGE_BROKEN)
		check(atomic_load(&page->state) != SE_LIVE && atomic_load(&page->state) != SE_DESTROYED);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct se_shm *page = aligned_alloc(64, sizeof(*page));
	uint8_t head[HEAD] = {0};
	uint64_t addr = 0;
	size_t plen = size > HEAD ? size - HEAD : 0;

	if (page == NULL)
		return 0;
	memset(page, 0, sizeof(*page));
	memcpy(head, data, size < HEAD ? size : HEAD);
	for (int i = 0; i < 8; i++)
		addr |= (uint64_t)head[SE_ID_LEN + i] << (8 * i);
	if (plen > sizeof(*page))
		plen = sizeof(*page);
	if (plen > 0)
		memcpy(page, data + HEAD, plen);
	one(page, head, addr);
	page->magic = SE_SHM_MAGIC;
	memcpy(page->id, head, SE_ID_LEN);
	page->self_addr = addr;
	one(page, head, addr);
	free(page);
	return 0;
}
