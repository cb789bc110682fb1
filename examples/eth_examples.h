/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_examples.h - what softdoca's DOCA Ethernet examples share: the sample functions (each
 * example is a sample file plus a main, as DOCA's samples are, so a test can call them on a
 * medium of its own), their configuration and command line, and small helpers.
 *
 * Senders                                   Receivers
 *   eth_txq_send_ethernet_frames              eth_rxq_regular_receive
 *   eth_txq_batch_send_ethernet_frames        eth_rxq_managed_mempool_receive
 *   eth_txq_lso_send_ethernet_frames          eth_rxq_batch_managed_mempool_receive
 *   eth_txq_batch_lso_send_ethernet_frames
 *
 * What they put on the wire, so that a receiver (or a test) can check it:
 *   plain frames  dst MAC (-m, default broadcast), src the device's MAC, EtherType 0x88b5,
 *                 payload byte k of frame i = (uint8_t)(i + k)
 *   LSO messages  Ethernet + IPv4 (10.0.0.1 > 10.0.0.2, ID 0x100 * i) + TCP (40000 > 5001,
 *                 PSH|ACK, sequence numbers of one stream from ETH_EXAMPLE_TCP_SEQ0), then
 *                 -s payload bytes, byte k of message i = (uint8_t)(i + k); cut at -mss
 */
#ifndef EXAMPLES_ETH_EXAMPLES_H_
#define EXAMPLES_ETH_EXAMPLES_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#define ETH_EXAMPLE_MIN_FRAME  60
#define ETH_EXAMPLE_MAX_FRAME  1514
#define ETH_EXAMPLE_LSO_HDR    54 /* Ethernet + IPv4 + TCP, no options */
#define ETH_EXAMPLE_MAX_LSO    (64u * 1024u)
#define ETH_EXAMPLE_TCP_SEQ0   0x10000000u
#define ETH_EXAMPLE_PKT_META   1234 /* what the receivers' DOCA Flow root pipe sets */
#define ETH_EXAMPLE_MAX_FRAMES 65536u
#define ETH_EXAMPLE_MAX_BATCH  128u

struct eth_example_cfg {
	char pci_addr[DOCA_DEVINFO_PCI_ADDR_SIZE]; /* -p */
	uint8_t dst_mac[6];			   /* -m */
	uint32_t nb_frames;			   /* -n: frames (LSO: messages) to send, frames to receive */
	uint32_t size;				   /* -s: frame bytes, or LSO payload bytes per message */
	uint32_t batch;				   /* -b: tasks per batch */
	uint32_t mss;				   /* --mss: LSO segment payload */
	uint32_t timeout_ms;			   /* -w: a receiver gives up this long after its last frame */
	bool flow;				   /* -f: receivers steer with a DOCA Flow root pipe */
	bool timestamp;				   /* -ts: receivers print arrival times */
	bool quiet;				   /* -q: no line per frame, only the summary */
	uint16_t headroom, tailroom;		   /* -hr, -tr: managed receivers' stride rooms */
};

/* Which options an example's command line has (besides -p, -n and -q, which all have). */
enum eth_example_opts {
	ETH_OPT_SIZE = 1 << 0,
	ETH_OPT_MAC = 1 << 1,
	ETH_OPT_BATCH = 1 << 2,
	ETH_OPT_MSS = 1 << 3,
	ETH_OPT_RECV = 1 << 4, /* -w, -f, -ts */
	ETH_OPT_ROOM = 1 << 5, /* -hr, -tr */
};

/* Defaults of every field (device 03:00.0, 16 frames of 1024 bytes, LSO 4000 / 1460, ...). */
void eth_example_cfg_init(struct eth_example_cfg *cfg);
/*
 * The preamble of every main: log backends as DOCA's samples set them, argp with the options
 * @opts names, parsed into @cfg. On success the caller ends with doca_argp_destroy().
 */
doca_error_t eth_example_begin(int argc, char **argv, unsigned int opts, struct eth_example_cfg *cfg);

/* Senders: each returns SUCCESS once every task completed successfully. */
doca_error_t eth_txq_send_ethernet_frames(const struct eth_example_cfg *cfg);
doca_error_t eth_txq_batch_send_ethernet_frames(const struct eth_example_cfg *cfg);
doca_error_t eth_txq_lso_send_ethernet_frames(const struct eth_example_cfg *cfg);
doca_error_t eth_txq_batch_lso_send_ethernet_frames(const struct eth_example_cfg *cfg);

