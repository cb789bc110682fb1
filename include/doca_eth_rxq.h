/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_rxq.h - DOCA Ethernet receive queue: control path.
 *
 * A receive queue is a DOCA context on one device. It is configured while IDLE, started on a
 * PE, and then bound to a logical queue id (doca_eth_rxq_apply_queue_id) that DOCA Flow's
 * forward actions name: every frame the port steers to that id lands in this queue.
 *   REGULAR          the application posts receive tasks, each with an empty buf of its own.
 *   MANAGED_MEMPOOL  the queue carves the packet buffer (doca_eth_rxq_set_pkt_buf) into
 *                    strides and raises one managed-receive event per frame with a buf it
 *                    owns; the slot is reused once the application drops the buf's last
 *                    reference (doca_buf_dec_refcount).
 *   CYCLIC           GPU data path only (NOT_SUPPORTED on the CPU).
 */
#ifndef DOCA_ETH_RXQ_H_
#define DOCA_ETH_RXQ_H_

#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_mmap;

struct doca_eth_rxq;
struct doca_gpu_eth_rxq;

enum doca_eth_rxq_type {
	DOCA_ETH_RXQ_TYPE_CYCLIC = 0,	       /**< ring of fixed-size slots (GPU data path) */
	DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL = 1, /**< library-managed packet buffer, events */
	DOCA_ETH_RXQ_TYPE_REGULAR = 2,	       /**< receive tasks into the application's bufs */
};

enum doca_eth_rxq_data_path_type {
	DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU = 0,
	DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU = 1,
};

/** An IDLE queue for bursts of up to @max_burst_size frames of up to @max_packet_size bytes. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_create(struct doca_dev *dev, uint32_t max_burst_size,
						   uint32_t max_packet_size, struct doca_eth_rxq **eth_rxq);
/** BAD_STATE unless IDLE. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_destroy(struct doca_eth_rxq *eth_rxq);
DOCA_EXPERIMENTAL struct doca_ctx *doca_eth_rxq_as_doca_ctx(struct doca_eth_rxq *eth_rxq);

/* Configuration: IDLE only (BAD_STATE otherwise). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_max_burst_size(struct doca_eth_rxq *eth_rxq, uint32_t max_burst_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_max_packet_size(struct doca_eth_rxq *eth_rxq, uint32_t max_packet_size);
/** 32-bit metadata words delivered with each frame (DOCA Flow's pkt_meta in word 0). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_metadata_num(struct doca_eth_rxq *eth_rxq, uint8_t metadata_num);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_rx_hash(struct doca_eth_rxq *eth_rxq, uint8_t enable_rx_hash);
/** Bytes left free before each frame in its stride (MANAGED_MEMPOOL). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_packet_headroom(struct doca_eth_rxq *eth_rxq, uint16_t head_size);
/** Bytes left free after each frame in its stride (MANAGED_MEMPOOL). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_packet_tailroom(struct doca_eth_rxq *eth_rxq, uint16_t tail_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_timestamp(struct doca_eth_rxq *eth_rxq, uint8_t enable_timestamp);
/** [@mmap_offset, +@mmap_len) of a started mmap that includes the queue's device. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_pkt_buf(struct doca_eth_rxq *eth_rxq, struct doca_mmap *mmap,
							uint32_t mmap_offset, uint32_t mmap_len);
/** Default REGULAR. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_type(struct doca_eth_rxq *eth_rxq, enum doca_eth_rxq_type type);
/** RUNNING only: the queue id DOCA Flow steers to; one queue per id and port in a process. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_apply_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t queue_id);
/** The id applied; BAD_STATE before doca_eth_rxq_apply_queue_id(). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_get_flow_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t *flow_queue_id);
/**
 * The handle kernels receive through (doca_gpunetio_dev_eth_rxq.cuh) of a CYCLIC queue given a
 * GPU with doca_ctx_set_datapath_on_gpu(). NOT_SUPPORTED on a CPU queue; BAD_STATE unless
 * started; INVALID_VALUE for NULL.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_get_gpu_handle(const struct doca_eth_rxq *eth_rxq,
							   struct doca_gpu_eth_rxq **eth_rxq_ext);

/* Capabilities, from the device profile's eth.* keys. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_burst_size(const struct doca_devinfo *devinfo,
								   uint32_t *max_burst_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_metadata_num(const struct doca_devinfo *devinfo,
								     uint8_t *max_metadata_num);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_packet_headroom(const struct doca_devinfo *devinfo,
									uint16_t *max_packet_headroom);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_packet_tailroom(const struct doca_devinfo *devinfo,
									uint16_t *max_packet_tailroom);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_packet_size(const struct doca_devinfo *devinfo,
								    uint32_t *max_packet_size);
/**
 * SUCCESS for REGULAR and MANAGED_MEMPOOL on the CPU data path and CYCLIC on the GPU's;
 * NOT_SUPPORTED for any other pair or when the device has no eth.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_is_type_supported(const struct doca_devinfo *devinfo,
								  enum doca_eth_rxq_type type,
								  enum doca_eth_rxq_data_path_type data_path_type);
/**
 * Packet buffer size for a MANAGED_MEMPOOL queue: strides of head + max_packet_size + tail,
 * enough of them for @pkt_max_time microseconds at @rate Mb/s, at least twice @max_burst_size.
 * NOT_SUPPORTED for REGULAR (no packet buffer).
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_estimate_packet_buf_size(enum doca_eth_rxq_type type, uint32_t rate,
								     uint16_t pkt_max_time, uint32_t max_packet_size,
								     uint32_t max_burst_size,
								     uint8_t log_max_lro_pkt_sz, uint16_t head_size,
								     uint16_t tail_size, uint32_t *buf_size);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_RXQ_H_ */
