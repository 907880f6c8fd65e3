// SPDX-License-Identifier: GPL-2.0
/*
 * The environment audit of the run record: everything the fairness
 * checklist of "The Fastest Lock Is One You Don't Share: Linux's Scaling
 * Wall" (docs/reproducing.md [A]) compares between two configurations.
 */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "audit.h"
#include "clock.h"
#include "file.h"
#include "hypervisor.h"
#include "midr.h"
#include "schema.h"
#include "topology.h"

/* First line of a file, without its newline; def if unreadable. */
#define THP_PATH "/sys/kernel/mm/transparent_hugepage/enabled"
#define NUMA_BALANCING_PATH "/proc/sys/kernel/numa_balancing"
#define CLOCKSOURCE_PATH \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

static const char *read_line(const char *path, char *buf, size_t len,
			     const char *def)
{
	if (wis_read_line(path, buf, len))
		snprintf(buf, len, "%s", def);
	return buf;
}

static void json_file(struct wis_json *j, const char *key, const char *path,
		      const char *def)
{
	char buf[4096];

	wis_json_str(j, key, read_line(path, buf, sizeof(buf), def));
}

/* A "Key: value" line of a /proc file such as meminfo or cpuinfo. */
static int proc_field(const char *path, const char *key, char *buf, size_t len)
{
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, klen) || !strchr(line, ':'))
			continue;
		v = strchr(line, ':') + 1;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = 0;
		snprintf(buf, len, "%s", v);
		fclose(f);
		return 0;
	}
	fclose(f);
	return -1;
}

static unsigned long mem_total_kb(void)
{
	char buf[64];

	return proc_field("/proc/meminfo", "MemTotal", buf, sizeof(buf)) ? 0 :
	       strtoul(buf, NULL, 10);
}

static int count_cpulist(const char *path)
{
	struct wis_cpuset set;
	char buf[1024], err[128];

	read_line(path, buf, sizeof(buf), "");
	if (!*buf || wis_cpulist_parse(&set, buf, err, sizeof(err)))
		return 0;
	return wis_cpuset_count(&set);
}

/*
 * mm_compute_batch(): max(totalram / present CPUs / 4, 2 * CPUs, 32)
 * pages, or / 256 under overcommit policy 2 (never).
 */
long wis_committed_as_batch(void)
{
	char buf[32];
	long cpus = count_cpulist("/sys/devices/system/cpu/present");
	long pages = mem_total_kb() / (sysconf(_SC_PAGESIZE) / 1024);
	long batch, floor;

	if (cpus <= 0 || pages <= 0)
		return -1;
	read_line("/proc/sys/vm/overcommit_memory", buf, sizeof(buf), "0");
	batch = pages / cpus / (atoi(buf) == 2 ? 256 : 4);
	floor = cpus * 2 > 32 ? cpus * 2 : 32;
	return batch > floor ? batch : floor;
}

static void audit_kernel(struct wis_json *j)
{
	char date[32];
	time_t now = time(NULL);
	struct utsname u;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	wis_json_str(j, WIS_FIELD(date), date);
	if (!uname(&u)) {
		wis_json_str(j, WIS_FIELD(kernel), u.release);
		wis_json_str(j, WIS_FIELD(kernel_version), u.version);
		wis_json_str(j, WIS_FIELD(machine), u.machine);
		wis_json_str(j, WIS_FIELD(hostname), u.nodename);
	}
	json_file(j, WIS_FIELD(cmdline), "/proc/cmdline", "");
}

/*
 * The C library that runs the suite: malloc1/2, the pthread_mutex and
 * posix_semaphore tests and signal1 measure its code.  The link is
 * dynamic, so that is the libc.so.6 loaded, not the headers' version.
 */
static void audit_libc(struct wis_json *j)
{
#ifdef __GLIBC__
	char buf[32];

	snprintf(buf, sizeof(buf), "glibc %s", gnu_get_libc_version());
	wis_json_str(j, WIS_FIELD(libc), buf);
#else
	wis_json_str(j, WIS_FIELD(libc), "unknown");
#endif
}

