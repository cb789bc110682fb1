/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xproc_import.c - the rules of doca_mmap_export_pci() and doca_mmap_create_from_export():
 * every descriptor an importer must refuse (truncated, corrupted, forged, stale, from another
 * user, through the wrong device) with its code and the log line saying why, and what a
 * from-export mmap allows.
 *
 * Forged descriptors are built with the real encoder (export_desc.c is compiled in), so they
 * carry a valid checksum: only the comparison with the exporter's own record can catch them.
 *
 * Cases that need another configuration (SOFTDOCA_CONFIG is read once per process) run first,
 * each in a child forked before this process touches a device.
 */
#include <signal.h>
#include <sys/wait.h>

#include "../dma/dma_test.h"
#include "export.h"
#include "xproc.h"

static const char cfg_noexport[] = "[profile closed]\n"
				   "export_pci = no\n"
				   "import_pci = no\n"
				   "\n"
				   "[device 03:00.0]\n"
				   "side = dpu\n"
				   "profile = closed\n"
				   "representor = b1:00.0\n"
				   "\n"
				   "[device b1:00.0]\n"
				   "side = host\n"
				   "profile = closed\n";
/* A topology without the exporter's device b1:00.0. */
static const char cfg_other[] = "[device 03:00.0]\n"
				"side = dpu\n";

static char *config_path;

/* Writes @text to a temporary file and points SOFTDOCA_CONFIG at it (see config_done()). */
static int use_config(const char *text)
{
	free(config_path);
	config_path = sd_tmpfile("xproc-import", text);
	sd_setenv("SOFTDOCA_CONFIG", config_path);
	return 0;
}

/* The configuration is read once, at the first device lookup: the file can go after it. */
static void config_done(void)
{
	unlink(config_path);
}

static int case_profile_closed(void)
{
	struct doca_dev *dev = NULL;
	struct doca_mmap *m = NULL;
	uint8_t buf[4096], cap = 1, desc[EXPORT_DESC_LEN] = {0};
	const void *d = NULL;
	size_t len = 0;
	off_t mark;

	CHECK(use_config(cfg_noexport) == 0);
	CHECK_ERR(sd_dev_open("b1:00.0", &dev), DOCA_SUCCESS);
	config_done();
	CHECK_ERR(doca_mmap_cap_is_export_pci_supported(doca_dev_as_devinfo(dev), &cap), DOCA_SUCCESS);
	CHECK_EQ(cap, 0);
	CHECK_ERR(doca_mmap_cap_is_create_from_export_pci_supported(doca_dev_as_devinfo(dev), &cap), DOCA_SUCCESS);
	CHECK_EQ(cap, 0);
	CHECK_ERR(sd_mmap_create(buf, sizeof(buf), DOCA_ACCESS_FLAG_PCI_READ_ONLY, dev, NULL, &m), DOCA_SUCCESS);
	mark = log_mark();
	CHECK_ERR(doca_mmap_export_pci(m, dev, &d, &len), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG(mark, "export_pci = no");
	mark = log_mark();
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, sizeof(desc), dev, &m), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG(mark, "import_pci = no");
	CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);
	CHECK_ERR(doca_dev_close(dev), DOCA_SUCCESS);
	return 0;
}

static int case_topology_differs(void)
{
	struct xp_peer p;
	struct doca_dev *dev = NULL;
	struct doca_mmap *rm = NULL;
	off_t mark;

	/* The exporter keeps the default topology; only this process sees another one. */
	CHECK(xp_start(&p, "-s", "4096") == 0);
	CHECK(use_config(cfg_other) == 0);
	CHECK_ERR(sd_dev_open("03:00.0", &dev), DOCA_SUCCESS);
	config_done();
	mark = log_mark();
	CHECK_ERR(doca_mmap_create_from_export(NULL, p.desc, p.desc_len, dev, &rm), DOCA_ERROR_NOT_PERMITTED);
	CHECK_LOG(mark, "not in this process's topology", "SOFTDOCA_CONFIG");
	CHECK_ERR(doca_dev_close(dev), DOCA_SUCCESS);
	CHECK(xp_finish(&p) == 0);
	return 0;
}

