/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_log.h includes <stddef.h>, <stdio.h>, <stdint.h>, doca_compat.h, doca_error.h. */
#include <doca_log.h>

#include "compat_set.h"

int log_use(FILE *out, uint32_t n);
int log_use(FILE *out, uint32_t n)
{
	enum doca_log_level level = DOCA_LOG_LEVEL_INFO;
	char line[64];
	size_t len = sizeof(line);

	snprintf(line, len, "%u", (unsigned)n); /* <stdio.h> */
	if (fprintf(out ? out : stderr, "%s\n", line) < 0)
		return (int)DOCA_ERROR_IO_FAILED;
	return (int)level;
}
