/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_log_repeats.c - the SDK log holds back repeats of one line about one object.
 *
 *   - one rejection on one mmap repeated 100000 times: its first 3 lines in full, then one
 *     summary with the count (99,997) once the same call refuses another object, whose own
 *     first line follows; objects taking turns do not bring the flood back;
 *   - threads refusing on one mmap together: 3 lines, and the summary counts every other call;
 *   - the application's own lines (DOCA_LOG_*) are never held back;
 *   - SOFTDOCA_LOG_REPEATS (in a fresh copy of this program, as the value is read once): 0 writes
 *     every line, 5 writes five, a value that is not a number 0..1000000 is refused with one
 *     line and the default kept; held-back lines are summarised at exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_log.h>
#include <doca_mmap.h>

#include "../common/sd_test.h"

DOCA_LOG_REGISTER(CORE::TEST_LOG_REPEATS);

#define NB_CALLS 100000

static int log_fd = -1;

static off_t log_mark(void)
{
	return lseek(log_fd, 0, SEEK_END);
}

/* What the fd @fd holds from @mark on, NUL-terminated; free() it. */
static char *fd_since(int fd, off_t mark)
{
	off_t end = lseek(fd, 0, SEEK_END);
	size_t len = end > mark ? (size_t)(end - mark) : 0, got = 0;
	char *text = malloc(len + 1);

	CHECK(text != NULL);
	while (got < len) {
		ssize_t n = pread(fd, text + got, len - got, mark + (off_t)got);

		CHECK(n > 0);
		got += (size_t)n;
	}
	text[got] = '\0';
	return text;
}

/* Lines holding @a and, unless NULL, @b. */
static int count_lines(const char *text, const char *a, const char *b)
{
	int n = 0;

	for (const char *l = text; *l != '\0';) {
		const char *nl = strchr(l, '\n');
		size_t len = nl != NULL ? (size_t)(nl - l) : strlen(l);

		if (memmem(l, len, a, strlen(a)) != NULL && (b == NULL || memmem(l, len, b, strlen(b)) != NULL))
			n++;
		l += len + (nl != NULL);
	}
	return n;
}

static int nb_lines(const char *text)
{
	int n = 0;

	for (; *text != '\0'; text++)
		n += *text == '\n';
	return n;
}

static void show_and_fail(const char *why, const char *text)
{
	fprintf(stderr, "%s; the log said:\n%.6000s\n", why, text);
	exit(T_EXIT_FAIL);
}

/* The rejection under test: an address range of nothing, on mmap @m. Its text names @m. */
static void refuse(struct doca_mmap *m)
{
	CHECK_ERR(doca_mmap_set_memrange(m, NULL, 0), DOCA_ERROR_INVALID_VALUE);
}

static void name_of(char *buf, size_t len, const struct doca_mmap *m)
{
	snprintf(buf, len, "doca_mmap_set_memrange: mmap %p: ", (const void *)m);
}

static void test_one_object_then_another(void)
{
	struct doca_mmap *m1, *m2;
	char n1[96], n2[96];
	const char *sum, *second;
	char *text;
	off_t mark;

	CHECK_OK(doca_mmap_create(&m1));
	CHECK_OK(doca_mmap_create(&m2));
	name_of(n1, sizeof(n1), m1);
	name_of(n2, sizeof(n2), m2);

	mark = log_mark();
	for (int i = 0; i < NB_CALLS; i++)
		refuse(m1);
	text = fd_since(log_fd, mark);
	/* The first lines, as precise as ever: the object, the rule and the fix. */
	if (count_lines(text, n1, "; pass a non-NULL address") != 3 || nb_lines(text) != 3)
		show_and_fail("100000 refusals of one mmap: expected its first 3 lines and nothing else", text);
	free(text);

	/* The same call refuses another mmap: m1's summary, then m2's own first line. */
	refuse(m2);
	text = fd_since(log_fd, mark);
	if (count_lines(text, n1, ": refused 99,997 more times (only the first 3 logged)") != 1 ||
	    count_lines(text, "[ERR][softdoca:mmap] doca_mmap_set_memrange: mmap ", "refused 99,997") != 1)
		show_and_fail("expected one summary of m1's 99,997 held-back refusals, at ERR", text);
	sum = strstr(text, "more times");
	second = strstr(text, n2);
	if (count_lines(text, n2, "; pass a non-NULL address") != 1 || second == NULL || second < sum)
		show_and_fail("expected m2's own full first line after m1's summary", text);
	CHECK(nb_lines(text) == 5);
	free(text);

	/* Taking turns: a few more lines at most (m2 reaches its 3, m1's counts said meanwhile). */
	mark = log_mark();
	for (int i = 0; i < NB_CALLS / 10; i++) {
		refuse(m1);
		refuse(m2);
	}
	text = fd_since(log_fd, mark);
	if (nb_lines(text) > 6 || count_lines(text, n2, "; pass a non-NULL address") != 2)
		show_and_fail("two objects taking turns: expected m2's 2 remaining first lines and few summaries",
			      text);
	free(text);

	/* Another rule about m1 is news: written, while the held-back ones stay counted. */
	mark = log_mark();
	CHECK_ERR(doca_mmap_start(m1), DOCA_ERROR_INVALID_VALUE);
	text = fd_since(log_fd, mark);
	CHECK(count_lines(text, "doca_mmap_start: mmap ", "has no memory range") == 1);
	free(text);

	/* A change of the log settings ends every repetition: summaries first, then first lines. */
	mark = log_mark();
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING));
	refuse(m1);
	text = fd_since(log_fd, mark);
	if (count_lines(text, n1, "; pass a non-NULL address") != 1 || count_lines(text, n1, "more time") != 1 ||
	    count_lines(text, n2, "more time") != 1)
		show_and_fail("a settings change: expected both summaries, then m1's first line again", text);
	free(text);

	CHECK_OK(doca_mmap_destroy(m1));
	CHECK_OK(doca_mmap_destroy(m2));
}

