# vramlab - build, run, test, install.
#   make            build build/vramlab (CUDA backend when nvcc is found; CUDA=0 to leave it out)
#                   and its man page; warnings are errors only with WERROR=1 (make test, CI)
#   make run        install missing Debian packages (as root), build, start the tutor
#   make test       install missing Debian packages (as root), build with WERROR=1, and run
#                   everything that runs on a CPU-only machine (also under ASan+UBSan, and a
#                   short fuzz pass) in parallel; ends with "N passed, M failed" (make check)
#   make test-gpu   checks that need a real GPU (skipped with a message without one)
#   make gpu-report on a GPU machine, in one command under one deadline: the calibration figures,
#                   test-gpu, the GPU benchmarks and every lesson recorded, as four files in
#                   $OUT (or build/gpu-report/); says so in one line without a GPU. With
#                   GPU_REPORT_PREBUILT=1 it uses BUILD as it is (make portable's) and builds nothing
#   make portable   build/portable/: vramlab and the GPU checks' programs with Lua and ncursesw
#                   linked in (only glibc, libstdc++ and libgcc stay dynamic), native code for
#                   sm_90 plus PTX, and a terminfo fallback: built here, run on a GPU machine
#                   that has no Lua or ncurses development packages (docs/benchmarks.md)
#   make bench      benchmarks: ratios against references measured in the same run
#   make screens    every lesson's every screen at 80x24, 120x40 and 200x50, en and zh, and the
#                   presenter, checked in tmux (make test runs a sample: tests/tui/screens.sh)
#   make asan       the unit and Lua tests under AddressSanitizer + UBSan
#   make tsan       the unit, Lua, CLI and TUI tests under ThreadSanitizer (clang, build/tsan):
#                   no data race may be reported (CI runs it after make test)
#   make valgrind   unit tests, Lua tests and every lesson under valgrind memcheck (slow)
#   make fuzz       libFuzzer targets, FUZZ_SECONDS each (make fuzz-ci: 10 s each)
#   make install    PREFIX=/usr/local (binary, lessons, assets, man page, bash completion);
#                   make uninstall
# CUDA_ARCHS: the GPU code built by nvcc. auto (default): every architecture below that this nvcc
# knows, plus PTX of the newest, where a GPU is found (nvidia-smi lists one) or for make install;
# elsewhere one architecture (sm_75) plus its PTX, which any newer GPU compiles at load (a quick
# first build). all: every one. A list ("90", "80 90"): native code for each, PTX of the last.
# CPPFLAGS, CFLAGS and LDFLAGS from the environment or the command line are honoured in every
# compile and link (a packager's dpkg-buildflags hardening). The version is the VERSION file.

PREFIX  ?= /usr/local
VERSION := $(shell cat VERSION)
WERROR  ?= 0
BUILD   ?= build
CC      ?= cc
CUDA    ?= auto
PKGS    := ncursesw lua5.4

# make gpu-report alone runs a script and builds what it needs itself: no toolkit probe here and
# no build stamp written, so a build made elsewhere (make portable's) stays exactly as it is.
REPORT_ONLY := $(if $(MAKECMDGOALS),$(if $(filter-out gpu-report,$(MAKECMDGOALS)),,1))

