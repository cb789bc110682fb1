/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_pe.h includes <stdint.h>, <stdlib.h>, doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_pe.h>

#include "compat_set.h"

void *pe_use(size_t n, struct doca_pe **pe, doca_task_completion_cb_t cb);
void *pe_use(size_t n, struct doca_pe **pe, doca_task_completion_cb_t cb)
{
	union doca_data data; /* doca_types.h */
	enum doca_pe_event_mode mode = DOCA_PE_EVENT_MODE_PROGRESS_ALL;
	uint32_t flags = DOCA_TASK_SUBMIT_FLAG_FLUSH;
	doca_event_handle_t fd = doca_event_invalid_handle;
	doca_error_t err = DOCA_SUCCESS; /* doca_error.h */
	void *p = malloc(n);		 /* <stdlib.h> */

	data.u64 = (uint64_t)n + (uint64_t)mode + flags + (uint64_t)(fd + 1);
	if (DOCA_IS_ERROR(err) || cb == NULL || data.u64 == 0)
		err = doca_pe_create(pe);
	free(p);
	return (void *)doca_error_get_name(err);
}
