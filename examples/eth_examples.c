/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_examples.c - what the DOCA Ethernet examples share (eth_examples.h): the command line,
 * opening the device, the frames they send, the line a receiver prints per frame, and the
 * DOCA Flow root pipe the receivers steer with.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_argp.h>
#include <doca_bitfield.h>
#include <doca_dev.h>
#include <doca_eth_rxq.h>
#include <doca_eth_txq.h>
#include <doca_flow.h>
#include <doca_log.h>

#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_EXAMPLES);

/* ---- command line ---- */

void eth_example_cfg_init(struct eth_example_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	strcpy(cfg->pci_addr, "03:00.0");
	memset(cfg->dst_mac, 0xff, sizeof(cfg->dst_mac));
	cfg->nb_frames = 16;
	cfg->size = 1024;
	cfg->batch = 16;
	cfg->mss = 1460;
	cfg->timeout_ms = 5000;
}

static doca_error_t pci_cb(void *param, void *config)
{
	struct eth_example_cfg *cfg = config;
	const char *addr = param;

	if (strlen(addr) >= sizeof(cfg->pci_addr)) {
		DOCA_LOG_ERR("PCI address '%s' is too long; use BB:DD.F or DDDD:BB:DD.F", addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(cfg->pci_addr, addr);
	return DOCA_SUCCESS;
}

static doca_error_t mac_cb(void *param, void *config)
{
	struct eth_example_cfg *cfg = config;
	const char *s = param;
	unsigned int b[6];
	char end;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &end) != 6 ||
	    strlen(s) != 17) {
		DOCA_LOG_ERR("MAC address '%s' is not of the form XX:XX:XX:XX:XX:XX", s);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (int i = 0; i < 6; i++)
		cfg->dst_mac[i] = (uint8_t)b[i];
	return DOCA_SUCCESS;
}

/* An integer option in [lo, hi]. */
static doca_error_t int_in(const void *param, const char *what, int lo, int hi, uint32_t *out)
{
	int v = *(const int *)param;

	if (v < lo || v > hi) {
		DOCA_LOG_ERR("%s %d is outside %d..%d", what, v, lo, hi);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*out = (uint32_t)v;
	return DOCA_SUCCESS;
}

static doca_error_t num_cb(void *param, void *config)
{
	return int_in(param, "number of frames", 1, (int)ETH_EXAMPLE_MAX_FRAMES,
		      &((struct eth_example_cfg *)config)->nb_frames);
}

static doca_error_t size_cb(void *param, void *config)
{
	/* The senders check it against what they send (a frame, or an LSO payload). */
	return int_in(param, "size", 1, (int)ETH_EXAMPLE_MAX_LSO, &((struct eth_example_cfg *)config)->size);
}

static doca_error_t batch_cb(void *param, void *config)
{
	return int_in(param, "batch size", 1, (int)ETH_EXAMPLE_MAX_BATCH, &((struct eth_example_cfg *)config)->batch);
}

static doca_error_t mss_cb(void *param, void *config)
{
	return int_in(param, "MSS", 1, ETH_EXAMPLE_MAX_FRAME - ETH_EXAMPLE_LSO_HDR,
		      &((struct eth_example_cfg *)config)->mss);
}

static doca_error_t timeout_cb(void *param, void *config)
{
	return int_in(param, "timeout (ms)", 1, 3600 * 1000, &((struct eth_example_cfg *)config)->timeout_ms);
}

static doca_error_t room(const void *param, const char *what, uint16_t *out)
{
	uint32_t v;
	doca_error_t ret = int_in(param, what, 0, 1024, &v);

	if (ret == DOCA_SUCCESS)
		*out = (uint16_t)v;
	return ret;
}

static doca_error_t headroom_cb(void *param, void *config)
{
	return room(param, "headroom", &((struct eth_example_cfg *)config)->headroom);
}

static doca_error_t tailroom_cb(void *param, void *config)
{
	return room(param, "tailroom", &((struct eth_example_cfg *)config)->tailroom);
}

static doca_error_t flow_cb(void *param, void *config)
{
	((struct eth_example_cfg *)config)->flow = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t ts_cb(void *param, void *config)
{
	((struct eth_example_cfg *)config)->timestamp = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t quiet_cb(void *param, void *config)
{
	((struct eth_example_cfg *)config)->quiet = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t add_param(const char *s, const char *l, const char *desc, enum doca_argp_type type,
			      doca_argp_param_cb_t cb)
{
	struct doca_argp_param *p;
	doca_error_t ret = doca_argp_param_create(&p);

	if (ret != DOCA_SUCCESS)
		return ret;
	doca_argp_param_set_short_name(p, s);
	doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_description(p, desc);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	ret = doca_argp_register_param(p);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("cannot register option --%s: %s", l, doca_error_get_descr(ret));
	return ret;
}

static doca_error_t register_params(unsigned int opts)
{
	doca_error_t ret;

	ret = add_param("p", "pci-addr", "device PCI address (default: receivers 03:00.0, senders 03:00.1)",
			DOCA_ARGP_TYPE_STRING, pci_cb);
	if (ret == DOCA_SUCCESS)
		ret = add_param("n", "num-frames", "frames to send or to receive; LSO senders: messages (default 16)",
				DOCA_ARGP_TYPE_INT, num_cb);
	if (ret == DOCA_SUCCESS)
		ret = add_param("q", "quiet", "no line per frame, only the summary", DOCA_ARGP_TYPE_BOOLEAN, quiet_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_SIZE))
		ret = add_param("s", "size",
				(opts & ETH_OPT_MSS) ? "payload bytes per LSO message (default 4000)"
						     : "frame size in bytes, 60..1514 (default 1024)",
				DOCA_ARGP_TYPE_INT, size_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_MAC))
		ret = add_param("m", "mac-addr", "destination MAC address (default FF:FF:FF:FF:FF:FF)",
				DOCA_ARGP_TYPE_STRING, mac_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_BATCH))
		ret = add_param("b", "batch", "tasks per batch, 1..128 (default 16)", DOCA_ARGP_TYPE_INT, batch_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_MSS))
		ret =
		    add_param("mss", "mss", "TCP payload bytes per segment (default 1460)", DOCA_ARGP_TYPE_INT, mss_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_RECV))
		ret = add_param("w", "timeout", "give up this many ms after the last frame (default 5000)",
				DOCA_ARGP_TYPE_INT, timeout_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_RECV))
		ret = add_param("f", "flow",
				"steer with a DOCA Flow root pipe (RSS to the queue, pkt_meta 1234) instead of taking "
				"queue 0's frames",
				DOCA_ARGP_TYPE_BOOLEAN, flow_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_RECV))
		ret = add_param("ts", "timestamp", "print each frame's arrival time", DOCA_ARGP_TYPE_BOOLEAN, ts_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_ROOM))
		ret = add_param("hr", "headroom", "bytes free before each frame in its stride (default 0)",
				DOCA_ARGP_TYPE_INT, headroom_cb);
	if (ret == DOCA_SUCCESS && (opts & ETH_OPT_ROOM))
		ret = add_param("tr", "tailroom", "bytes free after each frame in its stride (default 0)",
				DOCA_ARGP_TYPE_INT, tailroom_cb);
	return ret;
}

