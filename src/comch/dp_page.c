/* SPDX-License-Identifier: BSD-3-Clause */
/* dp_page.c - the checks of the comch fast path's shared page (see dp_page.h). */
#include "dp_page.h"

const char *dp_page_check(const struct dp_shm *hdr, size_t size, uint32_t id)
{
	if (hdr->magic != DP_MAGIC)
		return "its magic is not a softdoca consumer ring's";
	if (hdr->version != DP_VERSION)
		return "it is of another version of the ring";
	if (hdr->consumer_id != id)
		return "it names another consumer";
	if (hdr->ring == 0 || (hdr->ring & (hdr->ring - 1)) != 0 || hdr->ring > DP_RING_MAX)
		return "its size is not a power of two up to the largest ring";
	if (dp_page_size(hdr->ring) != size)
		return "its size does not match its mapping";
	if (hdr->imm_max > DP_IMM_MAX)
		return "it takes more immediate data than a consumer can";
	return NULL;
}

enum dp_take dp_page_take(uint64_t tail, uint64_t head, uint32_t ring)
{
	if (head == tail)
		return DP_TAKE_NONE;
	/* More posts than the ring has room for, or a head that went back: not an honest consumer. */
	if (head - tail > ring)
		return DP_TAKE_BROKEN;
	return DP_TAKE_ONE;
}

int dp_comp_status(const struct dp_comp *c, bool outstanding, uint64_t seq, uint64_t cap, uint32_t imm_max)
{
	doca_error_t st = (doca_error_t)c->status;

	if (!outstanding || c->seq != seq)
		return -1;
	if (c->status > (uint32_t)DOCA_ERROR_DEVICE_FATAL_ERROR)
		return DOCA_ERROR_IO_FAILED; /* not a status a producer sends */
	if (st == DOCA_SUCCESS && (c->len > cap || c->imm_len > imm_max))
		return DOCA_ERROR_IO_FAILED;
	return st;
}