# nvcc on the PATH or under /usr/local/cuda
NVCC := $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
ifneq ($(filter 0,$(CUDA))$(REPORT_ONLY),)
NVCC :=
endif
# The toolkit's root as nvcc itself reports it: nvcc may be a wrapper script in /usr/local/bin.
ifneq ($(NVCC),)
CUDA_HOME := $(realpath $(or $(shell $(NVCC) --dryrun -c -x cu /dev/null 2>&1 | sed -n 's/^\#\$$ TOP=//p'),$(patsubst %/bin/nvcc,%,$(NVCC))))
ifneq ($(words $(wildcard $(CUDA_HOME)/include/cuda_runtime_api.h $(CUDA_HOME)/lib64/libcudart_static.a)),2)
$(warning nvcc at $(NVCC) has no headers or libcudart_static.a under '$(CUDA_HOME)': building without the CUDA backend)
NVCC :=
endif
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# Without the development packages a build would stop at "lauxlib.h: No such file": say instead
# which packages to install (the one apt-get line, tests/deps.sh hint) and build nothing. The
# goals that install them first (run, test) and those that compile nothing pass; PKG_CFLAGS and
# PKG_LIBS given on the command line (a system without pkg-config files) skip the check.
NO_PKG_GOALS := deps test-deps run test check clean uninstall gpu-report help format-check print-%
ifeq ($(PKG_LIBS)$(filter command line,$(origin PKG_LIBS)),)
ifneq ($(filter-out $(NO_PKG_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error $(shell sh tests/deps.sh hint))
endif
endif

# htop's warning set; -Werror only when asked (a user's newer compiler must not break the build)
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wcast-align \
           -Wcast-qual -Wfloat-equal -Wformat=2 -Winit-self -Wpointer-arith -Wundef \
           -Wwrite-strings -Wno-unused-parameter -Wno-format-truncation -Wno-unknown-warning-option
ifeq ($(WERROR),1)
WARN    += -Werror
endif
CFLAGS  ?= -O2 -g
# One folder per role (docs/architecture.md); headers are included by name.
INC     := -I. -Igpu -Igpu/backend -Igpu/alloc -Igpu/base -Ilua -Ilua/mod \
           -Itui -Itui/cli -Itui/store -Itui/render -Itui/screen
override CFLAGS += -std=c11 $(WARN) -D_GNU_SOURCE -pthread -MMD -MP $(INC) $(PKG_CFLAGS) \
                   -DVRAMLAB_VERSION='"$(VERSION)"'
LDLIBS  := $(PKG_LIBS) -lm -pthread

GPU_SRC := $(filter-out gpu/backend/gpu_cuda%.c,$(wildcard gpu/*.c gpu/*/*.c))
LT_SRC  := $(wildcard lua/*.c lua/*/*.c)
TUI_SRC := $(wildcard tui/*/*.c)
# units, estimate and vram first: the other support modules require them while they load
# (vram_*.lua add their estimators to vram)
LT_FIRST := lua/lib/units.lua lua/lib/estimate.lua lua/lib/vram.lua
LT_LUA  := $(LT_FIRST) $(filter-out $(LT_FIRST),$(sort $(wildcard lua/lib/*.lua)))

# The toolkit must also compile: nvcc may reject this host compiler, or be half installed.
# Native code for every architecture we build for that this nvcc knows (older toolkits build
# fewer; without --list-gpu-code, what CUDA 12.0 has), PTX of the newest for GPUs that come
# later (the driver compiles it at load).
CU_WANT := 75 80 86 89 90 100 120
CUDA_ARCHS ?= auto
empty   :=
comma   := ,
ifneq ($(NVCC),)
CU_KNOWN := $(shell $(NVCC) --list-gpu-code 2>/dev/null | sed -n 's/^sm_//p')
CU_ALL   := $(if $(CU_KNOWN),$(filter $(CU_KNOWN),$(CU_WANT)),75 80 86 89 90)
ifeq ($(CUDA_ARCHS),auto)
# a GPU here (nvidia-smi lists one) or an install: every architecture; else the oldest alone
CU_GPU   := $(shell nvidia-smi -L 2>/dev/null | grep -c '^GPU [0-9]')
CU_ARCHS := $(if $(filter-out 0,$(CU_GPU))$(filter install,$(MAKECMDGOALS)),$(CU_ALL),$(firstword $(CU_ALL)))
else ifeq ($(CUDA_ARCHS),all)
CU_ARCHS := $(CU_ALL)
else
CU_ARCHS := $(CUDA_ARCHS)
CU_UNKNOWN := $(if $(CU_KNOWN),$(filter-out $(CU_KNOWN),$(CU_ARCHS)))
$(if $(CU_UNKNOWN),$(error CUDA_ARCHS: $(NVCC) does not know sm_$(firstword $(CU_UNKNOWN)) (it knows $(strip $(CU_KNOWN)))))
endif
CU_PROBE := $(shell sh gpu/backend/cuda_probe.sh $(BUILD)/.cuda-probe $(NVCC) '$(firstword $(CU_ARCHS))' $(CC) $(CUDA_HOME)/include)
ifneq ($(CU_PROBE),ok)
$(warning $(NVCC) cannot build the CUDA backend ($(CU_PROBE)): building without the CUDA backend)
NVCC :=
endif
endif

ifneq ($(NVCC),)
override CFLAGS += -DGPU_HAVE_CUDA=1
CU_C    := $(wildcard gpu/backend/gpu_cuda*.c)
GPU_SRC += $(CU_C)
CU_SRC  := $(wildcard gpu/backend/*.cu)
CU_OBJ  := $(CU_SRC:%.cu=$(BUILD)/%.o)
CU_PTX  := $(lastword $(CU_ARCHS))
NVWARN  := -Xcompiler -Wall$(if $(filter 1,$(WERROR)),$(comma)-Werror)
# the host compiler gets CPPFLAGS (nvcc itself does not know every gcc option in them)
NVCPP   := $(if $(strip $(CPPFLAGS)),-Xcompiler $(subst $(empty) $(empty),$(comma),$(strip $(CPPFLAGS))))
NVFLAGS := -O3 -std=c++17 $(NVWARN) $(NVCPP) -Igpu \
           $(foreach a,$(CU_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
           -gencode arch=compute_$(CU_PTX),code=compute_$(CU_PTX)
LDLIBS  += $(CUDA_HOME)/lib64/libcudart_static.a -ldl -lrt -lstdc++
$(CU_C:%.c=$(BUILD)/%.o): override CFLAGS += -I$(CUDA_HOME)/include \
    -DGPU_CUDA_ARCHS='"$(subst $(empty) $(empty),/,$(CU_ARCHS))"'
endif

# The GPU code first: nvcc's are the longest single jobs, and a parallel build that starts them
# last waits for them at its end.
OBJ     := $(CU_OBJ) $(GPU_SRC:%.c=$(BUILD)/%.o) $(LT_SRC:%.c=$(BUILD)/%.o) \
           $(TUI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/lt_embed.o
LIB     := $(BUILD)/libvramlab.a
BIN     := $(BUILD)/vramlab
UNIT    := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

# Objects depend on the build configuration: changing flags (CUDA on/off, sanitizers) rebuilds.
# The GPU code has a stamp of its own: other architectures rebuild it, not every C file.
STAMP   := $(BUILD)/.config
CU_STAMP := $(BUILD)/.cuda-config
CONFIG  := $(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(NVCC) $(LDLIBS)
ifeq ($(REPORT_ONLY),)
$(shell mkdir -p $(BUILD); echo '$(CONFIG)' | cmp -s - $(STAMP) || echo '$(CONFIG)' > $(STAMP))
$(shell echo '$(NVFLAGS) $(CU_ARCHS)' | cmp -s - $(CU_STAMP) || echo '$(NVFLAGS) $(CU_ARCHS)' > $(CU_STAMP))
endif

.PHONY: all deps test-deps run test check format-check test-gpu gpu-tests gpu-report portable bench screens asan \
        tsan valgrind install uninstall clean fuzz

MAN     := $(BUILD)/vramlab.1
all: $(BIN) $(MAN)

# Set-up on a fresh Debian machine: install what is missing when root, else print the line.
deps:
	@sh tests/deps.sh build
test-deps:
	@sh tests/deps.sh test

$(BIN): $(BUILD)/tui/main.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BUILD)/tui/main.o $(LIB) $(LDLIBS)

# The man page with the version of the VERSION file (docs/vramlab.1 says @VERSION@).
$(MAN): docs/vramlab.1 VERSION
	@mkdir -p $(dir $@)
	sed 's/@VERSION@/$(VERSION)/g' docs/vramlab.1 > $@

$(LIB): $(OBJ)
	@rm -f $@
	ar rcs $@ $(OBJ)

$(BUILD)/%.o: %.c $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.cu $(wildcard gpu/backend/gpu_*kernels*.h) gpu/gpu_pattern.h gpu/gpu_access_mix.h \
              gpu/backend/gpu_kernels_dev.cuh $(STAMP) $(CU_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c -o $@ $<
$(CU_C:%.c=$(BUILD)/%.o): $(CU_STAMP)

# Lua support code compiled into the binary (preloaded as modules).
$(BUILD)/lt_embed.c: $(LT_LUA) lua/lib/embed.sh
	@mkdir -p $(BUILD)
	sh lua/lib/embed.sh $(LT_LUA) > $@
$(BUILD)/lt_embed.o: $(BUILD)/lt_embed.c $(STAMP)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Tests compare doubles exactly on purpose: a deterministic result must be the same bits.
TEST_CFLAGS := -Wno-float-equal
$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) -lcmocka $(LDLIBS)

# Installing Debian packages happens here and in make test (the README's two commands), never
# in a plain make or make install (a packager's chroot does not expect apt-get).
run: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	$(BIN)

# The suite runs twice: the normal build, then unit/Lua/CLI tests under ASan + UBSan (clang).
# Then a short, fixed-seed pass of every fuzz target (where clang has libFuzzer).
FUZZ_PROBE = printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' | \
	clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1
# 1 where clang has libFuzzer: probed once, and only by the targets that use it
HAVE_FUZZER = $(eval HAVE_FUZZER := $$(shell $$(FUZZ_PROBE) && echo 1))$(HAVE_FUZZER)
# One sanitizer tree for make test: the ASan pass and the fuzz targets' fixed runs link the same
# objects, compiled once. Where clang has libFuzzer they carry its edge counters alone
# (-fsanitize-coverage=inline-8bit-counters,pc-table), which libFuzzer needs to run; make fuzz
# builds its own tree (FUZZ_DIR, below) with the full hooks (-fsanitize=fuzzer-no-link, every
# comparison traced), which made the ASan unit tests 1.5-3 times slower (docs/reliability.md).
# Its debug information is line tables alone (-gline-tables-only): a report still names each
# frame's function, file, line and inlined calls, and the tree compiles in a ninth less CPU
# (docs/reliability.md); make fuzz's tree keeps full -g for a debugger.
ASAN_DIR := build/asan
SAN_CFLAGS = -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_MAKE = $(MAKE) --no-print-directory CUDA=0 CC=clang WERROR=$(TEST_WERROR)
ASAN_MAKE = $(SAN_MAKE) BUILD=$(ASAN_DIR) \
	CFLAGS="$(SAN_CFLAGS) -gline-tables-only$(if $(HAVE_FUZZER), -fsanitize-coverage=inline-8bit-counters$(comma)pc-table)"

# make test and CI build with warnings as errors, unless WERROR is given (WERROR=0 to look past one).
TEST_WERROR := $(if $(filter command line environment,$(origin WERROR)),$(WERROR),1)
# The two builds use every CPU (a plain make test would otherwise compile one file at a time).
NPROC       := $(shell nproc 2>/dev/null || echo 2)
# Each build's CPU seconds go to $(BUILD)/test-logs/build-*.cpu (tests/run.sh --cpu), and the
# summary's --times table lists them with every test's.
CPU_LOG = sh tests/run.sh --cpu $(BUILD)/test-logs/build-$(1).cpu
test: test-deps
	@mkdir -p $(BUILD)/test-logs && rm -f $(BUILD)/test-logs/build-*.cpu
	@$(call CPU_LOG,normal) $(MAKE) --no-print-directory -j$(NPROC) WERROR=$(TEST_WERROR) $(BIN) $(MAN) $(UNIT) \
	    $(GPU_TESTS)
	@$(if $(HAVE_FUZZER),:,echo "fuzz targets not built: clang has no libFuzzer (-fsanitize=fuzzer)")
	@sh tests/run.sh $(BUILD) --asan $(ASAN_DIR) --fuzz $(if $(HAVE_FUZZER),$(ASAN_DIR),-) --times \
	    --asan-build '$(ASAN_MAKE) -j$(NPROC) $(ASAN_DIR)/vramlab \
	    $(patsubst $(BUILD)/%,$(ASAN_DIR)/%,$(UNIT)) $(if $(HAVE_FUZZER),$(ASAN_FUZZ))'
check: test

# The GPU checks' own programs: no device code of their own (the kernels come from
# gpu_kernels.o), so one host compile each.
GPU_TESTS := $(if $(NVCC),$(BUILD)/tests/gpu_copy_offsets $(BUILD)/tests/ref_bandwidth)
gpu-tests: $(GPU_TESTS)
$(BUILD)/tests/gpu_copy_offsets: tests/gpu/copy_offsets.cu $(CU_OBJ) gpu/backend/gpu_kernels.h gpu/gpu_pattern.h
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -std=c++17 $(NVWARN) $(NVCPP) $(LDFLAGS:%=-Xlinker %) -Igpu -Igpu/backend -o $@ $< $(CU_OBJ)
$(BUILD)/tests/ref_bandwidth: tests/gpu/ref_bandwidth.cu
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -std=c++17 $(NVWARN) $(NVCPP) $(LDFLAGS:%=-Xlinker %) -o $@ $<

test-gpu: all gpu-tests
	@sh tests/gpu/run.sh $(BUILD)

# One command on a GPU machine: every GPU figure and check, four files (docs/benchmarks.md).
# GPU_REPORT_PREBUILT=1: BUILD as it is (make portable's build/portable), nothing compiled there.
gpu-report:
	@sh tests/gpu/report.sh $(BUILD)

# A build to take to a GPU machine whose image lacks Lua's and ncurses' development packages:
# those two linked in statically, sm_90 native code plus PTX, the GPU checks' programs, and
# compiled terminfo entries for a machine without the terminal's (tests/gpu/portable.sh checks
# with ldd that only glibc, libstdc++ and libgcc stay dynamic).
PORTABLE      := build/portable
PORTABLE_OBJ  := build/portable-obj
PORTABLE_LIBS := -Wl,-Bstatic -lncursesw -ltinfo -llua5.4 -Wl,-Bdynamic -ldl
portable:
	@$(MAKE) --no-print-directory -j$(NPROC) BUILD=$(PORTABLE_OBJ) CUDA_ARCHS=90 \
	    PKG_LIBS='$(PORTABLE_LIBS)' all gpu-tests
	@sh tests/gpu/portable.sh $(PORTABLE_OBJ) $(PORTABLE)

# The screen suite in full (tests/tui/screens.py, about 6 minutes on 2 busy vCPUs): every lesson's
# every screen (text pages, experiments, panel pages, zoomed panels) at 80x24, 120x40 and 200x50
# in English and Chinese, and the presenter at 80x24 to 300x80; make test runs its sample
# (tests/tui/screens.sh: each lesson's first experiment, each lesson at one size).
screens: all
	@VRAMLAB_HOST_MAX=4MiB VRAMLAB_HOST_QUICK=1 python3 tests/tui/screens.py $(BUILD)

bench: all
	@$(MAKE) --no-print-directory $(BUILD)/tests/bench_host $(BUILD)/tests/bench_alloc \
	    $(BUILD)/tests/bench_snapshot
	@$(MAKE) --no-print-directory $(BUILD)/tests/bench_stream $(BUILD)/tests/bench_lessons
	@sh tests/bench.sh $(BUILD)

$(BUILD)/tests/bench_alloc: tests/bench/bench_alloc.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(BUILD)/tests/bench_snapshot: tests/bench/bench_snapshot.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# McCalpin's STREAM kernels (a reimplementation, tests/bench/bench_stream.c): the same CFLAGS
$(BUILD)/tests/bench_stream: tests/bench/bench_stream.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) $(LDFLAGS) -fopenmp -o $@ $< $(LIB) $(LDLIBS)

# what a learner waits for: list, each lesson's first result and total, on the real program
$(BUILD)/tests/bench_lessons: tests/bench/bench_lessons.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

$(BUILD)/tests/bench_host: tests/bench/bench_host.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) $(LDFLAGS) -fopenmp -o $@ $< $(LIB) $(LDLIBS)

# memcheck over the unit tests, the Lua tests and every lesson (slow: not part of make test)
valgrind: all
	@$(MAKE) --no-print-directory $(UNIT)
	@sh tests/valgrind.sh $(BUILD)

asan: test-deps
	@$(ASAN_MAKE) $(ASAN_DIR)/vramlab $(patsubst $(BUILD)/%,$(ASAN_DIR)/%,$(UNIT))
	@ASAN_OPTIONS=detect_leaks=1 sh tests/run.sh $(ASAN_DIR) --no-tui

# ThreadSanitizer: the UI thread, the measurement workers and the watchdog share the cancel flag,
# the job slot and what runs now; the TUI tests are where they meet (L during a run:
# tests/tui/lang_race.sh). Every report is a failure (the reports land in build/tsan/).
TSAN_DIR := build/tsan
TSAN_MAKE = $(MAKE) --no-print-directory BUILD=$(TSAN_DIR) CUDA=0 CC=clang WERROR=$(TEST_WERROR) \
	CFLAGS="-O1 -g -fsanitize=thread -fno-omit-frame-pointer"

tsan: test-deps
	@$(TSAN_MAKE) $(TSAN_DIR)/vramlab $(patsubst $(BUILD)/%,$(TSAN_DIR)/%,$(UNIT))
	@rm -f $(TSAN_DIR)/race.*
	@TSAN_OPTIONS="log_path=$(CURDIR)/$(TSAN_DIR)/race" sh tests/run.sh $(TSAN_DIR); rc=$$?; \
	if ls $(TSAN_DIR)/race.* >/dev/null 2>&1; then \
	    cat $(TSAN_DIR)/race.*; echo "FAIL: ThreadSanitizer reported the races above"; exit 1; fi; \
	echo "ThreadSanitizer: no report"; exit $$rc

# Fuzzing (libFuzzer + ASan + UBSan, clang, CUDA left out): every tests/fuzz/fuzz_*.c is a target.
#   make fuzz      each target FUZZ_SECONDS (default 60) from its seed corpus, with the counts
#   make fuzz-ci   the same, 10 s each; skipped with a message without clang's libFuzzer
#   (make test runs each target for a fixed 5000 inputs with seed 1; 1000 for the panel and
#   recording pipelines, 500 for the lesson and sandbox targets, whose inputs each start a VM)
# make fuzz's targets live in their own tree, every comparison traced for libFuzzer; make test
# runs the same targets from the ASan tree (ASAN_FUZZ), which counts edges only.
FUZZ_DIR     := build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_NAMES   := $(patsubst tests/fuzz/%.c,fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS := $(addprefix $(FUZZ_DIR)/,$(FUZZ_NAMES))
ASAN_FUZZ    := $(addprefix $(ASAN_DIR)/,$(FUZZ_NAMES))
FUZZ_MAKE = $(SAN_MAKE) BUILD=$(FUZZ_DIR) CFLAGS="$(SAN_CFLAGS) -g -fsanitize=fuzzer-no-link"

.PHONY: fuzz-build fuzz-ci
fuzz-build:
	@$(FUZZ_MAKE) $(FUZZ_TARGETS)
fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS)
fuzz-ci:
	@if $(FUZZ_PROBE); then \
	    $(MAKE) --no-print-directory fuzz-build && sh tests/fuzz/run.sh $(FUZZ_DIR) 10; \
	else echo "SKIP: fuzz-ci needs clang with libFuzzer (-fsanitize=fuzzer)"; fi

# libFuzzer declares its entry points (LLVMFuzzerTestOneInput, LLVMFuzzerInitialize), not us.
$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) -Wno-missing-prototypes $(LDFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB) $(LDLIBS)

# Data files one by one with their own mode (never the source tree's permissions), only the
# kinds the program reads: lessons (.lua), assets (.lua, .pickle, .txt, recordings' .jsonl).
SHARE   := $(DESTDIR)$(PREFIX)/share/vramlab
DATA    := $(sort $(wildcard lessons/*/*.lua assets/*.lua assets/*/*.lua assets/*.pickle \
                             assets/*/*.pickle assets/*.txt assets/*/*.txt assets/*/*.jsonl))
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/vramlab
	$(foreach d,$(sort $(dir $(DATA))),install -d $(SHARE)/$(d) &&) true
	$(foreach f,$(DATA),install -m 644 $(f) $(SHARE)/$(f) &&) true
	install -m 644 $(MAN) $(DESTDIR)$(PREFIX)/share/man/man1/vramlab.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 tui/cli/vramlab.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/vramlab

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/vramlab $(DESTDIR)$(PREFIX)/share/man/man1/vramlab.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/vramlab
	rm -rf $(SHARE)

clean:
	rm -rf $(BUILD)

# make print-VAR: the value the build uses (tests/cli/make_cuda.sh checks the CUDA detection)
print-%:
	@echo '$*=$($*)'

-include $(OBJ:.o=.d) $(BUILD)/tui/main.d $(wildcard $(BUILD)/tests/*.d $(BUILD)/fuzz/*.d)
