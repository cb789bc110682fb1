/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_types.h includes <stdint.h> and, on Linux, <linux/types.h>. */
#include <doca_types.h>

uint64_t types_use(struct doca_gather_list *list);
uint64_t types_use(struct doca_gather_list *list)
{
	union doca_data d;
	doca_be32_t be = (__be32)0; /* <linux/types.h> */
	__u16 raw = 1;
	doca_notification_handle_t h = doca_event_invalid_handle;
	enum doca_mtu_size mtu = DOCA_MTU_SIZE_1K_BYTES;
	enum doca_gpu_mem_type mem = DOCA_GPU_MEM_TYPE_GPU_CPU;
	enum doca_eth_wait_on_time_type wot = DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE;
	uint8_t gid[DOCA_GID_BYTE_LENGTH];

	d.u64 = list != NULL ? list->len : UINT64_C(0);
	gid[0] = (uint8_t)(raw + (uint16_t)be);
	return d.u64 + (uint64_t)(h + 1) + (uint64_t)mtu + (uint64_t)mem + (uint64_t)wot + gid[0];
}