struct child_case {
	int (*fn)(void);
};

static int child_case_main(void *arg)
{
	return ((const struct child_case *)arg)->fn() == 0 ? 0 : 1;
}

/* Runs @fn in a forked child; 0 when it passed. */
static int in_child(int (*fn)(void), const char *name)
{
	struct child_case c = {.fn = fn};

	if (check_run_child(child_case_main, &c, name) != 0) {
		fprintf(stderr, "case %s failed\n", name);
		return 1;
	}
	return 0;
}

/* ---- export rules ---- */

static int test_export_rules(void)
{
	struct doca_dev *host = NULL, *dpu = NULL;
	struct doca_mmap *m = NULL;
	static uint8_t buf[8192];
	const void *d1 = NULL, *d2 = NULL, *d3 = NULL;
	size_t l1 = 0, l2 = 0, l3 = 0;
	off_t mark;

	CHECK_ERR(sd_dev_open("b1:00.0", &host), DOCA_SUCCESS);
	CHECK_ERR(sd_dev_open("03:00.0", &dpu), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_create(&m), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_set_memrange(m, buf, sizeof(buf)), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_add_dev(m, host), DOCA_SUCCESS);
	mark = log_mark();
	CHECK_ERR(doca_mmap_export_pci(m, host, &d1, &l1), DOCA_ERROR_NOT_PERMITTED);
	CHECK_LOG(mark, "not started", "doca_mmap_start");
	CHECK_ERR(doca_mmap_start(m), DOCA_SUCCESS);
	mark = log_mark();
	CHECK_ERR(doca_mmap_export_pci(m, host, &d1, &l1), DOCA_ERROR_NOT_PERMITTED);
	CHECK_LOG(mark, "no PCI access", "DOCA_ACCESS_FLAG_PCI_READ_ONLY");
	CHECK_ERR(doca_mmap_export_pci(NULL, host, &d1, &l1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);

	CHECK_ERR(sd_mmap_create(buf, sizeof(buf), DOCA_ACCESS_FLAG_PCI_READ_WRITE, host, NULL, &m), DOCA_SUCCESS);
	mark = log_mark();
	CHECK_ERR(doca_mmap_export_pci(m, dpu, &d1, &l1), DOCA_ERROR_NOT_FOUND);
	CHECK_LOG(mark, "was not added", "doca_mmap_add_dev");
	CHECK_ERR(doca_mmap_export_pci(m, host, &d1, &l1), DOCA_SUCCESS);
	CHECK_EQ(l1, EXPORT_DESC_LEN);
	CHECK_ERR(doca_mmap_export_pci(m, host, &d2, &l2), DOCA_SUCCESS);
	CHECK(d1 == d2 && l1 == l2); /* one descriptor per device, owned by the map */
	CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);

	/* Two devices: two descriptors, the same export. */
	CHECK_ERR(sd_mmap_create(buf, sizeof(buf), DOCA_ACCESS_FLAG_PCI_READ_ONLY, host, dpu, &m), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_export_pci(m, host, &d1, &l1), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_export_pci(m, dpu, &d3, &l3), DOCA_SUCCESS);
	CHECK(d1 != d3 && l3 == EXPORT_DESC_LEN);
	{
		struct export_desc a, b;
		char err[128];

		CHECK_ERR(export_desc_decode(d1, l1, &a, err, sizeof(err)), DOCA_SUCCESS);
		CHECK_ERR(export_desc_decode(d3, l3, &b, err, sizeof(err)), DOCA_SUCCESS);
		CHECK_MEM(a.id, b.id, EXPORT_ID_LEN);
		CHECK_EQ(a.side, EXPORT_SIDE_HOST);
		CHECK_EQ(b.side, EXPORT_SIDE_DPU);
		CHECK_EQ(a.pid, getpid());
		CHECK_EQ(a.addr, (uintptr_t)buf);
		CHECK_EQ(a.len, sizeof(buf));
		CHECK_EQ(a.access, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	}
	/* Stop frees the descriptors; a stopped map exports nothing. */
	CHECK_ERR(doca_mmap_stop(m), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_export_pci(m, host, &d1, &l1), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_destroy(m), DOCA_SUCCESS);
	CHECK_ERR(doca_dev_close(host), DOCA_SUCCESS);
	CHECK_ERR(doca_dev_close(dpu), DOCA_SUCCESS);
	return 0;
}

/* ---- import validation ---- */

static int expect_refused(const void *desc, size_t len, struct doca_dev *dev, doca_error_t want, const char *word)
{
	struct doca_mmap *rm = NULL;
	off_t mark = log_mark();

	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, len, dev, &rm), want);
	CHECK(rm == NULL);
	CHECK_LOG(mark, "doca_mmap_create_from_export", word);
	return 0;
}

