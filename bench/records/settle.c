// SPDX-License-Identifier: GPL-2.0
/*
 * Devices a sink waits for.  Two drivers finish after their module is
 * loaded: virtio_console learns its ports and their names from the host
 * in a work queue, and libnvdimm adds regions and namespaces (hence
 * /dev/pmemN) from an async domain of its own that finit_module() does
 * not wait for.  The sweep that wis-init starts waits, not wis-init:
 * the wait then overlaps the suite's exec and start.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "file.h"
#include "settle.h"

#define SETTLE_MAX_MS 1000
#define SETTLE_STEP_MS 2

/* A bound virtio console device that has no named port yet. */
static int console_pending(const char *dev)
{
	char path[PATH_MAX], name[256];
	struct dirent *d;
	int named = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/virtio-ports", dev);
	dir = opendir(path);
	if (!dir)
		return 1;
	while (!named && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/virtio-ports/%s/name", dev,
			 d->d_name);
		named = !wis_read_line(path, name, sizeof(name)) && name[0];
	}
	closedir(dir);
	return !named;
}

static int consoles_pending(void)
{
	const char *driver = "/sys/bus/virtio/drivers/virtio_console";
	char dev[512];
	struct dirent *d;
	int pending = 0;
	DIR *dir = opendir(driver);

	if (!dir)
		return 0;
	while (!pending && (d = readdir(dir))) {
		if (strncmp(d->d_name, "virtio", 6))
			continue;
		snprintf(dev, sizeof(dev), "%s/%s", driver, d->d_name);
		pending = console_pending(dev);
	}
	closedir(dir);
	return pending;
}

static void settle_ports(void)
{
	const struct timespec step = { 0, SETTLE_STEP_MS * 1000000L };

	for (int ms = 0; ms < SETTLE_MAX_MS && consoles_pending();
	     ms += SETTLE_STEP_MS)
		nanosleep(&step, NULL);
}

/* Reading a bus's wait_probe returns once that bus is done probing. */
static void settle_nvdimm(void)
{
	const char *buses = "/sys/bus/nd/devices";
	char path[PATH_MAX], done[16];
	struct dirent *d;
	DIR *dir = opendir(buses);

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "ndbus", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s/wait_probe", buses,
			 d->d_name);
		wis_read_line(path, done, sizeof(done));
	}
	closedir(dir);
}

void wis_settle_devices(void)
{
	settle_nvdimm();
	settle_ports();
}
