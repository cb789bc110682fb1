/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sd_test.h - what every softdoca test shares: assertions, exit codes, child processes, a
 * temporary directory, environment settings and the DOCA objects most tests start from.
 *
 * A test is a plain program: exit 0 pass, 1 fail, 77 skip. A failed check prints
 * "file:line: " and what failed, with both values where there are two, then takes the failure
 * action SD_CHECK_FAIL(): exit(T_EXIT_FAIL) by default, so the line printed is the one to
 * look at. A file whose checks run inside test-case functions that return int (the runner
 * goes on with the next case) defines, before including this header:
 *
 *	#define SD_CHECK_FAIL() return T_EXIT_FAIL
 *
 * The macro is expanded where a check is written, so a file may redefine it between functions.
 * The helpers below (sd_*) do not depend on it: they always exit when they fail.
 *
 * EXPECT and EXPECT_STR are the non-fatal forms: they count the check (sd_test_nb_checks,
 * sd_test_nb_failures), print the same line on failure, evaluate to whether the check held and
 * let the test go on; main() ends with sd_test_summary().
 *
 * Header-only (static inline) on purpose: every test stays one source file with the link line
 * it has now. A helper that a test does not call is not emitted, so a test that links only
 * libdoca_common may include this header although sd_open_dma_dev() refers to libdoca_dma.
 */
#ifndef SD_TEST_H_
#define SD_TEST_H_

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#define T_EXIT_PASS 0
#define T_EXIT_FAIL 1
#define T_EXIT_SKIP 77

#ifndef SD_CHECK_FAIL
#define SD_CHECK_FAIL() exit(T_EXIT_FAIL)
#endif

/* Prints "file:line: <prefix><message>" and exits with @status. */
static inline void __attribute__((noreturn))
sd_vexit_at(int status, const char *file, int line, const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s:%d: %s", file, line, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

/* Says why at @file:@line and skips the whole test (exit 77). */
#define T_SKIP(...) sd_skip_at(__FILE__, __LINE__, __VA_ARGS__)

static inline void __attribute__((noreturn, format(printf, 3, 4)))
sd_skip_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sd_vexit_at(T_EXIT_SKIP, file, line, "skipped: ", fmt, ap);
}

/* Prints "file:line: <message>" and fails the test; for the helpers' own failures. */
static inline void __attribute__((noreturn, format(printf, 3, 4)))
sd_die_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sd_vexit_at(T_EXIT_FAIL, file, line, "", fmt, ap);
}

/* ---- fatal checks ---- */

#define CHECK(cond)                                                                                                    \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                       \
			SD_CHECK_FAIL();                                                                               \
		}                                                                                                      \
	} while (0)

/* @call must return @expected; names the call and both errors. */
#define CHECK_ERR(call, expected)                                                                                      \
	do {                                                                                                           \
		doca_error_t got_ = (call);                                                                            \
		doca_error_t want_ = (expected);                                                                       \
		if (got_ != want_) {                                                                                   \
			fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call,             \
				doca_error_get_name(got_), doca_error_get_name(want_));                                \
			SD_CHECK_FAIL();                                                                               \
		}                                                                                                      \
	} while (0)

#define CHECK_OK(call) CHECK_ERR(call, DOCA_SUCCESS)

