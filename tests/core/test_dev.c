/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_dev.c - device discovery, properties, opening and representors on the embedded default
 * topology: 03:00.0 and 03:00.1 on the DPU side (representing b1:00.0 and b1:00.1), b1:00.0 and
 * b1:00.1 on the host side. The topology is read once per process, so the custom topologies
 * (SOFTDOCA_CONFIG) are tried in forked children before this process makes its first DOCA call.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_mmap.h>

#include "../common/sd_test.h"
#include "core.h" /* device backends: the internal boundary a NIC or GPU driver attaches through */

#define NB_DEVS 4

static const char *const expected_pci[NB_DEVS] = {"0000:03:00.0", "0000:03:00.1", "0000:b1:00.0", "0000:b1:00.1"};

/* Index of the device named @pci ("DDDD:BB:DD.F") in @list; fails the test when absent. */
static uint32_t find(struct doca_devinfo **list, uint32_t n, const char *pci)
{
	for (uint32_t i = 0; i < n; i++) {
		char s[DOCA_DEVINFO_PCI_ADDR_SIZE];

		CHECK_OK(doca_devinfo_get_pci_addr_str(list[i], s));
		if (strcmp(s, pci) == 0)
			return i;
	}
	fprintf(stderr, "device %s missing from the list\n", pci);
	exit(T_EXIT_FAIL);
}

static uint8_t pci_eq(const struct doca_devinfo *info, const char *s)
{
	uint8_t eq = 0xff;

	CHECK_OK(doca_devinfo_is_equal_pci_addr(info, s, &eq));
	CHECK(eq == 0 || eq == 1);
	return eq;
}

