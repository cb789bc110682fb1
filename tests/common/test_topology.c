/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_topology.c - white-box tests of the topology: the SOFTDOCA_CONFIG parser, the embedded
 * default, topo_parse_pci() and topo_get().
 *
 * Every error case asserts the exact "line N: field 'F': " prefix, since naming the line and
 * the field is the point of the format. topo_get() caches its answer for the life of the
 * process, so each of its cases runs in a forked child with its own environment.
 *
 * Usage: test_topology [docs/config.md]; with the path, every ```ini block of the user
 * documentation must parse, and the one marked "test: default-topology" must reproduce
 * topo_default().
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/sd_test.h"
#include "topology.h"

/* Both are too big for a comfortable stack frame. */
static struct topology topo, topo2;

/* ---- helpers -------------------------------------------------------------------------------- */

/* Parses @len bytes (string literals may hold NULs, hence the explicit length). */
static bool parse_ok_at(int line, const char *text, size_t len)
{
	char err[512];
	doca_error_t ret = topo_parse(text, len, &topo, err, sizeof(err));

	if (!sd_expect_at(__FILE__, line, ret == DOCA_SUCCESS, "topo_parse() succeeds")) {
		fprintf(stderr, "    error: %s\n", err);
		return false;
	}
	return true;
}

/*
 * Expects failure with an error starting with @prefix ("line N: field 'F': ") and, when
 * @reason is not NULL, containing it. The topology must come back zeroed.
 */
static void parse_err_at(int line, const char *text, size_t len, const char *prefix, const char *reason)
{
	char err[512];
	doca_error_t ret;

	/* Make sure a failure really clears a topology that held something. */
	topo_default(&topo);
	ret = topo_parse(text, len, &topo, err, sizeof(err));
	if (!sd_expect_at(__FILE__, line, ret == DOCA_ERROR_BAD_CONFIG, "topo_parse() fails with BAD_CONFIG"))
		return;
	if (!sd_expect_at(__FILE__, line, strncmp(err, prefix, strlen(prefix)) == 0, "error prefix"))
		fprintf(stderr, "    got  '%s'\n    want '%s...'\n", err, prefix);
	if (reason && !sd_expect_at(__FILE__, line, strstr(err, reason) != NULL, "error reason"))
		fprintf(stderr, "    got  '%s'\n    want '...%s...'\n", err, reason);
	sd_expect_at(__FILE__, line, topo.nb_devices == 0 && topo.nb_profiles == 0, "topology zeroed on error");
}

#define PARSE_OK(lit)		       parse_ok_at(__LINE__, (lit), sizeof(lit) - 1)
#define PARSE_ERR(lit, prefix, reason) parse_err_at(__LINE__, (lit), sizeof(lit) - 1, prefix, reason)
#define PARSE_OK_S(s)		       parse_ok_at(__LINE__, (s), strlen(s))
#define PARSE_ERR_S(s, prefix, reason) parse_err_at(__LINE__, (s), strlen(s), prefix, reason)

/* A growing text buffer for generated files. */
struct text {
	char *p;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3))) static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->len + (size_t)n + 1) * 2;
		t->p = realloc(t->p, t->cap);
		if (!t->p) {
			perror("realloc");
			exit(1);
		}
	}
	va_start(ap, fmt);
	vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static void text_reset(struct text *t)
{
	t->len = 0;
	if (t->p)
		t->p[0] = '\0';
}

static const struct topo_device *find_dev(const struct topology *t, const char *pci)
{
	uint16_t domain;
	uint8_t bus, dev, fn;

	if (topo_parse_pci(pci, &domain, &bus, &dev, &fn))
		return NULL;
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct topo_device *d = &t->devices[i];

		if (d->domain == domain && d->bus == bus && d->dev == dev && d->fn == fn)
			return d;
	}
	return NULL;
}

static const struct topo_profile *dev_profile(const struct topology *t, const struct topo_device *d)
{
	return d->profile < t->nb_profiles ? &t->profiles[d->profile] : NULL;
}

static bool mac_is(const struct topo_device *d, uint8_t a, uint8_t b, uint8_t c, uint8_t e, uint8_t f, uint8_t g)
{
	const uint8_t want[6] = {a, b, c, e, f, g};

	return memcmp(d->mac, want, 6) == 0;
}

static bool caps_equal(const struct topo_profile *p, const struct topo_profile *q)
{
	const struct topo_caps_dma *a = &p->dma, *b = &q->dma;
	const struct topo_caps_comch *c = &p->comch, *d = &q->comch;
	const struct topo_caps_eth *e = &p->eth, *f = &q->eth;

	return a->supported == b->supported && a->max_buf_size == b->max_buf_size &&
	       a->max_buf_list_len == b->max_buf_list_len && a->max_tasks == b->max_tasks &&
	       a->queue_depth == b->queue_depth && c->supported == d->supported && c->max_msg_size == d->max_msg_size &&
	       c->max_name_len == d->max_name_len && c->max_clients == d->max_clients &&
	       c->max_send_tasks == d->max_send_tasks && c->max_recv_queue_size == d->max_recv_queue_size &&
	       c->max_consumers == d->max_consumers && c->max_producers == d->max_producers &&
	       c->consumer_max_num_tasks == d->consumer_max_num_tasks &&
	       c->producer_max_num_tasks == d->producer_max_num_tasks &&
	       c->consumer_max_buf_size == d->consumer_max_buf_size &&
	       c->producer_max_buf_size == d->producer_max_buf_size && e->supported == f->supported &&
	       e->max_burst_size == f->max_burst_size && e->max_packet_size == f->max_packet_size &&
	       e->max_queue_size == f->max_queue_size;
}

/* Compares everything but the source; reports the first difference. */
static bool topo_equal(const struct topology *a, const struct topology *b)
{
	if (a->nb_profiles != b->nb_profiles || a->nb_devices != b->nb_devices) {
		fprintf(stderr, "    %u/%u profiles, %u/%u devices\n", a->nb_profiles, b->nb_profiles, a->nb_devices,
			b->nb_devices);
		return false;
	}
	for (uint32_t i = 0; i < a->nb_profiles; i++) {
		const struct topo_profile *p = &a->profiles[i], *q = &b->profiles[i];

		if (strcmp(p->name, q->name) || p->export_pci != q->export_pci || p->import_pci != q->import_pci ||
		    !caps_equal(p, q)) {
			fprintf(stderr, "    profile %u (%s/%s) differs\n", i, p->name, q->name);
			return false;
		}
	}
	for (uint32_t i = 0; i < a->nb_devices; i++) {
		const struct topo_device *d = &a->devices[i], *e = &b->devices[i];

		if (d->domain != e->domain || d->bus != e->bus || d->dev != e->dev || d->fn != e->fn ||
		    d->side != e->side || d->func != e->func || d->sf_index != e->sf_index ||
		    strcmp(d->ibdev, e->ibdev) || strcmp(d->iface, e->iface) ||
		    memcmp(d->mac, e->mac, sizeof(d->mac)) || d->profile != e->profile || d->nb_reps != e->nb_reps ||
		    d->medium != e->medium || (d->medium == TOPO_MEDIUM_WIRE && d->wire_peer != e->wire_peer) ||
		    strcmp(d->ifname, e->ifname) || strcmp(d->netns, e->netns)) {
			fprintf(stderr, "    device %u (%s/%s) differs\n", i, d->ibdev, e->ibdev);
			return false;
		}
		for (uint32_t k = 0; k < d->nb_reps; k++) {
			const struct topo_rep *r = &d->reps[k], *s = &e->reps[k];

			if (r->domain != s->domain || r->bus != s->bus || r->dev != s->dev || r->fn != s->fn ||
			    strcmp(r->vuid, s->vuid)) {
				fprintf(stderr, "    device %u representor %u (%s/%s) differs\n", i, k, r->vuid,
					s->vuid);
				return false;
			}
		}
	}
	if (strcmp(a->engine, b->engine) || a->workers != b->workers) {
		fprintf(stderr, "    engine '%s'/'%s' workers %u/%u\n", a->engine, b->engine, a->workers, b->workers);
		return false;
	}
	return true;
}

/* ---- topo_parse_pci ------------------------------------------------------------------------- */

static void test_pci(void)
{
	static const struct {
		const char *s;
		uint16_t domain;
		uint8_t bus, dev, fn;
	} good[] = {
	    {"03:00.0", 0, 0x03, 0, 0},
	    {"0000:03:00.1", 0, 0x03, 0, 1},
	    {"b1:00.0", 0, 0xb1, 0, 0},
	    {"B1:1F.7", 0, 0xb1, 0x1f, 7},
	    {"ffff:ff:1f.7", 0xffff, 0xff, 0x1f, 7},
	    {"AbCd:eF:0a.3", 0xabcd, 0xef, 0x0a, 3},
	};
	static const char *const bad[] = {
	    "",		  "3:00.0",   "03:0.0",	  "003:00.0",	   "03:00.8",	    "03:20.0",
	    "03:ff.0",	  "03:00.0 ", " 03:00.0", "0000:03:00.0x", "00000:03:00.0", "000:03:00.0",
	    "03-00.0",	  "03:00:0",  "g3:00.0",  "03:00.g",	   "0000.03:00.0",  "000g:03:00.0",
	    "0000:03:00", "03:00.",   "+3:00.0",  "0x03:00.0",	   "03:00.0\n",	    "0000:03:00.00",
	};
	uint16_t domain;
	uint8_t bus, dev, fn;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		domain = 0x5555;
		bus = dev = fn = 0x55;
		if (!EXPECT(topo_parse_pci(good[i].s, &domain, &bus, &dev, &fn) == 0)) {
			fprintf(stderr, "    '%s'\n", good[i].s);
			continue;
		}
		EXPECT(domain == good[i].domain && bus == good[i].bus && dev == good[i].dev && fn == good[i].fn);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!EXPECT(topo_parse_pci(bad[i], &domain, &bus, &dev, &fn) == -1))
			fprintf(stderr, "    '%s' accepted\n", bad[i]);
	EXPECT(topo_parse_pci(NULL, &domain, &bus, &dev, &fn) == -1);
	/* Outputs are optional, so a caller may only validate. */
	EXPECT(topo_parse_pci("03:00.0", NULL, NULL, NULL, NULL) == 0);
	/* A failure leaves the outputs alone. */
	domain = 7;
	EXPECT(topo_parse_pci("zz:00.0", &domain, NULL, NULL, NULL) == -1 && domain == 7);
}

/* ---- the embedded default ------------------------------------------------------------------- */

static void check_default_contents(const struct topology *t)
{
	const struct topo_profile *p = &t->profiles[0];
	static const struct {
		const char *pci, *ibdev, *iface, *rep;
		enum topo_side side;
	} want[] = {
	    {"03:00.0", "mlx5_0", "p0", "b1:00.0", TOPO_SIDE_DPU},
	    {"03:00.1", "mlx5_1", "p1", "b1:00.1", TOPO_SIDE_DPU},
	    {"b1:00.0", "mlx5_2", "ens1f0np0", NULL, TOPO_SIDE_HOST},
	    {"b1:00.1", "mlx5_3", "ens1f1np1", NULL, TOPO_SIDE_HOST},
	};

	EXPECT(t->nb_profiles == 1);
	EXPECT_STR(p->name, "default");
	EXPECT(p->dma.supported == 1 && p->export_pci == 1 && p->import_pci == 1);
	EXPECT(p->dma.max_buf_size == 1ull << 30);
	EXPECT(p->dma.max_buf_list_len == 32);
	EXPECT(p->dma.max_tasks == 65536 && p->dma.queue_depth == 65536);
	EXPECT_STR(t->engine, "");
	EXPECT(t->workers == 0);
	if (!EXPECT(t->nb_devices == 4))
		return;
	for (uint32_t i = 0; i < 4; i++) {
		const struct topo_device *d = &t->devices[i];
		uint16_t domain;
		uint8_t bus, dev, fn;

		topo_parse_pci(want[i].pci, &domain, &bus, &dev, &fn);
		EXPECT(d->domain == domain && d->bus == bus && d->dev == dev && d->fn == fn);
		EXPECT(d->side == want[i].side);
		EXPECT(d->func == DOCA_PCI_FUNC_TYPE_PF);
		EXPECT(d->profile == 0);
		EXPECT_STR(d->ibdev, want[i].ibdev);
		EXPECT_STR(d->iface, want[i].iface);
		/* Locally administered unicast, derived from the PCI address. */
		EXPECT(mac_is(d, 0x02, 0x5d, 0x0c, bus, dev, fn));
		if (want[i].rep) {
			const struct topo_rep *r = &d->reps[0];

			if (!EXPECT(d->nb_reps == 1))
				continue;
			topo_parse_pci(want[i].rep, &domain, &bus, &dev, &fn);
			EXPECT(r->domain == domain && r->bus == bus && r->dev == dev && r->fn == fn);
			EXPECT(strncmp(r->vuid, "SDOCA", 5) == 0);
		} else {
			EXPECT(d->nb_reps == 0);
		}
	}
	EXPECT_STR(t->devices[0].reps[0].vuid, "SDOCA0000B1000pf0hpf");
	EXPECT_STR(t->devices[1].reps[0].vuid, "SDOCA0000B1001pf1hpf");
	/* The DPU ports are cabled to each other, and the host PFs. */
	for (uint32_t i = 0; i < 4; i++)
		EXPECT(t->devices[i].medium == TOPO_MEDIUM_WIRE && t->devices[i].wire_peer == (i ^ 1));
}

static void test_default(void)
{
	memset(&topo, 0xa5, sizeof(topo));
	topo_default(&topo);
	check_default_contents(&topo);
	EXPECT_STR(topo.source, "embedded default");
	/* Stable: two calls give the same answer. */
	topo_default(&topo2);
	EXPECT(memcmp(&topo, &topo2, sizeof(topo)) == 0);
}

/* ---- valid files ---------------------------------------------------------------------------- */

static void test_empty_and_comments(void)
{
	topo_default(&topo2);
	/* No devices in the text: the default devices stay. */
	if (PARSE_OK(""))
		EXPECT(topo_equal(&topo, &topo2));
	EXPECT(topo_parse(NULL, 0, &topo, NULL, 0) == DOCA_SUCCESS);
	EXPECT_STR(topo.source, "");
	if (PARSE_OK("\n\n   \n\t\n# comment\n; another\n   # indented\n"))
		EXPECT(topo_equal(&topo, &topo2));
	/* UTF-8 is fine inside comments. */
	PARSE_OK("# caf\xc3\xa9 \xe2\x80\x94 ok\n[engine] ; \xc3\xa9\nname = cpu # \xc3\xa9\n");
	/* CRLF line endings, tabs, no final newline, spaces inside the brackets. */
	if (PARSE_OK("[ device\t03:00.0 ]\r\n\tside\t=\tdpu\r\n[device 04:00.0]\r\nside=host")) {
		EXPECT(topo.nb_devices == 2);
		EXPECT(topo.devices[0].side == TOPO_SIDE_DPU && topo.devices[1].side == TOPO_SIDE_HOST);
	}
	/* Inline comments need a blank before them. */
	PARSE_ERR("[engine]\nname = auto;x\n", "line 2: field 'name': ", "expected inline, cpu or auto");
	if (PARSE_OK("[engine]\nname = auto ;x\nworkers = 3\t# three\n"))
		EXPECT_STR(topo.engine, "auto");
}

static void test_full_file(void)
{
	static const char text[] = "; every key once\n"
				   "[engine]\n"
				   "name = cpu\n"
				   "workers = 4\n"
				   "\n"
				   "[device 0000:03:00.0]\n"
				   "side = dpu\n"
				   "ibdev = mlx5_7\n"
				   "iface = pf0\n"
				   "mac = 02:AA:bb:CC:dd:01\n"
				   "profile = big        # defined further down\n"
				   "func = pf\n"
				   "representor = b1:00.0 MY-VUID.0\n"
				   "representor = 0000:b1:00.2\n"
				   "\n"
				   "[device 0001:04:00.3]\n"
				   "side = dpu\n"
				   "func = sf\n"
				   "sf_index = 7\n"
				   "profile = nodma\n"
				   "\n"
				   "[device B1:00.0]\n"
				   "side = host\n"
				   "func = vf\n"
				   "profile = small\n"
				   "\n"
				   "[profile big]\n"
				   "max_buf_size = 2G\n"
				   "max_tasks = 1048576\n"
				   "queue_depth = 1024\n"
				   "\n"
				   "[profile nodma]\n"
				   "dma = no\n"
				   "export_pci = no\n"
				   "import_pci = no\n"
				   "\n"
				   "[profile small]\n"
				   "max_buf_size = 4k\n"
				   "max_buf_list_len = 1\n";
	const struct topo_device *d;
	const struct topo_profile *p;

	if (!PARSE_OK(text))
		return;
	EXPECT_STR(topo.engine, "cpu");
	EXPECT(topo.workers == 4);
	EXPECT(topo.nb_devices == 3 && topo.nb_profiles == 4);

	d = find_dev(&topo, "03:00.0");
	if (EXPECT(d != NULL)) {
		EXPECT(d == &topo.devices[0]);
		EXPECT(d->side == TOPO_SIDE_DPU && d->func == DOCA_PCI_FUNC_TYPE_PF);
		EXPECT_STR(d->ibdev, "mlx5_7");
		EXPECT_STR(d->iface, "pf0");
		EXPECT(mac_is(d, 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x01));
		EXPECT(d->nb_reps == 2);
		EXPECT(d->reps[0].bus == 0xb1 && d->reps[0].fn == 0);
		EXPECT_STR(d->reps[0].vuid, "MY-VUID.0");
		EXPECT(d->reps[1].bus == 0xb1 && d->reps[1].fn == 2);
		EXPECT_STR(d->reps[1].vuid, "SDOCA0000B1002pf0hpf");
		p = dev_profile(&topo, d);
		if (EXPECT(p != NULL)) {
			EXPECT_STR(p->name, "big");
			EXPECT(p->dma.max_buf_size == 2ull << 30);
			EXPECT(p->dma.max_tasks == 1048576 && p->dma.queue_depth == 1024);
			/* Everything else inherited from the built-in default. */
			EXPECT(p->dma.supported == 1 && p->export_pci == 1 && p->import_pci == 1);
			EXPECT(p->dma.max_buf_list_len == 32);
		}
	}
	d = find_dev(&topo, "0001:04:00.3");
	if (EXPECT(d != NULL)) {
		EXPECT(d->domain == 1);
		EXPECT(d->func == DOCA_PCI_FUNC_TYPE_SF && d->sf_index == 7);
		/* Index 1: mlx5_1 and p1 are free. */
		EXPECT_STR(d->ibdev, "mlx5_1");
		EXPECT_STR(d->iface, "p1");
		/* The domain is folded into the default MAC so it stays unique. */
		EXPECT(mac_is(d, 0x02, 0x5d, 0x0c ^ 0x01, 0x04, 0x00, 0x03));
		p = dev_profile(&topo, d);
		if (EXPECT(p != NULL)) {
			EXPECT_STR(p->name, "nodma");
			EXPECT(p->dma.supported == 0 && p->export_pci == 0 && p->import_pci == 0);
			EXPECT(p->dma.max_buf_size == 1ull << 30 && p->dma.max_tasks == 65536);
		}
	}
	d = find_dev(&topo, "b1:00.0");
	if (EXPECT(d != NULL)) {
		EXPECT(d->side == TOPO_SIDE_HOST && d->func == DOCA_PCI_FUNC_TYPE_VF);
		EXPECT_STR(d->ibdev, "mlx5_2");
		EXPECT_STR(d->iface, "ens2f0");
		EXPECT(mac_is(d, 0x02, 0x5d, 0x0c, 0xb1, 0x00, 0x00));
		p = dev_profile(&topo, d);
		if (EXPECT(p != NULL)) {
			EXPECT_STR(p->name, "small");
			EXPECT(p->dma.max_buf_size == 4096 && p->dma.max_buf_list_len == 1);
		}
	}
	/* The default profile is untouched and comes first. */
	EXPECT_STR(topo.profiles[0].name, "default");
	EXPECT(topo.profiles[0].dma.max_buf_size == 1ull << 30);
}

static void test_profiles(void)
{
	const struct topo_profile *p;

	/* Profiles only: the default devices stay, and use the redefined default. */
	if (PARSE_OK("[profile default]\nqueue_depth = 128\nmax_tasks = 1024\n\n[profile spare]\n")) {
		topo_default(&topo2);
		EXPECT(topo.nb_devices == 4 && topo.nb_profiles == 2);
		for (uint32_t i = 0; i < topo.nb_devices; i++)
			EXPECT(topo.devices[i].profile == 0);
		p = &topo.profiles[0];
		EXPECT(p->dma.queue_depth == 128 && p->dma.max_tasks == 1024);
		EXPECT(p->dma.max_buf_size == 1ull << 30 && p->dma.supported == 1);
		/* An empty profile is a copy of the built-in default. */
		p = &topo.profiles[1];
		EXPECT_STR(p->name, "spare");
		EXPECT(p->dma.queue_depth == 65536 && p->dma.max_tasks == 65536 && p->dma.max_buf_list_len == 32);
		topo2.profiles[0] = topo.profiles[0];
		topo2.nb_profiles = 2;
		topo2.profiles[1] = topo.profiles[1];
		EXPECT(topo_equal(&topo, &topo2));
	}
	/* A redefined default, defined after the devices, applies to devices without profile =. */
	if (PARSE_OK("[device 03:00.0]\nside = dpu\n[device 03:00.1]\nside = dpu\nprofile = x\n"
		     "[profile x]\nmax_tasks = 3\n[profile default]\ndma = no\n")) {
		EXPECT(topo.devices[0].profile == 0);
		EXPECT(topo.profiles[0].dma.supported == 0);
		p = dev_profile(&topo, &topo.devices[1]);
		/* x inherits from the built-in default, not from the redefined one. */
		if (EXPECT(p != NULL))
			EXPECT(p->dma.max_tasks == 3 && p->dma.supported == 1);
	}
	/* profile = default names the (possibly redefined) default explicitly. */
	if (PARSE_OK("[device 03:00.0]\nside = dpu\nprofile = default\n"))
		EXPECT(topo.devices[0].profile == 0);
	/* Only the engine: devices and profiles stay default. */
	if (PARSE_OK("[engine]\nname = inline\n")) {
		EXPECT_STR(topo.engine, "inline");
		EXPECT(topo.workers == 0 && topo.nb_devices == 4);
	}
	if (PARSE_OK("[engine]\nworkers = 64\n")) {
		EXPECT_STR(topo.engine, "");
		EXPECT(topo.workers == 64);
	}
	PARSE_OK("[engine]\n");
}

static void test_sizes_and_ranges(void)
{
	static const struct {
		const char *v;
		uint64_t want;
	} sizes[] = {
	    {"1", 1},
	    {"4096", 4096},
	    {"4K", 4096},
	    {"4k", 4096},
	    {"007", 7},
	    {"3M", 3ull << 20},
	    {"3m", 3ull << 20},
	    {"1G", 1ull << 30},
	    {"1g", 1ull << 30},
	    {"1024G", 1ull << 40},
	    {"1099511627776", 1ull << 40},
	};
	struct text t = {0};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		text_reset(&t);
		text_add(&t, "[profile p]\nmax_buf_size = %s\n", sizes[i].v);
		if (PARSE_OK_S(t.p) && !EXPECT(topo.profiles[1].dma.max_buf_size == sizes[i].want))
			fprintf(stderr, "    '%s'\n", sizes[i].v);
	}
	if (PARSE_OK("[profile p]\nmax_buf_list_len = 1024\nmax_tasks = 16777216\n"
		     "queue_depth = 1\n")) {
		EXPECT(topo.profiles[1].dma.max_buf_list_len == 1024);
		EXPECT(topo.profiles[1].dma.max_tasks == 16777216 && topo.profiles[1].dma.queue_depth == 1);
	}
	if (PARSE_OK("[device 03:00.0]\nside = dpu\nfunc = sf\nsf_index = 4294967295\n"))
		EXPECT(topo.devices[0].sf_index == 4294967295u);
	if (PARSE_OK("[engine]\nworkers = 1\n"))
		EXPECT(topo.workers == 1);
	free(t.p);
}

static void test_derived_names(void)
{
	/* Explicit names take precedence; a default skips to the next free number. */
	if (PARSE_OK("[device 03:00.0]\nside = dpu\nibdev = mlx5_1\niface = p1\n"
		     "[device 03:00.1]\nside = dpu\n"
		     "[device 03:00.2]\nside = dpu\nibdev = mlx5_0\n"
		     "[device b1:00.0]\nside = host\niface = ens4f0\n"
		     "[device b1:00.1]\nside = host\n")) {
		EXPECT_STR(topo.devices[0].ibdev, "mlx5_1");
		EXPECT_STR(topo.devices[1].ibdev, "mlx5_2");
		EXPECT_STR(topo.devices[2].ibdev, "mlx5_0");
		EXPECT_STR(topo.devices[3].ibdev, "mlx5_3");
		EXPECT_STR(topo.devices[4].ibdev, "mlx5_4");
		EXPECT_STR(topo.devices[0].iface, "p1");
		EXPECT_STR(topo.devices[1].iface, "p2");
		EXPECT_STR(topo.devices[2].iface, "p3");
		EXPECT_STR(topo.devices[3].iface, "ens4f0");
		EXPECT_STR(topo.devices[4].iface, "ens5f0");
	}
	/* A device may reuse the name its own default would have had. */
	if (PARSE_OK("[device 03:00.0]\nside = dpu\nibdev = mlx5_0\niface = p0\n"))
		EXPECT_STR(topo.devices[0].ibdev, "mlx5_0");
}

static void test_limits(void)
{
	struct text t = {0};
	char name[200], line[1024];

	/* Exactly TOPO_MAX_DEVICES devices, each with TOPO_MAX_REPS... on the dpu ones. */
	for (int i = 0; i < TOPO_MAX_DEVICES; i++) {
		text_add(&t, "[device %02x:00.0]\nside = %s\n", i, i < 2 ? "dpu" : "host");
		for (int k = 0; i < 2 && k < TOPO_MAX_REPS; k++)
			text_add(&t, "representor = %02x:%02x.%d\n", 0x80 + i, k / 8, k % 8);
	}
	if (PARSE_OK_S(t.p)) {
		EXPECT(topo.nb_devices == TOPO_MAX_DEVICES);
		EXPECT(topo.devices[0].nb_reps == TOPO_MAX_REPS);
		EXPECT_STR(topo.devices[63].ibdev, "mlx5_63");
		EXPECT_STR(topo.devices[63].iface, "ens63f0");
		EXPECT(topo.devices[63].bus == 63);
	}
	/* Exactly TOPO_MAX_PROFILES profiles, counting default. */
	text_reset(&t);
	for (int i = 1; i < TOPO_MAX_PROFILES; i++)
		text_add(&t, "[profile p%d]\nmax_tasks = %d\n", i, i);
	if (PARSE_OK_S(t.p)) {
		EXPECT(topo.nb_profiles == TOPO_MAX_PROFILES);
		EXPECT(topo.profiles[31].dma.max_tasks == 31);
	}
	/* The longest names and vuid. */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	text_reset(&t);
	text_add(&t,
		 "[profile %.63s]\n[device 03:00.0]\nside = dpu\nprofile = %.63s\nibdev = %.63s\n"
		 "iface = %.63s\nrepresentor = b1:00.0 %.127s\n",
		 name, name, name, name, name);
	if (PARSE_OK_S(t.p)) {
		EXPECT(strlen(topo.devices[0].ibdev) == 63 && strlen(topo.devices[0].iface) == 63);
		EXPECT(strlen(topo.profiles[1].name) == 63);
		EXPECT(strlen(topo.devices[0].reps[0].vuid) == 127);
	}
	/* A line of exactly 1024 bytes (not counting its end) is fine, even with a CR. */
	memset(line, 'c', sizeof(line));
	line[1023] = '\0';
	text_reset(&t);
	text_add(&t, "#%s\r\n[engine]\n#%s", line, line);
	PARSE_OK_S(t.p);
	free(t.p);
}

/* ---- errors ----------------------------------------------------------------------------------- */

static void test_lexical_errors(void)
{
	struct text t = {0};
	char line[1025];

	PARSE_ERR("[device 03:00.0]\nside = d\0pu\n", "line 2: field 'line': ", "NUL byte at column 9");
	/* Even a NUL at the very end, or inside a comment, is refused. */
	PARSE_ERR("[engine]\n\0", "line 2: field 'line': ", "NUL byte at column 1");
	PARSE_ERR("# a\0b\n", "line 1: field 'line': ", "NUL byte");
	PARSE_ERR("[engine]\nname = cpu\x1b[0m\n", "line 2: field 'line': ", "non-printable byte 0x1b at column 11");
	PARSE_ERR("\n\n# \x7f\n", "line 3: field 'line': ", "non-printable byte 0x7f");
	PARSE_ERR("[engine]\rname = cpu\n", "line 1: field 'line': ", "non-printable byte 0x0d");
	PARSE_ERR("[engine]\nname = cpu\x0b\n", "line 2: field 'line': ", "0x0b");
	PARSE_ERR("[device 03:00.0]\nside = dpu\niface = caf\xc3\xa9\n",
		  "line 3: field 'line': ", "non-ASCII byte 0xc3 at column 12");
	/* A '#' without a blank before it does not start a comment. */
	PARSE_ERR("[engine]#x\n", "line 1: field 'section': ", "missing ']'");
	/* 1025 bytes, in a comment. */
	memset(line, 'c', sizeof(line));
	line[1024] = '\0';
	text_add(&t, "[engine]\n#%s\n", line);
	PARSE_ERR_S(t.p, "line 2: field 'line': ", "longer than 1024 bytes");
	/* Line numbers count blank lines, comments and CRLF ends; the last line needs no '\n'. */
	PARSE_ERR("# one\r\n\r\n[engine]\r\n\r\n; five\r\nname = cpu\r\nworkers = 0",
		  "line 7: field 'workers': ", "out of range");
	free(t.p);
}

static void test_section_errors(void)
{
	struct text t = {0};

	PARSE_ERR("[devices 03:00.0]\nside = dpu\n", "line 1: field 'section': ", "unknown section kind 'devices'");
	PARSE_ERR("\n[Device 03:00.0]\n", "line 2: field 'section': ", "unknown section kind");
	PARSE_ERR("[]\n", "line 1: field 'section': ", "empty section header");
	PARSE_ERR("[ \t]\n", "line 1: field 'section': ", "empty section header");
	PARSE_ERR("[\n", "line 1: field 'section': ", "missing ']'");
	PARSE_ERR("[device 03:00.0\n", "line 1: field 'section': ", "missing ']'");
	PARSE_ERR("[engine] x\n", "line 1: field 'section': ", "missing ']'");
	PARSE_ERR("[profile]\n", "line 1: field 'section': ", "missing profile name");
	PARSE_ERR("[profile a b]\n", "line 1: field 'section': ", "not allowed in a name");
	PARSE_ERR("[profile a/b]\n", "line 1: field 'section': ", "'/' is not allowed");
	PARSE_ERR("[device]\n", "line 1: field 'section': ", "missing PCI address");
	PARSE_ERR("[device 3:00.0]\n", "line 1: field 'section': ", "malformed PCI address '3:00.0'");
	PARSE_ERR("[device 03:00.0 x]\n", "line 1: field 'section': ", "malformed PCI address");
	PARSE_ERR("[device 03:00.8]\n", "line 1: field 'section': ", "malformed PCI address");
	PARSE_ERR("[engine x]\n", "line 1: field 'section': ", "takes no name");
	PARSE_ERR("[engine]\n[profile a]\n[engine]\n",
		  "line 3: field 'section': ", "[engine] already defined on line 1");
	PARSE_ERR("[profile a]\n\n[profile a]\n", "line 3: field 'section': ", "profile 'a' already defined on line 1");
	/* default may be redefined once, not twice. */
	PARSE_ERR("[profile default]\n[profile default]\n",
		  "line 2: field 'section': ", "profile 'default' already defined on line 1");
	/* Short and long forms name the same device. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\n[device 0000:03:00.0]\nside = dpu\n",
		  "line 3: field 'section': ", "device 0000:03:00.0 already defined on line 1");
	PARSE_ERR("[device b1:00.0]\nside = host\n[device B1:00.0]\n",
		  "line 3: field 'section': ", "already defined on line 1");

	/* One device too many. */
	for (int i = 0; i <= TOPO_MAX_DEVICES; i++)
		text_add(&t, "[device %02x:00.0]\nside = host\n", i);
	PARSE_ERR_S(t.p, "line 129: field 'section': ", "more than 64 devices");
	/* One profile too many: default counts, and redefining it takes no new slot. */
	text_reset(&t);
	text_add(&t, "[profile default]\n");
	for (int i = 1; i < TOPO_MAX_PROFILES; i++)
		text_add(&t, "[profile p%d]\n", i);
	PARSE_OK_S(t.p);
	text_add(&t, "[profile one_more]\n");
	PARSE_ERR_S(t.p, "line 33: field 'section': ", "more than 32 profiles");
	/* Profile name of 64 characters. */
	text_reset(&t);
	text_add(&t, "[profile %064d]\n", 0);
	PARSE_ERR_S(t.p, "line 1: field 'section': ", "longer than 63 characters");
	free(t.p);
}

static void test_key_errors(void)
{
	PARSE_ERR("dma = yes\n", "line 1: field 'dma': ", "outside a section");
	PARSE_ERR("# c\nfoo = 1\n[engine]\n", "line 2: field 'foo': ", "outside a section");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nspeed = 100G\n",
		  "line 3: field 'speed': ", "unknown key in a [device] section");
	PARSE_ERR("[profile p]\nside = dpu\n", "line 2: field 'side': ", "unknown key in a [profile] section");
	PARSE_ERR("[engine]\ndma = no\n", "line 2: field 'dma': ", "unknown key in a [engine] section");
	PARSE_ERR("[profile p]\nDMA = no\n", "line 2: field 'DMA': ", "unknown key");
	PARSE_ERR("[profile p]\nmax tasks = 3\n", "line 2: field 'max tasks': ", "unknown key");
	/* A long key is quoted only in part. */
	PARSE_ERR("[profile p]\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = 1\n",
		  "line 2: field 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...': ", "unknown key");
	PARSE_ERR("[profile p]\ndma = yes\n\ndma = no\n",
		  "line 4: field 'dma': ", "set twice in this section (first on line 2)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nside = dpu\n", "line 3: field 'side': ", "set twice");
	PARSE_ERR("[engine]\nname = cpu\nname = cpu\n", "line 3: field 'name': ", "set twice");
	/* The same key in another section is fine; a repeated section is not. */
	PARSE_OK("[profile a]\ndma = no\n[profile b]\ndma = no\n");
	PARSE_ERR("[profile p]\ndma\n", "line 2: field 'line': ", "expected 'key = value'");
	PARSE_ERR("[profile p]\n= 5\n", "line 2: field 'line': ", "missing key before '='");
	PARSE_ERR("[profile p]\ndma =\n", "line 2: field 'dma': ", "empty value");
	PARSE_ERR("[profile p]\ndma =   # nothing\n", "line 2: field 'dma': ", "empty value");
}

static void test_value_errors(void)
{
	/* Enumerations are exact and case-sensitive. */
	PARSE_ERR("[profile p]\ndma = true\n", "line 2: field 'dma': ", "expected yes or no, not 'true'");
	PARSE_ERR("[profile p]\nexport_pci = Yes\n", "line 2: field 'export_pci': ", "expected yes or no");
	PARSE_ERR("[profile p]\nimport_pci = 1\n", "line 2: field 'import_pci': ", "expected yes or no");
	PARSE_ERR("[device 03:00.0]\nside = arm\n", "line 2: field 'side': ", "expected dpu or host");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nfunc = PF\n", "line 3: field 'func': ", "expected pf, vf or sf");
	PARSE_ERR("[engine]\nname = cuda\n", "line 2: field 'name': ", "expected inline, cpu or auto");
	PARSE_ERR("[profile p]\ndma = yes no\n", "line 2: field 'dma': ", "expected yes or no");

	/* Numbers. */
	PARSE_ERR("[profile p]\nmax_tasks = -1\n", "line 2: field 'max_tasks': ", "is negative");
	PARSE_ERR("[profile p]\nmax_buf_size = -4K\n", "line 2: field 'max_buf_size': ", "negative");
	PARSE_ERR("[profile p]\nmax_tasks = abc\n", "line 2: field 'max_tasks': ", "not a decimal number");
	PARSE_ERR("[profile p]\nmax_tasks = +5\n", "line 2: field 'max_tasks': ", "not a decimal number");
	PARSE_ERR("[profile p]\nmax_tasks = 0x10\n",
		  "line 2: field 'max_tasks': ", "unexpected 'x10' after the number");
	PARSE_ERR("[profile p]\nmax_tasks = 12x\n", "line 2: field 'max_tasks': ", "unexpected 'x'");
	PARSE_ERR("[profile p]\nmax_tasks = 1.5\n", "line 2: field 'max_tasks': ", "unexpected '.5'");
	PARSE_ERR("[profile p]\nmax_tasks = 1 000\n", "line 2: field 'max_tasks': ", "unexpected ' 000'");
	/* Counts take no suffix. */
	PARSE_ERR("[profile p]\nmax_tasks = 4K\n", "line 2: field 'max_tasks': ", "unexpected 'K'");
	/* Sizes take one suffix, no unit. */
	PARSE_ERR("[profile p]\nmax_buf_size = 4KB\n", "line 2: field 'max_buf_size': ",
		  "unexpected 'B' after the number (a size takes one suffix: K, M or G)");
	PARSE_ERR("[profile p]\nmax_buf_size = 4KiB\n", "line 2: field 'max_buf_size': ", "unexpected 'iB'");
	PARSE_ERR("[profile p]\nmax_buf_size = 4T\n", "line 2: field 'max_buf_size': ", "unexpected 'T'");
	PARSE_ERR("[profile p]\nmax_buf_size = 4 K\n", "line 2: field 'max_buf_size': ", "unexpected ' K'");
	PARSE_ERR("[profile p]\nmax_buf_size = K\n", "line 2: field 'max_buf_size': ", "not a decimal number");
	/* Overflow of 64 bits, by digits or by the suffix. */
	PARSE_ERR("[profile p]\nmax_buf_size = 18446744073709551616\n",
		  "line 2: field 'max_buf_size': ", "out of range");
	PARSE_ERR("[profile p]\nmax_buf_size = 99999999999999999999999999999999\n",
		  "line 2: field 'max_buf_size': ", "out of range");
	PARSE_ERR("[profile p]\nmax_buf_size = 17179869184G\n", "line 2: field 'max_buf_size': ", "out of range");
	PARSE_ERR("[profile p]\nmax_tasks = 18446744073709551615\n", "line 2: field 'max_tasks': ", "out of range");
	/* Documented ranges. */
	PARSE_ERR("[profile p]\nmax_buf_size = 0\n",
		  "line 2: field 'max_buf_size': ", "'0' is out of range (1..1099511627776)");
	PARSE_ERR("[profile p]\nmax_buf_size = 1025G\n", "line 2: field 'max_buf_size': ", "out of range");
	PARSE_ERR("[profile p]\nmax_buf_list_len = 0\n",
		  "line 2: field 'max_buf_list_len': ", "out of range (1..1024)");
	PARSE_ERR("[profile p]\nmax_buf_list_len = 1025\n",
		  "line 2: field 'max_buf_list_len': ", "out of range (1..1024)");
	PARSE_ERR("[profile p]\nmax_tasks = 0\n", "line 2: field 'max_tasks': ", "out of range (1..16777216)");
	PARSE_ERR("[profile p]\nmax_tasks = 16777217\n", "line 2: field 'max_tasks': ", "out of range");
	PARSE_ERR("[profile p]\nqueue_depth = 0\n", "line 2: field 'queue_depth': ", "out of range");
	PARSE_ERR("[profile p]\nqueue_depth = 16777217\n", "line 2: field 'queue_depth': ", "out of range");
	PARSE_ERR("[engine]\nworkers = 0\n", "line 2: field 'workers': ", "out of range (1..64)");
	PARSE_ERR("[engine]\nworkers = 65\n", "line 2: field 'workers': ", "out of range (1..64)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nfunc = sf\nsf_index = 4294967296\n",
		  "line 4: field 'sf_index': ", "out of range");

	/* Names. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\nibdev = mlx5 0\n",
		  "line 3: field 'ibdev': ", "character ' ' is not allowed");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nibdev = mlx5#0\n",
		  "line 3: field 'ibdev': ", "character '#' is not allowed");
	PARSE_ERR("[device 03:00.0]\nside = dpu\niface = eth/0\n", "line 3: field 'iface': ", "not allowed in a name");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nprofile = a:b\n",
		  "line 3: field 'profile': ", "not allowed in a name");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nibdev = "
		  "x234567890123456789012345678901234567890123456789012345678901234\n",
		  "line 3: field 'ibdev': ", "longer than 63 characters");
	PARSE_ERR("[device 03:00.0]\nside = dpu\niface = "
		  "x234567890123456789012345678901234567890123456789012345678901234\n",
		  "line 3: field 'iface': ", "longer than 63 characters");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nprofile = "
		  "x234567890123456789012345678901234567890123456789012345678901234\n",
		  "line 3: field 'profile': ", "longer than 63 characters");

	/* MAC addresses. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 02:00:00:00:00\n",
		  "line 3: field 'mac': ", "malformed MAC address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 02-00-00-00-00-01\n",
		  "line 3: field 'mac': ", "malformed MAC address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 02:00:00:00:00:0g\n",
		  "line 3: field 'mac': ", "malformed MAC address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 2:0:0:0:0:1\n",
		  "line 3: field 'mac': ", "malformed MAC address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 02:00:00:00:00:01:\n",
		  "line 3: field 'mac': ", "malformed MAC address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 01:00:5e:00:00:01\n", "line 3: field 'mac': ", "multicast");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = ff:ff:ff:ff:ff:ff\n", "line 3: field 'mac': ", "multicast");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 00:00:00:00:00:00\n", "line 3: field 'mac': ", "all-zero");
}

/* medium and wire: both ends name each other, across sides too; peers may come later. */
static void test_wire_rules(void)
{
	const struct topo_device *a, *b;

	if (PARSE_OK("[device 03:00.0]\nside = dpu\nwire = b1:00.0\n[device 03:00.1]\nside = dpu\n"
		     "[device b1:00.0]\nside = host\nmedium = wire\nwire = 0000:03:00.0\n")) {
		a = find_dev(&topo, "03:00.0");
		b = find_dev(&topo, "b1:00.0");
		EXPECT(a && b && a->medium == TOPO_MEDIUM_WIRE && b->medium == TOPO_MEDIUM_WIRE);
		EXPECT(a && b && a->wire_peer == 2 && b->wire_peer == 0);
		EXPECT(find_dev(&topo, "03:00.1") && find_dev(&topo, "03:00.1")->medium == TOPO_MEDIUM_NONE);
	}
	/* A file that lists devices without wires has none. */
	if (PARSE_OK("[device 03:00.0]\nside = dpu\nmedium = none\n[device 03:00.1]\nside = dpu\n"))
		EXPECT(topo.devices[0].medium == TOPO_MEDIUM_NONE && topo.devices[1].medium == TOPO_MEDIUM_NONE);
	EXPECT_STR(priv_doca_topo_medium_name(TOPO_MEDIUM_WIRE), "wire");
	EXPECT_STR(priv_doca_topo_medium_name(TOPO_MEDIUM_NONE), "none");

	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = coax\n",
		  "line 3: field 'medium': ", "expected wire, afpacket, udp or none, not 'coax'");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = wire\n",
		  "line 3: field 'medium': ", "a wire needs its other end");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nwire = 03:00.1\nmedium = none\n[device 03:00.1]\nside = dpu\n",
		  "line 3: field 'wire': ", "only allowed with medium = wire (medium = none on line 4)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nwire = 03:00\n", "line 3: field 'wire': ", "malformed PCI address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nwire = 03:00.7\n",
		  "line 3: field 'wire': ", "no [device 0000:03:00.7] in this file");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nwire = 03:00.0\n", "line 3: field 'wire': ", "is this device");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nwire = 03:00.1\n[device 03:00.1]\nside = dpu\n",
		  "line 3: field 'wire': ", "does not name this device back; add wire = 0000:03:00.0 to [device");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nwire = 03:00.1\n[device 03:00.1]\nside = dpu\nwire = b1:00.0\n"
		  "[device b1:00.0]\nside = host\nwire = 03:00.1\n",
		  "line 3: field 'wire': ", "does not name this device back");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nwire = 03:00.1\nwire = 03:00.1\n",
		  "line 4: field 'wire': ", "set twice");
}

/* medium = udp: udp.peer required (and implies it); udp.local defaults to any address of the
 * peer's family on 4789, udp.vni to 0; neither with another medium; bad values refused. */
static void test_udp_rules(void)
{
	const struct topo_device *a, *b;

	if (PARSE_OK("[device 03:00.0]\nside = dpu\nmedium = udp\nudp.peer = 192.0.2.2\n"
		     "[device 03:00.1]\nside = dpu\nudp.vni = 16777215\nudp.local = [::1]:5000\n"
		     "udp.peer = [2001:db8::7]:4790\n")) {
		a = find_dev(&topo, "03:00.0");
		b = find_dev(&topo, "03:00.1");
		EXPECT(a && a->medium == TOPO_MEDIUM_UDP && a->udp_peer.family == 4 && a->udp_peer.port == 4789 &&
		       !memcmp(a->udp_peer.addr, "\xc0\x00\x02\x02", 4) && a->udp_vni == 0);
		EXPECT(a && a->udp_local.family == 4 && a->udp_local.port == 4789 &&
		       !memcmp(a->udp_local.addr, "\0\0\0\0", 4));
		EXPECT(b && b->medium == TOPO_MEDIUM_UDP && b->udp_peer.family == 6 && b->udp_peer.port == 4790 &&
		       b->udp_peer.addr[0] == 0x20 && b->udp_peer.addr[15] == 7 && b->udp_vni == 16777215);
		EXPECT(b && b->udp_local.family == 6 && b->udp_local.port == 5000 && b->udp_local.addr[15] == 1);
	}
	if (PARSE_OK("[device 03:00.0]\nside = dpu\nudp.peer = [fe80::1]\n"))
		EXPECT(topo.devices[0].udp_local.family == 6 && topo.devices[0].udp_local.port == 4789);
	EXPECT_STR(priv_doca_topo_medium_name(TOPO_MEDIUM_UDP), "udp");

	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = udp\n",
		  "line 3: field 'medium': ", "udp needs the address of its other end; add udp.peer");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.vni = 5\n",
		  "line 3: field 'udp.vni': ", "needs its other end; add udp.peer");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 10.0.0.1\nudp.vni = 16777216\n",
		  "line 4: field 'udp.vni': ", "out of range (0..16777215)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 10.0.0.1\nudp.vni = -1\n",
		  "line 4: field 'udp.vni': ", "is negative");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 10.0.0.1:0\n",
		  "line 3: field 'udp.peer': ", "out of range (1..65535)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 10.0.0.1:65536\n",
		  "line 3: field 'udp.peer': ", "out of range (1..65535)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 10.0.0.1:\n",
		  "line 3: field 'udp.peer': ", "names no port");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 10.0.0.256\n",
		  "line 3: field 'udp.peer': ", "is not a numeric IPv4 address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = peer.example\n",
		  "line 3: field 'udp.peer': ", "is not a numeric IPv4 address (no host names)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 2001:db8::1\n",
		  "line 3: field 'udp.peer': ", "an IPv6 address goes in brackets");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = [2001:db8::1:4789\n",
		  "line 3: field 'udp.peer': ", "does not close it");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = [2001:db8::1]4789\n",
		  "line 3: field 'udp.peer': ", "expected :PORT");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = [10.0.0.1]:4789\n",
		  "line 3: field 'udp.peer': ", "is not a numeric IPv6 address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 0.0.0.0\n",
		  "line 3: field 'udp.peer': ", "is the any address");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer =\n", "line 3: field 'udp.peer': ", "empty");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.local = [::]:4789\nudp.peer = 10.0.0.1\n",
		  "line 3: field 'udp.local': ", "an IPv6 address, but udp.peer on line 4 is IPv4");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = afpacket\nifname = v0\nudp.peer = 10.0.0.1\n",
		  "line 5: field 'udp.peer': ", "only allowed with medium = udp (medium = afpacket on line 3)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nifname = v0\nudp.peer = 10.0.0.1\n",
		  "line 4: field 'udp.peer': ", "a port has one medium: ifname on line 3");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = udp\nudp.peer = 10.0.0.1\nwire = 03:00.1\n",
		  "line 5: field 'wire': ", "only allowed with medium = wire (medium = udp on line 3)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nudp.peer = 10.0.0.1\nudp.peer = 10.0.0.2\n",
		  "line 4: field 'udp.peer': ", "set twice");
}

/* medium = afpacket: ifname required (and implies it), netns optional, neither with another medium. */
static void test_afpacket_rules(void)
{
	const struct topo_device *a, *b, *c;

	if (PARSE_OK("[device 03:00.0]\nside = dpu\nmedium = afpacket\nifname = veth0\n"
		     "[device 03:00.1]\nside = dpu\nifname = sdv1-b.x_2\nnetns = ns_1\n"
		     "[device b1:00.0]\nside = host\nnetns = /proc/1/ns/net\nifname = tap0\n")) {
		a = find_dev(&topo, "03:00.0");
		b = find_dev(&topo, "03:00.1");
		c = find_dev(&topo, "b1:00.0");
		EXPECT(a && a->medium == TOPO_MEDIUM_AFPACKET && !strcmp(a->ifname, "veth0") && a->netns[0] == '\0');
		EXPECT(b && b->medium == TOPO_MEDIUM_AFPACKET && !strcmp(b->ifname, "sdv1-b.x_2") &&
		       !strcmp(b->netns, "ns_1"));
		EXPECT(c && c->medium == TOPO_MEDIUM_AFPACKET && !strcmp(c->netns, "/proc/1/ns/net"));
	}
	/* 15 characters fit IFNAMSIZ */
	if (PARSE_OK("[device 03:00.0]\nside = dpu\nifname = abcdefghijklmno\n"))
		EXPECT_STR(topo.devices[0].ifname, "abcdefghijklmno");
	EXPECT_STR(priv_doca_topo_medium_name(TOPO_MEDIUM_AFPACKET), "afpacket");

	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = afpacket\n",
		  "line 3: field 'medium': ", "afpacket needs the Linux interface it sends on; add ifname = NAME");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nifname = abcdefghijklmnop\n",
		  "line 3: field 'ifname': ", "longer than 15 characters (IFNAMSIZ)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nifname = eth/0\n",
		  "line 3: field 'ifname': ", "character '/' is not allowed");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nifname = ..\n",
		  "line 3: field 'ifname': ", "is not an interface name");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nifname =\n", "line 3: field 'ifname': ", "empty");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = wire\nifname = veth0\n",
		  "line 4: field 'ifname': ", "only allowed with medium = afpacket (medium = wire on line 3)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nnetns = ns0\nmedium = none\n",
		  "line 3: field 'netns': ", "only allowed with medium = afpacket (medium = none on line 4)");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = afpacket\nnetns = ns0\n",
		  "line 4: field 'netns': ", "there is none; add ifname = NAME");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nwire = 03:00.1\nifname = veth0\n[device 03:00.1]\nside = "
		  "dpu\nwire = 03:00.0\n",
		  "line 4: field 'ifname': ", "a port has one medium: wire on line 3");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmedium = afpacket\nifname = v0\nwire = 03:00.1\n",
		  "line 5: field 'wire': ", "a port has one medium");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nifname = v0\nnetns = a b\n",
		  "line 4: field 'netns': ", "character ' ' is not allowed");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nifname = v0\nnetns = /run/netns/a b\n",
		  "line 4: field 'netns': ", "may not hold spaces");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nifname = v0\nifname = v1\n", "line 4: field 'ifname': ", "set twice");
}

static void test_device_rules(void)
{
	struct text t = {0};

	/* side is required; the header's line is reported. */
	PARSE_ERR("[device 03:00.0]\nibdev = mlx5_9\n[device 03:00.1]\nside = dpu\n",
		  "line 1: field 'side': ", "missing");
	PARSE_ERR("[device 03:00.0]\nside = dpu\n\n[device 03:00.1]\n", "line 4: field 'side': ", "missing");
	/* Representors belong on the dpu side, whichever order the keys come in. */
	PARSE_ERR("[device b1:00.0]\nrepresentor = 03:00.1\nside = host\n",
		  "line 2: field 'representor': ", "only a dpu-side device has representors (side = host on line 3)");
	PARSE_ERR("[device b1:00.0]\nside = host\nrepresentor = 03:00.1\n[engine]\n",
		  "line 3: field 'representor': ", "only a dpu-side device");
	/* sf_index needs func = sf. */
	PARSE_ERR("[device 03:00.0]\nsf_index = 2\nside = dpu\n",
		  "line 2: field 'sf_index': ", "only allowed with func = sf");
	PARSE_ERR("[device 03:00.0]\nsf_index = 2\nside = dpu\nfunc = vf\n",
		  "line 2: field 'sf_index': ", "only allowed with func = sf");
	PARSE_OK("[device 03:00.0]\nsf_index = 2\nside = dpu\nfunc = sf\n");
	/* SF indices are unique; an SF without sf_index has index 0. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\nfunc = sf\nsf_index = 3\n"
		  "[device 03:00.1]\nside = dpu\nfunc = sf\nsf_index = 3\n",
		  "line 8: field 'sf_index': ", "sf_index 3 already used by the device on line 1");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nfunc = sf\n[device 03:00.1]\nside = dpu\nfunc = sf\n",
		  "line 4: field 'sf_index': ", "sf_index 0 already used");
	PARSE_OK("[device 03:00.0]\nside = dpu\nfunc = sf\n[device 03:00.1]\nside = dpu\nfunc = sf\n"
		 "sf_index = 1\n");

	/* Undefined profile: reported at the reference, after the whole file was read. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\nprofile = fast\n[profile slow]\n[engine]\nname = cpu\n",
		  "line 3: field 'profile': ", "profile 'fast' is not defined");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nprofile = fast\n[device 03:00.1]\nside = dpu\n"
		  "profile = Fast\n[profile fast]\n",
		  "line 6: field 'profile': ", "profile 'Fast' is not defined");

	/* Representors. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\nrepresentor = b1:00\n",
		  "line 3: field 'representor': ", "malformed PCI address 'b1:00'");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nrepresentor = b1:00.0 vuid extra\n",
		  "line 3: field 'representor': ", "more than two words");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nrepresentor = b1:00.0 "
		  "v2345678901234567890123456789012345678901234567890123456789012345678901234567890"
		  "123456789012345678901234567890123456789012345678\n",
		  "line 3: field 'representor': ", "longer than 127 characters");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nrepresentor = b1:00.0\nrepresentor = 0000:B1:00.0\n",
		  "line 4: field 'representor': ", "representor 0000:b1:00.0 already listed on line 3");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nrepresentor = b1:00.0\n"
		  "[device 03:00.1]\nside = dpu\nrepresentor = b1:00.0\n",
		  "line 6: field 'representor': ", "already listed on line 3");
	PARSE_ERR("[device 03:00.0]\nside = dpu\n[device 03:00.1]\nside = dpu\nrepresentor = 03:00.0\n",
		  "line 5: field 'representor': ", "0000:03:00.0 is a dpu-side device");
	/* ...even when the dpu device is defined later. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\nrepresentor = 03:00.1\n[device 03:00.1]\nside = dpu\n",
		  "line 3: field 'representor': ", "is a dpu-side device");
	/* A representor of a host device the file lists is the normal case. */
	PARSE_OK("[device 03:00.0]\nside = dpu\nrepresentor = b1:00.0\n[device b1:00.0]\nside = host\n");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nrepresentor = b1:00.0 V1\n"
		  "[device 03:00.1]\nside = dpu\nrepresentor = b1:00.1 V1\n",
		  "line 6: field 'representor': ", "vuid 'V1' already used on line 3");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nrepresentor = b1:00.0\n"
		  "representor = b1:00.1 SDOCA0000B1000pf0hpf\n",
		  "line 4: field 'representor': ", "vuid 'SDOCA0000B1000pf0hpf' already used on line 3");
	/* One representor too many. */
	text_add(&t, "[device 03:00.0]\nside = dpu\n");
	for (int k = 0; k <= TOPO_MAX_REPS; k++)
		text_add(&t, "representor = b1:%02x.0\n", k);
	PARSE_ERR_S(t.p, "line 19: field 'representor': ", "more than 16 representors");

	/* ibdev, iface and mac are unique; the later line is reported. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\nibdev = x\n[device 03:00.1]\nside = dpu\nibdev = x\n",
		  "line 6: field 'ibdev': ", "'x' already used on line 3");
	PARSE_ERR("[device 03:00.0]\nside = dpu\niface = x\n[device 03:00.1]\nside = dpu\niface = x\n",
		  "line 6: field 'iface': ", "'x' already used on line 3");
	/* Names given explicitly collide across sides too. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\niface = e\n[device b1:00.0]\nside = host\niface = e\n",
		  "line 6: field 'iface': ", "already used");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 02:00:00:00:00:01\n"
		  "[device 03:00.1]\nside = dpu\nmac = 02:00:00:00:00:01\n",
		  "line 6: field 'mac': ", "address already used on line 3");
	/* An explicit MAC equal to another device's derived one, in either order. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\n[device 03:00.1]\nside = dpu\nmac = 02:5d:0c:03:00:00\n",
		  "line 5: field 'mac': ", "the default address of device 0000:03:00.0");
	PARSE_ERR("[device 03:00.0]\nside = dpu\nmac = 02:5d:0c:03:00:01\n[device 03:00.1]\nside = dpu\n",
		  "line 3: field 'mac': ", "the default address of device 0000:03:00.1");
	/* A device may state its own default MAC. */
	PARSE_OK("[device 03:00.0]\nside = dpu\nmac = 02:5d:0c:03:00:00\n");
	free(t.p);
	test_wire_rules();
	test_afpacket_rules();
	test_udp_rules();
}

/* Errors land in @err as "line N: ..." whatever its size; NULL buffers are accepted. */
static void test_error_buffer(void)
{
	static const char bad[] = "[profile p]\ndma = maybe\n";
	char err[64], small[12];

	memset(small, 'x', sizeof(small));
	EXPECT(topo_parse(bad, sizeof(bad) - 1, &topo, small, sizeof(small)) == DOCA_ERROR_BAD_CONFIG);
	EXPECT_STR(small, "line 2: fie");
	EXPECT(topo_parse(bad, sizeof(bad) - 1, &topo, err, sizeof(err)) == DOCA_ERROR_BAD_CONFIG);
	EXPECT_STR(err, "line 2: field 'dma': expected yes or no, not 'maybe'");
	EXPECT(topo_parse(bad, sizeof(bad) - 1, &topo, NULL, 0) == DOCA_ERROR_BAD_CONFIG);
	EXPECT(topo_parse(bad, sizeof(bad) - 1, &topo, err, 0) == DOCA_ERROR_BAD_CONFIG);
	err[0] = 'x';
	EXPECT(topo_parse(bad, sizeof(bad) - 1, &topo, err, 1) == DOCA_ERROR_BAD_CONFIG && err[0] == '\0');
	/* Success clears a stale message. */
	strcpy(err, "stale");
	EXPECT(topo_parse("", 0, &topo, err, sizeof(err)) == DOCA_SUCCESS && err[0] == '\0');
	/* Only @len bytes count: what follows them is never read. */
	EXPECT(topo_parse("[engine]\nname = cpu\nGARBAGE", 19, &topo, err, sizeof(err)) == DOCA_SUCCESS);
	EXPECT_STR(topo.engine, "cpu");
	EXPECT(topo_parse("[engine]\nname = cpu", 17, &topo, err, sizeof(err)) == DOCA_ERROR_BAD_CONFIG);
	EXPECT(topo_parse("x", 1, NULL, err, sizeof(err)) == DOCA_ERROR_INVALID_VALUE);
	EXPECT(topo_parse(NULL, 5, &topo, err, sizeof(err)) == DOCA_ERROR_INVALID_VALUE);
}

/* ---- docs/config.md ----------------------------------------------------------------------- */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
			*len = (size_t)n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

/*
 * Every ```ini block of the user documentation must parse; the block right after
 * "<!-- test: default-topology -->" must reproduce the embedded default, and the examples must
 * include the three capability profiles the documentation promises.
 */
