/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_api.c - argp's lifecycle and registration calls, their states and error codes.
 */
#include "argp_test.h"

static doca_error_t cb_any(void *value, void *config)
{
	(void)value;
	(void)config;
	return DOCA_SUCCESS;
}

static doca_error_t cb_validate(void *config)
{
	(void)config;
	return DOCA_SUCCESS;
}

static int test_not_initialised(void)
{
	struct doca_argp_param *p = NULL;
	int level;

	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_param_create(&p), DOCA_ERROR_BAD_STATE);
	CHECK(p == NULL);
	CHECK_ERR(START(NULL), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_validation_callback(cb_validate), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_version_callback(cb_any), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_get_log_level(&level), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_get_sdk_log_level(&level), DOCA_ERROR_BAD_STATE);
	/* Must not crash; it logs that argp is not initialised. */
	doca_argp_usage();
	return 0;
}

static int test_init_destroy(void)
{
	int cfg;

	CHECK_ERR(doca_argp_init(NULL, &cfg), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_init(NULL, &cfg), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_destroy(), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	/* A second session after a full cycle. */
	CHECK_ERR(doca_argp_init("named", NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_destroy(), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_init("", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	return 0;
}

static int test_null_arguments(void)
{
	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_param_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_param(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_param_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_validation_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_version_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_get_log_level(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_get_sdk_log_level(NULL), DOCA_ERROR_INVALID_VALUE);
	/* Setters on NULL log and return instead of crashing. */
	doca_argp_param_set_short_name(NULL, "x");
	doca_argp_param_set_long_name(NULL, "x");
	doca_argp_param_set_arguments(NULL, "x");
	doca_argp_param_set_description(NULL, "x");
	doca_argp_param_set_callback(NULL, cb_any);
	doca_argp_param_set_type(NULL, DOCA_ARGP_TYPE_INT);
	doca_argp_param_set_mandatory(NULL);
	doca_argp_param_set_multiplicity(NULL);
	doca_argp_param_set_cli_only(NULL);
	CHECK_ERR(doca_argp_start(1, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_start(-1, (char *[]){"prog", NULL}), DOCA_ERROR_INVALID_VALUE);
	return 0;
}

static int test_start_without_args(void)
{
	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(add_param("s", "str", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_start(0, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_start(0, (char *[]){NULL}), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_start(1, (char *[]){NULL}), DOCA_SUCCESS);
	CHECK_ERR(START(NULL), DOCA_SUCCESS);
	return 0;
}

static int test_register_missing_fields(void)
{
	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, NULL, DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(add_param("a", "alpha", DOCA_ARGP_TYPE_UNKNOWN, cb_any, 0), DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(add_param("a", "alpha", DOCA_ARGP_TYPE_STRING, NULL, 0), DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(add_param("a", "alpha", (enum doca_argp_type)42, cb_any, 0), DOCA_ERROR_INVALID_VALUE);
	/* The rejected params were freed and took no names: the same names register now. */
	CHECK_ERR(add_param("a", "alpha", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_SUCCESS);
	/* Either name alone is enough. */
	CHECK_ERR(add_param("b", NULL, DOCA_ARGP_TYPE_INT, cb_any, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, "gamma", DOCA_ARGP_TYPE_BOOLEAN, cb_any, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, "delta", DOCA_ARGP_TYPE_JSON_OBJ, cb_any, 0), DOCA_SUCCESS);
	return 0;
}

static int test_register_duplicates(void)
{
	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(add_param("p", "pci-addr", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("p", "other", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(add_param("q", "pci-addr", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(add_param(NULL, "pci-addr", DOCA_ARGP_TYPE_INT, cb_any, 0), DOCA_ERROR_INVALID_VALUE);
	/* Short and long names live in separate spaces: -pci-addr and --p clash with nothing. */
	CHECK_ERR(add_param("pci-addr", "p", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_SUCCESS);
	return 0;
}

static int test_register_reserved_names(void)
{
	static const char *const shorts[] = {"h", "v", "l", "j"};
	static const char *const longs[] = {"help", "version", "log-level", "sdk-log-level", "json"};

	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	for (size_t i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++)
		CHECK_ERR(add_param(shorts[i], "fine", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_ERROR_INVALID_VALUE);
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
		CHECK_ERR(add_param("f", longs[i], DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_ERROR_INVALID_VALUE);
	/* The long built-in names are fine as short names and the other way round. */
	CHECK_ERR(add_param("help", "h", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_SUCCESS);
	return 0;
}

static int test_register_bad_names(void)
{
	static const char *const bad[] = {"", "-p", "--pci", "a=b", "a b", "tab\there", "new\nline"};

	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ERR(add_param(bad[i], "ok", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(add_param("k", bad[i], DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_ERROR_INVALID_VALUE);
	}
	CHECK_ERR(add_param("k", "ok", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_SUCCESS);
	return 0;
}

static int test_register_twice(void)
{
	struct doca_argp_param *p;

	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_param_create(&p), DOCA_SUCCESS);
	doca_argp_param_set_long_name(p, "once");
	doca_argp_param_set_type(p, DOCA_ARGP_TYPE_STRING);
	doca_argp_param_set_callback(p, cb_any);
	CHECK_ERR(doca_argp_register_param(p), DOCA_SUCCESS);
	/* Still owned by argp and still registered once. */
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_param_destroy(p), DOCA_ERROR_BAD_STATE);
	/* A registered param no longer changes: these are refused (and logged). */
	doca_argp_param_set_long_name(p, NULL);
	doca_argp_param_set_short_name(p, "h");
	doca_argp_param_set_type(p, DOCA_ARGP_TYPE_BOOLEAN);
	doca_argp_param_set_callback(p, NULL);
	CHECK_ERR(START("--once", "x"), DOCA_SUCCESS);
	return 0;
}

static int test_param_destroy(void)
{
	struct doca_argp_param *p, *q;

	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_param_create(&p), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_param_create(&q), DOCA_SUCCESS);
	doca_argp_param_set_long_name(p, "name");
	doca_argp_param_set_description(p, "first text");
	doca_argp_param_set_description(p, "replaced text");
	doca_argp_param_set_description(p, NULL);
	CHECK_ERR(doca_argp_param_destroy(p), DOCA_SUCCESS);
	/* The name went with it. */
	CHECK_ERR(add_param(NULL, "name", DOCA_ARGP_TYPE_STRING, cb_any, 0), DOCA_SUCCESS);
	/* q is never registered nor destroyed: doca_argp_destroy frees it (the leak checkers see). */
	(void)q;
	return 0;
}

static int test_foreign_param(void)
{
	/* Never made by doca_argp_param_create: argp must refuse it without touching it. */
	static long fake[32];
	struct doca_argp_param *p = (struct doca_argp_param *)fake;

	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_param_destroy(p), DOCA_ERROR_INVALID_VALUE);
	for (size_t i = 0; i < sizeof(fake) / sizeof(fake[0]); i++)
		CHECK(fake[i] == 0);
	return 0;
}

static int test_callbacks_registration(void)
{
	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_register_validation_callback(cb_validate), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_register_version_callback(cb_any), DOCA_SUCCESS);
	/* Registering again replaces. */
	CHECK_ERR(doca_argp_register_validation_callback(cb_validate), DOCA_SUCCESS);
	return 0;
}

static int test_log_level_getters(void)
{
	int level = 0, sdk = 0;

	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	/* Without -l the getters report the current global limits. */
	CHECK_ERR(doca_argp_get_log_level(&level), DOCA_SUCCESS);
	CHECK(level == (int)doca_log_level_get_global_lower_limit());
	CHECK_ERR(doca_argp_get_sdk_log_level(&sdk), DOCA_SUCCESS);
	CHECK(sdk == (int)doca_log_level_get_global_sdk_limit());

	CHECK_ERR(START("-l", "60", "--sdk-log-level", "warning"), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_get_log_level(&level), DOCA_SUCCESS);
	CHECK(level == DOCA_LOG_LEVEL_DEBUG);
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_DEBUG);
	CHECK_ERR(doca_argp_get_sdk_log_level(&sdk), DOCA_SUCCESS);
	CHECK(sdk == DOCA_LOG_LEVEL_WARNING);
	CHECK(doca_log_level_get_global_sdk_limit() == DOCA_LOG_LEVEL_WARNING);

	CHECK_ERR(START("--log-level=trace"), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_get_log_level(&level), DOCA_SUCCESS);
	CHECK(level == DOCA_LOG_LEVEL_TRACE);
	CHECK_ERR(START("--log-level", "INFO"), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_get_log_level(&level), DOCA_SUCCESS);
	CHECK(level == DOCA_LOG_LEVEL_INFO);

	CHECK_ERR(START("-l", "55"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-l", "80"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-l", "loud"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-l", ""), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-l"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("--sdk-log-level"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("--sdk-log-level", "5"), DOCA_ERROR_INVALID_VALUE);
	/* A failed level leaves the previous one in place. */
	CHECK_ERR(doca_argp_get_log_level(&level), DOCA_SUCCESS);
	CHECK(level == DOCA_LOG_LEVEL_INFO);
	return 0;
}

static int test_usage_in_process(void)
{
	CHECK_ERR(doca_argp_init("usage-test", NULL), DOCA_SUCCESS);
	CHECK_ERR(add_param("p", "pci-addr", DOCA_ARGP_TYPE_STRING, cb_any, P_MANDATORY), DOCA_SUCCESS);
	/* Prints to stdout; test_cli checks the text. Here it only must not crash or exit. */
	doca_argp_usage();
	return 0;
}

int main(void)
{
	static const struct test_case tests[] = {
	    TEST(test_not_initialised),		TEST(test_init_destroy),
	    TEST(test_null_arguments),		TEST(test_start_without_args),
	    TEST(test_register_missing_fields), TEST(test_register_duplicates),
	    TEST(test_register_reserved_names), TEST(test_register_bad_names),
	    TEST(test_register_twice),		TEST(test_param_destroy),
	    TEST(test_foreign_param),		TEST(test_callbacks_registration),
	    TEST(test_log_level_getters),	TEST(test_usage_in_process),
	};

	return run_tests(tests, sizeof(tests) / sizeof(tests[0]));
}
