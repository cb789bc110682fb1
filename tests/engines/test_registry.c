/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_registry.c - the backend registry generated from src/engines/meson.build: every entry
 * is consistent with its kind, executors and transports are found by what they are, the
 * transport choice per memory-domain pair, and the executor choice from SOFTDOCA_ENGINE (read
 * once per process, so each case runs in a child).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/sd_test.h"
#include "engine.h"

static int pick(void *arg)
{
	const char *env = arg;
	const struct engine_ops *e;

	if (env != NULL)
		setenv("SOFTDOCA_ENGINE", env, 1);
	else
		unsetenv("SOFTDOCA_ENGINE");
	unsetenv("SOFTDOCA_CONFIG");
	e = engine_default();
	if (env == NULL) {
		/* No choice given: the usable executor of highest priority. */
		const struct engine_backend *best = NULL;

		for (const struct engine_backend *const *b = engine_backends; *b != NULL; b++)
			if ((*b)->kind == ENGINE_EXECUTOR && engine_backend_usable(*b, NULL, 0) &&
			    (best == NULL || (*b)->priority > best->priority))
				best = *b;
		CHECK(best != NULL && e == best->ops);
		return T_EXIT_PASS;
	}
	if (engine_find(env) != NULL) {
		CHECK(e == engine_find(env));
		CHECK(engine_default_error(NULL) == NULL);
		return T_EXIT_PASS;
	}
	CHECK(e == NULL); /* unknown, or a transport: refused, with the reason for the context to say */
	{
		bool config = false;
		const char *why = engine_default_error(&config);

		CHECK(config && why != NULL && strstr(why, env) != NULL &&
		      strstr(why, "(from SOFTDOCA_ENGINE)") != NULL);
		CHECK(strstr(why, engine_backend_find(env) != NULL ? "is a transport" : "unknown engine") != NULL);
	}
	return T_EXIT_PASS;
}

int main(void)
{
	int executors = 0, transports = 0;
	char why[192];

	for (const struct engine_backend *const *b = engine_backends; *b != NULL; b++) {
		CHECK((*b)->name != NULL && (*b)->desc != NULL && (*b)->pairs != 0);
		CHECK(engine_backend_find((*b)->name) == *b);
		for (const struct engine_backend *const *c = b + 1; *c != NULL; c++)
			CHECK(strcmp((*b)->name, (*c)->name) != 0);
		if ((*b)->kind == ENGINE_EXECUTOR) {
			CHECK((*b)->ops != NULL && (*b)->xfer == NULL);
			CHECK((*b)->pairs & ENGINE_PAIR(MEM_DOMAIN_LOCAL, MEM_DOMAIN_LOCAL));
			CHECK(strcmp((*b)->ops->name, (*b)->name) == 0);
			CHECK(strstr(engine_names(), (*b)->name) != NULL);
			executors++;
		} else {
			CHECK((*b)->kind == ENGINE_TRANSPORT);
			CHECK((*b)->xfer != NULL && (*b)->ops == NULL && (*b)->xfer->copy_range != NULL);
			CHECK(engine_find((*b)->name) == NULL);
			CHECK(strstr(engine_names(), (*b)->name) == NULL);
			transports++;
		}
		printf("%-8s %-9s priority %2d  %s%s%s\n", (*b)->name,
		       (*b)->kind == ENGINE_EXECUTOR ? "executor" : "transport", (*b)->priority,
		       engine_backend_usable(*b, why, sizeof(why)) ? "usable" : "not usable: ",
		       engine_backend_usable(*b, NULL, 0) ? "" : why, "");
	}
	CHECK(executors >= 3 && transports >= 1);
	CHECK(engine_backend_find("no-such-backend") == NULL);

	/* Local copies need no transport; pairs nobody moves say so. */
	CHECK(engine_transport_for(MEM_DOMAIN_LOCAL, MEM_DOMAIN_LOCAL, why, sizeof(why)) == NULL);
	CHECK(strstr(why, "no backend moves this pair") != NULL);
	CHECK(engine_transport_for(MEM_DOMAIN_GPU, MEM_DOMAIN_LOCAL, why, sizeof(why)) ==
	      &engine_backend_find("cuda")->xfer[0]);
	CHECK(engine_transport_for(MEM_DOMAIN_GPU, MEM_DOMAIN_PROCESS, why, sizeof(why)) == NULL);
	CHECK(engine_transport_for(MEM_DOMAIN_PROCESS, MEM_DOMAIN_PROCESS, NULL, 0) == NULL);
	CHECK(engine_transport_for(MEM_DOMAIN_KINDS, MEM_DOMAIN_LOCAL, why, sizeof(why)) == NULL);
	CHECK(strcmp(mem_domain_kind_name(MEM_DOMAIN_PROCESS), "process") == 0);

	CHECK(check_run_child(pick, NULL, "default executor") == T_EXIT_PASS);
	for (const struct engine_backend *const *b = engine_backends; *b != NULL; b++)
		CHECK(check_run_child(pick, (void *)(*b)->name, (*b)->name) == T_EXIT_PASS);
	CHECK(check_run_child(pick, "bogus", "unknown engine") == T_EXIT_PASS);
	printf("%d executors, %d transports\n", executors, transports);
	return T_EXIT_PASS;
}
