/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_comch.h - DOCA Comch: a message channel between a server on the DPU and clients on the
 * host.
 *
 * A server is created on a DPU-side device and a representor of the host function it serves,
 * under a name. A client is created on a host-side device with the same name; its start is
 * asynchronous: doca_ctx_start() returns DOCA_ERROR_IN_PROGRESS and the context becomes
 * RUNNING from doca_pe_progress() once the server accepted it. Each client-server link is a
 * doca_comch_connection. Messages (at most the max message size) are sent with send tasks and
 * arrive, whole and in order, through the message-received callback, from doca_pe_progress().
 *
 * softdoca carries the messages over UNIX-domain sockets in a private runtime directory, so
 * the server and the client may live in two processes of one machine (see docs/comch.md).
 */
#ifndef DOCA_COMCH_H_
#define DOCA_COMCH_H_

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
struct doca_dev_rep;
struct doca_devinfo;
struct doca_task;

struct doca_comch_server;
struct doca_comch_client;
struct doca_comch_connection;
struct doca_comch_task_send;
struct doca_comch_event_msg_recv;
struct doca_comch_event_connection_status_changed;
struct doca_comch_event_consumer;

/** Completion and error callback of a send task; the task is the caller's again inside it. */
typedef void (*doca_comch_task_send_completion_cb_t)(struct doca_comch_task_send *task, union doca_data task_user_data,
						     union doca_data ctx_user_data);

/**
 * One received message. @recv_buffer holds @msg_len bytes and is valid only during the call;
 * copy what you need.
 */
typedef void (*doca_comch_event_msg_recv_cb_t)(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer,
					       uint32_t msg_len, struct doca_comch_connection *comch_connection);

/**
 * A connection appeared (connect callback) or went away (disconnect callback). softdoca
 * reports only successful changes: @change_successful is always 1.
 */
typedef void (*doca_comch_event_connection_status_changed_cb_t)(
    struct doca_comch_event_connection_status_changed *event, struct doca_comch_connection *comch_connection,
    uint8_t change_successful);

/** A remote consumer with @id appeared (new) or went away (expired) on @comch_connection. */
typedef void (*doca_comch_event_consumer_cb_t)(struct doca_comch_event_consumer *event,
					       struct doca_comch_connection *comch_connection, uint32_t id);

/* ---- capabilities ---- */

/** SUCCESS when a server can run on the device (DPU-side devices); NOT_SUPPORTED otherwise. */
DOCA_STABLE doca_error_t doca_comch_cap_server_is_supported(const struct doca_devinfo *devinfo);
/** SUCCESS when a client can run on the device (host-side devices); NOT_SUPPORTED otherwise. */
DOCA_STABLE doca_error_t doca_comch_cap_client_is_supported(const struct doca_devinfo *devinfo);
/** Largest message a send task may carry, in bytes. */
DOCA_STABLE doca_error_t doca_comch_cap_get_max_msg_size(const struct doca_devinfo *devinfo, uint32_t *size);
/** Longest server name, counting the terminating NUL. */
DOCA_STABLE doca_error_t doca_comch_cap_get_max_name_len(const struct doca_devinfo *devinfo, uint32_t *max_name_len);
/** Largest value accepted by the set_recv_queue_size calls. */
DOCA_STABLE doca_error_t doca_comch_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *size);
/** How many clients one server accepts at a time. */
DOCA_STABLE doca_error_t doca_comch_cap_get_max_clients(const struct doca_devinfo *devinfo, uint32_t *num_clients);
/** Largest num_send_tasks accepted by the task_send_set_conf calls. */
DOCA_STABLE doca_error_t doca_comch_cap_get_max_send_tasks(const struct doca_devinfo *devinfo,
							   uint32_t *max_send_tasks);

/* ---- server (DPU side) ---- */

/**
 * An IDLE server named @name on @dev, serving the host function behind representor @repr
 * (which must be a representor of @dev). The name is taken when the server starts; a second
 * running server with the same name and representor makes that start fail.
 */
DOCA_STABLE doca_error_t doca_comch_server_create(struct doca_dev *dev, struct doca_dev_rep *repr, const char *name,
						  struct doca_comch_server **comch_server);
