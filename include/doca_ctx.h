/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_ctx.h - the context every DOCA library object (DMA, Comch, ...) exposes.
 *
 *   IDLE --start--> RUNNING --stop / task failure--> STOPPING --(all tasks flushed and freed)--> IDLE
 *   (asynchronous libraries go IDLE --start--> STARTING --progress--> RUNNING)
 *
 * Configuration is accepted only in IDLE. The state-changed callback fires on every transition,
 * including those made inside doca_ctx_start()/doca_ctx_stop(); asynchronous transitions are
 * delivered from doca_pe_progress().
 */
#ifndef DOCA_CTX_H_
#define DOCA_CTX_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_gpu;

enum doca_ctx_states {
	DOCA_CTX_STATE_IDLE = 0,
	DOCA_CTX_STATE_STARTING = 1,
	DOCA_CTX_STATE_RUNNING = 2,
	DOCA_CTX_STATE_STOPPING = 3,
};

typedef void (*doca_ctx_state_changed_callback_t)(const union doca_data user_data, struct doca_ctx *ctx,
						  enum doca_ctx_states prev_state, enum doca_ctx_states next_state);

/** IDLE -> RUNNING (or STARTING + IN_PROGRESS). NOT_CONNECTED without a progress engine. */
DOCA_STABLE doca_error_t doca_ctx_start(struct doca_ctx *ctx);
/**
 * Stops the context. SUCCESS when it is IDLE on return (also when it already was);
 * IN_PROGRESS when tasks are still in flight: they are flushed through their error callbacks
 * from doca_pe_progress() and the context reaches IDLE once all its tasks are freed.
 */
DOCA_STABLE doca_error_t doca_ctx_stop(struct doca_ctx *ctx);
DOCA_STABLE doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state);
DOCA_STABLE doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb);
DOCA_STABLE doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data);
DOCA_STABLE doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data);
/** Tasks submitted whose callback has not run yet. */
DOCA_STABLE doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks);
/**
 * Runs the context's data path on @gpu_dev instead of a PE: kernels post work through the
 * module's GPU handle (DMA: doca_dma_get_gpu_handle(); Ethernet: doca_eth_rxq/txq_get_gpu_handle()).
 * While IDLE only (BAD_STATE otherwise). NOT_SUPPORTED for a context type without a GPU data
 * path; NOT_PERMITTED when the context is connected to a PE, except Ethernet send queues, whose
 * PE then delivers only their GPU send events. INVALID_VALUE for NULL.
 */
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev);
/** Pushes tasks submitted without the flush flag to the engine. */
DOCA_EXPERIMENTAL void doca_ctx_flush_tasks(struct doca_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_CTX_H_ */