/* Integers of any width and sign, compared as 64-bit patterns; both values printed. */
#define CHECK_EQ(got, want)                                                                                            \
	do {                                                                                                           \
		unsigned long long g_ = (unsigned long long)(got);                                                     \
		unsigned long long w_ = (unsigned long long)(want);                                                    \
		if (g_ != w_) {                                                                                        \
			sd_report_eq(__FILE__, __LINE__, #got, g_, w_);                                                \
			SD_CHECK_FAIL();                                                                               \
		}                                                                                                      \
	} while (0)

/* NUL-terminated strings; a NULL @got fails (and prints as (null)). */
#define CHECK_STR(got, want)                                                                                           \
	do {                                                                                                           \
		const char *got_ = (got);                                                                              \
		const char *want_ = (want);                                                                            \
		if (!sd_str_equal(got_, want_)) {                                                                      \
			sd_report_str(__FILE__, __LINE__, #got, got_, want_);                                          \
			SD_CHECK_FAIL();                                                                               \
		}                                                                                                      \
	} while (0)

/* @len bytes at @got equal those at @want; prints the first differing offset and both bytes. */
#define CHECK_MEM(got, want, len)                                                                                      \
	do {                                                                                                           \
		const void *got_ = (got);                                                                              \
		const void *want_ = (want);                                                                            \
		size_t len_ = (len);                                                                                   \
		if (memcmp(got_, want_, len_) != 0) {                                                                  \
			sd_report_mem(__FILE__, __LINE__, #got, got_, want_, len_);                                    \
			SD_CHECK_FAIL();                                                                               \
		}                                                                                                      \
	} while (0)

static inline bool sd_str_equal(const char *got, const char *want)
{
	if (got == NULL || want == NULL)
		return got == want;
	return strcmp(got, want) == 0;
}

static inline void sd_report_eq(const char *file, int line, const char *what, unsigned long long got,
				unsigned long long want)
{
	/* A negative value reads better as itself than as 2^64 - n. */
	if ((long long)got < 0 || (long long)want < 0)
		fprintf(stderr, "%s:%d: %s is %llu (%lld), expected %llu (%lld)\n", file, line, what, got,
			(long long)got, want, (long long)want);
	else
		fprintf(stderr, "%s:%d: %s is %llu, expected %llu\n", file, line, what, got, want);
}

static inline void sd_report_str(const char *file, int line, const char *what, const char *got, const char *want)
{
	fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", file, line, what, got ? got : "(null)",
		want ? want : "(null)");
}

/* Index of the first byte where @a and @b differ, or @len. */
static inline size_t sd_first_diff(const void *a, const void *b, size_t len)
{
	const uint8_t *x = a, *y = b;

	if (memcmp(a, b, len) == 0) /* the common case, and much faster than the loop */
		return len;
	for (size_t i = 0; i < len; i++)
		if (x[i] != y[i])
			return i;
	return len;
}

static inline void sd_report_mem(const char *file, int line, const char *what, const void *got, const void *want,
				 size_t len)
{
	size_t i = sd_first_diff(got, want, len);

	fprintf(stderr, "%s:%d: %s differs at byte %zu of %zu: 0x%02x, expected 0x%02x\n", file, line, what, i, len,
		((const uint8_t *)got)[i], ((const uint8_t *)want)[i]);
}

/* ---- non-fatal checks ---- */

static int sd_test_nb_checks __attribute__((unused));
static int sd_test_nb_failures __attribute__((unused));

/* Counts one check made at @file:@line; prints @what when it failed. Returns @ok. */
static inline bool sd_expect_at(const char *file, int line, bool ok, const char *what)
{
	sd_test_nb_checks++;
	if (!ok) {
		sd_test_nb_failures++;
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
	}
	return ok;
}

static inline bool sd_expect_str_at(const char *file, int line, const char *got, const char *want, const char *what)
{
	bool ok = sd_str_equal(got, want);

	sd_test_nb_checks++;
	if (!ok) {
		sd_test_nb_failures++;
		sd_report_str(file, line, what, got, want);
	}
	return ok;
}

#define EXPECT(cond)	      sd_expect_at(__FILE__, __LINE__, (cond), #cond)
#define EXPECT_STR(got, want) sd_expect_str_at(__FILE__, __LINE__, (got), (want), #got)

/* Prints "N checks, M failed"; the exit status for main() of a test made of EXPECTs. */
/*
 * The sum of N over the summary lines of the SDK log "...: refused N more time(s)" (N with
 * thousands commas) in @text whose line holds @what: what the log held back.
 */
static inline uint64_t sd_refused_more(const char *text, const char *what)
{
	uint64_t sum = 0;

	for (const char *l = text; (l = strstr(l, ": refused ")) != NULL;) {
		const char *start = l, *nl;
		uint64_t v = 0;

		while (start > text && start[-1] != '\n')
			start--;
		nl = strchr(l, '\n');
		l += strlen(": refused ");
		for (; (*l >= '0' && *l <= '9') || *l == ','; l++)
			if (*l != ',')
				v = v * 10 + (uint64_t)(*l - '0');
		CHECK(strncmp(l, " more time", 10) == 0);
		if (memmem(start, (size_t)((nl != NULL ? nl : l) - start), what, strlen(what)) != NULL)
			sum += v;
	}
	return sum;
}

static inline int sd_test_summary(void)
{
	printf("%d checks, %d failed\n", sd_test_nb_checks, sd_test_nb_failures);
	return sd_test_nb_failures ? T_EXIT_FAIL : T_EXIT_PASS;
}

/* ---- time (for deadlines that turn a hang into a failure; never for pass/fail) ---- */

static inline uint64_t sd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t sd_now_ms(void)
{
	return sd_now_ns() / 1000000u;
}

/* ---- child processes ---- */

static inline void sd_tmpdir_cleanup(void); /* temporary files, below */

/*
 * Runs @fn(@arg) in a forked child (settings such as SOFTDOCA_ENGINE are read once per process)
 * and returns its exit status; a child that died of a signal counts as a failure, named with
 * @what. With @out, what the child writes to stderr (where checks and the SDK log go) is
 * collected there instead, NUL-terminated and cut at @out_len - 1 bytes (the rest is read and
 * dropped, so the child never blocks). Output is flushed first so nothing is printed twice.
 */
static inline int check_run_child_output(int (*fn)(void *), void *arg, const char *what, char *out, size_t out_len)
{
	int fds[2] = {-1, -1};
	size_t got = 0;
	int status;
	pid_t pid;

	if (out != NULL && (out_len == 0 || pipe(fds) != 0))
		sd_die_at(__FILE__, __LINE__, "%s: cannot collect the child's output", what);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		sd_die_at(__FILE__, __LINE__, "%s: fork: %s", what, strerror(errno));
	if (pid == 0) {
		int rc;

		if (out != NULL) {
			close(fds[0]);
			dup2(fds[1], STDERR_FILENO);
			close(fds[1]);
		}
		rc = fn(arg);
		fflush(stdout);
		fflush(stderr);
		sd_tmpdir_cleanup(); /* a directory the child made itself; _exit() runs no atexit */
		_exit(rc);
	}
	if (out != NULL) {
		char sink[512];

		close(fds[1]);
		for (;;) {
			bool room = got < out_len - 1;
			ssize_t n = read(fds[0], room ? out + got : sink, room ? out_len - 1 - got : sizeof(sink));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			if (room)
				got += (size_t)n;
		}
		out[got] = '\0';
		close(fds[0]);
	}
	while (waitpid(pid, &status, 0) != pid)
		if (errno != EINTR)
			sd_die_at(__FILE__, __LINE__, "%s: waitpid: %s", what, strerror(errno));
	if (!WIFEXITED(status)) {
		fprintf(stderr, "%s: child died (status 0x%x)\n", what, status);
		return T_EXIT_FAIL;
	}
	return WEXITSTATUS(status);
}

static inline int check_run_child(int (*fn)(void *), void *arg, const char *what)
{
	return check_run_child_output(fn, arg, what, NULL, 0);
}

/* ---- temporary files ---- */

static char sd_tmpdir_path[PATH_MAX] __attribute__((unused));
static pid_t sd_tmpdir_owner __attribute__((unused));

/* Removes @path and everything below it, links not followed; 0 or -1. */
static inline int sd_remove_tree(const char *path)
{
	struct dirent *e;
	DIR *d = opendir(path);
	int rc = 0;

	if (d == NULL)
		return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
	while ((e = readdir(d)) != NULL) {
		char sub[PATH_MAX];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= (int)sizeof(sub)) {
			rc = -1;
			continue;
		}
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			rc |= sd_remove_tree(sub);
		else if (unlink(sub) != 0 && errno != ENOENT)
			rc = -1;
	}
	closedir(d);
	if (rmdir(path) != 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

static inline void sd_tmpdir_cleanup(void)
{
	/* Forked children that exit() must not remove their parent's directory. */
	if (sd_tmpdir_path[0] == '\0' || getpid() != sd_tmpdir_owner)
		return;
	if (sd_remove_tree(sd_tmpdir_path) != 0)
		fprintf(stderr, "could not remove %s\n", sd_tmpdir_path);
	sd_tmpdir_path[0] = '\0';
}

/*
 * The test's own directory, $TMPDIR/softdoca-test-XXXXXX (/tmp without TMPDIR), created on the
 * first call and removed with all it holds when the process that created it exits normally.
 * Call it before forking children that use it: a child's exit() leaves it alone, and a child
 * that created it would leave it behind when it ends with _exit().
 */
static inline const char *sd_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	if (sd_tmpdir_path[0] != '\0')
		return sd_tmpdir_path;
	if (base == NULL || *base == '\0')
		base = "/tmp";
	if (snprintf(sd_tmpdir_path, sizeof(sd_tmpdir_path), "%s/softdoca-test-XXXXXX", base) >=
		(int)sizeof(sd_tmpdir_path) ||
	    mkdtemp(sd_tmpdir_path) == NULL) {
		int err = errno;

		sd_tmpdir_path[0] = '\0';
		sd_die_at(__FILE__, __LINE__, "cannot create a directory under %s: %s (set TMPDIR)", base,
			  strerror(err));
	}
	sd_tmpdir_owner = getpid();
	if (atexit(sd_tmpdir_cleanup) != 0)
		sd_die_at(__FILE__, __LINE__, "atexit failed");
	return sd_tmpdir_path;
}

/*
 * A fresh file in sd_tmpdir() whose name starts with @prefix, holding @content (NULL: empty).
 * Returns its malloc'ed path: free() it; unlinking is optional, the directory goes at exit.
 */
static inline char *sd_tmpfile(const char *prefix, const char *content)
{
	const char *dir = sd_tmpdir();
	size_t len = content != NULL ? strlen(content) : 0;
	size_t path_len = strlen(dir) + strlen(prefix) + 16;
	char *path = malloc(path_len);
	int fd;

	if (path == NULL)
		sd_die_at(__FILE__, __LINE__, "out of memory");
	snprintf(path, path_len, "%s/%s-XXXXXX", dir, prefix);
	fd = mkstemp(path);
	if (fd < 0)
		sd_die_at(__FILE__, __LINE__, "mkstemp %s: %s", path, strerror(errno));
	if (write(fd, content != NULL ? content : "", len) != (ssize_t)len)
		sd_die_at(__FILE__, __LINE__, "write %s: %s", path, strerror(errno));
	close(fd);
	return path;
}

/* ---- environment ---- */

/* Sets @name to @value, or unsets it when @value is NULL; a failure fails the test. */
#define sd_setenv(name, value) sd_setenv_at(__FILE__, __LINE__, (name), (value))

static inline void sd_setenv_at(const char *file, int line, const char *name, const char *value)
{
	int rc = value != NULL ? setenv(name, value, 1) : unsetenv(name);

	if (rc != 0)
		sd_die_at(file, line, "cannot %s %s: %s", value != NULL ? "set" : "unset", name, strerror(errno));
}

/* ---- DOCA objects ---- */

/* Opens the device at @pci ("BB:DD.F"); DOCA_ERROR_NOT_FOUND when the topology has none. */
static inline doca_error_t sd_dev_open(const char *pci, struct doca_dev **dev)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	doca_error_t ret;

	ret = doca_devinfo_create_list(&list, &n);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		ret = doca_devinfo_is_equal_pci_addr(list[i], pci, &eq);
		if (ret != DOCA_SUCCESS)
			break;
		ret = DOCA_ERROR_NOT_FOUND;
		if (eq) {
			ret = doca_dev_open(list[i], dev);
			break;
		}
	}
	if (doca_devinfo_destroy_list(list) != DOCA_SUCCESS && ret == DOCA_SUCCESS) {
		doca_dev_close(*dev);
		ret = DOCA_ERROR_UNEXPECTED; /* the list of devices would leak */
	}
	return ret;
}