/* Re-encodes @p's descriptor after @edit changed it (a valid checksum: a forgery). */
static int forge(const struct xp_peer *p, void (*edit)(struct export_desc *), uint8_t out[EXPORT_DESC_LEN])
{
	struct export_desc d;
	char err[128];

	CHECK_ERR(export_desc_decode(p->desc, p->desc_len, &d, err, sizeof(err)), DOCA_SUCCESS);
	edit(&d);
	export_desc_encode(&d, out);
	return 0;
}

static void edit_len(struct export_desc *d)
{
	d->len *= 2;
}
static void edit_rw(struct export_desc *d)
{
	d->access = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
}
static void edit_addr(struct export_desc *d)
{
	d->addr -= 4096;
}
static void edit_start(struct export_desc *d)
{
	d->start_time += 1; /* what a pid reused by a later process looks like */
}
static void edit_id(struct export_desc *d)
{
	d->id[5] ^= 0x40;
}
static void edit_pid_self(struct export_desc *d)
{
	d->pid = getpid();
}
static void edit_pid_none(struct export_desc *d)
{
	d->pid = 0x3ffffff0; /* above any pid_max */
}
static void edit_fd(struct export_desc *d)
{
	d->memfd = 0; /* the exporter's stdin: not an export record */
}

static void edit_uid(struct export_desc *d)
{
	d->uid += 1;
}
static void edit_pidns(struct export_desc *d)
{
	d->pidns += 1;
}
static void edit_fn(struct export_desc *d)
{
	d->fn = 1; /* b1:00.0 -> b1:00.1: pairs with 03:00.1, but the map was not exported there */
}
static void edit_side(struct export_desc *d)
{
	d->side = d->side == EXPORT_SIDE_HOST ? EXPORT_SIDE_DPU : EXPORT_SIDE_HOST;
}
static void edit_dpu_dev(struct export_desc *d)
{
	d->bus = 0x03; /* claims DPU device 03:00.0, which b1:00.0 represents */
	d->side = EXPORT_SIDE_DPU;
}
static void edit_domain(struct export_desc *d)
{
	d->domain = 1;
}
static void edit_devno(struct export_desc *d)
{
	d->dev = 1;
}

static int import_via(const struct xp_peer *p, const char *pci, doca_error_t want, const char *word);

/*
 * Every field of a descriptor forged with a valid checksum, imported through a device it pairs
 * with where possible: refused, with the disagreeing field named.
 */
