/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * side_weak.c - an object that includes a DOCA header, with the side marker on, links and runs
 * without libdoca_common (the marker's reference is weak): build systems' compiler checks and
 * header-only users do this.
 */
#include <stdio.h>

#include <doca_compat.h>

int main(void)
{
	printf("linked without libdoca_common\n");
	return 0;
}
