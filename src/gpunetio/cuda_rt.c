/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cuda_rt.c - the CUDA runtime, loaded with dlopen at first use.
 *
 * Which library: the one SOFTDOCA_CUDART names (an absolute path; if it cannot be used the load
 * fails, there is no fallback), else the first of the names CUDA 13 and 12 ship that the
 * dynamic loader or the toolkit's lib64 directory provides and that works with this machine's
 * driver: a runtime newer than the driver answers its first call with cudaErrorInsufficientDriver
 * (a CUDA 13 runtime on a CUDA 12 driver), and the next name is tried; when none works, the
 * first one found stays, so that its error is the one reported. The table is filled once per
 * process (pthread_once) and never unloaded.
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>
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
static const char *rt_path; /* the library the table came from */

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
	    SYM("cudaGetDevice", get_device),
	    SYM("cudaStreamCreateWithFlags", stream_create_with_flags),
	    SYM("cudaStreamDestroy", stream_destroy),
	    SYM("cudaStreamSynchronize", stream_synchronize),
	    SYM("cudaMemcpyAsync", copy_async),
	    SYM("cudaMemsetAsync", fill_async),
	    SYM("cudaEventCreateWithFlags", event_create_with_flags),
	    SYM("cudaEventRecord", event_record),
	    SYM("cudaEventQuery", event_query),
	    SYM("cudaEventSynchronize", event_synchronize),
	    SYM("cudaEventDestroy", event_destroy),
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

/* A runtime that needs a newer driver than this machine's says so at its first call. */
static bool driver_too_old(void)
{
	int n = 0, err = rt_table.get_device_count(&n);

	return err == SD_CUDA_ERROR_INSUFFICIENT_DRIVER;
}

static void load(void)
{
	const char *env = getenv("SOFTDOCA_CUDART");
	void *first = NULL, *h;
	const char *first_path = NULL;

	if (env != NULL && *env != '\0') { /* empty: not set, as every SOFTDOCA_* variable */
		load_named(env);
		if (rt_loaded != NULL)
			rt_path = env;
		return;
	}
	for (size_t i = 0; i < SD_ARRAY_SIZE(cudart_names); i++) {
		const char *path = cudart_names[i];

		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (h == NULL)
			continue;
		if (!resolve(h, path)) {
			dlclose(h);
			continue;
		}
		if (!driver_too_old()) {
			if (first != NULL)
				SD_INFO(COMP, "%s needs a newer NVIDIA driver than this machine's; using %s",
					first_path, path);
			rt_path = path;
			rt_loaded = &rt_table;
			return;
		}
		if (first == NULL) {
			first = h;
			first_path = path;
		} /* later ones that fail too stay loaded: a runtime is not unloaded (atexit handlers) */
	}
	if (first == NULL) {
		snprintf(load_why, sizeof(load_why),
			 "libcudart not found: tried libcudart.so.13, libcudart.so.12 and /usr/local/cuda/lib64; "
			 "install the CUDA runtime or set SOFTDOCA_CUDART to its path");
		return;
	}
	/* No runtime works with this driver: the first one found reports why. */
	(void)resolve(first, first_path);
	rt_path = first_path;
	rt_loaded = &rt_table;
}

/*
 * Exit: the runtime's own exit handlers (registered when it was loaded) tear its contexts down;
 * a call of softdoca's threads (the NIC's copies, the DMA service) after that would crash. This
 * handler, registered after the runtime's load and so run before its handlers, closes the
 * runtime to softdoca and waits (1 s at most) for the calls under way to return.
 */
static atomic_bool rt_closed;
static atomic_uint rt_calls;

static void close_at_exit(void)
{
	atomic_store(&rt_closed, true);
	for (int i = 0; i < 1000 && atomic_load(&rt_calls) != 0; i++)
		usleep(1000);
}

bool cuda_rt_call_begin(void)
{
	atomic_fetch_add(&rt_calls, 1);
	if (!atomic_load(&rt_closed))
		return true;
	atomic_fetch_sub(&rt_calls, 1);
	return false;
}

