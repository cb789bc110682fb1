/* SPDX-License-Identifier: BSD-3-Clause */
/* Half of test_side_mixed: an object built with the dpu personality (its marker registers dpu). */
#include <doca_dev.h>

int side_mixed_dpu_object(void);
int side_mixed_dpu_object(void)
{
	return 1;
}
