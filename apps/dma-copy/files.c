/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * files.c - doca_dma_copy's files: the source (read with pread() into the staging ring), the
 * destination (written under "<path>.partial.<pid>", reserved first, renamed into place once
 * verified: commit), and the partials left by copies whose process is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

doca_error_t open_source(struct file_map *fm, const char *path)
{
	struct stat st;

	memset(fm, 0, sizeof(*fm));
	snprintf(fm->path, sizeof(fm->path), "%s", path);
	/* Non-blocking: a FIFO or device named by mistake is refused below instead of hanging here. */
	fm->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fm->fd < 0 || fstat(fm->fd, &st) != 0) {
		snprintf(fm->why, sizeof(fm->why), "%s", strerror(errno));
		LOG_ERR("cannot read %s: %s", path, fm->why);
		return DOCA_ERROR_IO_FAILED;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(fm->why, sizeof(fm->why), "not a regular file");
		LOG_ERR("%s is not a regular file", path);
		return DOCA_ERROR_INVALID_VALUE;
	}
	fm->size = (uint64_t)st.st_size;
	/* The kernel's own read-ahead, in large page-cache folios, streams a cold file in: asking
	 * for it ahead with POSIX_FADV_WILLNEED built 4 KiB pages and cost more (docs/performance.md). */
	(void)posix_fadvise(fm->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return DOCA_SUCCESS;
}

/* Checks a destination can be created; fills @why on refusal. */
doca_error_t check_dest(const char *path, uint64_t size, bool force, char *why, size_t why_len)
{
	struct statvfs vfs;
	char dir[4096], *slash;

	struct stat st;

	if (lstat(path, &st) == 0) {
		/* --force replaces a regular file, never a directory, device, FIFO, socket or link. */
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, why_len, "%.160s exists and is %s; it is never replaced, not even with --force",
				 path,
				 S_ISLNK(st.st_mode)   ? "a symbolic link (name the file it points to)"
				 : S_ISDIR(st.st_mode) ? "a directory (name a file in it)"
						       : "not a regular file");
			return DOCA_ERROR_ALREADY_EXIST;
		}
		if (!force) {
			snprintf(why, why_len, "%.200s already exists; pass --force to replace it", path);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (statvfs(dir, &vfs) != 0) {
		snprintf(why, why_len, "cannot use directory %.200s: %.60s", dir, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < size) {
		snprintf(why, why_len, "not enough space in %.200s: %" PRIu64 " bytes needed, %" PRIu64 " free", dir,
			 size, (uint64_t)vfs.f_bavail * vfs.f_frsize);
		return DOCA_ERROR_FULL;
	}
	return DOCA_SUCCESS;
}

/*
 * Removes "<path>.partial.<pid>" files left by copies whose process is gone (killed with -9:
 * nothing else ever cleans them up). A file whose pid is alive, or not a regular file, stays.
 */
static void remove_stale_partials(const char *path)
{
	char dir[4096], prefix[4200];
	const char *base = strrchr(path, '/');
	size_t plen;
	DIR *d;
	struct dirent *de;

	if (base == NULL) {
		snprintf(dir, sizeof(dir), ".");
		base = path;
	} else {
		snprintf(dir, sizeof(dir), "%.*s", base == path ? 1 : (int)(base - path), path);
		base++;
	}
	plen = (size_t)snprintf(prefix, sizeof(prefix), "%s.partial.", base);
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		const char *p = de->d_name + plen;
		struct stat st;
		long pid = 0;

		if (strncmp(de->d_name, prefix, plen) != 0 || *p == '\0')
			continue;
		for (; *p >= '0' && *p <= '9' && pid < 1L << 30; p++)
			pid = pid * 10 + (*p - '0');
		if (*p != '\0' || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* alive (or not ours to judge) */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			LOG_INFO("removed %s/%s, left by a copy whose process (pid %ld) is gone", dir, de->d_name, pid);
	}
	closedir(d);
}

/*
 * A destination is its temporary file, not mapped: the bytes land in a staging ring of this
 * side's memory that stays in the cache, and are folded into the checksum and written with
 * pwrite() from there, in order (stage_drain). Whole pages written that way need no zeroing
 * and no page fault, unlike stores into a mapping of reserved blocks, which ext4 zero-fills on
 * the fault (bench/file_write_bench, docs/performance.md). Its blocks are reserved first with
 * fallocate() where the file system can (a few ms for 2 GiB on ext4): each pwrite() then finds
 * its blocks and skips the per-block reservation of delayed allocation, about a sixth of its
 * time. A file system that cannot, and tmpfs (where a reservation allocates the memory, 0.14 s
 * for 2 GiB before the first byte could move), get a sparse file of the size instead.
 * check_dest() made sure the space is there; a disk filled meanwhile fails with ENOSPC.
 */
doca_error_t open_dest(struct file_map *fm, const char *path, uint64_t size, bool force, char *why, size_t why_len)
{
	struct statfs fs;
	int err;

	memset(fm, 0, sizeof(*fm));
	fm->is_dest = true;
	fm->force = force;
	snprintf(fm->path, sizeof(fm->path), "%s", path);
	remove_stale_partials(path);
	snprintf(fm->tmp, sizeof(fm->tmp), "%s.partial.%d", path, (int)getpid());
	fm->fd = open(fm->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fm->fd < 0) {
		snprintf(why, why_len, "cannot create %.200s: %.60s", fm->tmp, strerror(errno));
		fm->tmp[0] = '\0';
		return DOCA_ERROR_IO_FAILED;
	}
	fm->size = size;
	if (size == 0)
		return DOCA_SUCCESS;
	if (fstatfs(fm->fd, &fs) == 0 && fs.f_type == TMPFS_MAGIC)
		err = EOPNOTSUPP; /* reserving there allocates the memory itself, serially before the copy */
	else
		err = fallocate(fm->fd, 0, 0, (off_t)size) == 0 ? 0 : errno;
	if (err == EOPNOTSUPP || err == ENOSYS || err == EINVAL) /* nothing is reserved ahead there */
		err = ftruncate(fm->fd, (off_t)size) == 0 ? 0 : errno;
	if (err == 0)
		return DOCA_SUCCESS;
	snprintf(why, why_len, "cannot reserve %" PRIu64 " bytes for %.180s: %.60s", size, fm->tmp, strerror(err));
	return err == ENOSPC || err == EFBIG || err == EDQUOT ? DOCA_ERROR_FULL : DOCA_ERROR_IO_FAILED;
}

/* A destination that cannot be put in place: says why (logged and kept for the other side). */
__attribute__((format(printf, 3, 4))) static doca_error_t dest_refused(struct file_map *fm, doca_error_t err,
								       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fm->why, sizeof(fm->why), fmt, ap);
	va_end(ap);
	LOG_ERR("%s", fm->why);
	return err;
}

