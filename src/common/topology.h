/*
 * topology.h - the emulated devices and their capability profiles.
 *
 * The topology comes from the embedded default or from the file named by SOFTDOCA_CONFIG,
 * parsed once (topo_get()). The parser (topo_parse) is a pure function of its input bytes
 * so it can be unit-tested and fuzzed.
 *
 * File format (INI-like; '#' or ';' start a comment; blank lines ignored):
 *
 *   [profile NAME]             capability profile; "default" always exists
 *   dma = yes|no               DMA memcpy supported
 *   max_buf_size = SIZE        bytes one memcpy task may move (suffixes K M G, powers of 1024)
 *   max_buf_list_len = N       elements in a source or destination buf list (1..1024)
 *   max_tasks = N              largest memcpy task pool per context (1..16777216)
 *   queue_depth = N            engine queue depth per context (1..16777216); a value below
 *                              the task pool makes doca_task_submit() return AGAIN when full
 *   export_pci = yes|no        mmaps on this device may be exported over PCI
 *   import_pci = yes|no        this device may import PCI exports
 *
 *   [device PCI]               one local device, e.g. [device 03:00.0]
 *   side = dpu|host            required
 *   ibdev = NAME               default mlx5_<index>
 *   iface = NAME               default p<index> (dpu) or ens<index>f0 (host)
 *   mac = aa:bb:cc:dd:ee:ff    default derived from the PCI address
 *   profile = NAME             default "default"
 *   func = pf|vf|sf            default pf
 *   sf_index = N               only with func = sf
 *   representor = PCI [vuid]   (dpu side) a representor of a host function; repeatable
 *
 *   [engine]
 *   name = auto|cpu|inline     copy engine (SOFTDOCA_ENGINE overrides)
 *   workers = N                cpu engine worker threads (1..64)
 */
#ifndef SD_TOPOLOGY_H_
#define SD_TOPOLOGY_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_types.h>

#include "sd_internal.h"

#define TOPO_MAX_NAME	  64
#define TOPO_MAX_PROFILES 32
#define TOPO_MAX_DEVICES  64
#define TOPO_MAX_REPS	  16

enum topo_side { TOPO_SIDE_DPU = 0, TOPO_SIDE_HOST = 1 };

struct topo_profile {
	char name[TOPO_MAX_NAME];
	uint8_t dma; /* 1 = memcpy supported */
	uint8_t export_pci;
	uint8_t import_pci;
	uint64_t max_buf_size;
	uint32_t max_buf_list_len;
	uint32_t max_tasks;
	uint32_t queue_depth;
};

struct topo_rep {
	uint16_t domain;
	uint8_t bus, dev, fn;
	char vuid[DOCA_DEVINFO_REP_VUID_SIZE];
};

struct topo_device {
	uint16_t domain;
	uint8_t bus, dev, fn;
	enum topo_side side;
	enum doca_pci_func_type func;
	uint32_t sf_index;
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char iface[TOPO_MAX_NAME];
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE];
	uint32_t profile; /* index into topology.profiles */
	uint32_t nb_reps;
	struct topo_rep reps[TOPO_MAX_REPS];
};

struct topology {
	uint32_t nb_profiles;
	struct topo_profile profiles[TOPO_MAX_PROFILES];
	uint32_t nb_devices;
	struct topo_device devices[TOPO_MAX_DEVICES];
	char engine[TOPO_MAX_NAME]; /* "" = not set */
	uint32_t workers;	    /* 0 = not set */
	char source[256];	    /* "embedded default" or the file path */
};

/*
 * Parses @len bytes of @text into @out (fully overwritten). On error returns
 * DOCA_ERROR_BAD_CONFIG and writes "line N: field 'F': reason" into @err (NUL-terminated,
 * truncated to @err_len). Never reads past @len; @text need not be NUL-terminated.
 */
doca_error_t topo_parse(const char *text, size_t len, struct topology *out, char *err, size_t err_len);

/* Fills @out with the embedded default topology. */
void topo_default(struct topology *out);

/*
 * The process-wide topology: the default, or SOFTDOCA_CONFIG parsed on first call.
 * NULL when the config file cannot be used (the reason is logged once, with line and field).
 */
const struct topology *topo_get(void);

/* Parses "DDDD:BB:DD.F" or "BB:DD.F" (hex, any case). 0 on success, -1 if malformed. */
int topo_parse_pci(const char *s, uint16_t *domain, uint8_t *bus, uint8_t *dev, uint8_t *fn);

#endif /* SD_TOPOLOGY_H_ */