/* The device at @pci, open; a failure to find or open it fails the test. */
#define sd_open_dev(pci) sd_open_dev_at(__FILE__, __LINE__, (pci))

static inline struct doca_dev *sd_open_dev_at(const char *file, int line, const char *pci)
{
	struct doca_dev *dev = NULL;
	doca_error_t ret = sd_dev_open(pci, &dev);

	if (ret == DOCA_ERROR_NOT_FOUND)
		sd_die_at(file, line, "device %s is not in the topology", pci);
	if (ret != DOCA_SUCCESS)
		sd_die_at(file, line, "cannot open device %s: %s", pci, doca_error_get_name(ret));
	return dev;
}

/* The first device that can run DMA memcpy tasks, open; the test is skipped when none can. */
#define sd_open_dma_dev() sd_open_dma_dev_at(__FILE__, __LINE__)

static inline struct doca_dev *sd_open_dma_dev_at(const char *file, int line)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;
	doca_error_t ret;

	ret = doca_devinfo_create_list(&list, &n);
	if (ret != DOCA_SUCCESS)
		sd_die_at(file, line, "doca_devinfo_create_list: %s", doca_error_get_name(ret));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) != DOCA_SUCCESS)
			continue;
		ret = doca_dev_open(list[i], &dev);
		if (ret != DOCA_SUCCESS)
			sd_die_at(file, line, "cannot open the DMA device: %s", doca_error_get_name(ret));
	}
	ret = doca_devinfo_destroy_list(list);
	if (ret != DOCA_SUCCESS)
		sd_die_at(file, line, "doca_devinfo_destroy_list: %s", doca_error_get_name(ret));
	if (dev == NULL)
		sd_skip_at(file, line, "no device of the %u in the topology supports DMA memcpy", n);
	return dev;
}

