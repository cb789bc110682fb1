/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argp.c - DOCA's argument parser: program flags from the command line or a JSON file.
 *
 * Model: one process-wide parser, driven from main() before the program starts threads, so
 * nothing here takes a lock. A param lives on one of two lists: `pending` from
 * doca_argp_param_create() until it is registered or destroyed, then `params` (registration
 * order, which is also the order of the usage text). doca_argp_destroy() frees both, so a
 * param the program forgot about does not leak.
 *
 * doca_argp_start() works in three steps so that no program callback ever sees input that is
 * going to be rejected anyway:
 *   1. collect: turn argv (or the -j file) into a list of (param, converted value). Syntax,
 *      unknown flags, repeats and type errors stop here. Built-ins act at once: -h and -v
 *      print and exit, -l and --sdk-log-level set the global limits.
 *   2. check: every mandatory param was given.
 *   3. deliver: each param callback in input order, then the validation callback.
 *
 * Command line forms: `--name value`, `--name=value`, `-s value`, `-s=value`. Short names may
 * have several letters (`-wf`), so short flags are never bundled and a value is never glued
 * to a short flag. A flag needing a value takes the next argument unless that argument is
 * itself a known flag (then the value is reported missing); `--name=-h` passes such a value.
 * Arguments that are not flags are rejected: DOCA programs take no positional arguments.
 *
 * Flags are read in order, so `-h` after a bad flag reports the bad flag; `-h` after good
 * flags prints the usage without running any callback. Errors print one line through the SDK
 * log; syntax errors and missing mandatory flags add a short usage hint on stderr.
 *
 * -j/--json must be the only flag on the command line: mixing the two sources would leave it
 * unclear which value wins, so everything, log levels included, goes into the file. In the
 * file, program flags are keyed by long name (by short name only for a param without a long
 * one); a repeatable flag takes an array, one callback per element; a boolean may be false,
 * and its callback then gets false. A cli_only flag in the file is NOT_SUPPORTED. Of two equal
 * keys json-c keeps the last value (at the first key's place), so argp never sees both.
 *
 * Files: this one has the state, the lifecycle and steps 2 and 3; argp_collect.c step 1;
 * argp_param.c the params and the usage text; argp_internal.h what they share.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include <doca_argp.h>
#include <doca_log.h>
#include <doca_version.h>

#include "argp_internal.h"

const struct argp_builtin argp_builtins[BUILTIN_COUNT] = {
    [BUILTIN_HELP] = {"h", "help", NULL, "Print this help text and exit"},
    [BUILTIN_VERSION] = {"v", "version", NULL, "Print version information and exit"},
    [BUILTIN_LOG_LEVEL] = {"l", "log-level", "<level>",
			   "Program log level: 10..70, or disable, critical, error, warning, info, debug, trace"},
    [BUILTIN_SDK_LOG_LEVEL] = {NULL, "sdk-log-level", "<level>", "SDK log level, same values as --log-level"},
    [BUILTIN_JSON] = {"j", "json", "<path>", "Read every flag from a JSON file (then no other flag may be given)"},
};

struct argp_state argp;

/*
 * User input as it may appear in a one-line message: at most QUOTE_MAX bytes, control bytes
 * written as \xNN so that a newline in argv or in a JSON key cannot break the line.
 */
const char *argp_quote_n(struct quoted *q, const char *text, size_t len)
{
	size_t n = 0, i;

	for (i = 0; i < len && i < QUOTE_MAX && text[i] != '\0'; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c < 0x20 || c == 0x7f)
			n += (size_t)snprintf(q->s + n, sizeof(q->s) - n, "\\x%02x", c);
		else
			q->s[n++] = (char)c;
	}
	if (i < len && text[i] != '\0')
		n += (size_t)snprintf(q->s + n, sizeof(q->s) - n, "...");
	q->s[n] = '\0';
	return q->s;
}

static void usage_hint(void)
{
	fprintf(stderr, "Usage: %s [DOCA Flags] [Program Flags]\nRun '%s --help' for the list of flags.\n", prog_name(),
		prog_name());
}

/* -------------------------------------------------------------------------------------------- */
/* Lifecycle                                                                                      */

void argp_param_free(struct doca_argp_param *p)
{
	free(p->short_name);
	free(p->long_name);
	free(p->arguments);
	free(p->description);
	free(p);
}

