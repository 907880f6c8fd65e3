// SPDX-License-Identifier: GPL-2.0
/*
 * Environment warnings (env_warn.h): the fairness checklist of "The
 * Fastest Lock Is One You Don't Share: Linux's Scaling Wall"
 * (docs/reproducing.md [A]), each item with its remedy.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "env_warn.h"
#include "safename.h"

/* Bytes of the largest mapping the memory tests make. */
#define MAPPING_BYTES (WIS_MAPPING_MB * 1024.0 * 1024)

/* name into list (", " between), once; "..." ends a list out of room. */
static void name_add(char *list, size_t size, const char *name)
{
	size_t len = strlen(list), n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ','))
			return;
	if (len >= 3 && !strcmp(list + len - 3, "..."))
		return;
	if (len + n + sizeof(", ...") > size) {
		snprintf(list + len, size - len, "%s...", len ? ", " : "");
		return;
	}
	snprintf(list + len, size - len, "%s%s", len ? ", " : "", name);
}

/* An unknown family might be a file test: warn rather than stay quiet. */
void wis_env_tests_add(struct wis_env_tests *t, const char *name,
		       const char *family, enum wis_maps maps)
{
	if (!family || !strcmp(family, "file"))
		name_add(t->file, sizeof(t->file), name);
	if (maps != WIS_MAPS_NONE)
		name_add(t->mapping, sizeof(t->mapping), name);
}

/* Only the LSMs that sit on the file paths the tests measure. */
static int lsm_slows_files(const struct wis_env *e)
{
	static const char *const heavy[] = {
		"apparmor", "selinux", "smack", "tomoyo",
	};

	if (e->apparmor)
		return 1;
	for (size_t i = 0; i < sizeof(heavy) / sizeof(*heavy); i++)
		if (strstr(e->lsm, heavy[i]))
			return 1;
	return 0;
}

static int lsm_warn(FILE *out, const struct wis_env *e, const char *tests)
{
	if (!lsm_slows_files(e))
		return 0;
	fputs("warning: LSMs active (", out);
	puts_clean(out, *e->lsm ? e->lsm : "apparmor");
	fputs("): the file tests (", out);
	puts_clean(out, tests);
	fputs(") run up to 2x slower; boot with lsm=capability,yama on the "
	      "kernel command line to measure without them\n", out);
	return 1;
}

/*
 * The batch is totalram / CPUs / 4 pages: scaling the memory by
 * 32768 / batch brings it to one 128 MiB mapping.  Rounded up to 64 MB
 * with 10 % for what the kernel keeps out of MemTotal.
 */
static int batch_warn(FILE *out, const struct wis_env *e, const char *tests)
{
	double page = isfinite(e->page_size) && e->page_size > 0 ?
		      e->page_size : 4096;
	double mapping = MAPPING_BYTES / page, need_mb;

	if (!isfinite(e->batch_pages) || e->batch_pages <= 0 ||
	    e->batch_pages >= mapping)
		return 0;
	fprintf(out, "warning: vm_committed_as batch is %.0f pages, below the "
		"%.0f pages of a 128 MB mapping: ", e->batch_pages, mapping);
	puts_clean(out, tests);
	fputs(" serialise on its global lock", out);
	/* docs/qemu.md: a TCG guest is not enlarged for a performance rule. */
	if (strstr(e->cpu_model, "QEMU TCG")) {
		fputs("; under TCG the figures are functional only, so "
		      "qemu/run does not size the guest for it\n", out);
		return 1;
	}
	if (isfinite(e->mem_total_kb) && e->mem_total_kb > 0) {
		need_mb = e->mem_total_kb / 1024 * mapping /
			  e->batch_pages * 1.1;
		fprintf(out, "; give the machine %.0f MB or more (qemu/run "
			"--mem %.0f)", ceil(need_mb / 64) * 64,
			ceil(need_mb / 64) * 64);
	}
	fputc('\n', out);
	return 1;
}

static int tmp_warn(FILE *out, const struct wis_env *e)
{
	if (!*e->tmp_fs || !strcmp(e->tmp_fs, "tmpfs"))
		return 0;
	fputs("warning: /tmp is ", out);
	puts_clean(out, e->tmp_fs);
	fputs(", not tmpfs: file tests measure that filesystem; run with "
	      "--tmpfs (wis.tmpfs=private) for a private tmpfs on /tmp\n", out);
	return 1;
}

