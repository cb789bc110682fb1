/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_flow_net.h includes <stdint.h>, <stdbool.h>, doca_types.h. */
#include <doca_flow_net.h>

#include "compat_set.h"

int flow_net_use(void);
int flow_net_use(void)
{
	struct doca_flow_header_ip4 ip4;
	doca_be32_t addr = 0;	/* doca_types.h */
	bool ok = true;		/* <stdbool.h> */

	memset(&ip4, 0, sizeof(ip4));
	ip4.src_ip = addr;
	return ok + ip4.next_proto + DOCA_FLOW_ETHER_ADDR_LEN;
}
