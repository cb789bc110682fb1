/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctx_name.c - the names of contexts and their states in log lines. Every core file that logs
 * about a context uses them; they call nothing of the state machine (ctx.c).
 */
#include <stdio.h>

#include <doca_ctx.h>

#include "core.h"

SD_PRIV const char *priv_doca_ctx_state_name(enum doca_ctx_states s)
{
	switch (s) {
	case DOCA_CTX_STATE_IDLE:
		return "IDLE";
	case DOCA_CTX_STATE_STARTING:
		return "STARTING";
	case DOCA_CTX_STATE_RUNNING:
		return "RUNNING";
	case DOCA_CTX_STATE_STOPPING:
		return "STOPPING";
	}
	return "?";
}

SD_PRIV const char *priv_doca_ctx_name(const struct doca_ctx *ctx)
{
	static _Thread_local char name[96];

	snprintf(name, sizeof(name), "%s context %p on %s", ctx->ops ? ctx->ops->name : "?", (const void *)ctx,
		 ctx->dev ? priv_doca_dev_name(&ctx->dev->info) : "(no device)");
	return name;
}