void cuda_rt_call_end(void)
{
	atomic_fetch_sub(&rt_calls, 1);
}

static void load_and_hook(void)
{
	load();
	if (rt_loaded != NULL)
		(void)atexit(close_at_exit);
}

const struct cuda_rt *cuda_rt_get(const char **why)
{
	pthread_once(&load_once, load_and_hook);
	if (rt_loaded == NULL)
		*why = load_why;
	return rt_loaded;
}

const char *cuda_rt_path(void)
{
	return rt_path != NULL ? rt_path : "libcudart";
}

static const char *hint_of(int err)
{
	switch (err) {
	case SD_CUDA_ERROR_MEMORY_ALLOCATION:
		return "the GPU is out of memory: free some, or ask for less (nvidia-smi shows who holds it)";
	case SD_CUDA_ERROR_STUB_LIBRARY:
		return "the CUDA driver library found is the toolkit's stub (lib64/stubs/libcuda.so): install the "
		       "NVIDIA driver, or take the stubs directory off LD_LIBRARY_PATH";
	case SD_CUDA_ERROR_DEVICES_UNAVAILABLE:
		return "every GPU is busy or unavailable: one in EXCLUSIVE_PROCESS compute mode is held by another "
		       "process (nvidia-smi -q -d COMPUTE shows the mode)";
	case SD_CUDA_ERROR_NO_DEVICE:
		return "no NVIDIA GPU is visible to this process: check nvidia-smi, CUDA_VISIBLE_DEVICES and, in a "
		       "container, that the GPU was passed in (--gpus)";
	case SD_CUDA_ERROR_INVALID_DEVICE:
		return "no visible GPU has that address: check nvidia-smi --query-gpu=pci.bus_id "
		       "(CUDA_VISIBLE_DEVICES may hide it)";
	case SD_CUDA_ERROR_SYSTEM_NOT_READY:
		return "the GPU's system software is not ready: on NVSwitch systems start nvidia-fabricmanager";
	case SD_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
		return "the driver's library and its kernel module are of different versions: reboot after a driver "
		       "update, or reinstall the driver";
	case SD_CUDA_ERROR_COMPAT_NOT_SUPPORTED:
		return "the CUDA forward-compatibility libraries (cuda-compat) are in use on a GPU that does not "
		       "support them: take them off LD_LIBRARY_PATH";
	case SD_CUDA_ERROR_UNKNOWN:
		return "the driver reported an unknown error: look for Xid lines in the kernel log (dmesg)";
	default:
		return NULL;
	}
}

const char *cuda_rt_hint(const struct cuda_rt *rt, int err)
{
	static _Thread_local char buf[320];
	int drv = 0, run = 0;

	if (err != SD_CUDA_ERROR_INSUFFICIENT_DRIVER)
		return hint_of(err);
	/* The runtime says "insufficient driver" for no driver at all as well: the versions tell. */
	if (rt != NULL && rt->driver_get_version != NULL)
		(void)rt->driver_get_version(&drv);
	if (rt != NULL && rt->runtime_get_version != NULL)
		(void)rt->runtime_get_version(&run);
	if (drv == 0)
		return "no NVIDIA driver is installed (libcuda.so.1 is not there): install the driver of the GPU; "
		       "GPUNetIO needs a GPU and its driver";
	snprintf(buf, sizeof(buf),
		 "the NVIDIA driver supports CUDA %d.%d, this runtime (%s) is CUDA %d.%d: update the driver, or set "
		 "SOFTDOCA_CUDART to a runtime of CUDA %d.%d or older",
		 drv / 1000, drv % 1000 / 10, cuda_rt_path(), run / 1000, run % 1000 / 10, drv / 1000, drv % 1000 / 10);
	return buf;
}

const char *cuda_rt_err(const struct cuda_rt *rt, int err)
{
	static _Thread_local char buf[96];
	const char *name = rt != NULL ? rt->get_error_name(err) : NULL;

	snprintf(buf, sizeof(buf), "%s (%d)", name != NULL ? name : "cudaError", err);
	return buf;
}
