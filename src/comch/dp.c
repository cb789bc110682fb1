/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dp.c - the comch fast data path: consumers post buffers, producers on the other side of the
 * connection write into them at memory speed, across processes, without the message socket.
 *
 *   consumer process                                        producer process
 *   ----------------                                        ----------------
 *   doca_ctx_start(consumer)
 *     memfd ring + doorbell pipe, CONSUMER{NEW, id, fds} --> control context (server/client):
 *                                                            opens both through /proc/<pid>/fd,
 *     STARTING ... attached = 1, doorbell <---------------- sets attached, new-consumer callback
 *   RUNNING
 *   post_recv task -> posts[] {addr, cap, seq} ----------->  producer submit: takes a post (or
 *                                                            AGAIN when there is none), copies
 *                                                            buf -> addr with process_vm_writev
 *   progress: comps[] -> task completes <------------------- (memcpy in one process), pushes
 *                      (doorbell when it was quiet)          comps[] {seq, len, status, imm}
 *   doca_ctx_stop: gone = 1, CONSUMER{GONE, id} ---------->  expired-consumer callback
 *
 * The ring (struct dp_shm) lives in a memfd of the consumer; the peer maps it shared. The
 * consumer alone writes posts[] and post_head; producers take posts and push completions under
 * a lock of their own process (struct dp_remote: every producer of one consumer lives in the
 * process at the other end of its connection), held for a few instructions. Completions reach
 * the consumer's PE through a pipe watched by its notification handle; `bell` makes it one byte
 * per quiet period, so a busy stream costs no system call on the consumer's side per task and
 * one process_vm_writev per task on the producer's side.
 *
 * Trust: the ring is shared with the peer, a process that may be buggy or hostile. Each side
 * keeps what it relies on in its own memory and reads the page only for what the other side
 * says, once per use, into a local:
 *   - the ring's size: checked by the producer once, at attach (dp_remote.ring), and known to
 *     the consumer from its own start (cs->mask); neither reads it from the page again;
 *   - the producers' indices (post_tail, comp_head) are kept in dp_remote and only published
 *     to the page; the consumer's post_head is read once per take and must be at most a ring
 *     ahead of what was taken, or the consumer is failed for the producers with one line;
 *   - every post (addr, cap, seq) is copied before use; addr is written only with
 *     process_vm_writev into the consumer's own address space, so a wrong one hurts only it;
 *   - the consumer checks every completion against its own table (sequence number, length,
 *     immediate data length) before touching a task, and a completion index more than a ring
 *     ahead fails the consumer;
 *   - no lock lives in the page: a peer that stores into it cannot stall the other side.
 *
 * Threading: a consumer or producer may be progressed by another thread (its own PE) than the
 * server/client context of its connection (NVIDIA's secure_channel runs the connection on the
 * main thread and one thread each for its producer and consumer). What they share:
 *   - conn->dp_word: gen and CONN_UP, published by the connection's thread (atomic);
 *   - conn->remotes and every dp_remote: written by the connection's thread only, under
 *     dp_lock held for writing; producers read them under dp_lock held for reading, from the
 *     lookup to the end of the copy, so a ring is never unmapped under a producer;
 *   - conn->fd: the control packets of consumers (CONSUMER NEW/GONE) are sent under dp_lock
 *     held for reading after checking dp_word, and comch_dp_conn_closed() clears dp_word under
 *     the write lock before the socket is closed, so such a send never reaches a recycled fd;
 *   - conn->nb_dp: atomic.
 * No lock is held across a user callback. Read locks of an uncontended rwlock are an atomic
 * each, no system call. The shared ring is the only thing another process touches, through
 * atomics.
 *
 * Files: this one has the peer's consumers as this side's producers see them (struct dp_remote,
 * the lock over them), the capabilities and the DPA stubs; dp_consumer.c and dp_producer.c the
 * two contexts.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>

#include "dp_internal.h"

#define COMP "comch"

_Static_assert(DP_RING_MAX >= TOPO_COMCH_MAX_DP_TASKS, "a consumer's largest ring is a ring a producer takes");

void dp_ring_bell(struct dp_shm *s, int fd)
{
	char b = 1;

	if (atomic_exchange(&s->bell, 1) == 0 && write(fd, &b, 1) < 0 && errno != EAGAIN)
		SD_DBG(COMP, "doorbell write: %s", strerror(errno));
}

/* Guards every connection's remotes list (see Threading above); writers are rare. */
static pthread_rwlock_t dp_lock;
static pthread_once_t dp_lock_once = PTHREAD_ONCE_INIT;

