/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_ctx.h includes <stddef.h>, <stdint.h>, doca_error.h, doca_types.h. */
#include <doca_ctx.h>

#include "compat_set.h"

int ctx_use(const struct doca_ctx *ctx);
int ctx_use(const struct doca_ctx *ctx)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;
	doca_ctx_state_changed_callback_t cb = NULL;
	union doca_data user = {NULL};
	size_t n = sizeof(state);

	if (doca_ctx_get_state(ctx, &state) != DOCA_SUCCESS || cb != NULL)
		return -1;
	user.u64 = (uint64_t)n;
	return state == DOCA_CTX_STATE_RUNNING && user.u64 != 0;
}
