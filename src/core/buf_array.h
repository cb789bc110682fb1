/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buf_array.h - what softdoca's data paths read of a started doca_buf_arr (buf_array.c).
 * PE/application thread only, like every DOCA object.
 */
#ifndef SD_BUF_ARRAY_H_
#define SD_BUF_ARRAY_H_

#include <stddef.h>

#include <doca_buf_array.h>

#include "sd_internal.h"

/* Element @i of a started array: its address and length. INVALID_VALUE (logged) otherwise. */
SD_PRIV doca_error_t priv_doca_buf_arr_elem(const struct doca_buf_arr *buf_arr, size_t i, void **addr, size_t *len);
SD_PRIV size_t priv_doca_buf_arr_num_elem(const struct doca_buf_arr *buf_arr);

#endif /* SD_BUF_ARRAY_H_ */