static void test_docs(const char *path)
{
	size_t len;
	char *doc = read_all(path, &len);
	char *p, *end;
	int blocks = 0, default_checked = 0;
	bool no_dma = false, small_bufs = false, shallow_queue = false;

	if (!EXPECT(doc != NULL)) {
		fprintf(stderr, "    %s: %s\n", path, strerror(errno));
		return;
	}
	for (p = doc; (p = strstr(p, "```ini\n")) != NULL; p = end + 4) {
		bool is_default;
		char *marker;

		end = strstr(p + 7, "\n```");
		if (!EXPECT(end != NULL))
			break;
		/* The marker must sit on the line just above the fence. */
		marker = p;
		while (marker > doc && marker[-1] == '\n')
			marker--;
		while (marker > doc && marker[-1] != '\n')
			marker--;
		is_default = strncmp(marker, "<!-- test: default-topology -->", 31) == 0;
		blocks++;
		if (!parse_ok_at(__LINE__, p + 7, (size_t)(end + 1 - (p + 7)))) {
			fprintf(stderr, "    in the ini block %d of %s\n", blocks, path);
			continue;
		}
		for (uint32_t i = 0; i < topo.nb_profiles; i++) {
			const struct topo_profile *q = &topo.profiles[i];

			no_dma |= !q->dma.supported;
			small_bufs |= q->dma.max_buf_size == 4096 && q->dma.max_buf_list_len == 1;
			shallow_queue |= q->dma.queue_depth < q->dma.max_tasks;
		}
		if (is_default) {
			default_checked++;
			topo_default(&topo2);
			EXPECT(topo_equal(&topo, &topo2));
		}
	}
	EXPECT(blocks >= 4);
	EXPECT(default_checked == 1);
	EXPECT(no_dma && small_bufs && shallow_queue);
	free(doc);
}

