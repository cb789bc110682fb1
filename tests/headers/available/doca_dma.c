/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_dma.h includes <inttypes.h>, doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_dma.h>

#include "compat_set.h"

uintmax_t dma_use(const char *text, struct doca_dma *dma);
uintmax_t dma_use(const char *text, struct doca_dma *dma)
{
	static const char fmt[] = "%" PRIu64 " bytes"; /* <inttypes.h> */
	uintmax_t n = strtoumax(text, NULL, 10);       /* <inttypes.h> */
	struct doca_ctx *ctx = doca_dma_as_ctx(dma);
	union doca_data user;

	user.ptr = ctx;
	return n + sizeof(fmt) + (user.ptr != NULL);
}
