/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * afp_block.h - the walk of one TPACKET_V3 receive block (src/nic/afpacket.c).
 *
 *   block:  tpacket_block_desc {status, num_pkts, offset_to_first_pkt, ...}
 *           @offset_to_first_pkt: tpacket3_hdr | sockaddr_ll | ... @tp_mac: frame (tp_snaplen)
 *           + tp_next_offset: the next packet, ... num_pkts of them
 *
 * The kernel writes the blocks, but a block is still read as untrusted bytes: every offset
 * and length is checked against the block's size before it is used, each header is copied
 * once into a local, and the walk is bounded by numbers of our own (the block size), so a
 * damaged block costs its frames, never a read outside it or an endless loop.
 */
#ifndef SD_NIC_AFP_BLOCK_H_
#define SD_NIC_AFP_BLOCK_H_

#include <stdint.h>

/* Where the walk of a block is: owned by the receiving thread. */
struct afp_cursor {
	uint32_t left; /* packets of the block not yet read */
	uint32_t off;  /* offset in the block of the next one */
};

/* One packet of a block, checked: @frame..@frame + @snaplen lies inside the block. */
struct afp_pkt {
	const uint8_t *frame;
	uint32_t snaplen, len; /* bytes in the ring, bytes on the wire */
	uint32_t status;       /* tp_status: TP_STATUS_VLAN_VALID, ... */
	uint16_t vlan_tci, vlan_tpid;
	uint8_t pkttype; /* sll_pkttype: PACKET_OUTGOING, ... */
	uint64_t ts_ns;
};

/*
 * Starts the walk of the block at @blk of @block_size bytes (a block the kernel handed over):
 * 0, or a rule the block header breaks (then the block has nothing to read: c->left = 0).
 */
const char *afp_block_open(const uint8_t *blk, uint32_t block_size, struct afp_cursor *c);

/*
 * The next packet of the block: 1 with @pkt filled, 0 at the end of the block, -1 when the
 * packet breaks a rule (*why says which; the rest of the block is abandoned: c->left = 0).
 */
int afp_block_next(const uint8_t *blk, uint32_t block_size, struct afp_cursor *c, struct afp_pkt *pkt,
		   const char **why);

#endif /* SD_NIC_AFP_BLOCK_H_ */