doca_error_t eth_example_begin(int argc, char **argv, unsigned int opts, struct eth_example_cfg *cfg)
{
	struct doca_log_backend *sdk_log;
	doca_error_t ret;

	ret = doca_log_backend_create_standard();
	if (ret == DOCA_SUCCESS)
		ret = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (ret == DOCA_SUCCESS)
		ret = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_init(NULL, cfg);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = register_params(opts);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	if (ret != DOCA_SUCCESS)
		doca_argp_destroy();
	return ret;
}

/* ---- devices, time ---- */

doca_error_t eth_example_open_device(const char *pci_addr, struct doca_dev **dev)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	doca_error_t ret = doca_devinfo_create_list(&list, &n);

	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot list devices: %s", doca_error_get_descr(ret));
		return ret;
	}
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci_addr, &eq) != DOCA_SUCCESS || !eq)
			continue;
		if (doca_eth_txq_cap_is_type_supported(list[i], DOCA_ETH_TXQ_TYPE_REGULAR,
						       DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU) != DOCA_SUCCESS ||
		    doca_eth_rxq_cap_is_type_supported(list[i], DOCA_ETH_RXQ_TYPE_REGULAR,
						       DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU) != DOCA_SUCCESS) {
			DOCA_LOG_ERR("device %s has no Ethernet queues (set eth.supported = yes in its profile)",
				     pci_addr);
			ret = DOCA_ERROR_NOT_SUPPORTED;
			break;
		}
		ret = doca_dev_open(list[i], dev);
		break;
	}
	if (ret == DOCA_ERROR_NOT_FOUND)
		DOCA_LOG_ERR("no device %s (try doca_caps --list-devs)", pci_addr);
	doca_devinfo_destroy_list(list);
	return ret;
}

