/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a view is asked for: the output's format and files, how sides
 * are summed, the tests' facts, the store to select from.  The model
 * reads it (a comparison sums by it); the views draw by it.
 */
#ifndef WIS_VIEW_OPTS_H
#define WIS_VIEW_OPTS_H

#include <stddef.h>

#include "input.h"

/*
 * --db: the runs that words[0..n) select in the store at db, read into
 * in as one input called name; 0, or -1 said on in->diag.  The host's
 * wis has one (bench/store/); NULL in the image's, which has no store.
 */
typedef int rd_select_fn(struct rd_inputs *in, const char *db,
			 const char *const *words, size_t n, const char *name);

/*
 * What a --html page inlines besides its data: the charting library
 * (name, version, licence and its text, minified script, style sheet)
 * and the page's own script and style (bench/page/).  The host's wis
 * has them (commands/page_assets.c); the image's has none.
 */
struct rd_page_assets {
	const char *lib_name, *lib_version, *lib_licence, *lib_licence_text;
	const char *lib_js, *lib_css;
	const char *page_js, *page_css;
};

/*
 * The most characters of a test's name a comparison's text table shows
 * (put_clean_cut()); its column is narrower, so a long name pushes the
 * row rather than lose what tells it apart.
 */
#define RD_TEST_SHOWN_MAX 31

/* What goes to stdout. */
enum wis_report_format {
	WIS_REPORT_TEXT, WIS_REPORT_CSV, WIS_REPORT_JSON, WIS_REPORT_LKP,
	WIS_REPORT_KCIDB,
};

struct wis_report_opts {
	enum wis_report_format format;
	int runtest;		/* runtest.py's files into out_dir */
	const char *out_dir;
	const char *plot_dir;	/* gnuplot's SVG and PNG, index.html */
	const char *html;	/* one page, its data and scripts inside */
	const struct rd_page_assets *page;	/* NULL: this wis has none */
	const char *folded_dir;	/* folded stacks of profiled points */
	int sum;		/* a side holding several runs adds them up */
	int force;		/* sum points whose windows did not overlap */
	const char *origin;	/* KCIDB's origin: [a-z0-9_]+ */
	/*
	 * The suite's tests, for the model (rd_test_info): their testcase:
	 * lines, families, mappings and controls.  None in a reader that
	 * links no tests.
	 */
	const struct rd_test_info *tests;
	size_t nr_tests;
	const char *lkp_root;	/* LKP result roots into this directory */
	/* wis compare: LKP's table, not verdicts; every key (ncompare -a) */
	enum { RD_LKP_TABLE_OFF, RD_LKP_TABLE_LISTED, RD_LKP_TABLE_ALL } lkp_table;
	const char *lkp_report;	/* wis compare: a 0-day report's point */
	const char *db;		/* --db: operands select runs of this store */
	rd_select_fn *select;
};

#endif
