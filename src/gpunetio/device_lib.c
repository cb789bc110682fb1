/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdoca_gpunetio_device.a - the library DOCA's GPUNetIO programs link for their kernels
 * (`-ldoca_gpunetio_device`, with -rdc). softdoca's device functions are header-only
 * (doca_gpunetio_dev_*.cuh over doca_gpunetio_hd.h), so the archive carries no code: it exists
 * so that those programs link unmodified.
 */
#include "sd_internal.h"

SD_PRIV const char priv_doca_gpunetio_device_note[] = "softdoca: GPUNetIO device functions are header-only";