/*
 * MIDR_EL1 of the first CPU used: the sweep's CPUs may not all be alike
 * (big.LITTLE), and the first is where a single task runs.  0 if the
 * kernel does not show it (before Linux 4.11) or this is no arm64.
 */
static uint64_t first_midr(const struct wis_cpuset *mask)
{
	char path[128], buf[64], *end;
	int cpu = 0;
	uint64_t midr;

	while (cpu < WIS_MAX_CPUS - 1 && !wis_cpuset_test(mask, cpu))
		cpu++;
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		 cpu);
	if (wis_read_line(path, buf, sizeof(buf)))
		return 0;
	midr = strtoull(buf, &end, 16);
	return end == buf ? 0 : midr;
}

/*
 * The CPU's name: x86's "model name"; arm64 has none, so its MIDR_EL1
 * is named from a table and kept as read.
 */
static void audit_cpu_model(struct wis_json *j, const struct wis_cpuset *mask)
{
	char buf[256];
	uint64_t midr;

	if (!proc_field("/proc/cpuinfo", "model name", buf, sizeof(buf))) {
		wis_json_str(j, WIS_FIELD(cpu_model), buf);
		return;
	}
	midr = first_midr(mask);
	if (midr) {
		wis_midr_name(midr, buf, sizeof(buf));
		wis_json_str(j, WIS_FIELD(cpu_model), buf);
		snprintf(buf, sizeof(buf), "0x%08llx", (unsigned long long)midr);
		wis_json_str(j, WIS_FIELD(cpu_midr), buf);
		return;
	}
	if (proc_field("/proc/cpuinfo", "CPU part", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "unknown");
	wis_json_str(j, WIS_FIELD(cpu_model), buf);
}

static void audit_cpus(struct wis_json *j, const struct wis_cpuset *mask)
{
	struct wis_topology *t = malloc(sizeof(*t));
	char buf[1024];

	audit_cpu_model(j, mask);
	wis_json_u64(j, WIS_FIELD(page_size), sysconf(_SC_PAGESIZE));
	json_file(j, WIS_FIELD(cpus_online), "/sys/devices/system/cpu/online", "unknown");
	wis_cpulist_format(mask, buf, sizeof(buf));
	wis_json_str(j, WIS_FIELD(cpus_used), buf);
	if (!t || wis_topology_read(t, mask)) {
		free(t);
		return;
	}
	wis_json_u64(j, WIS_FIELD(packages), t->nr_packages);
	wis_json_u64(j, WIS_FIELD(numa_nodes), t->nr_nodes);
	wis_json_u64(j, WIS_FIELD(cores), t->nr_cores);
	wis_json_u64(j, WIS_FIELD(threads_per_core), (t->nr + t->nr_cores - 1) / t->nr_cores);
	free(t);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* What a hypervisor calls itself, and the name the record gives it. */
static const struct {
	const char *said, *name;
} hypervisors[] = {
	/* x86's CPUID signatures */
	{ "KVMKVMKVM", "kvm" }, { "TCGTCGTCGTCG", "tcg" },
	{ "Microsoft Hv", "hyperv" }, { "VMwareVMware", "vmware" },
	{ "XenVMMXenVMM", "xen" }, { "ACRNACRNACRN", "acrn" },
	{ "bhyve bhyve ", "bhyve" }, { "VBoxVBoxVBox", "virtualbox" },
	/* firmware vendors (DMI) that only a virtual machine has */
	{ "QEMU", "qemu" }, { "innotek GmbH", "virtualbox" },
	{ "VMware, Inc.", "vmware" },
	/* the device tree of QEMU's virt machine, booted without firmware */
	{ "linux,dummy-virt", "qemu" },
};

/* The record's name of what said; NULL when it is none of the table's. */
static const char *hypervisor_named(const char *said)
{
	for (size_t i = 0; i < sizeof(hypervisors) / sizeof(hypervisors[0]); i++)
		if (!strcmp(said, hypervisors[i].said))
			return hypervisors[i].name;
	return NULL;
}

/*
 * Whom the kernel runs under, so that a history never mixes a guest's
 * runs with bare metal's: the CPUID signature (an unknown one as it
 * reads), Xen's /sys/hypervisor/type, a virtual firmware's vendor, QEMU
 * virt's device tree; "none" when nothing says so.  A guest whose CPU
 * hides the hypervisor bit (qemu/run's TCG guests) is still known by its
 * firmware or device tree.
 */
static void audit_hypervisor(struct wis_json *j)
{
	static const char *const where[] = {
		"/sys/class/dmi/id/sys_vendor",
		"/sys/firmware/devicetree/base/compatible",
	};
	char buf[256];
	const char *name;

	if (wis_cpuid_hypervisor(buf) && *buf) {
		name = hypervisor_named(buf);
		for (char *p = buf; !name && *p; p++)
			if (*p < ' ' || *p > '~')
				*p = '?';
		wis_json_str(j, WIS_FIELD(hypervisor), name ? name : buf);
		return;
	}
	if (!wis_read_line("/sys/hypervisor/type", buf, sizeof(buf)) && *buf) {
		wis_json_str(j, WIS_FIELD(hypervisor), buf);
		return;
	}
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		if (!wis_read_line(where[i], buf, sizeof(buf)) &&
		    (name = hypervisor_named(buf))) {
			wis_json_str(j, WIS_FIELD(hypervisor), name);
			return;
		}
	}
	wis_json_str(j, WIS_FIELD(hypervisor), "none");
}

/* "node0 cpus 0-1 mem 12582912 kB; node1 ..." for every node. */
static void audit_nodes(struct wis_json *j)
{
	char buf[4096] = "", path[128], cpus[1024], mem[64];
	int ids[WIS_MAX_CPUS], n = wis_node_ids(ids, WIS_MAX_CPUS);
	size_t used = 0;

	qsort(ids, n, sizeof(ids[0]), cmp_int);
	for (int i = 0; i < n && used < sizeof(buf); i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist",
			 ids[i]);
		read_line(path, cpus, sizeof(cpus), "");
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo",
			 ids[i]);
		if (proc_field(path, "Node", mem, sizeof(mem)))
			snprintf(mem, sizeof(mem), "?");
		used += snprintf(buf + used, sizeof(buf) - used,
				 "%snode%d cpus %s mem %s", used ? "; " : "", ids[i],
				 cpus, mem);
	}
	wis_json_str(j, WIS_FIELD(nodes), used ? buf : "no NUMA information");
	wis_json_u64(j, WIS_FIELD(mem_total_kb), mem_total_kb());
}

