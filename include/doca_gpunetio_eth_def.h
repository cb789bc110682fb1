/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio_eth_def.h - GPUNetIO Ethernet definitions shared by host and device code: the
 * compile-time parameters of the device functions and the layouts of the GPU receive and send
 * queue handles (doca_eth_rxq_get_gpu_handle, doca_eth_txq_get_gpu_handle).
 *
 * softdoca's receive queue handle is its own layout (no mlx5 work or completion queues): the
 * software NIC writes packets into fixed-size slots of the packet buffer and one completion per
 * packet into a ring of the same size; the device functions (doca_gpunetio_dev_eth_rxq.cuh)
 * read them. A send queue is a ring of 64-byte descriptors the device fills and the NIC (a CPU
 * thread) takes in order, and a ring of completions the NIC writes for NOTIFY sends and errors
 * (doca_gpunetio_dev_eth_txq.cuh). Kernels reach the fields only through those functions.
 */
#ifndef DOCA_GPUNETIO_ETH_DEF_H_
#define DOCA_GPUNETIO_ETH_DEF_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Threads of a warp. */
#define DOCA_GPUNETIO_ETH_WARP_SIZE 32

#ifndef DOCA_GPUNETIO_VOLATILE
/** A read or write of @x through a volatile lvalue (exit flags shared with the CPU). */
#define DOCA_GPUNETIO_VOLATILE(x) (*(volatile __typeof__(x) *)&(x))
#endif
#ifndef DOCA_GPUNETIO_ETH_VOLATILE
/** DOCA 3.3's name of DOCA_GPUNETIO_VOLATILE. */
#define DOCA_GPUNETIO_ETH_VOLATILE(x) DOCA_GPUNETIO_VOLATILE(x)
#endif

/** The two bytes of the 16-bit @v swapped (host and device; @v is evaluated twice). */
#define DOCA_GPUNETIO_ETH_BSWAP16(v) ((uint16_t)((((uint16_t)(v)&0x00ffu) << 8) | (((uint16_t)(v)&0xff00u) >> 8)))

/** Which threads call a device function together. */
enum doca_gpu_dev_eth_exec_scope {
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD = 0, /**< each thread alone */
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP = 1,	 /**< all 32 lanes of a warp; lane 0 does the work */
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK = 2,	 /**< every thread of the block; thread 0 does the work */
};

/** Scope of the memory fences of a device function. */
enum doca_gpu_dev_eth_sync_scope {
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_SYS = 0,
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU = 1,
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA = 2,
};

/** How many threads may use one queue at the same time. */
enum doca_gpu_dev_eth_resource_sharing_mode {
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_EXCLUSIVE = 0,
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA = 1,
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU = 2,
};

/** Who tells the NIC about new work. softdoca's NIC is a CPU thread: every value behaves the same. */
enum doca_gpu_dev_eth_nic_handler {
	DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO = 0,
	DOCA_GPUNETIO_ETH_NIC_HANDLER_CPU_PROXY = 1,
	DOCA_GPUNETIO_ETH_NIC_HANDLER_GPU_SM_DB = 2,
	DOCA_GPUNETIO_ETH_NIC_HANDLER_TYPE_MAX,
};

/**
 * Memory-consistency mode of receive. softdoca's NIC publishes each completion with a
 * system-scope release after the packet bytes, so every mode behaves the same.
 */
enum doca_gpu_dev_eth_mcst_mode {
	DOCA_GPUNETIO_ETH_MCST_DISABLED = 0,
	DOCA_GPUNETIO_ETH_MCST_ENABLED = 1,
	DOCA_GPUNETIO_ETH_MCST_AUTO = 2,
};

/** Which send completions a poll reports. */
enum doca_gpu_dev_eth_cq_poll_mode {
	DOCA_GPUNETIO_ETH_CQ_POLL_ALL = 0,
	DOCA_GPUNETIO_ETH_CQ_POLL_LAST = 1,
};

