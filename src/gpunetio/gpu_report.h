/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_report.h - what libdoca_gpunetio can see of this machine's GPUs, for doca-env and
 * doca_caps (softdoca's tools; not part of DOCA's API, exported in SOFTDOCA_PRIVATE).
 */
#ifndef SD_GPU_REPORT_H_
#define SD_GPU_REPORT_H_

#include <stdbool.h>

#define PRIV_DOCA_GPU_REPORT_MAX 16

struct priv_doca_gpu_report {
	bool runtime_loaded;  /* a CUDA runtime library was loaded */
	int runtime_version;  /* cudaRuntimeGetVersion, e.g. 13000; 0 when unknown */
	int driver_version;   /* cudaDriverGetVersion; 0 when there is no driver */
	int nb_gpus;	      /* GPUs doca_gpu_create can open (0 when none) */
	char why_none[384];   /* when nb_gpus == 0: one sentence saying why */
	bool dmabuf;	      /* doca_gpu_dmabuf_fd works */
	char dmabuf_why[160]; /* when !dmabuf: why */
	struct {
		char pci[16]; /* "0000:17:00.0", what doca_gpu_create takes */
		int cc_major, cc_minor;
	} gpus[PRIV_DOCA_GPU_REPORT_MAX];
};

/* Fills @out; loads the CUDA runtime as doca_gpu_create() would. Never fails: why_none says. */
__attribute__((visibility("default"))) void priv_doca_gpu_report(struct priv_doca_gpu_report *out);

#endif /* SD_GPU_REPORT_H_ */