doca_error_t eth_example_gpu_mmap(struct doca_dev *dev, void *addr, size_t len, struct doca_mmap **mmap)
{
	doca_error_t ret = doca_mmap_create(mmap);

	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(*mmap, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(*mmap, addr, len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(*mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(*mmap);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("mmap of %zu bytes of packet memory: %s", len, doca_error_get_descr(ret));
	return ret;
}

void eth_example_wait_idle(struct doca_pe *pe, struct doca_ctx *ctx)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	while (doca_ctx_get_state(ctx, &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE)
		doca_pe_progress(pe);
}

doca_error_t eth_example_stop(struct doca_pe *pe, struct doca_ctx *ctx, doca_error_t ret)
{
	doca_error_t tmp = doca_ctx_stop(ctx);

	if (tmp != DOCA_SUCCESS && tmp != DOCA_ERROR_IN_PROGRESS && ret == DOCA_SUCCESS)
		ret = tmp;
	eth_example_wait_idle(pe, ctx);
	return ret;
}

void eth_example_release(struct doca_pe *pe, struct doca_buf_inventory *inv, struct doca_mmap *mmap)
{
	if (pe != NULL)
		doca_pe_destroy(pe);
	if (inv != NULL) {
		doca_buf_inventory_stop(inv);
		doca_buf_inventory_destroy(inv);
	}
	if (mmap != NULL) {
		doca_mmap_stop(mmap);
		doca_mmap_destroy(mmap);
	}
}

void eth_example_receive_until(struct doca_pe *pe, const uint32_t *received, const doca_error_t *status,
			       const struct eth_example_cfg *cfg)
{
	uint64_t deadline = eth_example_now_ms() + cfg->timeout_ms;
	uint32_t last = *received;

	while (*received < cfg->nb_frames && *status == DOCA_SUCCESS && eth_example_now_ms() < deadline) {
		doca_pe_progress(pe);
		if (*received != last) {
			last = *received;
			deadline = eth_example_now_ms() + cfg->timeout_ms; /* the timeout counts from the last frame */
		}
	}
}

void eth_example_src_mac(struct doca_dev *dev, uint8_t mac[6])
{
	static const uint8_t fallback[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};

	if (doca_devinfo_get_mac_addr(doca_dev_as_devinfo(dev), mac, 6) != DOCA_SUCCESS)
		memcpy(mac, fallback, 6);
}

uint64_t eth_example_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- frames ---- */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

void eth_example_fill_frame(uint8_t *f, uint32_t size, uint32_t i, const uint8_t dst_mac[6], const uint8_t src_mac[6])
{
	memcpy(f, dst_mac, 6);
	memcpy(f + 6, src_mac, 6);
	put16(f + 12, 0x88b5); /* local experimental EtherType */
	for (uint32_t k = 14; k < size; k++)
		f[k] = (uint8_t)(i + k - 14);
}

void eth_example_fill_lso(uint8_t *hdr, uint8_t *payload_buf, uint32_t payload, uint32_t i, const uint8_t dst_mac[6],
			  const uint8_t src_mac[6])
{
	uint8_t *ip = hdr + 14, *tcp = ip + 20;

	memset(hdr, 0, ETH_EXAMPLE_LSO_HDR);
	memcpy(hdr, dst_mac, 6);
	memcpy(hdr + 6, src_mac, 6);
	put16(hdr + 12, 0x0800);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t)(40 + (payload < 65495 ? payload : 65495))); /* each segment gets its own */
	put16(ip + 4, (uint16_t)(0x100 * i));
	put16(ip + 6, 0x4000); /* DF */
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	put16(tcp, 40000);
	put16(tcp + 2, 5001);
	put32(tcp + 4, ETH_EXAMPLE_TCP_SEQ0 + i * payload);
	tcp[12] = 5 << 4;
	tcp[13] = 0x18; /* PSH ACK */
	put16(tcp + 14, 65535);
	for (uint32_t k = 0; k < payload; k++)
		payload_buf[k] = (uint8_t)(i + k);
}

/* Appends to the line at @buf (@len bytes, @used of them taken); a line cut short stays cut. */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + (size_t)n < len - 1 ? *used + (size_t)n : len - 1;
}

void eth_example_print_frame(uint32_t idx, const uint8_t *f, size_t len, const uint32_t *meta, uint64_t ts)
{
	char line[320];
	size_t used = 0;

	if (len < 14) {
		DOCA_LOG_INFO("frame %u: %zu bytes (runt)", idx, len);
		return;
	}
	append(line, sizeof(line), &used,
	       "frame %u: %zu bytes, %02x:%02x:%02x:%02x:%02x:%02x > %02x:%02x:%02x:%02x:%02x:%02x, type 0x%04x", idx,
	       len, f[6], f[7], f[8], f[9], f[10], f[11], f[0], f[1], f[2], f[3], f[4], f[5], get16(f + 12));
	if (get16(f + 12) == 0x0800 && len >= 34 && (f[14] >> 4) == 4) {
		const uint8_t *ip = f + 14;
		size_t ihl = (size_t)(ip[0] & 0x0f) * 4;

		append(line, sizeof(line), &used, ", ipv4 %u.%u.%u.%u > %u.%u.%u.%u len %u id %u", ip[12], ip[13],
		       ip[14], ip[15], ip[16], ip[17], ip[18], ip[19], get16(ip + 2), get16(ip + 4));
		if (ip[9] == 6 && ihl >= 20 && len >= 14 + ihl + 20) {
			const uint8_t *tcp = ip + ihl;

			append(line, sizeof(line), &used, ", tcp %u > %u seq %" PRIu32 " flags 0x%02x", get16(tcp),
			       get16(tcp + 2), get32(tcp + 4), tcp[13]);
		}
	}
	if (meta != NULL)
		append(line, sizeof(line), &used, ", pkt_meta %u", *meta);
	if (ts != 0)
		append(line, sizeof(line), &used, ", at %" PRIu64 " ns", ts);
	DOCA_LOG_INFO("%s", line);
}