static void test_list(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	CHECK_ERR(doca_devinfo_create_list(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_create_list(&list, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(list != NULL);
	CHECK(n == NB_DEVS);
	for (uint32_t i = 0; i < NB_DEVS; i++) {
		uint32_t j = find(list, n, expected_pci[i]);
		char s[DOCA_DEVINFO_PCI_ADDR_SIZE];

		/* The whole buffer is DOCA_DEVINFO_PCI_ADDR_SIZE: the string fills it exactly. */
		memset(s, 'x', sizeof(s));
		CHECK_OK(doca_devinfo_get_pci_addr_str(list[j], s));
		CHECK(strlen(s) == DOCA_DEVINFO_PCI_ADDR_SIZE - 1);
		CHECK_STR(s, expected_pci[i]);
	}
	CHECK_ERR(doca_devinfo_get_pci_addr_str(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_destroy_list(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void test_pci_compare(void)
{
	struct doca_devinfo **list;
	uint32_t n, d0, d1, h0;
	uint8_t eq = 7;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	d0 = find(list, n, "0000:03:00.0");
	d1 = find(list, n, "0000:03:00.1");
	h0 = find(list, n, "0000:b1:00.0");

	CHECK(pci_eq(list[d0], "03:00.0") == 1);
	CHECK(pci_eq(list[d0], "0000:03:00.0") == 1);
	CHECK(pci_eq(list[d0], "03:00.1") == 0);
	CHECK(pci_eq(list[d0], "0001:03:00.0") == 0);
	CHECK(pci_eq(list[d0], "b1:00.0") == 0);
	CHECK(pci_eq(list[d1], "03:00.1") == 1);
	CHECK(pci_eq(list[d1], "03:00.0") == 0);
	/* Hex in either case. */
	CHECK(pci_eq(list[h0], "b1:00.0") == 1);
	CHECK(pci_eq(list[h0], "B1:00.0") == 1);
	CHECK(pci_eq(list[h0], "0000:B1:00.0") == 1);
	CHECK(pci_eq(list[h0], "0000:b1:00.0") == 1);
	CHECK(pci_eq(list[h0], "03:00.0") == 0);

	static const char *const garbage[] = {
	    "",		"garbage", "03:00",   "3:00.0",	 "03-00.0",	"03:00:0",	  "0000:03:00.0 ",
	    " 03:00.0", "zz:00.0", "03:00.8", "03:20.0", "000:03:00.0", "0000:03:00.0.0", "0000-03:00.0",
	};
	for (size_t i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
		eq = 7;
		if (doca_devinfo_is_equal_pci_addr(list[d0], garbage[i], &eq) != DOCA_ERROR_INVALID_VALUE) {
			fprintf(stderr, "'%s' was not rejected with INVALID_VALUE\n", garbage[i]);
			exit(T_EXIT_FAIL);
		}
	}
	CHECK_ERR(doca_devinfo_is_equal_pci_addr(list[d0], NULL, &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_is_equal_pci_addr(list[d0], "03:00.0", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_is_equal_pci_addr(NULL, "03:00.0", &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void test_names_and_props(void)
{
	char ibdev[NB_DEVS][DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char iface[NB_DEVS][DOCA_DEVINFO_IFACE_NAME_SIZE];
	uint8_t mac[NB_DEVS][DOCA_DEVINFO_MAC_ADDR_SIZE];
	struct doca_devinfo **list;
	uint32_t n;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(n == NB_DEVS);
	for (uint32_t i = 0; i < n; i++) {
		char small[DOCA_DEVINFO_IFACE_NAME_SIZE];
		enum doca_pci_func_type ft = DOCA_PCI_FUNC_TYPE_SF;
		uint32_t sf = 12345;

		CHECK_OK(doca_devinfo_get_ibdev_name(list[i], ibdev[i], sizeof(ibdev[i])));
		CHECK(ibdev[i][0] != '\0');
		CHECK(strlen(ibdev[i]) < DOCA_DEVINFO_IBDEV_NAME_SIZE);
		CHECK_ERR(doca_devinfo_get_ibdev_name(list[i], small, DOCA_DEVINFO_IBDEV_NAME_SIZE - 1),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_ibdev_name(list[i], NULL, DOCA_DEVINFO_IBDEV_NAME_SIZE),
			  DOCA_ERROR_INVALID_VALUE);
		/* A larger buffer than needed is fine. */
		CHECK_OK(doca_devinfo_get_ibdev_name(list[i], small, sizeof(small)));
		CHECK_STR(small, ibdev[i]);

		CHECK_OK(doca_devinfo_get_iface_name(list[i], iface[i], sizeof(iface[i])));
		CHECK(iface[i][0] != '\0');
		CHECK_ERR(doca_devinfo_get_iface_name(list[i], small, DOCA_DEVINFO_IFACE_NAME_SIZE - 1),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_iface_name(list[i], small, DOCA_DEVINFO_IBDEV_NAME_SIZE),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_iface_name(list[i], NULL, DOCA_DEVINFO_IFACE_NAME_SIZE),
			  DOCA_ERROR_INVALID_VALUE);

		CHECK_OK(doca_devinfo_get_mac_addr(list[i], mac[i], DOCA_DEVINFO_MAC_ADDR_SIZE));
		CHECK_ERR(doca_devinfo_get_mac_addr(list[i], mac[i], DOCA_DEVINFO_MAC_ADDR_SIZE - 1),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_mac_addr(list[i], NULL, DOCA_DEVINFO_MAC_ADDR_SIZE),
			  DOCA_ERROR_INVALID_VALUE);
		/* A usable unicast MAC: not all-zero, multicast bit clear. */
		static const uint8_t zero[DOCA_DEVINFO_MAC_ADDR_SIZE];
		CHECK(memcmp(mac[i], zero, sizeof(zero)) != 0);
		CHECK((mac[i][0] & 1) == 0);

		CHECK_OK(doca_devinfo_get_pci_func_type(list[i], &ft));
		CHECK(ft == DOCA_PCI_FUNC_TYPE_PF);
		CHECK_ERR(doca_devinfo_get_pci_func_type(list[i], NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_sf_index(list[i], &sf), DOCA_ERROR_NOT_SUPPORTED);
		CHECK(sf == 12345);
	}
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t j = 0; j < i; j++) {
			CHECK(strcmp(ibdev[i], ibdev[j]) != 0);
			CHECK(strcmp(iface[i], iface[j]) != 0);
			CHECK(memcmp(mac[i], mac[j], DOCA_DEVINFO_MAC_ADDR_SIZE) != 0);
		}
	}
	/* The same device answers the same way in a second list. */
	struct doca_devinfo **list2;
	uint32_t n2;

	CHECK_OK(doca_devinfo_create_list(&list2, &n2));
	CHECK(n2 == n);
	for (uint32_t i = 0; i < n2; i++) {
		char s[DOCA_DEVINFO_PCI_ADDR_SIZE], name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
		uint32_t j;

		CHECK_OK(doca_devinfo_get_pci_addr_str(list2[i], s));
		j = find(list, n, s);
		CHECK_OK(doca_devinfo_get_ibdev_name(list2[i], name, sizeof(name)));
		CHECK_STR(name, ibdev[j]);
	}
	CHECK_OK(doca_devinfo_destroy_list(list2));
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void test_open_close(void)
{
	struct doca_devinfo **list;
	struct doca_dev *a = NULL, *b = NULL, *c = NULL;
	struct doca_devinfo *info;
	char s[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint32_t n, d0, h0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	d0 = find(list, n, "0000:03:00.0");
	h0 = find(list, n, "0000:b1:00.0");
	CHECK_ERR(doca_dev_open(NULL, &a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_open(list[d0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_open(list[d0], &a));
	CHECK_OK(doca_dev_open(list[d0], &b));
	CHECK(a != NULL);
	CHECK(a == b); /* same devinfo, same device, one more reference */
	CHECK_OK(doca_dev_open(list[h0], &c));
	CHECK(c != a);

	/* Opened devices outlive the list they came from. */
	CHECK_OK(doca_devinfo_destroy_list(list));
	info = doca_dev_as_devinfo(a);
	CHECK(info != NULL);
	CHECK_OK(doca_devinfo_get_pci_addr_str(info, s));
	CHECK_STR(s, "0000:03:00.0");
	CHECK(pci_eq(info, "03:00.0") == 1);
	CHECK_OK(doca_devinfo_get_pci_addr_str(doca_dev_as_devinfo(c), s));
	CHECK_STR(s, "0000:b1:00.0");
	CHECK(doca_dev_as_devinfo(NULL) == NULL);

	/* A device opened from a fresh list is the same object. */
	struct doca_devinfo **list2;
	struct doca_dev *a2 = NULL;

	CHECK_OK(doca_devinfo_create_list(&list2, &n));
	CHECK_OK(doca_dev_open(list2[find(list2, n, "0000:03:00.0")], &a2));
	CHECK(a2 == a);
	CHECK_OK(doca_devinfo_destroy_list(list2));

	/* Three references: the device stays usable until the last close. */
	CHECK_OK(doca_dev_close(a2));
	CHECK_OK(doca_dev_close(a));
	info = doca_dev_as_devinfo(b);
	CHECK_OK(doca_devinfo_get_pci_addr_str(info, s));
	CHECK_STR(s, "0000:03:00.0");
	{
		/* Still a device the other objects accept. */
		struct doca_mmap *m;
		char mem[64];

		m = sd_mmap_local(b, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		CHECK_OK(doca_mmap_destroy(m));
	}
	CHECK_OK(doca_dev_close(b));
	CHECK_OK(doca_dev_close(c));

	/* DOCA's sample cleanup closes a device pointer it already cleared. */
	CHECK_OK(doca_dev_close(NULL));
}

static void rep_pci(const struct doca_devinfo_rep *rep, char *s)
{
	memset(s, 'x', DOCA_DEVINFO_REP_PCI_ADDR_SIZE);
	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(rep, s));
	CHECK(strlen(s) == DOCA_DEVINFO_REP_PCI_ADDR_SIZE - 1);
}

static void test_representors(void)
{
	struct doca_dev *dpu0 = sd_open_dev("03:00.0");
	struct doca_dev *dpu1 = sd_open_dev("03:00.1");
	struct doca_dev *host = sd_open_dev("b1:00.0");
	struct doca_devinfo_rep **reps = NULL, **reps1 = NULL, **reps_all = NULL;
	char vuid[DOCA_DEVINFO_REP_VUID_SIZE], vuid1[DOCA_DEVINFO_REP_VUID_SIZE];
	char s[DOCA_DEVINFO_REP_PCI_ADDR_SIZE];
	struct doca_dev_rep *rep = NULL;
	uint32_t n = 99, i;
	uint8_t eq = 7;

	CHECK_ERR(doca_devinfo_rep_create_list(NULL, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_create_list(dpu0, DOCA_DEVINFO_REP_FILTER_NET, NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_create_list(dpu0, DOCA_DEVINFO_REP_FILTER_NET, &reps, NULL),
		  DOCA_ERROR_INVALID_VALUE);
	/* Host-side devices manage no representors. */
	CHECK_ERR(doca_devinfo_rep_create_list(host, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_devinfo_rep_create_list(host, DOCA_DEVINFO_REP_FILTER_ALL, &reps, &n), DOCA_ERROR_NOT_SUPPORTED);

	CHECK_OK(doca_devinfo_rep_create_list(dpu0, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n));
	CHECK(n >= 1);
	for (i = 0; i < n; i++) {
		rep_pci(reps[i], s);
		if (strcmp(s, "0000:b1:00.0") == 0)
			break;
	}
	CHECK(i < n);
	memset(vuid, 0, sizeof(vuid));
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[i], vuid, sizeof(vuid)));
	CHECK(vuid[0] != '\0');
	CHECK(strlen(vuid) < DOCA_DEVINFO_REP_VUID_SIZE);
	CHECK_ERR(doca_devinfo_rep_get_vuid(reps[i], vuid1, DOCA_DEVINFO_REP_VUID_SIZE - 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_get_vuid(reps[i], NULL, DOCA_DEVINFO_REP_VUID_SIZE), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[i], "b1:00.0", &eq));
	CHECK(eq == 1);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[i], "0000:B1:00.0", &eq));
	CHECK(eq == 1);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[i], "b1:00.1", &eq));
	CHECK(eq == 0);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[i], "03:00.0", &eq));
	CHECK(eq == 0);
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(reps[i], "b1:00", &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(reps[i], "not-a-pci", &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(reps[i], NULL, &eq), DOCA_ERROR_INVALID_VALUE);

	/* FILTER_ALL includes the network representors. */
	CHECK_OK(doca_devinfo_rep_create_list(dpu0, DOCA_DEVINFO_REP_FILTER_ALL, &reps_all, &n));
	CHECK(n >= 1);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps_all));

	/* The other DPU port represents the other host PF, under another VUID. */
	CHECK_OK(doca_devinfo_rep_create_list(dpu1, DOCA_DEVINFO_REP_FILTER_NET, &reps1, &n));
	CHECK(n >= 1);
	rep_pci(reps1[0], s);
	CHECK_STR(s, "0000:b1:00.1");
	CHECK_OK(doca_devinfo_rep_get_vuid(reps1[0], vuid1, sizeof(vuid1)));
	CHECK(vuid1[0] != '\0');
	CHECK(strcmp(vuid, vuid1) != 0);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps1));

	/* Open a representor; it outlives the list. */
	CHECK_ERR(doca_dev_rep_open(NULL, &rep), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_rep_open(reps[i], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_rep_open(reps[i], &rep));
	CHECK(rep != NULL);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	CHECK(doca_dev_rep_as_devinfo(rep) != NULL);
	rep_pci(doca_dev_rep_as_devinfo(rep), s);
	CHECK_STR(s, "0000:b1:00.0");
	CHECK_OK(doca_devinfo_rep_get_vuid(doca_dev_rep_as_devinfo(rep), vuid1, sizeof(vuid1)));
	CHECK_STR(vuid1, vuid);
	CHECK(doca_dev_rep_as_devinfo(NULL) == NULL);
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_ERR(doca_devinfo_rep_destroy_list(NULL), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu1));
	CHECK_OK(doca_dev_close(dpu0));
}

/* ---- custom topologies, one child process each ---- */

static const char custom_config[] = "# test_dev: one DPU PF with two representors, one SF, one host PF\n"
				    "[device 05:00.0]\n"
				    "side = dpu\n"
				    "ibdev = mlx5_custom\n"
				    "iface = pf0custom\n"
				    "mac = 02:11:22:33:44:55\n"
				    "representor = 84:00.3 MY-VUID-1\n"
				    "representor = 84:00.4\n"
				    "\n"
				    "[device 05:00.2]\n"
				    "side = dpu\n"
				    "func = sf\n"
				    "sf_index = 7\n"
				    "\n"
				    "[device 84:00.3]\n"
				    "side = host\n";

static void custom_topology_body(void)
{
	static const uint8_t want_mac[DOCA_DEVINFO_MAC_ADDR_SIZE] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
	char name[DOCA_DEVINFO_IFACE_NAME_SIZE], vuid[DOCA_DEVINFO_REP_VUID_SIZE], vuid2[DOCA_DEVINFO_REP_VUID_SIZE];
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE];
	struct doca_devinfo_rep **reps;
	struct doca_devinfo **list;
	enum doca_pci_func_type ft;
	struct doca_dev *pf, *host;
	uint32_t n, pf_i, sf_i, host_i, sf = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(n == 3); /* the file's devices replace the default ones */
	pf_i = find(list, n, "0000:05:00.0");
	sf_i = find(list, n, "0000:05:00.2");
	host_i = find(list, n, "0000:84:00.3");

	CHECK_OK(doca_devinfo_get_ibdev_name(list[pf_i], name, DOCA_DEVINFO_IBDEV_NAME_SIZE));
	CHECK_STR(name, "mlx5_custom");
	CHECK_OK(doca_devinfo_get_iface_name(list[pf_i], name, sizeof(name)));
	CHECK_STR(name, "pf0custom");
	CHECK_OK(doca_devinfo_get_mac_addr(list[pf_i], mac, sizeof(mac)));
	CHECK_MEM(mac, want_mac, sizeof(mac));
	CHECK_OK(doca_devinfo_get_pci_func_type(list[pf_i], &ft));
	CHECK(ft == DOCA_PCI_FUNC_TYPE_PF);
	CHECK_ERR(doca_devinfo_get_sf_index(list[pf_i], &sf), DOCA_ERROR_NOT_SUPPORTED);

	CHECK_OK(doca_devinfo_get_pci_func_type(list[sf_i], &ft));
	CHECK(ft == DOCA_PCI_FUNC_TYPE_SF);
	CHECK_OK(doca_devinfo_get_sf_index(list[sf_i], &sf));
	CHECK(sf == 7);
	CHECK_ERR(doca_devinfo_get_sf_index(list[sf_i], NULL), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_dev_open(list[pf_i], &pf));
	CHECK_OK(doca_dev_open(list[host_i], &host));
	CHECK_OK(doca_devinfo_destroy_list(list));

	CHECK_OK(doca_devinfo_rep_create_list(pf, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n));
	CHECK(n == 2);
	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[0], pci));
	if (strcmp(pci, "0000:84:00.3") != 0) {
		struct doca_devinfo_rep *t = reps[0];

		reps[0] = reps[1];
		reps[1] = t;
		CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[0], pci));
	}
	CHECK_STR(pci, "0000:84:00.3");
	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[1], pci));
	CHECK_STR(pci, "0000:84:00.4");
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[0], vuid, sizeof(vuid)));
	CHECK_STR(vuid, "MY-VUID-1");
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[1], vuid2, sizeof(vuid2)));
	CHECK(vuid2[0] != '\0'); /* a default one */
	CHECK(strcmp(vuid, vuid2) != 0);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	CHECK_ERR(doca_devinfo_rep_create_list(host, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(pf));
}