static void dp_lock_init(void)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
#ifdef __GLIBC__
	/* Producers busy-retrying AGAIN take the read lock in a loop; the connection's thread must
	 * still get in to mark a consumer gone. */
	pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
	pthread_rwlock_init(&dp_lock, &a);
	pthread_rwlockattr_destroy(&a);
}

void dp_rdlock(void)
{
	pthread_once(&dp_lock_once, dp_lock_init);
	pthread_rwlock_rdlock(&dp_lock);
}

static void dp_wrlock(void)
{
	pthread_once(&dp_lock_once, dp_lock_init);
	pthread_rwlock_wrlock(&dp_lock);
}

void dp_unlock(void)
{
	pthread_rwlock_unlock(&dp_lock);
}

/*
 * Sends one control packet on connection @c of generation @gen from a consumer's thread. The
 * socket is shared with the connection's own sends; SOCK_SEQPACKET keeps packets whole. The
 * read lock keeps the fd open (see Threading). The socket is rarely full; then wait for it a
 * little.
 */
int dp_send_ctrl(struct doca_comch_connection *c, uint32_t gen, const void *pkt, size_t len)
{
	int rc = -EAGAIN;

	dp_rdlock();
	for (int tries = 0; tries < 2000; tries++) {
		if (!conn_live(c, gen)) {
			rc = -ENOTCONN;
			break;
		}
		if (send(c->fd, pkt, len, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) {
			rc = 0;
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS) {
			rc = -errno;
			break;
		}
		usleep(500);
	}
	dp_unlock();
	return rc;
}

static void remote_unmap(struct dp_remote *r)
{
	if (r->shm != NULL)
		munmap(r->shm, r->size);
	r->shm = NULL;
	if (r->bell_fd >= 0)
		close(r->bell_fd);
	r->bell_fd = -1;
	if (r->pidfd >= 0)
		close(r->pidfd);
	r->pidfd = -1;
	r->gone = true;
}

static void remote_free(struct dp_remote *r)
{
	remote_unmap(r);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

void comch_dp_conn_closed(struct doca_comch_connection *c)
{
	struct dp_remote *list;

	dp_wrlock();
	atomic_store_explicit(&c->dp_word, (uint64_t)c->gen << 1, memory_order_release);
	list = c->remotes;
	c->remotes = NULL;
	dp_unlock();
	while (list != NULL) {
		struct dp_remote *r = list;

		list = r->next;
		remote_free(r);
	}
}

/* Under dp_lock, or on the connection's thread. */
struct dp_remote *dp_remote_find(struct doca_comch_connection *c, uint32_t id)
{
	struct dp_remote *r;

	for (r = c->remotes; r != NULL; r = r->next)
		if (r->id == id)
			break;
	return r;
}

static int open_peer_fd(pid_t pid, uint32_t fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fd/%u", (int)pid, fd);
	return open(path, flags | O_CLOEXEC);
}

/* The peer announced a consumer: map its ring, tell it, run the new-consumer callback. */
static void remote_new(struct comch_ep *ep, struct doca_comch_connection *c, const struct comch_wire_msg *m)
{
	struct dp_remote *r, *old = NULL;
	struct dp_shm hdr;
	const char *why;
	struct stat st;
	int fd;

	/* Only this thread writes the list: reading it needs no lock. */
	for (r = c->remotes; r != NULL; r = r->next) {
		if (r->id != m->consumer.id)
			continue;
		if (!r->gone) {
			SD_WARN(COMP, "%s: the peer (pid %u) announced consumer %u twice; ignored",
				priv_doca_ctx_name(&ep->ctx), c->peer_pid, m->consumer.id);
			return;
		}
		break;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return;
	r->id = m->consumer.id;
	r->pid = (pid_t)c->peer_pid;
	{
		/* The kernel's word for who is on the other end, not the pid the handshake claimed. */
		struct ucred cr = {0};
		socklen_t crlen = sizeof(cr);

		if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) == 0 && cr.pid > 0)
			r->pid = cr.pid;
	}
	r->local = r->pid == getpid();
	r->bell_fd = -1;
	r->pidfd = -1;
	pthread_mutex_init(&r->lock, NULL);
	fd = open_peer_fd(r->pid, m->consumer.shm_fd, O_RDWR);
	if (fd < 0 || fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(struct dp_shm)) {
		SD_ERR(COMP,
		       "%s: cannot open the ring of consumer %u of pid %u (/proc/%u/fd/%u: %s); the kernel's ptrace "
		       "rule must let this process reach the peer (same user, see docs/cross-process.md)",
		       priv_doca_ctx_name(&ep->ctx), r->id, (unsigned)r->pid, (unsigned)r->pid, m->consumer.shm_fd,
		       fd < 0 ? strerror(errno) : "too small");
		goto fail;
	}
	r->size = (size_t)st.st_size;
	r->shm = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	fd = -1;
	if (r->shm == MAP_FAILED) {
		r->shm = NULL;
		SD_ERR(COMP, "%s: mmap of the ring of consumer %u: %s", priv_doca_ctx_name(&ep->ctx), r->id,
		       strerror(errno));
		goto fail;
	}
	/* Once, into our memory: the peer may change the page while it is checked. */
	memcpy(&hdr, r->shm, DP_HDR_ID_LEN);
	why = dp_page_check(&hdr, r->size, r->id);
	if (why != NULL) {
		SD_ERR(COMP,
		       "%s: the ring of consumer %u of pid %u is refused: %s (magic %#x, version %u, id %u, %u "
		       "entries, %zu bytes); the consumer is ignored: run the same softdoca on both sides",
		       priv_doca_ctx_name(&ep->ctx), r->id, c->peer_pid, why, hdr.magic, hdr.version, hdr.consumer_id,
		       hdr.ring, r->size);
		goto fail;
	}
	r->ring = hdr.ring;
	r->imm_max = hdr.imm_max;
	r->bell_fd = open_peer_fd(r->pid, m->consumer.bell_fd, O_WRONLY | O_NONBLOCK);
	if (r->bell_fd < 0) {
		SD_ERR(COMP, "%s: cannot open the doorbell of consumer %u of pid %u: %s", priv_doca_ctx_name(&ep->ctx),
		       r->id, c->peer_pid, strerror(errno));
		goto fail;
	}
#ifdef SYS_pidfd_open
	r->pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
#endif
	dp_wrlock();
	/* A consumer that stopped and starts again keeps its id: its old entry goes. */
	for (struct dp_remote **pp = &c->remotes; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->id == r->id) {
			old = *pp;
			*pp = old->next;
			break;
		}
	}
	r->next = c->remotes;
	c->remotes = r;
	dp_unlock();
	if (old != NULL)
		remote_free(old);
	atomic_store(&r->shm->attached, 1);
	dp_ring_bell(r->shm, r->bell_fd);
	SD_DBG(COMP, "%s: the peer (pid %d) has consumer %u (%u posts)", priv_doca_ctx_name(&ep->ctx), (int)r->pid,
	       r->id, r->ring);
	if (ep->new_consumer_cb != NULL)
		ep->new_consumer_cb(&ep->ev_consumer, c, r->id);
	return;
fail:
	if (fd >= 0)
		close(fd);
	remote_free(r);
}

