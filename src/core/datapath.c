/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * datapath.c - what the core offers module data paths (struct ctx_dp_ops, core.h): helpers for
 * ops a module does not need, and, for modules that move bytes, an executor queue of the
 * engine the process selected and the transport for a pair of memory domains.
 */
#include <stdio.h>

#include "core.h"

#define COMP "ctx"

SD_PRIV unsigned int priv_doca_dp_nop_poll(struct ctx_dp_queue *q, unsigned int budget)
{
	(void)q;
	(void)budget;
	return 0;
}

SD_PRIV bool priv_doca_dp_nop_pending(const struct ctx_dp_queue *q)
{
	(void)q;
	return false;
}

SD_PRIV void priv_doca_dp_nop_cancel(struct ctx_dp_queue *q, doca_error_t status)
{
	(void)q;
	(void)status;
}

SD_PRIV doca_error_t priv_doca_dp_executor_create(const struct ctx_dp_attr *attr, const struct engine_ops **ops,
						  struct engine_queue **q)
{
	const struct engine_ops *exec = engine_default();
	struct engine_queue_attr ea = {
	    .depth = attr->depth,
	    .workers = 0,
	    .notify = attr->notify,
	    .owner = attr->owner,
	};
	const char *bad = engine_env_error();
	doca_error_t ret;

	/* Contexts with tasks were refused this already; a GPU data path's queue comes here first. */
	if (bad != NULL)
		return SD_REJECT(DOCA_ERROR_BAD_CONFIG, COMP,
				 "doca_ctx_start: %s: %s; fix the value or unset the variable",
				 priv_doca_ctx_name(attr->ctx), bad);
	if (exec == NULL) {
		bool config = false;
		const char *why = engine_default_error(&config);

		return SD_REJECT(config ? DOCA_ERROR_BAD_CONFIG : DOCA_ERROR_INITIALIZATION, COMP,
				 "doca_ctx_start: %s: %s", priv_doca_ctx_name(attr->ctx), why);
	}
	ret = exec->queue_create(&ea, q);
	if (ret != DOCA_SUCCESS)
		return ret;
	*ops = exec;
	return DOCA_SUCCESS;
}

SD_PRIV const struct engine_xfer *priv_doca_dp_transport(enum mem_domain_kind src, enum mem_domain_kind dst, char *why,
							 size_t len)
{
	return engine_transport_for(src, dst, why, len);
}

SD_PRIV const char *priv_doca_mem_domain_kind_name(enum mem_domain_kind k)
{
	return mem_domain_kind_name(k);
}

SD_PRIV void priv_doca_task_complete(struct doca_task *task, doca_error_t status)
{
	engine_complete(&task->comp, status);
}
