/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_robust.c - doca_argp_start over many random command lines built from flag names,
 * values and junk (seeded, so a failure replays). Beyond "no crash, no leak" (the sanitizer
 * builds), each run checks argp's contract:
 *   - the result is one of the codes a parse can give;
 *   - on failure no program callback ran (every callback here succeeds, so any failure comes
 *     from the collect or check step, which run before callbacks);
 *   - on success the validation callback ran last.
 * -h and --help end the process and are left out; -v reaches a version callback that fails.
 */
#include <stdint.h>

#include "argp_test.h"

static struct rec rec;

static doca_error_t cb_record(void *v, void *c)
{
	(void)v;
	return rec_add(c, "cb;");
}

static doca_error_t cb_version(void *v, void *c)
{
	(void)v;
	(void)c;
	return DOCA_ERROR_NOT_PERMITTED;
}

static char *const tokens[] = {
    "-s",
    "--str",
    "-s=",
    "--str=x",
    "-n",
    "--num",
    "--num=5",
    "-n=0x",
    "-b",
    "--bool",
    "--bool=1",
    "-o",
    "--obj",
    "--obj={}",
    "-wf",
    "-w",
    "--wait-flag",
    "-m",
    "--multi",
    "-P",
    "--cli",
    "-l",
    "--log-level",
    "--sdk-log-level",
    "-v",
    "--version",
    "-j",
    "--json",
    "--",
    "-",
    "",
    "x",
    "0",
    "-1",
    "2147483648",
    "{",
    "{}",
    "[]",
    "{\"a\":1}",
    "=",
    "--=",
    "-=",
    "---",
    "--s",
    "-str",
    "50",
    "trace",
    "10",
    "/nonexistent",
    "/dev/null",
    "--bogus",
    "-zz",
    "\t",
    "\xff\xfe",
    "--str=-h",
};

static uint64_t rng_state;

/* xorshift64*: small, deterministic, good enough to pick tokens. */
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static int setup(void)
{
	memset(&rec, 0, sizeof(rec));
	CHECK_ERR(doca_argp_init(NULL, &rec), DOCA_SUCCESS);
	CHECK_ERR(add_param("s", "str", DOCA_ARGP_TYPE_STRING, cb_record, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("n", "num", DOCA_ARGP_TYPE_INT, cb_record, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("b", "bool", DOCA_ARGP_TYPE_BOOLEAN, cb_record, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("o", "obj", DOCA_ARGP_TYPE_JSON_OBJ, cb_record, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("wf", "wait-flag", DOCA_ARGP_TYPE_BOOLEAN, cb_record, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param("m", "multi", DOCA_ARGP_TYPE_STRING, cb_record, P_MULTI), DOCA_SUCCESS);
	CHECK_ERR(add_param("P", NULL, DOCA_ARGP_TYPE_INT, cb_record, 0), DOCA_SUCCESS);
	CHECK_ERR(add_param(NULL, "cli", DOCA_ARGP_TYPE_STRING, cb_record, P_CLI_ONLY), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_register_validation_callback(rec_validate), DOCA_SUCCESS);
	CHECK_ERR(doca_argp_register_version_callback(cb_version), DOCA_SUCCESS);
	return 0;
}

static int check_run(int argc, char **argv, uint64_t round)
{
	doca_error_t err;
	size_t len;

	memset(rec.log, 0, sizeof(rec.log));
	err = doca_argp_start(argc, argv);
	len = strlen(rec.log);
	switch (err) {
	case DOCA_SUCCESS:
		if (len < 9 || strcmp(rec.log + len - 9, "validate;") != 0) {
			fprintf(stderr, "round %llu: success without validation last: %s\n", (unsigned long long)round,
				rec.log);
			return 1;
		}
		return 0;
	case DOCA_ERROR_INVALID_VALUE:
	case DOCA_ERROR_NOT_SUPPORTED:
	case DOCA_ERROR_IO_FAILED:
	case DOCA_ERROR_NOT_PERMITTED:
		if (len != 0) {
			fprintf(stderr, "round %llu: %s after callbacks ran: %s\n", (unsigned long long)round,
				doca_error_get_name(err), rec.log);
			return 1;
		}
		return 0;
	default:
		fprintf(stderr, "round %llu: unexpected %s\n", (unsigned long long)round, doca_error_get_name(err));
		return 1;
	}
}

static int test_random_command_lines(void)
{
	const size_t nb_tokens = sizeof(tokens) / sizeof(tokens[0]);
	char *argv[16];

	if (setup() != 0)
		return 1;
	/* Keep argp's messages out of the test log: thousands of them say nothing. */
	CHECK_ERR(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE), DOCA_SUCCESS);
	rng_state = 0x9e3779b97f4a7c15ull;
	for (uint64_t round = 0; round < 20000; round++) {
		int argc = 1 + (int)(rng() % 8);

		argv[0] = "prog";
		for (int i = 1; i < argc; i++)
			argv[i] = tokens[rng() % nb_tokens];
		argv[argc] = NULL;
		/* -l and --sdk-log-level in the mix would turn the messages back on. */
		CHECK_ERR(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE), DOCA_SUCCESS);
		if (check_run(argc, argv, round) != 0)
			return 1;
	}
	CHECK_ERR(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING), DOCA_SUCCESS);
	return 0;
}

static int test_random_json_files(void)
{
	static const char *const pieces[] = {
	    "{",
	    "}",
	    "[",
	    "]",
	    ",",
	    ":",
	    "\"doca_program_flags\"",
	    "\"doca_general_flags\"",
	    "\"str\"",
	    "\"num\"",
	    "\"bool\"",
	    "\"obj\"",
	    "\"multi\"",
	    "\"P\"",
	    "\"cli\"",
	    "\"log-level\"",
	    "\"x\"",
	    "1",
	    "-1",
	    "true",
	    "null",
	    "1.5",
	    "\"trace\"",
	    "// c\n",
	    "/* c */",
	    " ",
	    "\n",
	    "99999999999999999999",
	    "\"\\u0000\"",
	};
	const size_t nb_pieces = sizeof(pieces) / sizeof(pieces[0]);
	char text[1024];

	if (setup() != 0)
		return 1;
	rng_state = 0x2545f4914f6cdd1dull;
	for (uint64_t round = 0; round < 2000; round++) {
		size_t n = 0, count = rng() % 24;
		char *path;
		int rc;

		/* Half the files start with a valid skeleton so the deeper checks are reached. */
		if (rng() % 2)
			n += (size_t)snprintf(text, sizeof(text), "{\"doca_program_flags\": {");
		for (size_t i = 0; i < count; i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s", pieces[rng() % nb_pieces]);
		path = sd_tmpfile("argp-test", text);
		CHECK(path != NULL);
		CHECK_ERR(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE), DOCA_SUCCESS);
		rc = check_run(3, (char *[]){"prog", "-j", path, NULL}, round);
		unlink(path);
		free(path);
		if (rc != 0) {
			fprintf(stderr, "file: %s\n", text);
			return 1;
		}
	}
	CHECK_ERR(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING), DOCA_SUCCESS);
	return 0;
}

int main(void)
{
	static const struct test_case tests[] = {
	    TEST(test_random_command_lines),
	    TEST(test_random_json_files),
	};

	return run_tests(tests, sizeof(tests) / sizeof(tests[0]));
}
