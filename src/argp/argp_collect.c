/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argp_collect.c - step 1 of doca_argp_start(): flags from the command line or from the -j JSON
 * file into a list of (param, converted value); syntax, unknown flags, repeats and type errors
 * stop here, and the built-ins act at once (the forms accepted: argp.c's top).
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

/* A params file is a handful of flags; anything this big is a mistake, not a config. */
#define JSON_FILE_MAX (16u << 20)

#define JSON_SECTION_GENERAL "doca_general_flags"
#define JSON_SECTION_PROGRAM "doca_program_flags"

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
		enum builtin which = argp_builtin_find(true, key, strlen(key));
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
	struct doca_argp_param *p = argp_param_find(true, key, strlen(key));

	if (p == NULL) {
		p = argp_param_find(false, key, strlen(key));
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

	snprintf(ref->spelled, sizeof(ref->spelled), "%s%s", is_long ? "--" : "-", argp_quote_n(&q, name, len));
	ref->value = eq != NULL ? eq + 1 : NULL;
	ref->param = NULL;
	ref->builtin = argp_builtin_find(is_long, name, len);
	if (ref->builtin != BUILTIN_NONE)
		return true;
	ref->param = argp_param_find(is_long, name, len);
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

void argp_collect_free(struct collect *c)
{
	items_free(&c->items);
	json_object_put(c->root);
	c->items = (struct item_list){0};
	c->root = NULL;
}

static _Noreturn void exit_help(struct collect *c)
{
	argp_print_usage(stdout);
	fflush(stdout);
	argp_collect_free(c);
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
	argp_collect_free(c);
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

doca_error_t argp_cli_collect(int argc, char **argv, struct collect *c)
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
