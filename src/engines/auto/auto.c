/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * auto.c - the default engine: small copies run inline at progress time, large ones (from
 * ENGINE_CPU_SPLIT_MIN, which the cpu engine splits over its workers) go to the cpu workers.
 * On a small machine a worker competing with a polling application costs more than it saves
 * for a short copy; for large copies the submitting thread stays free.
 * Ordering is the core's business (per-context FIFO), so mixing the two is safe.
 *
 * Unless the application busy-polls: then its thread spins in doca_pe_progress() while a worker
 * copies, both fighting for the same cores, and copying inside progress is faster (on 2 cores,
 * 2 MiB copies: 0.16 ms inline against 0.68 ms through a worker). auto watches how the
 * application waits for its worker copies: it counts the progress calls made while a worker job
 * is in flight. Many per job (AUTO_SPIN_POLLS) means a spinning thread, and large jobs then run
 * inline too; an application that sleeps in epoll until the notification makes one or two. One
 * large job in AUTO_REPROBE still goes to the worker, so a program that changes how it waits is
 * noticed again. docs/performance.md has the policy and its measurements.
 *
 * Jobs the cpu engine would not split over its workers (below ENGINE_CPU_SPLIT_MIN) have only
 * one worker thread, which copies no faster than the application's own thread: the worker pays
 * only where the application has work of its own to do meanwhile. So these run inline unless
 * the application is seen to overlap: auto measures (CLOCK_MONOTONIC, only while such jobs
 * flow) the time the thread spends between progress calls without arming the notification,
 * that is neither spinning in progress nor asleep waiting for a completion. When that is at
 * least a quarter of the wall time over AUTO_WINDOW such jobs, the worker may help; below,
 * inline. A thread that sleeps on the notification or spins on progress would only wait for
 * the worker, which adds wake-ups and, on 2 cores, copied slower: 1 MiB cold copies at queue
 * depth 1 moved 4.1 GB/s through the worker against 8.0 inline, and 12.9 against 18.0 at depth
 * 256 (docs/performance.md). Whether the worker does help depends on a free core: where the
 * application's peer is as busy as it is (doca_dma_copy on 2 vCPUs: 2 GiB DPU -> host in
 * 0.57-0.63 s on the worker, 0.39-0.54 s inline), it does not. So while the application
 * overlaps, both are timed on its own stream of jobs, as for deep queues below (windows of
 * AUTO_BIG_WINDOW, the worker first), and the faster one takes the jobs.
 *
 * Copies of a few KiB with many in flight are the exception: there the copy and the PE's own
 * work per task (submit, completion, callback) take about as long each, and a worker copying
 * while the PE thread runs the tasks beats doing both on one thread (2-vCPU VM, depth 256, hot
 * buffers, GB/s: 4 KiB 86 through the worker against 49 inline; 1 KiB 17 against 22 and
 * 128 KiB 99 against 103 go the other way). Where the crossover lies depends on the machine,
 * so auto measures it: jobs from AUTO_PAR_MIN below AUTO_CPU_MIN_BYTES submitted with at least
 * AUTO_DEEP others queued are timed in windows of AUTO_PAR_WINDOW jobs. A window inline that
 * is not timed (the worker's last jobs drain, the buffers' lines come back), two timed, one on
 * the worker not timed (it starts or wakes up), two timed; the faster window of each counts,
 * and the worker takes the jobs only when it was AUTO_PAR_GAIN faster. The choice holds for
 * the next AUTO_TM_EXPLOIT windows, twice as many each time it is confirmed (up to
 * AUTO_TM_EXPLOIT_MAX), then both are timed again. One clock read per window; at shallow
 * depth nothing changes. Below 4 KiB the timing itself cost more than it found on this VM
 * (2 KiB: 28 GB/s through auto against 38 inline and 35 on the worker), so those stay inline.
 */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

/* The two executors auto combines (src/engines/inline, src/engines/cpu); the inline one's
 * submit and poll are called directly (engine.h). */
extern const struct engine_ops engine_inline_ops;
extern const struct engine_ops engine_cpu_ops;

/* Jobs of at least this many bytes may go to the cpu worker (below: always inline). */
#define AUTO_CPU_MIN_BYTES (256u * 1024u)
/* Progress calls per worker job above which the application is taken to be spinning. */
#define AUTO_SPIN_POLLS 16
/* While spinning, one large job in this many still goes to the worker (to look again). */
#define AUTO_REPROBE 64
/* Jobs below the split size per decision on whether the application overlaps. */
#define AUTO_WINDOW 16
/* Deep queues of mid-size jobs (see the top): the smallest job timed, the depth from which a
 * job counts, jobs per window, and the worker's lead (in percent) needed to take the jobs. */
