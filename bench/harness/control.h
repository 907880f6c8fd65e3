/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The area a point process shares with its tasks: the start barrier,
 * the first failure and its message, and one counter slot per task.
 * The test API (testlib.c) and the point process (point.c) both use it.
 */
#ifndef WIS_CONTROL_H
#define WIS_CONTROL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "wis_limits.h"

#define SLOT_SIZE 256
#define THREAD_STACK (1024 * 1024)
/* Set-up time allowed to all tasks together before the point fails. */
#define SETUP_TIMEOUT_S 30

/* Shared by the point process and its tasks; each counter in its own slot. */
struct control {
	atomic_int ready;
	atomic_int go;
	atomic_int failed;	/* 1: error, 2: unsupported */
	atomic_int msg_taken;
	char message[WIS_MSG_MAX];
} __attribute__((aligned(SLOT_SIZE)));

/*
 * A task's slot: its counter, and the partner process it started
 * (wis_spawn_partner), whose CPU time the sampler counts as the point's.
 */
struct task_slot {
	uint64_t iterations;	/* only the task writes it */
	pid_t partner;		/* 0: none, or a thread of the point process */
};

/* Set in the point process before any task starts; NULL outside one. */
extern struct control *wis_ctl;
extern char *wis_slots;

static inline struct task_slot *wis_task_slot(unsigned long task)
{
	return (struct task_slot *)(wis_slots + task * SLOT_SIZE);
}

/* The point's failure (kind 1 error, 2 unsupported); the first one wins. */
void wis_set_failure(int kind, const char *fmt, va_list ap);

long wis_futex(atomic_int *uaddr, int op, int val);
void wis_pin_self(int cpu);
/* A child that must not outlive the process that forked it. */
void wis_die_with_parent(pid_t parent);

#endif
