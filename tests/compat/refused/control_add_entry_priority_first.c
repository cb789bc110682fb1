/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA 3.2's argument order of doca_flow_pipe_control_add_entry (priority second). gcc 12 only
 * warns about it, and the call would read every argument from the wrong place.
 * expect: DOCA 3.2 passed the priority there
 * With -DDOCA_3_3_ORDER the same call in 3.3's order, which must build.
 */
#include <stddef.h>
#include <stdint.h>

#include <doca_flow.h>

doca_error_t add(struct doca_flow_pipe *pipe, const struct doca_flow_match *match, const struct doca_flow_fwd *fwd,
		 struct doca_flow_pipe_entry **entry);

doca_error_t add(struct doca_flow_pipe *pipe, const struct doca_flow_match *match, const struct doca_flow_fwd *fwd,
		 struct doca_flow_pipe_entry **entry)
{
	uint32_t priority = 1;

#ifdef DOCA_3_3_ORDER
	return doca_flow_pipe_control_add_entry(0, pipe, match, NULL, NULL, NULL, NULL, NULL, NULL, priority, fwd, NULL,
						entry);
#else
	return doca_flow_pipe_control_add_entry(0, priority, pipe, match, NULL, NULL, NULL, NULL, NULL, NULL, fwd, NULL,
						entry);
#endif
}
