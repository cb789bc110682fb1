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

#include "sd_internal.h"

#define ARGP "argp"
/* User input quoted in a message is cut here, so a huge argv entry cannot flood the log. */
#define QUOTE_MAX 128
/* A params file is a handful of flags; anything this big is a mistake, not a config. */
#define JSON_FILE_MAX (16u << 20)
/* Usage rows whose flag column is wider than this put the description on the next line. */
#define USAGE_COL_MAX 36

#define JSON_SECTION_GENERAL "doca_general_flags"
#define JSON_SECTION_PROGRAM "doca_program_flags"

struct doca_argp_param {
	struct doca_argp_param *next;
	char *short_name; /* without the dash */
	char *long_name;  /* without the dashes; also the key in the JSON file */
	char *arguments;  /* placeholder shown in the usage text */
	char *description;
	doca_argp_param_cb_t callback;
	enum doca_argp_type type;
	bool mandatory;
	bool multiplicity;
	bool cli_only;
	bool oom;	   /* a setter could not copy its text; reported by register */
	unsigned int seen; /* times given during the current doca_argp_start() */
};

enum builtin {
	BUILTIN_NONE,
	BUILTIN_HELP,
	BUILTIN_VERSION,
	BUILTIN_LOG_LEVEL,
	BUILTIN_SDK_LOG_LEVEL,
	BUILTIN_JSON,
	BUILTIN_COUNT,
};

static const struct {
	const char *short_name;
	const char *long_name;
	const char *arguments;
	const char *description;
} builtins[BUILTIN_COUNT] = {
    [BUILTIN_HELP] = {"h", "help", NULL, "Print this help text and exit"},
    [BUILTIN_VERSION] = {"v", "version", NULL, "Print version information and exit"},
    [BUILTIN_LOG_LEVEL] = {"l", "log-level", "<level>",
			   "Program log level: 10..70, or disable, critical, error, warning, info, debug, trace"},
    [BUILTIN_SDK_LOG_LEVEL] = {NULL, "sdk-log-level", "<level>", "SDK log level, same values as --log-level"},
    [BUILTIN_JSON] = {"j", "json", "<path>", "Read every flag from a JSON file (then no other flag may be given)"},
};

static struct {
	bool initialised;
	bool starting;	    /* inside doca_argp_start(); a callback may not start again */
	unsigned int epoch; /* bumped by destroy, so start notices a callback that tore argp down */
	char *program_name; /* from init; NULL: use argv0_name */
	char *argv0_name;   /* basename of argv[0], copied by start */
	void *config;
	struct doca_argp_param *params; /* registered, in registration order */
	struct doca_argp_param **params_tail;
	struct doca_argp_param *pending; /* created, not registered yet */
	doca_argp_validation_cb_t validation_cb;
	doca_argp_param_cb_t version_cb;
	int log_level;	   /* given with -l or in JSON; -1 when not given */
	int sdk_log_level; /* likewise for --sdk-log-level */
} argp;

/* One flag occurrence found by the collect step, waiting for its callback. */
struct argp_item {
	struct doca_argp_param *param;
	const char *text; /* STRING and JSON_OBJ: the text handed over (a copy is delivered) */
	int num;	  /* INT */
	bool flag;	  /* BOOLEAN */
	char *owned;	  /* JSON text produced here for a JSON_OBJ value; freed with the list */
};

struct item_list {
	struct argp_item *items;
	size_t count;
	size_t cap;
};

static const char *prog_name(void)
{
	if (argp.program_name != NULL)
		return argp.program_name;
	if (argp.argv0_name != NULL)
		return argp.argv0_name;
	return program_invocation_short_name;
}

/* The way a param is named in messages: its long form when it has one. */
static const char *param_dashes(const struct doca_argp_param *p)
{
	return p->long_name != NULL ? "--" : "-";
}

static const char *param_name(const struct doca_argp_param *p)
{
	return p->long_name != NULL ? p->long_name : p->short_name;
}

/* Room for QUOTE_MAX bytes written as \xNN, "..." and the NUL. */
struct quoted {
	char s[QUOTE_MAX * 4 + 4];
};

/*
 * User input as it may appear in a one-line message: at most QUOTE_MAX bytes, control bytes
 * written as \xNN so that a newline in argv or in a JSON key cannot break the line.
 */
static const char *quote_n(struct quoted *q, const char *text, size_t len)
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

static const char *quote(struct quoted *q, const char *text)
{
	return quote_n(q, text, SIZE_MAX);
}

static void usage_hint(void)
{
	fprintf(stderr, "Usage: %s [DOCA Flags] [Program Flags]\nRun '%s --help' for the list of flags.\n", prog_name(),
		prog_name());
}

/* -------------------------------------------------------------------------------------------- */
/* Usage text                                                                                     */

static const char *type_placeholder(enum doca_argp_type type)
{
	switch (type) {
	case DOCA_ARGP_TYPE_STRING:
		return "<str>";
	case DOCA_ARGP_TYPE_INT:
		return "<num>";
	case DOCA_ARGP_TYPE_JSON_OBJ:
		return "<json>";
	default:
		return NULL;
	}
}

