/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sync_event.h - DOCA Sync Event: a 64-bit value that several execution units update,
 * read and wait on.
 *
 * softdoca implements the CPU side: events created here (doca_sync_event_create) and events
 * imported from another process over the emulated PCIe link (doca_sync_event_export_to_remote_pci /
 * doca_sync_event_create_from_export). DPA, GPU and remote-network locations and handles
 * return DOCA_ERROR_NOT_SUPPORTED. See docs/sync-event.md.
 *
 * An event is used either stand-alone (doca_sync_event_start, then the synchronous get / update /
 * wait calls) or as a DOCA context (doca_sync_event_as_ctx, connected to a progress engine, with
 * get / notify-set / notify-add / wait-eq / wait-neq tasks). Not thread-safe, as in DOCA.
 */
#ifndef DOCA_SYNC_EVENT_H_
#define DOCA_SYNC_EVENT_H_

#include <stddef.h>
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
struct doca_dpa;
struct doca_gpu;
struct doca_buf;
struct doca_task;

struct doca_sync_event;
struct doca_sync_event_remote_net;
struct doca_dpa_sync_event;
struct doca_gpu_sync_event;

/** Handle of an event on the DPA. */
typedef uint64_t doca_dpa_dev_sync_event_t;
/** Handle of a remote-network event on the DPA. */
typedef uint64_t doca_dpa_dev_sync_event_remote_net_t;
/** Handle of an event on the GPU. */
typedef uint64_t doca_gpu_dev_sync_event_t;
/** Handle of a remote-network event on the GPU. */
typedef uint64_t doca_gpu_dev_sync_event_remote_net_t;

struct doca_sync_event_task_get;
struct doca_sync_event_task_notify_set;
struct doca_sync_event_task_notify_add;
struct doca_sync_event_task_wait_eq;
struct doca_sync_event_task_wait_neq;

/** Completion (and error) callback of a get task; runs inside doca_pe_progress(). */
typedef void (*doca_sync_event_task_get_completion_cb_t)(struct doca_sync_event_task_get *task,
							 union doca_data task_user_data, union doca_data ctx_user_data);
/** Completion (and error) callback of a notify-set task. */
typedef void (*doca_sync_event_task_notify_set_completion_cb_t)(struct doca_sync_event_task_notify_set *task,
								union doca_data task_user_data,
								union doca_data ctx_user_data);
/** Completion (and error) callback of a notify-add task. */
typedef void (*doca_sync_event_task_notify_add_completion_cb_t)(struct doca_sync_event_task_notify_add *task,
								union doca_data task_user_data,
								union doca_data ctx_user_data);
/** Completion (and error) callback of a wait-equal task. */
typedef void (*doca_sync_event_task_wait_eq_completion_cb_t)(struct doca_sync_event_task_wait_eq *task,
							     union doca_data task_user_data,
							     union doca_data ctx_user_data);
/** Completion (and error) callback of a wait-not-equal task. */
typedef void (*doca_sync_event_task_wait_neq_completion_cb_t)(struct doca_sync_event_task_wait_neq *task,
							      union doca_data task_user_data,
							      union doca_data ctx_user_data);

/* ---- creation ---- */

/** New event owned by this process (its value starts at 0). INVALID_VALUE, NO_MEMORY. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_create(struct doca_sync_event **event);

/**
 * Event reaching the value another process exported with doca_sync_event_export_to_remote_pci().
 * Such an event takes no configuration. INVALID_VALUE (bad or stale data), NOT_PERMITTED (device
 * pairing, kernel refusal), NOT_SUPPORTED (device cannot import), NO_MEMORY.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
						struct doca_sync_event **event);

/** SUCCESS when @devinfo may import an exported event; NOT_SUPPORTED otherwise. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo);

/** Remote-network import: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
							   struct doca_sync_event_remote_net **event);

/** NOT_SUPPORTED in softdoca (INVALID_VALUE for NULL). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo);

/** Destroys a stopped event (a stand-alone started one is stopped first). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_destroy(struct doca_sync_event *event);

/** Remote-network events cannot be created in softdoca: INVALID_VALUE. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event);

/* ---- configuration (before start) ---- */