static void bad_topology_body(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	/* Refused, and refused again: no silent fall-back to the default devices. */
	CHECK_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_BAD_CONFIG);
	CHECK_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_BAD_CONFIG);
}

struct config_run {
	const char *path;
	void (*body)(void);
};

static int config_child(void *arg)
{
	const struct config_run *r = arg;

	sd_setenv("SOFTDOCA_CONFIG", r->path);
	r->body();
	return T_EXIT_PASS;
}

/* Runs @body in a child whose SOFTDOCA_CONFIG names a file holding @text (or a missing file). */
static void run_with_config(const char *what, const char *text, void (*body)(void))
{
	char missing[PATH_MAX];
	char *path = text != NULL ? sd_tmpfile("dev-config", text) : NULL;
	struct config_run r = {.path = path, .body = body};

	if (path == NULL) {
		snprintf(missing, sizeof(missing), "%s/missing.ini", sd_tmpdir());
		r.path = missing;
	}
	if (check_run_child(config_child, &r, what) != T_EXIT_PASS) {
		fprintf(stderr, "%s topology: child failed\n", what);
		exit(T_EXIT_FAIL);
	}
	if (path != NULL)
		unlink(path);
	free(path);
}

/* ---- device backends ---- */

static struct {
	const char *closed[8]; /* names, in the order close() ran */
	int nb_closed;
	int nb_open;
	struct doca_dev *dev_seen;
	void *priv_seen[8];
} bk;