/*
 * Receivers: print "receiving on <pci>" once frames sent from now on are received, a line per
 * frame (size, MACs, EtherType, IPv4/TCP fields when present, pkt_meta with -f), then a
 * summary. They return once cfg->nb_frames arrived, or cfg->timeout_ms after the last frame
 * (or after starting) with *received short: SUCCESS either way unless something failed.
 */
doca_error_t eth_rxq_regular_receive(const struct eth_example_cfg *cfg, uint32_t *received);
doca_error_t eth_rxq_managed_mempool_receive(const struct eth_example_cfg *cfg, uint32_t *received);
doca_error_t eth_rxq_batch_managed_mempool_receive(const struct eth_example_cfg *cfg, uint32_t *received);

/* ---- helpers of the sample files ---- */

/* Opens the device at @pci_addr ("03:00.0") and checks it can have Ethernet queues. */
doca_error_t eth_example_open_device(const char *pci_addr, struct doca_dev **dev);
/*
 * A started mmap of @len bytes at @addr (GPU memory from doca_gpu_mem_alloc, or any) on @dev,
 * local read-write: what the GPUNetIO examples give their queues. Logs why it failed.
 */
doca_error_t eth_example_gpu_mmap(struct doca_dev *dev, void *addr, size_t len, struct doca_mmap **mmap);
/* Progresses @pe until @ctx is IDLE. */
void eth_example_wait_idle(struct doca_pe *pe, struct doca_ctx *ctx);
/* Stops @ctx and progresses @pe until it is IDLE; returns @ret, or the stop's error if @ret was SUCCESS. */
doca_error_t eth_example_stop(struct doca_pe *pe, struct doca_ctx *ctx, doca_error_t ret);
/* Destroys what every example creates besides its queue and device; NULLs are skipped. */
void eth_example_release(struct doca_pe *pe, struct doca_buf_inventory *inv, struct doca_mmap *mmap);
/*
 * The receivers' loop: progresses @pe until *@received reaches cfg->nb_frames, *@status is not
 * SUCCESS, or cfg->timeout_ms pass without a new frame.
 */
void eth_example_receive_until(struct doca_pe *pe, const uint32_t *received, const doca_error_t *status,
			       const struct eth_example_cfg *cfg);
/* The MAC address of @dev (02:00:00:00:00:01 when it has none), the senders' source address. */
void eth_example_src_mac(struct doca_dev *dev, uint8_t mac[6]);
/* Milliseconds of CLOCK_MONOTONIC. */
uint64_t eth_example_now_ms(void);

/* Frame @i of the plain senders, @size bytes at @f. */
void eth_example_fill_frame(uint8_t *f, uint32_t size, uint32_t i, const uint8_t dst_mac[6], const uint8_t src_mac[6]);
/*
 * The 54-byte header of LSO message @i (@payload bytes) into @hdr, and its payload into
 * @payload_buf. Checksums are left to the send queue.
 */
void eth_example_fill_lso(uint8_t *hdr, uint8_t *payload_buf, uint32_t payload, uint32_t i, const uint8_t dst_mac[6],
			  const uint8_t src_mac[6]);

/* The receivers' line for frame @idx; @meta NULL when pkt_meta is not delivered, @ts 0 when off. */
void eth_example_print_frame(uint32_t idx, const uint8_t *frame, size_t len, const uint32_t *meta, uint64_t ts);

/* DOCA Flow steering of a receiver: a root pipe that sends every frame to one queue id. */
struct eth_example_flow {
	struct doca_flow_port *port;
	struct doca_flow_pipe *root;
	struct doca_flow_pipe_entry *entry;
	bool inited;
};
/*
 * doca_flow_init ("vnf"), a port over @dev, and a BASIC root pipe matching everything:
 * pkt_meta = ETH_EXAMPLE_PKT_META, RSS (IPv4/UDP/TCP) to @queue_id, misses dropped.
 */
doca_error_t eth_example_flow_start(struct doca_dev *dev, uint16_t queue_id, struct eth_example_flow *f);
void eth_example_flow_stop(struct eth_example_flow *f);

#endif /* EXAMPLES_ETH_EXAMPLES_H_ */
