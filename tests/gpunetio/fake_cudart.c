/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_cudart.c - a test-only CUDA runtime: the cuda* functions libdoca_gpunetio resolves,
 * backed by host memory, selected with SOFTDOCA_CUDART=<path of this library>.
 *
 * One GPU, CUDA device 0, at PCI 17:00.0 (also 0000:17:00.0). Device and mapped host memory
 * are host memory; as with CUDA's unified addressing, the device pointer of mapped host memory
 * is its host pointer, so CPU threads "playing the GPU" use the handles as kernels would.
 * Tests reach the controls below with dlopen(RTLD_NOLOAD) of the same path.
 *
 * FAKE_CUDA_PROTECT_DEVICE=1 makes cudaMalloc memory unreachable by CPU code, as device memory
 * is with a real driver: the pointer handed out is a PROT_NONE view of a memfd, and the fake's
 * cudaMemcpy/cudaMemset reach the bytes through a second, writable view. A CPU load or store
 * through the device pointer is a SIGSEGV.
 *
 * FAKE_CUDA_DRIVER=<version> plays the machine's driver (CUDA 12.4 is 12040; 0: no driver): a
 * runtime newer than it answers cudaErrorInsufficientDriver, as a real one does. The fake's own
 * runtime version follows the name it was loaded under: CUDA 12.8 as libcudart.so.12, 13.0
 * otherwise (copies of this library under both names play a machine with both runtimes).
 *
 * As asynchronous as the real one where it matters (CUDA runtime API, "API synchronization
 * behavior"):
 *   - cudaMemcpy from pageable host memory to the device returns once the source is staged; the
 *     bytes land in device memory later (FAKE_CUDA_LAND_US, default 300 us, a thread of the
 *     fake), or at the next operation of the legacy stream, whichever comes first;
 *   - cudaMemcpyAsync / cudaMemsetAsync on a stream land at cudaStreamSynchronize of that
 *     stream (or later on the fake's thread), in order per stream; an async copy from pinned
 *     memory reads its source when it lands (pageable sources are staged at the call);
 *   - events (cudaEventCreateWithFlags, Record, Query, Synchronize, Destroy) are done once
 *     everything queued on their stream before the record has landed: cudaEventQuery answers
 *     cudaErrorNotReady (600) until then, cudaEventSynchronize waits for the fake's thread to
 *     land it (FAKE_CUDA_LAND_US after the copy was queued: a completion a test sees before
 *     that is one published ahead of its bytes);
 *   - a kernel running on the legacy stream or a blocking stream (fake_cuda_kernel_begin(0))
 *     holds every legacy-stream operation and every operation of a blocking stream until
 *     fake_cuda_kernel_end(); streams made with cudaStreamNonBlocking do not wait;
 *   - cudaFree and cudaFreeHost synchronize the device: they wait for every kernel running,
 *     whatever its stream.
 * Memory from cudaHostAlloc is pinned: copies from it are not staged. fake_cuda_copies() and
 * fake_cuda_async_copies() count the copy calls (all, and cudaMemcpyAsync alone), fake_cuda_waits()
 * the cudaStreamSynchronize and cudaEventSynchronize calls.
 *
 * FAKE_CUDA_DEVICES=2 adds a second GPU, CUDA device 1 at 65:00.0; allocations are made on
 * the calling thread's current device (an unset one is an error, as a thread that never bound
 * its GPU) and remember it (fake_cuda_alloc_device()).
 *
 * At exit the fake tears itself down as the real runtime does, in an exit handler registered
 * when it is loaded (and slowly: 50 ms); a call made after that aborts the process, naming it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <string.h>
#include <strings.h>

#define EXPORT __attribute__((visibility("default")))

enum {
	OK = 0,
	ERR_INVALID_VALUE = 1,
	ERR_MEMORY_ALLOCATION = 2,
	ERR_INSUFFICIENT_DRIVER = 35,
	ERR_INVALID_DEVICE = 101,
	ERR_NOT_READY = 600
};

static atomic_int live;	     /* allocations not freed */
static atomic_int fail_next; /* error the next allocation returns, 0 = none */
static _Thread_local int current = -1;

static atomic_bool torn_down;

static void tear_down(void)
{
	atomic_store(&torn_down, true);
	usleep(50000); /* the real one takes its time too: other threads run meanwhile */
}

__attribute__((constructor)) static void fake_load(void)
{
	atexit(tear_down);
}

/* Every runtime call: none after the exit handler tore the runtime down. */
static void alive(const char *call)
{
	if (atomic_load(&torn_down)) {
		static const char msg[] = "fake CUDA runtime: a call after the runtime was torn down at exit: ";

		(void)!write(2, msg, sizeof(msg) - 1);
		(void)!write(2, call, strlen(call));
		(void)!write(2, "\n", 1);
		abort();
	}
}

/* Controls for tests. */
EXPORT int fake_cuda_live_allocations(void)
{
	return atomic_load(&live);
}

EXPORT void fake_cuda_fail_next_alloc(int err)
{
	atomic_store(&fail_next, err);
}

EXPORT int fake_cuda_current_device(void)
{
	return current;
}

static int runtime_version(void)
{
	Dl_info info;
	const char *name;

	if (dladdr((void *)runtime_version, &info) == 0 || info.dli_fname == NULL)
		return 13000;
	name = strrchr(info.dli_fname, '/');
	name = name != NULL ? name + 1 : info.dli_fname;
	return strcmp(name, "libcudart.so.12") == 0 ? 12080 : 13000;
}

static int driver_version(void)
{
	const char *e = getenv("FAKE_CUDA_DRIVER");

	return e != NULL && *e != '\0' ? atoi(e) : 13000;
}

static bool driver_too_old(void)
{
	return driver_version() < runtime_version();
}

static int nb_devices(void)
{
	const char *e = getenv("FAKE_CUDA_DEVICES");

	return e != NULL && strcmp(e, "2") == 0 ? 2 : 1;
}

EXPORT int cudaGetDeviceCount(int *count)
{
	if (driver_too_old())
		return ERR_INSUFFICIENT_DRIVER;
	*count = nb_devices();
	return OK;
}

EXPORT int cudaDeviceGetByPCIBusId(int *device, const char *bus)
{
	if (driver_too_old())
		return ERR_INSUFFICIENT_DRIVER;
	if (strcasecmp(bus, "17:00.0") == 0 || strcasecmp(bus, "0000:17:00.0") == 0)
		*device = 0;
	else if (nb_devices() > 1 && (strcasecmp(bus, "65:00.0") == 0 || strcasecmp(bus, "0000:65:00.0") == 0))
		*device = 1;
	else
		return ERR_INVALID_DEVICE;
	return OK;
}

EXPORT int cudaSetDevice(int device)
{
	alive("cudaSetDevice");
	if (device < 0 || device >= nb_devices())
		return ERR_INVALID_DEVICE;
	current = device;
	return OK;
}

EXPORT int cudaDeviceGetAttribute(int *value, int attr, int device)
{
	if (device < 0 || device >= nb_devices())
		return ERR_INVALID_DEVICE;
	*value = attr == 75 ? 9 : 0; /* compute capability 9.0, like an H100/H200 */
	return OK;
}

/* Which device each live allocation was made on (fake_cuda_alloc_device). */
static struct {
	const void *p;
	int dev;
} alloc_dev[256];
static pthread_mutex_t alloc_dev_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_device(const void *p, int dev)
{
	pthread_mutex_lock(&alloc_dev_lock);
	for (size_t i = 0; i < sizeof(alloc_dev) / sizeof(alloc_dev[0]); i++)
		if (alloc_dev[i].p == NULL || alloc_dev[i].p == p) {
			alloc_dev[i].p = dev >= 0 ? p : NULL;
			alloc_dev[i].dev = dev;
			break;
		}
	pthread_mutex_unlock(&alloc_dev_lock);
}

EXPORT int fake_cuda_alloc_device(const void *p)
{
	int dev = -1;

	pthread_mutex_lock(&alloc_dev_lock);
	for (size_t i = 0; i < sizeof(alloc_dev) / sizeof(alloc_dev[0]); i++)
		if (alloc_dev[i].p != NULL && (const uint8_t *)p >= (const uint8_t *)alloc_dev[i].p &&
		    (const uint8_t *)p < (const uint8_t *)alloc_dev[i].p + 256)
			dev = alloc_dev[i].dev;
	pthread_mutex_unlock(&alloc_dev_lock);
	return dev;
}

static int alloc(void **p, size_t size)
{
	int err = atomic_exchange(&fail_next, 0);

	if (current < 0)
		return ERR_INVALID_DEVICE;
	if (err != 0)
		return err;
	*p = aligned_alloc(256, (size + 255) & ~(size_t)255);
	if (*p == NULL)
		return ERR_MEMORY_ALLOCATION;
	note_device(*p, current);
	atomic_fetch_add(&live, 1);
	return OK;
}

static int release(void *p)
{
	if (p == NULL)
		return ERR_INVALID_VALUE;
	note_device(p, -1);
	free(p);
	atomic_fetch_sub(&live, 1);
	return OK;
}

/* Protected device memory: the device view (PROT_NONE) and the fake's own view of each range. */
static struct {
	uint8_t *dev, *shadow;
	size_t len;
} ranges[64];
static pthread_mutex_t ranges_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_long copies;	 /* cudaMemcpy and cudaMemcpyAsync calls */
static atomic_long async_copies; /* cudaMemcpyAsync calls */
static atomic_long waits;	 /* cudaStreamSynchronize and cudaEventSynchronize calls */

static bool protect_device(void)
{
	const char *e = getenv("FAKE_CUDA_PROTECT_DEVICE");

	return e != NULL && e[0] == '1';
}

/* The fake's address of @p: its shadow when @p is protected device memory. */
static void *reach(const void *p)
{
	const uint8_t *b = p;
	void *out = (void *)(uintptr_t)p;

	pthread_mutex_lock(&ranges_lock);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ranges[i].dev != NULL && b >= ranges[i].dev && b < ranges[i].dev + ranges[i].len) {
			out = ranges[i].shadow + (b - ranges[i].dev);
			break;
		}
	pthread_mutex_unlock(&ranges_lock);
	return out;
}