static int priv_a, priv_b, priv_c, priv_d;

static doca_error_t open_a(struct doca_dev *dev, void **priv)
{
	bk.nb_open++;
	bk.dev_seen = dev;
	*priv = &priv_a;
	return DOCA_SUCCESS;
}

static doca_error_t open_b(struct doca_dev *dev, void **priv)
{
	(void)dev;
	bk.nb_open++;
	*priv = &priv_b;
	return DOCA_SUCCESS;
}

static doca_error_t open_c(struct doca_dev *dev, void **priv)
{
	(void)dev;
	bk.nb_open++;
	*priv = &priv_c;
	return DOCA_SUCCESS;
}

static doca_error_t open_d(struct doca_dev *dev, void **priv)
{
	(void)dev;
	bk.nb_open++;
	*priv = &priv_d;
	return DOCA_SUCCESS;
}

static doca_error_t open_fails(struct doca_dev *dev, void **priv)
{
	(void)dev;
	(void)priv;
	bk.nb_open++;
	return DOCA_ERROR_DRIVER;
}

static void close_any(struct doca_dev *dev, void *priv);

static const struct dev_backend_ops ops_a = {"nic", open_a, close_any};
static const struct dev_backend_ops ops_b = {"gpu", open_b, close_any};
static const struct dev_backend_ops ops_c = {"c", open_c, close_any};
static const struct dev_backend_ops ops_d = {"d", open_d, close_any};
static const struct dev_backend_ops ops_e = {"e", open_a, close_any};
static const struct dev_backend_ops ops_nic_again = {"nic", open_b, close_any};
static const struct dev_backend_ops ops_fails = {"broken", open_fails, close_any};
static const struct dev_backend_ops ops_no_close = {"half", open_a, NULL};

