// SPDX-License-Identifier: GPL-2.0
/*
 * The directories the views write their files into (--out, --plot,
 * --folded): made as mkdir -p does, then opened and checked to be ours.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "view.h"

/* Each missing directory of path, as mkdir -p makes them. */
static int make_dirs(const char *path, FILE *diag)
{
	char buf[4096];
	size_t i, n = strlen(path);
	struct stat st;

	if (n >= sizeof(buf)) {
		rd_report_diag(diag, "%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i])
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST) {
			rd_report_diag(diag, "cannot create %s: %s", buf,
				    strerror(errno));
			return -1;
		}
		/* No directory is made through a link; the open refuses one. */
		if (!lstat(buf, &st) && S_ISLNK(st.st_mode))
			return 0;
		buf[i] = path[i];
	}
	return 0;
}

int rd_open_out_dir(int dirfd, const char *name, const char *shown,
		    FILE *diag)
{
	char why[128];
	int fd = wis_open_owned(dirfd, name, O_RDONLY | O_DIRECTORY, 0, 0,
				why, sizeof(why));

	if (fd < 0) {
		rd_report_diag(diag, "cannot open %s: %s", shown, why);
		return -1;
	}
	if (wis_dir_owned(fd, why, sizeof(why))) {
		rd_report_diag(diag, "refusing to write into %s: %s", shown, why);
		close(fd);
		return -1;
	}
	return fd;
}

int rd_out_subdir(int dirfd, const char *name, const char *shown, FILE *diag)
{
	if (mkdirat(dirfd, name, 0777) && errno != EEXIST) {
		rd_report_diag(diag, "cannot create %s: %s", shown,
			    strerror(errno));
		return -1;
	}
	return rd_open_out_dir(dirfd, name, shown, diag);
}

int rd_out_dir(const char *path, FILE *diag)
{
	return make_dirs(path, diag) ? -1 :
	       rd_open_out_dir(AT_FDCWD, path, path, diag);
}