static int alloc_protected(void **p, size_t size)
{
	size_t len = (size + 4095) & ~(size_t)4095;
	int fd = memfd_create("fake-cuda-device", MFD_CLOEXEC), err = ERR_MEMORY_ALLOCATION;
	void *dev = MAP_FAILED, *shadow = MAP_FAILED;

	if (current < 0) {
		if (fd >= 0)
			close(fd);
		return ERR_INVALID_DEVICE;
	}
	if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
		goto out;
	dev = mmap(NULL, len, PROT_NONE, MAP_SHARED, fd, 0);
	shadow = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (dev == MAP_FAILED || shadow == MAP_FAILED)
		goto out;
	pthread_mutex_lock(&ranges_lock);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ranges[i].dev == NULL) {
			ranges[i].dev = dev;
			ranges[i].shadow = shadow;
			ranges[i].len = len;
			err = OK;
			break;
		}
	pthread_mutex_unlock(&ranges_lock);
out:
	if (fd >= 0)
		close(fd);
	if (err != OK) {
		if (dev != MAP_FAILED)
			munmap(dev, len);
		if (shadow != MAP_FAILED)
			munmap(shadow, len);
		return err;
	}
	*p = dev;
	atomic_fetch_add(&live, 1);
	return OK;
}

/* True (and unmapped) when @p was protected device memory. */
static bool release_protected(void *p)
{
	bool hit = false;

	pthread_mutex_lock(&ranges_lock);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ranges[i].dev == p) {
			munmap(ranges[i].dev, ranges[i].len);
			munmap(ranges[i].shadow, ranges[i].len);
			ranges[i].dev = NULL;
			hit = true;
			break;
		}
	pthread_mutex_unlock(&ranges_lock);
	if (hit)
		atomic_fetch_sub(&live, 1);
	return hit;
}