/* Prints the flag column ("  -s, --long <arg>") and returns its width. */
static int usage_flags(FILE *out, const char *short_name, const char *long_name, const char *args)
{
	int n;

	if (short_name != NULL && long_name != NULL)
		n = fprintf(out, "  -%s, --%s", short_name, long_name);
	else if (short_name != NULL)
		n = fprintf(out, "  -%s", short_name);
	else
		n = fprintf(out, "      --%s", long_name);
	if (args != NULL)
		n += fprintf(out, " %s", args);
	return n;
}

static int usage_flags_width(const char *short_name, const char *long_name, const char *args)
{
	size_t n = 2;

	if (short_name != NULL && long_name != NULL)
		n += 1 + strlen(short_name) + 4 + strlen(long_name);
	else if (short_name != NULL)
		n += 1 + strlen(short_name);
	else
		n += 6 + strlen(long_name);
	if (args != NULL)
		n += 1 + strlen(args);
	return n > INT_MAX ? INT_MAX : (int)n;
}

/* Continuation lines of a multi-line description line up under its first line. */
static void usage_description(FILE *out, int col, const char *text)
{
	for (const char *p = text; *p != '\0'; p++) {
		fputc(*p, out);
		if (*p == '\n' && p[1] != '\0')
			fprintf(out, "%*s", col, "");
	}
}

static void usage_row(FILE *out, int col, const char *short_name, const char *long_name, const char *args,
		      const char *description, const struct doca_argp_param *p)
{
	const char *notes[3];
	size_t nb_notes = 0;
	int n = usage_flags(out, short_name, long_name, args);

	if (p != NULL && p->mandatory)
		notes[nb_notes++] = "(mandatory)";
	if (p != NULL && p->multiplicity)
		notes[nb_notes++] = "(may be repeated)";
	if (p != NULL && p->cli_only)
		notes[nb_notes++] = "(command line only)";
	if ((description == NULL || *description == '\0') && nb_notes == 0) {
		fputc('\n', out);
		return;
	}
	if (n + 2 > col) {
		fputc('\n', out);
		n = 0;
	}
	fprintf(out, "%*s", col - n, "");
	if (description != NULL)
		usage_description(out, col, description);
	for (size_t i = 0; i < nb_notes; i++)
		fprintf(out, "%s%s", i > 0 || (description != NULL && *description != '\0') ? " " : "", notes[i]);
	fputc('\n', out);
}

static const char *param_args(const struct doca_argp_param *p)
{
	return p->arguments != NULL ? p->arguments : type_placeholder(p->type);
}

static void print_usage(FILE *out)
{
	int col = 0;

	for (int b = BUILTIN_NONE + 1; b < BUILTIN_COUNT; b++) {
		int w = usage_flags_width(builtins[b].short_name, builtins[b].long_name, builtins[b].arguments);

		col = w > col ? w : col;
	}
	for (const struct doca_argp_param *p = argp.params; p != NULL; p = p->next) {
		int w = usage_flags_width(p->short_name, p->long_name, param_args(p));

		/* One very long flag must not push every description off the screen. */
		if (w <= USAGE_COL_MAX)
			col = w > col ? w : col;
	}
	col += 3;

	fprintf(out, "Usage: %s [DOCA Flags] [Program Flags]\n\nDOCA Flags:\n", prog_name());
	for (int b = BUILTIN_NONE + 1; b < BUILTIN_COUNT; b++)
		usage_row(out, col, builtins[b].short_name, builtins[b].long_name, builtins[b].arguments,
			  builtins[b].description, NULL);
	fputs("\nProgram Flags:\n", out);
	for (const struct doca_argp_param *p = argp.params; p != NULL; p = p->next)
		usage_row(out, col, p->short_name, p->long_name, param_args(p), p->description, p);
}

/* -------------------------------------------------------------------------------------------- */
/* Lifecycle                                                                                      */

static void param_free(struct doca_argp_param *p)
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

		param_free(p);
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
	print_usage(stdout);
	fflush(stdout);
}

/* -------------------------------------------------------------------------------------------- */
/* Params                                                                                         */

DOCA_EXPERIMENTAL doca_error_t doca_argp_param_create(struct doca_argp_param **param)
{
	struct doca_argp_param *p;

	if (param == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP, "doca_argp_param_create: param is NULL");
	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP,
				 "doca_argp_param_create: not initialised; call doca_argp_init first");
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, ARGP, "doca_argp_param_create: out of memory");
	p->next = argp.pending;
	argp.pending = p;
	*param = p;
	return DOCA_SUCCESS;
}

/* Setters cannot fail visibly, so a failed copy is remembered and reported at registration. */
static void param_set_text(struct doca_argp_param *p, char **slot, const char *text)
{
	char *copy = NULL;

	if (text != NULL) {
		copy = strdup(text);
		if (copy == NULL) {
			p->oom = true;
			return;
		}
	}
	free(*slot);
	*slot = copy;
}

static bool is_registered(const struct doca_argp_param *p)
{
	for (const struct doca_argp_param *q = argp.params; q != NULL; q = q->next)
		if (q == p)
			return true;
	return false;
}