static int test_forged_fields(void)
{
	static const struct {
		void (*edit)(struct export_desc *);
		const char *via;
		doca_error_t want;
		const char *word;
	} cases[] = {
	    {edit_len, "03:00.0", DOCA_ERROR_INVALID_VALUE, "its length does not match"},
	    {edit_rw, "03:00.0", DOCA_ERROR_INVALID_VALUE, "its access rights field does not match"},
	    {edit_addr, "03:00.0", DOCA_ERROR_INVALID_VALUE, "its start address does not match"},
	    {edit_uid, "03:00.0", DOCA_ERROR_INVALID_VALUE, "its exporter user id does not match"},
	    {edit_fn, "03:00.1", DOCA_ERROR_INVALID_VALUE, "its exporting device"},
	    {edit_dpu_dev, "b1:00.0", DOCA_ERROR_INVALID_VALUE, "its exporting device"},
	    {edit_side, "03:00.0", DOCA_ERROR_NOT_PERMITTED, "on the other side"},
	    {edit_domain, "03:00.0", DOCA_ERROR_NOT_PERMITTED, "not in this process's topology"},
	    {edit_devno, "03:00.0", DOCA_ERROR_NOT_PERMITTED, "not in this process's topology"},
	    {edit_pidns, "03:00.0", DOCA_ERROR_NOT_PERMITTED, "PID namespace"},
	    {edit_start, "03:00.0", DOCA_ERROR_INVALID_VALUE, "another process"},
	    {edit_id, "03:00.0", DOCA_ERROR_INVALID_VALUE, "no export with this id"},
	    {edit_pid_self, "03:00.0", DOCA_ERROR_INVALID_VALUE, "another process"},
	    {edit_fd, "03:00.0", DOCA_ERROR_INVALID_VALUE, "not an export record"},
	};
	uint8_t bad[EXPORT_DESC_LEN];
	struct xp_peer p;

	CHECK(xp_start(&p, "-d", "b1:00.0") == 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct doca_dev *dev = NULL;

		CHECK(forge(&p, cases[i].edit, bad) == 0);
		CHECK_ERR(sd_dev_open(cases[i].via, &dev), DOCA_SUCCESS);
		if (expect_refused(bad, EXPORT_DESC_LEN, dev, cases[i].want, cases[i].word) != 0) {
			fprintf(stderr, "  forged field case %zu (import through %s) was not refused as expected\n", i,
				cases[i].via);
			return 1;
		}
		CHECK_ERR(doca_dev_close(dev), DOCA_SUCCESS);
	}
	/* The genuine descriptor still imports through both devices it pairs with. */
	CHECK(import_via(&p, "03:00.0", DOCA_SUCCESS, NULL) == 0);
	CHECK(import_via(&p, "b1:00.0", DOCA_SUCCESS, NULL) == 0);
	CHECK(xp_finish(&p) == 0);
	return 0;
}

