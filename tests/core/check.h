/*
 * check.h - assertions shared by the core tests.
 *
 * A failed check prints file:line and what failed, then exits 1: every test is a plain
 * program (exit 0 pass, 1 fail, 77 skip) and stops at the first broken promise, so the line
 * printed is the one to look at.
 */
#ifndef CORE_CHECK_H_
#define CORE_CHECK_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_error.h>

#define T_EXIT_PASS 0
#define T_EXIT_FAIL 1
#define T_EXIT_SKIP 77

#define CHECK(cond)                                                                                                    \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                       \
			exit(T_EXIT_FAIL);                                                                             \
		}                                                                                                      \
	} while (0)

#define CHECK_ERR(call, expected)                                                                                      \
	do {                                                                                                           \
		doca_error_t got_ = (call);                                                                            \
		doca_error_t want_ = (expected);                                                                       \
		if (got_ != want_) {                                                                                   \
			fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call,             \
				doca_error_get_name(got_), doca_error_get_name(want_));                                \
			exit(T_EXIT_FAIL);                                                                             \
		}                                                                                                      \
	} while (0)

#define CHECK_OK(call) CHECK_ERR(call, DOCA_SUCCESS)

#define CHECK_STR(got, want)                                                                                           \
	do {                                                                                                           \
		const char *got_ = (got);                                                                              \
		const char *want_ = (want);                                                                            \
		if (got_ == NULL || strcmp(got_, want_) != 0) {                                                        \
			fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #got,            \
				got_ ? got_ : "(null)", want_);                                                        \
			exit(T_EXIT_FAIL);                                                                             \
		}                                                                                                      \
	} while (0)

/*
 * Runs @fn(@arg) in a forked child (settings such as SOFTDOCA_ENGINE are read once per process)
 * and returns its exit status; a child that died of a signal counts as a failure, named with
 * @what. Output is flushed first so that nothing is printed twice.
 */
static inline int check_run_child(int (*fn)(void *), void *arg, const char *what)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int rc = fn(arg);

		fflush(stdout);
		_exit(rc);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status)) {
		fprintf(stderr, "%s: child died (status 0x%x)\n", what, status);
		return T_EXIT_FAIL;
	}
	return WEXITSTATUS(status);
}

/* Opens the device at @pci ("BB:DD.F"); a failure to find or open it fails the test. */
static inline struct doca_dev *check_open_dev(const char *pci)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t eq = 0;

		CHECK_OK(doca_devinfo_is_equal_pci_addr(list[i], pci, &eq));
		if (eq)
			CHECK_OK(doca_dev_open(list[i], &dev));
	}
	CHECK_OK(doca_devinfo_destroy_list(list));
	if (dev == NULL) {
		fprintf(stderr, "device %s is not in the topology\n", pci);
		exit(T_EXIT_FAIL);
	}
	return dev;
}

#endif /* CORE_CHECK_H_ */
