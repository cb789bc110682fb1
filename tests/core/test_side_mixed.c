/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_side_mixed.c - a program whose objects were built with both personalities (this one host,
 * side_mixed_dpu.c dpu): listing devices logs one warning saying so and naming the side it
 * lists (the last registered), however often it lists.
 */
#include <sys/mman.h>

#include <doca_dev.h>
#include <doca_log.h>

#include "../common/sd_test.h"

int side_mixed_dpu_object(void);

int main(void)
{
	struct doca_log_backend *be = NULL;
	struct doca_devinfo **devs;
	int fd = memfd_create("side-log", MFD_CLOEXEC);
	uint32_t n = 0;
	char text[4096] = {0};
	const char *p;
	int hits = 0;

	CHECK(side_mixed_dpu_object() == 1);
	CHECK(fd >= 0);
	CHECK_OK(doca_log_backend_create_with_fd_sdk(fd, &be));
	for (int i = 0; i < 3; i++) {
		CHECK_OK(doca_devinfo_create_list(&devs, &n));
		CHECK(n > 0);
		CHECK_OK(doca_devinfo_destroy_list(devs));
	}
	CHECK(pread(fd, text, sizeof(text) - 1, 0) >= 0);
	for (p = strstr(text, "both the host and the dpu personality"); p != NULL;
	     p = strstr(p + 1, "both the host and the dpu personality"))
		hits++;
	CHECK_EQ(hits, 1);
	CHECK(strstr(text, "SOFTDOCA_SIDE") != NULL);
	printf("side mixed: one warning\n");
	return 0;
}