#define AUTO_PAR_MIN	4096u
#define AUTO_DEEP	16u
#define AUTO_PAR_WINDOW 4096u
#define AUTO_PAR_GAIN	5u
/* Every timing: timed windows per executor (the faster one counts: a window that an interrupt
 * or another process slowed says nothing), and windows between two timings (doubling while the
 * choice holds, up to the maximum). */
#define AUTO_TM_TIMED	    2u
#define AUTO_TM_EXPLOIT	    32u
#define AUTO_TM_EXPLOIT_MAX 1024u

/* Jobs of an overlapping application per timed window (see the top). */
#define AUTO_BIG_WINDOW 16u

/* Phases of a timing, in order: one executor (A) then the other (B). A warm-up window before
 * each timing lets the previous executor's jobs drain and the copies' cache lines move to the
 * new copier's core, and the first one covers the program's own start. */
enum tm_phase {
	TM_WARM_A,  /* a window on A, not timed */
	TM_TIME_A,  /* AUTO_TM_TIMED windows on A, timed */
	TM_WARM_B,  /* a window on B, not timed (the worker's start, caches) */
	TM_TIME_B,  /* AUTO_TM_TIMED windows on B, timed; then the choice */
	TM_EXPLOIT, /* `exploit` windows where the choice says */
};

/* A timing of the two executors on the same stream of jobs (all on the PE thread). */
struct auto_timing {
	uint32_t window; /* jobs per window */
	uint32_t gain;	 /* the worker's lead (percent) needed to take the jobs */
	bool cpu_first;	 /* A is the worker (B inline); otherwise A is inline */
	bool cpu;	 /* the choice */
	enum tm_phase phase;
	uint32_t jobs;	   /* jobs of the current window */
	uint32_t windows;  /* windows of the current phase so far */
	uint32_t exploit;  /* windows of the next TM_EXPLOIT */
	uint64_t start;	   /* when the window's first job was submitted (ns) */
	uint64_t best;	   /* ns of the fastest window of the current timing */
	uint64_t a_ns;	   /* ns of A's fastest timed window */
	uint64_t cpu_jobs; /* jobs it sent to the worker, ever (tests) */
};

struct engine_queue {
	struct engine_queue *inl;
	struct engine_queue *cpu; /* created on the first large job */
	struct engine_queue_attr attr;
	/* How the application waits for worker jobs (all on the PE thread). */
	uint32_t cpu_inflight; /* jobs submitted to the worker, not yet reaped */
	uint32_t polls;	       /* progress calls while cpu_inflight > 0, since the last decision */
	uint32_t reaped;       /* worker jobs reaped since the last decision */
	uint32_t large_inline; /* large jobs run inline since the last probe */
	bool spinning;
	/* Whether the application works between progress calls (jobs below the split size). */
	uint32_t win_jobs;	/* such jobs submitted in this window */
	uint64_t win_start;	/* when the window's first one was submitted (ns, CLOCK_MONOTONIC) */
	uint64_t own_ns;	/* time between progress calls without an arming, this window */
	uint64_t last_exit;	/* when auto_poll last returned; 0: not measuring */
	bool armed;		/* pending() was called since last_exit */
	bool overlaps;		/* the last window: the worker may take such jobs (timed: big) */
	struct auto_timing big; /* jobs below the split size while the application overlaps */
	/* Deep queues of mid-size jobs (all on the PE thread). */
	uint32_t mid_queued; /* mid-size jobs submitted inline since the last poll */
	struct auto_timing par;
	char owner[64]; /* attr.owner points here: the creator's string is gone by then */
};

static doca_error_t auto_queue_create(const struct engine_queue_attr *attr, struct engine_queue **out)
{
	struct engine_queue *q = calloc(1, sizeof(*q));
	doca_error_t ret;

	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	q->attr = *attr;
	snprintf(q->owner, sizeof(q->owner), "%s", attr->owner ? attr->owner : "?");
	q->attr.owner = q->owner;
	q->par = (struct auto_timing){.window = AUTO_PAR_WINDOW, .gain = AUTO_PAR_GAIN, .exploit = AUTO_TM_EXPLOIT};
	/* an overlapping application's jobs: the worker first */
	q->big = (struct auto_timing){.window = AUTO_BIG_WINDOW, .cpu_first = true, .exploit = AUTO_TM_EXPLOIT};
	ret = engine_inline_ops.queue_create(attr, &q->inl);
	if (ret != DOCA_SUCCESS) {
		free(q);
		return ret;
	}
	*out = q;
	return DOCA_SUCCESS;
}

static void auto_queue_destroy(struct engine_queue *q)
{
	engine_inline_ops.queue_destroy(q->inl);
	if (q->cpu != NULL)
		engine_cpu_ops.queue_destroy(q->cpu);
	free(q);
}

