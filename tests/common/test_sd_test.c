/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_sd_test.c - the test helpers can fail: each failing check runs in a child
 * (check_run_child_output), which must end with the check's exit status and print the check's
 * file:line and both values. Then the non-failing forms, the return-instead-of-exit mode, the
 * temporary directory (gone when its owner exits, kept when a child exits) and sd_setenv().
 *
 * The verdicts here are plain if statements, not the macros under test.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sd_test.h"

static int nb_failed;

static void fail(const char *name, const char *why, const char *out)
{
	fprintf(stderr, "FAIL %s: %s\n--- its output:\n%s--- end\n", name, why, out);
	nb_failed++;
}

/* ---- failing checks: one child body each, the check on the line recorded with it ---- */

static doca_error_t returns_invalid(void)
{
	return DOCA_ERROR_INVALID_VALUE;
}

static int five = 5, minus_one = -1;
static const char abc[] = "abc", abd[] = "abd";
static const uint8_t mem_a[] = {1, 2, 3, 0x44, 5}, mem_b[] = {1, 2, 3, 0x55, 5};

/* clang-format off */
#define FAILING(name, stmt) static int name(void *arg) { (void)arg; stmt; return 0; } enum { name##_line = __LINE__ }
FAILING(f_check, CHECK(five == 6));
FAILING(f_check_err, CHECK_ERR(returns_invalid(), DOCA_ERROR_NOT_FOUND));
FAILING(f_check_ok, CHECK_OK(returns_invalid()));
FAILING(f_check_eq, CHECK_EQ(five, 7));
FAILING(f_check_eq_neg, CHECK_EQ(minus_one, 3));
FAILING(f_check_str, CHECK_STR(abc, abd));
FAILING(f_check_str_null, CHECK_STR(NULL, abd));
FAILING(f_check_mem, CHECK_MEM(mem_a, mem_b, sizeof(mem_a)));
FAILING(f_skip, T_SKIP("no %s here", "widget"));
FAILING(f_expect, dup2(2, 1); EXPECT(five == 8); EXPECT(five == 5); return sd_test_summary());
FAILING(f_expect_str, dup2(2, 1); EXPECT_STR(abc, "xyz"); return sd_test_summary());
/* clang-format on */

struct failing {
	const char *name;
	int (*fn)(void *);
	int line;
	int status;	      /* the exit status it must end with */
	const char *needs[4]; /* each must be in the output */
};

#define CASE(fn, status, ...)                                                                                          \
	{                                                                                                              \
#fn, fn, fn##_line, status,                                                                            \
		{                                                                                                      \
			__VA_ARGS__                                                                                    \
		}                                                                                                      \
	}

static const struct failing failing[] = {
    CASE(f_check, T_EXIT_FAIL, "check failed: five == 6"),
    CASE(f_check_err, T_EXIT_FAIL, "returns_invalid() returned DOCA_ERROR_INVALID_VALUE",
	 "expected DOCA_ERROR_NOT_FOUND"),
    CASE(f_check_ok, T_EXIT_FAIL, "returned DOCA_ERROR_INVALID_VALUE, expected DOCA_SUCCESS"),
    CASE(f_check_eq, T_EXIT_FAIL, "five is 5, expected 7"),
    CASE(f_check_eq_neg, T_EXIT_FAIL, "minus_one is 18446744073709551615 (-1), expected 3"),
    CASE(f_check_str, T_EXIT_FAIL, "abc is \"abc\", expected \"abd\""),
    CASE(f_check_str_null, T_EXIT_FAIL, "is \"(null)\", expected \"abd\""),
    CASE(f_check_mem, T_EXIT_FAIL, "mem_a differs at byte 3 of 5", "0x44, expected 0x55"),
    CASE(f_skip, T_EXIT_SKIP, "skipped: no widget here"),
    CASE(f_expect, T_EXIT_FAIL, "check failed: five == 8", "2 checks, 1 failed"),
    CASE(f_expect_str, T_EXIT_FAIL, "abc is \"abc\", expected \"xyz\"", "1 checks, 1 failed"),
};

static void test_failing(void)
{
	for (size_t i = 0; i < sizeof(failing) / sizeof(failing[0]); i++) {
		const struct failing *f = &failing[i];
		char out[4096], at[64];
		int st = check_run_child_output(f->fn, NULL, f->name, out, sizeof(out));

		snprintf(at, sizeof(at), "test_sd_test.c:%d: ", f->line);
		if (st != f->status) {
			char why[64];

			snprintf(why, sizeof(why), "exit status %d, expected %d", st, f->status);
			fail(f->name, why, out);
			continue;
		}
		if (strstr(out, at) == NULL) {
			fail(f->name, at, out);
			continue;
		}
		for (size_t k = 0; k < 4 && f->needs[k] != NULL; k++)
			if (strstr(out, f->needs[k]) == NULL)
				fail(f->name, f->needs[k], out);
	}
}

/* ---- checks that hold print nothing and go on ---- */