static int test_descriptors(void)
{
	struct xp_peer p;
	struct doca_dev *dpu = NULL;
	struct doca_mmap *rm = NULL;
	uint8_t bad[2 * EXPORT_DESC_LEN];
	static const struct {
		void (*edit)(struct export_desc *);
		const char *word;
	} forged[] = {
		{edit_len, "forged"},	 {edit_rw, "forged"},	    {edit_addr, "forged"},
		{edit_start, "another process"}, {edit_id, "no export with this id"}, {edit_pid_self, "another process"},
		{edit_pid_none, "stale"},	 {edit_fd, "not an export record"},
	};

	CHECK(xp_start(&p, "-s", "65536") == 0);
	CHECK_ERR(sd_dev_open("03:00.0", &dpu), DOCA_SUCCESS);
	CHECK_EQ(p.desc_len, EXPORT_DESC_LEN);

	/* Truncated and padded. */
	CHECK(expect_refused(p.desc, p.desc_len - 1, dpu, DOCA_ERROR_INVALID_VALUE, "truncated") == 0);
	CHECK(expect_refused(p.desc, 10, dpu, DOCA_ERROR_INVALID_VALUE, "truncated") == 0);
	CHECK(expect_refused(p.desc, 1, dpu, DOCA_ERROR_INVALID_VALUE, "truncated") == 0);
	memcpy(bad, p.desc, p.desc_len);
	bad[p.desc_len] = 0;
	CHECK(expect_refused(bad, p.desc_len + 1, dpu, DOCA_ERROR_INVALID_VALUE, "too long") == 0);
	CHECK_ERR(doca_mmap_create_from_export(NULL, p.desc, 0, dpu, &rm), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, NULL, p.desc_len, dpu, &rm), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, p.desc, p.desc_len, NULL, &rm), DOCA_ERROR_INVALID_VALUE);

	/* Corrupted: any flipped bit is caught, in every byte. */
	for (size_t i = 0; i < p.desc_len; i++) {
		memcpy(bad, p.desc, p.desc_len);
		bad[i] ^= (uint8_t)(1u << (i % 8));
		if (expect_refused(bad, p.desc_len, dpu, DOCA_ERROR_INVALID_VALUE, "") != 0) {
			fprintf(stderr, "  a flipped bit in byte %zu was accepted\n", i);
			return 1;
		}
	}
	memcpy(bad, p.desc, p.desc_len);
	bad[40] ^= 1;
	CHECK(expect_refused(bad, p.desc_len, dpu, DOCA_ERROR_INVALID_VALUE, "checksum") == 0);
	memcpy(bad, "NOTADESC", 8);
	CHECK(expect_refused(bad, p.desc_len, dpu, DOCA_ERROR_INVALID_VALUE, "bad magic") == 0);
	memcpy(bad, p.desc, p.desc_len);
	bad[8] = 2; /* version 2, length and checksum left as they are */
	CHECK(expect_refused(bad, p.desc_len, dpu, DOCA_ERROR_INVALID_VALUE, "version 2") == 0);

	/* Forged with a valid checksum. */
	for (size_t i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
		CHECK(forge(&p, forged[i].edit, bad) == 0);
		if (expect_refused(bad, EXPORT_DESC_LEN, dpu, DOCA_ERROR_INVALID_VALUE, forged[i].word) != 0) {
			fprintf(stderr, "  forged descriptor %zu was not refused as expected\n", i);
			return 1;
		}
	}

	/* The genuine one still works, and the from-export map refuses configuration. */
	CHECK_ERR(doca_mmap_create_from_export(NULL, p.desc, p.desc_len, dpu, &rm), DOCA_SUCCESS);
	{
		struct doca_buf_inventory *inv = NULL;
		struct doca_buf *b = NULL;
		const void *d = NULL;
		size_t len = 0;
		void *addr = NULL;
		off_t mark;

		CHECK_ERR(doca_mmap_get_memrange(rm, &addr, &len), DOCA_SUCCESS);
		CHECK_EQ((uintptr_t)addr, p.addr);
		CHECK_EQ(len, p.size);
		CHECK_ERR(doca_mmap_set_memrange(rm, addr, len), DOCA_ERROR_NOT_PERMITTED);
		CHECK_ERR(doca_mmap_set_permissions(rm, DOCA_ACCESS_FLAG_PCI_READ_WRITE), DOCA_ERROR_NOT_PERMITTED);
		CHECK_ERR(doca_mmap_add_dev(rm, dpu), DOCA_ERROR_NOT_PERMITTED);
		CHECK_ERR(doca_mmap_start(rm), DOCA_ERROR_NOT_PERMITTED);
		CHECK_ERR(doca_mmap_stop(rm), DOCA_ERROR_NOT_PERMITTED);
		CHECK_ERR(doca_mmap_export_pci(rm, dpu, &d, &len), DOCA_ERROR_NOT_PERMITTED);
		CHECK_ERR(doca_buf_inventory_create(4, &inv), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_start(inv), DOCA_SUCCESS);
		/* The range outside the export is refused, with the range named. */
		mark = log_mark();
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, rm, (void *)(uintptr_t)(p.addr + p.size - 8), 16, &b),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_LOG(mark, "outside mmap");
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, rm, (void *)(uintptr_t)(p.addr - 1), 16, &b),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, rm, (void *)(uintptr_t)p.addr, p.size, &b), DOCA_SUCCESS);
		CHECK_ERR(doca_mmap_destroy(rm), DOCA_ERROR_NOT_PERMITTED); /* a buf points in */
		CHECK_ERR(doca_buf_dec_refcount(b, NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	}
	CHECK_ERR(doca_mmap_destroy(rm), DOCA_SUCCESS);
	CHECK_ERR(doca_dev_close(dpu), DOCA_SUCCESS);
	CHECK(xp_finish(&p) == 0);
	return 0;
}