/** Whether a poll waits. */
enum doca_gpu_dev_eth_wait_flags {
	DOCA_GPUNETIO_ETH_WAIT_FLAG_NB = 0, /**< non-blocking */
	DOCA_GPUNETIO_ETH_WAIT_FLAG_B = 1,  /**< blocking */
};

/** Flags of a send. */
enum doca_gpu_eth_send_flags {
	DOCA_GPUNETIO_ETH_SEND_FLAG_NONE = 0,	     /**< a completion only on error */
	DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY = 1 << 0, /**< a completion on success too */
};

/**
 * One receive completion, in the ring's slot of the same index as the packet's. The NIC writes
 * bytes and timestamp_ns, then seq with a system-scope release: seq == (uint32_t)(n + 1) says
 * that the n-th packet since start (counting from 0) is in this slot.
 */
struct doca_gpu_eth_rxq_cqe {
	uint64_t timestamp_ns; /**< arrival time on the medium */
	uint32_t bytes;	       /**< frame length */
	uint32_t seq;	       /**< written last */
};

/**
 * The GPU handle of a CYCLIC receive queue (in memory both the GPU and the CPU address).
 * Written by the host library at start, except two device-owned indices: next, the packet the
 * device takes next, and cons, the first packet whose slot the device still holds, written with
 * a system-scope release; the NIC reads cons to know which slots it may fill again (in CPU-proxy
 * mode, doca_eth_rxq_gpu_set_uar_on_cpu, only as doca_eth_rxq_gpu_cpu_proxy_progress copies it).
 *
 * DOCA 3.3's names of the same fields, for kernels that read the handle themselves: pkt_addr
 * (pkt_base), pkt_num and cqe_num (nslots: one completion per slot), max_pkt_sz (stride), cqe_ci
 * (next: the completion consumer index) and wqe_pi (cons: the slots given back to the NIC). The
 * completions themselves are softdoca's (struct doca_gpu_eth_rxq_cqe), not mlx5 CQEs.
 */
struct doca_gpu_eth_rxq {
	union {
		uint64_t pkt_base; /**< GPU address of slot 0 of the packet buffer */
		uint64_t pkt_addr; /**< DOCA 3.3's name */
	};
	struct doca_gpu_eth_rxq_cqe *cqe; /**< GPU address of the completion ring (nslots entries) */
	union {
		uint32_t stride;     /**< bytes between slots */
		uint32_t max_pkt_sz; /**< DOCA 3.3's name */
	};
	union {
		uint32_t nslots;  /**< slots (packets) in the buffer and entries in the ring */
		uint32_t pkt_num; /**< DOCA 3.3's name of the slots */
		uint32_t cqe_num; /**< DOCA 3.3's name of the ring's entries */
	};
	uint32_t pkt_mkey; /**< mkey of the packet buffer's mmap, big-endian */
	uint32_t reserved;
	union {
		uint64_t next;	 /**< device-owned */
		uint64_t cqe_ci; /**< DOCA 3.3's name */
	};
	union __attribute__((aligned(64))) {
		uint64_t cons;	 /**< device-owned, read by the NIC; own cache line */
		uint64_t wqe_pi; /**< DOCA 3.3's name */
	};
	uint8_t pad[56];
};

/** What doca_gpu_dev_eth_txq_send() and its kin return: the position of the send's descriptor. */
typedef uint64_t doca_gpu_dev_eth_ticket_t;

/** Descriptor kinds (softdoca's; DOCA's WQEs are mlx5 segments). */
enum doca_gpu_dev_eth_txq_wqe_opcode {
	DOCA_GPUNETIO_ETH_TXQ_WQE_SEND = 1, /**< send one frame (one or two segments) */
	DOCA_GPUNETIO_ETH_TXQ_WQE_WAIT = 2, /**< the NIC takes nothing after it before wait_ts */
};

