// SPDX-License-Identifier: GPL-2.0
/*
 * The directories the views write their files into (--out, --plot,
 * --folded, --lkp-root): made as mkdir -p does, then opened and checked
 * to be ours; the files written whole into them; and the one file a
 * view puts in place whole (--html FILE).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

int rd_out_file_open(struct rd_out_file *f, const char *path, FILE *diag)
{
	const char *slash = strrchr(path, '/');
	char why[128], dir[4096], hex[17];
	int fd;

	f->path = path;
	f->name = slash ? slash + 1 : path;
	f->dirfd = -1;
	if (!*f->name || !strcmp(f->name, ".") || !strcmp(f->name, "..")) {
		rd_report_diag(diag, "%s: names a directory, not a file", path);
		return -1;
	}
	if (snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		     slash ? (slash == path ? "/" : path) : ".") >=
	    (int)sizeof(dir)) {
		rd_report_diag(diag, "%s: path too long", path);
		return -1;
	}
	fd = wis_open_owned(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY, 0, 0, why,
			    sizeof(why));
	if (fd < 0) {
		rd_report_diag(diag, "cannot open %s: %s", dir, why);
		return -1;
	}
	if (wis_dir_owned_sticky(fd, why, sizeof(why))) {
		rd_report_diag(diag, "refusing to write into %s: %s", dir, why);
		close(fd);
		return -1;
	}
	f->dirfd = fd;
	if (wis_entry_owned(fd, f->name, why, sizeof(why)) < 0) {
		rd_report_diag(diag, "refusing to replace %s: %s", path, why);
		goto fail;
	}
	/* A name nobody can guess: nobody can put a link there first. */
	if (wis_random_hex(hex, 8)) {
		rd_report_diag(diag, "%s: no random bytes for a temporary's name: %s",
			       path, strerror(errno));
		goto fail;
	}
	snprintf(f->tmp, sizeof(f->tmp), ".wis.%s.tmp", hex);
	fd = openat(f->dirfd, f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd >= 0)
		return fd;
	rd_report_diag(diag, "cannot write %s/%s: %s", dir, f->tmp,
		       strerror(errno));
fail:
	close(f->dirfd);
	f->dirfd = -1;
	return -1;
}

int rd_out_file_put(struct rd_out_file *f, int whole, FILE *diag)
{
	char why[128];
	int ret = -1, there;

	if (whole) {
		/* Checked again: what was missing may have been made since. */
		there = wis_entry_owned(f->dirfd, f->name, why, sizeof(why));
		if (there < 0)
			rd_report_diag(diag, "refusing to replace %s: %s",
				       f->path, why);
		else if (renameat2(f->dirfd, f->tmp, f->dirfd, f->name,
				   there ? RENAME_NOREPLACE : 0))
			rd_report_diag(diag, "cannot rename %s to %s: %s",
				       f->tmp, f->path, strerror(errno));
		else
			ret = 0;
	}
	if (ret)
		unlinkat(f->dirfd, f->tmp, 0);
	close(f->dirfd);
	f->dirfd = -1;
	return ret;
}

int rd_write_file(int dirfd, const char *shown, const char *name,
		  void (*put)(FILE *f, const void *arg), const void *arg,
		  FILE *diag)
{
	char why[128];
	int fd = wis_open_owned(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC,
				0644, 0, why, sizeof(why));
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f) {
		rd_report_diag(diag, "cannot write %s/%s: %s", shown, name,
			       fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	put(f, arg);
	if (fclose(f)) {
		rd_report_diag(diag, "cannot write %s/%s: %s", shown, name,
			       strerror(errno));
		return -1;
	}
	return 0;
}