/* A registered param is argp's: renaming it could bypass the uniqueness check. */
static bool param_settable(const struct doca_argp_param *p, const char *func)
{
	if (p == NULL) {
		SD_ERR(ARGP, "%s: param is NULL", func);
		return false;
	}
	if (is_registered(p)) {
		SD_ERR(ARGP, "%s: flag %s%.*s is registered already and cannot change", func, param_dashes(p),
		       QUOTE_MAX, param_name(p));
		return false;
	}
	return true;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name)
{
	if (param_settable(param, __func__))
		param_set_text(param, &param->short_name, name);
}

DOCA_EXPERIMENTAL void doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name)
{
	if (param_settable(param, __func__))
		param_set_text(param, &param->long_name, name);
}

DOCA_EXPERIMENTAL void doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments)
{
	if (param_settable(param, __func__))
		param_set_text(param, &param->arguments, arguments);
}

DOCA_EXPERIMENTAL void doca_argp_param_set_description(struct doca_argp_param *param, const char *description)
{
	if (param_settable(param, __func__))
		param_set_text(param, &param->description, description);
}

DOCA_EXPERIMENTAL void doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback)
{
	if (param_settable(param, __func__))
		param->callback = callback;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type)
{
	if (param_settable(param, __func__))
		param->type = type;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_mandatory(struct doca_argp_param *param)
{
	if (param_settable(param, __func__))
		param->mandatory = true;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_multiplicity(struct doca_argp_param *param)
{
	if (param_settable(param, __func__))
		param->multiplicity = true;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_cli_only(struct doca_argp_param *param)
{
	if (param_settable(param, __func__))
		param->cli_only = true;
}

/* Unlinks @p from the pending list; false when it is not there. */
static bool pending_unlink(struct doca_argp_param *p)
{
	for (struct doca_argp_param **link = &argp.pending; *link != NULL; link = &(*link)->next) {
		if (*link == p) {
			*link = p->next;
			p->next = NULL;
			return true;
		}
	}
	return false;
}

/* A name must survive the trip through the command line: no dash in front, no '=', no blanks. */
static bool name_valid(const char *name)
{
	if (*name == '\0' || *name == '-')
		return false;
	for (const char *c = name; *c != '\0'; c++)
		if (*c == '=' || !isgraph((unsigned char)*c))
			return false;
	return true;
}

static bool name_eq(const char *name, const char *text, size_t len)
{
	return name != NULL && strncmp(name, text, len) == 0 && name[len] == '\0';
}

static enum builtin builtin_find(bool is_long, const char *name, size_t len)
{
	for (int b = BUILTIN_NONE + 1; b < BUILTIN_COUNT; b++)
		if (name_eq(is_long ? builtins[b].long_name : builtins[b].short_name, name, len))
			return (enum builtin)b;
	return BUILTIN_NONE;
}

static struct doca_argp_param *param_find(bool is_long, const char *name, size_t len)
{
	for (struct doca_argp_param *p = argp.params; p != NULL; p = p->next)
		if (name_eq(is_long ? p->long_name : p->short_name, name, len))
			return p;
	return NULL;
}

static doca_error_t param_check_name(const char *name, bool is_long)
{
	const char *dashes = is_long ? "--" : "-";
	struct quoted q;

	if (name == NULL)
		return DOCA_SUCCESS;
	if (!name_valid(name))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP,
				 "doca_argp_register_param: flag name '%s' is not usable; names are non-empty, "
				 "printable, without blanks or '=', and given without leading dashes",
				 quote(&q, name));
	if (builtin_find(is_long, name, strlen(name)) != BUILTIN_NONE)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, ARGP,
		    "doca_argp_register_param: flag %s%s is reserved for argp's own flags; pick another name", dashes,
		    name);
	if (param_find(is_long, name, strlen(name)) != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP,
				 "doca_argp_register_param: flag %s%.*s is already registered; names must be unique",
				 dashes, QUOTE_MAX, name);
	return DOCA_SUCCESS;
}

static doca_error_t param_check(const struct doca_argp_param *p)
{
	doca_error_t err;

	if (p->oom)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, ARGP, "doca_argp_register_param: a setter ran out of memory");
	if (p->short_name == NULL && p->long_name == NULL)
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, ARGP,
				 "doca_argp_register_param: param has no name; set a short or a long name");
	/* Names first: the messages below quote them. */
	err = param_check_name(p->short_name, false);
	if (err == DOCA_SUCCESS)
		err = param_check_name(p->long_name, true);
	if (err != DOCA_SUCCESS)
		return err;
	if (p->type == DOCA_ARGP_TYPE_UNKNOWN)
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, ARGP,
				 "doca_argp_register_param: flag %s%.*s has no type; call doca_argp_param_set_type",
				 param_dashes(p), QUOTE_MAX, param_name(p));
	if (p->type > DOCA_ARGP_TYPE_JSON_OBJ)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP,
				 "doca_argp_register_param: flag %s%.*s has type %d, which is not a doca_argp_type",
				 param_dashes(p), QUOTE_MAX, param_name(p), (int)p->type);
	if (p->callback == NULL)
		return SD_REJECT(
		    DOCA_ERROR_INITIALIZATION, ARGP,
		    "doca_argp_register_param: flag %s%.*s has no callback; call doca_argp_param_set_callback",
		    param_dashes(p), QUOTE_MAX, param_name(p));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_param(struct doca_argp_param *input_param)
{
	doca_error_t err;

	if (input_param == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP, "doca_argp_register_param: param is NULL");
	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP,
				 "doca_argp_register_param: not initialised; call doca_argp_init first");
	if (is_registered(input_param))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP,
				 "doca_argp_register_param: flag %s%.*s is already registered",
				 param_dashes(input_param), QUOTE_MAX, param_name(input_param));
	if (!pending_unlink(input_param))
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, ARGP,
		    "doca_argp_register_param: param was not made by doca_argp_param_create in this session");

	/* Argp owns the param from here on: a rejected one is freed, as the header promises. */
	err = param_check(input_param);
	if (err != DOCA_SUCCESS) {
		param_free(input_param);
		return err;
	}
	*argp.params_tail = input_param;
	argp.params_tail = &input_param->next;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_param_destroy(struct doca_argp_param *param)
{
	if (param == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP, "doca_argp_param_destroy: param is NULL");
	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP, "doca_argp_param_destroy: not initialised");
	if (is_registered(param))
		return SD_REJECT(
		    DOCA_ERROR_BAD_STATE, ARGP,
		    "doca_argp_param_destroy: flag %s%.*s is registered; argp frees it in doca_argp_destroy",
		    param_dashes(param), QUOTE_MAX, param_name(param));
	if (!pending_unlink(param))
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, ARGP,
		    "doca_argp_param_destroy: param was not made by doca_argp_param_create in this session");
	param_free(param);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_validation_callback(doca_argp_validation_cb_t callback)
{
	if (callback == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP,
				 "doca_argp_register_validation_callback: callback is NULL");
	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP,
				 "doca_argp_register_validation_callback: not initialised; call doca_argp_init first");
	argp.validation_cb = callback;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback)
{
	if (callback == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP,
				 "doca_argp_register_version_callback: callback is NULL");
	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP,
				 "doca_argp_register_version_callback: not initialised; call doca_argp_init first");
	argp.version_cb = callback;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_get_log_level(int *log_level)
{
	if (log_level == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP, "doca_argp_get_log_level: log_level is NULL");
	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP, "doca_argp_get_log_level: not initialised");
	*log_level = argp.log_level >= 0 ? argp.log_level : (int)doca_log_level_get_global_lower_limit();
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_get_sdk_log_level(int *log_level)
{
	if (log_level == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, ARGP, "doca_argp_get_sdk_log_level: log_level is NULL");
	if (!argp.initialised)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, ARGP, "doca_argp_get_sdk_log_level: not initialised");
	*log_level = argp.sdk_log_level >= 0 ? argp.sdk_log_level : (int)doca_log_level_get_global_sdk_limit();
	return DOCA_SUCCESS;
}

