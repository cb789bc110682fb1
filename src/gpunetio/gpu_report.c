/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_report.c - the GPUs the loaded CUDA runtime sees (gpu_report.h), for softdoca's tools.
 */
#include <stdio.h>
#include <string.h>

#include "gpu_report.h"
#include "gpunetio_internal.h"

/* cudaDeviceAttr values (driver_types.h). */
enum { ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76 };

void priv_doca_gpu_report(struct priv_doca_gpu_report *out)
{
	const char *why = NULL;
	const struct cuda_rt *rt = cuda_rt_get(&why);
	int count = 0, err;

	memset(out, 0, sizeof(*out));
	snprintf(out->dmabuf_why, sizeof(out->dmabuf_why),
		 "softdoca registers GPU memory by address; doca_gpu_dmabuf_fd answers NOT_SUPPORTED");
	if (rt == NULL) {
		snprintf(out->why_none, sizeof(out->why_none), "%s", why);
		return;
	}
	out->runtime_loaded = true;
	if (rt->runtime_get_version != NULL)
		rt->runtime_get_version(&out->runtime_version);
	if (rt->driver_get_version != NULL)
		rt->driver_get_version(&out->driver_version);
	err = rt->get_device_count(&count);
	if (err != SD_CUDA_SUCCESS) {
		const char *hint = cuda_rt_hint(rt, err);

		snprintf(out->why_none, sizeof(out->why_none), "cudaGetDeviceCount (%s) failed with %s%s%s",
			 cuda_rt_path(), cuda_rt_err(rt, err), hint != NULL ? ": " : "", hint != NULL ? hint : "");
		return;
	}
	if (count <= 0) {
		snprintf(out->why_none, sizeof(out->why_none), "the CUDA runtime reports no GPU");
		return;
	}
	for (int d = 0; d < count && out->nb_gpus < PRIV_DOCA_GPU_REPORT_MAX; d++) {
		char bus[32] = "";

		if (rt->device_get_pci_bus_id == NULL || rt->device_get_pci_bus_id(bus, (int)sizeof(bus), d) != 0)
			snprintf(bus, sizeof(bus), "device %d", d);
		snprintf(out->gpus[out->nb_gpus].pci, sizeof(out->gpus[0].pci), "%.15s", bus);
		rt->device_get_attribute(&out->gpus[out->nb_gpus].cc_major, ATTR_CC_MAJOR, d);
		rt->device_get_attribute(&out->gpus[out->nb_gpus].cc_minor, ATTR_CC_MINOR, d);
		out->nb_gpus++;
	}
}
