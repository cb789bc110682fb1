/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_argp.c - libFuzzer target for doca_argp_start: the command line and the -j JSON file
 * are both untrusted bytes.
 *
 * Input layout: the first byte picks the mode. Odd: the rest is the content of a JSON params
 * file, handed over as -j /proc/self/fd/N of a memfd. Even: the rest is split at NUL bytes into
 * at most 30 argv entries.
 *
 * Besides what the sanitizers catch, every input checks argp's contract and aborts when it
 * breaks: the result is a code a parse can give; on failure no callback ran (the callbacks
 * here all succeed, so failures come from the steps before them); on success the validation
 * callback ran last. Inputs naming -h/--help are skipped: help ends the process by design.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_log.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 30

static unsigned int callbacks;
static bool validated_last;

static doca_error_t cb_value(void *value, void *config)
{
	(void)value;
	(void)config;
	callbacks++;
	validated_last = false;
	return DOCA_SUCCESS;
}

static doca_error_t cb_validate(void *config)
{
	(void)config;
	callbacks++;
	validated_last = true;
	return DOCA_SUCCESS;
}

static doca_error_t cb_version(void *value, void *config)
{
	(void)value;
	(void)config;
	return DOCA_ERROR_NOT_PERMITTED;
}

static void check(int cond)
{
	if (!cond)
		abort();
}

static void add(const char *short_name, const char *long_name, enum doca_argp_type type, bool multi)
{
	struct doca_argp_param *p;

	check(doca_argp_param_create(&p) == DOCA_SUCCESS);
	if (short_name != NULL)
		doca_argp_param_set_short_name(p, short_name);
	if (long_name != NULL)
		doca_argp_param_set_long_name(p, long_name);
	doca_argp_param_set_type(p, type);
	doca_argp_param_set_callback(p, cb_value);
	if (multi)
		doca_argp_param_set_multiplicity(p);
	check(doca_argp_register_param(p) == DOCA_SUCCESS);
}

/* One parser for the whole run: doca_argp_start may be called again and again. */
static void setup_once(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	check(doca_argp_init("fuzz", NULL) == DOCA_SUCCESS);
	add("s", "str", DOCA_ARGP_TYPE_STRING, false);
	add("n", "num", DOCA_ARGP_TYPE_INT, false);
	add("b", "bool", DOCA_ARGP_TYPE_BOOLEAN, false);
	add("o", "obj", DOCA_ARGP_TYPE_JSON_OBJ, false);
	add("wf", "wait-flag", DOCA_ARGP_TYPE_BOOLEAN, false);
	add("m", "multi", DOCA_ARGP_TYPE_STRING, true);
	add("P", NULL, DOCA_ARGP_TYPE_INT, false);
	check(doca_argp_register_validation_callback(cb_validate) == DOCA_SUCCESS);
	check(doca_argp_register_version_callback(cb_version) == DOCA_SUCCESS);
}

static void run(int argc, char **argv)
{
	doca_error_t err;

	/* Messages cost time and say nothing here; -l in the input may not turn them back on. */
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	callbacks = 0;
	validated_last = false;
	err = doca_argp_start(argc, argv);
	switch (err) {
	case DOCA_SUCCESS:
		check(validated_last);
		break;
	case DOCA_ERROR_INVALID_VALUE:
	case DOCA_ERROR_NOT_SUPPORTED:
	case DOCA_ERROR_IO_FAILED:
	case DOCA_ERROR_NOT_PERMITTED:
	case DOCA_ERROR_NO_MEMORY:
		check(callbacks == 0);
		break;
	default:
		check(0);
	}
}

static void run_json(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("argp-fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return;
	/* As for argv: a file that sets the log level is skipped. */
	if (memmem(data, size, "log", 3) != NULL) {
		close(fd);
		return;
	}
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		run(3, (char *[]){"fuzz", "-j", path, NULL});
	}
	close(fd);
}

static void run_argv(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2];
	char *copy = malloc(size + 1);
	int argc = 1;

	if (copy == NULL)
		return;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[0] = "fuzz";
	for (size_t at = 0; at <= size && argc <= MAX_ARGS;) {
		size_t len = strlen(copy + at);

		/* Help prints and exits by design; such an input says nothing more. An input that
		 * raises the log level would write megabytes of log and slow the fuzzer to a crawl,
		 * testing logging rather than parsing: skipped too (the level flag's parsing has
		 * its own unit tests). */
		if (strcmp(copy + at, "-h") == 0 || strcmp(copy + at, "--help") == 0 ||
		    (copy[at] == '-' && copy[at + 1] != '-' && strchr(copy + at, 'l') != NULL) ||
		    (copy[at] == '-' && copy[at + 1] == '-' && strstr(copy + at, "log") != NULL))
			goto out;
		argv[argc++] = copy + at;
		at += len + 1;
	}
	argv[argc] = NULL;
	run(argc, argv);
out:
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup_once();
	if (size == 0)
		return 0;
	if (data[0] & 1)
		run_json(data + 1, size - 1);
	else
		run_argv(data + 1, size - 1);
	return 0;
}
