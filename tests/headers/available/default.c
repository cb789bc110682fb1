/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A header with no file of its own here gets this check: it must make available what every
 * DOCA header that includes doca_compat.h does. HEADER_UNDER_TEST is set by the script.
 */
#include HEADER_UNDER_TEST

#include "compat_set.h"
