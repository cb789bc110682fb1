/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_txq.h - DOCA Ethernet send queue: control path.
 *
 * A send queue is a DOCA context on one device; its frames leave through the device's port
 * (the software NIC's medium). Offloads the hardware does are done in software: IPv4 header
 * and TCP/UDP checksums, and LSO (a large TCP payload cut into MSS-sized frames, each with a
 * copy of the headers and its own IPv4 length/ID/checksum, TCP sequence number and flags).
 */
#ifndef DOCA_ETH_TXQ_H_
#define DOCA_ETH_TXQ_H_

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

struct doca_eth_txq;
struct doca_gpu_eth_txq;

enum doca_eth_txq_type {
	DOCA_ETH_TXQ_TYPE_REGULAR = 0,
};

enum doca_eth_txq_data_path_type {
	DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU = 0,
	DOCA_ETH_TXQ_DATA_PATH_TYPE_GPU = 1,
};

/** An IDLE queue for bursts of up to @max_burst_size frames. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_create(struct doca_dev *dev, uint32_t max_burst_size,
						   struct doca_eth_txq **eth_txq);
/** BAD_STATE unless IDLE. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_destroy(struct doca_eth_txq *eth_txq);
DOCA_EXPERIMENTAL struct doca_ctx *doca_eth_txq_as_doca_ctx(struct doca_eth_txq *eth_txq);

/* Configuration: IDLE only (BAD_STATE otherwise). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_max_burst_size(struct doca_eth_txq *eth_txq, uint32_t max_burst_size);
/** Longest buf list (gather list) one frame may be made of (default 1). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_max_send_buf_list_len(struct doca_eth_txq *eth_txq,
								      uint32_t max_send_buf_list_len);
/** MSS of LSO sends (default 1500 - 40). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_mss(struct doca_eth_txq *eth_txq, uint16_t mss);
/** Largest header gather list of an LSO send (default 128). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_max_lso_header_size(struct doca_eth_txq *eth_txq,
								    uint16_t max_lso_header_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_type(struct doca_eth_txq *eth_txq, enum doca_eth_txq_type type);
/** Compute every IPv4 header checksum of sent frames. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_l3_chksum_offload(struct doca_eth_txq *eth_txq,
								  uint8_t enable_l3_chksum);
/** Compute every TCP/UDP checksum of sent frames (IPv4 and IPv6). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_l4_chksum_offload(struct doca_eth_txq *eth_txq,
								  uint8_t enable_l4_chksum);
/**
 * While IDLE: sends may wait for a time (doca_gpu_dev_eth_txq_wait_send). GPU queues only: a
 * CPU queue with wait-on-time is refused at doca_ctx_start() (NOT_SUPPORTED).
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_wait_on_time_offload(struct doca_eth_txq *eth_txq);
/**
 * The wait value for UTC time @timestamp_ns: the value itself (the software NIC's clock is
 * CLOCK_REALTIME). NOT_PERMITTED without doca_eth_txq_set_wait_on_time_offload(); INVALID_VALUE
 * for NULL.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_calculate_timestamp(struct doca_eth_txq *eth_txq, uint64_t timestamp_ns,
								uint64_t *wait_on_time_value);
/** RUNNING only: the queue id DOCA Flow refers to (recorded; sends are not steered). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_apply_queue_id(struct doca_eth_txq *eth_txq, uint16_t queue_id);
/** The id applied; BAD_STATE before doca_eth_txq_apply_queue_id(). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_get_flow_queue_id(struct doca_eth_txq *eth_txq, uint16_t *flow_queue_id);
/**
 * The handle kernels send through (doca_gpunetio_dev_eth_txq.cuh) of a queue given a GPU with
 * doca_ctx_set_datapath_on_gpu(). NOT_SUPPORTED on a CPU queue; BAD_STATE unless started;
 * INVALID_VALUE for NULL.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_get_gpu_handle(const struct doca_eth_txq *eth_txq,
							   struct doca_gpu_eth_txq **eth_txq_ext);

/* Capabilities, from the device profile's eth.* keys. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_max_burst_size(const struct doca_devinfo *devinfo,
								   uint32_t max_send_buf_list_len,
								   uint16_t max_lso_header_size,
								   uint32_t *max_burst_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_max_send_buf_list_len(const struct doca_devinfo *devinfo,
									  uint32_t *max_send_buf_list_len);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_max_lso_header_size(const struct doca_devinfo *devinfo,
									uint16_t *max_lso_header_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_max_lso_msg_size(const struct doca_devinfo *devinfo,
								     uint32_t *max_lso_msg_size);
/** SUCCESS for REGULAR on the CPU or the GPU data path; NOT_SUPPORTED when the device has no eth. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_is_type_supported(const struct doca_devinfo *devinfo,
								  enum doca_eth_txq_type type,
								  enum doca_eth_txq_data_path_type data_path_type);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_is_l3_chksum_offload_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_is_l4_chksum_offload_supported(const struct doca_devinfo *devinfo);
/** DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE when the device has eth (GPU queues), else NONE. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_wait_on_time_offload_supported(
    const struct doca_devinfo *devinfo, enum doca_eth_wait_on_time_type *wait_on_time_mode);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_TXQ_H_ */
