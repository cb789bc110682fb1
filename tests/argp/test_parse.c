/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_parse.c - command-line parsing in-process: forms, types, order, every error path that
 * returns (rather than exits), and what reaches the callbacks.
 */
#include <ctype.h>
#include <limits.h>

#include "argp_test.h"

static struct rec rec;

static doca_error_t cb_wf(void *v, void *c)
{
	return rec_add(c, "wf=%d;", *(bool *)v);
}

static doca_error_t cb_len(void *v, void *c)
{
	return rec_add(c, "len=%zu;", strlen(v));
}

/* Rejects the value "bad" with an error code nothing else in argp returns. */
static doca_error_t cb_fail(void *v, void *c)
{
	rec_add(c, "fail=%s;", (char *)v);
	return strcmp(v, "bad") == 0 ? DOCA_ERROR_BAD_CONFIG : DOCA_SUCCESS;
}

/* Writes into the value: argp must hand over a private copy, never argv itself. */
static doca_error_t cb_edit(void *v, void *c)
{
	for (char *s = v; *s != '\0'; s++)
		*s = (char)toupper((unsigned char)*s);
	return rec_add(c, "edit=%s;", (char *)v);
}

static doca_error_t cb_destroy(void *v, void *c)
{
	(void)v;
	rec_add(c, "destroy;");
	return doca_argp_destroy();
}

static doca_error_t cb_nested(void *v, void *c)
{
	doca_error_t err = doca_argp_start(1, (char *[]){"nested", NULL});

	(void)v;
	return rec_add(c, "nested=%s;", doca_error_get_name(err));
}

static doca_error_t cb_version_fails(void *v, void *c)
{
	(void)v;
	rec_add(c, "version;");
	return DOCA_ERROR_IO_FAILED;
}

