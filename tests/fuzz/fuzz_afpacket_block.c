/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_afpacket_block.c - libFuzzer target for the walk of a TPACKET_V3 receive block
 * (src/nic/afp_block.c): the input is one block, its size the block's size.
 *
 * Beyond the sanitizers, the contract of afp_block.h is checked: a refused block or packet
 * leaves nothing to read; every packet handed out lies inside the block, after its header,
 * with tp_snaplen <= tp_len; the walk ends within size / TPACKET3_HDRLEN packets.
 */
#include <linux/if_packet.h>
#include <stdlib.h>

#include "afp_block.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct afp_cursor c;
	struct afp_pkt pk;
	const char *why;
	unsigned int sum = 0;
	size_t nb = 0;
	int r;

	if (size > UINT32_MAX)
		return 0;
	why = afp_block_open(data, (uint32_t)size, &c);
	if (why != NULL)
		check(c.left == 0);
	for (;;) {
		why = NULL;
		r = afp_block_next(data, (uint32_t)size, &c, &pk, &why);
		if (r <= 0) {
			check(r == 0 || why != NULL);
			break;
		}
		check(++nb <= size / TPACKET3_HDRLEN);
		check(pk.frame >= data + TPACKET3_HDRLEN && pk.frame <= data + size);
		check(pk.snaplen <= (size_t)(data + size - pk.frame));
		check(pk.snaplen <= pk.len);
		for (uint32_t i = 0; i < pk.snaplen; i++)
			sum += pk.frame[i];
	}
	check(c.left == 0);
	return (int)(sum & 0);
}
