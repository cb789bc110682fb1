/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_eth_txq_cpu_data_path.h includes doca_compat.h, doca_error.h, doca_pe.h, doca_types.h. */
#include <doca_eth_txq_cpu_data_path.h>

#include "compat_set.h"

doca_error_t eth_txq_dp_use(struct doca_eth_txq_task_lso_send *task, struct doca_gather_list *headers);
doca_error_t eth_txq_dp_use(struct doca_eth_txq_task_lso_send *task, struct doca_gather_list *headers)
{
	struct doca_task_batch *batch = NULL;
	enum doca_task_batch_max_tasks_number n = DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16; /* doca_pe.h */

	doca_eth_txq_task_lso_send_set_headers(task, headers); /* struct doca_gather_list: doca_types.h */
	doca_eth_txq_task_lso_send_set_ol_flags(task, DOCA_ETH_TXQ_OL_FLAGS_L3_CSUM);
	if (batch != NULL || n != DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16)
		return doca_task_batch_submit(batch);
	return doca_task_submit(doca_eth_txq_task_lso_send_as_doca_task(task));
}