void comch_dp_packet(struct comch_ep *ep, struct doca_comch_connection *c, const struct comch_wire_msg *m)
{
	struct dp_remote *r;

	if (m->consumer.op == COMCH_CONSUMER_NEW) {
		remote_new(ep, c, m);
		return;
	}
	for (r = c->remotes; r != NULL; r = r->next)
		if (r->id == m->consumer.id && !r->gone)
			break;
	if (r == NULL)
		return;
	/* Producers on other threads may be copying into this ring right now. */
	dp_wrlock();
	remote_unmap(r);
	dp_unlock();
	SD_DBG(COMP, "%s: consumer %u of the peer (pid %u) expired", priv_doca_ctx_name(&ep->ctx), r->id, c->peer_pid);
	if (ep->expired_consumer_cb != NULL)
		ep->expired_consumer_cb(&ep->ev_consumer, c, r->id);
}

/* ---- capabilities ---- */

/* @off: a uint32_t of struct topo_caps_comch, read from the device's profile; SIZE_MAX: @v. */
static doca_error_t dp_cap(const struct doca_devinfo *devinfo, uint32_t *out, size_t off, uint32_t v, const char *call)
{
	if (devinfo == NULL || out == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (off == SIZE_MAX)
		*out = v;
	else
		memcpy(out, (const uint8_t *)&devinfo->profile->comch + off, sizeof(*out));
	return DOCA_SUCCESS;
}

#define CAP(field) offsetof(struct topo_caps_comch, field), 0
#define FIXED(v)   SIZE_MAX, (v)

DOCA_STABLE doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_consumer_cap_is_supported: NULL devinfo");
	return devinfo->profile->comch.supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_producer_cap_is_supported: NULL devinfo");
	return devinfo->profile->comch.supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
								   uint32_t *max_num_tasks)
{
	return dp_cap(devinfo, max_num_tasks, CAP(consumer_max_num_tasks), "doca_comch_consumer_cap_get_max_num_tasks");
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
								  uint32_t *max_buf_size)
{
	return dp_cap(devinfo, max_buf_size, CAP(consumer_max_buf_size), "doca_comch_consumer_cap_get_max_buf_size");
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_buf_list_len)
{
	return dp_cap(devinfo, max_buf_list_len, FIXED(1), "doca_comch_consumer_cap_get_max_buf_list_len");
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo,
								   uint32_t *max_consumers)
{
	return dp_cap(devinfo, max_consumers, CAP(max_consumers), "doca_comch_consumer_cap_get_max_consumers");
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_imm_data_len)
{
	return dp_cap(devinfo, max_imm_data_len, FIXED(DP_IMM_MAX), "doca_comch_consumer_cap_get_max_imm_data_len");
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
								   uint32_t *max_num_tasks)
{
	return dp_cap(devinfo, max_num_tasks, CAP(producer_max_num_tasks), "doca_comch_producer_cap_get_max_num_tasks");
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
								  uint32_t *max_buf_size)
{
	return dp_cap(devinfo, max_buf_size, CAP(producer_max_buf_size), "doca_comch_producer_cap_get_max_buf_size");
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_buf_list_len)
{
	return dp_cap(devinfo, max_buf_list_len, FIXED(1), "doca_comch_producer_cap_get_max_buf_list_len");
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_producers(const struct doca_devinfo *devinfo,
								   uint32_t *max_producers)
{
	return dp_cap(devinfo, max_producers, CAP(max_producers), "doca_comch_producer_cap_get_max_producers");
}

/* ---- what consumers and producers share ---- */

doca_error_t dp_check_conn(struct doca_comch_connection *c, const char *call)
{
	if (!(atomic_load_explicit(&c->dp_word, memory_order_acquire) & 1))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: connection %p is not established; create it from a connect event or after the "
				 "client is RUNNING",
				 call, (void *)c);
	return DOCA_SUCCESS;
}

