// SPDX-License-Identifier: GPL-2.0
/*
 * no_openat2 [--eperm] CMD [ARG...]: CMD on a kernel that seems to lack
 * openat2(): ENOSYS, as before Linux 5.6, or with --eperm what some
 * seccomp filters answer; so that wis_open_owned()'s walk of
 * O_NOFOLLOW|O_DIRECTORY opens is the one tested.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int eperm = argc > 1 && !strcmp(argv[1], "--eperm");
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
			 SECCOMP_RET_ERRNO | (eperm ? EPERM : ENOSYS)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(code) / sizeof(code[0]),
		.filter = code,
	};

	argv += eperm;
	argc -= eperm;
	if (argc < 2) {
		fprintf(stderr, "usage: no_openat2 [--eperm] CMD [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "no_openat2: seccomp: %s\n", strerror(errno));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no_openat2: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
