/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Issue: DOCA's doca_pe.h includes <stdlib.h>; NVIDIA's pe_common.c calls malloc()/free()
 * with no libc include of its own, so a program shaped like it must build with the PE header
 * (here alone) under -Werror=implicit-function-declaration.
 */
#include <doca_pe.h>

struct pe_sample_state {
	uint8_t *buffer;
	size_t buffer_size;
	struct doca_pe *pe;
};

doca_error_t pe_sample_allocate(struct pe_sample_state *state);
doca_error_t pe_sample_allocate(struct pe_sample_state *state)
{
	state->buffer = (uint8_t *)malloc(state->buffer_size);
	if (state->buffer == NULL)
		return DOCA_ERROR_NO_MEMORY;
	memset(state->buffer, 0, state->buffer_size);
	return doca_pe_create(&state->pe);
}

void pe_sample_cleanup(struct pe_sample_state *state);
void pe_sample_cleanup(struct pe_sample_state *state)
{
	if (state->pe != NULL)
		(void)doca_pe_destroy(state->pe);
	free(state->buffer);
	state->buffer = NULL;
}
