// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the PID 1 that kerf puts in a spawn kernel's rootfs, for
 * the boot test of wis-init's kerf path.  As kerf's init: mount proc,
 * sysfs, devtmpfs and devpts and nothing else, run the entrypoint as a
 * child (not PID 1, kerf.entrypoint= on the command line) in a session of
 * its own on the console tty with an empty environment, reap everything,
 * and never power off.  The root is not tmpfs: booted with kerf's
 * rootfstype=daxfs, the kernel unpacks the initramfs into ramfs.  What
 * the entrypoint left in /results is copied to the console, because the
 * host cannot read that directory as it reads kerf's DAXFS.
 *
 * Console lines: "kerf-stand-in: root MAGIC" (statfs of /),
 * "kerf-stand-in: exit STATUS" for the entrypoint, "kerf-stand-in: file
 * NAME" before a file's text, "kerf-stand-in: end".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define ENTRYPOINT "/sbin/wis-init"
#define RESULTS "/results"
#define TAG "kerf-stand-in: "

static void mount_fs(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		dprintf(2, TAG "mount %s on %s: %s\n", type, dir,
			strerror(errno));
}

/* The kernel found no /dev/console in the initramfs: open it now. */
static void open_console(void)
{
	int fd = open("/dev/console", O_RDWR);

	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	if (fd > 2)
		close(fd);
}

/* Session leader, the console its controlling tty, no environment. */
static pid_t start_entrypoint(void)
{
	char *argv[] = { ENTRYPOINT, NULL };
	char *envp[] = { NULL };
	pid_t pid = fork();

	if (pid)
		return pid;
	setsid();
	if (ioctl(STDIN_FILENO, TIOCSCTTY, 0))
		dprintf(2, TAG "console as controlling tty: %s\n",
			strerror(errno));
	execve(ENTRYPOINT, argv, envp);
	dprintf(2, TAG "exec " ENTRYPOINT ": %s\n", strerror(errno));
	_exit(127);
}

/*
 * Reaps orphans too, as a PID 1 must; returns the entrypoint's status,
 * or -1 once there is no child left to wait for.
 */
static int wait_entrypoint(pid_t entry)
{
	int status;
	pid_t pid;

	for (;;) {
		pid = wait(&status);
		if (pid == entry)
			return status;
		if (pid < 0 && errno != EINTR)
			return -1;
	}
}

static void copy_file(int dirfd, const char *name)
{
	char buf[4096];
	ssize_t n, last = 0;
	int fd = openat(dirfd, name, O_RDONLY);

	if (fd < 0)
		return;
	printf(TAG "file %s\n", name);
	fflush(stdout);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, (size_t)n, stdout);
		last = n;
	}
	if (last && buf[last - 1] != '\n')
		putchar('\n');
	close(fd);
}

static void copy_results(void)
{
	DIR *dir = opendir(RESULTS);
	struct dirent *e;
	struct stat st;

	if (!dir) {
		printf(TAG "%s: %s\n", RESULTS, strerror(errno));
		return;
	}
	while ((e = readdir(dir))) {
		if (!fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			copy_file(dirfd(dir), e->d_name);
	}
	closedir(dir);
}

static int exit_code(int status)
{
	if (status < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
	struct statfs root;
	pid_t entry;
	int status;

	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	mount_fs("devtmpfs", "/dev");
	mount_fs("devpts", "/dev/pts");
	open_console();
	if (!statfs("/", &root))
		printf(TAG "root 0x%lx\n", (unsigned long)root.f_type);
	fflush(stdout);
	entry = start_entrypoint();
	status = entry < 0 ? -1 : wait_entrypoint(entry);
	printf(TAG "exit %d\n", exit_code(status));
	copy_results();
	printf(TAG "end\n");
	fflush(stdout);
	/* kerf's init stays: the host decides when the spawn ends. */
	for (;;)
		if (wait(NULL) < 0)
			pause();
}