EXPORT long fake_cuda_copies(void)
{
	return atomic_load(&copies);
}

EXPORT int cudaMalloc(void **p, size_t size)
{
	alive("cudaMalloc");
	if (protect_device() && atomic_load(&fail_next) == 0)
		return alloc_protected(p, size);
	return alloc(p, size);
}

static void wait_kernels_for_free(void);

EXPORT int cudaFree(void *p)
{
	alive("cudaFree");
	wait_kernels_for_free();
	if (p != NULL && release_protected(p))
		return OK;
	return release(p);
}

EXPORT int cudaHostGetDevicePointer(void **dptr, void *hptr, unsigned int flags)
{
	if (flags != 0 || hptr == NULL)
		return ERR_INVALID_VALUE;
	*dptr = hptr;
	return OK;
}

/* ---- streams: operations staged now, landed later ---- */

#define NONBLOCKING 1u /* cudaStreamNonBlocking */

struct fake_event;

struct op {
	struct op *next;
	void *dst;
	size_t len;
	uint64_t due_ns;
	bool fill;
	int value;
	struct fake_event *ev; /* an event's record: completes it when reached */
	const void *src;       /* pinned source, read when the copy lands; NULL: data[] */
	uint8_t data[];	       /* the staged source */
};

/* cudaEvent_t: done once every operation queued on its stream before its record has landed. */
struct fake_event {
	struct op *op; /* the record still to be reached, NULL once done (or never recorded) */
};

