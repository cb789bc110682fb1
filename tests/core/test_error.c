/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_error.c - doca_error_get_name/descr and DOCA_ERROR_PROPAGATE.
 *
 * The name of each code is its enumerator's identifier (doca_error.h), so the table below is
 * written from the header, not from the implementation.
 */
#include <doca_error.h>

#include "../common/sd_test.h"

static const struct {
	doca_error_t code;
	const char *name;
} names[] = {
    {DOCA_SUCCESS, "DOCA_SUCCESS"},
    {DOCA_ERROR_UNKNOWN, "DOCA_ERROR_UNKNOWN"},
    {DOCA_ERROR_NOT_PERMITTED, "DOCA_ERROR_NOT_PERMITTED"},
    {DOCA_ERROR_IN_USE, "DOCA_ERROR_IN_USE"},
    {DOCA_ERROR_NOT_SUPPORTED, "DOCA_ERROR_NOT_SUPPORTED"},
    {DOCA_ERROR_AGAIN, "DOCA_ERROR_AGAIN"},
    {DOCA_ERROR_INVALID_VALUE, "DOCA_ERROR_INVALID_VALUE"},
    {DOCA_ERROR_NO_MEMORY, "DOCA_ERROR_NO_MEMORY"},
    {DOCA_ERROR_INITIALIZATION, "DOCA_ERROR_INITIALIZATION"},
    {DOCA_ERROR_TIME_OUT, "DOCA_ERROR_TIME_OUT"},
    {DOCA_ERROR_SHUTDOWN, "DOCA_ERROR_SHUTDOWN"},
    {DOCA_ERROR_CONNECTION_RESET, "DOCA_ERROR_CONNECTION_RESET"},
    {DOCA_ERROR_CONNECTION_ABORTED, "DOCA_ERROR_CONNECTION_ABORTED"},
    {DOCA_ERROR_CONNECTION_INPROGRESS, "DOCA_ERROR_CONNECTION_INPROGRESS"},
    {DOCA_ERROR_NOT_CONNECTED, "DOCA_ERROR_NOT_CONNECTED"},
    {DOCA_ERROR_NO_LOCK, "DOCA_ERROR_NO_LOCK"},
    {DOCA_ERROR_NOT_FOUND, "DOCA_ERROR_NOT_FOUND"},
    {DOCA_ERROR_IO_FAILED, "DOCA_ERROR_IO_FAILED"},
    {DOCA_ERROR_BAD_STATE, "DOCA_ERROR_BAD_STATE"},
    {DOCA_ERROR_UNSUPPORTED_VERSION, "DOCA_ERROR_UNSUPPORTED_VERSION"},
    {DOCA_ERROR_OPERATING_SYSTEM, "DOCA_ERROR_OPERATING_SYSTEM"},
    {DOCA_ERROR_DRIVER, "DOCA_ERROR_DRIVER"},
    {DOCA_ERROR_UNEXPECTED, "DOCA_ERROR_UNEXPECTED"},
    {DOCA_ERROR_ALREADY_EXIST, "DOCA_ERROR_ALREADY_EXIST"},
    {DOCA_ERROR_FULL, "DOCA_ERROR_FULL"},
    {DOCA_ERROR_EMPTY, "DOCA_ERROR_EMPTY"},
    {DOCA_ERROR_IN_PROGRESS, "DOCA_ERROR_IN_PROGRESS"},
    {DOCA_ERROR_TOO_BIG, "DOCA_ERROR_TOO_BIG"},
    {DOCA_ERROR_AUTHENTICATION, "DOCA_ERROR_AUTHENTICATION"},
    {DOCA_ERROR_BAD_CONFIG, "DOCA_ERROR_BAD_CONFIG"},
    {DOCA_ERROR_SKIPPED, "DOCA_ERROR_SKIPPED"},
    {DOCA_ERROR_DEVICE_FATAL_ERROR, "DOCA_ERROR_DEVICE_FATAL_ERROR"},
};

#define NB_CODES     (sizeof(names) / sizeof(names[0]))
#define UNRECOGNIZED "unrecognized error code"

static void test_names(void)
{
	CHECK(NB_CODES == 32);
	for (unsigned int i = 0; i < NB_CODES; i++) {
		/* The table is indexed by value: the ABI numbers are 0..31 in order. */
		CHECK((unsigned int)names[i].code == i);
		CHECK_STR(doca_error_get_name(names[i].code), names[i].name);
	}
}

static void test_descriptions(void)
{
	for (unsigned int i = 0; i < NB_CODES; i++) {
		const char *d = doca_error_get_descr(names[i].code);

		CHECK(d != NULL);
		CHECK(d[0] != '\0');
		CHECK(strcmp(d, UNRECOGNIZED) != 0);
		/* A description is prose, not the identifier again. */
		CHECK(strcmp(d, names[i].name) != 0);
		/* Static storage: the same pointer every time. */
		CHECK(doca_error_get_descr(names[i].code) == d);
		CHECK(doca_error_get_name(names[i].code) == doca_error_get_name(names[i].code));
		CHECK(strchr(d, '\n') == NULL);
	}
}

static void test_unknown(void)
{
	static const int bad[] = {32, 33, 100, 1000, 0x7fffffff, -1, -32};

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		doca_error_t e = (doca_error_t)bad[i];

		CHECK_STR(doca_error_get_name(e), UNRECOGNIZED);
		CHECK_STR(doca_error_get_descr(e), UNRECOGNIZED);
	}
}

static void test_propagate(void)
{
	doca_error_t r = DOCA_SUCCESS;

	DOCA_ERROR_PROPAGATE(r, DOCA_SUCCESS);
	CHECK(r == DOCA_SUCCESS);
	DOCA_ERROR_PROPAGATE(r, DOCA_ERROR_NO_MEMORY);
	CHECK(r == DOCA_ERROR_NO_MEMORY);
	DOCA_ERROR_PROPAGATE(r, DOCA_ERROR_BAD_STATE);
	CHECK(r == DOCA_ERROR_NO_MEMORY);
	DOCA_ERROR_PROPAGATE(r, DOCA_SUCCESS);
	CHECK(r == DOCA_ERROR_NO_MEMORY);

	/* The macro is one statement: safe as the body of an unbraced if/else. */
	r = DOCA_SUCCESS;
	if (r == DOCA_SUCCESS)
		DOCA_ERROR_PROPAGATE(r, DOCA_ERROR_IN_USE);
	else
		r = DOCA_ERROR_UNKNOWN;
	CHECK(r == DOCA_ERROR_IN_USE);

	CHECK(!DOCA_IS_ERROR(DOCA_SUCCESS));
	CHECK(DOCA_IS_ERROR(DOCA_ERROR_UNKNOWN));
}

int main(void)
{
	test_names();
	test_descriptions();
	test_unknown();
	test_propagate();
	printf("test_error: ok\n");
	return T_EXIT_PASS;
}
