/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep description: wis.* keys from the kernel command line or from
 * `wis sweep KEY=VALUE ...`, one grammar for both, and for the preset
 * files in etc/wis/presets/ (one KEY=VALUE a line, '#' comment lines).
 *
 * Words are kernel style: separated by blanks, double quotes group blanks
 * into a value and are removed.  Preset values are defaults: a key given
 * explicitly wins over the preset whatever the order of the words.  A key
 * given twice at the same level is an error.  With neither wis.tests nor
 * wis.preset, the smoke preset is used.
 *
 * What each key is, its checks and default, is its row of the key table
 * (keys.h); this parser reads the words that set keys.
 */
#ifndef WIS_CMDLINE_H
#define WIS_CMDLINE_H

#include <stddef.h>

#include "keys.h"

/*
 * Where wis.preset files are read from; dir is kept, not copied.
 * Default: the running binary's ../etc/wis/presets.
 */
void wis_cfg_presets(const char *dir);

/*
 * Apply one explicit "wis.KEY=VALUE" word.  Words without the "wis."
 * prefix are ignored only when from_kernel is set (they belong to the
 * kernel).  Returns 0, or -1 with a message naming the key and value in
 * err.  Call wis_cfg_finish() after the last word.
 */
int wis_cfg_word(struct wis_sweep_cfg *c, const char *word, int from_kernel,
		 char *err, size_t errlen);

/* Load the smoke preset if no tests were chosen, fill in wis.id. */
int wis_cfg_finish(struct wis_sweep_cfg *c, char *err, size_t errlen);

/*
 * Whole command lines: defaults, every word, finish.  A bad word does not
 * stop the parse: every good word is applied, err gets the first error and
 * the result is -1.  Callers that must go on (wis-init) still find the
 * good keys (wis.out, wis.done, ...) in c and the bad ones in bad_keys.
 */
int wis_cfg_cmdline(struct wis_sweep_cfg *c, const char *line,
		    char *err, size_t errlen);
int wis_cfg_argv(struct wis_sweep_cfg *c, int argc, char *const argv[],
		 char *err, size_t errlen);

/*
 * Set key to value whatever set it before, as an explicit word would
 * (wis sweep --out).  Returns 0, or -1 with "KEY: bad value ..." in err.
 */
int wis_cfg_replace(struct wis_sweep_cfg *c, const char *key,
		    const char *value, char *err, size_t errlen);

/* Read a kernel command line (/proc/cmdline) without its newline. */
int wis_cmdline_read(const char *path, char *buf, size_t len,
		     char *err, size_t errlen);

/*
 * Copy the next word of *line into word, quotes removed, and advance
 * *line.  Returns 1, or 0 at the end.  *bad is set when the word did not
 * fit or its quote was not closed.
 */
int wis_cmdline_next(const char **line, char *word, size_t len, int *bad);

#endif