struct fake_stream {
	unsigned int flags;
	struct op *head, *tail;
};

static struct fake_stream legacy; /* the NULL stream */
static pthread_mutex_t ops_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ops_cond = PTHREAD_COND_INITIALIZER;
static pthread_once_t lander_once = PTHREAD_ONCE_INIT;
static struct fake_stream *streams[64]; /* every live stream, for the lander */
static int kernel_blocking;		/* kernels running on the legacy or a blocking stream */
static int kernels_running;		/* every kernel, whatever its stream */

/* A free synchronizes the device: every kernel ends first. */
static void wait_kernels_for_free(void)
{
	pthread_mutex_lock(&ops_lock);
	while (kernels_running > 0)
		pthread_cond_wait(&ops_cond, &ops_lock);
	pthread_mutex_unlock(&ops_lock);
}

/* Host memory from cudaHostAlloc (pinned): copies from it are not staged. */
static struct {
	const uint8_t *p;
	size_t len;
} pinned[64];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t land_ns(void)
{
	const char *e = getenv("FAKE_CUDA_LAND_US");

	return (e != NULL && *e != '\0' ? strtoull(e, NULL, 10) : 300) * 1000ull;
}

/* Under ops_lock: the first @upto operations of @st (all when 0) land, in order. */
static void land(struct fake_stream *st, uint64_t upto_ns)
{
	while (st->head != NULL && (upto_ns == 0 || st->head->due_ns <= upto_ns)) {
		struct op *o = st->head;

		st->head = o->next;
		if (st->head == NULL)
			st->tail = NULL;
		if (o->ev != NULL)
			o->ev->op = NULL;
		else if (o->fill)
			memset(reach(o->dst), o->value, o->len);
		else
			memcpy(reach(o->dst), o->src != NULL ? reach(o->src) : o->data, o->len);
		free(o);
	}
}

static void *lander(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&ops_lock);
	for (;;) {
		uint64_t now = now_ns();
		struct timespec ts;

		land(&legacy, now);
		for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
			if (streams[i] != NULL)
				land(streams[i], now);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&ops_cond, &ops_lock, &ts);
	}
	return NULL;
}

static void start_lander(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, lander, NULL) == 0)
		pthread_detach(t);
}

static bool is_pinned(const void *p)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++)
		if (pinned[i].p != NULL && b >= pinned[i].p && b < pinned[i].p + pinned[i].len)
			return true;
	return false;
}

