/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cli.c - runs argp_prog (path in argv[1]) and checks exit status, stdout and stderr:
 * help and version (which end the process), the usage text, and the one-line messages of
 * every usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>

#include <doca_version.h>

#include "argp_test.h"

static const char *prog;

struct result {
	int status; /* exit status, or 128 + signal */
	char out[16384];
	char err[16384];
};

static struct result res;

static void slurp(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	while (used + 1 < len && (n = read(fd, buf + used, len - used - 1)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	close(fd);
}

static int temp_fd(void)
{
	char *path = sd_tmpfile("argp-cli", NULL);
	int fd = open(path, O_RDWR | O_CLOEXEC);

	unlink(path);
	free(path);
	return fd;
}

/*
 * Runs argp_prog with @args (NULL-terminated) and "K=V" strings from @env (NULL-terminated,
 * may be NULL) added to its environment; fills res. Returns 0, or 1 when it could not run.
 */
static int run_env(char *const *env, char *const *args)
{
	char *argv[64];
	int out = temp_fd(), err = temp_fd(), status;
	size_t n = 0;
	pid_t pid;

	if (out < 0 || err < 0) {
		perror("temporary output file");
		return 1;
	}
	argv[n++] = (char *)prog;
	while (args[n - 1] != NULL && n < 63) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		/* The log must run at its defaults whatever the test runner's environment says. */
		sd_setenv("DOCA_LOG_LEVEL", NULL);
		for (size_t i = 0; env != NULL && env[i] != NULL; i++)
			putenv(env[i]);
		execv(prog, argv);
		perror("execv");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	res.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	slurp(out, res.out, sizeof(res.out));
	slurp(err, res.err, sizeof(res.err));
	return 0;
}

#define RUN_ENV(env, ...)                                                                                              \
	do {                                                                                                           \
		if (run_env(env, (char *[]){__VA_ARGS__, NULL}) != 0)                                                  \
			return 1;                                                                                      \
	} while (0)
#define RUN(...) RUN_ENV(NULL, __VA_ARGS__)

static void dump(void)
{
	fprintf(stderr, "exit status %d\n--- stdout\n%s--- stderr\n%s---\n", res.status, res.out, res.err);
}

#define EXPECT_STATUS(want)                                                                                            \
	do {                                                                                                           \
		if (res.status != (int)(want)) {                                                                       \
			fprintf(stderr, "%s:%d: exit status %d, expected %d\n", __FILE__, __LINE__, res.status,        \
				(int)(want));                                                                          \
			dump();                                                                                        \
			return 1;                                                                                      \
		}                                                                                                      \
	} while (0)

#define EXPECT_IN(buf, text)                                                                                           \
	do {                                                                                                           \
		if (strstr(res.buf, (text)) == NULL) {                                                                 \
			fprintf(stderr, "%s:%d: %s lacks \"%s\"\n", __FILE__, __LINE__, #buf, (text));                 \
			dump();                                                                                        \
			return 1;                                                                                      \
		}                                                                                                      \
	} while (0)

#define EXPECT_NOT_IN(buf, text)                                                                                       \
	do {                                                                                                           \
		if (strstr(res.buf, (text)) != NULL) {                                                                 \
			fprintf(stderr, "%s:%d: %s has \"%s\"\n", __FILE__, __LINE__, #buf, (text));                   \
			dump();                                                                                        \
			return 1;                                                                                      \
		}                                                                                                      \
	} while (0)

/* Lines of stderr that are messages, not the two lines of the usage hint. */
static int error_lines(void)
{
	int n = 0;

	for (const char *line = res.err; *line != '\0';) {
		const char *nl = strchr(line, '\n');

		if (strncmp(line, "Usage: ", 7) != 0 && strncmp(line, "Run '", 5) != 0)
			n++;
		if (nl == NULL)
			break;
		line = nl + 1;
	}
	return n;
}

/* Column where @text starts on its line of stdout, or -1. */
static int column_of(const char *text)
{
	const char *at = strstr(res.out, text);
	const char *line;

	if (at == NULL)
		return -1;
	for (line = at; line > res.out && line[-1] != '\n'; line--)
		;
	return (int)(at - line);
}

static int check_usage(const char *name)
{
	char header[128];
	int col;

	snprintf(header, sizeof(header), "Usage: %s [DOCA Flags] [Program Flags]\n", name);
	CHECK(strncmp(res.out, header, strlen(header)) == 0);
	EXPECT_IN(out, "\nDOCA Flags:\n");
	EXPECT_IN(out, "\nProgram Flags:\n");
	CHECK(strstr(res.out, "DOCA Flags:") < strstr(res.out, "Program Flags:"));
	EXPECT_IN(out, "\n  -h, --help ");
	EXPECT_IN(out, "\n  -v, --version ");
	EXPECT_IN(out, "\n  -l, --log-level <level> ");
	EXPECT_IN(out, "\n      --sdk-log-level <level> ");
	EXPECT_IN(out, "\n  -j, --json <path> ");
	EXPECT_IN(out, "\n  -p, --pci-addr <pci> ");
	EXPECT_IN(out, "\n  -n, --num <num> ");
	EXPECT_IN(out, "\n  -b, --bool ");
	EXPECT_IN(out, "\n      --obj <json> ");
	EXPECT_IN(out, "\n  -wf, --wait-flag ");
	EXPECT_IN(out, "\n  -m, --multi <str> ");
	EXPECT_IN(out, "Repeatable (may be repeated)\n");
	EXPECT_IN(out, "\n      --cli <path> ");
	EXPECT_IN(out, "Command line only (command line only)\n");
	/* Descriptions line up in one column across both blocks. */
	col = column_of("Print this help text");
	CHECK(col > 0);
	CHECK(column_of("PCI address of the device") == col);
	CHECK(column_of("A switch with a two-letter") == col);
	CHECK(column_of("Command line only") == col);
	/* A flag too wide for the column puts its description below, and a second line stays aligned. */
	EXPECT_IN(out, "--a-very-long-flag-name-that-overflows-the-column <str>\n");
	CHECK(column_of("First line") == col);
	CHECK(column_of("second line") == col);
	/* No trailing blanks. */
	EXPECT_NOT_IN(out, " \n");
	return 0;
}

static int test_help(void)
{
	RUN("-h");
	EXPECT_STATUS(0);
	if (check_usage("argp_prog") != 0)
		return 1;
	CHECK(res.err[0] == '\0');
	RUN("--help");
	EXPECT_STATUS(0);
	if (check_usage("argp_prog") != 0)
		return 1;
	return 0;
}

static int test_help_runs_no_callback(void)
{
	char *env[] = {"ARGP_PROG_MANDATORY=1", NULL};

	/* -h wins over flags before it, and none of their callbacks runs. */
	RUN("-p", "03:00.0", "-b", "-h", "--num", "5");
	EXPECT_STATUS(0);
	EXPECT_NOT_IN(out, "pci=");
	EXPECT_NOT_IN(out, "validate");
	EXPECT_IN(out, "Usage: ");
	/* Even a missing mandatory flag does not stand in the way of help. */
	RUN_ENV(env, "--help");
	EXPECT_STATUS(0);
	EXPECT_IN(out, "\n  -f, --file <str> ");
	EXPECT_IN(out, "Input file (mandatory)\n");
	return 0;
}

static int test_help_program_name(void)
{
	char *env[] = {"ARGP_PROG_NAME=dma_copy", NULL};

	RUN_ENV(env, "-h");
	EXPECT_STATUS(0);
	return check_usage("dma_copy");
}

static int test_help_after_error(void)
{
	/* Flags are read in order: an earlier unknown flag is reported, no help. */
	RUN("--bogus", "-h");
	EXPECT_STATUS(DOCA_ERROR_NOT_SUPPORTED);
	EXPECT_NOT_IN(out, "DOCA Flags:");
	RUN("-h=1");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	return 0;
}

static int test_version(void)
{
	RUN("-v");
	EXPECT_STATUS(0);
	CHECK_STR(res.out, "softdoca " SOFTDOCA_VERSION_STRING " (DOCA " DOCA_VERSION_STRING ")\n");
	CHECK(res.err[0] == '\0');
	RUN("-n", "1", "--version");
	EXPECT_STATUS(0);
	CHECK_STR(res.out, "softdoca " SOFTDOCA_VERSION_STRING " (DOCA " DOCA_VERSION_STRING ")\n");
	return 0;
}

static int test_version_callback(void)
{
	char *env[] = {"ARGP_PROG_VERSION_CB=1", NULL};

	RUN_ENV(env, "--version");
	EXPECT_STATUS(0);
	CHECK_STR(res.out, "custom version\n");
	return 0;
}

static int test_success(void)
{
	RUN("-p", "03:00.0", "--num=-7", "-b", "--obj", "{\"a\": 1}", "-wf", "-m", "x", "--multi", "y");
	EXPECT_STATUS(0);
	CHECK_STR(res.out, "pci=03:00.0\nnum=-7\nbool=1\nobj={\"a\":1}\nwf=1\nmulti=x\nmulti=y\nvalidate\nok\n");
	CHECK(res.err[0] == '\0');
	return 0;
}

static int test_unknown_flag(void)
{
	RUN("-p", "x", "--bogus-flag");
	EXPECT_STATUS(DOCA_ERROR_NOT_SUPPORTED);
	EXPECT_IN(out, "start=DOCA_ERROR_NOT_SUPPORTED\n");
	EXPECT_NOT_IN(out, "pci=");
	EXPECT_IN(err, "unknown flag '--bogus-flag'");
	EXPECT_IN(err, "argp_prog --help");
	EXPECT_IN(err, "Usage: argp_prog [DOCA Flags] [Program Flags]\n");
	CHECK(error_lines() == 1);
	RUN("--bogus=value");
	EXPECT_STATUS(DOCA_ERROR_NOT_SUPPORTED);
	EXPECT_IN(err, "'--bogus'");
	EXPECT_NOT_IN(err, "value");
	/* Control bytes in argv are escaped, so the message stays one line. */
	RUN("--two\nlines");
	EXPECT_STATUS(DOCA_ERROR_NOT_SUPPORTED);
	EXPECT_IN(err, "'--two\\x0alines'");
	CHECK(error_lines() == 1);
	return 0;
}

static int test_missing_argument(void)
{
	RUN("-b", "-p");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "-p needs an argument");
	EXPECT_IN(err, "Usage: argp_prog");
	CHECK(error_lines() == 1);
	RUN("--pci-addr", "--num", "1");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "--pci-addr needs an argument");
	return 0;
}

static int test_bad_int(void)
{
	RUN("--num", "12abc");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "--num expects an integer, got '12abc'");
	CHECK(error_lines() == 1);
	RUN("-n", "99999999999");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "-n value '99999999999' is out of range");
	return 0;
}

