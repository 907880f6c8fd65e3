// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kallsyms: "ADDRESS TYPE NAME [MODULE]" a line.  Only text
 * symbols (t, T, w, W) can hold a sampled address.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kallsyms.h"

static char *read_all(const char *path, size_t *len)
{
	size_t cap = 1 << 20, used = 0;
	char *buf = malloc(cap), *more;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf)
		goto fail;
	while ((n = read(fd, buf + used, cap - used - 1)) > 0) {
		used += (size_t)n;
		if (cap - used > 1)
			continue;
		more = realloc(buf, cap * 2);
		if (!more)
			goto fail;
		buf = more;
		cap *= 2;
	}
	if (n < 0)
		goto fail;
	close(fd);
	buf[used] = '\0';
	*len = used;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* Names lie in the text in the file's order: at one address, by it. */
static int by_addr(const void *a, const void *b)
{
	const struct wis_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/*
 * Parse one line in place; the name (and a module's bracket) is left in
 * line.  Returns 1 for a text symbol.
 */
static int parse_line(char *line, uint64_t *addr, char *type, char **name)
{
	char *end, *sp;

	*addr = strtoull(line, &end, 16);
	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return 0;
	*type = end[1];
	*name = end + 3;
	sp = strpbrk(*name, " \t");
	if (sp)
		*sp = '\0';
	return strchr("tTwW", *type) && **name;
}

/*
 * Keep one name an address: the last one listed, as perf does.  kallsyms
 * gives no sizes, so perf ends each symbol where the next one starts;
 * every alias but the last is then empty, and perf's first rule among
 * aliases (a symbol with a size before an empty one) picks the last.
 * Its later rules (weak, global, underscores, length) never get a say.
 */
static size_t dedup(struct wis_ksym *s, size_t nr)
{
	size_t out = 0;

	for (size_t i = 0; i < nr; i++) {
		if (out && s[out - 1].addr == s[i].addr)
			out--;
		s[out++] = s[i];
	}
	return out;
}

static int parse_all(struct wis_kallsyms *ks, char *text, size_t len)
{
	/* The shortest line, "ffffffffffffffff t x", and its newline. */
	size_t cap = len / 21 + 16, nonzero = 0;

	ks->syms = malloc(cap * sizeof(*ks->syms));
	if (!ks->syms)
		return -1;
	for (char *line = text, *next; line && *line; line = next) {
		uint64_t addr;
		char type, *name;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!parse_line(line, &addr, &type, &name) || ks->nr == cap)
			continue;
		ks->syms[ks->nr++] = (struct wis_ksym){
			.addr = addr, .name = (uint32_t)(name - text),
		};
		nonzero += addr != 0;
	}
	qsort(ks->syms, ks->nr, sizeof(*ks->syms), by_addr);
	ks->nr = dedup(ks->syms, ks->nr);
	return nonzero ? 0 : 1;
}

int wis_kallsyms_load(struct wis_kallsyms *ks, const char *path,
		      char *why, size_t wlen)
{
	int ret;

	memset(ks, 0, sizeof(*ks));
	ks->names = read_all(path, &ks->names_len);
	if (!ks->names) {
		snprintf(why, wlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = parse_all(ks, ks->names, ks->names_len);
	if (!ret)
		return 0;
	snprintf(why, wlen, ret < 0 ? "%s: out of memory" :
		 "%s: no text symbol with an address (kptr_restrict)", path);
	wis_kallsyms_free(ks);
	return -1;
}

void wis_kallsyms_free(struct wis_kallsyms *ks)
{
	free(ks->syms);
	free(ks->names);
	memset(ks, 0, sizeof(*ks));
}

long wis_kallsyms_find(const struct wis_kallsyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nr;

	/* The first symbol above addr is at hi; its predecessor holds it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

static size_t clone_suffix(const char *s)
{
	static const char *const kinds[] = { ".isra.", ".constprop.",
					     ".part." };

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t n = strlen(kinds[k]), d = 0;

		if (strncmp(s, kinds[k], n))
			continue;
		while (s[n + d] >= '0' && s[n + d] <= '9')
			d++;
		if (d)
			return n + d;
	}
	return 0;
}

void wis_ksym_strip(char *dst, size_t len, const char *name)
{
	size_t used = 0;

	while (*name && used + 1 < len) {
		size_t skip = clone_suffix(name);

		if (skip) {
			name += skip;
			continue;
		}
		dst[used++] = *name++;
	}
	dst[used] = '\0';
}
