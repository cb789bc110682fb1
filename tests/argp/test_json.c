/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_json.c - flags read from a -j/--json file: layout, comments, value types, every error
 * path, and the rule that -j is the only flag on the command line.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "argp_test.h"

static struct rec rec;

/* Records the log limit in force when the callback runs. */
static doca_error_t cb_level(void *v, void *c)
{
	(void)v;
	return rec_add(c, "level=%u;", doca_log_level_get_global_lower_limit());
}

static doca_error_t cb_fail(void *v, void *c)
{
	rec_add(c, "fail=%s;", (char *)v);
	return DOCA_ERROR_BAD_CONFIG;
}

static int setup(void)
{
	memset(&rec, 0, sizeof(rec));
	CHECK_ERR(doca_argp_init(NULL, &rec), DOCA_SUCCESS);
	CHECK_ERR(add_param("s", "str", DOCA_ARGP_TYPE_STRING, cb_str, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("n", "num", DOCA_ARGP_TYPE_INT, cb_num, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("b", "bool", DOCA_ARGP_TYPE_BOOLEAN, cb_bool, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("o", "obj", DOCA_ARGP_TYPE_JSON_OBJ, cb_obj, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("m", "multi", DOCA_ARGP_TYPE_STRING, cb_multi, P_MULTI), DOCA_SUCCESS);
	CHECK_ERR(add_param("P", NULL, DOCA_ARGP_TYPE_INT, cb_port, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, "cli", DOCA_ARGP_TYPE_STRING, cb_cli, P_CLI_ONLY), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, "level", DOCA_ARGP_TYPE_BOOLEAN, cb_level, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("x", "fail", DOCA_ARGP_TYPE_STRING, cb_fail, 0), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_register_validation_callback(rec_validate), DOCA_SUCCESS);
	return 0;
}

#define SETUP()                                                                                                        \
	do {                                                                                                           \
		if (setup() != 0)                                                                                      \
			return 1;                                                                                      \
	} while (0)

/* Runs doca_argp_start("-j", <file holding @content>) after clearing the record. */
static doca_error_t start_json(const char *content)
{
	char *path = sd_tmpfile("argp-test", content);
	doca_error_t err;

	memset(rec.log, 0, sizeof(rec.log));
	err = START("-j", path);
	unlink(path);
	free(path);
	return err;
}

/* Same, with the file holding only a program-flags section with @body inside it. */
static doca_error_t start_program(const char *body)
{
	char text[4096];

	snprintf(text, sizeof(text), "{ \"doca_program_flags\": { %s } }", body);
	return start_json(text);
}

static int test_full_file(void)
{
	SETUP();
	CHECK_ERR(start_json("/*\n"
			     " * Licence block, as DOCA's params files carry.\n"
			     " */\n"
			     "{\n"
			     "\t// general flags\n"
			     "\t\"doca_general_flags\": {\n"
			     "\t\t\"log-level\": 60, /* debug */\n"
			     "\t\t\"sdk-log-level\": \"warning\"\n"
			     "\t},\n"
			     "\t\"doca_program_flags\": {\n"
			     "\t\t\"str\": \"a // not a comment /* nor this */\",\n"
			     "\t\t\"num\": -12,\n"
			     "\t\t\"bool\": true,\n"
			     "\t\t\"obj\": { \"k\": [1, \"x/y\"] },\n"
			     "\t\t\"multi\": [\"one\", \"two\"],\n"
			     "\t\t\"P\": 8080 // short name: the param has no long one\n"
			     "\t}\n"
			     "}\n"
			     "// trailing comment"),
		  DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=a // not a comment /* nor this */;num=-12;bool=1;obj={\"k\":[1,\"x/y\"]};"
			   "multi=one;multi=two;port=8080;validate;");
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_DEBUG);
	CHECK(doca_log_level_get_global_sdk_limit() == DOCA_LOG_LEVEL_WARNING);
	return 0;
}

static int test_file_order_and_general_first(void)
{
	SETUP();
	CHECK_ERR(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO), DOCA_SUCCESS);
	/* Program flags come first in the file, yet the level is in force for their callbacks. */
	CHECK_ERR(start_json("{\"doca_program_flags\": {\"num\": 1, \"level\": true, \"str\": \"z\"},"
			     " \"doca_general_flags\": {\"log-level\": \"trace\"}}"),
		  DOCA_SUCCESS);
	CHECK_STR(rec.log, "num=1;level=70;str=z;validate;");
	return 0;
}

static int test_long_option_forms(void)
{
	char *path = sd_tmpfile("argp-test", "{\"doca_program_flags\": {\"str\": \"eq\"}}");
	char arg[512];

	SETUP();
	CHECK(path != NULL);
	snprintf(arg, sizeof(arg), "--json=%s", path);
	CHECK_ERR(START(arg), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=eq;validate;");
	memset(rec.log, 0, sizeof(rec.log));
	CHECK_ERR(START("--json", path), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=eq;validate;");
	unlink(path);
	free(path);
	return 0;
}

static int test_empty_layouts(void)
{
	SETUP();
	CHECK_ERR(start_json("{}"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "validate;");
	CHECK_ERR(start_json("{\"doca_general_flags\": {}, \"doca_program_flags\": {}}"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "validate;");
	return 0;
}

static int test_unreadable_file(void)
{
	char dir[PATH_MAX];

	SETUP();
	CHECK_ERR(START("-j", "/nonexistent/argp/params.json"), DOCA_ERROR_IO_FAILED);
	snprintf(dir, sizeof(dir), "%s/a-directory", sd_tmpdir());
	CHECK(mkdir(dir, 0700) == 0);
	CHECK_ERR(START("-j", dir), DOCA_ERROR_IO_FAILED);
	rmdir(dir);
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_unreadable_permissions(void)
{
	char *path = sd_tmpfile("argp-test", "{}");

	SETUP();
	CHECK(path != NULL);
	/* root reads anything: nothing to test there. */
	if (geteuid() != 0) {
		CHECK(chmod(path, 0) == 0);
		CHECK_ERR(START("-j", path), DOCA_ERROR_IO_FAILED);
	}
	unlink(path);
	free(path);
	return 0;
}

static int test_invalid_json(void)
{
	static const char *const bad[] = {
	    "",
	    "   \n",
	    "// only a comment\n",
	    "{",
	    "{\"doca_program_flags\": {\"str\": \"x\"}",
	    "{\"doca_program_flags\": {\"str\": \"x\",}} trailing",
	    "{} {}",
	    "{} /* comment never closed",
	    "{\"doca_program_flags\": {str: \"x\"}}",
	    "{\"doca_program_flags\": {\"num\": tru}}",
	    "{\"a\": \"\\q\"}",
	};

	SETUP();
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		doca_error_t err = start_json(bad[i]);

		if (err != DOCA_ERROR_IO_FAILED) {
			fprintf(stderr, "input %zu '%s' gave %s\n", i, bad[i], doca_error_get_name(err));
			return 1;
		}
	}
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_too_deep(void)
{
	char text[1024];
	size_t n = 0;

	SETUP();
	n += (size_t)snprintf(text, sizeof(text), "{\"doca_program_flags\": {\"obj\": ");
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"a\":");
	n += (size_t)snprintf(text + n, sizeof(text) - n, "1");
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "}");
	snprintf(text + n, sizeof(text) - n, "}}");
	CHECK(strlen(text) < sizeof(text) - 1);
	CHECK_ERR(start_json(text), DOCA_ERROR_IO_FAILED);
	return 0;
}

static int test_too_large(void)
{
	char *path = sd_tmpfile("argp-test", "");
	int fd;

	SETUP();
	CHECK(path != NULL);
	fd = open(path, O_WRONLY);
	CHECK(fd >= 0);
	/* Sparse, so the test costs no disk; the limit is 16 MiB. */
	CHECK(ftruncate(fd, 17 << 20) == 0);
	close(fd);
	CHECK_ERR(START("-j", path), DOCA_ERROR_IO_FAILED);
	unlink(path);
	free(path);
	return 0;
}

static int test_root_not_object(void)
{
	SETUP();
	CHECK_ERR(start_json("[]"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(start_json("5"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(start_json("\"doca_program_flags\""), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(start_json("{\"doca_program_flags\": []}"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(start_json("{\"doca_general_flags\": 1}"), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_unknown_keys(void)
{
	SETUP();
	CHECK_ERR(start_json("{\"doca_flags\": {}}"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(start_program("\"nope\": 1"), DOCA_ERROR_NOT_SUPPORTED);
	/* Keys are long names; a short name only stands in when there is no long one. */
	CHECK_ERR(start_program("\"s\": \"x\""), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(start_program("\"--str\": \"x\""), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(start_program("\"json\": \"x\""), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(start_json("{\"doca_general_flags\": {\"verbose\": 1}}"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(start_json("{\"doca_general_flags\": {\"help\": true}}"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(start_json("{\"doca_general_flags\": {\"json\": \"x\"}}"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_wrong_value_types(void)
{
	static const char *const bad[] = {
	    "\"str\": 5",	   "\"str\": null",	   "\"str\": {}",
	    "\"num\": \"5\"",	   "\"num\": 1.5",	   "\"num\": 1e3",
	    "\"num\": true",	   "\"bool\": \"true\"",   "\"bool\": 1",
	    "\"bool\": null",	   "\"obj\": [1]",	   "\"obj\": \"{}\"",
	    "\"str\": [\"a\"]",	   "\"multi\": [1]",	   "\"multi\": [\"a\", 2]",
	    "\"num\": 2147483648", "\"num\": -2147483649", "\"num\": 99999999999999999999",
	};

	SETUP();
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		doca_error_t err = start_program(bad[i]);

		if (err != DOCA_ERROR_INVALID_VALUE) {
			fprintf(stderr, "value %s gave %s\n", bad[i], doca_error_get_name(err));
			return 1;
		}
	}
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_bad_log_levels(void)
{
	static const char *const bad[] = {"55", "0", "80", "\"loud\"", "true", "50.0", "[50]", "99999999999999999999"};
	char text[256];

	SETUP();
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "{\"doca_general_flags\": {\"log-level\": %s}}", bad[i]);
		CHECK_ERR(start_json(text), DOCA_ERROR_INVALID_VALUE);
		snprintf(text, sizeof(text), "{\"doca_general_flags\": {\"sdk-log-level\": %s}}", bad[i]);
		CHECK_ERR(start_json(text), DOCA_ERROR_INVALID_VALUE);
	}
	CHECK_ERR(start_json("{\"doca_general_flags\": {\"sdk-log-level\": 30, \"log-level\": \"Info\"}}"),
		  DOCA_SUCCESS);
	CHECK(doca_log_level_get_global_sdk_limit() == DOCA_LOG_LEVEL_ERROR);
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_INFO);
	/* Leave the SDK log where the other tests expect it. */
	CHECK_ERR(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING), DOCA_SUCCESS);
	return 0;
}

static int test_values(void)
{
	SETUP();
	CHECK_ERR(start_program("\"bool\": false"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "bool=0;validate;");
	CHECK_ERR(start_program("\"num\": 2147483647"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "num=2147483647;validate;");
	CHECK_ERR(start_program("\"num\": -2147483648"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "num=-2147483648;validate;");
	CHECK_ERR(start_program("\"str\": \"\""), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=;validate;");
	CHECK_ERR(start_program("\"str\": \"tab\\tquote\\\" \\u00e9\""), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=tab\tquote\" \xc3\xa9;validate;");
	CHECK_ERR(start_program("\"obj\": {}"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "obj={};validate;");
	return 0;
}

static int test_multiplicity(void)
{
	SETUP();
	CHECK_ERR(start_program("\"multi\": \"single\""), DOCA_SUCCESS);
	CHECK_STR(rec.log, "multi=single;validate;");
	CHECK_ERR(start_program("\"multi\": []"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "validate;");
	CHECK_ERR(start_program("\"str\": \"a\", \"multi\": [\"1\", \"2\", \"3\"], \"num\": 4"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=a;multi=1;multi=2;multi=3;num=4;validate;");
	return 0;
}

static int test_duplicate_keys(void)
{
	SETUP();
	/* json-c keeps the last of two equal keys; argp sees one value, at the first key's place. */
	CHECK_ERR(start_program("\"str\": \"first\", \"num\": 1, \"str\": \"second\""), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=second;num=1;validate;");
	return 0;
}

static int test_cli_only_in_json(void)
{
	SETUP();
	CHECK_ERR(start_program("\"cli\": \"x\""), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_mandatory(void)
{
	SETUP();
	CHECK_ERR(add_param("f", "file", DOCA_ARGP_TYPE_STRING, cb_str, P_MANDATORY), DOCA_SUCCESS);
	CHECK_ERR(start_program("\"num\": 1"), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	CHECK(rec.validations == 0);
	CHECK_ERR(start_program("\"num\": 1, \"file\": \"f.bin\""), DOCA_SUCCESS);
	CHECK_STR(rec.log, "num=1;str=f.bin;validate;");
	return 0;
}

static int test_callback_error(void)
{
	SETUP();
	CHECK_ERR(start_program("\"num\": 1, \"fail\": \"x\", \"str\": \"never\""), DOCA_ERROR_BAD_CONFIG);
	CHECK_STR(rec.log, "num=1;fail=x;");
	CHECK(rec.validations == 0);
	return 0;
}

static int test_no_mixing(void)
{
	char *path = sd_tmpfile("argp-test", "{\"doca_program_flags\": {\"str\": \"x\"}}");
	char arg[512];

	SETUP();
	CHECK(path != NULL);
	snprintf(arg, sizeof(arg), "--json=%s", path);
	CHECK_ERR(START("-j", path, "-n", "1"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-n", "1", "-j", path), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-l", "50", "--json", path), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START(arg, "-b"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-j", path, "-j", path), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-j", path, "extra"), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	unlink(path);
	free(path);
	return 0;
}

int main(void)
{
	static const struct test_case tests[] = {
	    TEST(test_full_file),	  TEST(test_file_order_and_general_first),
	    TEST(test_long_option_forms), TEST(test_empty_layouts),
	    TEST(test_unreadable_file),	  TEST(test_unreadable_permissions),
	    TEST(test_invalid_json),	  TEST(test_too_deep),
	    TEST(test_too_large),	  TEST(test_root_not_object),
	    TEST(test_unknown_keys),	  TEST(test_wrong_value_types),
	    TEST(test_bad_log_levels),	  TEST(test_values),
	    TEST(test_multiplicity),	  TEST(test_duplicate_keys),
	    TEST(test_cli_only_in_json),  TEST(test_mandatory),
	    TEST(test_callback_error),	  TEST(test_no_mixing),
	};

	return run_tests(tests, sizeof(tests) / sizeof(tests[0]));
}
