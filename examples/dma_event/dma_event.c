/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_event - the same copy as dma_local_copy, but the program sleeps in epoll on the progress
 * engine's notification handle instead of polling: drain with doca_pe_progress(), arm with
 * doca_pe_request_notification(), wait, clear, repeat.
 */
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "common.h"

DOCA_LOG_REGISTER(DMA_EVENT);

/* Generous: a missed notification shows up as a timeout instead of a hang. */
#define WAIT_MS 10000

static doca_error_t wait_for_all(struct example_dma *ex, int *wakeups)
{
	struct epoll_event ev = {.events = EPOLLIN};
	doca_notification_handle_t fd;
	doca_error_t ret;
	int ep;

	ret = doca_pe_get_notification_handle(ex->pe, &fd);
	if (ret != DOCA_SUCCESS)
		return ret;
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
		DOCA_LOG_ERR("epoll setup failed: %s", strerror(errno));
		if (ep >= 0)
			close(ep);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	for (;;) {
		while (doca_pe_progress(ex->pe) != 0)
			;
		if (ex->completed == ex->num_tasks)
			break;
		ret = doca_pe_request_notification(ex->pe);
		if (ret != DOCA_SUCCESS)
			break;
		int n = epoll_wait(ep, &ev, 1, WAIT_MS);

		if (n == 0) {
			DOCA_LOG_ERR("no notification within %d ms (%d of %d tasks done)", WAIT_MS, ex->completed,
				     ex->num_tasks);
			ret = DOCA_ERROR_TIME_OUT;
			break;
		}
		if (n < 0 && errno != EINTR) {
			ret = DOCA_ERROR_OPERATING_SYSTEM;
			break;
		}
		(*wakeups)++;
		ret = doca_pe_clear_notification(ex->pe, fd);
		if (ret != DOCA_SUCCESS)
			break;
	}
	close(ep);
	return ret;
}

int main(int argc, char **argv)
{
	struct example_cfg cfg = {.pci_addr = EXAMPLE_PCI_ADDR_DEFAULT,
				  .text = "Event-driven copy: this process slept in epoll while softdoca copied.",
				  .num_tasks = 16};
	struct example_dma ex = {0};
	doca_error_t ret;
	int rc = EXIT_FAILURE, wakeups = 0;

	if (example_begin(argc, argv, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;

	ret = example_dma_setup(&ex, cfg.pci_addr, cfg.text, cfg.num_tasks);
	if (ret == DOCA_SUCCESS)
		ret = example_dma_submit_all(&ex);
	if (ret == DOCA_SUCCESS)
		ret = wait_for_all(&ex, &wakeups);
	if (ret == DOCA_SUCCESS)
		ret = example_dma_verify(&ex);
	if (ret == DOCA_SUCCESS) {
		printf("%s\n", ex.dst);
		DOCA_LOG_INFO("%d task(s) copied and verified after %d epoll wake-up(s)", ex.num_tasks, wakeups);
		rc = EXIT_SUCCESS;
	} else {
		DOCA_LOG_ERR("event-driven DMA copy failed: %s", doca_error_get_descr(ret));
	}
	if (example_dma_teardown(&ex) != DOCA_SUCCESS)
		rc = EXIT_FAILURE;
	doca_argp_destroy();
	return rc;
}
