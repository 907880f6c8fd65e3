/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An LKP job or a 0-day report, told apart by content: a report is the
 * e-mail's text (its `test machine:`, `parameters:` or `%stddev` lines),
 * a job is YAML.  A report is read by its labels, not by position, so
 * mail quoting ("> ") and re-wrapped blank lines do not matter: its
 * `parameters:` block (required), the params line under the
 * `compiler/.../testcase:` header (which must agree with it), the
 * commits under the header's `commit:`, the `test machine:` line's CPU
 * count and the `will-it-scale.*` rows of its `%stddev %change %stddev`
 * table.
 */
#ifndef WIS_LKP_REPORT_H
#define WIS_LKP_REPORT_H

#include <stddef.h>

#include "lkp_job.h"

/*
 * Read path, a job or a report, into j.  0, or -1 with the file, line
 * and key in err (the caller exits 2 and writes nothing).
 * lkp_job_free() it either way.
 */
int lkp_load(struct lkp_job *j, const char *path, char *err, size_t errlen);

#endif
