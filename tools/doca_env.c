/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca-env - the DOCA environment of this machine as softdoca sees it, as text or JSON.
 *
 *   doca-env [--json]
 *
 * Versions (softdoca, the DOCA API it implements) and the four-way version check (the
 * doca-common and doca-dma pkg-config modules, the headers this tool was built with, the
 * library loaded at run time) with a verdict; devices; copy engines that work here and why
 * others do not; the GPUs libdoca_gpunetio can open (or why none); the config file in use;
 * hugepages; the kernel ptrace policy that cross-process DMA depends on.
 *
 * Exit status: 0 consistent; 1 something needs attention (the verdict says what); 2 usage.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_version.h>

#include "caps_common.h"
#include "file_util.h"
#include "gpu_report.h"

#ifndef SOFTDOCA_PKGCONFIG_DIR
#define SOFTDOCA_PKGCONFIG_DIR ""
#endif

/* The executors and transports of this build (src/engines/meson.build, passed by tools/meson.build). */
#ifndef SD_EXECUTORS
#define SD_EXECUTORS "auto,cpu,inline"
#endif
#ifndef SD_TRANSPORTS
#define SD_TRANSPORTS "cma"
#endif
#define MAX_BACKENDS 16

struct backend_row {
	char name[32];
	bool ok;
	char why[400];
};

/* Splits a comma-separated list into @rows; returns how many. */
static int split_names(const char *list, struct backend_row *rows, int max)
{
	int n = 0;

	while (*list != '\0' && n < max) {
		size_t len = strcspn(list, ",");

		snprintf(rows[n].name, sizeof(rows[n].name), "%.*s", (int)len, list);
		n++;
		list += len;
		if (*list == ',')
			list++;
	}
	return n;
}

struct env {
	char pc_common[64], pc_dma[64], pc_from[512];
	const char *headers, *library;
	bool versions_ok;
	struct backend_row engines[MAX_BACKENDS], transports[MAX_BACKENDS];
	int nb_engines, nb_transports;
	const char *selected, *selected_from;
	struct backend_row selected_row; /* whether the selected engine works here, and why not */
	char cfg_engine[64];
	const char *config;
	bool config_ok;
	long huge_total, huge_free, huge_kb;
	int ptrace_scope;
	struct priv_doca_gpu_report gpu;
};

static void pc_version(const char *module, const char *dir, char *out, size_t len)
{
	char cmd[1024];
	FILE *p;

	out[0] = '\0';
	if (dir != NULL && *dir != '\0')
		snprintf(cmd, sizeof(cmd), "PKG_CONFIG_PATH='%s' pkg-config --modversion %s 2>/dev/null", dir, module);
	else
		snprintf(cmd, sizeof(cmd), "pkg-config --modversion %s 2>/dev/null", module);
	p = popen(cmd, "r");
	if (p == NULL)
		return;
	if (fgets(out, (int)len, p) == NULL)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	pclose(p);
}

/*
 * An executor works when a child process can copy with it, a transport when a child can copy
 * through it: from memory it exported and imported again (tools run the real thing).
 */