static int test_bad_json_obj(void)
{
	RUN("--obj", "[1, 2]");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "--obj expects a JSON object");
	return 0;
}

static int test_mandatory(void)
{
	char *env[] = {"ARGP_PROG_MANDATORY=1", NULL};

	RUN_ENV(env, "-p", "x");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "missing mandatory flag: --file");
	EXPECT_IN(err, "Usage: argp_prog");
	EXPECT_NOT_IN(out, "pci=");
	CHECK(error_lines() == 1);
	RUN_ENV(env, "-f", "in.bin");
	EXPECT_STATUS(0);
	CHECK_STR(res.out, "file=in.bin\nvalidate\nok\n");
	return 0;
}

static int test_repeated(void)
{
	RUN("-p", "a", "--pci-addr", "b");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "--pci-addr given more than once");
	CHECK(error_lines() == 1);
	return 0;
}

static int test_callback_error(void)
{
	RUN("-p", "a", "-x", "bad", "-n", "1");
	EXPECT_STATUS(DOCA_ERROR_BAD_CONFIG);
	CHECK_STR(res.out, "pci=a\nfail=bad\nstart=DOCA_ERROR_BAD_CONFIG\n");
	EXPECT_IN(err, "--fail");
	EXPECT_IN(err, "DOCA_ERROR_BAD_CONFIG");
	/* The program's own verdict is no usage error: no hint. */
	EXPECT_NOT_IN(err, "Usage:");
	CHECK(error_lines() == 1);
	return 0;
}

