/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * graph.c - task graphs.
 *
 * A graph is a DAG of nodes; an instance holds, per node, the task (context node) or cookie
 * (user node) and a countdown of unfinished predecessors. Submitting an instance starts its
 * roots; each finished node starts the successors whose countdown reaches zero. Context nodes
 * finish from doca_pe_progress(): node_start() installs node_task_done() as the task's completion
 * hook (struct doca_task.on_done) for that submission, in place of the task's own callbacks;
 * user nodes run as soon as they are ready. When every node has finished
 * the instance's completion (or, if any node failed, error) callback runs from
 * doca_pe_progress(): normally the last node finishes there; when the instance finishes inside
 * doca_graph_instance_submit() (every context task refused), it is queued on the PE
 * (priv_doca_pe_defer) and its callback runs at the next progress. Once a node fails, nodes not yet started are
 * skipped.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_graph.h>

#include "core.h"

#define COMP "graph"

enum node_kind { NODE_CTX, NODE_USER };

struct doca_graph_node {
	struct doca_graph *graph;
	uint32_t idx;
	enum node_kind kind;
	const struct doca_ctx *ctx;
	doca_graph_user_node_cb_t user_cb;
	uint32_t npred;
	uint32_t nsucc, capsucc;
	uint32_t *succ;
};

struct doca_graph {
	struct doca_pe *pe;
	bool started;
	uint32_t nnodes, capnodes;
	struct doca_graph_node **nodes;
	doca_graph_completion_cb_t comp_cb;
	doca_graph_completion_cb_t err_cb;
	uint32_t max_instances;
	uint32_t nb_instances;
	union doca_data user_data;
};

struct doca_graph_instance {
	struct doca_graph *graph;
	struct pe_deferred done; /* queued on the PE when it finished inside submit */
	bool submitted;
	bool failed;
	uint32_t left;
	union doca_data user_data;
	struct doca_task **tasks;
	void **cookies;
	uint32_t *pending;
};