static int setup(void)
{
	memset(&rec, 0, sizeof(rec));
	CHECK_ERR(doca_argp_init(NULL, &rec), DOCA_SUCCESS);
	CHECK_ERR(add_param("s", "str", DOCA_ARGP_TYPE_STRING, cb_str, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("n", "num", DOCA_ARGP_TYPE_INT, cb_num, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("b", "bool", DOCA_ARGP_TYPE_BOOLEAN, cb_bool, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("o", "obj", DOCA_ARGP_TYPE_JSON_OBJ, cb_obj, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("wf", "wait-flag", DOCA_ARGP_TYPE_BOOLEAN, cb_wf, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("m", "multi", DOCA_ARGP_TYPE_STRING, cb_multi, P_MULTI), DOCA_SUCCESS);
	CHECK_ERR(add_param("P", NULL, DOCA_ARGP_TYPE_INT, cb_port, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("x", "fail", DOCA_ARGP_TYPE_STRING, cb_fail, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, "cli", DOCA_ARGP_TYPE_STRING, cb_cli, P_CLI_ONLY), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, "len", DOCA_ARGP_TYPE_STRING, cb_len, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("e", "edit", DOCA_ARGP_TYPE_STRING, cb_edit, 0), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_register_validation_callback(rec_validate), DOCA_SUCCESS);
	return 0;
}

#define SETUP()                                                                                                        \
	do {                                                                                                           \
		if (setup() != 0)                                                                                      \
			return 1;                                                                                      \
	} while (0)

/* Clears the record between two starts of one test. */
static void reset(void)
{
	memset(&rec, 0, sizeof(rec));
}

static int test_all_types(void)
{
	SETUP();
	CHECK_ERR(
	    START("--str=hello", "-n", "42", "-b", "--obj", "{ \"a\": [1, 2], \"p\": \"x/y\" }", "-wf", "-P", "7"),
	    DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=hello;num=42;bool=1;obj={\"a\":[1,2],\"p\":\"x/y\"};wf=1;port=7;validate;");
	CHECK(rec.validations == 1);
	return 0;
}

static int test_command_line_order(void)
{
	SETUP();
	CHECK_ERR(START("-P", "1", "--wait-flag", "-o", "{}", "--bool", "--num=-3", "-s", "a"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "port=1;wf=1;obj={};bool=1;num=-3;str=a;validate;");
	return 0;
}

static int test_value_forms(void)
{
	SETUP();
	CHECK_ERR(START("-s=short-eq"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=short-eq;validate;");
	reset();
	CHECK_ERR(START("--str", "long space"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=long space;validate;");
	reset();
	/* Only the first '=' splits. */
	CHECK_ERR(START("--str=a=b"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=a=b;validate;");
	reset();
	CHECK_ERR(START("--str="), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=;validate;");
	reset();
	CHECK_ERR(START("-s", ""), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=;validate;");
	return 0;
}

static int test_values_starting_with_dash(void)
{
	SETUP();
	CHECK_ERR(START("-n", "-5", "-s", "-not-a-flag"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "num=-5;str=-not-a-flag;validate;");
	reset();
	/* A value that is a flag name needs the '=' form; "-h" here must not print help. */
	CHECK_ERR(START("--str=-h"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=-h;validate;");
	reset();
	CHECK_ERR(START("-s", "-h"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-s", "--num"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-s", "-b"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-s", "--json"), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_int_values(void)
{
	static const struct {
		char *text;
		int value;
	} good[] = {
	    {"0", 0},
	    {"+3", 3},
	    {"-17", -17},
	    {"0x10", 16},
	    {"0XfF", 255},
	    {"-0x10", -16},
	    {"007", 7},
	    {"2147483647", INT_MAX},
	    {"-2147483648", INT_MIN},
	};
	static char *const bad[] = {"",
				    "abc",
				    "12abc",
				    " 5",
				    "5 ",
				    "1.5",
				    "0x",
				    "0xg",
				    "+",
				    "--5",
				    "2147483648",
				    "-2147483649",
				    "99999999999999999999999",
				    "1e3"};
	char expect[64];

	SETUP();
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		reset();
		CHECK_ERR(START("-n", good[i].text), DOCA_SUCCESS);
		snprintf(expect, sizeof(expect), "num=%d;validate;", good[i].value);
		CHECK_STR(rec.log, expect);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		reset();
		CHECK_ERR(START("-n", bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(START("-s", "before", "--num", bad[i]), DOCA_ERROR_INVALID_VALUE);
		/* A bad value stops everything before any callback runs. */
		CHECK_STR(rec.log, "");
	}
	return 0;
}

static int test_unknown_flag(void)
{
	static char *const unknown[] = {"--nope", "-z",		"--s", "-str", "---str",   "--STR", "-S",
					"--wf",	  "-wait-flag", "-=x", "--=x", "--nope=1", "-hv",   "-help"};

	SETUP();
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		CHECK_ERR(START(unknown[i]), DOCA_ERROR_NOT_SUPPORTED);
		CHECK_ERR(START("-s", "a", unknown[i], "-b"), DOCA_ERROR_NOT_SUPPORTED);
	}
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_missing_argument(void)
{
	SETUP();
	CHECK_ERR(START("-s"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("--str"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-b", "--num"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("--obj"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-j"), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_not_a_flag(void)
{
	SETUP();
	CHECK_ERR(START("positional"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-s", "a", "positional"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START(""), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("--", "-s", "a"), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	/* A lone "--" ends the flags and leaves nothing behind. */
	CHECK_ERR(START("-b", "--"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "bool=1;validate;");
	return 0;
}

static int test_boolean_takes_no_value(void)
{
	SETUP();
	CHECK_ERR(START("--bool=1"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-b=true"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-wf="), DOCA_ERROR_INVALID_VALUE);
	/* The next argument is not swallowed either. */
	CHECK_ERR(START("-b", "true"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("--help=yes"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-v=1"), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	return 0;
}

static int test_mandatory(void)
{
	SETUP();
	CHECK_ERR(add_param("f", "file", DOCA_ARGP_TYPE_STRING, cb_str, P_MANDATORY), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, "count", DOCA_ARGP_TYPE_INT, cb_num, P_MANDATORY), DOCA_SUCCESS);
	CHECK_ERR(START(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-s", "a", "-f", "x"), DOCA_ERROR_INVALID_VALUE);
	/* No callback ran, the validation neither. */
	CHECK_STR(rec.log, "");
	CHECK(rec.validations == 0);
	CHECK_ERR(START("--count", "1", "-f", "x"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "num=1;str=x;validate;");
	return 0;
}

static int test_repeated_flags(void)
{
	SETUP();
	CHECK_ERR(START("-s", "a", "-s", "b"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-s", "a", "--str=b"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(START("-b", "--bool"), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	CHECK_ERR(START("-m", "a", "--multi", "b", "-s", "x", "--multi=c"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "multi=a;multi=b;str=x;multi=c;validate;");
	reset();
	/* Each start counts afresh. */
	CHECK_ERR(START("-s", "again"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "str=again;validate;");
	return 0;
}

static int test_callback_error(void)
{
	SETUP();
	CHECK_ERR(START("-s", "a", "-x", "bad", "-n", "1"), DOCA_ERROR_BAD_CONFIG);
	/* Callbacks ran in order up to the failing one; later ones and the validation did not. */
	CHECK_STR(rec.log, "str=a;fail=bad;");
	CHECK(rec.validations == 0);
	reset();
	CHECK_ERR(START("-x", "good"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "fail=good;validate;");
	return 0;
}

static int test_validation(void)
{
	SETUP();
	rec.validation_result = DOCA_ERROR_NOT_PERMITTED;
	CHECK_ERR(START("-b", "-s", "z"), DOCA_ERROR_NOT_PERMITTED);
	/* Validation comes after every param callback. */
	CHECK_STR(rec.log, "bool=1;str=z;validate;");
	CHECK(rec.validations == 1);
	return 0;
}

static int test_callbacks_get_copies(void)
{
	/* argv strings in read-only storage: writing to them would crash. */
	static char *const ro_argv[] = {"prog", "-e", "lower", NULL};
	static char *const ro_argv_eq[] = {"prog", "--edit=x/y", NULL};

	SETUP();
	CHECK_ERR(doca_argp_start(3, (char **)ro_argv), DOCA_SUCCESS);
	CHECK_STR(rec.log, "edit=LOWER;validate;");
	reset();
	CHECK_ERR(doca_argp_start(2, (char **)ro_argv_eq), DOCA_SUCCESS);
	CHECK_STR(rec.log, "edit=X/Y;validate;");
	return 0;
}

static int test_json_obj_values(void)
{
	static char *const bad[] = {"[1]", "5", "\"s\"", "{", "{} x", "{} {}", "", "{'a':}", "{a:1}", "{} /* open"};

	SETUP();
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_ERR(START("--obj", bad[i]), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	CHECK_ERR(START("--obj", "/* c */ {\"k\": \"a/b\", \"n\": null} // tail"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "obj={\"k\":\"a/b\",\"n\":null};validate;");
	return 0;
}

static int test_cli_only_on_cli(void)
{
	SETUP();
	CHECK_ERR(START("--cli", "here"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "cli=here;validate;");
	return 0;
}

static int test_null_argv_entries(void)
{
	SETUP();
	CHECK_ERR(doca_argp_start(3, (char *[]){"prog", NULL, "-b", NULL}), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_start(3, (char *[]){"prog", "-s", NULL, NULL}), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_start(3, (char *[]){"prog", "-b", NULL, NULL}), DOCA_ERROR_INVALID_VALUE);
	CHECK_STR(rec.log, "");
	/* No program name at all still parses. */
	CHECK_ERR(doca_argp_start(2, (char *[]){NULL, "-b", NULL}), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_start(2, (char *[]){"", "-b", NULL}), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_start(2, (char *[]){"/usr/bin/", "-b", NULL}), DOCA_SUCCESS);
	return 0;
}

static int test_long_strings(void)
{
	size_t len = 1u << 20;
	char *big = malloc(len + 16);
	char expect[64];
	int rc = 1;

	SETUP();
	if (big == NULL)
		return 1;
	memset(big, 'a', len);
	big[len] = '\0';
	if (START("--len", big) != DOCA_SUCCESS)
		goto out;
	snprintf(expect, sizeof(expect), "len=%zu;validate;", len);
	if (strcmp(rec.log, expect) != 0)
		goto out;
	/* As a flag name, an unknown one: the message quotes only a bounded prefix. */
	big[0] = '-';
	big[1] = '-';
	if (START(big) != DOCA_ERROR_NOT_SUPPORTED)
		goto out;
	if (START("-n", big + 2) != DOCA_ERROR_INVALID_VALUE)
		goto out;
	memcpy(big, "--len=", 6);
	reset();
	if (START(big) != DOCA_SUCCESS)
		goto out;
	snprintf(expect, sizeof(expect), "len=%zu;validate;", len - 6);
	if (strcmp(rec.log, expect) != 0)
		goto out;
	rc = 0;
out:
	free(big);
	CHECK(rc == 0);
	return 0;
}

static int test_callback_destroys_argp(void)
{
	SETUP();
	CHECK_ERR(add_param("d", "destroy", DOCA_ARGP_TYPE_BOOLEAN, cb_destroy, 0), DOCA_SUCCESS);
	CHECK_ERR(START("-s", "a", "-d", "-n", "1"), DOCA_ERROR_BAD_STATE);
	CHECK_STR(rec.log, "str=a;destroy;");
	/* argp is gone and a new session starts cleanly. */
	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_init(NULL, NULL), DOCA_SUCCESS);
	CHECK_ERR(START(NULL), DOCA_SUCCESS);
	return 0;
}

static int test_nested_start(void)
{
	SETUP();
	CHECK_ERR(add_param(NULL, "nested", DOCA_ARGP_TYPE_BOOLEAN, cb_nested, 0), DOCA_SUCCESS);
	CHECK_ERR(START("--nested"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "nested=DOCA_ERROR_BAD_STATE;validate;");
	return 0;
}

static int test_version_callback_error(void)
{
	SETUP();
	CHECK_ERR(doca_argp_register_version_callback(cb_version_fails), DOCA_SUCCESS);
	/* A version callback that returns an error does not exit: start hands the error back. */
	CHECK_ERR(START("-s", "a", "-v"), DOCA_ERROR_IO_FAILED);
	CHECK_STR(rec.log, "version;");
	return 0;
}

static int test_register_after_start(void)
{
	SETUP();
	CHECK_ERR(START("-s", "a"), DOCA_SUCCESS);
	CHECK_ERR(add_param("late", NULL, DOCA_ARGP_TYPE_INT, cb_num, 0), DOCA_SUCCESS);
	reset();
	CHECK_ERR(START("-late", "9"), DOCA_SUCCESS);
	CHECK_STR(rec.log, "num=9;validate;");
	return 0;
}

int main(void)
{
	static const struct test_case tests[] = {
	    TEST(test_all_types),
	    TEST(test_command_line_order),
	    TEST(test_value_forms),
	    TEST(test_values_starting_with_dash),
	    TEST(test_int_values),
	    TEST(test_unknown_flag),
	    TEST(test_missing_argument),
	    TEST(test_not_a_flag),
	    TEST(test_boolean_takes_no_value),
	    TEST(test_mandatory),
	    TEST(test_repeated_flags),
	    TEST(test_callback_error),
	    TEST(test_validation),
	    TEST(test_callbacks_get_copies),
	    TEST(test_json_obj_values),
	    TEST(test_cli_only_on_cli),
	    TEST(test_null_argv_entries),
	    TEST(test_long_strings),
	    TEST(test_callback_destroys_argp),
	    TEST(test_nested_start),
	    TEST(test_version_callback_error),
	    TEST(test_register_after_start),
	};

	return run_tests(tests, sizeof(tests) / sizeof(tests[0]));
}