/* A progress engine; a failure fails the test. */
#define sd_pe() sd_pe_at(__FILE__, __LINE__)

static inline struct doca_pe *sd_pe_at(const char *file, int line)
{
	struct doca_pe *pe = NULL;
	doca_error_t ret = doca_pe_create(&pe);

	if (ret != DOCA_SUCCESS)
		sd_die_at(file, line, "doca_pe_create: %s", doca_error_get_name(ret));
	return pe;
}

/*
 * A started mmap over @len bytes at @addr with @dev and @dev2 added (either may be NULL) and
 * permissions @access (always set: DOCA_ACCESS_FLAG_LOCAL_READ_ONLY is 0). Nothing is left on
 * failure.
 */
static inline doca_error_t sd_mmap_create(void *addr, size_t len, uint32_t access, struct doca_dev *dev,
					  struct doca_dev *dev2, struct doca_mmap **out)
{
	struct doca_mmap *m = NULL;
	doca_error_t ret;

	ret = doca_mmap_create(&m);
	if (ret != DOCA_SUCCESS)
		return ret;
	if ((ret = doca_mmap_set_memrange(m, addr, len)) != DOCA_SUCCESS ||
	    (ret = doca_mmap_set_permissions(m, access)) != DOCA_SUCCESS ||
	    (dev != NULL && (ret = doca_mmap_add_dev(m, dev)) != DOCA_SUCCESS) ||
	    (dev2 != NULL && (ret = doca_mmap_add_dev(m, dev2)) != DOCA_SUCCESS) ||
	    (ret = doca_mmap_start(m)) != DOCA_SUCCESS) {
		doca_mmap_destroy(m);
		return ret;
	}
	*out = m;
	return DOCA_SUCCESS;
}

