// SPDX-License-Identifier: GPL-2.0
/*
 * cancel_probe.so, preloaded into the suite: the first close() of each
 * thread but the process's first prints that thread's cancellation type
 * on stderr ("canceltype async" or "canceltype deferred"), so that a
 * test sees what glibc's cancellation points cost the task threads.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

int close(int fd)
{
	static _Thread_local int told;
	int (*real_close)(int) = (int (*)(int))dlsym(RTLD_NEXT, "close");
	int type;

	if (!told && gettid() != getpid()) {
		told = 1;
		pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &type);
		pthread_setcanceltype(type, NULL);
		dprintf(2, "canceltype %s\n",
			type == PTHREAD_CANCEL_ASYNCHRONOUS ? "async" : "deferred");
	}
	return real_close(fd);
}