/* ---- DOCA Flow ---- */

doca_error_t eth_example_flow_start(struct doca_dev *dev, uint16_t queue_id, struct eth_example_flow *f)
{
	static uint16_t queues[1];
	struct doca_flow_cfg *fcfg = NULL;
	struct doca_flow_port_cfg *pcfg = NULL;
	struct doca_flow_pipe_cfg *pipe_cfg = NULL;
	struct doca_flow_match match;
	struct doca_flow_actions actions, *actions_arr[1] = {&actions};
	struct doca_flow_fwd fwd, miss;
	doca_error_t ret, tmp;

	memset(f, 0, sizeof(*f));
	ret = doca_flow_cfg_create(&fcfg);
	if (ret != DOCA_SUCCESS)
		goto fail;
	ret = doca_flow_cfg_set_pipe_queues(fcfg, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_cfg_set_mode_args(fcfg, "vnf,hws");
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_cfg_set_nr_counters(fcfg, 1024);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_init(fcfg);
	tmp = doca_flow_cfg_destroy(fcfg);
	if (ret == DOCA_SUCCESS)
		ret = tmp;
	if (ret != DOCA_SUCCESS)
		goto fail;
	f->inited = true;

	ret = doca_flow_port_cfg_create(&pcfg);
	if (ret != DOCA_SUCCESS)
		goto fail;
	ret = doca_flow_port_cfg_set_port_id(pcfg, 0);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_port_cfg_set_dev(pcfg, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_port_start(pcfg, &f->port);
	tmp = doca_flow_port_cfg_destroy(pcfg);
	if (ret == DOCA_SUCCESS)
		ret = tmp;
	if (ret != DOCA_SUCCESS)
		goto fail;

	memset(&match, 0, sizeof(match)); /* nothing matched: every frame */
	memset(&actions, 0, sizeof(actions));
	actions.meta.pkt_meta = DOCA_HTOBE32(ETH_EXAMPLE_PKT_META);
	queues[0] = queue_id;
	memset(&fwd, 0, sizeof(fwd));
	fwd.type = DOCA_FLOW_FWD_RSS;
	fwd.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	fwd.rss.queues_array = queues;
	fwd.rss.nr_queues = 1;
	fwd.rss.outer_flags = DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP | DOCA_FLOW_RSS_TCP;
	memset(&miss, 0, sizeof(miss));
	miss.type = DOCA_FLOW_FWD_DROP;

	ret = doca_flow_pipe_cfg_create(&pipe_cfg, f->port);
	if (ret != DOCA_SUCCESS)
		goto fail;
	ret = doca_flow_pipe_cfg_set_name(pipe_cfg, "ROOT_PIPE");
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_pipe_cfg_set_type(pipe_cfg, DOCA_FLOW_PIPE_BASIC);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_pipe_cfg_set_is_root(pipe_cfg, true);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_pipe_cfg_set_match(pipe_cfg, &match, NULL);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_pipe_cfg_set_actions(pipe_cfg, actions_arr, NULL, NULL, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_pipe_create(pipe_cfg, &fwd, &miss, &f->root);
	doca_flow_pipe_cfg_destroy(pipe_cfg);
	if (ret != DOCA_SUCCESS)
		goto fail;
	ret = doca_flow_pipe_basic_add_entry(0, f->root, &match, 0, &actions, NULL, NULL, 0, NULL, &f->entry);
	if (ret == DOCA_SUCCESS)
		ret = doca_flow_entries_process(f->port, 0, 10000, 1);
	if (ret != DOCA_SUCCESS)
		goto fail;
	return DOCA_SUCCESS;
fail:
	DOCA_LOG_ERR("cannot steer with DOCA Flow: %s", doca_error_get_descr(ret));
	eth_example_flow_stop(f);
	return ret;
}

void eth_example_flow_stop(struct eth_example_flow *f)
{
	if (f->root != NULL)
		doca_flow_pipe_destroy(f->root);
	if (f->port != NULL)
		doca_flow_port_stop(f->port);
	if (f->inited)
		doca_flow_destroy();
	memset(f, 0, sizeof(*f));
}
