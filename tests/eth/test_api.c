/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_api.c - doca_eth_rxq / doca_eth_txq control path: capabilities from the profile, every
 * documented rejection (each one logged line naming the rule), configuration only while IDLE,
 * queue ids only while RUNNING, and the lifecycle create -> start -> stop -> destroy.
 */
#include "eth_test.h"

static void nop_send(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void nop_recv(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

static void nop_lso(struct doca_eth_txq_task_lso_send *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(t));
}

static void nop_event(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data ud)
{
	(void)ev;
	(void)ud;
	doca_buf_dec_refcount(pkt, NULL);
}

/* A profile without Ethernet: capabilities say so, creation is refused. */
static int no_eth(void *arg)
{
	char *path = sd_tmpfile("no-eth.conf", "[profile default]\neth.supported = no\n");
	struct doca_devinfo **list = NULL;
	struct doca_eth_txq *txq;
	struct doca_eth_rxq *rxq;
	struct doca_dev *dev;
	uint32_t n = 0;

	(void)arg;
	sd_setenv("SOFTDOCA_CONFIG", path);
	sd_setenv("SOFTDOCA_SIDE", "all");
	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(n > 0);
	CHECK_ERR(
	    doca_eth_txq_cap_is_type_supported(list[0], DOCA_ETH_TXQ_TYPE_REGULAR, DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU),
	    DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(
	    doca_eth_rxq_cap_is_type_supported(list[0], DOCA_ETH_RXQ_TYPE_REGULAR, DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU),
	    DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_eth_txq_cap_is_l3_chksum_offload_supported(list[0]), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_devinfo_destroy_list(list));
	dev = sd_open_dev(DEV_A);
	CHECK_ERR(doca_eth_txq_create(dev, 32, &txq), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_eth_rxq_create(dev, 32, 1514, &rxq), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_dev_close(dev));
	free(path);
	return 0;
}

static void caps(struct doca_dev *dev)
{
	struct doca_devinfo *di = doca_dev_as_devinfo(dev);
	enum doca_eth_wait_on_time_type wot;
	uint32_t u32 = 0;
	uint16_t u16 = 0;
	uint8_t u8 = 0;

	CHECK_OK(doca_eth_txq_cap_is_type_supported(di, DOCA_ETH_TXQ_TYPE_REGULAR, DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU));
	/* GPU send queues: tests/gpunetio/test_eth_txq.c */
	CHECK_OK(doca_eth_txq_cap_is_type_supported(di, DOCA_ETH_TXQ_TYPE_REGULAR, DOCA_ETH_TXQ_DATA_PATH_TYPE_GPU));
	CHECK_ERR(doca_eth_txq_cap_is_type_supported(di, (enum doca_eth_txq_type)7, DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_rxq_cap_is_type_supported(di, DOCA_ETH_RXQ_TYPE_REGULAR, DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU));
	CHECK_OK(
	    doca_eth_rxq_cap_is_type_supported(di, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL, DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU));
	CHECK_ERR(doca_eth_rxq_cap_is_type_supported(di, DOCA_ETH_RXQ_TYPE_CYCLIC, DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_eth_rxq_cap_is_type_supported(NULL, DOCA_ETH_RXQ_TYPE_REGULAR, DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU),
		  DOCA_ERROR_INVALID_VALUE);
	/* The profile's eth.* values (built-in defaults: burst 65536, packet 9216). */
	CHECK_OK(doca_eth_rxq_cap_get_max_burst_size(di, &u32));
	CHECK_EQ(u32, 65536);
	CHECK_OK(doca_eth_rxq_cap_get_max_packet_size(di, &u32));
	CHECK_EQ(u32, 9216);
	CHECK_OK(doca_eth_txq_cap_get_max_burst_size(di, 1, 0, &u32));
	CHECK_EQ(u32, 65536);
	CHECK_ERR(doca_eth_txq_cap_get_max_burst_size(di, 1000, 0, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_cap_get_max_burst_size(di, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_rxq_cap_get_max_metadata_num(di, &u8));
	CHECK(u8 >= 1);
	CHECK_OK(doca_eth_rxq_cap_get_max_packet_headroom(di, &u16));
	CHECK(u16 >= 64);
	CHECK_OK(doca_eth_txq_cap_get_max_lso_header_size(di, &u16));
	CHECK(u16 >= 128);
	CHECK_OK(doca_eth_txq_cap_get_max_send_buf_list_len(di, &u32));
	CHECK(u32 >= 2);
	CHECK_OK(doca_eth_txq_cap_get_max_lso_msg_size(di, &u32));
	CHECK(u32 >= 65536);
	CHECK_OK(doca_eth_txq_cap_is_l4_chksum_offload_supported(di));
	CHECK_OK(doca_eth_txq_cap_get_wait_on_time_offload_supported(di, &wot));
	CHECK_EQ(wot, DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE); /* GPU queues' wait descriptors */
}

static void txq_rules(struct doca_dev *dev, struct doca_pe *pe)
{
	struct doca_eth_txq *txq, *bad = NULL;
	struct doca_eth_txq_task_send *t[3];
	struct doca_eth_txq_task_lso_send *lt;
	struct doca_gpu_eth_txq *gpu;
	uint64_t wot;
	uint16_t id;
	union doca_data ud = {.u64 = 0};

	CHECK_ERR(doca_eth_txq_create(NULL, 32, &txq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_create(dev, 0, &txq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_create(dev, 65537, &txq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_create(dev, 32, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(bad == NULL);
	CHECK_OK(doca_eth_txq_create(dev, 32, &txq));
	CHECK(doca_eth_txq_as_doca_ctx(txq) != NULL);
	CHECK(doca_eth_txq_as_doca_ctx(NULL) == NULL);
	CHECK_ERR(doca_eth_txq_set_type(txq, (enum doca_eth_txq_type)1), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_txq_set_type(txq, DOCA_ETH_TXQ_TYPE_REGULAR));
	CHECK_ERR(doca_eth_txq_set_max_send_buf_list_len(txq, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_set_max_send_buf_list_len(txq, 1000), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_set_mss(txq, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_set_max_lso_header_size(txq, 1000), DOCA_ERROR_INVALID_VALUE);
	/* Wait-on-time and the handle belong to GPU queues (tests/gpunetio/test_eth_txq.c). */
	CHECK_ERR(doca_eth_txq_calculate_timestamp(txq, 1, &wot), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_eth_txq_get_gpu_handle(txq, &gpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_eth_txq_task_send_set_conf(txq, NULL, nop_send, 2), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_task_send_set_conf(txq, nop_send, nop_send, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_txq_task_send_set_conf(txq, nop_send, nop_send, 8193), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, nop_send, nop_send, 2));
	CHECK_ERR(doca_eth_txq_apply_queue_id(txq, 0), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_get_flow_queue_id(txq, &id), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_task_send_allocate_init(txq, NULL, ud, &t[0]), DOCA_ERROR_BAD_STATE);

	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));
	/* Configuration is for IDLE queues. */
	CHECK_ERR(doca_eth_txq_set_mss(txq, 1000), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_set_l3_chksum_offload(txq, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_task_send_set_conf(txq, nop_send, nop_send, 2), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_txq_destroy(txq), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_eth_txq_apply_queue_id(txq, 3));
	CHECK_OK(doca_eth_txq_get_flow_queue_id(txq, &id));
	CHECK_EQ(id, 3);
	/* The pool: two tasks, then NO_MEMORY; an unconfigured kind is NOT_PERMITTED. */
	CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, NULL, ud, &t[0]));
	CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, NULL, ud, &t[1]));
	CHECK_ERR(doca_eth_txq_task_send_allocate_init(txq, NULL, ud, &t[2]), DOCA_ERROR_NO_MEMORY);
	CHECK_ERR(doca_eth_txq_task_lso_send_allocate_init(txq, NULL, NULL, ud, &lt), DOCA_ERROR_NOT_PERMITTED);
	/* A task without a buf is refused at try_submit. */
	CHECK_ERR(doca_task_try_submit(doca_eth_txq_task_send_as_doca_task(t[0])), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t[0]));
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t[1]));
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	/* Configured again and restarted: LSO now. */
	CHECK_OK(doca_eth_txq_task_lso_send_set_conf(txq, nop_lso, nop_lso, 1));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_eth_txq_task_lso_send_allocate_init(txq, NULL, NULL, ud, &lt));
	doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(lt));
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(txq));
	CHECK_ERR(doca_eth_txq_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void rxq_rules(struct doca_dev *dev, struct doca_pe *pe, struct doca_mmap *mm)
{
	struct doca_eth_rxq *rxq, *rxq2;
	struct doca_eth_rxq_task_recv *t;
	struct doca_gpu_eth_rxq *gpu;
	uint16_t id;
	union doca_data ud = {.u64 = 0};

	CHECK_ERR(doca_eth_rxq_create(dev, 32, 10, &rxq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_create(dev, 32, 9217, &rxq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_create(dev, 0, 1514, &rxq), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_rxq_create(dev, 32, 1514, &rxq));
	/* CYCLIC is the GPU data path's type: set, it is checked against the data path at start
	 * (tests/gpunetio/test_eth_rxq.c). */
	CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_CYCLIC));
	CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_REGULAR));
	CHECK_ERR(doca_eth_rxq_set_type(rxq, (enum doca_eth_rxq_type)9), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_set_metadata_num(rxq, 200), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_set_packet_headroom(rxq, 60000), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_set_pkt_buf(rxq, NULL, 0, 10), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_set_pkt_buf(rxq, mm, 0, 1u << 30), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_get_gpu_handle(rxq, &gpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_eth_rxq_task_recv_set_conf(rxq, nop_recv, NULL, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_eth_rxq_event_managed_recv_register(rxq, ud, NULL, nop_event), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, nop_recv, nop_recv, 4));
	CHECK_ERR(doca_eth_rxq_apply_queue_id(rxq, 0), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_ERR(doca_eth_rxq_set_timestamp(rxq, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_rxq_get_flow_queue_id(rxq, &id), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 7));
	CHECK_OK(doca_eth_rxq_get_flow_queue_id(rxq, &id));
	CHECK_EQ(id, 7);
	/* A second queue on the same port may not take queue id 7. */
	CHECK_OK(doca_eth_rxq_create(dev, 32, 1514, &rxq2));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq2, nop_recv, nop_recv, 1));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq2)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq2)));
	CHECK_ERR(doca_eth_rxq_apply_queue_id(rxq2, 7), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq2, 8));
	/* A receive buf smaller than max_packet_size is refused. */
	{
		static uint8_t small[100];
		struct doca_mmap *sm = eth_mmap(dev, small, sizeof(small));
		struct doca_buf_inventory *inv = sd_inventory(1);
		struct doca_buf *b;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, sm, small, sizeof(small), &b));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, b, ud, &t));
		CHECK_ERR(doca_task_try_submit(doca_eth_rxq_task_recv_as_doca_task(t)), DOCA_ERROR_INVALID_VALUE);
		doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
		CHECK_OK(doca_buf_dec_refcount(b, NULL));
		eth_test_release(NULL, inv, sm, NULL);
	}
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), pe, NULL, 5000);
	/* Stopped, its id is free again. */
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq2), pe, NULL, 5000);
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq2)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq2, 7));
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq2), pe, NULL, 5000);
	CHECK_OK(doca_eth_rxq_destroy(rxq2));
	/* A managed queue without a packet buffer does not start. */
	CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL));
	CHECK_OK(doca_eth_rxq_event_managed_recv_register(rxq, ud, nop_event, nop_event));
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_eth_rxq_task_recv_allocate_init(rxq, NULL, ud, &t), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
}