static void close_any(struct doca_dev *dev, void *priv)
{
	const char *name = priv == &priv_a   ? "nic"
			   : priv == &priv_b ? "gpu"
			   : priv == &priv_c ? "c"
			   : priv == &priv_d ? "d"
					     : "?";

	CHECK(dev == bk.dev_seen);
	if (bk.nb_closed < 8) {
		bk.closed[bk.nb_closed] = name;
		bk.priv_seen[bk.nb_closed] = priv;
	}
	bk.nb_closed++;
}

static void test_backends(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL, *again = NULL, *other = NULL;
	struct doca_dev fake;
	uint32_t n;

	memset(&bk, 0, sizeof(bk));
	memset(&fake, 0, sizeof(fake));
	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK_OK(doca_dev_open(list[find(list, n, "0000:03:00.0")], &dev));
	CHECK_OK(doca_dev_open(list[find(list, n, "0000:03:00.1")], &other));

	/* Refusals: nothing attached, open() never called. */
	CHECK_ERR(priv_doca_dev_attach(NULL, &ops_a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(priv_doca_dev_attach(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(priv_doca_dev_attach(dev, &ops_no_close), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(priv_doca_dev_attach(&fake, &ops_a), DOCA_ERROR_INVALID_VALUE);
	CHECK(bk.nb_open == 0);
	CHECK(priv_doca_dev_backend(dev, &ops_a) == NULL);
	CHECK(priv_doca_dev_backend(NULL, &ops_a) == NULL && priv_doca_dev_backend(dev, NULL) == NULL);

	/* Attach and lookup; each device has its own backends. */
	CHECK_OK(priv_doca_dev_attach(dev, &ops_a));
	CHECK(bk.nb_open == 1 && bk.dev_seen == dev);
	CHECK_OK(priv_doca_dev_attach(dev, &ops_b));
	CHECK(priv_doca_dev_backend(dev, &ops_a) == &priv_a);
	CHECK(priv_doca_dev_backend(dev, &ops_b) == &priv_b);
	CHECK(priv_doca_dev_backend(dev, &ops_c) == NULL);
	CHECK(priv_doca_dev_backend(other, &ops_a) == NULL);

	/* Duplicates: the same table, or another table under a name in use. */
	CHECK_ERR(priv_doca_dev_attach(dev, &ops_a), DOCA_ERROR_ALREADY_EXIST);
	CHECK_ERR(priv_doca_dev_attach(dev, &ops_nic_again), DOCA_ERROR_ALREADY_EXIST);
	CHECK(bk.nb_open == 2);
	CHECK(priv_doca_dev_backend(dev, &ops_nic_again) == NULL);

	/* A failing open() returns its error and attaches nothing. */
	CHECK_ERR(priv_doca_dev_attach(dev, &ops_fails), DOCA_ERROR_DRIVER);
	CHECK(priv_doca_dev_backend(dev, &ops_fails) == NULL);

	/* Full at DEV_MAX_BACKENDS (4). */
	CHECK(DEV_MAX_BACKENDS == 4);
	CHECK_OK(priv_doca_dev_attach(dev, &ops_c));
	CHECK_OK(priv_doca_dev_attach(dev, &ops_d));
	CHECK_ERR(priv_doca_dev_attach(dev, &ops_e), DOCA_ERROR_FULL);
	CHECK(priv_doca_dev_backend(dev, &ops_e) == NULL);
	CHECK(bk.nb_open == 5); /* a, b, broken, c, d */

	/* A second reference: its close releases nothing. */
	CHECK_OK(doca_dev_open(list[find(list, n, "0000:03:00.0")], &again));
	CHECK(again == dev);
	CHECK_OK(doca_dev_close(again));
	CHECK(bk.nb_closed == 0);
	CHECK(priv_doca_dev_backend(dev, &ops_d) == &priv_d);

	/* The last close: reverse attach order, each with its own private data. */
	CHECK_OK(doca_dev_close(dev));
	CHECK(bk.nb_closed == 4);
	if (bk.nb_closed == 4) {
		CHECK_STR(bk.closed[0], "d");
		CHECK_STR(bk.closed[1], "c");
		CHECK_STR(bk.closed[2], "gpu");
		CHECK_STR(bk.closed[3], "nic");
		CHECK(bk.priv_seen[0] == &priv_d && bk.priv_seen[3] == &priv_a);
	}

	/* Opened again, the device starts without backends. */
	CHECK_OK(doca_dev_open(list[find(list, n, "0000:03:00.0")], &dev));
	CHECK(priv_doca_dev_backend(dev, &ops_a) == NULL);
	CHECK_OK(priv_doca_dev_attach(dev, &ops_a));
	CHECK(priv_doca_dev_backend(dev, &ops_a) == &priv_a);
	bk.dev_seen = dev;
	CHECK_OK(doca_dev_close(dev));
	CHECK(bk.nb_closed == 5);
	CHECK_OK(doca_dev_close(other));
	CHECK(bk.nb_closed == 5); /* nothing attached to the other device */
	CHECK_OK(doca_devinfo_destroy_list(list));
}

/*
 * A program that looks for a PCI address no device has: destroying the list logs one line with
 * the address and the devices there are. An address found, or not asked of every device, is
 * not reported.
 */
static int lookup_child(void *arg)
{
	const char *addr = arg;
	struct doca_devinfo **list;
	uint32_t n;
	uint8_t eq = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n; i++)
		CHECK_OK(doca_devinfo_is_equal_pci_addr(list[i], addr, &eq));
	/* Asked of one device only: not a lookup of the whole list. */
	CHECK_OK(doca_devinfo_is_equal_pci_addr(list[0], "0000:77:00.0", &eq));
	CHECK_OK(doca_devinfo_destroy_list(list));
	return T_EXIT_PASS;
}

static void test_lookup_report(void)
{
	char out[4096];

	CHECK(check_run_child_output(lookup_child, (void *)"0a:00.0", "missing address", out, sizeof(out)) ==
	      T_EXIT_PASS);
	CHECK(strstr(out, "no device has PCI address 0000:0a:00.0") != NULL);
	CHECK(strstr(out, "0000:03:00.0 (dpu)") != NULL && strstr(out, "0000:b1:00.1 (host)") != NULL);
	CHECK(strstr(out, "77:00.0") == NULL);
	CHECK(check_run_child_output(lookup_child, (void *)"03:00.1", "present address", out, sizeof(out)) ==
	      T_EXIT_PASS);
	CHECK(strstr(out, "no device has PCI address") == NULL);
}

/* The same for a representor list: an address asked of every representor of 03:00.0 that none
 * has is reported with the representors there are; one a representor has is not. */
static int rep_lookup_child(void *arg)
{
	const char *addr = arg;
	struct doca_devinfo **list;
	struct doca_devinfo_rep **reps;
	struct doca_dev *dev = NULL;
	uint32_t n, nr;
	uint8_t eq = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_devinfo_is_equal_pci_addr(list[i], "03:00.0", &eq) == DOCA_SUCCESS && eq)
			CHECK_OK(doca_dev_open(list[i], &dev));
	CHECK_OK(doca_devinfo_destroy_list(list));
	CHECK(dev != NULL);
	CHECK_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &nr));
	CHECK(nr > 0);
	for (uint32_t i = 0; i < nr; i++)
		CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[i], addr, &eq));
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	CHECK_OK(doca_dev_close(dev));
	return T_EXIT_PASS;
}

static void test_rep_lookup_report(void)
{
	char out[4096];

	CHECK(check_run_child_output(rep_lookup_child, (void *)"99:00.0", "missing representor", out, sizeof(out)) ==
	      T_EXIT_PASS);
	CHECK(strstr(out, "no representor has PCI address 0000:99:00.0") != NULL);
	CHECK(strstr(out, "the representors here are 0000:b1:00.0") != NULL);
	CHECK(check_run_child_output(rep_lookup_child, (void *)"b1:00.0", "present representor", out, sizeof(out)) ==
	      T_EXIT_PASS);
	CHECK(strstr(out, "no representor has PCI address") == NULL);
}

int main(void)
{
	/* Before any DOCA call here: each child reads its own topology. */
	run_with_config("custom", custom_config, custom_topology_body);
	run_with_config("invalid", "[device 05:00.0]\nside = sideways\n", bad_topology_body);
	run_with_config("missing", NULL, bad_topology_body);

	/* The embedded default topology is the subject here. */
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	test_list();
	test_pci_compare();
	test_lookup_report();
	test_rep_lookup_report();
	test_names_and_props();
	test_open_close();
	test_backends();
	test_representors();
	printf("test_dev: ok\n");
	return T_EXIT_PASS;
}
