// SPDX-License-Identifier: GPL-2.0
/*
 * What the host's wis inlines into a --html page besides its data: the
 * charting library's files and the page's own (bench/page/assets.S),
 * and the library's version and licence from its package.json (the
 * Makefile reads them).  The image's wis has none of it: wis_page_assets
 * is weak there (cli.h), and --html says so.
 */
#include "view.h"

extern const char wis_page_lib_js[], wis_page_lib_css[],
	wis_page_lib_licence_text[], wis_page_js[], wis_page_css[];

const struct rd_page_assets wis_page_assets = {
	.lib_name = "uPlot",
	.lib_version = PAGE_LIB_VERSION,
	.lib_licence = PAGE_LIB_LICENCE,
	.lib_licence_text = wis_page_lib_licence_text,
	.lib_js = wis_page_lib_js,
	.lib_css = wis_page_lib_css,
	.page_js = wis_page_js,
	.page_css = wis_page_css,
};
