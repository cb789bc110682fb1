/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_examples.h - what softdoca's DOCA Ethernet examples share: the sample functions (each
 * example is a sample file plus a main, as DOCA's samples are, so a test can call them on a
 * medium of its own) and two small helpers.
 */
#ifndef EXAMPLES_ETH_EXAMPLES_H_
#define EXAMPLES_ETH_EXAMPLES_H_

#include <stdint.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_pe.h>

#define ETH_EXAMPLE_MIN_FRAME 60
#define ETH_EXAMPLE_MAX_FRAME 1514

/* Sends @nb_frames frames of @frame_size bytes (frame i's payload counts up from i) on @pci_addr. */
doca_error_t eth_txq_send_ethernet_frames(const char *pci_addr, uint32_t nb_frames, uint32_t frame_size);
/*
 * Receives frames on @pci_addr with receive tasks until @nb_frames arrived or @timeout_ms went
 * by without one; *received counts them. Frames are logged (length and first bytes).
 */
doca_error_t eth_rxq_regular_receive(const char *pci_addr, uint32_t nb_frames, uint32_t timeout_ms, uint32_t *received);

/* Opens the device at @pci_addr ("03:00.0") and checks it can have Ethernet queues. */
doca_error_t eth_example_open_device(const char *pci_addr, struct doca_dev **dev);
/* Progresses @pe until @ctx is IDLE. */
void eth_example_wait_idle(struct doca_pe *pe, struct doca_ctx *ctx);

#endif /* EXAMPLES_ETH_EXAMPLES_H_ */