/*
 * Moves the verified temporary file to its final name. Without --force nothing that appeared
 * there during the copy is replaced (RENAME_NOREPLACE); with it, only a regular file is.
 */
static doca_error_t place_dest(struct file_map *fm)
{
	struct stat st;

	if (!fm->force) {
		if (renameat2(AT_FDCWD, fm->tmp, AT_FDCWD, fm->path, RENAME_NOREPLACE) == 0)
			goto placed;
		if (errno == EEXIST)
			return dest_refused(fm, DOCA_ERROR_ALREADY_EXIST,
					    "%.200s appeared during the copy; not replaced (pass --force to replace a "
					    "regular file)",
					    fm->path);
		if (errno != EINVAL && errno != ENOSYS)
			return dest_refused(fm, DOCA_ERROR_IO_FAILED, "cannot rename %.100s to %.100s: %s", fm->tmp,
					    fm->path, strerror(errno));
		/* A file system without RENAME_NOREPLACE: a link() fails if the name exists. */
		if (link(fm->tmp, fm->path) != 0)
			return dest_refused(fm, errno == EEXIST ? DOCA_ERROR_ALREADY_EXIST : DOCA_ERROR_IO_FAILED,
					    "cannot move %.100s to %.100s: %s", fm->tmp, fm->path, strerror(errno));
		unlink(fm->tmp);
		goto placed;
	}
	if (lstat(fm->path, &st) == 0 && !S_ISREG(st.st_mode))
		return dest_refused(fm, DOCA_ERROR_ALREADY_EXIST,
				    "%.200s is not a regular file; it is never replaced, not even with --force",
				    fm->path);
	if (rename(fm->tmp, fm->path) != 0)
		return dest_refused(fm, DOCA_ERROR_IO_FAILED, "cannot rename %.100s to %.100s: %s", fm->tmp, fm->path,
				    strerror(errno));
placed:
	fm->tmp[0] = '\0';
	return DOCA_SUCCESS;
}