/* Under ops_lock: an operation of @st may start (a kernel on a blocking stream holds the others). */
static void wait_turn(const struct fake_stream *st)
{
	while (kernel_blocking > 0 && (st == &legacy || !(st->flags & NONBLOCKING)))
		pthread_cond_wait(&ops_cond, &ops_lock);
}

/*
 * Under ops_lock. A copy from pinned memory is read when it lands, as a DMA engine reads it: a
 * caller that rewrites its source before the copy completed sends the new bytes. Pageable
 * memory is staged now (the caller may reuse its buffer). An event's record (@ev) is due at
 * once: it completes when everything before it on the stream has landed.
 */
static int enqueue_op(struct fake_stream *st, void *dst, const void *src, size_t len, bool fill, int value,
		      struct fake_event *ev)
{
	bool stage = !fill && ev == NULL && !is_pinned(src);
	struct op *o = malloc(sizeof(*o) + (stage ? len : 0));

	if (o == NULL)
		return ERR_MEMORY_ALLOCATION;
	o->next = NULL;
	o->dst = dst;
	o->len = len;
	o->fill = fill;
	o->value = value;
	o->ev = ev;
	o->src = !fill && ev == NULL && !stage ? src : NULL;
	if (stage)
		memcpy(o->data, reach(src), len);
	o->due_ns = now_ns() + (ev != NULL ? 0 : land_ns());
	if (st->tail != NULL)
		st->tail->next = o;
	else
		st->head = o;
	st->tail = o;
	if (ev != NULL) {
		if (ev->op != NULL)
			ev->op->ev = NULL; /* re-recorded: the event now stands for this point */
		ev->op = o;
	}
	pthread_cond_broadcast(&ops_cond);
	return OK;
}

static int enqueue(struct fake_stream *st, void *dst, const void *src, size_t len, bool fill, int value)
{
	return enqueue_op(st, dst, src, len, fill, value, NULL);
}

static struct fake_stream *stream_of(void *s)
{
	return s == NULL ? &legacy : (struct fake_stream *)s;
}

/*
 * One copy on @st. Synchronous in the legacy way (@sync): the legacy stream's earlier work lands
 * first; a copy from pageable host memory to the device is staged and lands later, anything else
 * lands before the call returns. Asynchronous: staged on @st.
 */
static int copy_on(struct fake_stream *st, void *dst, const void *src, size_t count, int kind, bool sync)
{
	int err = OK;

	pthread_once(&lander_once, start_lander);
	atomic_fetch_add(&copies, 1);
	pthread_mutex_lock(&ops_lock);
	wait_turn(st);
	if (sync) {
		land(&legacy, 0);
		if (kind == 1 /* host to device */ && !is_pinned(src))
			err = enqueue(&legacy, dst, src, count, false, 0);
		else
			memcpy(reach(dst), reach(src), count);
	} else {
		err = enqueue(st, dst, src, count, false, 0);
	}
	pthread_mutex_unlock(&ops_lock);
	return err;
}

EXPORT long fake_cuda_async_copies(void)
{
	return atomic_load(&async_copies);
}

EXPORT long fake_cuda_waits(void)
{
	return atomic_load(&waits);
}

EXPORT int cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
	alive("cudaMemcpy");
	return copy_on(&legacy, dst, src, count, kind, true);
}

EXPORT int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, void *stream)
{
	alive("cudaMemcpyAsync");
	atomic_fetch_add(&async_copies, 1);
	return copy_on(stream_of(stream), dst, src, count, kind, false);
}

EXPORT int cudaMemset(void *p, int value, size_t count)
{
	alive("cudaMemset");
	pthread_once(&lander_once, start_lander);
	pthread_mutex_lock(&ops_lock);
	wait_turn(&legacy);
	land(&legacy, 0);
	memset(reach(p), value, count);
	pthread_mutex_unlock(&ops_lock);
	return OK;
}

