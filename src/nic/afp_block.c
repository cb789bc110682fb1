/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * afp_block.c - the walk of a TPACKET_V3 receive block (afp_block.h). Depends on libc and the
 * kernel's headers only, so its fuzzer (tests/fuzz/fuzz_afpacket_block.c) links it alone.
 */
#include <linux/if_packet.h>
#include <string.h>

#include "afp_block.h"

#define PKT_HDR_ALIGNED TPACKET_ALIGN(sizeof(struct tpacket3_hdr)) /* where the kernel puts sockaddr_ll */
#define PKT_MIN		TPACKET3_HDRLEN				   /* header + sockaddr_ll: a packet's least room */

const char *afp_block_open(const uint8_t *blk, uint32_t block_size, struct afp_cursor *c)
{
	struct tpacket_block_desc bd;

	c->left = 0;
	c->off = 0;
	if (block_size < sizeof(bd))
		return "the block is smaller than its header";
	memcpy(&bd, blk, sizeof(bd));
	if (bd.hdr.bh1.num_pkts == 0)
		return NULL;
	if (bd.hdr.bh1.offset_to_first_pkt < sizeof(bd))
		return "offset_to_first_pkt points into the block header";
	if (block_size < PKT_MIN || bd.hdr.bh1.offset_to_first_pkt > block_size - PKT_MIN)
		return "offset_to_first_pkt leaves no room for a packet header";
	if (bd.hdr.bh1.num_pkts > (block_size - bd.hdr.bh1.offset_to_first_pkt) / PKT_MIN)
		return "num_pkts is more than the block can hold";
	c->left = bd.hdr.bh1.num_pkts;
	c->off = bd.hdr.bh1.offset_to_first_pkt;
	return NULL;
}

int afp_block_next(const uint8_t *blk, uint32_t block_size, struct afp_cursor *c, struct afp_pkt *pkt, const char **why)
{
	struct tpacket3_hdr h;
	struct sockaddr_ll sll;
	uint32_t off = c->off;

	if (c->left == 0)
		return 0;
	/* afp_block_open() checked the first offset; tp_next_offset is checked below: off fits */
	if (block_size < PKT_MIN || off > block_size - PKT_MIN) {
		*why = "a packet header lies beyond the block";
		goto bad;
	}
	memcpy(&h, blk + off, sizeof(h));
	memcpy(&sll, blk + off + PKT_HDR_ALIGNED, sizeof(sll));
	if (h.tp_mac < PKT_MIN) {
		*why = "tp_mac points into the packet header";
		goto bad;
	}
	if ((uint64_t)off + h.tp_mac + h.tp_snaplen > block_size) {
		*why = "tp_mac + tp_snaplen run past the block";
		goto bad;
	}
	if (h.tp_snaplen > h.tp_len) {
		*why = "tp_snaplen is more than tp_len";
		goto bad;
	}
	if (c->left > 1) {
		/* forward by at least a packet's least room: the walk ends within the block */
		if (h.tp_next_offset < PKT_MIN || h.tp_next_offset > block_size - off) {
			*why = "tp_next_offset does not lead to a packet inside the block";
			goto bad;
		}
		c->off = off + h.tp_next_offset;
	}
	c->left--;
	*pkt = (struct afp_pkt){
	    .frame = blk + off + h.tp_mac,
	    .snaplen = h.tp_snaplen,
	    .len = h.tp_len,
	    .status = h.tp_status,
	    .vlan_tci = (uint16_t)h.hv1.tp_vlan_tci,
	    .vlan_tpid = h.hv1.tp_vlan_tpid,
	    .pkttype = sll.sll_pkttype,
	    .ts_ns = (uint64_t)h.tp_sec * 1000000000ull + h.tp_nsec,
	};
	return 1;
bad:
	c->left = 0;
	return -1;
}