/*
 * Verified destination: move it into place. Like cp, the data is left to the page cache (no
 * msync, no fsync): the copy is complete and verified, durability is the file system's.
 */
doca_error_t commit_dest(struct file_map *fm)
{
	return place_dest(fm);
}

/* Closes the file; an unverified destination is removed, never left looking complete. */
void close_file(struct file_map *fm)
{
	if (fm->fd > 0)
		close(fm->fd);
	fm->fd = -1;
	if (fm->is_dest && fm->tmp[0] != '\0')
		unlink(fm->tmp);
	fm->tmp[0] = '\0';
}

/*
 * Reads @len bytes of the source at @off into @buf; false when the file ended early (it shrank)
 * or could not be read, both reported by shrink_status(). Bytes not in the page cache yet (the
 * read would wait for the disk: preadv2(RWF_NOWAIT) says so) are read only after what this side
 * holds back has gone to the other side, which then moves the bytes it was not told of yet while
 * this side waits (flush_before_block()).
 */
bool read_full(struct app *app, uint8_t *buf, uint64_t len, uint64_t off)
{
	bool flushed = false;

	while (len > 0) {
		ssize_t n;

		if (!flushed && !app->no_nowait) {
			struct iovec iov = {.iov_base = buf, .iov_len = len};

			n = preadv2(app->fm.fd, &iov, 1, (off_t)off, RWF_NOWAIT);
			if (n < 0 && (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS))
				app->no_nowait = true; /* this file system (or kernel) cannot say */
			if (n < 0 && errno != EINTR) {
				flush_before_block(app);
				flushed = true;
				continue;
			}
		} else {
			n = pread(app->fm.fd, buf, len, (off_t)off);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				app->read_errno = errno;
			app->file_shrank = true;
			return false;
		}
		buf += n, len -= (uint64_t)n, off += (uint64_t)n;
	}
	return true;
}

/*
 * Whether this side's file shrank during the copy (a read into the staging ring met its end, or
 * its size says so): logs one line and fills @why for the other side the first time.
 */
doca_error_t shrink_status(struct app *app, char *why, size_t len)
{
	struct stat st;
	long long now = fstat(app->fm.fd, &st) == 0 ? (long long)st.st_size : -1;

	if (!app->file_shrank && (now < 0 || (uint64_t)now >= app->size))
		return DOCA_SUCCESS;
	if (app->read_errno != 0) {
		if (!app->shrink_logged)
			LOG_ERR("cannot read %s at byte %" PRIu64 ": %s", app->fm.path, app->sum_pos,
				strerror(app->read_errno));
		app->shrink_logged = true;
		snprintf(why, len, "cannot read %.200s on the %s side: %.60s", app->fm.path, ROLE_DPU ? "DPU" : "host",
			 strerror(app->read_errno));
		return DOCA_ERROR_IO_FAILED;
	}
	if (!app->shrink_logged)
		LOG_ERR("%s shrank during the copy (%lld bytes now, %" PRIu64
			" at the start): another program truncated it; copy it again once nothing writes it",
			app->fm.path, now, app->size);
	app->file_shrank = app->shrink_logged = true;
	snprintf(why, len, "%.200s on the %s side shrank during the copy (another program truncated it)", app->fm.path,
		 ROLE_DPU ? "DPU" : "host");
	return DOCA_ERROR_IO_FAILED;
}

/* Writes @len bytes at @off, however many calls it takes; false with errno set on failure. */
bool write_full(int fd, const uint8_t *p, uint64_t len, uint64_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return false;
		}
		p += n, len -= (uint64_t)n, off += (uint64_t)n;
	}
	return true;
}