/* A timed window ended at @now: the next phase (the choice after B's timing). */
static void tm_window_end(struct auto_timing *t, uint64_t now)
{
	uint64_t ns = now - t->start;
	bool was_cpu = t->cpu;

	t->jobs = 0;
	t->windows++;
	if ((t->phase == TM_TIME_A || t->phase == TM_TIME_B) && (t->windows == 1 || ns < t->best))
		t->best = ns;
	switch (t->phase) {
	case TM_WARM_A:
	case TM_WARM_B:
		t->phase++;
		t->windows = 0;
		break;
	case TM_TIME_A:
		if (t->windows < AUTO_TM_TIMED)
			return;
		t->a_ns = t->best;
		t->phase = TM_WARM_B;
		t->windows = 0;
		break;
	case TM_TIME_B:
		if (t->windows < AUTO_TM_TIMED)
			return;
		if (t->cpu_first)
			t->cpu = t->a_ns * 100 < t->best * (100 - t->gain);
		else
			t->cpu = t->best * 100 < t->a_ns * (100 - t->gain);
		/* a choice that holds is looked at less and less often */
		if (t->cpu != was_cpu)
			t->exploit = AUTO_TM_EXPLOIT;
		else if (t->exploit < AUTO_TM_EXPLOIT_MAX)
			t->exploit *= 2;
		t->phase = TM_EXPLOIT;
		t->windows = 0;
		break;
	case TM_EXPLOIT:
		if (t->windows < t->exploit)
			return;
		t->phase = TM_WARM_A;
		t->windows = 0;
		break;
	}
}

/* Counts a job in @t's current window: whether it goes to the worker. */
static bool tm_job(struct auto_timing *t)
{
	bool on_a, to_cpu;

	if (t->jobs++ == 0)
		t->start = sd_mono_ns();
	else if (t->jobs >= t->window)
		tm_window_end(t, sd_mono_ns());
	on_a = t->phase == TM_WARM_A || t->phase == TM_TIME_A;
	to_cpu = t->phase == TM_EXPLOIT ? t->cpu : on_a == t->cpu_first;
	if (to_cpu)
		t->cpu_jobs++;
	return to_cpu;
}

/* A job below the split size is submitted: count it in the window, decide at its end. */
static void window_job(struct engine_queue *q)
{
	uint64_t now = sd_mono_ns();

	if (q->win_jobs++ == 0) {
		q->win_start = now;
		q->own_ns = 0;
		if (q->last_exit == 0) {
			q->last_exit = now; /* start measuring the gaps between progress calls */
			q->armed = false;
		}
		return;
	}
	if (q->win_jobs >= AUTO_WINDOW) {
		q->overlaps = q->own_ns * 4 >= now - q->win_start;
		q->win_jobs = 0;
	}
}

/* Sends @job to the worker (created on first use); inline when the worker cannot start. */
static int submit_cpu(struct engine_queue *q, struct engine_job *job)
{
	int rc;

	if (q->cpu == NULL && engine_cpu_ops.queue_create(&q->attr, &q->cpu) != DOCA_SUCCESS)
		q->cpu = NULL;
	if (q->cpu == NULL)
		return engine_inline_submit(q->inl, job);
	rc = engine_cpu_ops.submit(q->cpu, job);
	if (rc == 0)
		q->cpu_inflight++;
	return rc;
}

/* A job of AUTO_CPU_MIN_BYTES or more: where it runs. */
static __attribute__((noinline)) int submit_large(struct engine_queue *q, struct engine_job *job)
{
	bool to_cpu = false;
	int rc;

	if (job->len >= ENGINE_CPU_SPLIT_MIN) {
		/* split over the workers, unless the application spins (looked at again now and then) */
		to_cpu = !q->spinning || ++q->large_inline >= AUTO_REPROBE;
	} else {
		/* one worker: only where the application has its own work meanwhile */
		window_job(q);
		to_cpu = q->overlaps && tm_job(&q->big);
	}
	if (to_cpu) {
		rc = submit_cpu(q, job);
		if (rc == 0)
			q->large_inline = 0;
		return rc;
	}
	return engine_inline_submit(q->inl, job);
}

/*
 * A job from AUTO_PAR_MIN below AUTO_CPU_MIN_BYTES with a deep queue (auto_submit() takes the
 * shallow ones inline): timed against the worker, unless transported (those batch inline).
 */
static __attribute__((noinline)) int submit_mid(struct engine_queue *q, struct engine_job *job)
{
	int rc;

	if (!engine_job_xfer(job) && tm_job(&q->par))
		return submit_cpu(q, job);
	rc = engine_inline_submit(q->inl, job);
	if (rc == 0)
		q->mid_queued++;
	return rc;
}

