/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_common_defines.h includes nothing and defines doca_likely()/doca_unlikely(). */
#include <doca_common_defines.h>

int common_defines_use(int x);
int common_defines_use(int x)
{
	return doca_likely(x > 0) + doca_unlikely(x < 0);
}