static int all_hold(void *arg)
{
	(void)arg;
	CHECK(five == 5);
	CHECK_ERR(returns_invalid(), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(DOCA_SUCCESS);
	CHECK_EQ(five, 5);
	CHECK_EQ(minus_one, -1);
	CHECK_STR(abc, "abc");
	CHECK_MEM(mem_a, mem_a, sizeof(mem_a));
	if (!EXPECT(five == 5) || !EXPECT_STR(abd, "abd"))
		return 2;
	return sd_test_summary() == T_EXIT_PASS && sd_test_nb_checks == 2 ? 0 : 3;
}

/* ---- SD_CHECK_FAIL() may return from the function instead of exiting ---- */

#undef SD_CHECK_FAIL
#define SD_CHECK_FAIL() return T_EXIT_FAIL

static int case_returns(void)
{
	CHECK_EQ(five, 9);
	return 0;
}

#undef SD_CHECK_FAIL
#define SD_CHECK_FAIL() exit(T_EXIT_FAIL)

static int return_mode(void *arg)
{
	(void)arg;
	/* 42: the failed check returned 1 to us rather than ending the process. */
	return case_returns() == T_EXIT_FAIL ? 42 : 0;
}

/* ---- a child killed by a signal is a failure ---- */

static int killed(void *arg)
{
	(void)arg;
	raise(SIGKILL);
	return 0;
}

/* ---- temporary directory ---- */

static int exit_child(void *arg)
{
	(void)arg;
	exit(0); /* runs the atexit handlers inherited from the owner */
}

/* A directory of ours outside sd_tmpdir(), linked from inside it: the cleanup must not enter it. */
static char victim[PATH_MAX];

static int tmpdir_owner(void *arg)
{
	const char *dir = sd_tmpdir();
	char *file = sd_tmpfile("probe", "hello");
	char sub[PATH_MAX], got[8] = "";
	struct stat st;
	FILE *f;

	(void)arg;
	if (sd_tmpdir() != dir || strncmp(file, dir, strlen(dir)) != 0)
		return 2;
	f = fopen(file, "r");
	if (f == NULL || fread(got, 1, sizeof(got) - 1, f) != 5 || strcmp(got, "hello") != 0)
		return 3;
	fclose(f);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	if (mkdir(sub, 0700) != 0 || symlink(victim, strcat(sub, "/link")) != 0)
		return 4;
	/* A child that exits normally must leave its parent's directory in place. */
	if (check_run_child(exit_child, NULL, "exit child") != 0 || stat(file, &st) != 0)
		return 5;
	fprintf(stderr, "DIR %s\n", dir);
	free(file);
	exit(0); /* exit(), not a return: the child of check_run_child would _exit() */
}

static void test_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char out[4096], dir[PATH_MAX], victim_file[PATH_MAX + 8];
	struct stat st;
	const char *p;
	FILE *f;
	int rc;

	if (base == NULL || *base == '\0')
		base = "/tmp";
	snprintf(victim, sizeof(victim), "%s/sd-test-victim-XXXXXX", base);
	snprintf(victim_file, sizeof(victim_file), "%s/keep", mkdtemp(victim) ? victim : "");
	f = fopen(victim_file, "w");
	if (f == NULL || fclose(f) != 0) {
		fail("tmpdir", "cannot create the victim directory", "");
		return;
	}
	rc = check_run_child_output(tmpdir_owner, NULL, "tmpdir owner", out, sizeof(out));
	p = strstr(out, "DIR ");
	if (rc != 0 || p == NULL || sscanf(p, "DIR %4095s", dir) != 1) {
		fail("tmpdir", "the owner failed", out);
		return;
	}
	if (strncmp(dir, base, strlen(base)) != 0)
		fail("tmpdir", "not under $TMPDIR", out);
	if (stat(dir, &st) == 0 || errno != ENOENT)
		fail("tmpdir", "still there after its owner exited", out);
	if (stat(victim_file, &st) != 0)
		fail("tmpdir", "the cleanup followed a link out of the directory", out);
	unlink(victim_file);
	rmdir(victim);
}

/* ---- environment ---- */

static void test_setenv(void)
{
	sd_setenv("SD_TEST_PROBE", "one");
	if (getenv("SD_TEST_PROBE") == NULL || strcmp(getenv("SD_TEST_PROBE"), "one") != 0)
		fail("sd_setenv", "value not set", "");
	sd_setenv("SD_TEST_PROBE", NULL);
	if (getenv("SD_TEST_PROBE") != NULL)
		fail("sd_setenv", "NULL did not unset", "");
}

static int setenv_bad(void *arg)
{
	(void)arg;
	sd_setenv("BAD=NAME", "x"); /* setenv() refuses '=' in a name */
	return 0;
}

int main(void)
{
	char out[4096];
	int rc;

	test_failing();
	rc = check_run_child_output(all_hold, NULL, "all hold", out, sizeof(out));
	if (rc != 0 || strstr(out, "test_sd_test.c:") != NULL)
		fail("all_hold", "a check that holds failed or printed", out);
	rc = check_run_child_output(return_mode, NULL, "return mode", out, sizeof(out));
	if (rc != 42 || strstr(out, "five is 5, expected 9") == NULL)
		fail("return_mode", "the check did not return 1 from its function", out);
	rc = check_run_child_output(killed, NULL, "killed child", out, sizeof(out));
	if (rc != T_EXIT_FAIL)
		fail("killed", "a child killed by SIGKILL did not count as a failure", out);
	test_tmpdir();
	test_setenv();
	rc = check_run_child_output(setenv_bad, NULL, "setenv bad", out, sizeof(out));
	if (rc != T_EXIT_FAIL || strstr(out, "cannot set BAD=NAME") == NULL)
		fail("setenv_bad", "a refused setenv() did not fail the test", out);
	printf("test_sd_test: %d failed\n", nb_failed);
	return nb_failed ? T_EXIT_FAIL : T_EXIT_PASS;
}
