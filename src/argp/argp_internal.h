/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argp_internal.h - what the files of DOCA's argument parser share: the process-wide state and
 * the params (argp.c: lifecycle, check and deliver; argp_param.c: params and the usage text;
 * argp_collect.c: flags from the command line or the JSON file into items). The model is drawn
 * at argp.c's top: one parser, driven from main() before threads, so nothing takes a lock.
 */
#ifndef SD_ARGP_INTERNAL_H
#define SD_ARGP_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <doca_argp.h>

#include "sd_internal.h"

#define ARGP "argp"
/* User input quoted in a message is cut here, so a huge argv entry cannot flood the log. */
#define QUOTE_MAX 128

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

struct argp_builtin {
	const char *short_name;
	const char *long_name;
	const char *arguments;
	const char *description;
};
/* -h, -v, -l, --sdk-log-level and -j, indexed by enum builtin (argp.c). */
extern const struct argp_builtin argp_builtins[BUILTIN_COUNT];

/* The one parser (argp.c). */
struct argp_state {
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
};
extern struct argp_state argp;

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

struct json_object;

/* What doca_argp_start() holds while collecting; -h and -v free it before they exit. */
struct collect {
	struct item_list items;
	struct json_object *root; /* the -j file: its strings back the items */
	bool usage_error;	  /* a failure now is the user's syntax: print the usage hint */
};

static inline const char *prog_name(void)
{
	if (argp.program_name != NULL)
		return argp.program_name;
	if (argp.argv0_name != NULL)
		return argp.argv0_name;
	return program_invocation_short_name;
}

/* The way a param is named in messages: its long form when it has one. */
static inline const char *param_dashes(const struct doca_argp_param *p)
{
	return p->long_name != NULL ? "--" : "-";
}

static inline const char *param_name(const struct doca_argp_param *p)
{
	return p->long_name != NULL ? p->long_name : p->short_name;
}

/* Room for QUOTE_MAX bytes written as \xNN, "..." and the NUL. */
struct quoted {
	char s[QUOTE_MAX * 4 + 4];
};

/*
 * User input as it may appear in a one-line message: at most QUOTE_MAX bytes, control bytes
 * written as \xNN so that a newline in argv or in a JSON key cannot break the line (argp.c).
 */
const char *argp_quote_n(struct quoted *q, const char *text, size_t len);

static inline const char *quote(struct quoted *q, const char *text)
{
	return argp_quote_n(q, text, SIZE_MAX);
}

/* argp_param.c */
void argp_print_usage(FILE *out);
enum builtin argp_builtin_find(bool is_long, const char *name, size_t len);
struct doca_argp_param *argp_param_find(bool is_long, const char *name, size_t len);
/* argp.c */
void argp_param_free(struct doca_argp_param *p);
/* argp_collect.c: step 1 of doca_argp_start() (built-ins act at once: -h and -v exit). */
doca_error_t argp_cli_collect(int argc, char **argv, struct collect *c);
void argp_collect_free(struct collect *c);

#endif
