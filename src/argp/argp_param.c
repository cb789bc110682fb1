/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argp_param.c - the params of DOCA's argument parser: creation, the setters (until the param is
 * registered), the checks of a registration, lookup by name, and the usage text they make.
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

/* Usage rows whose flag column is wider than this put the description on the next line. */
#define USAGE_COL_MAX 36

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

void argp_print_usage(FILE *out)
{
	int col = 0;

	for (int b = BUILTIN_NONE + 1; b < BUILTIN_COUNT; b++) {
		int w = usage_flags_width(argp_builtins[b].short_name, argp_builtins[b].long_name,
					  argp_builtins[b].arguments);

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
		usage_row(out, col, argp_builtins[b].short_name, argp_builtins[b].long_name, argp_builtins[b].arguments,
			  argp_builtins[b].description, NULL);
	fputs("\nProgram Flags:\n", out);
	for (const struct doca_argp_param *p = argp.params; p != NULL; p = p->next)
		usage_row(out, col, p->short_name, p->long_name, param_args(p), p->description, p);
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

enum builtin argp_builtin_find(bool is_long, const char *name, size_t len)
{
	for (int b = BUILTIN_NONE + 1; b < BUILTIN_COUNT; b++)
		if (name_eq(is_long ? argp_builtins[b].long_name : argp_builtins[b].short_name, name, len))
			return (enum builtin)b;
	return BUILTIN_NONE;
}

struct doca_argp_param *argp_param_find(bool is_long, const char *name, size_t len)
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
	if (argp_builtin_find(is_long, name, strlen(name)) != BUILTIN_NONE)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, ARGP,
		    "doca_argp_register_param: flag %s%s is reserved for argp's own flags; pick another name", dashes,
		    name);
	if (argp_param_find(is_long, name, strlen(name)) != NULL)
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
		argp_param_free(input_param);
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
	argp_param_free(param);
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
