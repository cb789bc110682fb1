/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_env.c - every SOFTDOCA_* value is used whole or refused whole.
 *
 * The strict parsers (src/common/env.c) and the SOFTDOCA_FAULT setting are checked directly,
 * then end to end: a value that cannot be used makes doca_ctx_start() fail with
 * DOCA_ERROR_BAD_CONFIG (one child process per value, as the settings are read once per
 * process), and a good one starts the context.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dma.h>
#include <doca_pe.h>

#include "../common/sd_test.h"
#include "core.h"

static void test_parsers(void)
{
	static const char *const bad_u64[] = {"", "-1", "+1", " 1", "1 ", "3x", "abc", "0x10", "1.0"};
	uint64_t v = 42;
	double p = 0.5;

	CHECK(priv_sd_parse_u64("0", 0, 10, &v) == 0 && v == 0);
	CHECK(priv_sd_parse_u64("007", 0, 10, &v) == 0 && v == 7);
	CHECK(priv_sd_parse_u64("18446744073709551615", 0, UINT64_MAX, &v) == 0 && v == UINT64_MAX);
	CHECK(priv_sd_parse_u64("18446744073709551616", 0, UINT64_MAX, &v) == -ERANGE);
	CHECK(priv_sd_parse_u64("99999999999999999999999", 0, UINT64_MAX, &v) == -ERANGE);
	CHECK(priv_sd_parse_u64("11", 0, 10, &v) == -ERANGE && v == UINT64_MAX);
	CHECK(priv_sd_parse_u64("0", 1, 10, &v) == -ERANGE);
	for (size_t i = 0; i < sizeof(bad_u64) / sizeof(bad_u64[0]); i++)
		CHECK(priv_sd_parse_u64(bad_u64[i], 0, UINT64_MAX, &v) == -EINVAL);
	CHECK(priv_sd_parse_prob("0.25", &p) == 0 && p == 0.25);
	CHECK(priv_sd_parse_prob("1", &p) == 0 && p == 1.0);
	CHECK(priv_sd_parse_prob("0.001", &p) == 0 && p == 0.001);
	CHECK(priv_sd_parse_prob("001.000", &p) == 0 && p == 1.0);
	CHECK(priv_sd_parse_prob("0", &p) == 0 && p == 0.0);
	CHECK(priv_sd_parse_prob(".5", &p) == 0 && p == 0.5);
	CHECK(priv_sd_parse_prob("1.", &p) == 0 && p == 1.0);
	CHECK(priv_sd_parse_prob("1e-3", &p) == -EINVAL); /* plain decimals only */
	CHECK(priv_sd_parse_prob("1e0", &p) == -EINVAL);
	CHECK(priv_sd_parse_prob("1.0000000000000000001", &p) == -ERANGE); /* above 1, though it rounds to 1 */
	CHECK(priv_sd_parse_prob("10", &p) == -ERANGE);
	CHECK(priv_sd_parse_prob("2", &p) == -ERANGE);
	CHECK(priv_sd_parse_prob("-0.1", &p) == -EINVAL);
	CHECK(priv_sd_parse_prob("nan", &p) == -EINVAL);
	CHECK(priv_sd_parse_prob("inf", &p) == -EINVAL);
	CHECK(priv_sd_parse_prob("0x1p-1", &p) == -EINVAL);
	CHECK(priv_sd_parse_prob(" 0.5", &p) == -EINVAL);
	CHECK(priv_sd_parse_prob("0.5 ", &p) == -EINVAL);
	CHECK(priv_sd_parse_prob(".", &p) == -EINVAL);
	CHECK(priv_sd_parse_prob("1e", &p) == -EINVAL);
}

#define FAULT_KEYS_WANT "again, error, error_prob, nth, delay_us, stall and seed"

