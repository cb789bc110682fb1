/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_log.c - DOCA logging: application messages through DOCA_LOG_REGISTER / DOCA_LOG_*,
 * backends on pipes with their level windows, the global limits, the SDK world and its
 * backends, DOCA_LOG_LEVEL, and DOCA_LOG_TRC compiling to nothing.
 *
 * DOCA_LOG_LEVEL is read once per process at the first logging call, so each value is tried in
 * a fresh copy of this program (re-executed with --env-child) which reports the limits it
 * started with and checks which messages get through.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_log.h>
#include <doca_mmap.h>

#include "../common/sd_test.h"

DOCA_LOG_REGISTER(CORE::TEST_LOG);

#define BUF_LEN 65536

struct pipe_be {
	int rd, wr;
	struct doca_log_backend *be;
};

static char text[BUF_LEN];

static void pipe_open(struct pipe_be *p)
{
	int fds[2];

	CHECK(pipe2(fds, O_CLOEXEC) == 0);
	CHECK(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0);
	p->rd = fds[0];
	p->wr = fds[1];
	p->be = NULL;
}

/* Everything written to @p since the last call, as a string (in a static buffer). */
static const char *take(const struct pipe_be *p)
{
	size_t len = 0;

	for (;;) {
		ssize_t n = read(p->rd, text + len, sizeof(text) - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		CHECK(len < sizeof(text) - 1);
	}
	text[len] = '\0';
	return text;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#define CHECK_EMPTY(p)                                                                                                 \
	do {                                                                                                           \
		const char *s_ = take(p);                                                                              \
		if (s_[0] != '\0') {                                                                                   \
			fprintf(stderr, "%s:%d: expected no output, got:\n%s", __FILE__, __LINE__, s_);                \
			exit(T_EXIT_FAIL);                                                                             \
		}                                                                                                      \
	} while (0)

#define CHECK_HAS(s, needle)                                                                                           \
	do {                                                                                                           \
		if (strstr((s), (needle)) == NULL) {                                                                   \
			fprintf(stderr, "%s:%d: \"%s\" not found in:\n%s\n", __FILE__, __LINE__, (needle), (s));       \
			exit(T_EXIT_FAIL);                                                                             \
		}                                                                                                      \
	} while (0)

/* A single line holding @msg. */
#define CHECK_LINE(p, msg)                                                                                             \
	do {                                                                                                           \
		const char *l_ = take(p);                                                                              \
		CHECK_HAS(l_, (msg));                                                                                  \
		CHECK(count_lines(l_) == 1);                                                                           \
		CHECK(l_[strlen(l_) - 1] == '\n');                                                                     \
	} while (0)

/* An SDK error: doca_mmap_start() without a range names the call that is missing. */
static void provoke_sdk_error(void)
{
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_ERR(doca_mmap_start(m), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_destroy(m));
}

static const char *sdk_needle = "doca_mmap_set_memrange";

/* ---- in-process tests ---- */

static void test_app_messages(struct pipe_be *a)
{
	const char *s;

	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_DEBUG);

	DOCA_LOG_INFO("hello %d from info", 42);
	s = take(a);
	CHECK_HAS(s, "hello 42 from info");
	CHECK_HAS(s, "CORE::TEST_LOG");
	CHECK_HAS(s, "INF");
	CHECK(count_lines(s) == 1);

	DOCA_LOG_ERR("an error: %s", "boom");
	s = take(a);
	CHECK_HAS(s, "an error: boom");
	CHECK_HAS(s, "CORE::TEST_LOG");
	CHECK_HAS(s, "ERR");
	CHECK(strstr(s, "INF") == NULL);
	CHECK(count_lines(s) == 1);

	DOCA_LOG_WARN("careful");
	s = take(a);
	CHECK_HAS(s, "careful");
	CHECK_HAS(s, "WRN");
	CHECK(count_lines(s) == 1);

	DOCA_LOG_DBG("details %u", 7u);
	s = take(a);
	CHECK_HAS(s, "details 7");
	CHECK_HAS(s, "DBG");
	CHECK(count_lines(s) == 1);

	DOCA_LOG_CRIT("meltdown");
	s = take(a);
	CHECK_HAS(s, "meltdown");
	CHECK(strstr(s, "CRT") != NULL || strstr(s, "CRIT") != NULL);
	CHECK(count_lines(s) == 1);

	/* One call, one line, in call order. */
	DOCA_LOG_INFO("first");
	DOCA_LOG_INFO("second");
	s = take(a);
	CHECK(count_lines(s) == 2);
	CHECK(strstr(s, "first") != NULL && strstr(s, "second") != NULL);
	CHECK(strstr(s, "first") < strstr(s, "second"));

	/* A long message is cut, still as one line. */
	{
		static char big[8192];

		memset(big, 'x', sizeof(big) - 1);
		DOCA_LOG_INFO("%s", big);
		s = take(a);
		CHECK(count_lines(s) == 1);
		CHECK(s[strlen(s) - 1] == '\n');
	}

	/* Levels that are not levels. */
	CHECK_ERR(doca_log(35, log_source, __FILE__, __LINE__, __func__, "odd level"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(80, log_source, __FILE__, __LINE__, __func__, "too verbose"), DOCA_ERROR_INVALID_VALUE);
	CHECK_EMPTY(a);
}

static void test_global_limits(struct pipe_be *a)
{
	const char *s;

	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_ERROR));
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_ERROR);
	DOCA_LOG_INFO("dropped info");
	DOCA_LOG_WARN("dropped warning");
	DOCA_LOG_DBG("dropped debug");
	CHECK_EMPTY(a);
	DOCA_LOG_ERR("kept error");
	DOCA_LOG_CRIT("kept crit");
	s = take(a);
	CHECK(count_lines(s) == 2);
	CHECK_HAS(s, "kept error");
	CHECK_HAS(s, "kept crit");

	/* Bad values change nothing. */
	CHECK_ERR(doca_log_level_set_global_lower_limit(35), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_level_set_global_lower_limit(0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_level_set_global_lower_limit(80), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_ERROR);

	/* DISABLE silences everything. */
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DISABLE));
	DOCA_LOG_CRIT("silenced");
	CHECK_EMPTY(a);

	/* The upper limit cuts the severe end. */
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_ERROR));
	CHECK(doca_log_level_get_global_upper_limit() == DOCA_LOG_LEVEL_ERROR);
	DOCA_LOG_CRIT("too severe");
	CHECK_EMPTY(a);
	DOCA_LOG_ERR("severe enough");
	CHECK_LINE(a, "severe enough");
	CHECK_ERR(doca_log_level_set_global_upper_limit(25), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_log_level_get_global_upper_limit() == DOCA_LOG_LEVEL_ERROR);
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT));
	DOCA_LOG_CRIT("crit again");
	CHECK_LINE(a, "crit again");
}

