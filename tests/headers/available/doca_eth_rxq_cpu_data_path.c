/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_eth_rxq_cpu_data_path.h includes doca_compat.h, doca_error.h, doca_pe.h, doca_types.h. */
#include <doca_eth_rxq_cpu_data_path.h>

#include "compat_set.h"

doca_error_t eth_rxq_dp_use(struct doca_eth_rxq_task_recv *task, struct doca_pe *pe);
doca_error_t eth_rxq_dp_use(struct doca_eth_rxq_task_recv *task, struct doca_pe *pe)
{
	struct doca_task *t = doca_eth_rxq_task_recv_as_doca_task(task);
	enum doca_event_batch_events_number n = DOCA_EVENT_BATCH_EVENTS_NUMBER_4; /* doca_pe.h */

	(void)doca_pe_progress(pe); /* doca_pe.h */
	return n == DOCA_EVENT_BATCH_EVENTS_NUMBER_4 ? doca_task_submit(t) : DOCA_ERROR_UNEXPECTED;
}