/** IN_USE unless IDLE. */
DOCA_STABLE doca_error_t doca_comch_server_destroy(struct doca_comch_server *comch_server);
DOCA_STABLE struct doca_ctx *doca_comch_server_as_ctx(struct doca_comch_server *comch_server);
/** Largest message this server sends or accepts (1..cap; default the cap); IDLE only. */
DOCA_STABLE doca_error_t doca_comch_server_set_max_msg_size(struct doca_comch_server *comch_server, uint32_t size);
/** Receive queue depth (1..cap); IDLE only. */
DOCA_STABLE doca_error_t doca_comch_server_set_recv_queue_size(struct doca_comch_server *comch_server, uint32_t size);
/** The max message size set (or the default); any state. */
DOCA_STABLE doca_error_t doca_comch_server_get_max_msg_size(const struct doca_comch_server *comch_server,
							    uint32_t *size);
/** The receive queue depth set (or the default); any state. */
DOCA_STABLE doca_error_t doca_comch_server_get_recv_queue_size(const struct doca_comch_server *comch_server,
							       uint32_t *size);
/** The device the server was created on. */
DOCA_STABLE doca_error_t doca_comch_server_get_device(const struct doca_comch_server *comch_server,
						      struct doca_dev **dev);
/** The representor the server was created with. */
DOCA_STABLE doca_error_t doca_comch_server_get_device_repr(const struct doca_comch_server *comch_server,
							   struct doca_dev_rep **repr);
/** Send task callbacks and pool size; required before start; IDLE only. */
DOCA_STABLE doca_error_t doca_comch_server_task_send_set_conf(struct doca_comch_server *comch_server,
							      doca_comch_task_send_completion_cb_t task_completion_cb,
							      doca_comch_task_send_completion_cb_t task_error_cb,
							      uint32_t num_send_tasks);
/** The message-received callback; IDLE only. */
DOCA_STABLE doca_error_t doca_comch_server_event_msg_recv_register(struct doca_comch_server *comch_server,
								   doca_comch_event_msg_recv_cb_t recv_event_cb);
/** Connect and disconnect callbacks; IDLE only. The disconnect callback reports the peer
 *  leaving (it stopped, died or broke the protocol), not doca_comch_server_disconnect(). */
DOCA_STABLE doca_error_t doca_comch_server_event_connection_status_changed_register(
    struct doca_comch_server *comch_server, doca_comch_event_connection_status_changed_cb_t connect_event_cb,
    doca_comch_event_connection_status_changed_cb_t disconnect_event_cb);
/** New and expired remote-consumer callbacks (both non-NULL); IDLE only. */
DOCA_STABLE doca_error_t doca_comch_server_event_consumer_register(
    struct doca_comch_server *comch_server, doca_comch_event_consumer_cb_t new_consumer_event_cb,
    doca_comch_event_consumer_cb_t expired_consumer_event_cb);
/**
 * A send task carrying a copy of the @len bytes at @msg to @peer (a connection of this
 * server). INVALID_VALUE when @len exceeds the max message size of either side or @peer is not
 * connected; NO_MEMORY when the pool is empty; BAD_STATE unless RUNNING.
 */
DOCA_STABLE doca_error_t doca_comch_server_task_send_alloc_init(struct doca_comch_server *comch_server,
								struct doca_comch_connection *peer, const void *msg,
								uint32_t len, struct doca_comch_task_send **task);
/**
 * Closes @connection; the client sees the server go away. Send tasks still queued on it
 * complete with DOCA_ERROR_NOT_CONNECTED. The connection handle is invalid afterwards.
 * IN_USE while consumers or producers created on it are not destroyed.
 */
DOCA_STABLE doca_error_t doca_comch_server_disconnect(struct doca_comch_server *comch_server,
						      struct doca_comch_connection *connection);
/** The server owning @connection; NULL for a client's connection. */
DOCA_STABLE struct doca_comch_server *doca_comch_server_get_server_ctx(const struct doca_comch_connection *connection);

/* ---- client (host side) ---- */

/** An IDLE client on @dev that will connect to the server named @name. */
DOCA_STABLE doca_error_t doca_comch_client_create(struct doca_dev *dev, const char *name,
						  struct doca_comch_client **comch_client);
