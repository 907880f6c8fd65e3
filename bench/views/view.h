/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outputs of wis report, each from the model (model.h), one file per
 * family: text (view_text.c, with analysis.c), CSV and runtest.py's CSV
 * (view_csv.c), JSON lines (view_json.c), LKP's keys (view_lkp.c),
 * KernelCI's KCIDB (view_kcidb.c), plots (view_plot*.c, on plot.c),
 * comparisons (view_compare.c, view_repeats.c) and profiles
 * (view_profile.c).
 */
#ifndef WIS_VIEW_H
#define WIS_VIEW_H

#include <stdio.h>

#include "json.h"
#include "model.h"
#include "symbols.h"
#include "view_opts.h"

void rd_view_text(FILE *out, const struct rd_model *m);
void rd_view_csv(FILE *out, const struct rd_model *m);
/* 1 when a trimmed record could not be read again (said on diag). */
int rd_view_json(FILE *out, const struct rd_model *m);
/* A KCIDB I/O v5 document; a test's testcase: line is its comment. */
void rd_view_kcidb(FILE *out, const struct rd_model *m, const char *origin);

/*
 * Whose runtest.py: upstream's runs both modes, so a mode the sweep did
 * not run is missing there (-1); LKP's patched one runs the job's mode
 * only and writes 0 (idle 0.00) for the other.
 */
enum rd_runtest { RD_RUNTEST_UPSTREAM, RD_RUNTEST_LKP };

/*
 * runtest.py's CSV of the test whose points are [from, to) of run:
 * tasks,processes,processes_idle,threads,threads_idle,linear, its leading
 * 0 row, -1 for a failed or missing point.
 */
void rd_view_runtest(FILE *out, const struct rd_run *run, size_t from,
		     size_t to, enum rd_runtest whose);

/*
 * A CSV field, its controls and bidi marks '?' (put_clean()), quoted
 * when it needs to be, a formula made text; nothing for NULL.
 */
void rd_csv_str(FILE *out, const char *s);
/* ",V" with %.15g, or "," alone for a value that is not finite. */
void rd_csv_num(FILE *out, double v);

/* A comparison's JSON line begun: j set up with its test, mode, tasks. */
void rd_json_row(struct wis_json *j, const char *test, int threads,
		 unsigned long tasks);
/* The line of j to out (none when it ran out of memory), j freed. */
void rd_json_row_end(FILE *out, struct wis_json *j);

/*
 * What the curve of one test and mode says: efficiency is the rate over
 * tasks times the 1-task rate; the knee is the first task count past
 * which more tasks add less than a tenth of linear; a wall is a fall of
 * the rate as tasks are added.  Lines "analysis: ..." to out.
 */
void rd_analysis_curves(FILE *out, const struct rd_run *run);

/* A knee or a wall of a curve: the step from before to at. */
struct rd_curve_mark {
	int wall;
	const struct rd_point *before, *at;
	/* knee: the gain per task added, a share of linear; wall: the fall */
	double size;
	int growth;	/* the symbol that grows is named here */
};

typedef void rd_curve_fn(void *ctx, const struct rd_curve_mark *mark);

/*
 * The knee and the walls of the ok points of pts[from, to) in one mode,
 * in task order, each handed to fn: what rd_analysis_curves() says.
 */
void rd_curve_walk(const struct rd_point *pts, size_t from, size_t to,
		   int threads, rd_curve_fn *fn, void *ctx);

/*
 * What grew from a to b (both profiled): " SYM A% -> B% of kernel
 * samples, from CALLERS;", or nothing.
 */
void rd_put_growth(FILE *out, const struct rd_point *a, const struct rd_point *b);

/*
 * The ok points with a sample in which a task ran below 1/10 of the
 * mean task (docs/fidelity.md, "Every task runs every sample").
 */
void rd_analysis_uneven(FILE *out, const struct rd_run *run);

/*
 * The environment facts that change readings, as "warning: ..." lines,
 * for the tests of run (their rows in m).
 */
void rd_analysis_environment(FILE *out, const struct rd_model *m,
			     const struct rd_run *run);

/*
 * Between two runs compared: a warning where architecture, CPU model,
 * kernel, mitigations or libc differ, then one line naming every
 * audited field that differs, or that none does.
 */
void rd_analysis_differences(FILE *out, const struct rd_run *a,
			  const struct rd_run *b);

/* The kernel command-line settings of a run that did not take. */
void rd_analysis_settings(FILE *out, const struct rd_run *run);

/*
 * Into the directory dirfd (dir names it in messages): per test of every
 * run NAME.svg and NAME.png drawn by gnuplot, NAME being the test (or
 * "RUN TEST") through wis_safe_name(), and index.html showing them with
 * each run's environment audit.  Returns 0, or -1 with the reason on
 * diag (gnuplot missing, a file that cannot be written, two tests that
 * would share a file name).
 */
int rd_view_plot(const struct rd_model *m, int dirfd, const char *dir,
		 FILE *diag);

struct rd_cmp_table;

/* The same for a comparison: per test both sides and B/A. */
int rd_view_plot_compare(const struct rd_cmp_table *t, int dirfd,
			 const char *dir, FILE *diag);

struct rd_rep_table;

