// SPDX-License-Identifier: GPL-2.0
/*
 * Environment warnings (env_warn.h): the seed articles' fairness
 * checklist, each item with its remedy.
 */
#include <math.h>
#include <string.h>

#include "env_warn.h"
#include "safename.h"

/* Bytes of the largest mapping the memory tests make (128 MiB). */
#define MAPPING_BYTES (128.0 * 1024 * 1024)

static const struct {
	const char *name;
	enum wis_maps maps;
} mapping_tests[] = {
	{ "mmap1", WIS_MAPS_UNTOUCHED }, { "mmap2", WIS_MAPS_UNTOUCHED },
	{ "malloc1", WIS_MAPS_UNTOUCHED }, { "page_fault1", WIS_MAPS_TOUCHED },
	{ "page_fault2", WIS_MAPS_TOUCHED }, { "page_fault3", WIS_MAPS_TOUCHED },
	{ "tlb_flush1", WIS_MAPS_TOUCHED }, { "tlb_flush3", WIS_MAPS_TOUCHED },
};

enum wis_maps wis_mapping_test(const char *name)
{
	for (size_t i = 0; i < sizeof(mapping_tests) / sizeof(*mapping_tests);
	     i++)
		if (!strcmp(name, mapping_tests[i].name))
			return mapping_tests[i].maps;
	return WIS_MAPS_NONE;
}

/* An unknown family might be a file test: warn rather than stay quiet. */
void wis_env_tests_add(struct wis_env_tests *t, const char *name,
		       const char *family)
{
	if (!family || !strcmp(family, "file"))
		t->file = 1;
	if (wis_mapping_test(name) != WIS_MAPS_NONE)
		t->mapping = 1;
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

static int lsm_warn(FILE *out, const struct wis_env *e)
{
	if (!lsm_slows_files(e))
		return 0;
	fputs("warning: LSMs active (", out);
	puts_clean(out, *e->lsm ? e->lsm : "apparmor");
	fputs("): file tests such as open1 and open2 run up to 2x slower; "
	      "boot with lsm=capability,yama on the kernel command line to "
	      "measure without them\n", out);
	return 1;
}

/*
 * The batch is totalram / CPUs / 4 pages: scaling the memory by
 * 32768 / batch brings it to one 128 MiB mapping.  Rounded up to 64 MB
 * with 10 % for what the kernel keeps out of MemTotal.
 */
static int batch_warn(FILE *out, const struct wis_env *e)
{
	double page = isfinite(e->page_size) && e->page_size > 0 ?
		      e->page_size : 4096;
	double mapping = MAPPING_BYTES / page, need_mb;

	if (!isfinite(e->batch_pages) || e->batch_pages <= 0 ||
	    e->batch_pages >= mapping)
		return 0;
	fprintf(out, "warning: vm_committed_as batch is %.0f pages, below the "
		"%.0f pages of a 128 MB mapping: mmap1, malloc1, page_fault* "
		"and tlb_flush* serialise on its global lock", e->batch_pages,
		mapping);
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

int wis_env_warn(FILE *out, const struct wis_env *e,
		 const struct wis_env_tests *t)
{
	int n = 0;

	if (t->file)
		n += lsm_warn(out, e) + tmp_warn(out, e);
	if (t->mapping)
		n += batch_warn(out, e);
	return n;
}
