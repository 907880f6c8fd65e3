# libwis.a: the layers of bench/ that wis, wis-init, the fuzz targets and
# the test helpers share, built once per C library: the suite links
# glibc, wis-init musl, the fuzz targets clang's sanitizers.
#
# Layers, lowest first; a folder uses only folders before it
# (tests/07-deps.t):
#   base     limits, files and numbers, CPU sets, topology, JSON
#   grammar  the sweep's keys and its plan
#   records  the WIS1 frame, sinks, the recorder
#   engine   the harness, the barrier, the environment audit, the test
#            contract (wis.h) and its helpers
#   analysis statistics on numbers: medians, the bootstrap, verdicts,
#            a series' steps and drifts (beside engine: neither uses the other)
#   reader   records read back, the model, the series of a history, the
#            views
#   sweep    the sweep of a plan's points, their records, lab signals
#   commands the subcommands of the wis binary (linked as objects)
#
# A file of a layer named *_host.c links a library of the build host
# (libblkid): it is in no archive, and only the host's wis links it
# (LIBWIS_HOST_OBJS); a weak symbol tells the others it is not there.
#
# The includer sets CC, CFLAGS, OUT, LIBC (glibc, musl, asan, fuzz) and
# LIBWIS_LAYERS, the folders it links; it gets LIBWIS, the archive
# $(OUT)/obj/$(LIBC)/libwis.a, LIBWIS_HOST_OBJS, LIBWIS_HDRS and
# LIBWIS_INC.
BENCH_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LIBWIS_ALL_SRCS := $(sort $(foreach l,$(LIBWIS_LAYERS),$(wildcard $(BENCH_DIR)/$(l)/*.c)))
LIBWIS_SRCS := $(filter-out %_host.c,$(LIBWIS_ALL_SRCS))
# Headers, and the tables they include (records/fields.def).
LIBWIS_HDRS := $(foreach l,$(LIBWIS_LAYERS),$(wildcard $(BENCH_DIR)/$(l)/*.h \
	$(BENCH_DIR)/$(l)/*.def))
LIBWIS_INC := $(foreach l,$(LIBWIS_LAYERS),-I$(BENCH_DIR)/$(l))
LIBWIS_OBJDIR := $(OUT)/obj/$(LIBC)
LIBWIS := $(LIBWIS_OBJDIR)/libwis.a
LIBWIS_OBJS := $(patsubst $(BENCH_DIR)/%.c,$(LIBWIS_OBJDIR)/%.o,$(LIBWIS_SRCS))
LIBWIS_HOST_OBJS := $(patsubst $(BENCH_DIR)/%.c,$(LIBWIS_OBJDIR)/%.o,$(filter %_host.c,$(LIBWIS_ALL_SRCS)))

$(LIBWIS): $(LIBWIS_OBJS)
	rm -f $@
	$(AR) rcD $@ $^

$(LIBWIS_OBJDIR)/%.o: $(BENCH_DIR)/%.c $(LIBWIS_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LIBWIS_INC) -c -o $@ $<