DOCA_EXPERIMENTAL doca_error_t doca_graph_create(struct doca_pe *pe, struct doca_graph **graph)
{
	struct doca_graph *g;

	if (pe == NULL || graph == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_create: NULL argument");
	g = calloc(1, sizeof(*g));
	if (g == NULL)
		return DOCA_ERROR_NO_MEMORY;
	g->pe = pe;
	*graph = g;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_destroy(struct doca_graph *graph)
{
	if (graph == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_destroy: NULL graph");
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_graph_destroy: graph %p is started; call doca_graph_stop() first",
				 (void *)graph);
	for (uint32_t i = 0; i < graph->nnodes; i++) {
		free(graph->nodes[i]->succ);
		free(graph->nodes[i]);
	}
	free(graph->nodes);
	free(graph);
	return DOCA_SUCCESS;
}

static doca_error_t node_add(struct doca_graph *graph, enum node_kind kind, struct doca_graph_node **out)
{
	struct doca_graph_node *n;

	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "graph %p is started; add nodes before doca_graph_start()",
				 (void *)graph);
	if (graph->nnodes == graph->capnodes) {
		uint32_t cap = graph->capnodes ? graph->capnodes * 2 : 8;
		struct doca_graph_node **nn = realloc(graph->nodes, cap * sizeof(*nn));

		if (nn == NULL)
			return DOCA_ERROR_NO_MEMORY;
		graph->nodes = nn;
		graph->capnodes = cap;
	}
	n = calloc(1, sizeof(*n));
	if (n == NULL)
		return DOCA_ERROR_NO_MEMORY;
	n->graph = graph;
	n->idx = graph->nnodes;
	n->kind = kind;
	graph->nodes[graph->nnodes++] = n;
	*out = n;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_node_create_from_ctx(struct doca_graph *graph, const struct doca_ctx *ctx,
							       struct doca_graph_node **node)
{
	doca_error_t ret;

	if (graph == NULL || ctx == NULL || node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_node_create_from_ctx: NULL argument");
	if (ctx->pe != graph->pe)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_graph_node_create_from_ctx: %s is not connected to the graph's progress engine "
				 "%p; connect it with doca_pe_connect_ctx() first",
				 priv_doca_ctx_name(ctx), (void *)graph->pe);
	ret = node_add(graph, NODE_CTX, node);
	if (ret == DOCA_SUCCESS)
		(*node)->ctx = ctx;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_node_create_from_user(struct doca_graph *graph, doca_graph_user_node_cb_t cb,
								struct doca_graph_node **node)
{
	doca_error_t ret;

	if (graph == NULL || cb == NULL || node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_node_create_from_user: NULL argument");
	ret = node_add(graph, NODE_USER, node);
	if (ret == DOCA_SUCCESS)
		(*node)->user_cb = cb;
	return ret;
}

/* True when @to can reach @from (adding from->to would close a cycle). */
static bool reaches(const struct doca_graph *g, uint32_t to, uint32_t from, uint8_t *seen)
{
	if (to == from)
		return true;
	if (seen[to])
		return false;
	seen[to] = 1;
	for (uint32_t i = 0; i < g->nodes[to]->nsucc; i++)
		if (reaches(g, g->nodes[to]->succ[i], from, seen))
			return true;
	return false;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_add_dependency(struct doca_graph *graph, struct doca_graph_node *from,
							 struct doca_graph_node *to)
{
	uint8_t *seen;
	bool cycle;

	if (graph == NULL || from == NULL || to == NULL || from->graph != graph || to->graph != graph)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_graph_add_dependency: NULL argument or node of another graph");
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_graph_add_dependency: graph %p is started",
				 (void *)graph);
	seen = calloc(graph->nnodes, 1);
	if (seen == NULL)
		return DOCA_ERROR_NO_MEMORY;
	cycle = reaches(graph, to->idx, from->idx, seen);
	free(seen);
	if (cycle)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_graph_add_dependency: node %u -> node %u would close a cycle; a graph must stay "
				 "acyclic",
				 from->idx, to->idx);
	if (from->nsucc == from->capsucc) {
		uint32_t cap = from->capsucc ? from->capsucc * 2 : 4;
		uint32_t *ns = realloc(from->succ, cap * sizeof(*ns));

		if (ns == NULL)
			return DOCA_ERROR_NO_MEMORY;
		from->succ = ns;
		from->capsucc = cap;
	}
	from->succ[from->nsucc++] = to->idx;
	to->npred++;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_set_conf(struct doca_graph *graph,
						   doca_graph_completion_cb_t graph_completion_cb,
						   doca_graph_completion_cb_t graph_error_cb, uint32_t num_instances)
{
	if (graph == NULL || graph_completion_cb == NULL || graph_error_cb == NULL || num_instances == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_graph_set_conf: NULL graph or callback, or 0 instances");
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_graph_set_conf: graph %p is started", (void *)graph);
	graph->comp_cb = graph_completion_cb;
	graph->err_cb = graph_error_cb;
	graph->max_instances = num_instances;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_set_user_data(struct doca_graph *graph, union doca_data user_data)
{
	if (graph == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_graph_set_user_data: graph %p is started",
				 (void *)graph);
	graph->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_start(struct doca_graph *graph)
{
	bool has_ctx = false;

	if (graph == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_start: NULL graph");
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_graph_start: graph %p is already started",
				 (void *)graph);
	if (graph->comp_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_graph_start: graph %p has no callbacks; call doca_graph_set_conf() first",
				 (void *)graph);
	for (uint32_t i = 0; i < graph->nnodes; i++) {
		const struct doca_graph_node *n = graph->nodes[i];

		if (n->kind != NODE_CTX)
			continue;
		has_ctx = true;
		if (n->ctx->state != DOCA_CTX_STATE_RUNNING)
			return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
					 "doca_graph_start: node %u uses %s which is not RUNNING; start its context "
					 "first",
					 i, priv_doca_ctx_name(n->ctx));
	}
	if (!has_ctx)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_graph_start: graph %p has no context node; add one with "
				 "doca_graph_node_create_from_ctx()",
				 (void *)graph);
	graph->started = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_stop(struct doca_graph *graph)
{
	if (graph == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_stop: NULL graph");
	if (graph->nb_instances != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_graph_stop: graph %p still has %u instance(s); destroy them first",
				 (void *)graph, graph->nb_instances);
	graph->started = false;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_create(const struct doca_graph *graph,
							  struct doca_graph_instance **graph_instance)
{
	struct doca_graph *g = (struct doca_graph *)graph;
	struct doca_graph_instance *inst;

	if (graph == NULL || graph_instance == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_instance_create: NULL argument");
	if (!graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_graph_instance_create: graph %p is not started; call doca_graph_start() first",
				 (const void *)graph);
	if (graph->nb_instances >= graph->max_instances)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP,
				 "doca_graph_instance_create: graph %p already has %u instance(s), its configured "
				 "maximum; raise num_instances in doca_graph_set_conf()",
				 (const void *)graph, graph->max_instances);
	inst = calloc(1, sizeof(*inst));
	if (inst == NULL)
		return DOCA_ERROR_NO_MEMORY;
	inst->tasks = calloc(graph->nnodes, sizeof(*inst->tasks));
	inst->cookies = calloc(graph->nnodes, sizeof(*inst->cookies));
	inst->pending = calloc(graph->nnodes, sizeof(*inst->pending));
	if (inst->tasks == NULL || inst->cookies == NULL || inst->pending == NULL) {
		free(inst->tasks);
		free(inst->cookies);
		free(inst->pending);
		free(inst);
		return DOCA_ERROR_NO_MEMORY;
	}
	inst->graph = g;
	g->nb_instances++;
	*graph_instance = inst;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_destroy(struct doca_graph_instance *graph_instance)
{
	if (graph_instance == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_instance_destroy: NULL instance");
	if (graph_instance->submitted)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_graph_instance_destroy: instance %p is running; wait for its callback",
				 (void *)graph_instance);
	graph_instance->graph->nb_instances--;
	free(graph_instance->tasks);
	free(graph_instance->cookies);
	free(graph_instance->pending);
	free(graph_instance);
	return DOCA_SUCCESS;
}

static doca_error_t check_node(struct doca_graph_instance *inst, struct doca_graph_node *node, enum node_kind kind,
			       const char *call)
{
	if (inst == NULL || node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (inst->submitted)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: instance %p is running", call, (void *)inst);
	if (node->graph != inst->graph || node->kind != kind)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: node %u is not a %s node of this instance's graph", call, node->idx,
				 kind == NODE_CTX ? "context" : "user");
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_ctx_node_data(struct doca_graph_instance *graph_instance,
								     struct doca_graph_node *node,
								     struct doca_task *task)
{
	doca_error_t ret = check_node(graph_instance, node, NODE_CTX, "doca_graph_instance_set_ctx_node_data");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (task == NULL || task->ctx != node->ctx)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_graph_instance_set_ctx_node_data: task %p was not allocated from %s",
				 (void *)task, priv_doca_ctx_name(node->ctx));
	graph_instance->tasks[node->idx] = task;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_user_node_data(struct doca_graph_instance *graph_instance,
								      struct doca_graph_node *node, void *cookie)
{
	doca_error_t ret = check_node(graph_instance, node, NODE_USER, "doca_graph_instance_set_user_node_data");

	if (ret != DOCA_SUCCESS)
		return ret;
	graph_instance->cookies[node->idx] = cookie;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_user_data(struct doca_graph_instance *graph_instance,
								 union doca_data user_data)
{
	if (graph_instance == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (graph_instance->submitted)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP, "doca_graph_instance_set_user_data: instance %p is running",
				 (void *)graph_instance);
	graph_instance->user_data = user_data;
	return DOCA_SUCCESS;
}

static void node_finished(struct doca_graph_instance *inst, uint32_t idx, doca_error_t status);

/* The completion hook of a task that runs as a context node: the task's own callbacks wait. */
static void node_task_done(struct doca_task *task, bool success)
{
	struct doca_graph_instance *inst = task->done_arg;

	(void)success; /* task->status says it */
	task->on_done = task->ctx->ops->deliver;
	node_finished(inst, task->done_idx, task->status);
}

static void node_start(struct doca_graph_instance *inst, uint32_t idx)
{
	const struct doca_graph_node *n = inst->graph->nodes[idx];
	struct doca_task *task;
	doca_error_t ret;

	if (inst->failed) {
		node_finished(inst, idx, DOCA_ERROR_SKIPPED);
		return;
	}
	if (n->kind == NODE_USER) {
		node_finished(inst, idx, n->user_cb(inst->cookies[idx]));
		return;
	}
	task = inst->tasks[idx];
	task->on_done = node_task_done;
	task->done_arg = inst;
	task->done_idx = idx;
	ret = doca_task_submit(task);
	if (ret != DOCA_SUCCESS) {
		task->on_done = task->ctx->ops->deliver;
		node_finished(inst, idx, ret);
	}
}

static void node_finished(struct doca_graph_instance *inst, uint32_t idx, doca_error_t status)
{
	struct doca_graph *g = inst->graph;
	const struct doca_graph_node *n = g->nodes[idx];

	if (status != DOCA_SUCCESS && status != DOCA_ERROR_SKIPPED)
		inst->failed = true;
	for (uint32_t i = 0; i < n->nsucc; i++)
		if (--inst->pending[n->succ[i]] == 0)
			node_start(inst, n->succ[i]);
	if (--inst->left == 0) {
		inst->submitted = false;
		(inst->failed ? g->err_cb : g->comp_cb)(inst, inst->user_data, g->user_data);
	}
}

/* An instance that finished inside its submit: its callback, from doca_pe_progress(). */
static void instance_done_deferred(struct pe_deferred *d)
{
	struct doca_graph_instance *inst = SD_CONTAINER_OF(d, struct doca_graph_instance, done);
	struct doca_graph *g = inst->graph;

	inst->submitted = false;
	(inst->failed ? g->err_cb : g->comp_cb)(inst, inst->user_data, g->user_data);
}

DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_submit(struct doca_graph_instance *graph_instance)
{
	struct doca_graph *g;

	if (graph_instance == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_graph_instance_submit: NULL instance");
	if (graph_instance->submitted)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP, "doca_graph_instance_submit: instance %p is already running",
				 (void *)graph_instance);
	g = graph_instance->graph;
	for (uint32_t i = 0; i < g->nnodes; i++) {
		if (g->nodes[i]->kind == NODE_CTX && graph_instance->tasks[i] == NULL)
			return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
					 "doca_graph_instance_submit: context node %u has no task; call "
					 "doca_graph_instance_set_ctx_node_data() first",
					 i);
		graph_instance->pending[i] = g->nodes[i]->npred;
	}
	graph_instance->submitted = true;
	graph_instance->failed = false;
	/* +1 guard so the instance cannot complete while roots are still being started. */
	graph_instance->left = g->nnodes + 1;
	for (uint32_t i = 0; i < g->nnodes; i++)
		if (g->nodes[i]->npred == 0)
			node_start(graph_instance, i);
	if (--graph_instance->left == 0) {
		/* Every node finished inside submit (all context tasks refused): the callback still
		 * belongs to doca_pe_progress(). */
		graph_instance->done.run = instance_done_deferred;
		priv_doca_pe_defer(g->pe, &graph_instance->done);
	}
	return DOCA_SUCCESS;
}