/* sd_mmap_create() over @len bytes at @addr for @dev; a failure fails the test. */
#define sd_mmap_local(dev, addr, len, access) sd_mmap_local_at(__FILE__, __LINE__, (dev), (addr), (len), (access))

static inline struct doca_mmap *sd_mmap_local_at(const char *file, int line, struct doca_dev *dev, void *addr,
						 size_t len, uint32_t access)
{
	struct doca_mmap *m = NULL;
	doca_error_t ret = sd_mmap_create(addr, len, access, dev, NULL, &m);

	if (ret != DOCA_SUCCESS)
		sd_die_at(file, line, "mmap over %zu bytes: %s", len, doca_error_get_name(ret));
	return m;
}

/* A started buf inventory of @n elements; nothing is left on failure. */
static inline doca_error_t sd_inventory_create(uint32_t n, struct doca_buf_inventory **out)
{
	struct doca_buf_inventory *inv = NULL;
	doca_error_t ret = doca_buf_inventory_create(n, &inv);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_buf_inventory_start(inv);
	if (ret != DOCA_SUCCESS) {
		doca_buf_inventory_destroy(inv);
		return ret;
	}
	*out = inv;
	return DOCA_SUCCESS;
}

/* sd_inventory_create(); a failure fails the test. */
#define sd_inventory(n) sd_inventory_at(__FILE__, __LINE__, (n))

static inline struct doca_buf_inventory *sd_inventory_at(const char *file, int line, uint32_t n)
{
	struct doca_buf_inventory *inv = NULL;
	doca_error_t ret = sd_inventory_create(n, &inv);

	if (ret != DOCA_SUCCESS)
		sd_die_at(file, line, "buf inventory of %u: %s", n, doca_error_get_name(ret));
	return inv;
}

/*
 * Stops @ctx and progresses @pe (and @pe2, which may be NULL) until the context is IDLE; a
 * stop that fails, or a context not IDLE within @ms, fails the test.
 */
#define sd_ctx_stop_idle(ctx, pe, pe2, ms) sd_ctx_stop_idle_at(__FILE__, __LINE__, (ctx), (pe), (pe2), (ms))

static inline void sd_ctx_stop_idle_at(const char *file, int line, struct doca_ctx *ctx, struct doca_pe *pe,
				       struct doca_pe *pe2, uint64_t ms)
{
	uint64_t end = sd_now_ms() + ms;
	enum doca_ctx_states st;
	doca_error_t ret = doca_ctx_stop(ctx);

	if (ret != DOCA_SUCCESS && ret != DOCA_ERROR_IN_PROGRESS)
		sd_die_at(file, line, "doca_ctx_stop: %s", doca_error_get_name(ret));
	for (;;) {
		ret = doca_ctx_get_state(ctx, &st);
		if (ret != DOCA_SUCCESS)
			sd_die_at(file, line, "doca_ctx_get_state: %s", doca_error_get_name(ret));
		if (st == DOCA_CTX_STATE_IDLE)
			return;
		if (sd_now_ms() >= end)
			sd_die_at(file, line, "context not IDLE %llu ms after the stop (state %d)",
				  (unsigned long long)ms, (int)st);
		(void)doca_pe_progress(pe);
		if (pe2 != NULL)
			(void)doca_pe_progress(pe2);
	}
}

#endif /* SD_TEST_H_ */
