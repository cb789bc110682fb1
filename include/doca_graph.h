/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_graph.h - task graphs: context nodes (one task of a started context) and user nodes
 * (a callback) linked by dependencies, instantiated and submitted to a progress engine as one
 * unit. The instance's completion (or error) callback runs from doca_pe_progress() once every
 * node has finished.
 */
#ifndef DOCA_GRAPH_H_
#define DOCA_GRAPH_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_pe;
struct doca_task;
struct doca_graph;
struct doca_graph_node;
struct doca_graph_instance;

/** Body of a user node; an error fails the instance. */
typedef doca_error_t (*doca_graph_user_node_cb_t)(void *cookie);
typedef void (*doca_graph_completion_cb_t)(struct doca_graph_instance *instance, union doca_data instance_user_data,
					   union doca_data graph_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_graph_create(struct doca_pe *pe, struct doca_graph **graph);
DOCA_EXPERIMENTAL doca_error_t doca_graph_destroy(struct doca_graph *graph);
DOCA_EXPERIMENTAL doca_error_t doca_graph_node_create_from_ctx(struct doca_graph *graph, const struct doca_ctx *ctx,
							       struct doca_graph_node **node);
DOCA_EXPERIMENTAL doca_error_t doca_graph_node_create_from_user(struct doca_graph *graph, doca_graph_user_node_cb_t cb,
								struct doca_graph_node **node);
/** @to runs after @from; NOT_PERMITTED when that would close a cycle. */
DOCA_EXPERIMENTAL doca_error_t doca_graph_add_dependency(struct doca_graph *graph, struct doca_graph_node *from,
							 struct doca_graph_node *to);
DOCA_EXPERIMENTAL doca_error_t doca_graph_set_conf(struct doca_graph *graph,
						   doca_graph_completion_cb_t graph_completion_cb,
						   doca_graph_completion_cb_t graph_error_cb, uint32_t num_instances);
DOCA_EXPERIMENTAL doca_error_t doca_graph_set_user_data(struct doca_graph *graph, union doca_data user_data);
DOCA_EXPERIMENTAL doca_error_t doca_graph_start(struct doca_graph *graph);
DOCA_EXPERIMENTAL doca_error_t doca_graph_stop(struct doca_graph *graph);

DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_create(const struct doca_graph *graph,
							  struct doca_graph_instance **graph_instance);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_destroy(struct doca_graph_instance *graph_instance);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_ctx_node_data(struct doca_graph_instance *graph_instance,
								     struct doca_graph_node *node,
								     struct doca_task *task);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_user_node_data(struct doca_graph_instance *graph_instance,
								      struct doca_graph_node *node, void *cookie);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_user_data(struct doca_graph_instance *graph_instance,
								 union doca_data user_data);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_submit(struct doca_graph_instance *graph_instance);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_GRAPH_H_ */
