/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_shared_seeds.c - writes the seed corpora of fuzz_export_record, fuzz_sync_event_export and
 * fuzz_sync_event_page from a real run: it exports an mmap and a sync event through the default
 * topology, reads the pages back through /proc/self/fd (as an importer would), and writes them
 * as they are, then with one field changed the way a hostile peer would.
 *
 *   gen_shared_seeds DIR     (DIR/export_record, DIR/sync_event_export, DIR/sync_event_page)
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_sync_event.h>

#include "../common/sd_test.h"
#include "export.h"
#include "sync_event_desc.h"

static const char *out_dir;

static void put(const char *corpus, const char *name, const void *a, size_t alen, const void *b, size_t blen)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", out_dir, corpus, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(a, 1, alen, f) != alen || (blen && fwrite(b, 1, blen, f) != blen) || fclose(f) != 0)
		sd_die_at(__FILE__, __LINE__, "%s: %s", path, strerror(errno));
}

static int fd_of(const uint8_t *desc, size_t off)
{
	return (int)((uint32_t)desc[off] | (uint32_t)desc[off + 1] << 8 | (uint32_t)desc[off + 2] << 16 |
		     (uint32_t)desc[off + 3] << 24);
}

static int reopen(int fd)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, O_RDONLY);
}

static void read_page(int fd, void *buf, size_t len)
{
	CHECK(pread(fd, buf, len, 0) == (ssize_t)len);
}

static void records(struct doca_dev *dpu, struct doca_dev *host)
{
	static uint8_t buf[8192] __attribute__((aligned(4096)));
	struct export_record rec, r2;
	struct doca_mmap *m;
	const void *d1, *d2;
	size_t l1, l2;
	int fd;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, buf, sizeof(buf)));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_add_dev(m, host));
	CHECK_OK(doca_mmap_add_dev(m, dpu));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_export_pci(m, host, &d1, &l1));
	fd = reopen(fd_of(d1, 36));
	CHECK(fd >= 0);
	read_page(fd, &rec, sizeof(rec));
	put("export_record", "live-1dev", d1, l1, &rec, sizeof(rec));
	CHECK_OK(doca_mmap_export_pci(m, dpu, &d2, &l2));
	read_page(fd, &rec, sizeof(rec));
	put("export_record", "live-2devs", d2, l2, &rec, sizeof(rec));
	put("export_record", "live-2devs-first", d1, l1, &rec, sizeof(rec));
	/* One field as a hostile exporter writes it. */
	r2 = rec, atomic_store(&r2.ndevs, 33);
	put("export_record", "ndevs-33", d2, l2, &r2, sizeof(r2));
	r2 = rec, atomic_store(&r2.ndevs, UINT32_MAX);
	put("export_record", "ndevs-max", d2, l2, &r2, sizeof(r2));
	r2 = rec, atomic_store(&r2.state, 0x55);
	put("export_record", "state-garbage", d2, l2, &r2, sizeof(r2));
	r2 = rec, r2.version = 1;
	put("export_record", "version-1", d2, l2, &r2, sizeof(r2));
	r2 = rec, r2.devs[1].side ^= 1;
	put("export_record", "dev-side", d2, l2, &r2, sizeof(r2));
	r2 = rec, r2.len = 0;
	put("export_record", "len-zero", d2, l2, &r2, sizeof(r2));
	r2 = rec, r2.access = 0xffff;
	put("export_record", "access-garbage", d2, l2, &r2, sizeof(r2));
	put("export_record", "short", d2, l2, &rec, 40);
	CHECK_OK(doca_mmap_destroy(m));
	read_page(fd, &rec, sizeof(rec));
	put("export_record", "revoked", d1, l1, &rec, sizeof(rec));
	close(fd);
}

static void sync_events(struct doca_dev *dpu)
{
	struct doca_sync_event *se;
	const uint8_t *data;
	struct se_export_desc x;
	struct se_shm page, p2;
	uint8_t head[SE_ID_LEN + 8], blob[SE_DESC_LEN];
	char err[128];
	uint64_t f;
	size_t len;
	int fd;

	CHECK_OK(doca_sync_event_create(&se));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_pci(se));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(se, dpu));
	CHECK_OK(doca_sync_event_start(se));
	CHECK_OK(doca_sync_event_export_to_remote_pci(se, dpu, &data, &len));
	CHECK_OK(se_export_decode(data, len, &x, err, sizeof(err)));
	put("sync_event_export", "real", data, len, NULL, 0);
	put("sync_event_export", "mmap-part-only", data, EXPORT_DESC_LEN, NULL, 0);
	put("sync_event_export", "truncated", data, len - 1, NULL, 0);
	memcpy(blob, data, len);
	blob[SE_DESC_LEN - 1] ^= 1;
	put("sync_event_export", "bad-checksum", blob, len, NULL, 0);
	memcpy(blob, data, len);
	blob[EXPORT_DESC_LEN + 32 + 3] = 0x80;
	se_export_encode(x.id, (int)0x80000000u, blob);
	put("sync_event_export", "fd-negative", blob, len, NULL, 0);
	memcpy(blob, data, len);
	blob[EXPORT_DESC_LEN + 8] = 2;
	put("sync_event_export", "version-2", blob, len, NULL, 0);

	fd = reopen(x.memfd);
	CHECK(fd >= 0);
	memcpy(head, x.id, SE_ID_LEN);
	for (int i = 0; i < 8; i++)
		head[SE_ID_LEN + i] = (uint8_t)(x.mmap.addr >> (8 * i));
	CHECK_OK(doca_sync_event_update_add(se, 41, &f));
	read_page(fd, &page, sizeof(page));
	put("sync_event_page", "live", head, sizeof(head), &page, sizeof(page));
	p2 = page, atomic_store(&p2.state, 9);
	put("sync_event_page", "state-garbage", head, sizeof(head), &p2, sizeof(p2));
	p2 = page, p2.self_addr ^= 0x1000;
	put("sync_event_page", "other-address", head, sizeof(head), &p2, sizeof(p2));
	put("sync_event_page", "short", head, sizeof(head), &page, 20);
	CHECK_OK(doca_sync_event_destroy(se));
	read_page(fd, &page, sizeof(page));
	put("sync_event_page", "destroyed", head, sizeof(head), &page, sizeof(page));
	close(fd);
}

int main(int argc, char **argv)
{
	struct doca_dev *dpu, *host;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	dpu = sd_open_dev("03:00.0");
	host = sd_open_dev("b1:00.0");
	records(dpu, host);
	sync_events(dpu);
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
	return 0;
}