static int test_validation_error(void)
{
	char *env[] = {"ARGP_PROG_VALIDATION_FAIL=1", NULL};

	RUN_ENV(env, "-b");
	EXPECT_STATUS(DOCA_ERROR_NOT_PERMITTED);
	CHECK_STR(res.out, "bool=1\nvalidate\nstart=DOCA_ERROR_NOT_PERMITTED\n");
	CHECK(error_lines() == 1);
	return 0;
}

static int test_positional(void)
{
	RUN("stray");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "unexpected argument 'stray'");
	return 0;
}

static int test_huge_argument_message(void)
{
	static char big[70000];

	memset(big, 'z', sizeof(big) - 1);
	big[0] = '-';
	big[1] = '-';
	RUN(big);
	EXPECT_STATUS(DOCA_ERROR_NOT_SUPPORTED);
	/* The message quotes a bounded prefix, not 70 kB. */
	CHECK(strlen(res.err) < 2048);
	return 0;
}

static int test_log_level_flags(void)
{
	RUN("-l", "debug", "--sdk-log-level=20", "-b");
	EXPECT_STATUS(0);
	RUN("-l", "verbose");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "-l: 'verbose' is not a log level");
	/* --sdk-log-level applies at once: with the SDK log off, argp's own message is gone too. */
	RUN("--sdk-log-level", "disable", "--bogus");
	EXPECT_STATUS(DOCA_ERROR_NOT_SUPPORTED);
	CHECK(error_lines() == 0);
	return 0;
}

