/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argp_prog.c - a small DOCA-style program that test_cli runs, for the paths that print the
 * usage text or end the process (-h, -v) and for the messages argp writes.
 *
 * Each callback prints "<name>=<value>" on stdout, the validation callback "validate". After
 * doca_argp_start() the program prints "ok" and exits 0, or prints "start=<error name>" and
 * exits with the doca_error_t value as its status.
 *
 * Environment switches (set = on):
 *   ARGP_PROG_MANDATORY       registers a mandatory -f/--file
 *   ARGP_PROG_VERSION_CB      registers a version callback printing "custom version"
 *   ARGP_PROG_VALIDATION_FAIL the validation callback fails with DOCA_ERROR_NOT_PERMITTED
 *   ARGP_PROG_NAME            passed to doca_argp_init as the program name
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_error.h>

static doca_error_t print_str(const char *name, void *value)
{
	printf("%s=%s\n", name, (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t cb_pci(void *v, void *c)
{
	(void)c;
	return print_str("pci", v);
}

static doca_error_t cb_num(void *v, void *c)
{
	(void)c;
	printf("num=%d\n", *(int *)v);
	return DOCA_SUCCESS;
}

static doca_error_t cb_bool(void *v, void *c)
{
	(void)c;
	printf("bool=%d\n", *(bool *)v);
	return DOCA_SUCCESS;
}

static doca_error_t cb_obj(void *v, void *c)
{
	(void)c;
	return print_str("obj", v);
}

static doca_error_t cb_wf(void *v, void *c)
{
	(void)c;
	printf("wf=%d\n", *(bool *)v);
	return DOCA_SUCCESS;
}

static doca_error_t cb_multi(void *v, void *c)
{
	(void)c;
	return print_str("multi", v);
}

static doca_error_t cb_file(void *v, void *c)
{
	(void)c;
	return print_str("file", v);
}

static doca_error_t cb_cli(void *v, void *c)
{
	(void)c;
	return print_str("cli", v);
}

static doca_error_t cb_long(void *v, void *c)
{
	(void)c;
	return print_str("long", v);
}

static doca_error_t cb_fail(void *v, void *c)
{
	(void)c;
	print_str("fail", v);
	return strcmp(v, "bad") == 0 ? DOCA_ERROR_BAD_CONFIG : DOCA_SUCCESS;
}

static doca_error_t cb_validate(void *config)
{
	(void)config;
	printf("validate\n");
	return getenv("ARGP_PROG_VALIDATION_FAIL") != NULL ? DOCA_ERROR_NOT_PERMITTED : DOCA_SUCCESS;
}

/* Shaped like DOCA's utils.c version callback: prints, tears argp down, exits. */
static doca_error_t cb_version(void *value, void *config)
{
	(void)value;
	(void)config;
	printf("custom version\n");
	doca_argp_destroy();
	exit(EXIT_SUCCESS);
}

static doca_error_t add(const char *short_name, const char *long_name, const char *args, const char *description,
			enum doca_argp_type type, doca_argp_param_cb_t cb, unsigned int flags)
{
	struct doca_argp_param *p;
	doca_error_t err = doca_argp_param_create(&p);

	if (err != DOCA_SUCCESS)
		return err;
	if (short_name != NULL)
		doca_argp_param_set_short_name(p, short_name);
	if (long_name != NULL)
		doca_argp_param_set_long_name(p, long_name);
	if (args != NULL)
		doca_argp_param_set_arguments(p, args);
	doca_argp_param_set_description(p, description);
	doca_argp_param_set_type(p, type);
	doca_argp_param_set_callback(p, cb);
	if (flags & 1)
		doca_argp_param_set_mandatory(p);
	if (flags & 2)
		doca_argp_param_set_multiplicity(p);
	if (flags & 4)
		doca_argp_param_set_cli_only(p);
	return doca_argp_register_param(p);
}

static doca_error_t setup(void)
{
	doca_error_t err = DOCA_SUCCESS;

	DOCA_ERROR_PROPAGATE(
	    err, add("p", "pci-addr", "<pci>", "PCI address of the device", DOCA_ARGP_TYPE_STRING, cb_pci, 0));
	DOCA_ERROR_PROPAGATE(err, add("n", "num", NULL, "A number", DOCA_ARGP_TYPE_INT, cb_num, 0));
	DOCA_ERROR_PROPAGATE(err, add("b", "bool", NULL, "A switch", DOCA_ARGP_TYPE_BOOLEAN, cb_bool, 0));
	DOCA_ERROR_PROPAGATE(err, add(NULL, "obj", NULL, "A JSON object", DOCA_ARGP_TYPE_JSON_OBJ, cb_obj, 0));
	DOCA_ERROR_PROPAGATE(err, add("wf", "wait-flag", NULL, "A switch with a two-letter short name",
				      DOCA_ARGP_TYPE_BOOLEAN, cb_wf, 0));
	DOCA_ERROR_PROPAGATE(err, add("m", "multi", NULL, "Repeatable", DOCA_ARGP_TYPE_STRING, cb_multi, 2));
	DOCA_ERROR_PROPAGATE(err, add("x", "fail", NULL, "Fails on 'bad'", DOCA_ARGP_TYPE_STRING, cb_fail, 0));
	DOCA_ERROR_PROPAGATE(err, add(NULL, "cli", "<path>", "Command line only", DOCA_ARGP_TYPE_STRING, cb_cli, 4));
	DOCA_ERROR_PROPAGATE(err, add(NULL, "a-very-long-flag-name-that-overflows-the-column", NULL,
				      "First line\nsecond line", DOCA_ARGP_TYPE_STRING, cb_long, 0));
	if (getenv("ARGP_PROG_MANDATORY") != NULL)
		DOCA_ERROR_PROPAGATE(err, add("f", "file", NULL, "Input file", DOCA_ARGP_TYPE_STRING, cb_file, 1));
	DOCA_ERROR_PROPAGATE(err, doca_argp_register_validation_callback(cb_validate));
	if (getenv("ARGP_PROG_VERSION_CB") != NULL)
		DOCA_ERROR_PROPAGATE(err, doca_argp_register_version_callback(cb_version));
	return err;
}

int main(int argc, char **argv)
{
	doca_error_t err;

	err = doca_argp_init(getenv("ARGP_PROG_NAME"), NULL);
	if (err != DOCA_SUCCESS) {
		printf("init=%s\n", doca_error_get_name(err));
		return EXIT_FAILURE;
	}
	err = setup();
	if (err == DOCA_SUCCESS)
		err = doca_argp_start(argc, argv);
	if (err == DOCA_SUCCESS)
		printf("ok\n");
	else
		printf("start=%s\n", doca_error_get_name(err));
	doca_argp_destroy();
	return (int)err;
}
