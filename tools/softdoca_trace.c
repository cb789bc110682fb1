/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca-trace - summarise a task trace written with SOFTDOCA_TRACE.
 *
 *   softdoca-trace trace.json
 *
 * Prints: tasks and bytes per context, completion status counts, latency percentiles (submit
 * to end of callback, and submit to engine completion) per transfer size, and the queue depth
 * over time (in-flight tasks per context, in ten equal time slices).
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_util.h"

#define MAX_CTX 256
#define SLICES	10

struct task {
	uint64_t id;
	double submit, engine, end;
	uint64_t bytes;
	int ctx;
	char status[40];
};

struct depth {
	double ts;
	int ctx;
	int inflight;
};

/* The string member @key of @e, "" when it is missing or null (untrusted input: never NULL). */
static const char *str_of(struct json_object *e, const char *key)
{
	struct json_object *o;
	const char *v;

	if (!json_object_object_get_ex(e, key, &o) || (v = json_object_get_string(o)) == NULL)
		return "";
	return v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_task_id(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static double pct(double *v, size_t n, double p)
{
	size_t i;

	if (n == 0)
		return 0;
	i = (size_t)ceil(p / 100.0 * (double)n);
	return v[i == 0 ? 0 : i - 1];
}

static struct task *find(struct task *t, size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t[mid].id == id)
			return &t[mid];
		if (t[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "NAME\n"
		   "    softdoca-trace - summarise a softdoca task trace\n\n"
		   "SYNOPSIS\n"
		   "    softdoca-trace TRACE.json\n"
		   "    softdoca-trace --version | --help\n\n"
		   "DESCRIPTION\n"
		   "    Record a trace with SOFTDOCA_TRACE=trace.json ./your_program (open the same file in\n"
		   "    Perfetto or chrome://tracing for the timeline), then summarise it here: tasks and\n"
		   "    bytes, status counts, latency percentiles per transfer size, queue depth over time.\n\n"
		   "EXIT STATUS\n"
		   "    0 success; 1 the file is not a softdoca trace; 2 usage\n");
}

/* @s on one line: every control character a space, none at the end. */
static void one_line(char *s)
{
	size_t n = strlen(s);

	for (char *p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
}

int main(int argc, char **argv)
{
	struct json_object *root, *events;
	struct task *tasks;
	struct depth *depths;
	size_t nev, ntasks = 0, ndepth = 0, complete = 0;
	double t_min = 1e300, t_max = 0;
	uint64_t total_bytes = 0;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc == 2 && (strcmp(argv[1], "-v") == 0 || strcmp(argv[1], "--version") == 0)) {
		printf("softdoca-trace %s (DOCA %s)\n", SD_TOOL_VERSION, SD_DOCA_VERSION);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "softdoca-trace: give exactly one trace file; see softdoca-trace --help\n");
		return 2;
	}
	if (argv[1][0] == '-' && argv[1][1] != '\0') {
		fprintf(stderr, "softdoca-trace: unknown option '%s'; see softdoca-trace --help\n", argv[1]);
		return 2;
	}
	{
		/* Regular files only: json-c would block on a FIFO and read a device forever. */
		FILE *f = tool_fopen_regular(argv[1]);

		root = NULL;
		if (f == NULL) {
			fprintf(stderr, "softdoca-trace: cannot read %s: %s\n", argv[1],
				errno == EINVAL ? "not a regular file" : strerror(errno));
			return 1;
		}
		root = json_object_from_fd(fileno(f));
		fclose(f);
	}
	if (root == NULL || !json_object_object_get_ex(root, "traceEvents", &events) ||
	    !json_object_is_type(events, json_type_array)) {
		char why[256];

		/* json-c's message ends with a newline, and may hold more: one line, said once */
		snprintf(why, sizeof(why), "%s",
			 root == NULL && json_util_get_last_err() ? json_util_get_last_err() : "no traceEvents array");
		one_line(why);
		fprintf(stderr, "softdoca-trace: %s is not a trace written by SOFTDOCA_TRACE (%s)\n", argv[1], why);
		json_object_put(root);
		return 1;
	}
	nev = json_object_array_length(events);
	tasks = calloc(nev + 1, sizeof(*tasks));
	depths = calloc(nev + 1, sizeof(*depths));
	if (tasks == NULL || depths == NULL) {
		fprintf(stderr, "softdoca-trace: out of memory for %zu events\n", nev);
		free(tasks);
		free(depths);
		json_object_put(root);
		return 1;
	}
	/* Pass 1: one record per task submission ("b" of "task"). */
	for (size_t i = 0; i < nev; i++) {
		struct json_object *e = json_object_array_get_idx(events, i), *o;
		const char *ph = str_of(e, "ph"), *name = str_of(e, "name");

		if (strcmp(ph, "b") == 0 && strcmp(name, "task") == 0) {
			struct task *t = &tasks[ntasks++];

			t->id = strtoull(str_of(e, "id"), NULL, 16);
			t->submit = json_object_object_get_ex(e, "ts", &o) ? json_object_get_double(o) : 0;
			t->ctx = json_object_object_get_ex(e, "tid", &o) ? json_object_get_int(o) : 0;
			if (json_object_object_get_ex(e, "args", &o) && json_object_object_get_ex(o, "bytes", &o))
				t->bytes = (uint64_t)json_object_get_int64(o);
			t->engine = t->end = -1;
		} else if (strcmp(ph, "C") == 0 && ndepth < nev) {
			struct json_object *a;

			depths[ndepth].ts = json_object_object_get_ex(e, "ts", &o) ? json_object_get_double(o) : 0;
			sscanf(name, "inflight ctx %d", &depths[ndepth].ctx);
			if (json_object_object_get_ex(e, "args", &a) && json_object_object_get_ex(a, "inflight", &a))
				depths[ndepth].inflight = json_object_get_int(a);
			ndepth++;
		}
	}
	qsort(tasks, ntasks, sizeof(*tasks), cmp_task_id);
	/* Pass 2: engine completion, callback status and end. */
	for (size_t i = 0; i < nev; i++) {
		struct json_object *e = json_object_array_get_idx(events, i), *o;
		const char *ph, *name;
		struct task *t;

		ph = str_of(e, "ph");
		name = str_of(e, "name");
		if (*ph == '\0' || *name == '\0' || !json_object_object_get_ex(e, "id", &o))
			continue;
		t = find(tasks, ntasks, strtoull(str_of(e, "id"), NULL, 16));
		if (t == NULL)
			continue;
		double ts = json_object_object_get_ex(e, "ts", &o) ? json_object_get_double(o) : 0;

		if (strcmp(ph, "e") == 0 && strcmp(name, "engine") == 0)
			t->engine = ts;
		else if (strcmp(ph, "e") == 0 && strcmp(name, "task") == 0)
			t->end = ts;
		else if (strcmp(ph, "b") == 0 && strcmp(name, "callback") == 0 &&
			 json_object_object_get_ex(e, "args", &o) && json_object_object_get_ex(o, "status", &o))
			snprintf(t->status, sizeof(t->status), "%s",
				 json_object_get_string(o) ? json_object_get_string(o) : "");
	}
	/* Report. */
	uint64_t ctx_tasks[MAX_CTX] = {0}, ctx_bytes[MAX_CTX] = {0};
	int max_ctx = -1;

	for (size_t i = 0; i < ntasks; i++) {
		struct task *t = &tasks[i];

		if (t->end < 0)
			continue;
		complete++;
		total_bytes += t->bytes;
		if (t->ctx >= 0 && t->ctx < MAX_CTX) {
			ctx_tasks[t->ctx]++;
			ctx_bytes[t->ctx] += t->bytes;
			if (t->ctx > max_ctx)
				max_ctx = t->ctx;
		}
		if (t->submit < t_min)
			t_min = t->submit;
		if (t->end > t_max)
			t_max = t->end;
	}
	printf("trace %s: %zu task(s) submitted, %zu completed, %" PRIu64 " bytes, over %.3f ms\n", argv[1], ntasks,
	       complete, total_bytes, complete ? (t_max - t_min) / 1000.0 : 0.0);
	for (int c = 0; c <= max_ctx; c++)
		if (ctx_tasks[c] != 0)
			printf("  track %d: %" PRIu64 " task(s), %" PRIu64 " bytes\n", c, ctx_tasks[c], ctx_bytes[c]);

	/* Status counts. */
	printf("\nstatus:\n");
	for (size_t i = 0; i < ntasks; i++) {
		bool seen = false;

		if (tasks[i].end < 0)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = tasks[j].end >= 0 && strcmp(tasks[j].status, tasks[i].status) == 0;
		if (seen)
			continue;
		size_t n = 0;

		for (size_t j = i; j < ntasks; j++)
			n += tasks[j].end >= 0 && strcmp(tasks[j].status, tasks[i].status) == 0;
		printf("  %-28s %zu\n", tasks[i].status[0] ? tasks[i].status : "?", n);
	}

	/* Latency per size (powers of two). */
	printf("\nlatency in us, submit -> end of callback (engine: submit -> engine done)\n");
	printf("  %-12s %8s %10s %10s %10s %10s %12s\n", "size", "tasks", "p50", "p90", "p99", "max", "engine p50");
	double *lat = malloc((ntasks + 1) * sizeof(double)), *eng = malloc((ntasks + 1) * sizeof(double));

	for (int b = 0; b < 64 && lat && eng; b++) {
		uint64_t lo = b == 0 ? 0 : 1ull << (b - 1), hi = 1ull << b;
		size_t n = 0, ne = 0;

		for (size_t i = 0; i < ntasks; i++) {
			if (tasks[i].end < 0 || tasks[i].bytes < lo || tasks[i].bytes >= hi)
				continue;
			lat[n++] = tasks[i].end - tasks[i].submit;
			if (tasks[i].engine >= 0)
				eng[ne++] = tasks[i].engine - tasks[i].submit;
		}
		if (n == 0)
			continue;
		qsort(lat, n, sizeof(double), cmp_double);
		qsort(eng, ne, sizeof(double), cmp_double);
		char label[32];

		snprintf(label, sizeof(label), "<%" PRIu64 " B", hi);
		printf("  %-12s %8zu %10.2f %10.2f %10.2f %10.2f %12.2f\n", label, n, pct(lat, n, 50), pct(lat, n, 90),
		       pct(lat, n, 99), lat[n - 1], pct(eng, ne, 50));
	}
	free(lat);
	free(eng);

	/* Queue depth over time. */
	printf("\nqueue depth (tasks in flight) over time, %d slices: max (mean)\n", SLICES);
	for (int c = 0; c <= max_ctx && complete > 0; c++) {
		double span = (t_max - t_min) / SLICES;

		if (ctx_tasks[c] == 0)
			continue;
		printf("  track %d:", c);
		for (int s = 0; s < SLICES; s++) {
			double lo = t_min + span * s, hi = lo + span, sum = 0;
			int mx = 0, n = 0;

			for (size_t i = 0; i < ndepth; i++) {
				if (depths[i].ctx != c || depths[i].ts < lo || depths[i].ts > hi)
					continue;
				if (depths[i].inflight > mx)
					mx = depths[i].inflight;
				sum += depths[i].inflight;
				n++;
			}
			printf(" %d(%.0f)", mx, n ? sum / n : 0.0);
		}
		printf("\n");
	}
	json_object_put(root);
	free(tasks);
	free(depths);
	return 0;
}