/*
 * A kernel command-line setting, the audited fact that shows whether it
 * took, and why it may not have.  NULL from took(): it took, or the
 * fact is unknown.
 */
struct setting {
	const char *param;
	const char *fact;
	const char *(*read)(const struct wis_env *e);
	const char *(*why)(const char *asked, const struct wis_env *e);
};

static const char *read_thp(const struct wis_env *e)
{
	return e->thp;
}

/* mm/huge_memory.c clears every THP flag below 512 MB of RAM. */
static const char *why_thp(const char *asked, const struct wis_env *e)
{
	if (!strcmp(asked, e->thp))
		return NULL;
	if (isfinite(e->mem_total_kb) && e->mem_total_kb < 512 * 1024)
		return "the kernel turns THP off below 512 MB; give --mem 512 "
		       "or more";
	return "the kernel did not take it (see its boot messages)";
}

static const char *read_numa_balancing(const struct wis_env *e)
{
	return e->numa_balancing;
}

static const char *why_numa_balancing(const char *asked,
				      const struct wis_env *e)
{
	int want = !strcmp(asked, "enable");

	if (!want && strcmp(asked, "disable"))
		return NULL;
	if (!strcmp(e->numa_balancing, "none"))
		return "this kernel has no NUMA balancing "
		       "(CONFIG_NUMA_BALANCING)";
	if ((strcmp(e->numa_balancing, "0") != 0) == want)
		return NULL;
	return "the kernel did not take it (see its boot messages)";
}

static const char *read_mitigations(const struct wis_env *e)
{
	if (!*e->mitigations || !strcmp(e->mitigations, "unknown"))
		return "";
	return strstr(e->mitigations, "Mitigation") ? "some mitigations on" :
	       "no mitigation on";
}

static const char *why_mitigations(const char *asked, const struct wis_env *e)
{
	if (strcmp(asked, "off") || !strstr(e->mitigations, "Mitigation"))
		return NULL;
	return "this kernel ignores mitigations= (built without "
	       "CONFIG_CPU_MITIGATIONS) or a CPU-specific parameter turned "
	       "one back on";
}

static const char *read_clocksource(const struct wis_env *e)
{
	return e->clocksource;
}

static const char *why_clocksource(const char *asked, const struct wis_env *e)
{
	if (!strcmp(asked, e->clocksource))
		return NULL;
	return "the kernel found that clock unusable here (see its boot "
	       "messages for \"clocksource\")";
}

static const struct setting settings[] = {
	{ "transparent_hugepage", "thp", read_thp, why_thp },
	{ "numa_balancing", "numa_balancing", read_numa_balancing,
	  why_numa_balancing },
	{ "mitigations", "mitigations", read_mitigations, why_mitigations },
	{ "clocksource", "clocksource", read_clocksource, why_clocksource },
};

/* The value of the last param=VALUE word of cmdline (the kernel's rule). */
static int cmdline_value(const char *cmdline, const char *param, char *buf,
			 size_t len)
{
	size_t plen = strlen(param);
	int found = 0;

	for (const char *p = cmdline; *p; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");

		if (n > plen && !strncmp(p, param, plen) && p[plen] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - plen - 1),
				 p + plen + 1);
			found = 1;
		}
		p += n;
	}
	return found;
}

int wis_env_settings_warn(FILE *out, const struct wis_env *e)
{
	char asked[256];
	const char *why;
	int n = 0;

	for (size_t i = 0; i < sizeof(settings) / sizeof(*settings); i++) {
		const struct setting *s = &settings[i];

		if (!cmdline_value(e->cmdline, s->param, asked, sizeof(asked)) ||
		    !*s->read(e) || !(why = s->why(asked, e)))
			continue;
		fprintf(out, "warning: %s: ", s->fact);
		puts_clean(out, s->read(e));
		fprintf(out, " although %s=", s->param);
		puts_clean(out, asked);
		fprintf(out, " was asked: %s\n", why);
		n++;
	}
	return n;
}

int wis_env_warn(FILE *out, const struct wis_env *e,
		 const struct wis_env_tests *t)
{
	int n = wis_env_settings_warn(out, e);

	if (*t->file)
		n += lsm_warn(out, e, t->file) + tmp_warn(out, e);
	if (*t->mapping)
		n += batch_warn(out, e, t->mapping);
	return n;
}