/* ---- topo_get ----------------------------------------------------------------------------- */

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* Child bodies return 0 when every check passed. */
typedef int (*child_fn)(const char *arg);

struct child_run {
	const char *config;
	child_fn fn;
	const char *arg;
};

static int child_main(void *p)
{
	const struct child_run *r = p;

	sd_setenv("SOFTDOCA_CONFIG", r->config);
	return r->fn(r->arg);
}

/*
 * Runs @fn in a child with SOFTDOCA_CONFIG set to @config (unset when NULL). Returns the
 * child's status and what it wrote to stderr, where the SDK log goes when no backend exists.
 */
static int run_child(const char *config, child_fn fn, const char *arg, char *log, size_t log_len)
{
	struct child_run r = {.config = config, .fn = fn, .arg = arg};

	return check_run_child_output(child_main, &r, "topo_get child", log, log_len);
}

static int child_default(const char *arg)
{
	const struct topology *t = topo_get();

	(void)arg;
	if (!t || t != topo_get() || strcmp(t->source, "embedded default"))
		return 1;
	topo_default(&topo2);
	return topo_equal(t, &topo2) ? 0 : 2;
}

static int child_file(const char *path)
{
	const struct topology *t = topo_get();
	const struct topo_device *d;

	if (!t || t != topo_get() || strcmp(t->source, path))
		return 1;
	d = find_dev(t, "07:00.0");
	if (t->nb_devices != 1 || !d || strcmp(d->ibdev, "mlx5_0") || d->profile != 1)
		return 2;
	return t->profiles[1].dma.max_tasks == 8 && strcmp(t->engine, "cpu") == 0 ? 0 : 3;
}

