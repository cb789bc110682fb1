/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How libdoca_gpunetio finds the CUDA runtime: SOFTDOCA_CUDART is used or refused whole (no
 * fallback), with one line naming the variable; without it, the system's libcudart, which on a
 * machine without a GPU or driver makes doca_gpu_create fail with one line naming the CUDA
 * error. Each case runs in a child: the runtime is loaded once per process.
 * usage: test_cudart_load <fake libcudart> <a library that is not a CUDA runtime>
 */
#include <string.h>

#include "gpu_test.h"

static const char *fake_path;
static const char *not_cudart_path;

struct env_case {
	const char *value; /* SOFTDOCA_CUDART, NULL = unset */
	doca_error_t want;
	const char *says; /* in the log */
};

static int run_case(void *arg)
{
	const struct env_case *c = arg;
	struct doca_gpu *gpu = NULL;
	doca_error_t err;

	if (c->value != NULL)
		setenv("SOFTDOCA_CUDART", c->value, 1);
	else
		unsetenv("SOFTDOCA_CUDART");
	err = doca_gpu_create(FAKE_GPU_PCI, &gpu);
	if (err == DOCA_SUCCESS)
		return doca_gpu_destroy(gpu) == DOCA_SUCCESS ? T_EXIT_PASS : T_EXIT_FAIL;
	fprintf(stderr, "result=%s\n", doca_error_get_name(err));
	return c->want == err ? T_EXIT_PASS : T_EXIT_FAIL;
}

static unsigned int count_lines(const char *s, const char *needle)
{
	unsigned int n = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

int main(int argc, char **argv)
{
	char regular[] = "/tmp/sd-not-a-lib-XXXXXX";
	char out[4096];
	int fd;

	if (argc != 3)
		sd_die_at(__FILE__, __LINE__, "usage: %s <fake libcudart> <other library>", argv[0]);
	fake_path = argv[1];
	not_cudart_path = argv[2];
	fd = mkstemp(regular);
	CHECK(fd >= 0);
	CHECK(write(fd, "not ELF\n", 8) == 8);
	close(fd);

	const struct env_case refused[] = {
	    {"libfakecudart.so", DOCA_ERROR_NOT_FOUND, "must be an absolute path"},
	    {"/nonexistent/libcudart.so.13", DOCA_ERROR_NOT_FOUND, "no regular file there"},
	    {"/tmp", DOCA_ERROR_NOT_FOUND, "no regular file there"},
	    {regular, DOCA_ERROR_NOT_FOUND, "SOFTDOCA_CUDART="},
	    {not_cudart_path, DOCA_ERROR_NOT_FOUND, "has no symbol cuda"},
	};
	for (size_t i = 0; i < N_ELEMS(refused); i++) {
		int rc = check_run_child_output(run_case, (void *)&refused[i], "refused", out, sizeof(out));

		if (rc != T_EXIT_PASS || strstr(out, refused[i].says) == NULL ||
		    strstr(out, "SOFTDOCA_CUDART") == NULL || count_lines(out, "doca_gpu_create") != 1) {
			fprintf(stderr, "SOFTDOCA_CUDART=\"%s\": want %s and one line saying \"%s\"; got rc %d:\n%s\n",
				refused[i].value, doca_error_get_name(refused[i].want), refused[i].says, rc, out);
			return T_EXIT_FAIL;
		}
	}
	unlink(regular);

	/* The fake is accepted. */
	const struct env_case good = {fake_path, DOCA_SUCCESS, ""};
	CHECK_EQ(check_run_child_output(run_case, (void *)&good, "fake", out, sizeof(out)), T_EXIT_PASS);

	/*
	 * No variable: the system's CUDA. Without libcudart, driver or device this fails NOT_FOUND
	 * with one line naming what is missing; on a machine with a GPU at 17:00.0 it succeeds.
	 */
	const struct env_case sys = {NULL, DOCA_ERROR_NOT_FOUND, ""};
	int rc = check_run_child_output(run_case, (void *)&sys, "system", out, sizeof(out));

	if (rc != T_EXIT_PASS) {
		fprintf(stderr, "system CUDA: want NOT_FOUND or success, got:\n%s\n", out);
		return T_EXIT_FAIL;
	}
	if (strstr(out, "result=") != NULL) {
		if (count_lines(out, "doca_gpu_create") != 1 ||
		    (strstr(out, "libcudart not found") == NULL && strstr(out, "cudaError") == NULL)) {
			fprintf(stderr, "system CUDA: want one line naming the CUDA error, got:\n%s\n", out);
			return T_EXIT_FAIL;
		}
		printf("system CUDA: %s", out);
	}

	/* Empty is not set, as for every SOFTDOCA_* variable: the system's CUDA again, not a refusal. */
	const struct env_case empty = {"", DOCA_ERROR_NOT_FOUND, ""};

	rc = check_run_child_output(run_case, (void *)&empty, "empty", out, sizeof(out));
	if (rc != T_EXIT_PASS || strstr(out, "SOFTDOCA_CUDART") != NULL) {
		fprintf(stderr, "SOFTDOCA_CUDART=\"\": want the system's CUDA, got rc %d:\n%s\n", rc, out);
		return T_EXIT_FAIL;
	}
	return T_EXIT_PASS;
}
