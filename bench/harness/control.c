// SPDX-License-Identifier: GPL-2.0
/* The control area of a point, and what its processes do with it. */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "control.h"

struct control *wis_ctl;
char *wis_slots;

void wis_set_failure(int kind, const char *fmt, va_list ap)
{
	int expected = 0;

	if (!wis_ctl)
		return;
	if (atomic_compare_exchange_strong(&wis_ctl->msg_taken, &expected, 1))
		vsnprintf(wis_ctl->message, sizeof(wis_ctl->message), fmt, ap);
	expected = 0;
	atomic_compare_exchange_strong(&wis_ctl->failed, &expected, kind);
}

long wis_futex(atomic_int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}
void wis_pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

void wis_die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}