static int child_null(const char *arg)
{
	(void)arg;
	/* NULL, and NULL again without a second message. */
	return topo_get() == NULL && topo_get() == NULL ? 0 : 1;
}

/* A file without devices: the default devices, under the file's name. */
static int child_source(const char *path)
{
	const struct topology *t = topo_get();

	if (!t || strcmp(t->source, path))
		return 1;
	return t->nb_devices == 4 ? 0 : 2;
}

static void *thread_get(void *arg)
{
	(void)arg;
	return (void *)topo_get();
}

/* Racing first calls all get the same answer, and one parse logs at most once. */
static int child_threads(const char *want_null)
{
	pthread_t th[8];
	void *res[8];

	for (int i = 0; i < 8; i++)
		if (pthread_create(&th[i], NULL, thread_get, NULL))
			return 1;
	for (int i = 0; i < 8; i++)
		pthread_join(th[i], &res[i]);
	for (int i = 0; i < 8; i++)
		if (res[i] != res[0] || res[i] != (void *)topo_get())
			return 2;
	return (res[0] == NULL) == (want_null[0] == '1') ? 0 : 3;
}

static int count_lines_with(const char *log, const char *what)
{
	int n = 0;

	for (const char *l = log; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (memmem(l, len, what, strlen(what)))
			n++;
		l += len + (nl ? 1 : 0);
	}
	return n;
}