static void free_param_list(struct doca_argp_param *p)
{
	while (p != NULL) {
		struct doca_argp_param *next = p->next;

		argp_param_free(p);
		p = next;
	}
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_init(const char *program_name, void *program_config)
{
	unsigned int epoch;
	char *name = NULL;

	if (argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP,
				 "doca_argp_init: already initialised; call doca_argp_destroy first");
	if (program_name != NULL && *program_name == '\0')
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP,
				 "doca_argp_init: program name is empty; pass NULL to take it from argv[0]");
	if (program_name != NULL) {
		name = strdup(program_name);
		if (name == NULL)
			return SD_REJECT(DOCA_ERROR_NO_MEMORY, ARGP, "doca_argp_init: out of memory");
	}

	/* The zeroed state keeps its epoch: only destroy moves it. */
	epoch = argp.epoch;
	memset(&argp, 0, sizeof(argp));
	argp.epoch = epoch;
	argp.program_name = name;
	argp.config = program_config;
	argp.params_tail = &argp.params;
	argp.log_level = -1;
	argp.sdk_log_level = -1;
	argp.initialised = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_destroy(void)
{
	unsigned int epoch = argp.epoch;

	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP, "doca_argp_destroy: not initialised");
	free_param_list(argp.params);
	free_param_list(argp.pending);
	free(argp.program_name);
	free(argp.argv0_name);
	memset(&argp, 0, sizeof(argp));
	argp.epoch = epoch + 1;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_argp_usage(void)
{
	if (!argp.initialised) {
		SD_ERR(ARGP, "doca_argp_usage: not initialised; call doca_argp_init first");
		return;
	}
	argp_print_usage(stdout);
	fflush(stdout);
}

/* -------------------------------------------------------------------------------------------- */
/* Check and deliver                                                                              */

static doca_error_t check_mandatory(void)
{
	char missing[512];
	size_t used = 0;
	int count = 0;

	missing[0] = '\0';
	for (const struct doca_argp_param *p = argp.params; p != NULL; p = p->next) {
		if (!p->mandatory || p->seen > 0)
			continue;
		if (used < sizeof(missing)) {
			int n = snprintf(missing + used, sizeof(missing) - used, "%s%s%s", count > 0 ? ", " : "",
					 param_dashes(p), param_name(p));

			used += n > 0 ? (size_t)n : 0;
		}
		count++;
	}
	if (count == 0)
		return DOCA_SUCCESS;
	SD_ERR(ARGP, "missing mandatory flag%s: %s%s", count > 1 ? "s" : "", missing,
	       used >= sizeof(missing) ? "..." : "");
	return DOCA_ERROR_INVALID_VALUE;
}

/* Calls each callback in input order; strings are handed over as copies the callback may edit. */
static doca_error_t deliver(const struct item_list *items, unsigned int epoch)
{
	for (size_t i = 0; i < items->count; i++) {
		const struct argp_item *it = &items->items[i];
		struct doca_argp_param *p = it->param;
		/* Copied now: a callback that destroys argp must not leave us reading a freed param. */
		const char *dashes = param_dashes(p);
		char name[QUOTE_MAX + 1];
		char *copy = NULL;
		doca_error_t err;
		void *value;
		int num = it->num;
		bool flag = it->flag;

		snprintf(name, sizeof(name), "%s", param_name(p));
		switch (p->type) {
		case DOCA_ARGP_TYPE_INT:
			value = &num;
			break;
		case DOCA_ARGP_TYPE_BOOLEAN:
			value = &flag;
			break;
		default:
			copy = strdup(it->text);
			if (copy == NULL) {
				SD_ERR(ARGP, "out of memory");
				return DOCA_ERROR_NO_MEMORY;
			}
			value = copy;
			break;
		}
		err = p->callback(value, argp.config);
		free(copy);
		if (argp.epoch != epoch) {
			SD_ERR(ARGP, "the callback of %s%s destroyed argp while doca_argp_start was running", dashes,
			       name);
			return DOCA_ERROR_BAD_STATE;
		}
		if (err != DOCA_SUCCESS) {
			SD_ERR(ARGP, "%s%s: the program rejected the value: %s", dashes, name,
			       doca_error_get_name(err));
			return err;
		}
	}
	return DOCA_SUCCESS;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_start(int argc, char **argv)
{
	struct collect c = {0};
	unsigned int epoch;
	doca_error_t err;

	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP,
				 "doca_argp_start: not initialised; call doca_argp_init first");
	if (argp.starting)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP, "doca_argp_start: called from one of its own callbacks");
	if (argc < 0 || (argc > 0 && argv == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP, "doca_argp_start: argc is %d but argv is %s", argc,
				 argv == NULL ? "NULL" : "set");

	free(argp.argv0_name);
	argp.argv0_name = NULL;
	if (argc > 0 && argv[0] != NULL && *base_name(argv[0]) != '\0') {
		argp.argv0_name = strdup(base_name(argv[0]));
		if (argp.argv0_name == NULL)
			return SD_REJECT(DOCA_ERROR_NO_MEMORY, ARGP, "doca_argp_start: out of memory");
	}
	/* start may run again (tests do); each run counts occurrences afresh. */
	for (struct doca_argp_param *p = argp.params; p != NULL; p = p->next)
		p->seen = 0;

	argp.starting = true;
	epoch = argp.epoch;
	err = argp_cli_collect(argc, argv, &c);
	if (argp.epoch != epoch) {
		/* The version callback destroyed argp and came back instead of exiting. */
		if (err == DOCA_SUCCESS)
			err = DOCA_ERROR_BAD_STATE;
		goto out;
	}
	if (err != DOCA_SUCCESS)
		goto fail;
	c.usage_error = true;
	err = check_mandatory();
	if (err != DOCA_SUCCESS)
		goto fail;

	c.usage_error = false;
	err = deliver(&c.items, epoch);
	if (err != DOCA_SUCCESS)
		goto fail;
	if (argp.validation_cb != NULL) {
		err = argp.validation_cb(argp.config);
		if (err != DOCA_SUCCESS && argp.epoch == epoch)
			SD_ERR(ARGP, "the program's validation of its flags failed: %s", doca_error_get_name(err));
	}
	goto out;

fail:
	/* The hint goes with the error line: when the SDK log is off, both stay quiet. */
	if (c.usage_error && argp.epoch == epoch && priv_doca_log_enabled(DOCA_LOG_LEVEL_ERROR))
		usage_hint();
out:
	if (argp.epoch == epoch)
		argp.starting = false;
	argp_collect_free(&c);
	return err;
}