static int test_json(void)
{
	char *path = sd_tmpfile("argp-test", "/* params */\n"
				"{\n"
				"  \"doca_general_flags\": { \"log-level\": 50 },\n"
				"  \"doca_program_flags\": {\n"
				"    \"pci-addr\": \"03:00.0\", // device\n"
				"    \"num\": 3,\n"
				"    \"wait-flag\": true,\n"
				"    \"multi\": [\"a\", \"b\"]\n"
				"  }\n"
				"}\n");

	CHECK(path != NULL);
	RUN("-j", path);
	EXPECT_STATUS(0);
	CHECK_STR(res.out, "pci=03:00.0\nnum=3\nwf=1\nmulti=a\nmulti=b\nvalidate\nok\n");
	RUN("-j", path, "-b");
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "-j/--json must be the only flag");
	unlink(path);
	free(path);
	return 0;
}

static int test_json_errors(void)
{
	char *path;

	RUN("-j", "/nonexistent/params.json");
	EXPECT_STATUS(DOCA_ERROR_IO_FAILED);
	EXPECT_IN(err, "/nonexistent/params.json");
	EXPECT_IN(err, "No such file or directory");
	CHECK(error_lines() == 1);

	path = sd_tmpfile("argp-test", "{\n  \"doca_program_flags\": {\n    \"num\": tru\n  }\n}\n");
	CHECK(path != NULL);
	RUN("--json", path);
	EXPECT_STATUS(DOCA_ERROR_IO_FAILED);
	EXPECT_IN(err, "not valid JSON");
	EXPECT_IN(err, "line 3");
	unlink(path);
	free(path);

	path = sd_tmpfile("argp-test", "{\"doca_program_flags\": {\"pci\": \"x\"}}");
	CHECK(path != NULL);
	RUN("-j", path);
	EXPECT_STATUS(DOCA_ERROR_NOT_SUPPORTED);
	EXPECT_IN(err, "'doca_program_flags.pci'");
	unlink(path);
	free(path);

	path = sd_tmpfile("argp-test", "{\"doca_program_flags\": {\"num\": \"3\"}}");
	CHECK(path != NULL);
	RUN("-j", path);
	EXPECT_STATUS(DOCA_ERROR_INVALID_VALUE);
	EXPECT_IN(err, "'doca_program_flags.num' expects an integer, got string");
	unlink(path);
	free(path);

	path = sd_tmpfile("argp-test", "{\"doca_program_flags\": {\"cli\": \"x\"}}");
	CHECK(path != NULL);
	RUN("-j", path);
	EXPECT_STATUS(DOCA_ERROR_NOT_SUPPORTED);
	EXPECT_IN(err, "only be given on the command line");
	unlink(path);
	free(path);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct test_case tests[] = {
	    TEST(test_help),
	    TEST(test_help_runs_no_callback),
	    TEST(test_help_program_name),
	    TEST(test_help_after_error),
	    TEST(test_version),
	    TEST(test_version_callback),
	    TEST(test_success),
	    TEST(test_unknown_flag),
	    TEST(test_missing_argument),
	    TEST(test_bad_int),
	    TEST(test_bad_json_obj),
	    TEST(test_mandatory),
	    TEST(test_repeated),
	    TEST(test_callback_error),
	    TEST(test_validation_error),
	    TEST(test_positional),
	    TEST(test_huge_argument_message),
	    TEST(test_log_level_flags),
	    TEST(test_json),
	    TEST(test_json_errors),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s <path to argp_prog>\n", argv[0]);
		return T_EXIT_FAIL;
	}
	prog = argv[1];
	if (access(prog, X_OK) != 0) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		return T_EXIT_FAIL;
	}
	return run_tests(tests, sizeof(tests) / sizeof(tests[0]));
}
