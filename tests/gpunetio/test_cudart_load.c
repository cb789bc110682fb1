/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How libdoca_gpunetio finds the CUDA runtime: SOFTDOCA_CUDART is used or refused whole (no
 * fallback), with one line naming the variable; without it, the system's libcudart, which on a
 * machine without a GPU or driver makes doca_gpu_create fail with one line naming the CUDA
 * error. Each case runs in a child: the runtime is loaded once per process.
 *
 * A machine with both runtimes and a driver of CUDA 12: copies of the fake named
 * libcudart.so.13 and libcudart.so.12 on LD_LIBRARY_PATH, FAKE_CUDA_DRIVER set: the 13 one
 * answers "insufficient driver" and the 12 one is used; with a CUDA 11 driver neither works and
 * the one line says which versions disagree; with no driver it says there is none.
 * usage: test_cudart_load <fake libcudart> <a library that is not a CUDA runtime>
 */
#include <fcntl.h>
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

/* Copies the file @from to @dir/@name. */
static void copy_file(const char *from, const char *dir, const char *name)
{
	char path[512], buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	CHECK(in >= 0 && out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		CHECK(write(out, buf, (size_t)n) == n);
	CHECK(n == 0);
	close(in);
	close(out);
}

struct driver_case {
	const char *dir;    /* LD_LIBRARY_PATH: the two copies */
	const char *driver; /* FAKE_CUDA_DRIVER */
};

/* A fresh process (the loader reads LD_LIBRARY_PATH at start) that looks for the system's CUDA. */
static int exec_driver_case(void *arg)
{
	const struct driver_case *c = arg;

	setenv("LD_LIBRARY_PATH", c->dir, 1);
	setenv("FAKE_CUDA_DRIVER", c->driver, 1);
	setenv("DOCA_LOG_LEVEL", "info", 1);
	unsetenv("SOFTDOCA_CUDART");
	execl("/proc/self/exe", "/proc/self/exe", "driver-case", (char *)NULL);
	_exit(T_EXIT_FAIL);
}

static void driver_cases(void)
{
	const char *dir = sd_tmpdir();
	char out[4096];

	copy_file(fake_path, dir, "libcudart.so.13");
	copy_file(fake_path, dir, "libcudart.so.12");

	const struct driver_case ok12 = {dir, "12090"}; /* runs CUDA 12.8, not 13.0 */
	CHECK_EQ(check_run_child_output(exec_driver_case, (void *)&ok12, "driver 12", out, sizeof(out)), T_EXIT_PASS);
	if (strstr(out, "result=") != NULL || strstr(out, "libcudart.so.13 needs a newer NVIDIA driver") == NULL ||
	    strstr(out, "using libcudart.so.12") == NULL) {
		fprintf(stderr, "a CUDA 12 driver: want libcudart.so.12 used, and one line saying so; got:\n%s\n", out);
		exit(T_EXIT_FAIL);
	}

	const struct driver_case old = {dir, "11080"};
	CHECK_EQ(check_run_child_output(exec_driver_case, (void *)&old, "driver 11", out, sizeof(out)), T_EXIT_PASS);
	if (strstr(out, "result=DOCA_ERROR_NOT_FOUND") == NULL || count_lines(out, "doca_gpu_create") != 1 ||
	    strstr(out, "cudaErrorInsufficientDriver") == NULL || strstr(out, "supports CUDA 11.8") == NULL ||
	    strstr(out, "libcudart.so.13") == NULL) {
		fprintf(stderr, "a CUDA 11 driver: want NOT_FOUND and one line naming both versions; got:\n%s\n", out);
		exit(T_EXIT_FAIL);
	}

	const struct driver_case none = {dir, "0"};
	CHECK_EQ(check_run_child_output(exec_driver_case, (void *)&none, "no driver", out, sizeof(out)), T_EXIT_PASS);
	if (strstr(out, "result=DOCA_ERROR_NOT_FOUND") == NULL || count_lines(out, "doca_gpu_create") != 1 ||
	    strstr(out, "no NVIDIA driver is installed") == NULL) {
		fprintf(stderr, "no driver: want NOT_FOUND and one line saying there is none; got:\n%s\n", out);
		exit(T_EXIT_FAIL);
	}
}

int main(int argc, char **argv)
{
	char regular[] = "/tmp/sd-not-a-lib-XXXXXX";
	char out[4096];
	int fd;

	if (argc == 2 && strcmp(argv[1], "driver-case") == 0) {
		const struct env_case sys = {NULL, DOCA_ERROR_NOT_FOUND, ""};

		return run_case((void *)&sys);
	}

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
	driver_cases();
	return T_EXIT_PASS;
}