/* -------------------------------------------------------------------------------------------- */
/* Collect: values                                                                                */

static doca_error_t items_push(struct item_list *list, struct doca_argp_param *p, struct argp_item **out)
{
	if (list->count == list->cap) {
		size_t cap = list->cap != 0 ? list->cap * 2 : 8;
		struct argp_item *items = realloc(list->items, cap * sizeof(*items));

		if (items == NULL) {
			SD_ERR(ARGP, "out of memory");
			return DOCA_ERROR_NO_MEMORY;
		}
		list->items = items;
		list->cap = cap;
	}
	*out = &list->items[list->count++];
	memset(*out, 0, sizeof(**out));
	(*out)->param = p;
	return DOCA_SUCCESS;
}

static void items_free(struct item_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		free(list->items[i].owned);
	free(list->items);
}

/* A repeated flag is an error unless the param allows it; counting also serves the mandatory check. */
static doca_error_t param_count(struct doca_argp_param *p, const char *where)
{
	if (p->seen > 0 && !p->multiplicity) {
		SD_ERR(ARGP, "%s%s%.*s given more than once; it takes a single value", where, param_dashes(p),
		       QUOTE_MAX, param_name(p));
		return DOCA_ERROR_INVALID_VALUE;
	}
	p->seen++;
	return DOCA_SUCCESS;
}

enum int_parse { INT_OK, INT_NOT_A_NUMBER, INT_OUT_OF_RANGE };

/* Decimal, or hexadecimal with 0x; an optional sign; nothing else, not even blanks. */
static enum int_parse parse_int(const char *text, int *out)
{
	const char *digits = text;
	int base = 10;
	long long v;
	char *end;

	if (*digits == '+' || *digits == '-')
		digits++;
	if (!isdigit((unsigned char)*digits))
		return INT_NOT_A_NUMBER;
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		base = 16;
	errno = 0;
	v = strtoll(text, &end, base);
	if (end == text || *end != '\0')
		return INT_NOT_A_NUMBER;
	if (errno == ERANGE || v < INT_MIN || v > INT_MAX)
		return INT_OUT_OF_RANGE;
	*out = (int)v;
	return INT_OK;
}

