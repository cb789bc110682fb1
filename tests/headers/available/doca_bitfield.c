/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_bitfield.h includes <stdlib.h> and doca_types.h (and <intrin.h> on Windows). */
#include <doca_bitfield.h>

void *bitfield_use(uint32_t host, union doca_data *out);
void *bitfield_use(uint32_t host, union doca_data *out)
{
	out->u64 = DOCA_HTOBE32(host) + DOCA_BETOH16(DOCA_HTOBE16(7)); /* doca_types.h, the macros */
	return malloc(sizeof(*out));				      /* <stdlib.h> */
}
