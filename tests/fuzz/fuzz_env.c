/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_env.c - libFuzzer target for the SOFTDOCA_* value parsers (src/common/env.c) and the
 * SOFTDOCA_FAULT setting (src/core/fault.c), values a user or a script hands every program.
 *
 * The input is split at its first NUL: the part before is a SOFTDOCA_FAULT value, the same
 * bytes are also parsed as an integer and a probability. Properties checked: no crash, no read
 * past the input; an accepted setting has every number in its documented range; a refusal
 * always comes with a reason; an accepted integer reprints to exactly the input.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken property aborts in every build (PROPERTY() would vanish under NDEBUG). */
#define PROPERTY(cond)                                                                                                 \
	do {                                                                                                           \
		if (!(cond))                                                                                           \
			abort();                                                                                       \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), err[256], back[32];
	struct fault_config c;
	unsigned int given;
	uint64_t v;
	double p;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	err[0] = '\0';
	if (priv_sd_fault_parse(s, &c, &given, err, sizeof(err))) {
		PROPERTY(c.again_p >= 0.0 && c.again_p <= 1.0);
		PROPERTY(c.error_p >= 0.0 && c.error_p <= 1.0);
		PROPERTY(c.delay_ns <= 60000000000ull);
		PROPERTY(c.stall_ns <= 600000000000ull);
		PROPERTY(c.error != DOCA_SUCCESS);
		PROPERTY(given != 0);
	} else {
		PROPERTY(err[0] != '\0');
	}
	if (priv_sd_parse_u64(s, 0, UINT64_MAX, &v) == 0) {
		snprintf(back, sizeof(back), "%" PRIu64, v);
		/* Leading zeros are the only other spelling of an accepted number. */
		const char *t = s;

		while (t[0] == '0' && t[1] != '\0')
			t++;
		PROPERTY(strcmp(back, t) == 0);
	}
	if (priv_sd_parse_prob(s, &p) == 0)
		PROPERTY(p >= 0.0 && p <= 1.0);
	free(s);
	return 0;
}
