/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_graph.h includes <stdint.h>, <stddef.h>, doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_graph.h>

#include "compat_set.h"

int graph_use(struct doca_pe *pe, struct doca_graph **graph);
int graph_use(struct doca_pe *pe, struct doca_graph **graph)
{
	union doca_data user = {NULL};
	size_t n = sizeof(user);

	return doca_graph_create(pe, graph) == DOCA_SUCCESS && n == sizeof(uint64_t);
}
