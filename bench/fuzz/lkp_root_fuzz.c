// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for LKP result roots as wis import and --lkp-root read
 * them: the input up to its first NUL is a RUN's job.yaml, the rest its
 * stats.json.  Both are written into one RUN of a private tree, which
 * the import's walk reads (job.yaml's keys, the JSON, the records it
 * makes) and the unite of --lkp-root checks (the matrix of the commit's
 * RUNs, nothing written); the JSON is also parsed straight and each of
 * its keys looked up again.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lkp_run.h"
#include "lkp_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define COMMIT "will-it-scale/pp/tbox/rootfs/kconfig/gcc/commit"

static int top = -1, commit = -1;
static char dir[] = "/tmp/wis-lkp-fuzz.XXXXXX";
static FILE *diag;

/* The tree removed when libFuzzer exits, deepest first. */
static void remove_tree(void)
{
	char path[] = COMMIT "/0";
	char *slash;

	unlinkat(top, COMMIT "/0/job.yaml", 0);
	unlinkat(top, COMMIT "/0/stats.json", 0);
	for (;;) {
		unlinkat(top, path, AT_REMOVEDIR);
		slash = strrchr(path, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	rmdir(dir);
}

/* The tree, once: DIR/will-it-scale/... down to RUN 0. */
static int make_tree(void)
{
	char path[] = COMMIT "/0";

	if (!mkdtemp(dir))
		return -1;
	top = open(dir, O_RDONLY | O_DIRECTORY);
	if (top < 0)
		return -1;
	atexit(remove_tree);
	for (char *slash = path; (slash = strchr(slash, '/')); *slash++ = '/') {
		*slash = '\0';
		if (mkdirat(top, path, 0700))
			return -1;
	}
	if (mkdirat(top, path, 0700))
		return -1;
	commit = openat(top, COMMIT, O_RDONLY | O_DIRECTORY);
	diag = fopen("/dev/null", "w");
	return commit < 0 || !diag ? -1 : 0;
}

static int put_file(const char *name, const uint8_t *data, size_t size)
{
	int fd = openat(commit, name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	for (size_t done = 0; done < size; done += (size_t)n) {
		n = write(fd, data + done, size - done);
		if (n <= 0)
			break;
	}
	close(fd);
	return n < 0 ? -1 : 0;
}

/* A RUN's records: every line one JSON object, as the store takes them. */
static int take_run(void *ctx, const char *path, const char *const *axes,
		    const char *records, size_t len)
{
	(void)ctx;
	(void)path;
	(void)axes;
	for (const char *line = records, *end; line < records + len;
	     line = end + 1) {
		end = memchr(line, '\n', (size_t)(records + len - line));
		if (!end || *line != '{' || end[-1] != '}')
			abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t job = nul ? (size_t)(nul - data) : size;
	size_t json = nul ? size - job - 1 : 0;
	struct rd_lkp_obj o;
	char why[256];
	size_t runs;

	if (top < 0 && make_tree())
		abort();
	if (put_file("0/job.yaml", data, job) ||
	    put_file("0/stats.json", nul ? nul + 1 : data + size, json))
		abort();
	rd_lkp_roots_read(top, "fuzz", take_run, NULL, diag, &runs);
	rd_lkp_unite(commit, "fuzz/" COMMIT, NULL, diag);
	if (!rd_lkp_json_parse((const char *)(nul ? nul + 1 : data + size),
			       json, &o, why, sizeof(why))) {
		for (size_t i = 0; i < o.nr; i++)
			if (rd_lkp_obj_get(&o, o.v[i].key) != &o.v[i])
				abort();
		rd_lkp_obj_free(&o);
	}
	return 0;
}