/* The one message of a failed SOFTDOCA_CONFIG: names the file, the reason, the way out. */
static void check_log(int line, const char *log, const char *path, const char *reason)
{
	char head[512];

	snprintf(head, sizeof(head), "SOFTDOCA_CONFIG=%s: %s", path, reason);
	if (!sd_expect_at(__FILE__, line, count_lines_with(log, "SOFTDOCA_CONFIG=") == 1, "exactly one log line") ||
	    !sd_expect_at(__FILE__, line, count_lines_with(log, head) == 1, "log names file and reason") ||
	    !sd_expect_at(__FILE__, line,
			  count_lines_with(log, "unset SOFTDOCA_CONFIG to use the embedded default "
						"topology") == 1,
			  "log says how to fall back"))
		fprintf(stderr, "    want '%s'\n    log: %s\n", head, log);
}

static void test_topo_get(void)
{
	static const char good[] = "[profile eight]\nmax_tasks = 8\n[engine]\nname = cpu\n"
				   "[device 07:00.0]\nside = dpu\nprofile = eight\n";
	static const char bad[] = "[profile p]\n\ndma = maybe\n";
	const char *tmpdir = sd_tmpdir();
	char path[PATH_MAX], big_path[PATH_MAX], max_path[PATH_MAX], log[8192];
	struct text t = {0};

	EXPECT(run_child(NULL, child_default, NULL, log, sizeof(log)) == 0);
	EXPECT(count_lines_with(log, "SOFTDOCA_CONFIG") == 0);
	EXPECT(run_child("", child_default, NULL, log, sizeof(log)) == 0);

	snprintf(path, sizeof(path), "%s/good.ini", tmpdir);
	write_file(path, good, sizeof(good) - 1);
	EXPECT(run_child(path, child_file, path, log, sizeof(log)) == 0);
	EXPECT(count_lines_with(log, "SOFTDOCA_CONFIG") == 0);
	EXPECT(run_child(path, child_threads, "0", log, sizeof(log)) == 0);

	snprintf(path, sizeof(path), "%s/bad.ini", tmpdir);
	write_file(path, bad, sizeof(bad) - 1);
	EXPECT(run_child(path, child_null, NULL, log, sizeof(log)) == 0);
	check_log(__LINE__, log, path, "line 3: field 'dma': expected yes or no");
	EXPECT(run_child(path, child_threads, "1", log, sizeof(log)) == 0);
	check_log(__LINE__, log, path, "line 3: field 'dma': ");

	snprintf(path, sizeof(path), "%s/missing.ini", tmpdir);
	EXPECT(run_child(path, child_null, NULL, log, sizeof(log)) == 0);
	check_log(__LINE__, log, path, "cannot open the file: No such file or directory");

	EXPECT(run_child(tmpdir, child_null, NULL, log, sizeof(log)) == 0);
	check_log(__LINE__, log, tmpdir, "not a regular file");

	/* A FIFO with no writer would block open() forever: refused at once instead. */
	snprintf(path, sizeof(path), "%s/fifo.ini", tmpdir);
	EXPECT(mkfifo(path, 0600) == 0);
	EXPECT(run_child(path, child_null, NULL, log, sizeof(log)) == 0);
	check_log(__LINE__, log, path, "not a regular file");
	unlink(path);
	EXPECT(run_child("/dev/null", child_null, NULL, log, sizeof(log)) == 0);
	check_log(__LINE__, log, "/dev/null", "not a regular file");

	/* Exactly 1 MiB is read; one byte more is refused. */
	while (t.len < (1u << 20) - 100)
		text_add(&t, "# %.97s\n",
			 "padding padding padding padding padding padding padding "
			 "padding padding padding padding padding");
	while (t.len < (1u << 20))
		text_add(&t, "\n");
	snprintf(max_path, sizeof(max_path), "%s/max.ini", tmpdir);
	write_file(max_path, t.p, t.len);
	EXPECT(run_child(max_path, child_source, max_path, log, sizeof(log)) == 0);
	text_add(&t, "\n");
	snprintf(big_path, sizeof(big_path), "%s/big.ini", tmpdir);
	write_file(big_path, t.p, t.len);
	EXPECT(run_child(big_path, child_null, NULL, log, sizeof(log)) == 0);
	check_log(__LINE__, log, big_path, "file larger than 1048576 bytes");

	free(t.p); /* the files go with sd_tmpdir() at exit */
}