/** IN_USE unless IDLE. */
DOCA_STABLE doca_error_t doca_comch_client_destroy(struct doca_comch_client *comch_client);
/** Starting it returns DOCA_ERROR_IN_PROGRESS; it becomes RUNNING from doca_pe_progress(). */
DOCA_STABLE struct doca_ctx *doca_comch_client_as_ctx(struct doca_comch_client *comch_client);
DOCA_STABLE doca_error_t doca_comch_client_set_max_msg_size(struct doca_comch_client *comch_client, uint32_t size);
DOCA_STABLE doca_error_t doca_comch_client_set_recv_queue_size(struct doca_comch_client *comch_client, uint32_t size);
DOCA_STABLE doca_error_t doca_comch_client_get_max_msg_size(const struct doca_comch_client *comch_client,
							    uint32_t *size);
DOCA_STABLE doca_error_t doca_comch_client_get_recv_queue_size(const struct doca_comch_client *comch_client,
							       uint32_t *size);
/** The device the client was created on. */
DOCA_STABLE doca_error_t doca_comch_client_get_device(const struct doca_comch_client *comch_client,
						      struct doca_dev **dev);
DOCA_STABLE doca_error_t doca_comch_client_task_send_set_conf(struct doca_comch_client *comch_client,
							      doca_comch_task_send_completion_cb_t task_completion_cb,
							      doca_comch_task_send_completion_cb_t task_error_cb,
							      uint32_t num_send_tasks);
DOCA_STABLE doca_error_t doca_comch_client_event_msg_recv_register(struct doca_comch_client *comch_client,
								   doca_comch_event_msg_recv_cb_t recv_event_cb);
DOCA_STABLE doca_error_t doca_comch_client_event_consumer_register(
    struct doca_comch_client *comch_client, doca_comch_event_consumer_cb_t new_consumer_event_cb,
    doca_comch_event_consumer_cb_t expired_consumer_event_cb);
/** As doca_comch_server_task_send_alloc_init(); @peer is the client's connection. */
DOCA_STABLE doca_error_t doca_comch_client_task_send_alloc_init(struct doca_comch_client *comch_client,
								struct doca_comch_connection *peer, const void *msg,
								uint32_t len, struct doca_comch_task_send **task);
/** The client's connection to its server; BAD_STATE unless RUNNING. */
DOCA_STABLE doca_error_t doca_comch_client_get_connection(const struct doca_comch_client *comch_client,
							  struct doca_comch_connection **connection);
/** The client owning @connection; NULL for a server's connection. */
DOCA_STABLE struct doca_comch_client *doca_comch_client_get_client_ctx(const struct doca_comch_connection *connection);

/* ---- connections and send tasks ---- */

DOCA_STABLE doca_error_t doca_comch_connection_set_user_data(struct doca_comch_connection *connection,
							     union doca_data user_data);
/** The cookie set with doca_comch_connection_set_user_data() (zero until set). */
DOCA_STABLE union doca_data doca_comch_connection_get_user_data(const struct doca_comch_connection *connection);
DOCA_STABLE struct doca_task *doca_comch_task_send_as_task(struct doca_comch_task_send *task);

/** Per-connection statistics (doca_comch_connection_get_counter). */
enum doca_comch_counter {
	DOCA_COMCH_COUNTER_SENT_MESSAGES = 1, /* messages sent on the connection by this side */
	DOCA_COMCH_COUNTER_SENT_BYTES = 2,    /* their payload bytes */
	DOCA_COMCH_COUNTER_RECV_MESSAGES = 3, /* messages this side received on the connection */
	DOCA_COMCH_COUNTER_RECV_BYTES = 4,    /* their payload bytes */
};

/**
 * Takes a snapshot of the connection's counters, which doca_comch_connection_get_counter()
 * then reports. CONNECTION_ABORTED once the connection went away.
 */
DOCA_STABLE doca_error_t doca_comch_connection_update_info(struct doca_comch_connection *comch_connection);
/** One counter of the last snapshot; INVALID_VALUE for an unknown counter. */
DOCA_STABLE doca_error_t doca_comch_connection_get_counter(const struct doca_comch_connection *comch_connection,
							   enum doca_comch_counter counter_type,
							   uint64_t *counter_value);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_H_ */