static void test_backend_windows(struct pipe_be *a, struct pipe_be *b)
{
	CHECK_ERR(doca_log_backend_create_with_fd(-1, &b->be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_fd(b->wr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_log_backend_create_with_fd(b->wr, &b->be));
	CHECK(b->be != NULL);

	/* Every application backend gets every admitted message. */
	DOCA_LOG_INFO("to both");
	CHECK_LINE(a, "to both");
	CHECK_LINE(b, "to both");

	/* b: WARNING and more severe only. */
	CHECK_OK(doca_log_backend_set_level_lower_limit(b->be, DOCA_LOG_LEVEL_WARNING));
	DOCA_LOG_INFO("info to a only");
	CHECK_LINE(a, "info to a only");
	CHECK_EMPTY(b);
	DOCA_LOG_WARN("warning to both");
	CHECK_LINE(a, "warning to both");
	CHECK_LINE(b, "warning to both");

	/* b: ERROR..WARNING. */
	CHECK_OK(doca_log_backend_set_level_upper_limit(b->be, DOCA_LOG_LEVEL_ERROR));
	DOCA_LOG_CRIT("crit to a only");
	CHECK_LINE(a, "crit to a only");
	CHECK_EMPTY(b);
	DOCA_LOG_ERR("error to both");
	CHECK_LINE(a, "error to both");
	CHECK_LINE(b, "error to both");

	/* An empty window is refused. */
	CHECK_ERR(doca_log_backend_set_level_lower_limit(b->be, DOCA_LOG_LEVEL_CRIT), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit(b->be, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_lower_limit(b->be, 45), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_lower_limit(NULL, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	DOCA_LOG_WARN("window kept");
	CHECK_LINE(b, "window kept");
	take(a);

	/* The global limit applies on top of the backend window. */
	CHECK_OK(doca_log_backend_set_level_lower_limit(b->be, DOCA_LOG_LEVEL_TRACE));
	CHECK_OK(doca_log_backend_set_level_upper_limit(b->be, DOCA_LOG_LEVEL_CRIT));
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
	DOCA_LOG_DBG("debug nowhere");
	CHECK_EMPTY(a);
	CHECK_EMPTY(b);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));

	/* A FILE * backend. */
	{
		FILE *f = tmpfile();
		struct doca_log_backend *fb = NULL;
		char line[512] = "";

		CHECK(f != NULL);
		CHECK_ERR(doca_log_backend_create_with_file(NULL, &fb), DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_log_backend_create_with_file(f, &fb));
		DOCA_LOG_INFO("into a file");
		rewind(f);
		CHECK(fgets(line, sizeof(line), f) != NULL);
		CHECK_HAS(line, "into a file");
		CHECK_HAS(line, "CORE::TEST_LOG");
		take(a);
		take(b);
	}
}

static void test_sdk(struct pipe_be *a, struct pipe_be *b, struct pipe_be *sdk)
{
	const char *s;

	CHECK_ERR(doca_log_backend_create_with_fd_sdk(-1, &sdk->be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_fd_sdk(sdk->wr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_log_backend_create_with_fd_sdk(sdk->wr, &sdk->be));

	provoke_sdk_error();
	s = take(sdk);
	CHECK_HAS(s, sdk_needle);
	CHECK_HAS(s, "ERR");
	CHECK(count_lines(s) == 1);
	/* The two worlds stay apart. */
	CHECK_EMPTY(a);
	CHECK_EMPTY(b);
	DOCA_LOG_ERR("application only");
	CHECK_LINE(a, "application only");
	CHECK_LINE(b, "application only");
	CHECK_EMPTY(sdk);

	/* Per-backend SDK level. */
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->be, DOCA_LOG_LEVEL_CRIT));
	provoke_sdk_error();
	CHECK_EMPTY(sdk);
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->be, DOCA_LOG_LEVEL_WARNING));
	provoke_sdk_error();
	CHECK_LINE(sdk, sdk_needle);
	CHECK_ERR(doca_log_backend_set_sdk_level(sdk->be, 33), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(NULL, DOCA_LOG_LEVEL_WARNING), DOCA_ERROR_INVALID_VALUE);
	/* An application backend has no SDK level. */
	CHECK_ERR(doca_log_backend_set_sdk_level(a->be, DOCA_LOG_LEVEL_WARNING), DOCA_ERROR_INVALID_VALUE);
	take(sdk); /* that refusal may itself be logged */

	/* Global SDK limit. */
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_CRIT));
	CHECK(doca_log_level_get_global_sdk_limit() == DOCA_LOG_LEVEL_CRIT);
	provoke_sdk_error();
	CHECK_EMPTY(sdk);
	CHECK_ERR(doca_log_level_set_global_sdk_limit(15), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_log_level_get_global_sdk_limit() == DOCA_LOG_LEVEL_CRIT);
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_ERROR));
	provoke_sdk_error();
	CHECK_LINE(sdk, sdk_needle);
	/* The application limit does not gate SDK messages. */
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DISABLE));
	provoke_sdk_error();
	CHECK_LINE(sdk, sdk_needle);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	CHECK_EMPTY(a);
}

