// SPDX-License-Identifier: GPL-2.0
/*
 * The barrier's region (barrier_region.h): the file, device-dax device or
 * ivshmem BAR that wis.barrier names, checked, opened and mapped shared.
 * What the instances write in it is barrier.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "barrier_region.h"
#include "file.h"

int wis_barrier_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int map_fd(struct wis_barrier_map *m, const char *spec, int fd,
		  uint64_t offset, char *err, size_t len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = offset - offset % page;

	m->len = (size_t)(offset - start) + WIS_BARRIER_REGION_SIZE;
	m->map = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)start);
	if (m->map == MAP_FAILED) {
		m->map = NULL;
		return wis_barrier_fail(err, len, "wis.barrier: mmap %s: %s",
					spec, strerror(errno));
	}
	m->region = (char *)m->map + (offset - start);
	return 0;
}

/*
 * A file that is empty, or of the region's size starting with wis's magic
 * or still zero (an instance has just sized it), is a barrier file;
 * anything else is somebody's file given by mistake.
 */
static int file_is_region(const struct wis_barrier_map *m,
			  const struct stat *st)
{
	uint64_t magic;

	if (!st->st_size)
		return 1;
	if (st->st_size != WIS_BARRIER_REGION_SIZE)
		return 0;
	memcpy(&magic, m->region, sizeof(magic));
	return magic == WIS_BARRIER_MAGIC || !magic;
}

/*
 * A regular file, created and sized on first use.  Shared between kernels
 * only on a filesystem whose mappings are the storage itself (DAXFS).
 */
static int open_file(struct wis_barrier_map *m, const char *spec,
		     const char *path, char *err, size_t len)
{
	struct stat st;
	char why[128];
	int fd, ret;

	fd = wis_open_owned(AT_FDCWD, path, O_RDWR | O_CREAT, 0644, 0, why,
			    sizeof(why));
	if (fd < 0)
		return wis_barrier_fail(err, len, "wis.barrier: %s: %s", path,
					why);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return wis_barrier_fail(err, len, "wis.barrier: %s: not a "
					"regular file (pmem:DEV for a device)",
					path);
	}
	if (st.st_size > WIS_BARRIER_REGION_SIZE) {
		close(fd);
		return wis_barrier_fail(err, len,
					"wis.barrier: %s: %lld bytes, not a barrier file: left untouched",
					path, (long long)st.st_size);
	}
	ret = map_fd(m, spec, fd, 0, err, len);
	if (!ret && !file_is_region(m, &st))
		ret = wis_barrier_fail(err, len,
				       "wis.barrier: %s: not a barrier file (no wis magic): left untouched",
				       path);
	if (!ret && !st.st_size && ftruncate(fd, WIS_BARRIER_REGION_SIZE))
		ret = wis_barrier_fail(err, len,
				       "wis.barrier: %s: cannot size it: %s",
				       path, strerror(errno));
	close(fd);
	return ret;
}

/*
 * A character device mapped as memory (device-dax).  A block device is
 * refused: its mapping is this kernel's page cache, which no other kernel
 * sees.
 */
static int open_device(struct wis_barrier_map *m, const char *spec,
		       const char *arg, char *err, size_t len)
{
	char dev[256], why[128];
	const char *colon = strrchr(arg, ':');
	unsigned long long offset = 0;
	struct stat st;
	int fd, ret;

	snprintf(dev, sizeof(dev), "%s", arg);
	if (colon && colon[1] && strspn(colon + 1, "0123456789") ==
	    strlen(colon + 1)) {
		dev[colon - arg] = '\0';
		offset = strtoull(colon + 1, NULL, 10);
	}
	if (offset % WIS_BARRIER_SLOT_SIZE)
		return wis_barrier_fail(err, len, "wis.barrier: %s: offset "
					"%llu is not a multiple of %d", arg,
					offset, WIS_BARRIER_SLOT_SIZE);
	/* A block device is opened only to be refused with the reason. */
	fd = wis_open_owned(AT_FDCWD, dev, O_RDWR, 0,
			    WIS_OPEN_CHR | WIS_OPEN_BLK, why, sizeof(why));
	if (fd < 0)
		return wis_barrier_fail(err, len, "wis.barrier: %s: %s", dev,
					why);
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode) || !wis_is_dax(&st)) {
		close(fd);
		return wis_barrier_fail(err, len, "wis.barrier: %s: want a "
					"device-dax character device (a block "
					"device's mapping is page cache, "
					"private to this kernel; /dev/zero and "
					"the like share nothing)", dev);
	}
	ret = map_fd(m, spec, fd, offset, err, len);
	close(fd);
	return ret;
}

static int is_ivshmem(const char *dir)
{
	char path[512], id[32];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor", dir);
	if (wis_read_line(path, id, sizeof(id)) || strcmp(id, "0x1af4"))
		return 0;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device", dir);
	return !wis_read_line(path, id, sizeof(id)) && !strcmp(id, "0x1110");
}

/* The ivshmem device with the lowest PCI address. */
static int find_ivshmem(char *addr, size_t len)
{
	struct dirent *d;
	DIR *dir = opendir("/sys/bus/pci/devices");

	addr[0] = '\0';
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !is_ivshmem(d->d_name))
			continue;
		if (!addr[0] || strcmp(d->d_name, addr) < 0)
			snprintf(addr, len, "%s", d->d_name);
	}
	closedir(dir);
	return addr[0] ? 0 : -1;
}

/*
 * QEMU's ivshmem-plain: BAR 2 is the host's shared memory backend, mapped
 * through sysfs, so no driver is needed in the guest.
 */
static int open_ivshmem(struct wis_barrier_map *m, const char *spec,
			const char *arg, char *err, size_t len)
{
	char addr[256], path[512];
	int fd, ret;

	if (*arg && (strchr(arg, '/') || !is_ivshmem(arg)))
		return wis_barrier_fail(err, len, "wis.barrier: %.64s: not an "
					"ivshmem PCI device (1af4:1110)", arg);
	if (*arg)
		snprintf(addr, sizeof(addr), "%s", arg);
	else if (find_ivshmem(addr, sizeof(addr)))
		return wis_barrier_fail(err, len, "wis.barrier: no ivshmem PCI "
					"device (1af4:1110)");
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource2", addr);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return wis_barrier_fail(err, len, "wis.barrier: %s: %s", path,
					strerror(errno));
	ret = map_fd(m, spec, fd, 0, err, len);
	close(fd);
	return ret;
}

int wis_barrier_map(struct wis_barrier_map *m, const char *s, char *err,
		    size_t len)
{
	m->map = NULL;
	if (!strncmp(s, "file:", 5) && s[5])
		return open_file(m, s, s + 5, err, len);
	if (s[0] == '/')
		return open_file(m, s, s, err, len);
	if (!strncmp(s, "pmem:", 5) && s[5])
		return open_device(m, s, s + 5, err, len);
	if (!strcmp(s, "ivshmem"))
		return open_ivshmem(m, s, "", err, len);
	if (!strncmp(s, "ivshmem:", 8) && s[8])
		return open_ivshmem(m, s, s + 8, err, len);
	return wis_barrier_fail(err, len, "wis.barrier: bad value '%s': want "
				"file:PATH, /PATH, pmem:DEV[:OFFSET] or "
				"ivshmem[:PCI-ADDRESS]", s);
}

void wis_barrier_unmap(struct wis_barrier_map *m)
{
	if (m->map)
		munmap(m->map, m->len);
	m->map = NULL;
}