static int import_via(const struct xp_peer *p, const char *pci, doca_error_t want, const char *word)
{
	struct doca_dev *dev = NULL;
	struct doca_mmap *rm = NULL;

	CHECK_ERR(sd_dev_open(pci, &dev), DOCA_SUCCESS);
	if (want == DOCA_SUCCESS) {
		CHECK_ERR(doca_mmap_create_from_export(NULL, p->desc, p->desc_len, dev, &rm), DOCA_SUCCESS);
		CHECK_ERR(doca_mmap_destroy(rm), DOCA_SUCCESS);
	} else if (expect_refused(p->desc, p->desc_len, dev, want, word) != 0) {
		fprintf(stderr, "  import through %s\n", pci);
		return 1;
	}
	CHECK_ERR(doca_dev_close(dev), DOCA_SUCCESS);
	return 0;
}

/* Who may import what: a host function pairs with the DPU device holding its representor. */
static int test_pairing(void)
{
	struct xp_peer host, dpu;

	CHECK(xp_start(&host, "-d", "b1:00.0") == 0);
	CHECK(import_via(&host, "03:00.0", DOCA_SUCCESS, NULL) == 0);
	CHECK(import_via(&host, "b1:00.0", DOCA_SUCCESS, NULL) == 0); /* the exporting device itself */
	CHECK(import_via(&host, "03:00.1", DOCA_ERROR_NOT_PERMITTED, "import through 03:00.0") == 0);
	CHECK(import_via(&host, "b1:00.1", DOCA_ERROR_NOT_PERMITTED, "import through 03:00.0") == 0);
	CHECK(xp_finish(&host) == 0);

	CHECK(xp_start(&dpu, "-d", "03:00.1") == 0);
	CHECK(import_via(&dpu, "b1:00.1", DOCA_SUCCESS, NULL) == 0);
	CHECK(import_via(&dpu, "03:00.1", DOCA_SUCCESS, NULL) == 0);
	CHECK(import_via(&dpu, "b1:00.0", DOCA_ERROR_NOT_PERMITTED, "b1:00.1") == 0);
	CHECK(import_via(&dpu, "03:00.0", DOCA_ERROR_NOT_PERMITTED, "b1:00.1") == 0);
	CHECK(xp_finish(&dpu) == 0);
	return 0;
}

