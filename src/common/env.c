/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * env.c - the one strict parser behind every SOFTDOCA_* value.
 *
 * A value is either used whole or refused whole: no sign, space or trailing character is
 * skipped, no number wraps or is clamped, nothing is truncated. Each function is pure (it
 * touches no global state), so the fuzz target tests/fuzz/fuzz_env.c drives it directly.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sd_internal.h"

SD_PRIV int priv_sd_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	for (const char *p = s; *p != '\0'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* digits [ '.' digits ], at least one digit: no sign, no exponent, no spaces. */
static int is_plain_decimal(const char *s)
{
	int digits = 0;

	while (*s >= '0' && *s <= '9')
		s++, digits++;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9')
			s++, digits++;
	}
	return digits > 0 && *s == '\0';
}

/* Whether the plain decimal @s is at most 1, read digit by digit (no rounding: 1.0000000000000000001
 * is more than 1 although it converts to 1.0). */
static int at_most_one(const char *s)
{
	while (*s == '0')
		s++;
	if (*s == '\0' || *s == '.')
		return 1;
	if (*s != '1' || (s[1] != '\0' && s[1] != '.'))
		return 0;
	for (s += s[1] == '.' ? 2 : 1; *s != '\0'; s++)
		if (*s != '0')
			return 0;
	return 1;
}

SD_PRIV int priv_sd_parse_prob(const char *s, double *out)
{
	char *end;
	double p;

	if (s == NULL || !is_plain_decimal(s))
		return -EINVAL;
	errno = 0;
	p = strtod(s, &end);
	if (*end != '\0' || errno == ERANGE || !isfinite(p))
		return -EINVAL;
	if (!(p >= 0.0 && p <= 1.0) || !at_most_one(s))
		return -ERANGE;
	*out = p;
	return 0;
}

SD_PRIV const char *priv_sd_parse_error(int rc)
{
	return rc == -ERANGE ? "out of range" : "not a number";
}