/* "name: status; ..." of every CPU vulnerability the kernel reports. */
static void mitigations(char *buf, size_t len)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	char path[512], val[256];
	struct dirent **names;
	size_t used = 0;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && used < len) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			read_line(path, val, sizeof(val), "?");
			used += snprintf(buf + used, len - used, "%s%s: %s",
					 used ? "; " : "", names[i]->d_name, val);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	if (!used)
		snprintf(buf, len, "unknown");
}

static void audit_mitigations(struct wis_json *j)
{
	char buf[4096];

	mitigations(buf, sizeof(buf));
	wis_json_str(j, WIS_FIELD(mitigations), buf);
}

/* The selected value of a "[x] y z" sysfs choice. */
static void choice(const char *path, char *buf, size_t len)
{
	char *open, *close;

	read_line(path, buf, len, "unknown");
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = 0;
		memmove(buf, open + 1, (size_t)(close - open));
	}
}

static void json_choice(struct wis_json *j, const char *key, const char *path)
{
	char buf[256];

	choice(path, buf, sizeof(buf));
	wis_json_str(j, key, buf);
}

static const char *fs_name(long type)
{
	switch ((unsigned long)type) {
	case 0x01021994: return "tmpfs";
	case 0xEF53: return "ext4";
	case 0x58465342: return "xfs";
	case 0x9123683E: return "btrfs";
	case 0x794c7630: return "overlayfs";
	case 0x858458f6: return "ramfs";
	default: return NULL;
	}
}

static void tmp_fs(char *buf, size_t len)
{
	struct statfs st;
	const char *name;

	if (statfs("/tmp", &st)) {
		snprintf(buf, len, "missing");
		return;
	}
	name = fs_name(st.f_type);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "0x%lx", (unsigned long)st.f_type);
}