static void test_trace(struct pipe_be *a)
{
	int evals = 0;

	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_TRACE));
	/* Without DOCA_LOGGING_ALLOW_TRACE the macro is an empty statement: no output, no
	 * evaluation of its arguments. */
#ifdef DOCA_LOGGING_ALLOW_TRACE
#error "this test needs DOCA_LOG_TRC compiled out"
#endif
	DOCA_LOG_TRC("trace %d", ++evals);
	CHECK(evals == 0);
	CHECK_EMPTY(a);
	/* TRACE itself is a deliverable level. */
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_TRACE, log_source, __FILE__, __LINE__, __func__, "direct trace"));
	CHECK_LINE(a, "direct trace");
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	take(a);
}

/* ---- DOCA_LOG_LEVEL, in a fresh process ---- */

/* Child side: report the limits the process started with, then check they are applied. */
static int env_child(void)
{
	uint32_t app = doca_log_level_get_global_lower_limit();
	uint32_t sdk = doca_log_level_get_global_sdk_limit();
	static const struct {
		uint32_t level;
		const char *msg;
	} msgs[] = {
	    {DOCA_LOG_LEVEL_CRIT, "env crit"},	     {DOCA_LOG_LEVEL_ERROR, "env error"},
	    {DOCA_LOG_LEVEL_WARNING, "env warning"}, {DOCA_LOG_LEVEL_INFO, "env info"},
	    {DOCA_LOG_LEVEL_DEBUG, "env debug"},
	};
	struct pipe_be a, s;
	const char *out;

	printf("app=%u sdk=%u\n", app, sdk);
	fflush(stdout);
	pipe_open(&a);
	pipe_open(&s);
	CHECK_OK(doca_log_backend_create_with_fd(a.wr, &a.be));
	CHECK_OK(doca_log_backend_create_with_fd_sdk(s.wr, &s.be));
	DOCA_LOG_CRIT("env crit");
	DOCA_LOG_ERR("env error");
	DOCA_LOG_WARN("env warning");
	DOCA_LOG_INFO("env info");
	DOCA_LOG_DBG("env debug");
	out = take(&a);
	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		bool want = msgs[i].level <= app;
		bool got = strstr(out, msgs[i].msg) != NULL;

		if (want != got) {
			fprintf(stderr, "limit %u: \"%s\" %s\n", app, msgs[i].msg, got ? "written" : "missing");
			return T_EXIT_FAIL;
		}
	}
	provoke_sdk_error();
	out = take(&s);
	CHECK((strstr(out, sdk_needle) != NULL) == (sdk >= DOCA_LOG_LEVEL_ERROR));
	return T_EXIT_PASS;
}