#define NB_THREADS	4
#define NB_CALLS_THREAD 20000

static void *refuse_many(void *arg)
{
	for (int i = 0; i < NB_CALLS_THREAD; i++)
		refuse(arg);
	return NULL;
}

static void test_threads(void)
{
	pthread_t th[NB_THREADS];
	struct doca_mmap *m;
	char name[96];
	char *text;
	off_t mark;

	CHECK_OK(doca_mmap_create(&m));
	name_of(name, sizeof(name), m);
	mark = log_mark();
	for (int i = 0; i < NB_THREADS; i++)
		CHECK(pthread_create(&th[i], NULL, refuse_many, m) == 0);
	for (int i = 0; i < NB_THREADS; i++)
		CHECK(pthread_join(th[i], NULL) == 0);
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING)); /* ends the repetition */
	text = fd_since(log_fd, mark);
	if (count_lines(text, name, "; pass a non-NULL address") != 3 ||
	    sd_refused_more(text, name) != NB_THREADS * NB_CALLS_THREAD - 3 || nb_lines(text) != 4)
		show_and_fail("4 threads x 20000 refusals: expected 3 lines and one summary of 79,997", text);
	free(text);
	CHECK_OK(doca_mmap_destroy(m));
}

/* The application's own lines are its business: every one is written. */
static void test_app_lines_not_held(void)
{
	int fd = memfd_create("app-log", MFD_CLOEXEC);
	struct doca_log_backend *be = NULL;
	char *text;

	CHECK(fd >= 0);
	CHECK_OK(doca_log_backend_create_with_fd(fd, &be));
	for (int i = 0; i < 50; i++)
		DOCA_LOG_ERR("the same application line");
	text = fd_since(fd, 0);
	CHECK(count_lines(text, "the same application line", NULL) == 50);
	CHECK(count_lines(text, "more time", NULL) == 0);
	free(text);
}

/* ---- SOFTDOCA_LOG_REPEATS and the summary at exit, in a fresh process ---- */

/* Child: 1000 refusals of one mmap with no SDK backend (stderr), then a normal exit. */
static int child(void)
{
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	for (int i = 0; i < 1000; i++)
		refuse(m);
	CHECK_OK(doca_mmap_destroy(m)); /* no context, no state change: the summary comes from the exit */
	return 0;
}

/* Runs the child with SOFTDOCA_LOG_REPEATS=@value (unset when NULL); returns its stderr. */
static char *run_child(const char *self, const char *value)
{
	int fd = memfd_create("child-stderr", MFD_CLOEXEC), status;
	pid_t pid;

	CHECK(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(fd, STDERR_FILENO);
		sd_setenv("SOFTDOCA_LOG_REPEATS", value);
		execl(self, self, "--child", (char *)NULL);
		_exit(127);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return fd_since(fd, 0);
}

static void test_knob_and_exit(const char *self)
{
	static const char *const bad[] = {"x", "-1", "3 ", "1000001", "99999999999999999999999"};
	char *text;

	/* Default: 3 lines, the rest summarised at exit. */
	text = run_child(self, NULL);
	if (count_lines(text, "doca_mmap_set_memrange: mmap ", "; pass a non-NULL address") != 3 ||
	    count_lines(text, "doca_mmap_set_memrange: mmap ", ": refused 997 more times") != 1)
		show_and_fail("default: expected 3 lines and a summary of 997 at exit", text);
	free(text);

	text = run_child(self, "0");
	if (count_lines(text, "doca_mmap_set_memrange: mmap ", "; pass a non-NULL address") != 1000 ||
	    count_lines(text, "more time", NULL) != 0)
		show_and_fail("SOFTDOCA_LOG_REPEATS=0: expected every one of the 1000 lines", text);
	free(text);

	text = run_child(self, "5");
	if (count_lines(text, "doca_mmap_set_memrange: mmap ", "; pass a non-NULL address") != 5 ||
	    count_lines(text, ": refused 995 more times (only the first 5 logged)", NULL) != 1)
		show_and_fail("SOFTDOCA_LOG_REPEATS=5: expected 5 lines and a summary of 995", text);
	free(text);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		text = run_child(self, bad[i]);
		if (count_lines(text, "[WRN][softdoca:log] SOFTDOCA_LOG_REPEATS=", "keeping 3") != 1 ||
		    count_lines(text, "doca_mmap_set_memrange: mmap ", "; pass a non-NULL address") != 3)
			show_and_fail("a bad SOFTDOCA_LOG_REPEATS: expected one line refusing it and the default",
				      text);
		free(text);
	}
}

int main(int argc, char **argv)
{
	struct doca_log_backend *be = NULL;

	if (argc == 2 && strcmp(argv[1], "--child") == 0)
		return child();
	sd_setenv("DOCA_LOG_LEVEL", NULL);
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_LOG_REPEATS", NULL);
	/* argv[0] rather than /proc/self/exe, so a wrapper (valgrind) is not what runs again. */
	test_knob_and_exit(strchr(argv[0], '/') != NULL ? argv[0] : "/proc/self/exe");

	log_fd = memfd_create("sdk-log", MFD_CLOEXEC);
	CHECK(log_fd >= 0);
	CHECK_OK(doca_log_backend_create_with_fd_sdk(log_fd, &be));
	test_one_object_then_another();
	test_threads();
	test_app_lines_not_held();
	printf("test_log_repeats: ok\n");
	return T_EXIT_PASS;
}
