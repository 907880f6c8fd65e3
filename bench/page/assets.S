/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files a --html page inlines, each as a NUL-terminated string of
 * the host's wis (commands/page_assets.c describes them): the charting
 * library installed by ./build.sh deps (package.json), its licence, and
 * the page's own script and style.  The Makefile names the files.
 */
#define ASSET(name, file)		\
	.globl name;			\
	.type name, @object;		\
name:					\
	.incbin file;			\
	.byte 0;			\
	.size name, . - name

	.section .rodata
	ASSET(wis_page_lib_js, LIB_JS)
	ASSET(wis_page_lib_css, LIB_CSS)
	ASSET(wis_page_lib_licence_text, LIB_LICENCE)
	ASSET(wis_page_js, PAGE_JS)
	ASSET(wis_page_css, PAGE_CSS)

	.section .note.GNU-stack, "", @progbits
