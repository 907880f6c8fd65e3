// SPDX-License-Identifier: GPL-2.0
/*
 * The store's files, opened as root opens anything a user names.  Its
 * directory is opened by wis_open_owned() and checked on the descriptor;
 * SQLite is handed the store as /proc/self/fd/DIRFD/NAME, so the
 * directory checked is the one every later name resolves in, and every
 * file SQLite opens there (the store, its journal, WAL and shared
 * memory) goes through open_in_store(): the rule of wis_open_owned()
 * under that descriptor (no link, no FIFO, socket or device, O_NONBLOCK
 * then fstat) and, unless the user trusts a shared store, nobody but
 * this user or root owning or able to write it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "file.h"

/* SQLite's own VFS, with the names it is handed kept as they are. */
#define STORE_VFS "wis-store"

static const char proc_fd[] = "/proc/self/fd/";

/* What SQLite may open beside the store: itself, its journal, WAL, shm. */
static const char *const store_suffixes[] = { "", "-journal", "-wal", "-shm" };

static const char trust_hint[] =
	"; refused (--trust-shared-store takes it anyway)";

/* The stores open in this process, found by their directory's fd. */
static struct wis_store *open_stores;

/* The store whose directory path names; *rest is what follows it. */
static struct wis_store *store_of(const char *path, const char **rest)
{
	const char *digits = path + sizeof(proc_fd) - 1;
	struct wis_store *s;
	char *end;
	long fd;

	if (strncmp(path, proc_fd, sizeof(proc_fd) - 1))
		return NULL;
	fd = strtol(digits, &end, 10);
	if (end == digits || (*end && *end != '/'))
		return NULL;
	for (s = open_stores; s; s = s->next) {
		if (s->dirfd == fd) {
			*rest = *end ? end + 1 : end;
			return s;
		}
	}
	return NULL;
}

static int is_store_file(const struct wis_store *s, const char *name)
{
	size_t n = strlen(s->base);

	if (strncmp(name, s->base, n))
		return 0;
	for (size_t k = 0; k < sizeof(store_suffixes) / sizeof(*store_suffixes); k++)
		if (!strcmp(name + n, store_suffixes[k]))
			return 1;
	return 0;
}

/* -1 with errno err, why said of the file as the user named it. */
static int refuse(struct wis_store *s, const char *name, const char *why,
		  const char *hint, int err)
{
	snprintf(s->refused, sizeof(s->refused), "%s%s: %s%s", s->path,
		 name + strlen(s->base), why, hint);
	errno = err;
	return -1;
}

/*
 * SQLite's open(2) for every file it opens (sqlite3_vfs's
 * xSetSystemCall): a store's own files only, each by the rule above.
 */
static int open_in_store(const char *path, int flags, int mode)
{
	const char *name;
	struct wis_store *s = store_of(path, &name);
	char why[160];
	int fd;

	if (!s) {
		errno = EACCES;
		return -1;
	}
	/* The directory itself, to make a new journal's name durable. */
	if (!*name)
		return openat(s->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!is_store_file(s, name)) {
		snprintf(s->refused, sizeof(s->refused),
			 "%s: not a file of the store", path);
		errno = EACCES;
		return -1;
	}
	fd = wis_open_owned(s->dirfd, name, flags, (mode_t)mode,
			    WIS_OPEN_ANY_OWNER, why, sizeof(why));
	if (fd < 0)
		return refuse(s, name, why, "", errno);
	if (!s->trust_shared && wis_fd_private(fd, why, sizeof(why))) {
		close(fd);
		return refuse(s, name, why, trust_hint, EACCES);
	}
	s->refused[0] = '\0';
	return fd;
}

/*
 * The VFS: the default one with open_in_store() as its open(2), and
 * names taken as given (the default resolves /proc/self/fd/N back to
 * the path it was opened by, which may now name another directory).
 */
static int name_as_given(sqlite3_vfs *vfs, const char *name, int len,
			 char *out)
{
	(void)vfs;
	if (strlen(name) >= (size_t)len)
		return SQLITE_CANTOPEN;
	strcpy(out, name);
	return SQLITE_OK;
}

static int vfs_ready(FILE *diag)
{
	static sqlite3_vfs vfs;
	static int ready;
	sqlite3_vfs *unix_vfs;

	if (ready)
		return 0;
	unix_vfs = sqlite3_vfs_find("unix");
	if (!unix_vfs || unix_vfs->iVersion < 3 || !unix_vfs->xSetSystemCall ||
	    unix_vfs->xSetSystemCall(unix_vfs, "open",
				     (sqlite3_syscall_ptr)open_in_store)) {
		fprintf(diag, "wis: this SQLite lets no open(2) be checked; the store is not opened\n");
		return -1;
	}
	vfs = *unix_vfs;
	vfs.zName = STORE_VFS;
	vfs.pNext = NULL;
	vfs.xFullPathname = name_as_given;
	if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK) {
		fprintf(diag, "wis: SQLite refused the store's VFS\n");
		return -1;
	}
	sqlite3_hard_heap_limit64(STORE_HEAP_MAX);
	ready = 1;
	return 0;
}

/* The directory the store is in, opened by the rule and checked. */
static int open_dir(struct wis_store *s)
{
	const char *slash = strrchr(s->path, '/');
	char dir[PATH_MAX], why[160];
	size_t n;

	s->base = slash ? slash + 1 : s->path;
	if (!*s->base) {
		wis_say_clean(s->diag, "wis: %s: names a directory, not a store",
			      s->path);
		return -1;
	}
	n = !slash ? 0 : slash == s->path ? 1 : (size_t)(slash - s->path);
	if (n >= sizeof(dir)) {
		wis_say_clean(s->diag, "wis: %s: %s", s->path,
			      strerror(ENAMETOOLONG));
		return -1;
	}
	memcpy(dir, n ? s->path : ".", n ? n : 1);
	dir[n ? n : 1] = '\0';
	s->dirfd = wis_open_owned(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY, 0,
				  WIS_OPEN_ANY_OWNER, why, sizeof(why));
	if (s->dirfd < 0) {
		wis_say_clean(s->diag, "wis: %s: its directory %s: %s", s->path,
			      dir, why);
		return -1;
	}
	if (!s->trust_shared && wis_fd_private(s->dirfd, why, sizeof(why))) {
		wis_say_clean(s->diag, "wis: %s: its directory %s: %s%s",
			      s->path, dir, why, trust_hint);
		return -1;
	}
	return 0;
}

int store_file_open(struct wis_store *s, int write)
{
	int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE :
		    SQLITE_OPEN_READONLY;
	char name[sizeof(proc_fd) + 16 + NAME_MAX];

	if (vfs_ready(s->diag) || open_dir(s))
		return -1;
	s->next = open_stores;
	open_stores = s;
	snprintf(name, sizeof(name), "%s%d/%s", proc_fd, s->dirfd, s->base);
	if (sqlite3_open_v2(name, &s->db, flags | SQLITE_OPEN_EXRESCODE,
			    STORE_VFS) != SQLITE_OK) {
		store_error(s, "open");
		return -1;
	}
	return 0;
}

void store_file_close(struct wis_store *s)
{
	struct wis_store **p;

	sqlite3_close(s->db);
	s->db = NULL;
	for (p = &open_stores; *p; p = &(*p)->next) {
		if (*p == s) {
			*p = s->next;
			break;
		}
	}
	if (s->dirfd >= 0)
		close(s->dirfd);
	s->dirfd = -1;
}