doca_error_t dp_queue_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **q)
{
	(void)attr;
	*q = calloc(1, sizeof(**q));
	return *q != NULL ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;
}

void dp_queue_destroy(struct ctx_dp_queue *q)
{
	free(q);
}

/* ---- the DPA data path: not emulated ---- */

static doca_error_t no_dpa(const void *obj, const char *call)
{
	if (obj == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			 "%s: softdoca emulates no DPA; run the consumer/producer data path on the CPU "
			 "(leave doca_ctx_set_datapath_on_dpa() out)",
			 call);
}

DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp)
{
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_create");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_dpa_thread(
    struct doca_comch_consumer_completion *consumer_comp, struct doca_dpa_thread *dpa_thread)
{
	(void)dpa_thread;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_set_dpa_thread");
}

DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp)
{
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_destroy");
}

DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp)
{
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_start");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp)
{
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_stop");
}

DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_get_dpa_handle(struct doca_comch_consumer_completion *consumer_comp,
					      doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle)
{
	(void)consumer_comp_handle;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_get_dpa_handle");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_max_num_consumers(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_consumers)
{
	(void)max_num_consumers;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_set_max_num_consumers");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_max_num_consumers(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers)
{
	(void)max_num_consumers;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_get_max_num_consumers");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_max_num_recv(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_recv)
{
	(void)max_num_recv;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_set_max_num_recv");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_max_num_recv(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_recv)
{
	(void)max_num_recv;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_get_max_num_recv");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_set_dev_num_recv(struct doca_comch_consumer *consumer,
								    uint32_t dev_num_recv)
{
	(void)dev_num_recv;
	return no_dpa(consumer, "doca_comch_consumer_set_dev_num_recv");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
								  struct doca_comch_consumer_completion *consumer_comp,
								  uint32_t user_data)
{
	(void)consumer_comp;
	(void)user_data;
	return no_dpa(consumer, "doca_comch_consumer_set_completion");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
								  doca_dpa_dev_comch_consumer_t *dpa_consumer)
{
	(void)dpa_consumer;
	return no_dpa(consumer, "doca_comch_consumer_get_dpa_handle");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_set_dev_num_send(struct doca_comch_producer *producer,
								    uint32_t dev_num_send)
{
	(void)dev_num_send;
	return no_dpa(producer, "doca_comch_producer_set_dev_num_send");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
									 struct doca_dpa_completion *dpa_comp)
{
	(void)dpa_comp;
	return no_dpa(producer, "doca_comch_producer_dpa_completion_attach");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
								  doca_dpa_dev_comch_producer_t *dpa_producer)
{
	(void)dpa_producer;
	return no_dpa(producer, "doca_comch_producer_get_dpa_handle");
}