static void test_fault_setting(void)
{
	static const char *const bad[] = {
	    "nth=-1",
	    "seed=-7",
	    "stall=-1:5",
	    "stall=1:-5",
	    "stall=1",
	    "delay_us=18446744073709552",
	    "delay_us=60000001",
	    "error_prob=2",
	    "again=1.5",
	    "again=",
	    "error=NOPE,nth=1",
	    "error=DRIVER",
	    "nth=1,nth=2",
	    "bogus=1",
	    "nth",
	    ",nth=1",
	    "nth=1,",
	    "nth=1,,seed=2",
	    "nth=0",
	};
	struct fault_config c;
	unsigned int given;
	char err[256], longv[700] = "";

	CHECK(priv_sd_fault_parse("nth=3,error=IO_FAILED,delay_us=500,stall=2:100,seed=9,again=0.5", &c, &given, err,
				  sizeof(err)));
	CHECK(c.nth == 3 && c.error == DOCA_ERROR_IO_FAILED && c.delay_ns == 500000 && c.stall_nth == 2 &&
	      c.stall_ns == 100000000 && c.seed == 9 && c.again_p == 0.5);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (priv_sd_fault_parse(bad[i], &c, &given, err, sizeof(err)) || err[0] == '\0') {
			fprintf(stderr, "SOFTDOCA_FAULT='%s' was accepted (or refused without a reason)\n", bad[i]);
			exit(T_EXIT_FAIL);
		}
	}
	/* A refusal says what would be accepted: the keys, the range of a number. */
	CHECK(!priv_sd_fault_parse("bogus=1", &c, &given, err, sizeof(err)));
	CHECK(strstr(err, "unknown key 'bogus' (the keys are " FAULT_KEYS_WANT ")") != NULL);
	CHECK(!priv_sd_fault_parse("seed=-1", &c, &given, err, sizeof(err)));
	CHECK(strstr(err, "'seed=-1': not a seed in 0..18446744073709551615") != NULL);
	CHECK(!priv_sd_fault_parse("seed=18446744073709551616", &c, &given, err, sizeof(err)));
	CHECK(strstr(err, "not a seed in 0..18446744073709551615") != NULL);
	/* 72 x "seed=1," then nth=1234: more than 511 bytes is refused, never cut to nth=123. */
	for (int i = 0; i < 72; i++)
		strcat(longv, "seed=1,");
	strcat(longv, "nth=1234");
	CHECK(!priv_sd_fault_parse(longv, &c, &given, err, sizeof(err)));
	CHECK(strstr(err, "bytes long") != NULL);
}

struct setting {
	const char *var, *value;
};

static int start_child(void *arg)
{
	const struct setting *set = arg;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;

	sd_setenv(set->var, set->value);
	dev = sd_open_dev("03:00.0");
	if (doca_pe_create(&pe) != DOCA_SUCCESS || doca_dma_create(dev, &dma) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)) != DOCA_SUCCESS)
		return 200;
	return (int)doca_ctx_start(doca_dma_as_ctx(dma));
}

/* In a child: start a DMA context with @var=@value; returns what doca_ctx_start() returned. */
static doca_error_t start_with(const char *var, const char *value)
{
	struct setting set = {var, value};

	return (doca_error_t)check_run_child(start_child, &set, var);
}

int main(void)
{
	static const struct {
		const char *var, *value;
		doca_error_t want;
	} e2e[] = {
	    {"SOFTDOCA_FAULT", "error_prob=2", DOCA_ERROR_BAD_CONFIG},
	    {"SOFTDOCA_FAULT", "nth=-1", DOCA_ERROR_BAD_CONFIG},
	    {"SOFTDOCA_FAULT", "delay_us=100", DOCA_SUCCESS},
	    {"SOFTDOCA_CPU_WORKERS", "abc", DOCA_ERROR_BAD_CONFIG},
	    {"SOFTDOCA_CPU_WORKERS", "-1", DOCA_ERROR_BAD_CONFIG},
	    {"SOFTDOCA_CPU_WORKERS", "3x", DOCA_ERROR_BAD_CONFIG},
	    {"SOFTDOCA_CPU_WORKERS", "100000", DOCA_ERROR_BAD_CONFIG},
	    {"SOFTDOCA_CPU_WORKERS", "2", DOCA_SUCCESS},
	    {"SOFTDOCA_TRACE_EVENTS", "15", DOCA_ERROR_BAD_CONFIG}, /* refused even without SOFTDOCA_TRACE */
	    {"SOFTDOCA_TRACE_EVENTS", "64", DOCA_SUCCESS},
	    {"SOFTDOCA_TRACE", "/nonexistent-dir/trace.json", DOCA_ERROR_BAD_CONFIG}, /* at start, not at exit */
	    {"SOFTDOCA_TRACE", "/", DOCA_ERROR_BAD_CONFIG},			      /* not a regular file */
	    {"SOFTDOCA_ENGINE", "garbage", DOCA_ERROR_BAD_CONFIG},
	    {"SOFTDOCA_ENGINE", "cma", DOCA_ERROR_BAD_CONFIG}, /* a transport, not an executor */
	};

	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	sd_setenv("SOFTDOCA_CPU_WORKERS", NULL);
	test_parsers();
	test_fault_setting();
	for (size_t i = 0; i < sizeof(e2e) / sizeof(e2e[0]); i++) {
		doca_error_t got = start_with(e2e[i].var, e2e[i].value);

		if (got != e2e[i].want) {
			fprintf(stderr, "%s='%s': doca_ctx_start returned %s, expected %s\n", e2e[i].var, e2e[i].value,
				doca_error_get_name(got), doca_error_get_name(e2e[i].want));
			return T_EXIT_FAIL;
		}
	}
	printf("test_env: ok\n");
	return T_EXIT_PASS;
}