static void audit_tmp(struct wis_json *j)
{
	char buf[32];

	tmp_fs(buf, sizeof(buf));
	wis_json_str(j, WIS_FIELD(tmp_fs), buf);
}

void wis_audit_env(struct wis_env *e)
{
	char buf[8];
	long batch = wis_committed_as_batch();
	unsigned long mem = mem_total_kb();

	read_line("/sys/kernel/security/lsm", e->lsm, sizeof(e->lsm), "");
	read_line("/sys/module/apparmor/parameters/enabled", buf, sizeof(buf),
		  "N");
	e->apparmor = !strcmp(buf, "Y");
	e->batch_pages = batch > 0 ? batch : NAN;
	e->page_size = sysconf(_SC_PAGESIZE);
	e->mem_total_kb = mem ? mem : NAN;
	tmp_fs(e->tmp_fs, sizeof(e->tmp_fs));
	read_line("/proc/cmdline", e->cmdline, sizeof(e->cmdline), "");
	if (proc_field("/proc/cpuinfo", "model name", e->cpu_model,
		       sizeof(e->cpu_model)))
		e->cpu_model[0] = '\0';
	choice(THP_PATH, e->thp, sizeof(e->thp));
	read_line(NUMA_BALANCING_PATH, e->numa_balancing,
		  sizeof(e->numa_balancing), "none");
	mitigations(e->mitigations, sizeof(e->mitigations));
	read_line(CLOCKSOURCE_PATH, e->clocksource, sizeof(e->clocksource),
		  "unknown");
}

/*
 * Boot phases: wis-init's ("init=S mounts=S modules=S", uptimes in
 * seconds, from wis sweep --boot), then our own start.
 */
static void audit_boot(struct wis_json *j, const char *boot, double sweep)
{
	char key[80], word[64];

	for (const char *p = boot; p && *p; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");
		char *eq;

		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		p += n;
		eq = strchr(word, '=');
		if (!eq)
			continue;
		*eq = 0;
		/* wis-init's phase P is the run record's field boot_P. */
		snprintf(key, sizeof(key), "boot_%s", word);
		if (wis_field_find(key) >= 0)
			wis_json_f64(j, key, strtod(eq + 1, NULL));
	}
	wis_json_f64(j, WIS_FIELD(boot_sweep), sweep);
}

const char *wis_audit_microcode(char *buf, size_t len)
{
	if (wis_read_line("/sys/devices/system/cpu/cpu0/microcode/version",
			  buf, len) &&
	    proc_field("/proc/cpuinfo", "microcode", buf, len))
		snprintf(buf, len, "none");
	return buf;
}

void wis_audit_json(struct wis_json *j, const struct wis_cpuset *mask)
{
	char buf[64];

	audit_kernel(j);
	audit_libc(j);
	audit_cpus(j, mask);
	audit_nodes(j);
	audit_hypervisor(j);
	json_file(j, WIS_FIELD(lsm), "/sys/kernel/security/lsm", "unknown");
	json_file(j, WIS_FIELD(apparmor), "/sys/module/apparmor/parameters/enabled", "N");
	audit_mitigations(j);
	json_file(j, WIS_FIELD(cpufreq_driver),
		  "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "none");
	json_file(j, WIS_FIELD(cpufreq_governor),
		  "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "none");
	wis_json_str(j, WIS_FIELD(microcode), wis_audit_microcode(buf,
								 sizeof(buf)));
	json_file(j, WIS_FIELD(clocksource), CLOCKSOURCE_PATH, "unknown");
	json_choice(j, WIS_FIELD(thp), THP_PATH);
	json_file(j, WIS_FIELD(numa_balancing), NUMA_BALANCING_PATH, "none");
	json_file(j, WIS_FIELD(overcommit), "/proc/sys/vm/overcommit_memory", "unknown");
	wis_json_i64(j, WIS_FIELD(committed_as_batch_pages), wis_committed_as_batch());
}

void wis_audit_start_json(struct wis_json *j, const char *boot,
			  double boot_sweep)
{
	audit_tmp(j);
	audit_boot(j, boot, boot_sweep);
}
