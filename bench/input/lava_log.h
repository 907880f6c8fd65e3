/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LAVA job logs, as the dispatcher writes them (output.yaml, what
 * `lavacli jobs logs` downloads): one YAML flow mapping a line, such as
 * {"dt": "...", "lvl": "target", "msg": "..."}, the console line in msg
 * as a double-quoted YAML string.
 */
#ifndef WIS_LAVA_LOG_H
#define WIS_LAVA_LOG_H

#include <stddef.h>

/*
 * The console text of a "target" line of a LAVA log, unescaped into out
 * (cap bytes); returns its length, or -1 when line is not such a line or
 * the text does not fit.
 */
long wis_lava_target_text(const char *line, size_t len, char *out,
			  size_t cap);

/*
 * Dispatchers up to 2023.01 also wrote every '"' of the console as \"
 * before the YAML escapes: undo that in text[0..len).  Returns the new
 * length.
 */
size_t wis_lava_unquote(char *text, size_t len);

#endif