static int auto_submit(struct engine_queue *q, struct engine_job *job)
{
	/* small jobs, the common case: straight to inline, no frame of auto's own */
	if (SD_LIKELY(job->len < AUTO_PAR_MIN))
		return engine_inline_submit(q->inl, job);
	if (job->len < AUTO_CPU_MIN_BYTES) {
		if (q->mid_queued + q->cpu_inflight < AUTO_DEEP) {
			/* shallow, the common case: inline in a tail call, counted first (a job inline
			 * refuses stays counted until the next poll; inline refuses when full: deep) */
			q->mid_queued++;
			return engine_inline_submit(q->inl, job);
		}
		return submit_mid(q, job);
	}
	return submit_large(q, job);
}

/* auto_poll while worker jobs fly or the gaps between calls are measured. */
static __attribute__((noinline)) unsigned int poll_watched(struct engine_queue *q, unsigned int budget)
{
	unsigned int n;

	if (q->last_exit != 0) {
		/* the gap since the last call is the application's own time unless it armed to sleep */
		if (!q->armed)
			q->own_ns += sd_mono_ns() - q->last_exit;
		q->armed = false;
	}
	n = engine_inline_poll(q->inl, budget);

	if (q->cpu != NULL && q->cpu_inflight > 0) {
		unsigned int k = engine_cpu_ops.poll(q->cpu, budget);

		q->polls++;
		q->reaped += k;
		q->cpu_inflight -= k;
		n += k;
		/* Decide once a few worker jobs came back: spinning between them? */
		if (q->reaped >= 4 || (q->reaped > 0 && q->cpu_inflight == 0)) {
			q->spinning = q->polls >= AUTO_SPIN_POLLS * q->reaped;
			q->polls = q->reaped = 0;
		}
	}
	if (q->last_exit != 0) {
		if (q->win_jobs == 0)
			q->last_exit = 0; /* a window was decided: measure again from the next such job */
		else
			q->last_exit = sd_mono_ns();
	}
	return n;
}

static unsigned int auto_poll(struct engine_queue *q, unsigned int budget)
{
	q->mid_queued = 0; /* this call runs them */
	if (SD_LIKELY(q->cpu_inflight == 0 && q->last_exit == 0))
		return engine_inline_poll(q->inl, budget);
	return poll_watched(q, budget);
}

static bool auto_pending(const struct engine_queue *q)
{
	bool cpu_work = q->cpu_inflight > 0 && engine_cpu_ops.pending(q->cpu);

	/* The core asks this as the application arms the notification to sleep: the time until
	 * the next progress call is waiting, not the application's own work (PE thread, the
	 * queue's own field: the queue is not const memory). */
	((struct engine_queue *)q)->armed = true;
	return engine_inline_ops.pending(q->inl) || cpu_work;
}

static void auto_cancel(struct engine_queue *q, doca_error_t status)
{
	engine_inline_ops.cancel(q->inl, status);
	if (q->cpu != NULL)
		engine_cpu_ops.cancel(q->cpu, status);
}

/* For tests (tests/engines): whether @q currently runs large jobs inline. */
bool engine_auto_spinning(const struct engine_queue *q);
bool engine_auto_spinning(const struct engine_queue *q)
{
	return q->spinning;
}

/* For tests: whether @q sends jobs below the split size to the worker (the application overlaps). */
bool engine_auto_overlaps(const struct engine_queue *q);
bool engine_auto_overlaps(const struct engine_queue *q)
{
	return q->overlaps;
}

/* For tests: jobs of an overlapping application that its timing sent to the worker so far. */
uint64_t engine_auto_big_cpu_jobs(const struct engine_queue *q);
uint64_t engine_auto_big_cpu_jobs(const struct engine_queue *q)
{
	return q->big.cpu_jobs;
}

/* For tests: deep mid-size jobs sent to the worker so far, and whether the last timing chose it. */
uint64_t engine_auto_par_cpu_jobs(const struct engine_queue *q, bool *chosen);
uint64_t engine_auto_par_cpu_jobs(const struct engine_queue *q, bool *chosen)
{
	*chosen = q->par.cpu;
	return q->par.cpu_jobs;
}

#define AUTO_DESC "small copies inline at progress time, large copies on a cpu worker, deep queues where timed faster"

static const struct engine_ops auto_ops = {
    .name = "auto",
    .desc = AUTO_DESC,
    .queue_create = auto_queue_create,
    .queue_destroy = auto_queue_destroy,
    .submit = auto_submit,
    .poll = auto_poll,
    .pending = auto_pending,
    .cancel = auto_cancel,
};

const struct engine_backend engine_backend_auto = {
    .name = "auto",
    .desc = AUTO_DESC,
    .kind = ENGINE_EXECUTOR,
    .pairs = ENGINE_PAIR(MEM_DOMAIN_LOCAL, MEM_DOMAIN_LOCAL),
    .priority = 30,
    .ops = &auto_ops,
};