/*
 * --html o->html: one page that holds its data, the charting library and
 * its own script and style (o->page), loads nothing and opens from
 * file://: the runs of m, or the comparison t, or the repeats
 * comparison t.  0, or -1 with the reason on diag.
 */
int rd_view_html_report(const struct rd_model *m,
			const struct wis_report_opts *o, FILE *diag);
int rd_view_html_compare(const struct rd_cmp_table *t,
			 const struct wis_report_opts *o, FILE *diag);
int rd_view_html_repeats(const struct rd_rep_table *t,
			 const struct wis_report_opts *o, FILE *diag);

/*
 * The same for a repeats comparison: per test each side's median rate
 * against tasks, with min-max bars over its repeats.
 */
int rd_view_plot_repeats(const struct rd_rep_table *t, int dirfd,
			 const char *dir, FILE *diag);

/* " SYM A% -> B%, ..." (wis compare's symbols: lines). */
void rd_put_symbol_changes(FILE *out, const struct rd_point *a,
			   const struct rd_point *b);

struct rd_history;

/*
 * wis history's views, one file each: the text (view_history_text.c):
 * from names what the runs were read from; all prints every table, not
 * only those of the series that moved; 0, or -1 out of memory.
 */
int rd_view_history_text(FILE *out, const struct rd_history *h,
			 const char *from, int all);
/*
 * How h's steps are found, with its rule's figures: a sentence, brk
 * between its lines ("\n  " in the text, " " on a page).
 */
void rd_put_step_method(FILE *out, const struct rd_history *h,
			const char *brk);
/* A row per run and shown series (view_history_csv.c). */
void rd_view_history_csv(FILE *out, const struct rd_history *h);
/* A line per step, then per drift (view_history_json.c). */
void rd_view_history_json(FILE *out, const struct rd_history *h);


/*
 * The same for a history (series.h), into the directory dir, made when
 * missing: per test the rate of each mode and task count along the
 * runs, labelled with their ordering values, its steps and drifts drawn;
 * the tests that moved first, and index.html listing the changes.
 */
int rd_view_plot_history(const struct rd_history *h, const char *dir,
			 FILE *diag);

struct rd_history;

/*
 * --html path for wis history of the store db (NULL: of files): the
 * changes in the order they are told (rd_history_changes), each test
 * that moved along the runs with its levels and changes, a change's two
 * levels compared, the tests that did not move folded.  0, or -1 with the
 * reason on diag.
 */
int rd_view_html_history(const struct rd_history *h, const char *db,
			 const struct rd_page_assets *a, const char *path,
			 FILE *diag);

/*
 * The directory path for a command's files, made when missing, opened
 * and checked to be ours (nobody else may swap its entries): its
 * descriptor, or -1 named on diag (out_dir.c).
 */
int rd_out_dir(const char *path, FILE *diag);
/*
 * The directory name under dirfd (shown as shown), opened and checked
 * the same way: every file is then made through the descriptor, so
 * swapping a path component afterwards redirects nothing.
 */
int rd_open_out_dir(int dirfd, const char *name, const char *shown,
		    FILE *diag);
/* The same, name made first when missing. */
int rd_out_subdir(int dirfd, const char *name, const char *shown, FILE *diag);

/*
 * One file a view writes whole and then puts at path (--html FILE): its
 * directory opened by the path rule and owned by this user or root (one
 * that others can write only when sticky, as /tmp); what is at path
 * must be nothing or this user's (or root's) regular file of one link,
 * never a link, a FIFO or somebody else's file.  The file is written as
 * a temporary of a name nobody can guess beside it, and renamed to path
 * once whole, so a page that could not be written leaves path as it
 * was.
 */
struct rd_out_file {
	int dirfd;
	const char *path, *name;	/* name: path's last component */
	char tmp[32];
};

/* The temporary's descriptor, or -1 said on diag. */
int rd_out_file_open(struct rd_out_file *f, const char *path, FILE *diag);
/*
 * The temporary, closed by the caller, renamed to path when whole, else
 * removed; 0, or -1 said on diag (the temporary removed).
 */
int rd_out_file_put(struct rd_out_file *f, int whole, FILE *diag);

/*
 * wis runs' table (view_runs.c): a line per run (id, date, kernel,
 * points, labels) under the machine it ran on, in the model's order.
 * 0, or -1 out of memory.
 */
int rd_view_runs(FILE *out, const struct rd_model *m);

/*
 * The file name under dirfd, made ours and truncated, written whole by
 * put(f, arg): 0, or -1 with "cannot write SHOWN/NAME: why" on diag.
 */
int rd_write_file(int dirfd, const char *shown, const char *name,
		  void (*put)(FILE *f, const void *arg), const void *arg,
		  FILE *diag);

/* Per profiled point, its top kernel symbols and counters per op. */
void rd_view_profiles(FILE *out, const struct rd_run *run);

/*
 * Into dir: per profiled point RUN-TEST-MODE-TASKS.folded, its recorded
 * chains as folded stacks ("root;...;leaf COUNT").  0, or -1 on diag.
 */
int rd_view_folded(const struct rd_model *m, int dirfd, const char *dir,
		FILE *diag);

/* Efficiency of a point: NaN when there is no 1-task rate. */
double rd_point_efficiency(const struct rd_point *p);

#endif
