/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_comch.h includes <stddef.h>, <stdint.h>, doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_comch.h>

#include "compat_set.h"

uint64_t comch_use(struct doca_comch_connection *conn);
uint64_t comch_use(struct doca_comch_connection *conn)
{
	enum doca_comch_counter counter = DOCA_COMCH_COUNTER_RECV_BYTES;
	union doca_data user = doca_comch_connection_get_user_data(conn);
	size_t n = sizeof(user);

	return user.u64 + (uint64_t)counter + n;
}
