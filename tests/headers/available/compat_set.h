/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What every DOCA header that includes doca_compat.h makes available: DOCA's doca_config.h
 * turns on DOCA_COMPAT_HELPERS, under which doca_compat.h includes <string.h>, <stdint.h>,
 * <stdlib.h>, <assert.h> and doca_version.h (which includes <stddef.h>). Test-local: include
 * it after the header under test; it includes nothing itself.
 */
#ifndef HEADERS_COMPAT_SET_H
#define HEADERS_COMPAT_SET_H

#ifndef DOCA_COMPAT_HELPERS
#error "DOCA_COMPAT_HELPERS is not defined"
#endif

struct compat_set_versioned {
	DOCA_STRUCT_START;
	uint32_t value;
};

size_t compat_set_use(const char *text);
size_t compat_set_use(const char *text)
{
	size_t n = strlen(text);
	char *copy = (char *)malloc(n + 1); /* <stdlib.h> */
	char *zeroed = (char *)calloc(1, 16);
	struct compat_set_versioned v;

	assert(copy != NULL && zeroed != NULL); /* <assert.h> */
	memcpy(copy, text, n + 1);		/* <string.h> */
	memset(zeroed, 0, 16);
	n += (size_t)strcmp(copy, text);
	free(zeroed);
	free(copy);

	DOCA_STRUCT_MEMSET_CTOR(v);			/* doca_compat.h */
	v.value = (uint32_t)(UINT32_MAX - (uint32_t)n); /* <stdint.h> */
	if (DOCA_STRUCT_GET_VERSION(&v) != DOCA_VERSION_EXACT || v.value == 0)
		abort();
	n += offsetof(struct compat_set_versioned, value); /* <stddef.h> */
	return n + (size_t)DOCA_VERSION_MAJOR + strlen(doca_version());
}

#endif /* HEADERS_COMPAT_SET_H */