static bool engine_works(const char *self, const char *name, bool transport, char *why, size_t len)
{
	char err[1024], *line = err;
	size_t got = 0;
	int fds[2], st;
	pid_t pid;

	if (pipe(fds) != 0) {
		snprintf(why, len, "could not run the probe");
		return false;
	}
	pid = fork();
	if (pid == 0) {
		/* Its first error line says why, e.g. a SOFTDOCA_* value the library refused. */
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (!transport)
			setenv("SOFTDOCA_ENGINE", name, 1);
		setenv("DOCA_LOG_LEVEL", "error", 1);
		execl(self, self, transport ? "--probe-transport" : "--probe-engine", name, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (ssize_t r; pid > 0 && got < sizeof(err) - 1 && (r = read(fds[0], err + got, sizeof(err) - 1 - got)) > 0;)
		got += (size_t)r;
	close(fds[0]);
	err[got] = '\0';
	if (pid < 0 || waitpid(pid, &st, 0) < 0) {
		snprintf(why, len, "could not run the probe");
		return false;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return true;
	/* "[time][pid][DOCA][ERR][component] text": the text of the first line. */
	line[strcspn(line, "\n")] = '\0';
	for (char *p; (p = strstr(line, "] ")) != NULL && line[0] == '[';)
		line = p + 2;
	if (*line != '\0')
		snprintf(why, len, "a test copy failed: %.360s", line);
	else
		snprintf(why, len, "a test copy failed (exit %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return false;
}

/* --probe-engine: one small DMA copy with whatever SOFTDOCA_ENGINE says. */
int probe_engine(void);
/* --probe-transport NAME: the same copy through that transport (cma: from an export of this
 * process, imported again; cuda: through GPU-only memory). */
int probe_transport(const char *name);

static void read_config_engine(struct env *e)
{
	FILE *f = e->config ? tool_fopen_regular(e->config) : NULL;
	char line[512];
	bool in_engine = false;

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char key[64], val[64];

		if (line[0] == '[')
			in_engine = strncmp(line, "[engine]", 8) == 0;
		else if (in_engine && sscanf(line, " %63[a-z_] = %63s", key, val) == 2 && strcmp(key, "name") == 0)
			snprintf(e->cfg_engine, sizeof(e->cfg_engine), "%s", val);
	}
	fclose(f);
}

static void collect(struct env *e, const char *self)
{
	const char *env_engine = getenv("SOFTDOCA_ENGINE");
	struct doca_devinfo **list;
	uint32_t n;
	FILE *f;

	memset(e, 0, sizeof(*e));
	/* Versions: the caller's pkg-config search path first, then where softdoca was installed. */
	pc_version("doca-common", NULL, e->pc_common, sizeof(e->pc_common));
	pc_version("doca-dma", NULL, e->pc_dma, sizeof(e->pc_dma));
	snprintf(e->pc_from, sizeof(e->pc_from), "%s", getenv("PKG_CONFIG_PATH") ? getenv("PKG_CONFIG_PATH") : "");
	if (e->pc_common[0] == '\0' && SOFTDOCA_PKGCONFIG_DIR[0] != '\0') {
		pc_version("doca-common", SOFTDOCA_PKGCONFIG_DIR, e->pc_common, sizeof(e->pc_common));
		pc_version("doca-dma", SOFTDOCA_PKGCONFIG_DIR, e->pc_dma, sizeof(e->pc_dma));
		snprintf(e->pc_from, sizeof(e->pc_from), "%s", SOFTDOCA_PKGCONFIG_DIR);
	}
	e->headers = DOCA_VERSION_STRING;
	e->library = doca_version_runtime();
	e->versions_ok = strcmp(e->pc_common, e->headers) == 0 && strcmp(e->pc_dma, e->headers) == 0 &&
			 strcmp(e->library, e->headers) == 0;

	e->config = getenv("SOFTDOCA_CONFIG");
	if (e->config != NULL && *e->config == '\0')
		e->config = NULL;
	e->config_ok = doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS;
	if (e->config_ok)
		doca_devinfo_destroy_list(list);
	read_config_engine(e);
	if (env_engine != NULL && *env_engine != '\0') {
		e->selected = env_engine;
		e->selected_from = "SOFTDOCA_ENGINE";
	} else if (e->cfg_engine[0] != '\0') {
		e->selected = e->cfg_engine;
		e->selected_from = "config file";
	} else {
		e->selected = "auto";
		e->selected_from = "default";
	}
	e->nb_engines = split_names(SD_EXECUTORS, e->engines, MAX_BACKENDS);
	e->nb_transports = split_names(SD_TRANSPORTS, e->transports, MAX_BACKENDS);
	for (int i = 0; i < e->nb_engines; i++)
		e->engines[i].ok = e->config_ok && engine_works(self, e->engines[i].name, false, e->engines[i].why,
								sizeof(e->engines[i].why));
	/* The selected one: a row above, or a name no executor has (refused, say why). */
	e->selected_row.ok = false;
	snprintf(e->selected_row.why, sizeof(e->selected_row.why), "the config file is refused");
	for (int i = 0; i < e->nb_engines; i++)
		if (strcmp(e->engines[i].name, e->selected) == 0)
			e->selected_row = e->engines[i];
	if (e->config_ok && e->selected_row.name[0] == '\0')
		e->selected_row.ok =
		    engine_works(self, e->selected, false, e->selected_row.why, sizeof(e->selected_row.why));
	priv_doca_gpu_report(&e->gpu);
	for (int i = 0; i < e->nb_transports; i++) {
		struct backend_row *t = &e->transports[i];

		if (strcmp(t->name, "cuda") == 0 && e->gpu.nb_gpus == 0) {
			/* GPU memory needs a GPU: say why there is none rather than that a copy failed. */
			snprintf(t->why, sizeof(t->why), "no GPU: %s", e->gpu.why_none);
			t->ok = false;
			continue;
		}
		t->ok = e->config_ok && engine_works(self, t->name, true, t->why, sizeof(t->why));
	}

	e->huge_total = e->huge_free = e->huge_kb = -1;
	f = fopen("/proc/meminfo", "r");
	if (f != NULL) {
		char line[256];

		while (fgets(line, sizeof(line), f) != NULL) {
			sscanf(line, "HugePages_Total: %ld", &e->huge_total);
			sscanf(line, "HugePages_Free: %ld", &e->huge_free);
			sscanf(line, "Hugepagesize: %ld kB", &e->huge_kb);
		}
		fclose(f);
	}
	e->ptrace_scope = -1;
	f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
	if (f != NULL) {
		if (fscanf(f, "%d", &e->ptrace_scope) != 1)
			e->ptrace_scope = -1;
		fclose(f);
	}
}

static const char *ptrace_meaning(int scope)
{
	switch (scope) {
	case -1:
		return "no Yama module: the classic rule applies (same user may read another process's memory)";
	case 0:
		return "classic: a process of the same user may read another's memory; cross-process DMA works";
	case 1:
		return "restricted to descendants; softdoca exporters allow their importers with PR_SET_PTRACER, so "
		       "cross-process DMA works";
	case 2:
		return "admin-only (CAP_SYS_PTRACE): cross-process DMA needs that capability";
	default:
		return "no attach at all: cross-process DMA is refused by the kernel";
	}
}

/* "13.0" for CUDA's 13000; "unknown" for 0. */
static const char *cuda_version(int v, char *buf, size_t len)
{
	if (v <= 0)
		return "unknown";
	snprintf(buf, len, "%d.%d", v / 1000, v % 1000 / 10);
	return buf;
}

/* The devices' GPU queue types (what kernels can send and receive on), one line each. */
static void print_gpu_queues_text(const struct env *e)
{
	struct doca_devinfo **list;
	char rx[64], tx[64];
	uint32_t n;

	if (!e->config_ok || doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return;
	for (uint32_t i = 0; i < n; i++) {
		struct dev_caps c;

		caps_collect(list[i], &c);
		if (c.eth)
			printf(
			    "  queues on %s  gpu rxq %s  gpu txq %s  max packet %u  max burst %u  rxqs per port %u\n",
			    c.pci, caps_gpu_rxq_types(&c, rx, sizeof(rx)), caps_gpu_txq_types(&c, tx, sizeof(tx)),
			    c.eth_max_packet_size, c.eth_max_burst_size, c.eth_max_rxqs_per_port);
		else
			printf("  queues on %s  none: no Ethernet (eth.supported = no in profile %s)\n", c.pci,
			       c.profile);
	}
	doca_devinfo_destroy_list(list);
}

/* `, "queues": [...]` after the GPU report's object, one per device with Ethernet. */
static void print_gpu_queues_json(const struct env *e)
{
	struct doca_devinfo **list;
	bool first = true;
	uint32_t n;

	printf(", \"queues\": [");
	if (e->config_ok && doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS) {
		for (uint32_t i = 0; i < n; i++) {
			struct dev_caps c;

			caps_collect(list[i], &c);
			if (!c.eth)
				continue;
			printf("%s{\"pci_addr\": \"%s\", ", first ? "" : ", ", c.pci);
			caps_json_gpu_queues(&c);
			printf(", \"max_packet_size\": %u, \"max_burst_size\": %u}", c.eth_max_packet_size,
			       c.eth_max_burst_size);
			first = false;
		}
		doca_devinfo_destroy_list(list);
	}
	printf("]");
}

static void print_gpus_text(const struct env *e)
{
	const struct priv_doca_gpu_report *g = &e->gpu;
	char rv[16], dv[16];

	if (g->nb_gpus == 0) {
		printf("\ngpus (DOCA GPUNetIO): none: %s\n", g->why_none);
		print_gpu_queues_text(e);
		return;
	}
	printf("\ngpus (DOCA GPUNetIO; CUDA runtime %s, driver %s):\n",
	       cuda_version(g->runtime_version, rv, sizeof(rv)), cuda_version(g->driver_version, dv, sizeof(dv)));
	for (int i = 0; i < g->nb_gpus; i++)
		printf("  %s  sm_%d%d  doca_gpu_create(\"%s\")\n", g->gpus[i].pci, g->gpus[i].cc_major,
		       g->gpus[i].cc_minor, g->gpus[i].pci);
	printf("  dmabuf  %s%s\n", g->dmabuf ? "yes" : "no: ", g->dmabuf ? "" : g->dmabuf_why);
	print_gpu_queues_text(e);
}

static void print_text(const struct env *e)
{
	struct doca_devinfo **list;
	uint32_t n;

	printf("softdoca %s implementing DOCA %s\n\n", SOFTDOCA_VERSION_STRING, DOCA_VERSION_STRING);
	printf("version check: %s\n", e->versions_ok ? "consistent" : "MISMATCH (see below)");
	printf("  doca-common.pc   %s\n", e->pc_common[0] ? e->pc_common : "not found (set PKG_CONFIG_PATH)");
	printf("  doca-dma.pc      %s\n", e->pc_dma[0] ? e->pc_dma : "not found (set PKG_CONFIG_PATH)");
	printf("  headers          %s\n", e->headers);
	printf("  library          %s\n\n", e->library);
	printf("config: %s (%s)\n\n", e->config ? e->config : "embedded default topology",
	       e->config_ok ? "ok" : "REFUSED, see the error above");
	printf("devices:\n");
	if (e->config_ok && doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS) {
		for (uint32_t i = 0; i < n; i++) {
			struct dev_caps c;

			caps_collect(list[i], &c);
			printf("  %s  %-6s %-5s profile %-10s dma %-3s comch %-3s eth %-3s medium %s%s%s\n", c.pci,
			       c.ibdev, c.side, c.profile, c.dma_memcpy ? "yes" : "no",
			       c.comch_server || c.comch_client ? "yes" : "no", c.eth ? "yes" : "no", c.medium_desc,
			       c.wire_peer[0] ? " peer " : "", c.wire_peer);
		}
		doca_devinfo_destroy_list(list);
	}
	printf("\nengines (selected: %s, from %s%s%s):\n", e->selected, e->selected_from,
	       e->selected_row.ok ? "" : "; it does not work here: ", e->selected_row.ok ? "" : e->selected_row.why);
	for (int i = 0; i < e->nb_engines; i++)
		printf("  %-7s %s\n", e->engines[i].name, e->engines[i].ok ? "works" : e->engines[i].why);
	printf("transports (memory outside this process):\n");
	for (int i = 0; i < e->nb_transports; i++)
		printf("  %-7s %s\n", e->transports[i].name, e->transports[i].ok ? "works" : e->transports[i].why);
	print_gpus_text(e);
	printf("\n");
	if (e->huge_total >= 0)
		printf("hugepages: %ld total, %ld free, %ld kB each (softdoca does not need them)\n", e->huge_total,
		       e->huge_free, e->huge_kb);
	printf("ptrace policy: %s = %d: %s\n", "kernel.yama.ptrace_scope", e->ptrace_scope,
	       ptrace_meaning(e->ptrace_scope));
}

static void print_json(const struct env *e)
{
	struct doca_devinfo **list;
	uint32_t n;
	bool first = true;

	printf("{\n  \"softdoca_version\": \"%s\",\n  \"doca_version\": \"%s\",\n", SOFTDOCA_VERSION_STRING,
	       DOCA_VERSION_STRING);
	printf("  \"version_check\": {\"doca_common_pc\": ");
	caps_json_str(e->pc_common);
	printf(", \"doca_dma_pc\": ");
	caps_json_str(e->pc_dma);
	printf(", \"headers\": \"%s\", \"library\": \"%s\", \"verdict\": \"%s\"},\n", e->headers, e->library,
	       e->versions_ok ? "consistent" : "mismatch");
	printf("  \"config\": {\"path\": ");
	if (e->config)
		caps_json_str(e->config);
	else
		printf("null");
	printf(", \"ok\": %s},\n  \"devices\": [", e->config_ok ? "true" : "false");
	if (e->config_ok && doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS) {
		for (uint32_t i = 0; i < n; i++) {
			struct dev_caps c;

			caps_collect(list[i], &c);
			printf("%s\n    {\"pci_addr\": \"%s\", \"ibdev\": ", first ? "" : ",", c.pci);
			caps_json_str(c.ibdev);
			printf(", \"side\": \"%s\", \"dma\": %s, \"comch\": %s, \"eth\": %s, \"profile\": ", c.side,
			       c.dma_memcpy ? "true" : "false", c.comch_server || c.comch_client ? "true" : "false",
			       c.eth ? "true" : "false");
			caps_json_str(c.profile);
			printf(", \"medium\": \"%s\", \"wire_peer\": ", c.medium);
			if (c.wire_peer[0])
				caps_json_str(c.wire_peer);
			else
				printf("null");
			caps_json_ifname(&c);
			printf("}");
			first = false;
		}
		doca_devinfo_destroy_list(list);
	}
	printf("\n  ],\n  \"engines\": {\"selected\": ");
	caps_json_str(e->selected);
	printf(", \"selected_from\": \"%s\", \"selected_works\": %s, \"selected_why_not\": ", e->selected_from,
	       e->selected_row.ok ? "true" : "false");
	if (e->selected_row.ok)
		printf("null");
	else
		caps_json_str(e->selected_row.why);
	printf(", \"available\": [");
	first = true;
	for (int i = 0; i < e->nb_engines; i++)
		if (e->engines[i].ok) {
			printf("%s\"%s\"", first ? "" : ", ", e->engines[i].name);
			first = false;
		}
	printf("], \"unavailable\": {");
	first = true;
	for (int i = 0; i < e->nb_engines; i++)
		if (!e->engines[i].ok) {
			printf("%s\"%s\": ", first ? "" : ", ", e->engines[i].name);
			caps_json_str(e->engines[i].why);
			first = false;
		}
	printf("}},\n  \"gpus\": ");
	caps_json_gpus(&e->gpu, false);
	print_gpu_queues_json(e);
	printf("},\n  \"transports\": {\"available\": [");
	first = true;
	for (int i = 0; i < e->nb_transports; i++)
		if (e->transports[i].ok) {
			printf("%s\"%s\"", first ? "" : ", ", e->transports[i].name);
			first = false;
		}
	printf("], \"unavailable\": {");
	first = true;
	for (int i = 0; i < e->nb_transports; i++)
		if (!e->transports[i].ok) {
			printf("%s\"%s\": ", first ? "" : ", ", e->transports[i].name);
			caps_json_str(e->transports[i].why);
			first = false;
		}
	printf("}},\n  \"hugepages\": {\"total\": %ld, \"free\": %ld, \"size_kb\": %ld},\n", e->huge_total,
	       e->huge_free, e->huge_kb);
	printf("  \"ptrace\": {\"yama_ptrace_scope\": %d, \"meaning\": ", e->ptrace_scope);
	caps_json_str(ptrace_meaning(e->ptrace_scope));
	printf("}\n}\n");
}

int main(int argc, char **argv)
{
	char self[4096];
	struct env e;
	bool json = false;
	ssize_t n;

	if (argc == 3 && strcmp(argv[1], "--probe-engine") == 0)
		return probe_engine();
	if (argc == 3 && strcmp(argv[1], "--probe-transport") == 0)
		return probe_transport(argv[2]);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = true;
		} else if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--version") == 0) {
			printf("doca-env %s (DOCA %s)\n", SD_TOOL_VERSION, SD_DOCA_VERSION);
			return 0;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			printf(
			    "NAME\n    doca-env - the DOCA environment as softdoca sees it\n\n"
			    "SYNOPSIS\n    doca-env [--json]\n    doca-env --version | --help\n\n"
			    "DESCRIPTION\n    Versions and the four-way version check (doca-common.pc, doca-dma.pc,\n"
			    "    headers, library), devices, engines that work here and why others do not,\n"
			    "    the config file in use, hugepages and the kernel ptrace policy.\n\n"
			    "OPTIONS\n"
			    "    --json                the same as one JSON document\n"
			    "    -v, --version         print the version and exit\n"
			    "    -h, --help            print this help and exit\n\n"
			    "EXIT STATUS\n    0 consistent; 1 a version mismatch, an unusable config or a selected "
			    "engine that\n"
			    "    does not work here (a SOFTDOCA_* value refused, for one); 2 usage\n");
			return 0;
		} else {
			fprintf(stderr, "doca-env: unknown argument '%s'; see doca-env --help\n", argv[i]);
			return 2;
		}
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return 1;
	self[n] = '\0';
	collect(&e, self);
	if (json)
		print_json(&e);
	else
		print_text(&e);
	return e.versions_ok && e.config_ok && e.selected_row.ok ? 0 : 1;
}