EXPORT int cudaMemsetAsync(void *p, int value, size_t count, void *stream)
{
	alive("cudaMemsetAsync");
	int err;

	pthread_once(&lander_once, start_lander);
	pthread_mutex_lock(&ops_lock);
	wait_turn(stream_of(stream));
	err = enqueue(stream_of(stream), p, NULL, count, true, value);
	pthread_mutex_unlock(&ops_lock);
	return err;
}

EXPORT int cudaStreamCreateWithFlags(void **stream, unsigned int flags)
{
	struct fake_stream *st = calloc(1, sizeof(*st));
	int err = ERR_MEMORY_ALLOCATION;

	if (st == NULL)
		return err;
	st->flags = flags;
	pthread_mutex_lock(&ops_lock);
	for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
		if (streams[i] == NULL) {
			streams[i] = st;
			err = OK;
			break;
		}
	pthread_mutex_unlock(&ops_lock);
	if (err != OK) {
		free(st);
		return err;
	}
	*stream = st;
	return OK;
}

EXPORT int cudaStreamSynchronize(void *stream)
{
	alive("cudaStreamSynchronize");
	atomic_fetch_add(&waits, 1);
	struct fake_stream *st = stream_of(stream);

	pthread_mutex_lock(&ops_lock);
	wait_turn(st);
	if (!(st->flags & NONBLOCKING) || st == &legacy)
		land(&legacy, 0);
	land(st, 0);
	pthread_mutex_unlock(&ops_lock);
	return OK;
}

/* ---- events ---- */

EXPORT int cudaEventCreateWithFlags(void **event, unsigned int flags)
{
	struct fake_event *ev;

	alive("cudaEventCreateWithFlags");
	(void)flags;
	ev = calloc(1, sizeof(*ev));
	if (ev == NULL)
		return ERR_MEMORY_ALLOCATION;
	*event = ev;
	return OK;
}

EXPORT int cudaEventRecord(void *event, void *stream)
{
	struct fake_stream *st = stream_of(stream);
	int err;

	alive("cudaEventRecord");
	if (event == NULL)
		return ERR_INVALID_VALUE;
	pthread_once(&lander_once, start_lander);
	pthread_mutex_lock(&ops_lock);
	wait_turn(st);
	err = enqueue_op(st, NULL, NULL, 0, false, 0, event);
	pthread_mutex_unlock(&ops_lock);
	return err;
}

/* cudaSuccess once the work before the record has landed, else cudaErrorNotReady (600). */
EXPORT int cudaEventQuery(void *event)
{
	struct fake_event *ev = event;
	bool done;

	alive("cudaEventQuery");
	if (ev == NULL)
		return ERR_INVALID_VALUE;
	pthread_mutex_lock(&ops_lock);
	done = ev->op == NULL;
	pthread_mutex_unlock(&ops_lock);
	return done ? OK : ERR_NOT_READY;
}

/*
 * Waits until the work before the record has landed: on the fake's thread, when it is due
 * (FAKE_CUDA_LAND_US after it was queued), as a GPU takes its time to copy. Landing it at once
 * would hide a completion published before its copy: the copy would be there by the time
 * anyone looked.
 */
EXPORT int cudaEventSynchronize(void *event)
{
	struct fake_event *ev = event;

	alive("cudaEventSynchronize");
	atomic_fetch_add(&waits, 1);
	if (ev == NULL)
		return ERR_INVALID_VALUE;
	pthread_mutex_lock(&ops_lock);
	while (ev->op != NULL) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&ops_cond, &ops_lock, &ts);
	}
	pthread_mutex_unlock(&ops_lock);
	return OK;
}

EXPORT int cudaEventDestroy(void *event)
{
	struct fake_event *ev = event;

	alive("cudaEventDestroy");
	if (ev == NULL)
		return ERR_INVALID_VALUE;
	pthread_mutex_lock(&ops_lock);
	if (ev->op != NULL)
		ev->op->ev = NULL; /* the record still lands; nobody hears it */
	pthread_mutex_unlock(&ops_lock);
	free(ev);
	return OK;
}

