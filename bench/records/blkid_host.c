// SPDX-License-Identifier: GPL-2.0
/*
 * The host's wis only (it links Debian's libblkid): every signature of a
 * filesystem, partition table or volume that libblkid knows, wherever
 * each keeps it, looked for in a region before the pmem sink writes to
 * it.  wis-init and the image's wis link no libblkid and look for the
 * signatures of sink.c's own table.
 */
#include <blkid/blkid.h>
#include <stdio.h>

#include "sink.h"

int wis_blkid_signature(int fd, char *name, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	const char *type;
	int rc, found = 0;

	if (!pr)
		return -1;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_free_probe(pr);
		return -1;
	}
	/* As wipefs looks: a signature whose checksum fails is still one. */
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	while (!found && !(rc = blkid_do_probe(pr))) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL) ||
		    !blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
			snprintf(name, len, "%s", type);
			found = 1;
		}
	}
	blkid_free_probe(pr);
	return found ? 1 : rc < 0 ? -1 : 0;
}
