// SPDX-License-Identifier: GPL-2.0
/*
 * mapping_probe.so, preloaded into the suite by tests/69-test-rows.t.
 * A process that maps (mmap) or allocates (malloc) a writable region of
 * 64 MiB or more has it measured when it unmaps or frees it: the first
 * time, "BYTES mapped, BYTES resident" (mincore() just before) is
 * appended to the file $MAPPING_PROBE, and the point ends there, its
 * process group killed, so that a run lasts one pass of the test over
 * its mapping, however slow the machine.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BIG (64UL << 20)
#define MAX_PAGES (1UL << 18)	/* 1 GiB of 4 KiB pages */

void *__libc_malloc(size_t size);
void __libc_free(void *p);
size_t malloc_usable_size(void *p);

static void *big;	/* the last big region mapped */

static void measure(void *addr, size_t len)
{
	static unsigned char vec[MAX_PAGES];
	unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
	unsigned long start = (unsigned long)addr & ~(page - 1);
	unsigned long pages = ((unsigned long)addr + len - start + page - 1) /
			      page, resident = 0;
	const char *path = getenv("MAPPING_PROBE");
	char line[128];
	int fd;

	if (pages > MAX_PAGES || mincore((void *)start, pages * page, vec))
		return;
	for (unsigned long i = 0; i < pages; i++)
		resident += vec[i] & 1;
	snprintf(line, sizeof(line), "%zu mapped, %lu resident\n", len,
		 resident * page);
	fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;
	if (fd >= 0) {
		if (write(fd, line, strlen(line)) < 0)
			_exit(1);
		close(fd);
	}
	kill(0, SIGKILL);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);

	if (p != MAP_FAILED && len >= BIG && (prot & PROT_WRITE))
		big = p;
	return p;
}

int munmap(void *addr, size_t len)
{
	if (addr && addr == big)
		measure(addr, len);
	return (int)syscall(SYS_munmap, addr, len);
}

void *malloc(size_t size)
{
	void *p = __libc_malloc(size);

	if (p && size >= BIG)
		big = p;
	return p;
}

void free(void *p)
{
	if (p && p == big)
		measure(p, malloc_usable_size(p));
	__libc_free(p);
}
