/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argp_test.h - helpers shared by the in-process argp tests.
 *
 * Each test is a function returning 0 on success; the checks of ../common/sd_test.h return 1
 * from it (SD_CHECK_FAIL) with a message naming the line. The runner resets argp after every
 * test, so a failing test cannot leave the next one with a half-built parser.
 *
 * Callbacks append "name=value;" to the test's record, so one string comparison checks what
 * was delivered and in which order.
 */
#ifndef ARGP_TEST_H_
#define ARGP_TEST_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#define SD_CHECK_FAIL() return T_EXIT_FAIL
#include "../common/sd_test.h"

struct test_case {
	const char *name;
	int (*fn)(void);
};

#define TEST(fn)                                                                                                       \
	{                                                                                                              \
#fn, fn                                                                                                \
	}

static inline int run_tests(const struct test_case *tests, size_t count)
{
	int failed = 0;

	for (size_t i = 0; i < count; i++) {
		uint32_t sdk_level;
		int rc;

		fprintf(stderr, "--- %s\n", tests[i].name);
		rc = tests[i].fn();
		/* Leave a clean parser for the next test whatever happened, quietly: most tests
		 * destroyed it already and the BAD_STATE message would only be noise. */
		sdk_level = doca_log_level_get_global_sdk_limit();
		doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
		doca_argp_destroy();
		doca_log_level_set_global_sdk_limit(sdk_level);
		if (rc != 0) {
			fprintf(stderr, "FAIL %s\n", tests[i].name);
			failed++;
		} else {
			fprintf(stderr, "ok   %s\n", tests[i].name);
		}
	}
	fprintf(stderr, "%zu tests, %d failed\n", count, failed);
	return failed != 0 ? T_EXIT_FAIL : T_EXIT_PASS;
}

/* What the callbacks saw during one doca_argp_start(). */
struct rec {
	char log[8192];
	doca_error_t validation_result;
	int validations;
};

static inline doca_error_t rec_add(void *config, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline doca_error_t rec_add(void *config, const char *fmt, ...)
{
	struct rec *r = config;
	size_t used = strlen(r->log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->log + used, sizeof(r->log) - used, fmt, ap);
	va_end(ap);
	return DOCA_SUCCESS;
}

/* Recording callbacks shared by the in-process tests: each appends "name=value;" to the record. */
static inline doca_error_t cb_str(void *v, void *c)
{
	return rec_add(c, "str=%s;", (char *)v);
}

static inline doca_error_t cb_num(void *v, void *c)
{
	return rec_add(c, "num=%d;", *(int *)v);
}

static inline doca_error_t cb_bool(void *v, void *c)
{
	return rec_add(c, "bool=%d;", *(bool *)v);
}

static inline doca_error_t cb_obj(void *v, void *c)
{
	return rec_add(c, "obj=%s;", (char *)v);
}

static inline doca_error_t cb_multi(void *v, void *c)
{
	return rec_add(c, "multi=%s;", (char *)v);
}

static inline doca_error_t cb_port(void *v, void *c)
{
	return rec_add(c, "port=%d;", *(int *)v);
}

static inline doca_error_t cb_cli(void *v, void *c)
{
	return rec_add(c, "cli=%s;", (char *)v);
}

static inline doca_error_t rec_validate(void *config)
{
	struct rec *r = config;

	r->validations++;
	rec_add(config, "validate;");
	return r->validation_result;
}

enum {
	P_MANDATORY = 1 << 0,
	P_MULTI = 1 << 1,
	P_CLI_ONLY = 1 << 2,
};

/* create + set + register in one go; NULL names stay unset. */
static inline doca_error_t add_param(const char *short_name, const char *long_name, enum doca_argp_type type,
				     doca_argp_param_cb_t cb, unsigned int flags)
{
	struct doca_argp_param *p;
	doca_error_t err = doca_argp_param_create(&p);

	if (err != DOCA_SUCCESS)
		return err;
	if (short_name != NULL)
		doca_argp_param_set_short_name(p, short_name);
	if (long_name != NULL)
		doca_argp_param_set_long_name(p, long_name);
	doca_argp_param_set_description(p, "test flag");
	doca_argp_param_set_type(p, type);
	if (cb != NULL)
		doca_argp_param_set_callback(p, cb);
	if (flags & P_MANDATORY)
		doca_argp_param_set_mandatory(p);
	if (flags & P_MULTI)
		doca_argp_param_set_multiplicity(p);
	if (flags & P_CLI_ONLY)
		doca_argp_param_set_cli_only(p);
	return doca_argp_register_param(p);
}

static inline int argv_count(char **argv)
{
	int n = 0;

	while (argv[n] != NULL)
		n++;
	return n;
}

static inline doca_error_t start_list(char **argv)
{
	return doca_argp_start(argv_count(argv), argv);
}

/* doca_argp_start over the given arguments; argv[0] is "prog". START(NULL) passes none. */
#define START(...) start_list((char *[]){"prog", __VA_ARGS__, NULL})

#endif /* ARGP_TEST_H_ */