EXPORT int cudaStreamDestroy(void *stream)
{
	struct fake_stream *st = stream;

	if (st == NULL)
		return ERR_INVALID_VALUE;
	pthread_mutex_lock(&ops_lock);
	land(st, 0);
	for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
		if (streams[i] == st)
			streams[i] = NULL;
	pthread_mutex_unlock(&ops_lock);
	free(st);
	return OK;
}

EXPORT int cudaDeviceSynchronize(void)
{
	pthread_mutex_lock(&ops_lock);
	wait_turn(&legacy);
	land(&legacy, 0);
	for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
		if (streams[i] != NULL)
			land(streams[i], 0);
	pthread_mutex_unlock(&ops_lock);
	return OK;
}

EXPORT int cudaGetDevice(int *device)
{
	alive("cudaGetDevice");
	*device = current < 0 ? 0 : current;
	return OK;
}

EXPORT int cudaHostAlloc(void **p, size_t size, unsigned int flags)
{
	int err;

	(void)flags;
	err = alloc(p, size);
	if (err != OK)
		return err;
	pthread_mutex_lock(&ops_lock);
	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++)
		if (pinned[i].p == NULL) {
			pinned[i].p = *p;
			pinned[i].len = size;
			break;
		}
	pthread_mutex_unlock(&ops_lock);
	return OK;
}

EXPORT int cudaFreeHost(void *p)
{
	wait_kernels_for_free();
	pthread_mutex_lock(&ops_lock);
	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++)
		if (pinned[i].p == p)
			pinned[i].p = NULL;
	pthread_mutex_unlock(&ops_lock);
	return release(p);
}

/* Controls: a persistent kernel starts / ends on the legacy or a blocking stream (0) or a non-blocking one (1). */
EXPORT void fake_cuda_kernel_begin(int nonblocking)
{
	pthread_mutex_lock(&ops_lock);
	if (!nonblocking)
		kernel_blocking++;
	kernels_running++;
	pthread_mutex_unlock(&ops_lock);
}

EXPORT void fake_cuda_kernel_end(int nonblocking)
{
	pthread_mutex_lock(&ops_lock);
	if (!nonblocking)
		kernel_blocking--;
	kernels_running--;
	pthread_cond_broadcast(&ops_cond);
	pthread_mutex_unlock(&ops_lock);
}

/* Copies from pageable memory to the device still to land (legacy stream and streams). */
EXPORT int fake_cuda_pending(void)
{
	int n = 0;

	pthread_mutex_lock(&ops_lock);
	for (const struct op *o = legacy.head; o != NULL; o = o->next)
		n++;
	for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
		for (const struct op *o = streams[i] != NULL ? streams[i]->head : NULL; o != NULL; o = o->next)
			n++;
	pthread_mutex_unlock(&ops_lock);
	return n;
}

EXPORT const char *cudaGetErrorName(int err)
{
	switch (err) {
	case OK:
		return "cudaSuccess";
	case ERR_INVALID_VALUE:
		return "cudaErrorInvalidValue";
	case ERR_MEMORY_ALLOCATION:
		return "cudaErrorMemoryAllocation";
	case ERR_INVALID_DEVICE:
		return "cudaErrorInvalidDevice";
	case ERR_INSUFFICIENT_DRIVER:
		return "cudaErrorInsufficientDriver";
	case ERR_NOT_READY:
		return "cudaErrorNotReady";
	default:
		return "cudaErrorUnknown";
	}
}

EXPORT int cudaDeviceGetPCIBusId(char *bus, int len, int device)
{
	if (device < 0 || device >= nb_devices())
		return ERR_INVALID_DEVICE;
	if (len < 13)
		return ERR_INVALID_VALUE;
	memcpy(bus, device == 0 ? "0000:17:00.0" : "0000:65:00.0", 13);
	return OK;
}

EXPORT int cudaRuntimeGetVersion(int *v)
{
	*v = runtime_version();
	return OK;
}

EXPORT int cudaDriverGetVersion(int *v)
{
	*v = driver_version();
	return OK;
}
