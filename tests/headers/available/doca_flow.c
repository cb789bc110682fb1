/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_flow.h includes <stdio.h>, <stdint.h>, <stdbool.h>, doca_compat.h, doca_error.h, doca_flow_net.h. */
#include <doca_flow.h>

#include "compat_set.h"

int flow_use(FILE *f, struct doca_flow_pipe *pipe);
int flow_use(FILE *f, struct doca_flow_pipe *pipe)
{
	struct doca_flow_match match;
	bool root = true;				/* <stdbool.h> */
	doca_error_t err = DOCA_SUCCESS;		/* doca_error.h */

	memset(&match, 0, sizeof(match));
	match.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;	/* doca_flow_net.h */
	match.outer.ip4.next_proto = DOCA_FLOW_PROTO_UDP;
	doca_flow_pipe_dump(pipe, f);
	return fprintf(f, "%d %d %d\n", root, (int)err, (int)match.outer.l3_type); /* <stdio.h> */
}