/* Descriptors outlive their export: every way it can go stale. */
static int test_stale(void)
{
	struct xp_peer p;
	struct doca_dev *dpu = NULL;
	struct doca_mmap *rm = NULL;
	uint8_t old[XP_DESC_MAX];
	size_t old_len;

	CHECK_ERR(sd_dev_open("03:00.0", &dpu), DOCA_SUCCESS);

	/* Stopped, then started and exported again: the old descriptor is dead, the new one works. */
	CHECK(xp_start(&p, "-s", "8192") == 0);
	memcpy(old, p.desc, p.desc_len);
	old_len = p.desc_len;
	CHECK(xp_ok(&p, "stop") == 0);
	CHECK(expect_refused(old, old_len, dpu, DOCA_ERROR_INVALID_VALUE, "stale") == 0);
	CHECK(xp_cmd(&p, NULL, 0, "restart") == 0);
	CHECK(memcmp(old, p.desc, old_len) != 0);
	CHECK(expect_refused(old, old_len, dpu, DOCA_ERROR_INVALID_VALUE, "stale") == 0);
	CHECK_ERR(doca_mmap_create_from_export(NULL, p.desc, p.desc_len, dpu, &rm), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_destroy(rm), DOCA_SUCCESS);

	/* Destroyed. */
	memcpy(old, p.desc, p.desc_len);
	CHECK(xp_ok(&p, "destroy") == 0);
	CHECK(expect_refused(old, old_len, dpu, DOCA_ERROR_INVALID_VALUE, "stale") == 0);
	CHECK(xp_finish(&p) == 0);

	/* The exporter exited. */
	CHECK(xp_start(&p, "-s", "8192") == 0);
	memcpy(old, p.desc, p.desc_len);
	CHECK(xp_finish(&p) == 0);
	CHECK(expect_refused(old, old_len, dpu, DOCA_ERROR_INVALID_VALUE, "stale") == 0);

	/* The exporter was killed. */
	CHECK(xp_start(&p, "-s", "8192") == 0);
	memcpy(old, p.desc, p.desc_len);
	xp_kill(&p);
	CHECK(expect_refused(old, old_len, dpu, DOCA_ERROR_INVALID_VALUE, "stale") == 0);

	CHECK_ERR(doca_dev_close(dpu), DOCA_SUCCESS);
	return 0;
}

/*
 * Another user, or an exporter the kernel protects: NOT_PERMITTED with the cause. As root
 * (CAP_SYS_PTRACE opens every door) a child drops to nobody to import; otherwise the exporter
 * makes itself non-dumpable.
 */
static const struct xp_peer *perm_peer;

static int perm_child(void)
{
	struct doca_dev *dpu = NULL;

	if (getuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) {
		fprintf(stderr, "  cannot become nobody\n");
		return 1;
	}
	CHECK_ERR(sd_dev_open("03:00.0", &dpu), DOCA_SUCCESS);
	CHECK(expect_refused(perm_peer->desc, perm_peer->desc_len, dpu, DOCA_ERROR_NOT_PERMITTED,
			     getuid() != 0 && geteuid() == 65534 ? "uid" : "not dumpable") == 0);
	CHECK_ERR(doca_dev_close(dpu), DOCA_SUCCESS);
	return 0;
}

static int test_permission(void)
{
	struct xp_peer p;

	if (getuid() == 0)
		CHECK(xp_start(&p, "-s", "8192") == 0);
	else
		CHECK(xp_start(&p, "-s", "8192", "-n") == 0);
	perm_peer = &p;
	CHECK(in_child(perm_child, "permission") == 0);
	CHECK(xp_finish(&p) == 0);
	return 0;
}

int main(void)
{
	/* Every forged descriptor must be refused with a line, the identical ones too. */
	sd_setenv("SOFTDOCA_LOG_REPEATS", "0");
	if (log_capture_init() != 0)
		return T_EXIT_FAIL;
	alarm(120);
	/* Start times in /proc/<pid>/stat count clock ticks (1/100 s): an exporter started in this
	 * process's tick could not be told from it by its start time, and a descriptor forged to
	 * name this process would be refused for its record instead (still refused, another line). */
	usleep(30 * 1000);
	sd_tmpdir(); /* here, not in the children that write their configuration into it */
	if (in_child(case_profile_closed, "profile without export/import") != 0 ||
	    in_child(case_topology_differs, "topology without the exporting device") != 0)
		return T_EXIT_FAIL;
	if (test_export_rules() != 0 || test_descriptors() != 0 || test_forged_fields() != 0 || test_pairing() != 0 ||
	    test_stale() != 0 ||
	    test_permission() != 0)
		return T_EXIT_FAIL;
	printf("xproc_import: ok\n");
	return T_EXIT_PASS;
}
