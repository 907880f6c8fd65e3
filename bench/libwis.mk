# libwis.a: what wis, wis-init, the fuzz targets and the test helpers
# share.  One source list, built once per C library: the suite links
# glibc, wis-init musl, the fuzz targets clang's sanitizers.
#
# The includer sets CC, CFLAGS, OUT and LIBC (glibc, musl, fuzz) and gets
# LIBWIS, the archive $(OUT)/obj/$(LIBC)/libwis.a, and LIBWIS_SRCS.
LIBWIS_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LIBWIS_SRCS := analysis.c audit.c cmdline.c compare.c cpuset.c env_warn.c file.c \
	input.c json_read.c json_write.c model.c plan.c record.c recorder.c \
	report.c sink.c table.c topology.c view_compare.c view_csv.c \
	view_json.c view_lkp.c view_plot.c view_text.c
LIBWIS_OBJDIR := $(OUT)/obj/$(LIBC)
LIBWIS := $(LIBWIS_OBJDIR)/libwis.a
LIBWIS_HDRS := $(wildcard $(LIBWIS_DIR)/*.h)

$(LIBWIS): $(LIBWIS_SRCS:%.c=$(LIBWIS_OBJDIR)/%.o)
	rm -f $@
	$(AR) rcD $@ $^

$(LIBWIS_OBJDIR)/%.o: $(LIBWIS_DIR)/%.c $(LIBWIS_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(LIBWIS_DIR) -c -o $@ $<
