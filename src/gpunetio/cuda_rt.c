/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cuda_rt.c - the CUDA runtime, loaded with dlopen at first use.
 *
 * Which library: the one SOFTDOCA_CUDART names (an absolute path; if it cannot be used the load
 * fails, there is no fallback), else the first of the names CUDA 13 and 12 ship that the
 * dynamic loader or the toolkit's lib64 directory provides. The table is filled once per
 * process (pthread_once) and never unloaded.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpunetio_internal.h"

static const char *const cudart_names[] = {
    "libcudart.so.13",
    "libcudart.so.12",
    "/usr/local/cuda/lib64/libcudart.so.13",
    "/usr/local/cuda/lib64/libcudart.so.12",
    "/usr/local/cuda/lib64/libcudart.so",
    "libcudart.so",
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct cuda_rt rt_table;
static const struct cuda_rt *rt_loaded;
static char load_why[512];

static bool resolve(void *h, const char *path)
{
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
#define SYM(n, f) {n, offsetof(struct cuda_rt, f)}
	    SYM("cudaGetDeviceCount", get_device_count),
	    SYM("cudaDeviceGetByPCIBusId", device_get_by_pci_bus_id),
	    SYM("cudaSetDevice", set_device),
	    SYM("cudaDeviceGetAttribute", device_get_attribute),
	    SYM("cudaMalloc", dev_malloc),
	    SYM("cudaFree", dev_free),
	    SYM("cudaHostAlloc", host_alloc),
	    SYM("cudaFreeHost", free_host),
	    SYM("cudaHostGetDevicePointer", host_get_device_pointer),
	    SYM("cudaMemcpy", copy),
	    SYM("cudaMemset", fill),
	    SYM("cudaGetErrorName", get_error_name),
	};
	static const struct {
		const char *name;
		size_t off;
	} optional[] = {
	    SYM("cudaDeviceGetPCIBusId", device_get_pci_bus_id),
	    SYM("cudaRuntimeGetVersion", runtime_get_version),
	    SYM("cudaDriverGetVersion", driver_get_version),
#undef SYM
	};

	for (size_t i = 0; i < SD_ARRAY_SIZE(syms); i++) {
		void *f = dlsym(h, syms[i].name);

		if (f == NULL) {
			snprintf(load_why, sizeof(load_why), "%s has no symbol %s; it is not a CUDA runtime", path,
				 syms[i].name);
			return false;
		}
		/* POSIX guarantees a function pointer round-trips through void *. */
		memcpy((char *)&rt_table + syms[i].off, &f, sizeof(f));
	}
	for (size_t i = 0; i < SD_ARRAY_SIZE(optional); i++) {
		void *f = dlsym(h, optional[i].name);

		memcpy((char *)&rt_table + optional[i].off, &f, sizeof(f));
	}
	return true;
}

static void load_named(const char *path)
{
	struct stat st;
	void *h;

	if (path[0] != '/') {
		snprintf(load_why, sizeof(load_why),
			 "SOFTDOCA_CUDART=\"%s\" refused: it must be an absolute path to a CUDA runtime library", path);
		return;
	}
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(load_why, sizeof(load_why), "SOFTDOCA_CUDART=\"%s\" refused: no regular file there", path);
		return;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		snprintf(load_why, sizeof(load_why), "SOFTDOCA_CUDART=\"%s\" refused: %s", path, dlerror());
		return;
	}
	if (!resolve(h, path)) {
		char why[sizeof(load_why)];

		memcpy(why, load_why, sizeof(why));
		snprintf(load_why, sizeof(load_why), "SOFTDOCA_CUDART refused: %.400s", why);
		dlclose(h);
		return;
	}
	rt_loaded = &rt_table;
}

static void load(void)
{
	const char *env = getenv("SOFTDOCA_CUDART");
	void *h = NULL;
	const char *path = NULL;

	if (env != NULL && *env != '\0') { /* empty: not set, as every SOFTDOCA_* variable */
		load_named(env);
		return;
	}
	for (size_t i = 0; i < SD_ARRAY_SIZE(cudart_names) && h == NULL; i++) {
		path = cudart_names[i];
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	if (h == NULL) {
		snprintf(load_why, sizeof(load_why),
			 "libcudart not found: tried libcudart.so.13, libcudart.so.12 and /usr/local/cuda/lib64; "
			 "install the CUDA runtime or set SOFTDOCA_CUDART to its path");
		return;
	}
	if (!resolve(h, path)) {
		dlclose(h);
		return;
	}
	rt_loaded = &rt_table;
}

const struct cuda_rt *cuda_rt_get(const char **why)
{
	pthread_once(&load_once, load);
	if (rt_loaded == NULL)
		*why = load_why;
	return rt_loaded;
}

const char *cuda_rt_err(const struct cuda_rt *rt, int err)
{
	static _Thread_local char buf[96];
	const char *name = rt != NULL ? rt->get_error_name(err) : NULL;

	snprintf(buf, sizeof(buf), "%s (%d)", name != NULL ? name : "cudaError", err);
	return buf;
}