/* Per-library keys: dma.*, comch.*, eth.*; the flat DMA keys are aliases of dma.*. */
static void test_library_keys(void)
{
	const struct topo_profile *p;

	/* The built-in default: the former comch constants, eth not supported. */
	topo_default(&topo2);
	p = &topo2.profiles[0];
	EXPECT(p->comch.supported == 1 && p->comch.max_msg_size == 4080 && p->comch.max_name_len == 120);
	EXPECT(p->comch.max_clients == 512 && p->comch.max_send_tasks == 65536 && p->comch.max_recv_queue_size == 8192);
	EXPECT(p->comch.max_consumers == 512 && p->comch.max_producers == 512);
	EXPECT(p->comch.consumer_max_num_tasks == 65536 && p->comch.producer_max_num_tasks == 65536);
	EXPECT(p->comch.consumer_max_buf_size == 1u << 30 && p->comch.producer_max_buf_size == 1u << 30);
	EXPECT(p->eth.supported == 1 && p->eth.max_burst_size == 65536 && p->eth.max_packet_size == 9216 &&
	       p->eth.max_queue_size == 8192);

	if (PARSE_OK("[profile all]\n"
		     "dma.supported = no\n"
		     "dma.max_buf_size = 2M\n"
		     "dma.max_buf_list_len = 4\n"
		     "dma.max_tasks = 100\n"
		     "dma.queue_depth = 10\n"
		     "comch.supported = no\n"
		     "comch.max_msg_size = 1K\n"
		     "comch.max_name_len = 2\n"
		     "comch.max_clients = 1\n"
		     "comch.max_send_tasks = 7\n"
		     "comch.max_recv_queue_size = 6\n"
		     "comch.max_consumers = 5\n"
		     "comch.max_producers = 4\n"
		     "comch.consumer_max_num_tasks = 3\n"
		     "comch.producer_max_num_tasks = 2\n"
		     "comch.consumer_max_buf_size = 4K\n"
		     "comch.producer_max_buf_size = 1G\n"
		     "eth.supported = yes\n"
		     "eth.max_burst_size = 32\n"
		     "eth.max_packet_size = 1514\n"
		     "eth.max_queue_size = 1024\n")) {
		p = &topo.profiles[1];
		EXPECT(p->dma.supported == 0 && p->dma.max_buf_size == 2u << 20 && p->dma.max_buf_list_len == 4);
		EXPECT(p->dma.max_tasks == 100 && p->dma.queue_depth == 10);
		EXPECT(p->comch.supported == 0 && p->comch.max_msg_size == 1024 && p->comch.max_name_len == 2);
		EXPECT(p->comch.max_clients == 1 && p->comch.max_send_tasks == 7 && p->comch.max_recv_queue_size == 6);
		EXPECT(p->comch.max_consumers == 5 && p->comch.max_producers == 4);
		EXPECT(p->comch.consumer_max_num_tasks == 3 && p->comch.producer_max_num_tasks == 2);
		EXPECT(p->comch.consumer_max_buf_size == 4096 && p->comch.producer_max_buf_size == 1u << 30);
		EXPECT(p->eth.supported == 1 && p->eth.max_burst_size == 32 && p->eth.max_packet_size == 1514 &&
		       p->eth.max_queue_size == 1024);
		EXPECT(p->export_pci == 1 && p->import_pci == 1);
		/* Only the keys set change: default stays the built-in one. */
		EXPECT(caps_equal(&topo.profiles[0], &topo2.profiles[0]));
	}
	/* One key changes one field; the other libraries keep their defaults. */
	if (PARSE_OK("[profile p]\ncomch.max_msg_size = 100\n")) {
		struct topo_profile want = topo2.profiles[0];

		want.comch.max_msg_size = 100;
		EXPECT(caps_equal(&topo.profiles[1], &want));
	}
	/* Aliases and their dotted keys parse to the same profile. */
	if (PARSE_OK("[profile p]\ndma = no\nmax_buf_size = 4K\nmax_buf_list_len = 1\nmax_tasks = 9\n"
		     "queue_depth = 3\n")) {
		topo2 = topo;
		if (PARSE_OK("[profile p]\ndma.supported = no\ndma.max_buf_size = 4K\ndma.max_buf_list_len = 1\n"
			     "dma.max_tasks = 9\ndma.queue_depth = 3\n"))
			EXPECT(caps_equal(&topo.profiles[1], &topo2.profiles[1]) &&
			       topo.profiles[1].dma.supported == 0);
	}
	/* An alias and its key are one key: set twice, reported with the name as written. */
	PARSE_ERR("[profile p]\ndma = no\ndma.supported = yes\n",
		  "line 3: field 'dma.supported': ", "set twice in this section (first on line 2)");
	PARSE_ERR("[profile p]\ndma.max_tasks = 4\nmax_tasks = 5\n",
		  "line 3: field 'max_tasks': ", "set twice in this section (first on line 2)");
	PARSE_ERR("[profile p]\ncomch.max_clients = 4\ncomch.max_clients = 4\n",
		  "line 3: field 'comch.max_clients': ", "set twice");
	/* Bounds: what the implementation can honour, and no less than one. */
	PARSE_ERR("[profile p]\ncomch.max_msg_size = 4081\n",
		  "line 2: field 'comch.max_msg_size': ", "'4081' is out of range (1..4080)");
	PARSE_ERR("[profile p]\ncomch.max_msg_size = 0\n", "line 2: field 'comch.max_msg_size': ", "out of range");
	PARSE_ERR("[profile p]\ncomch.max_msg_size = 4k\n",
		  "line 2: field 'comch.max_msg_size': ", "'4k' is out of range (1..4080)");
	PARSE_ERR("[profile p]\ncomch.max_name_len = 1\n",
		  "line 2: field 'comch.max_name_len': ", "out of range (2..120)");
	PARSE_ERR("[profile p]\ncomch.max_name_len = 121\n", "line 2: field 'comch.max_name_len': ", "out of range");
	PARSE_ERR("[profile p]\ncomch.max_clients = 513\n",
		  "line 2: field 'comch.max_clients': ", "out of range (1..512)");
	PARSE_ERR("[profile p]\ncomch.max_send_tasks = 65537\n",
		  "line 2: field 'comch.max_send_tasks': ", "out of range (1..65536)");
	PARSE_ERR("[profile p]\ncomch.max_recv_queue_size = 8193\n",
		  "line 2: field 'comch.max_recv_queue_size': ", "out of range (1..8192)");
	PARSE_ERR("[profile p]\ncomch.max_consumers = 0\n",
		  "line 2: field 'comch.max_consumers': ", "out of range (1..512)");
	PARSE_ERR("[profile p]\ncomch.producer_max_num_tasks = 65537\n",
		  "line 2: field 'comch.producer_max_num_tasks': ", "out of range");
	PARSE_ERR("[profile p]\ncomch.consumer_max_buf_size = 2G\n",
		  "line 2: field 'comch.consumer_max_buf_size': ", "out of range (1..1073741824)");
	PARSE_ERR("[profile p]\ncomch.max_clients = 4K\n",
		  "line 2: field 'comch.max_clients': ", "unexpected 'K' after the number");
	PARSE_ERR("[profile p]\ncomch.max_clients = -1\n", "line 2: field 'comch.max_clients': ", "is negative");
	PARSE_ERR("[profile p]\ncomch.supported = true\n",
		  "line 2: field 'comch.supported': ", "expected yes or no, not 'true'");
	PARSE_ERR("[profile p]\neth.max_packet_size = 63\n",
		  "line 2: field 'eth.max_packet_size': ", "out of range (64..65536)");
	PARSE_ERR("[profile p]\neth.max_packet_size = 65537\n",
		  "line 2: field 'eth.max_packet_size': ", "out of range");
	PARSE_ERR("[profile p]\neth.max_burst_size = 0\n", "line 2: field 'eth.max_burst_size': ", "out of range");
	PARSE_ERR("[profile p]\neth.max_queue_size = 65537\n", "line 2: field 'eth.max_queue_size': ", "out of range");
	PARSE_ERR("[profile p]\ndma.max_buf_size = 1025G\n", "line 2: field 'dma.max_buf_size': ", "out of range");
	/* Limits accepted at both ends. */
	if (PARSE_OK("[profile p]\ncomch.max_msg_size = 4080\ncomch.max_name_len = 120\ncomch.max_clients = 512\n"
		     "eth.max_packet_size = 64K\ncomch.producer_max_buf_size = 1G\n")) {
		EXPECT(topo.profiles[1].comch.max_msg_size == 4080 && topo.profiles[1].comch.max_name_len == 120);
		EXPECT(topo.profiles[1].eth.max_packet_size == 65536);
	}
	if (PARSE_OK("[profile p]\ncomch.max_msg_size = 1\neth.max_packet_size = 64\n"))
		EXPECT(topo.profiles[1].comch.max_msg_size == 1 && topo.profiles[1].eth.max_packet_size == 64);
	/* Unknown keys: the library's keys are listed when the prefix is known. */
	PARSE_ERR("[profile p]\ncomch.max_msg_sise = 1\n", "line 2: field 'comch.max_msg_sise': ",
		  "unknown key in a [profile] section (expected comch.supported, comch.max_msg_size,");
	PARSE_ERR("[profile p]\neth.mtu = 1500\n", "line 2: field 'eth.mtu': ",
		  "(expected eth.supported, eth.max_burst_size, eth.max_packet_size, eth.max_queue_size)");
	PARSE_ERR("[profile p]\nrdma.supported = yes\n",
		  "line 2: field 'rdma.supported': ", "(expected export_pci, import_pci, dma.*, comch.* or eth.* keys");
	PARSE_ERR("[profile p]\ncomch = yes\n", "line 2: field 'comch': ", "unknown key");
	PARSE_ERR("[profile p]\ncomch. = yes\n", "line 2: field 'comch.': ", "unknown key");
	PARSE_ERR("[profile p]\nCOMCH.supported = yes\n", "line 2: field 'COMCH.supported': ", "unknown key");
	/* Library keys belong to profiles only. */
	PARSE_ERR("[device 03:00.0]\nside = dpu\ncomch.supported = no\n",
		  "line 3: field 'comch.supported': ", "unknown key in a [device] section");
	PARSE_ERR("[engine]\ndma.max_tasks = 1\n",
		  "line 2: field 'dma.max_tasks': ", "unknown key in a [engine] section");
}

int main(int argc, char **argv)
{
	test_pci();
	test_default();
	test_empty_and_comments();
	test_full_file();
	test_profiles();
	test_library_keys();
	test_sizes_and_ranges();
	test_derived_names();
	test_limits();
	test_lexical_errors();
	test_section_errors();
	test_key_errors();
	test_value_errors();
	test_device_rules();
	test_error_buffer();
	if (argc > 1)
		test_docs(argv[1]);
	else
		printf("no docs/config.md given: documentation examples not checked\n");
	test_topo_get();
	return sd_test_summary();
}