/** The publisher (the side that updates) is this CPU, reached through @dev. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event, struct doca_dev *dev);
/** DPA publisher: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa);
/** GPU publisher: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu);
/** The publisher is the PCIe peer (the process that imports the export). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event);
/** Remote-network publisher: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event);

/** The subscriber (the side that waits) is this CPU, reached through @dev. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event, struct doca_dev *dev);
/** DPA subscriber: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa);
/** GPU subscriber: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu);
/** The subscriber is the PCIe peer. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event);

/**
 * Keep the value in 8 bytes of this process's memory at @addr (8-byte aligned) instead of
 * softdoca's own page. Such an event cannot be exported. BAD_STATE once started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event, uint64_t *addr);

/**
 * Keep the value in the 8 data bytes of @buf (a single buf of a local mmap granting
 * DOCA_ACCESS_FLAG_LOCAL_READ_WRITE). NOT_PERMITTED for other rights or lengths.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event, struct doca_buf *buf);

/* ---- stand-alone use ---- */

/** Starts the event as a stand-alone object (it can then no longer be used as a context). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_start(struct doca_sync_event *event);

/** Stops an event started with doca_sync_event_start(). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_stop(struct doca_sync_event *event);

/**
 * The event as a DOCA context (start/stop through doca_ctx_*, tasks through a progress engine).
 * NULL for NULL or for an event already started stand-alone.
 */
DOCA_EXPERIMENTAL
struct doca_ctx *doca_sync_event_as_ctx(struct doca_sync_event *event);

/* ---- tasks ---- */

/** SUCCESS: every softdoca device can run get tasks. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_get_is_supported(const struct doca_devinfo *devinfo);
/** Callbacks and pool share of get tasks; the context must be IDLE. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_get_set_conf(struct doca_sync_event *event,
					       doca_sync_event_task_get_completion_cb_t completion_cb,
					       doca_sync_event_task_get_completion_cb_t error_cb, uint32_t num_tasks);
/** A task that reads the value into *@ret_val_ptr. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_get_alloc_init(struct doca_sync_event *event, uint64_t *ret_val_ptr,
						 union doca_data user_data, struct doca_sync_event_task_get **task);
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_get_as_doca_task(struct doca_sync_event_task_get *task);
DOCA_EXPERIMENTAL
void doca_sync_event_task_get_set_ret_val_ptr(struct doca_sync_event_task_get *task, uint64_t *ret_val_ptr);
DOCA_EXPERIMENTAL
uint64_t *doca_sync_event_task_get_get_ret_val_ptr(const struct doca_sync_event_task_get *task);

/** SUCCESS: every softdoca device can run notify-set tasks. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_notify_set_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_set_set_conf(struct doca_sync_event *event,
						      doca_sync_event_task_notify_set_completion_cb_t completion_cb,
						      doca_sync_event_task_notify_set_completion_cb_t error_cb,
						      uint32_t num_tasks);
/** A task that sets the value to @set_val. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_set_alloc_init(struct doca_sync_event *event, uint64_t set_val,
							union doca_data user_data,
							struct doca_sync_event_task_notify_set **task);
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_notify_set_as_doca_task(struct doca_sync_event_task_notify_set *task);
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_set_set_set_val(struct doca_sync_event_task_notify_set *task, uint64_t set_val);
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_notify_set_get_set_val(const struct doca_sync_event_task_notify_set *task);

/** SUCCESS: every softdoca device can run notify-add tasks. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_notify_add_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_add_set_conf(struct doca_sync_event *event,
						      doca_sync_event_task_notify_add_completion_cb_t completion_cb,
						      doca_sync_event_task_notify_add_completion_cb_t error_cb,
						      uint32_t num_tasks);
/** A task that atomically adds @inc_val and stores the value before the add in *@fetched_val_ptr. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_add_alloc_init(struct doca_sync_event *event, uint64_t inc_val,
							uint64_t *fetched_val_ptr, union doca_data user_data,
							struct doca_sync_event_task_notify_add **task);
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_notify_add_as_doca_task(struct doca_sync_event_task_notify_add *task);
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_add_set_inc_val(struct doca_sync_event_task_notify_add *task, uint64_t inc_val);
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_notify_add_get_inc_val(const struct doca_sync_event_task_notify_add *task);
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_add_set_fetched_val_ptr(struct doca_sync_event_task_notify_add *task,
							 uint64_t *fetched_val_ptr);
DOCA_EXPERIMENTAL
uint64_t *doca_sync_event_task_notify_add_get_fetched_val_ptr(const struct doca_sync_event_task_notify_add *task);

/** SUCCESS: every softdoca device can run wait-equal tasks. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_wait_eq_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_eq_set_conf(struct doca_sync_event *event,
						   doca_sync_event_task_wait_eq_completion_cb_t completion_cb,
						   doca_sync_event_task_wait_eq_completion_cb_t error_cb,
						   uint32_t num_tasks);
/**
 * A task that completes once (value & @mask) == @wait_val. @mask is 0 or 1, 2, 4 or 8 bytes of
 * 0xff at a multiple of their own size.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_eq_alloc_init(struct doca_sync_event *event, uint64_t wait_val, uint64_t mask,
						     union doca_data user_data,
						     struct doca_sync_event_task_wait_eq **task);
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_wait_eq_as_doca_task(struct doca_sync_event_task_wait_eq *task);
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_eq_set_wait_val(struct doca_sync_event_task_wait_eq *task, uint64_t wait_val);
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_eq_get_wait_val(const struct doca_sync_event_task_wait_eq *task);
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_eq_set_mask(struct doca_sync_event_task_wait_eq *task, uint64_t mask);
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_eq_get_mask(const struct doca_sync_event_task_wait_eq *task);

/** SUCCESS: every softdoca device can run wait-not-equal tasks. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_wait_neq_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_neq_set_conf(struct doca_sync_event *event,
						    doca_sync_event_task_wait_neq_completion_cb_t completion_cb,
						    doca_sync_event_task_wait_neq_completion_cb_t error_cb,
						    uint32_t num_tasks);
/** A task that completes once (value & @mask) != @wait_val; @mask as for wait-equal. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_neq_alloc_init(struct doca_sync_event *event, uint64_t wait_val, uint64_t mask,
						      union doca_data user_data,
						      struct doca_sync_event_task_wait_neq **task);
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_wait_neq_as_doca_task(struct doca_sync_event_task_wait_neq *task);
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_neq_set_wait_val(struct doca_sync_event_task_wait_neq *task, uint64_t wait_val);
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_neq_get_wait_val(const struct doca_sync_event_task_wait_neq *task);
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_neq_set_mask(struct doca_sync_event_task_wait_neq *task, uint64_t mask);
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_neq_get_mask(const struct doca_sync_event_task_wait_neq *task);

/* ---- export ---- */

