// SPDX-License-Identifier: GPL-2.0
/*
 * swap_link DIR A B: exchange the entries A and B of DIR (a directory and
 * a symbolic link, say) atomically, again and again until killed, so a
 * path walk through DIR/A meets the directory one moment and the link
 * the next.  The race of a cleanup that follows links.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int dir;

	if (argc != 4) {
		fputs("usage: swap_link DIR A B\n", stderr);
		return 2;
	}
	dir = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (dir < 0) {
		perror(argv[1]);
		return 1;
	}
	for (;;) {
		if (renameat2(dir, argv[2], dir, argv[3], RENAME_EXCHANGE)) {
			perror("renameat2");
			return 1;
		}
	}
}