/** Descriptor flag (besides enum doca_gpu_eth_send_flags): the NIC may take it without a submit. */
#define DOCA_GPUNETIO_ETH_TXQ_WQE_FLAG_SELF_DB (1u << 15)

/**
 * One send descriptor (64 bytes). The device writes every field, then seq with a system-scope
 * release: its low 16 bits are those of (position + 1). The NIC takes position p once p is below
 * the doorbell (doca_gpu_dev_eth_txq_submit) or the descriptor has FLAG_SELF_DB (the high-level
 * sends), and seq matches.
 */
struct doca_gpu_dev_eth_txq_wqe {
	uint64_t addr;	  /**< first segment (GPU address) */
	uint64_t addr2;	  /**< second segment, nbytes2 > 0 only */
	uint64_t wait_ts; /**< WAIT: doca_eth_txq_calculate_timestamp() value */
	uint32_t mkey;	  /**< first segment's mkey, big-endian */
	uint32_t nbytes;  /**< first segment's bytes */
	uint32_t mkey2;	  /**< big-endian */
	uint32_t nbytes2; /**< 0: one segment */
	uint16_t opcode;  /**< enum doca_gpu_dev_eth_txq_wqe_opcode */
	uint16_t flags;	  /**< enum doca_gpu_eth_send_flags | FLAG_SELF_DB */
	uint32_t seq;	  /**< written last */
	uint8_t pad[16];
};

/**
 * One send completion, written by the NIC for each NOTIFY send and each failed descriptor, in
 * descriptor order: wqe_idx and status, then seq = (uint32_t)(completion position + 1) with a
 * system-scope release.
 */
struct doca_gpu_eth_txq_cqe {
	uint64_t wqe_idx; /**< position of the descriptor it reports */
	uint32_t status;  /**< DOCA_SUCCESS, or the doca_error_t the send failed with */
	uint32_t seq;	  /**< written last */
};

/**
 * The GPU handle of a send queue (in memory both the GPU and the CPU address). Written by the
 * host library at start, except doorbell (device: positions below it may be sent) and cons
 * (NIC: positions below it are done and their slots free again), each on its own cache line.
 * The two reservation words are GPU memory that only GPU threads touch.
 *
 * DOCA 3.3's names of the same fields: wqe_mask and cqe_mask, cqe_num (ncqe), wqe_pi (doorbell:
 * the producer index submitted), cqe_ci (the completions polled so far: every position below it
 * was handed to a poller and found written; kept by the polls, a plain store, so with several
 * pollers at once it may lag behind).
 */
struct doca_gpu_eth_txq {
	struct doca_gpu_dev_eth_txq_wqe *wqe; /**< nwqe descriptors */
	struct doca_gpu_eth_txq_cqe *cqe;     /**< ncqe completions */
	uint64_t *reserve;		      /**< next descriptor position the high-level sends hand out */
	uint64_t *cq_reserve;		      /**< next completion position a poll takes */
	uint32_t nwqe, wqe_mask;	      /**< a power of two, at most 32768 */
	union {
		uint32_t ncqe;	  /**< a power of two */
		uint32_t cqe_num; /**< DOCA 3.3's name */
	};
	uint32_t cqe_mask;
	uint32_t nic_handler; /**< enum doca_gpu_dev_eth_nic_handler the queue was started with */
	uint32_t reserved;
	union __attribute__((aligned(64))) {
		uint64_t doorbell; /**< device-owned, read by the NIC */
		uint64_t wqe_pi;   /**< DOCA 3.3's name */
	};
	uint64_t cqe_ci; /**< device-owned (DOCA 3.3's name): completions polled so far */
	uint8_t pad0[48];
	uint64_t cons __attribute__((aligned(64))); /**< NIC-owned, read by the device */
	uint8_t pad1[56];
};

#ifdef __cplusplus
}
#endif

#endif /* DOCA_GPUNETIO_ETH_DEF_H_ */