/* A device whose topology gives it no port medium cannot have queues (NOT_FOUND). */
static int no_medium(void *arg)
{
	char *path = sd_tmpfile("no-medium.conf", "[profile default]\neth.supported = yes\n"
						  "[device 03:00.0]\nside = dpu\nmedium = none\n");
	struct doca_eth_txq *txq;
	struct doca_dev *dev;

	(void)arg;
	sd_setenv("SOFTDOCA_CONFIG", path);
	sd_setenv("SOFTDOCA_SIDE", "all");
	dev = sd_open_dev("03:00.0");
	CHECK_ERR(doca_eth_txq_create(dev, 32, &txq), DOCA_ERROR_NOT_FOUND);
	CHECK_OK(doca_dev_close(dev));
	free(path);
	return 0;
}

int main(void)
{
	static uint8_t mem[4096];
	struct doca_dev *a, *b, *c;
	struct loop_port *pa, *pb;
	struct doca_pe *pe;
	struct doca_mmap *mm;

	CHECK_EQ(check_run_child(no_eth, NULL, "no eth in the profile"), 0);
	CHECK_EQ(check_run_child(no_medium, NULL, "no port medium"), 0);
	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	/* The test's own loop medium, installed before anything asks for the configured wire. */
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	CHECK_ERR(priv_doca_nic_port_install(a, &loop_ops, pa), DOCA_ERROR_IN_USE);
	pe = sd_pe();
	mm = eth_mmap(a, mem, sizeof(mem));
	caps(a);
	txq_rules(a, pe);
	rxq_rules(a, pe, mm);
	c = sd_open_dev("03:00.1");
	CHECK(c == b);
	CHECK_OK(doca_dev_close(c));
	eth_test_release(pe, NULL, mm, NULL);
	printf("api: ok\n");
	return 0;
}