/* Runs this program again with DOCA_LOG_LEVEL=@value (unset when NULL); returns its limits. */
static void run_env_child(const char *self, const char *value, uint32_t *app, uint32_t *sdk)
{
	char report[256];
	int fds[2], status;
	ssize_t n;
	size_t len = 0;
	pid_t pid;

	CHECK(pipe(fds) == 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (value != NULL)
			sd_setenv("DOCA_LOG_LEVEL", value);
		else
			sd_setenv("DOCA_LOG_LEVEL", NULL);
		execl(self, self, "--env-child", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (len < sizeof(report) - 1 && (n = read(fds[0], report + len, sizeof(report) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		CHECK(n > 0);
		len += (size_t)n;
	}
	report[len] = '\0';
	close(fds[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "DOCA_LOG_LEVEL=%s: child failed (status 0x%x)\n", value ? value : "(unset)", status);
		exit(T_EXIT_FAIL);
	}
	if (sscanf(report, "app=%u sdk=%u", app, sdk) != 2) {
		fprintf(stderr, "DOCA_LOG_LEVEL=%s: bad report '%s'\n", value ? value : "(unset)", report);
		exit(T_EXIT_FAIL);
	}
}

static void test_env(const char *self)
{
	uint32_t app0, sdk0, app, sdk;

	run_env_child(self, NULL, &app0, &sdk0);
	CHECK(app0 >= DOCA_LOG_LEVEL_CRIT && app0 <= DOCA_LOG_LEVEL_TRACE);
	CHECK(sdk0 >= DOCA_LOG_LEVEL_CRIT && sdk0 <= DOCA_LOG_LEVEL_TRACE);

	run_env_child(self, "debug", &app, &sdk);
	CHECK(app == DOCA_LOG_LEVEL_DEBUG && sdk == DOCA_LOG_LEVEL_DEBUG);
	run_env_child(self, "DEBUG", &app, &sdk);
	CHECK(app == DOCA_LOG_LEVEL_DEBUG && sdk == DOCA_LOG_LEVEL_DEBUG);
	run_env_child(self, "30", &app, &sdk);
	CHECK(app == DOCA_LOG_LEVEL_ERROR && sdk == DOCA_LOG_LEVEL_ERROR);
	run_env_child(self, "trace", &app, &sdk);
	CHECK(app == DOCA_LOG_LEVEL_TRACE && sdk == DOCA_LOG_LEVEL_TRACE);
	run_env_child(self, "critical", &app, &sdk);
	CHECK(app == DOCA_LOG_LEVEL_CRIT && sdk == DOCA_LOG_LEVEL_CRIT);
	/* Not a level: the defaults stay. */
	run_env_child(self, "loud", &app, &sdk);
	CHECK(app == app0 && sdk == sdk0);
	run_env_child(self, "35", &app, &sdk);
	CHECK(app == app0 && sdk == sdk0);
	run_env_child(self, "", &app, &sdk);
	CHECK(app == app0 && sdk == sdk0);
}

int main(int argc, char **argv)
{
	struct pipe_be a, b, sdk;

	if (argc == 2 && strcmp(argv[1], "--env-child") == 0)
		return env_child();

	/* No logging call has run yet (DOCA_LOG_REGISTER only registers): this process starts
	 * from the built-in limits whatever the caller's environment says. */
	sd_setenv("DOCA_LOG_LEVEL", NULL);
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	/* argv[0] rather than /proc/self/exe, so a wrapper (valgrind) is not what runs again. */
	test_env(strchr(argv[0], '/') != NULL ? argv[0] : "/proc/self/exe");

	pipe_open(&a);
	pipe_open(&b);
	pipe_open(&sdk);
	CHECK_OK(doca_log_backend_create_with_fd(a.wr, &a.be));
	test_app_messages(&a);
	test_global_limits(&a);
	test_backend_windows(&a, &b);
	test_sdk(&a, &b, &sdk);
	test_trace(&a);
	printf("test_log: ok\n");
	return T_EXIT_PASS;
}