struct json_error {
	const char *what; /* json-c's description, or ours */
	size_t offset;	  /* byte where parsing stopped */
};

/*
 * Parses @len bytes of @text as one JSON value. json-c accepts C and C++ comments unless told
 * to be strict (params files carry licence blocks), and after a value it goes on eating blanks
 * and comments. When the text ends inside such a trailing comment, or in a bare number, json-c
 * waits for more: one newline more closes a // comment and ends a number, while an open
 * comment or value still comes out incomplete. What follows a value may only be blanks.
 */
static struct json_object *json_parse(const char *text, size_t len, struct json_error *jerr)
{
	struct json_tokener *tok;
	struct json_object *obj;
	size_t end;

	jerr->offset = 0;
	if (len >= INT_MAX) {
		jerr->what = "input too large";
		return NULL;
	}
	tok = json_tokener_new();
	if (tok == NULL) {
		jerr->what = "out of memory";
		return NULL;
	}
	obj = json_tokener_parse_ex(tok, text, (int)len);
	end = json_tokener_get_parse_end(tok);
	if (obj == NULL && json_tokener_get_error(tok) == json_tokener_continue) {
		obj = json_tokener_parse_ex(tok, "\n", 1);
		end = len;
	}
	if (obj == NULL) {
		jerr->what = json_tokener_get_error(tok) == json_tokener_continue
				 ? "unexpected end of data (a value or a /* comment is not closed)"
				 : json_tokener_error_desc(json_tokener_get_error(tok));
		jerr->offset = end;
		json_tokener_free(tok);
		return NULL;
	}
	json_tokener_free(tok);
	while (end < len && isspace((unsigned char)text[end]))
		end++;
	if (end < len) {
		jerr->what = "unexpected text after the JSON value";
		jerr->offset = end;
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* The text a JSON_OBJ callback receives: compact, with '/' left alone. */
static doca_error_t json_obj_text(struct json_object *obj, struct argp_item *it)
{
	const char *s = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	it->owned = s != NULL ? strdup(s) : NULL;
	if (it->owned == NULL) {
		SD_ERR(ARGP, "out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	it->text = it->owned;
	return DOCA_SUCCESS;
}

/* Converts a command-line value for @p; @flag is how the user spelled the flag. */
static doca_error_t convert_text(struct doca_argp_param *p, const char *flag, const char *text, struct argp_item *it)
{
	struct json_object *obj;
	struct json_error jerr;
	struct quoted q;
	doca_error_t err;

	switch (p->type) {
	case DOCA_ARGP_TYPE_STRING:
		it->text = text;
		return DOCA_SUCCESS;
	case DOCA_ARGP_TYPE_INT:
		switch (parse_int(text, &it->num)) {
		case INT_OK:
			return DOCA_SUCCESS;
		case INT_NOT_A_NUMBER:
			SD_ERR(ARGP, "%s expects an integer, got '%s'", flag, quote(&q, text));
			return DOCA_ERROR_INVALID_VALUE;
		default:
			SD_ERR(ARGP, "%s value '%s' is out of range (%d..%d)", flag, quote(&q, text), INT_MIN, INT_MAX);
			return DOCA_ERROR_INVALID_VALUE;
		}
	case DOCA_ARGP_TYPE_JSON_OBJ:
		obj = json_parse(text, strlen(text), &jerr);
		if (obj == NULL) {
			SD_ERR(ARGP, "%s expects a JSON object: %s at offset %zu of '%s'", flag, jerr.what, jerr.offset,
			       quote(&q, text));
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (!json_object_is_type(obj, json_type_object)) {
			SD_ERR(ARGP, "%s expects a JSON object, got a JSON %s", flag,
			       json_type_to_name(json_object_get_type(obj)));
			json_object_put(obj);
			return DOCA_ERROR_INVALID_VALUE;
		}
		err = json_obj_text(obj, it);
		json_object_put(obj);
		return err;
	default:
		/* BOOLEAN takes no value; UNKNOWN cannot be registered. */
		return DOCA_ERROR_UNEXPECTED;
	}
}

/* Applies -l / --sdk-log-level at once, so later messages of this run already obey it. */
static doca_error_t apply_level(enum builtin which, const char *text, const char *flag)
{
	int level = priv_doca_log_level_parse(text);
	struct quoted q;
	doca_error_t err;

	if (level < 0) {
		SD_ERR(ARGP,
		       "%s: '%s' is not a log level; use 10, 20, ..., 70 or disable, critical, error, warning, info, "
		       "debug, trace",
		       flag, quote(&q, text));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (which == BUILTIN_LOG_LEVEL) {
		err = doca_log_level_set_global_lower_limit((uint32_t)level);
		argp.log_level = level;
	} else {
		err = doca_log_level_set_global_sdk_limit((uint32_t)level);
		argp.sdk_log_level = level;
	}
	if (err != DOCA_SUCCESS)
		SD_ERR(ARGP, "%s %d: the log rejected the level: %s", flag, level, doca_error_get_name(err));
	return err;
}

/* -------------------------------------------------------------------------------------------- */
/* Collect: JSON file                                                                             */

static char *read_file(const char *path, size_t *len, doca_error_t *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	char *buf = NULL;
	struct quoted q;

	*err = DOCA_ERROR_IO_FAILED;
	if (f == NULL) {
		SD_ERR(ARGP, "-j: cannot open JSON file '%s': %s", quote(&q, path), strerror(errno));
		return NULL;
	}
	for (;;) {
		char *grown;
		size_t got;

		if (n + 1 >= cap || buf == NULL) {
			if (buf != NULL)
				cap *= 2;
			grown = realloc(buf, cap);
			if (grown == NULL) {
				SD_ERR(ARGP, "-j: out of memory reading '%s'", quote(&q, path));
				*err = DOCA_ERROR_NO_MEMORY;
				goto fail;
			}
			buf = grown;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (n > JSON_FILE_MAX) {
			SD_ERR(ARGP, "-j: JSON file '%s' is larger than %u bytes", quote(&q, path), JSON_FILE_MAX);
			goto fail;
		}
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		SD_ERR(ARGP, "-j: cannot read JSON file '%s': %s", quote(&q, path), strerror(errno));
		goto fail;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	*err = DOCA_SUCCESS;
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

static void offset_to_line(const char *text, size_t offset, size_t *line, size_t *column)
{
	*line = 1;
	*column = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
}

static doca_error_t json_wrong_type(const char *section, const char *key, const char *expected, struct json_object *val)
{
	struct quoted q;

	SD_ERR(ARGP, "JSON key '%s.%s' expects %s, got %s", section, quote(&q, key), expected,
	       json_type_to_name(json_object_get_type(val)));
	return DOCA_ERROR_INVALID_VALUE;
}

static doca_error_t json_general(struct json_object *section)
{
	doca_error_t err;
	struct quoted q;

	json_object_object_foreach(section, key, val)
	{
		enum builtin which = builtin_find(true, key, strlen(key));
		char num[32], label[64];
		const char *text;

		if (which != BUILTIN_LOG_LEVEL && which != BUILTIN_SDK_LOG_LEVEL) {
			SD_ERR(ARGP,
			       "JSON key '" JSON_SECTION_GENERAL ".%s' is not supported; known keys: log-level, "
			       "sdk-log-level",
			       quote(&q, key));
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		if (json_object_is_type(val, json_type_int)) {
			snprintf(num, sizeof(num), "%lld", (long long)json_object_get_int64(val));
			text = num;
		} else if (json_object_is_type(val, json_type_string)) {
			text = json_object_get_string(val);
		} else {
			return json_wrong_type(JSON_SECTION_GENERAL, key, "a level (number or name)", val);
		}
		snprintf(label, sizeof(label), "JSON key '" JSON_SECTION_GENERAL ".%s'", key);
		err = apply_level(which, text, label);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

static doca_error_t json_value(struct doca_argp_param *p, const char *key, struct json_object *val,
			       struct item_list *items)
{
	struct argp_item *it;
	doca_error_t err;
	struct quoted q;
	int64_t v;

	err = param_count(p, "JSON flag ");
	if (err != DOCA_SUCCESS)
		return err;
	err = items_push(items, p, &it);
	if (err != DOCA_SUCCESS)
		return err;

	switch (p->type) {
	case DOCA_ARGP_TYPE_STRING:
		if (!json_object_is_type(val, json_type_string))
			return json_wrong_type(JSON_SECTION_PROGRAM, key, "a string", val);
		it->text = json_object_get_string(val);
		return DOCA_SUCCESS;
	case DOCA_ARGP_TYPE_INT:
		if (!json_object_is_type(val, json_type_int))
			return json_wrong_type(JSON_SECTION_PROGRAM, key, "an integer", val);
		v = json_object_get_int64(val);
		/* json-c saturates what does not fit int64, so the range test also catches those. */
		if (v < INT_MIN || v > INT_MAX) {
			SD_ERR(ARGP, "JSON key '" JSON_SECTION_PROGRAM ".%s' value %s is out of range (%d..%d)",
			       quote(&q, key), json_object_to_json_string(val), INT_MIN, INT_MAX);
			return DOCA_ERROR_INVALID_VALUE;
		}
		it->num = (int)v;
		return DOCA_SUCCESS;
	case DOCA_ARGP_TYPE_BOOLEAN:
		if (!json_object_is_type(val, json_type_boolean))
			return json_wrong_type(JSON_SECTION_PROGRAM, key, "true or false", val);
		it->flag = json_object_get_boolean(val);
		return DOCA_SUCCESS;
	case DOCA_ARGP_TYPE_JSON_OBJ:
		if (!json_object_is_type(val, json_type_object))
			return json_wrong_type(JSON_SECTION_PROGRAM, key, "a JSON object", val);
		return json_obj_text(val, it);
	default:
		return DOCA_ERROR_UNEXPECTED;
	}
}

/* Program flags are keyed by long name; a param with only a short name is found by that. */
static struct doca_argp_param *json_param_find(const char *key)
{
	struct doca_argp_param *p = param_find(true, key, strlen(key));

	if (p == NULL) {
		p = param_find(false, key, strlen(key));
		if (p != NULL && p->long_name != NULL)
			p = NULL;
	}
	return p;
}

static doca_error_t json_program(struct json_object *section, struct item_list *items)
{
	doca_error_t err;
	struct quoted q;

	json_object_object_foreach(section, key, val)
	{
		struct doca_argp_param *p = json_param_find(key);

		if (p == NULL) {
			SD_ERR(ARGP,
			       "JSON key '" JSON_SECTION_PROGRAM ".%s' is not a flag of this program; run '%s --help'",
			       quote(&q, key), prog_name());
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		if (p->cli_only) {
			SD_ERR(ARGP,
			       "JSON key '" JSON_SECTION_PROGRAM
			       ".%s': this flag may only be given on the command line",
			       quote(&q, key));
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		/* A repeatable flag takes an array, one callback per element. */
		if (p->multiplicity && json_object_is_type(val, json_type_array)) {
			size_t n = json_object_array_length(val);

			for (size_t i = 0; i < n; i++) {
				err = json_value(p, key, json_object_array_get_idx(val, i), items);
				if (err != DOCA_SUCCESS)
					return err;
			}
			continue;
		}
		err = json_value(p, key, val, items);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

/* Reads the -j file into @items; @root_out keeps the values alive until delivery is done. */
static doca_error_t json_collect(const char *path, struct item_list *items, struct json_object **root_out)
{
	struct json_object *root, *general = NULL, *program = NULL;
	struct json_error jerr;
	size_t len, line, column;
	doca_error_t err;
	char *text;
	struct quoted q;

	text = read_file(path, &len, &err);
	if (text == NULL)
		return err;
	root = json_parse(text, len, &jerr);
	if (root == NULL) {
		offset_to_line(text, jerr.offset, &line, &column);
		SD_ERR(ARGP, "-j: JSON file '%s' is not valid JSON: %s (line %zu, column %zu)", quote(&q, path),
		       jerr.what, line, column);
		free(text);
		return DOCA_ERROR_IO_FAILED;
	}
	free(text);
	*root_out = root;

	if (!json_object_is_type(root, json_type_object)) {
		SD_ERR(ARGP,
		       "-j: JSON file '%s' must hold one object with \"" JSON_SECTION_GENERAL
		       "\" and \"" JSON_SECTION_PROGRAM "\"; got %s",
		       quote(&q, path), json_type_to_name(json_object_get_type(root)));
		return DOCA_ERROR_INVALID_VALUE;
	}
	json_object_object_foreach(root, key, val)
	{
		struct json_object **slot = strcmp(key, JSON_SECTION_GENERAL) == 0   ? &general
					    : strcmp(key, JSON_SECTION_PROGRAM) == 0 ? &program
										     : NULL;

		if (slot == NULL) {
			SD_ERR(ARGP,
			       "-j: JSON key '%s' is not supported; the file holds \"" JSON_SECTION_GENERAL
			       "\" and \"" JSON_SECTION_PROGRAM "\"",
			       quote(&q, key));
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		if (!json_object_is_type(val, json_type_object)) {
			SD_ERR(ARGP, "-j: JSON key '%s' expects an object, got %s", key,
			       json_type_to_name(json_object_get_type(val)));
			return DOCA_ERROR_INVALID_VALUE;
		}
		*slot = val;
	}
	/* Log levels first, whatever the order in the file, so they cover the program flags. */
	if (general != NULL) {
		err = json_general(general);
		if (err != DOCA_SUCCESS)
			return err;
	}
	if (program != NULL)
		return json_program(program, items);
	return DOCA_SUCCESS;
}

/* -------------------------------------------------------------------------------------------- */
/* Collect: command line                                                                          */

struct flag_ref {
	enum builtin builtin;
	struct doca_argp_param *param;
	const char *value;			 /* after '=', or NULL */
	char spelled[sizeof(struct quoted) + 2]; /* the flag as typed, without "=value", for messages */
};

/* Resolves a token starting with '-'; false when it names no flag. */
static bool flag_resolve(const char *tok, struct flag_ref *ref)
{
	struct quoted q;
	bool is_long = tok[1] == '-';
	const char *name = tok + (is_long ? 2 : 1);
	const char *eq = strchr(name, '=');
	size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);

	snprintf(ref->spelled, sizeof(ref->spelled), "%s%s", is_long ? "--" : "-", quote_n(&q, name, len));
	ref->value = eq != NULL ? eq + 1 : NULL;
	ref->param = NULL;
	ref->builtin = builtin_find(is_long, name, len);
	if (ref->builtin != BUILTIN_NONE)
		return true;
	ref->param = param_find(is_long, name, len);
	return ref->param != NULL;
}

static bool is_known_flag(const char *tok)
{
	struct flag_ref ref;

	return tok[0] == '-' && tok[1] != '\0' && flag_resolve(tok, &ref);
}

/* The value of a flag: inline after '=', else the next argument unless that one is a flag. */
static doca_error_t flag_value(int argc, char **argv, int *i, const struct flag_ref *ref, const char **value)
{
	const char *next;

	if (ref->value != NULL) {
		*value = ref->value;
		return DOCA_SUCCESS;
	}
	next = *i + 1 < argc ? argv[*i + 1] : NULL;
	if (next == NULL || is_known_flag(next)) {
		SD_ERR(ARGP, "%s needs an argument", ref->spelled);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*value = next;
	(*i)++;
	return DOCA_SUCCESS;
}

/* What doca_argp_start() holds while collecting; -h and -v free it before they exit. */
struct collect {
	struct item_list items;
	struct json_object *root; /* the -j file: its strings back the items */
	bool usage_error;	  /* a failure now is the user's syntax: print the usage hint */
};

static void collect_free(struct collect *c)
{
	items_free(&c->items);
	json_object_put(c->root);
	c->items = (struct item_list){0};
	c->root = NULL;
}

static _Noreturn void exit_help(struct collect *c)
{
	print_usage(stdout);
	fflush(stdout);
	collect_free(c);
	doca_argp_destroy();
	exit(EXIT_SUCCESS);
}

/* -v: the program's callback when it has one (DOCA's exits by itself), else our line. */
static doca_error_t do_version(struct collect *c)
{
	doca_error_t err;

	if (argp.version_cb != NULL) {
		err = argp.version_cb(NULL, argp.config);
		if (err != DOCA_SUCCESS) {
			SD_ERR(ARGP, "version callback failed: %s", doca_error_get_name(err));
			c->usage_error = false;
			return err;
		}
	} else {
		printf("softdoca %s (DOCA %s)\n", SOFTDOCA_VERSION_STRING, DOCA_VERSION_STRING);
	}
	fflush(stdout);
	collect_free(c);
	/* The callback may have destroyed argp already before returning. */
	if (argp.initialised)
		doca_argp_destroy();
	exit(EXIT_SUCCESS);
}

/* Handles the built-in flag found at argv[*i]. */
static doca_error_t cli_builtin(int argc, char **argv, int *i, const struct flag_ref *ref, struct collect *c)
{
	const char *value;
	doca_error_t err;
	int first = *i;

	switch (ref->builtin) {
	case BUILTIN_HELP:
	case BUILTIN_VERSION:
		if (ref->value != NULL) {
			SD_ERR(ARGP, "%s takes no argument", ref->spelled);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (ref->builtin == BUILTIN_HELP)
			exit_help(c);
		return do_version(c);
	case BUILTIN_LOG_LEVEL:
	case BUILTIN_SDK_LOG_LEVEL:
		err = flag_value(argc, argv, i, ref, &value);
		if (err != DOCA_SUCCESS)
			return err;
		return apply_level(ref->builtin, value, ref->spelled);
	case BUILTIN_JSON:
		err = flag_value(argc, argv, i, ref, &value);
		if (err != DOCA_SUCCESS)
			return err;
		if (first != 1 || *i != argc - 1) {
			SD_ERR(ARGP, "-j/--json must be the only flag; put the other flags into the JSON file");
			return DOCA_ERROR_INVALID_VALUE;
		}
		c->usage_error = false;
		return json_collect(value, &c->items, &c->root);
	default:
		return DOCA_ERROR_UNEXPECTED;
	}
}

static doca_error_t cli_collect(int argc, char **argv, struct collect *c)
{
	bool flags_ended = false;
	doca_error_t err;

	c->usage_error = true;
	for (int i = 1; i < argc; i++) {
		const char *tok = argv[i];
		struct argp_item *it;
		struct flag_ref ref;
		struct quoted q;
		const char *value;

		if (tok == NULL) {
			SD_ERR(ARGP, "argv[%d] is NULL although argc is %d", i, argc);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (!flags_ended && strcmp(tok, "--") == 0) {
			flags_ended = true;
			continue;
		}
		if (flags_ended || tok[0] != '-' || tok[1] == '\0') {
			SD_ERR(ARGP, "unexpected argument '%s'; this program takes only flags", quote(&q, tok));
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (!flag_resolve(tok, &ref)) {
			SD_ERR(ARGP, "unknown flag '%s'; run '%s --help' for the list of flags", ref.spelled,
			       prog_name());
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		if (ref.builtin != BUILTIN_NONE) {
			err = cli_builtin(argc, argv, &i, &ref, c);
			if (err != DOCA_SUCCESS || ref.builtin == BUILTIN_JSON)
				return err;
			continue;
		}

		err = param_count(ref.param, "");
		if (err != DOCA_SUCCESS)
			return err;
		err = items_push(&c->items, ref.param, &it);
		if (err != DOCA_SUCCESS)
			return err;
		if (ref.param->type == DOCA_ARGP_TYPE_BOOLEAN) {
			if (ref.value != NULL) {
				SD_ERR(ARGP, "%s takes no argument", ref.spelled);
				return DOCA_ERROR_INVALID_VALUE;
			}
			it->flag = true;
			continue;
		}
		err = flag_value(argc, argv, &i, &ref, &value);
		if (err != DOCA_SUCCESS)
			return err;
		err = convert_text(ref.param, ref.spelled, value, it);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
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
	err = cli_collect(argc, argv, &c);
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
	collect_free(&c);
	return err;
}