/**
 * Bytes another process passes to doca_sync_event_create_from_export() to reach this event's
 * value. The event needs a publisher and a subscriber, one of them remote PCI; the bytes are
 * owned by the event. INVALID_VALUE, NOT_PERMITTED (configuration), NOT_SUPPORTED (device
 * profile, or a value placed with set_addr/set_doca_buf), NO_MEMORY.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event, struct doca_dev *dev,
						  const uint8_t **data, size_t *sz);
/** SUCCESS when events may be exported through @devinfo (profile key export_pci). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo);

/** DPA handle: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
					    doca_dpa_dev_sync_event_t *dpa_dev_se_handle);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo);
/** GPU handle: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get_gpu_handle(struct doca_sync_event *event, struct doca_gpu *gpu,
					    doca_gpu_dev_sync_event_t **gpu_dev_se);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo);
/** Remote-network export: NOT_SUPPORTED in softdoca. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event, const uint8_t **data, size_t *sz);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_get_dpa_handle(struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
						       doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_get_gpu_handle(struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
						       doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo);

/* ---- synchronous operations (started event) ---- */

/** Reads the value. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value);
/** Atomically adds @value; *@fetched receives the value before the add. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_update_add(struct doca_sync_event *event, uint64_t value, uint64_t *fetched);
/** Sets the value. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_update_set(struct doca_sync_event *event, uint64_t value);
/**
 * Blocks until (value & @mask) > @value. The _yield variants give the CPU away between looks;
 * both sleep in the kernel once the value has not changed for a while (docs/sync-event.md).
 * IO_FAILED when the exporter of an imported event is gone.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_gt(struct doca_sync_event *event, uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_gt_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);
/** Blocks until (value & @mask) == @value. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_eq(struct doca_sync_event *event, uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_eq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);
/** Blocks until (value & @mask) != @value. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_neq(struct doca_sync_event *event, uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_neq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_SYNC_EVENT_H_ */
