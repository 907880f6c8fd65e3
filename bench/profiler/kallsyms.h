/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel text symbols from /proc/kallsyms, modules' included, sorted by
 * address: an address belongs to the closest symbol at or below it, and
 * of several names at one address to the one perf shows.
 */
#ifndef WIS_KALLSYMS_H
#define WIS_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

struct wis_ksym {
	uint64_t addr;
	uint32_t name;		/* offset in names */
};

struct wis_kallsyms {
	struct wis_ksym *syms;
	size_t nr;
	char *names;
	size_t names_len;
};

/*
 * Load the text symbols of a kallsyms file.  Returns 0, or -1 with the
 * reason in why (the file cannot be read, or every address is 0 because
 * kptr_restrict hides them).
 */
int wis_kallsyms_load(struct wis_kallsyms *ks, const char *path,
		      char *why, size_t wlen);
void wis_kallsyms_free(struct wis_kallsyms *ks);

/* Index of the symbol holding addr, or -1 below the first one. */
long wis_kallsyms_find(const struct wis_kallsyms *ks, uint64_t addr);

static inline const char *wis_kallsyms_name(const struct wis_kallsyms *ks,
					    long i)
{
	return i < 0 ? "[unknown]" : ks->names + ks->syms[i].name;
}

/*
 * Copy name without the compiler's clone suffixes (.isra.N,
 * .constprop.N, .part.N, in any chain), as LKP's profiles name symbols.
 */
void wis_ksym_strip(char *dst, size_t len, const char *name);

#endif
