/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_types.h - small types shared by all DOCA libraries.
 */
#ifndef DOCA_TYPES_H_
#define DOCA_TYPES_H_

#include <inttypes.h>
#include <stdint.h>
#include <string.h> /* DOCA programs rely on DOCA headers for it (strcpy, strlen) */
#include <linux/types.h>

#include <doca_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque 8-byte user cookie, always passed by value. */
union doca_data {
	void *ptr;
	uint64_t u64;
};

/** Access rights of a doca_mmap; OR the bits into doca_mmap_set_permissions(). */
enum doca_access_flag {
	DOCA_ACCESS_FLAG_LOCAL_READ_ONLY = 0,		  /**< local device may read */
	DOCA_ACCESS_FLAG_LOCAL_READ_WRITE = (1 << 0),	  /**< local device may read and write */
	DOCA_ACCESS_FLAG_RDMA_READ = (1 << 1),		  /**< network peers may read */
	DOCA_ACCESS_FLAG_RDMA_WRITE = (1 << 2),		  /**< network peers may write */
	DOCA_ACCESS_FLAG_RDMA_ATOMIC = (1 << 3),	  /**< network peers may run atomics */
	DOCA_ACCESS_FLAG_PCI_READ_ONLY = (1 << 4),	  /**< the PCIe peer may read (export) */
	DOCA_ACCESS_FLAG_PCI_READ_WRITE = (1 << 5),	  /**< the PCIe peer may read and write */
	DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING = (1 << 6), /**< ordering hint for PCIe accesses */
};

/** PCI function kind of a device or representor. */
enum doca_pci_func_type {
	DOCA_PCI_FUNC_TYPE_PF = 0,
	DOCA_PCI_FUNC_TYPE_VF = 1,
	DOCA_PCI_FUNC_TYPE_SF = 2,
};

/** Path MTU sizes of RDMA-style queues. */
enum doca_mtu_size {
	DOCA_MTU_SIZE_256_BYTES = 0x0,
	DOCA_MTU_SIZE_512_BYTES = 0x1,
	DOCA_MTU_SIZE_1K_BYTES = 0x2,
	DOCA_MTU_SIZE_2K_BYTES = 0x3,
	DOCA_MTU_SIZE_4K_BYTES = 0x4,
	DOCA_MTU_SIZE_RAW_ETHERNET = 0x5,
};

/** Where the memory of a GPU allocation lives and which side may access it. */
enum doca_gpu_mem_type {
	DOCA_GPU_MEM_TYPE_GPU = 0,     /**< GPU memory, GPU access only */
	DOCA_GPU_MEM_TYPE_GPU_CPU = 1, /**< GPU memory, also mapped for the CPU */
	DOCA_GPU_MEM_TYPE_CPU_GPU = 2, /**< CPU (pinned host) memory, also mapped for the GPU */
};

/** How an Ethernet send queue can hold a packet until a given time. */
enum doca_eth_wait_on_time_type {
	DOCA_ETH_WAIT_ON_TIME_TYPE_NONE = 0,   /**< not supported */
	DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE = 1, /**< by the device itself */
	DOCA_ETH_WAIT_ON_TIME_TYPE_DPDK = 2,   /**< through DPDK's scheme */
};

/** An operating-system handle that can be waited on; a file descriptor on Linux. */
typedef int doca_event_handle_t;
/** The handle type used by the progress-engine notification calls. */
typedef doca_event_handle_t doca_notification_handle_t;
/** "No handle". */
#define doca_event_invalid_handle -1

/** One element of a singly linked gather list. */
struct doca_gather_list {
	void *addr;
	uint64_t len;
	struct doca_gather_list *next;
};

/** Length of an RDMA GID in bytes. */
#define DOCA_GID_BYTE_LENGTH 16

typedef __be16 doca_be16_t;
typedef __be32 doca_be32_t;
typedef __be64 doca_be64_t;

#ifdef __cplusplus
}
#endif

#endif /* DOCA_TYPES_H_ */
