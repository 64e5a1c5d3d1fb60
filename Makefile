# pgnkit: one non-recursive GNU Makefile (STYLE C13). Out-of-tree build in build/.
#   make            build/libpgnkit.a, build/libpgnkit.so, build/pgnkit
#   make demo       build, then run the main job on a bundled sample
#   make check      every test suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make check-slow the same, with every perft depth and the whole corpus
#   make bench      benchmarks (medians, ratios to Stockfish / pgn-extract)
#   make fuzz       the libFuzzer targets in build/fuzz/ (clang); make fuzz-smoke runs each FUZZ_TIME s
#   make pathological  the pathological-input table of docs/robustness.md (release build, full sizes)
#   make check-valgrind  the unit tests (release build) under valgrind memcheck
SHELL := /bin/bash
CC ?= cc
BUILD ?= build
SHARED ?= $(abspath ../shared)
PREFIX ?= /usr/local
DESTDIR ?=

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla \
	-Wwrite-strings -Wcast-qual
ifeq ($(WERROR),1)
WARN += -Werror
endif
STD := -std=c17
OPT ?= -O3
CPPFLAGS_ALL := -Iinclude -DPGNKIT_BUILD
# PLAIN_BITS=1: every run-time dispatch forced to the portable C code (issue 32): popcount, ctz,
# clz and bswap by src/base/bits.h's C code, not the CPU's instructions, and the movetext scan's
# table look-up instead of SSE2/AVX2 (src/parse/lexer_simd.c), the skipped movetext's line search
# a byte at a time (src/parse/tag_skip.c): one macro, PGNKIT_PLAIN_BITS, for
# all. With its own BUILD, e.g. make BUILD=build/plain PLAIN_BITS=1 ...; make check builds the
# library so in $(BUILD)/plain and runs the core suites against it too (PLAIN_TESTS below), and
# test_bits_plain / test_reader_fast_plain / test_tag_skip_plain test the portable code in the
# ordinary build too; the
# fuzz targets: make fuzz-plain.
ifeq ($(PLAIN_BITS),1)
CPPFLAGS_ALL += -DPGNKIT_PLAIN_BITS
endif
LIB_WARN := $(WARN) -Wconversion
LDLIBS := -lm
# cli/ runs engines on threads (pgnkit analyze -j)
CLI_THREADS := -pthread
# src/io (the source layer, issue 29): the compression libraries found (pkg-config; libbz2 ships no
# .pc file on Debian, so a test link finds it), linked into libpgnkit (pgnkit.pc: Libs.private).
# Each one missing leaves its format out, and a source says so when it meets such a file.
# NO_COMPRESS=1 builds without any (tests the messages; the library then needs libc alone).
# libisal (ISA-L's igzip, optional) decodes gzip 2-3 times as fast as zlib, which still encodes it.
# Only src/io is compiled with these flags: the core (rules, reader, writers) needs libc alone.
ifneq ($(NO_COMPRESS),1)
PKG_Z := $(foreach p,zlib:ZLIB libisal:ISAL libzstd:ZSTD liblzma:LZMA,$(if $(shell pkg-config --exists $(word 1,$(subst :, ,$(p))) 2>/dev/null && echo y),$(p)))
HAVE_BZ2 := $(shell printf '\043include <bzlib.h>\nint main(void){return BZ2_bzlibVersion()==0;}\n' | $(CC) -x c - -lbz2 -o /dev/null >/dev/null 2>&1 && echo y)
endif
IO_ZFLAGS := $(foreach p,$(PKG_Z),-DPGNKIT_HAVE_$(word 2,$(subst :, ,$(p))) $(shell pkg-config --cflags $(word 1,$(subst :, ,$(p))))) $(if $(HAVE_BZ2),-DPGNKIT_HAVE_BZ2)
IO_ZLIBS := $(foreach p,$(filter-out libisal:ISAL,$(PKG_Z)),$(shell pkg-config --libs $(word 1,$(subst :, ,$(p))))) $(if $(HAVE_BZ2),-lbz2)
# libisal is opened with dlopen at the first gzip decoded (src/io/codec.c says why; zlib decodes
# when it cannot be opened): its headers only, and its soname
ifneq ($(filter libisal:ISAL,$(PKG_Z)),)
ISAL_SONAME := $(shell objdump -p "$$(pkg-config --variable=libdir libisal)/libisal.so" 2>/dev/null | awk '/SONAME/ {print $$2}')
IO_ZFLAGS += $(if $(ISAL_SONAME),-DPGNKIT_ISAL_SONAME='"$(ISAL_SONAME)"')
IO_ZLIBS += -ldl
endif
CLI_ZFLAGS :=
# pgnkit serve: libmicrohttpd (pkg-config); without it (or with NO_SERVE=1) serve says what is missing
ifneq ($(NO_SERVE),1)
HAVE_MHD := $(shell pkg-config --exists libmicrohttpd 2>/dev/null && echo y)
endif
# serve opens it with dlopen by its soname (cli/serve_http.h says why): only its headers are used
MHD_SONAME := $(if $(HAVE_MHD),$(shell objdump -p "$$(pkg-config --variable=libdir libmicrohttpd)/libmicrohttpd.so" 2>/dev/null | awk '/SONAME/ {print $$2}'))
CLI_ZFLAGS += $(if $(HAVE_MHD),-DPGNKIT_HAVE_MHD $(shell pkg-config --cflags libmicrohttpd) $(if $(MHD_SONAME),-DPGNKIT_MHD_SONAME='"$(MHD_SONAME)"'))
# archives as sources: libarchive, opened with dlopen at the first archive (src/io/archive.c says
# why), so its headers only; without it (or with NO_COMPRESS=1) an archive is refused, naming it
ifneq ($(NO_COMPRESS),1)
HAVE_ARCHIVE := $(shell pkg-config --exists libarchive 2>/dev/null && echo y)
endif
ARCHIVE_SONAME := $(if $(HAVE_ARCHIVE),$(shell objdump -p "$$(pkg-config --variable=libdir libarchive)/libarchive.so" 2>/dev/null | awk '/SONAME/ {print $$2}'))
IO_ZFLAGS += $(if $(HAVE_ARCHIVE),-DPGNKIT_HAVE_ARCHIVE $(shell pkg-config --cflags libarchive) $(if $(ARCHIVE_SONAME),-DPGNKIT_ARCHIVE_SONAME='"$(ARCHIVE_SONAME)"'))
IO_ZLIBS += $(if $(HAVE_ARCHIVE),-ldl) -pthread
# the game database (src/db, issue 30): libsqlite3, linked (docs/design.md says why); its flags for
# src/db's objects alone, the library's users link it (pgnkit.pc: Libs.private)
DB_CFLAGS := $(shell pkg-config --cflags sqlite3)
DB_LIBS := $(shell pkg-config --libs sqlite3)
IO_ZLIBS += $(DB_LIBS)
CLI_ZLIBS := $(IO_ZLIBS) $(if $(HAVE_MHD),-ldl)
# The program (not libpgnkit.so, not pgnkit.pc) links the codecs and SQLite from their static
# archives where the -dev packages install one (Debian: libz.a, libzstd.a, liblzma.a, libbz2.a,
# libsqlite3.a; not libisal.a), else from the shared library: each shared library loaded costs
# every command's start its mapping, relocations and symbol look-ups (docs/design.md, "How the
# program is linked"; 2026-12-07). PROG_SHARED=1 links them all shared, as before.
PROG_STATIC_NAMES := z isal zstd lzma bz2 sqlite3
comma := ,
ifneq ($(PROG_SHARED),1)
prog_static = -Wl$(comma)-Bstatic -l$(1) -Wl$(comma)-Bdynamic
prog_lib = $(if $(and $(filter $(1),$(PROG_STATIC_NAMES)),$(filter /%,$(shell $(CC) -print-file-name=lib$(1).a))),$(prog_static),-l$(1))
PROG_LIBS := $(foreach w,$(CLI_ZLIBS),$(if $(filter -l%,$(w)),$(call prog_lib,$(w:-l%=%)),$(w)))
else
PROG_LIBS := $(CLI_ZLIBS)
endif
# src/io's objects alone get the codecs' flags
$(BUILD)/rel/src/io/%.o $(BUILD)/pic/src/io/%.o $(BUILD)/asan/src/io/%.o: IOFLAGS := $(IO_ZFLAGS) -pthread
$(BUILD)/rel/src/db/%.o $(BUILD)/pic/src/db/%.o $(BUILD)/asan/src/db/%.o $(BUILD)/fuzz/src/db/%.o: IOFLAGS := $(DB_CFLAGS)
# float-cast-overflow: part of clang's "undefined" but not of gcc's (the fuzzers are built by clang)
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1

LIB_SRC := $(wildcard src/*/*.c)
CLI_SRC := $(wildcard cli/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN_NAMES := $(notdir $(UNIT_SRC:.c=))
CLI_TESTS := $(wildcard tests/cli/test_*.sh)

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/rel/%.o)
LIB_PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
# the page of pgnkit html: web/ embedded by tools/embed.sh into a generated C file
WEB_SRC := web/viewer.html web/viewer.css web/viewer.js web/serve.html web/serve.css web/serve.js \
	web/explore.css web/explore.js
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/rel/%.o) $(BUILD)/rel/gen/web_assets.o
ASAN_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/asan/%.o)
ASAN_CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/asan/%.o) $(BUILD)/asan/gen/web_assets.o
ASAN_TESTS := $(addprefix $(BUILD)/asan/tests/,$(TEST_BIN_NAMES))
SLOW_TESTS := $(addprefix $(BUILD)/slow/tests/,$(TEST_BIN_NAMES))
# check-slow: release builds (the deep perft depths need the speed); per-entry perft node cap
PERFT_CAP ?= 200000000

.PHONY: check-only plain-tests output-md5-update golden-update deps check-run demo-run man uninstall readme python python-asan \
	bench-python bench-parallel bench-lang bench-variants all lib demo check check-slow check-layers bench bench-io tables format format-check \
	install clean asan bench-query bench-db bench-scoutfish bench-html eco-table pieces pictures \
	fuzz fuzz-plain fuzz-smoke pathological check-valgrind
all: $(BUILD)/libpgnkit.a $(BUILD)/libpgnkit.so $(BUILD)/pgnkit

# ---- library and program ----
$(BUILD)/rel/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(OPT) $(LIB_WARN) $(CPPFLAGS_ALL) $(IOFLAGS) -fvisibility=hidden -MMD -MP -c $< -o $@
$(BUILD)/pic/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(OPT) $(LIB_WARN) $(CPPFLAGS_ALL) $(IOFLAGS) -fvisibility=hidden -fPIC -MMD -MP -c $< -o $@
$(BUILD)/rel/cli/%.o: cli/%.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(OPT) $(WARN) $(CLI_THREADS) $(CLI_ZFLAGS) -Iinclude -MMD -MP -c $< -o $@
$(BUILD)/gen/web_assets.c: tools/embed.sh $(WEB_SRC)
	@mkdir -p $(@D)
	tools/embed.sh $(WEB_SRC) > $@.tmp && mv $@.tmp $@
$(BUILD)/rel/gen/web_assets.o: $(BUILD)/gen/web_assets.c cli/web_assets.h
	@mkdir -p $(@D)
	$(CC) $(STD) $(OPT) $(WARN) -Icli -c $< -o $@
$(BUILD)/asan/gen/web_assets.o: $(BUILD)/gen/web_assets.c cli/web_assets.h
	@mkdir -p $(@D)
	$(CC) $(STD) $(SAN_FLAGS) $(WARN) -Icli -c $< -o $@
$(BUILD)/libpgnkit.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/libpgnkit.so: $(LIB_PIC_OBJ)
	$(CC) -shared -Wl,-soname,libpgnkit.so.$(SOMAJOR) -o $@ $^ $(IO_ZLIBS) $(LDLIBS)
$(BUILD)/pgnkit: $(CLI_OBJ) $(BUILD)/libpgnkit.a
	$(CC) $(OPT) $(CLI_THREADS) -o $@ $(CLI_OBJ) $(BUILD)/libpgnkit.a $(PROG_LIBS) $(LDLIBS)

# ---- sanitizer build for the tests ----
$(BUILD)/asan/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(SAN_FLAGS) $(LIB_WARN) $(CPPFLAGS_ALL) $(IOFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/asan/cli/%.o: cli/%.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(SAN_FLAGS) $(WARN) $(CLI_THREADS) $(CLI_ZFLAGS) -Iinclude -MMD -MP -c $< -o $@
$(BUILD)/asan/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(SAN_FLAGS) $(WARN) -Iinclude -Itests -MMD -MP -c $< -o $@
$(BUILD)/asan/libpgnkit.a: $(ASAN_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/asan/pgnkit: $(ASAN_CLI_OBJ) $(BUILD)/asan/libpgnkit.a
	$(CC) $(SAN_FLAGS) $(CLI_THREADS) -o $@ $(ASAN_CLI_OBJ) $(BUILD)/asan/libpgnkit.a $(CLI_ZLIBS) $(LDLIBS)
$(BUILD)/asan/tests/%: $(BUILD)/asan/tests/unit/%.o $(BUILD)/asan/tests/harness.o $(BUILD)/asan/tests/testutil.o \
	$(BUILD)/asan/libpgnkit.a
	$(CC) $(SAN_FLAGS) -o $@ $^ $(IO_ZLIBS) $(LDLIBS)
# test_reader_fast_plain and _sse2: the movetext scan's portable path and its SSE2 path
# (src/parse/lexer_simd.c under PGNKIT_PLAIN_BITS or PGNKIT_NO_AVX2, linked before the library,
# whose own lexer_simd.o is then not pulled in)
$(BUILD)/asan/plain/src/parse/lexer_simd.o: src/parse/lexer_simd.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(SAN_FLAGS) $(LIB_WARN) $(CPPFLAGS_ALL) -DPGNKIT_PLAIN_BITS -MMD -MP -c $< -o $@
$(BUILD)/asan/sse2/src/parse/lexer_simd.o: src/parse/lexer_simd.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(SAN_FLAGS) $(LIB_WARN) $(CPPFLAGS_ALL) -DPGNKIT_NO_AVX2 -MMD -MP -c $< -o $@
$(BUILD)/asan/tests/test_reader_fast_%: $(BUILD)/asan/tests/unit/test_reader_fast_%.o \
	$(BUILD)/asan/%/src/parse/lexer_simd.o $(BUILD)/asan/tests/harness.o $(BUILD)/asan/tests/testutil.o \
	$(BUILD)/asan/libpgnkit.a
	$(CC) $(SAN_FLAGS) -o $@ $^ $(IO_ZLIBS) $(LDLIBS)
# test_tag_skip_plain and _sse2: the skipped movetext's line search without its AVX2 rounds, on
# its portable path or its SSE2 path (src/parse/tag_skip.c so built, linked before the library)
$(BUILD)/asan/plain/src/parse/tag_skip.o: src/parse/tag_skip.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(SAN_FLAGS) $(LIB_WARN) $(CPPFLAGS_ALL) -DPGNKIT_PLAIN_BITS -MMD -MP -c $< -o $@
$(BUILD)/asan/sse2/src/parse/tag_skip.o: src/parse/tag_skip.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(SAN_FLAGS) $(LIB_WARN) $(CPPFLAGS_ALL) -DPGNKIT_NO_AVX2 -MMD -MP -c $< -o $@
$(BUILD)/asan/tests/test_tag_skip_%: $(BUILD)/asan/tests/unit/test_tag_skip_%.o \
	$(BUILD)/asan/%/src/parse/tag_skip.o $(BUILD)/asan/tests/harness.o $(BUILD)/asan/tests/testutil.o \
	$(BUILD)/asan/libpgnkit.a
	$(CC) $(SAN_FLAGS) -o $@ $^ $(IO_ZLIBS) $(LDLIBS)
asan: $(ASAN_TESTS) $(BUILD)/asan/pgnkit

# ---- tests ----
# make check and make demo first run tools/deps.sh (the one install step, shared with .ci/run),
# then make the real target in a fresh make, so that what deps.sh installed (pkg-config's
# libraries) is seen when the Makefile is read. DEPS=0 skips the install step.
DEPS ?= 1
deps:
	@if [ "$(DEPS)" != 0 ]; then tools/deps.sh; fi
check: deps
	@$(MAKE) --no-print-directory check-run
demo: deps
	@$(MAKE) --no-print-directory demo-run
# PGNKIT_SLOW=1 makes the suites run every perft depth and the whole corpus.
check-run: asan check-layers $(BUILD)/fake_engine $(BUILD)/pgnkit $(BUILD)/libpgnkit.so $(BUILD)/libpgnkit.a man \
	python python-asan plain-tests
	@PGNKIT_SHARED=$(SHARED) PGNKIT_BIN=$(BUILD)/asan/pgnkit PGNKIT_REL_BIN=$(BUILD)/pgnkit LOGDIR=$(BUILD)/test-logs \
	  PGNKIT_PY_ASAN=$(BUILD)/python-asan \
	  PGNKIT_LIB_A="$(BUILD)/libpgnkit.a $(BUILD)/asan/libpgnkit.a" PGNKIT_LIB_SO=$(BUILD)/libpgnkit.so \
	  FAKE_ENGINE=$(BUILD)/fake_engine tests/run_tests.sh $(ASAN_TESTS) $(PLAIN_BINS) $(CLI_TESTS)
# The portable path in every make check (issue 32): the core suites (rules, perft, the spec, the two
# fast paths' differential tests, the corpus, reads whole against reads in chunks) again, linked
# with the whole library built with PLAIN_BITS=1 under the same sanitizers, in $(BUILD)/plain (a
# make of its own: the flag is read when the Makefile is). These seven cover the bit functions and the movetext scan on every move of
# the corpus slice; all the suites twice would double the time of make check. Their logs are
# NAME.plain.log; check-only runs one as TESTS=NAME.plain.
PLAIN_TESTS := test_chess test_perft test_spec test_san_fast test_reader_fast test_corpus test_chunked
PLAIN_BINS := $(addprefix $(BUILD)/plain/asan/tests/,$(PLAIN_TESTS))
plain-tests:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/plain PLAIN_BITS=1 $(PLAIN_BINS)
# make check-only TESTS="test_spec test_cli.sh": the named suites alone, as make check runs them (unit
# tests by name, tests/cli scripts by file name), for a quick loop while working on one part
check-only: asan $(BUILD)/fake_engine $(BUILD)/pgnkit $(BUILD)/libpgnkit.so $(BUILD)/libpgnkit.a man \
	$(if $(filter test_python.sh,$(TESTS)),python python-asan) $(if $(filter %.plain,$(TESTS)),plain-tests)
	@PGNKIT_SHARED=$(SHARED) PGNKIT_BIN=$(BUILD)/asan/pgnkit PGNKIT_REL_BIN=$(BUILD)/pgnkit LOGDIR=$(BUILD)/test-logs \
	  PGNKIT_PY_ASAN=$(BUILD)/python-asan \
	  PGNKIT_LIB_A="$(BUILD)/libpgnkit.a $(BUILD)/asan/libpgnkit.a" PGNKIT_LIB_SO=$(BUILD)/libpgnkit.so \
	  FAKE_ENGINE=$(BUILD)/fake_engine tests/run_tests.sh \
	  $(foreach t,$(TESTS),$(if $(filter %.sh,$(t)),tests/cli/$(t),$(if $(filter %.plain,$(t)),$(BUILD)/plain/asan/tests/$(basename $(t)),$(BUILD)/asan/tests/$(t))))
check-slow: $(SLOW_TESTS) $(BUILD)/pgnkit $(BUILD)/fake_engine $(BUILD)/libpgnkit.so python python-asan
	@PGNKIT_LIB_A=$(BUILD)/libpgnkit.a PGNKIT_LIB_SO=$(BUILD)/libpgnkit.so PGNKIT_SLOW=1 PGNKIT_PERFT_CAP=$(PERFT_CAP) PGNKIT_SHARED=$(SHARED) PGNKIT_BIN=$(BUILD)/pgnkit \
	  PGNKIT_REL_BIN=$(BUILD)/pgnkit FAKE_ENGINE=$(BUILD)/fake_engine LOGDIR=$(BUILD)/test-logs-slow \
	  tests/run_tests.sh $(SLOW_TESTS) $(CLI_TESTS)
# tests/cli/test_output_md5.sh's list of output checksums, remade from this build's outputs
# (after an intended change of output; review the diff of tests/data/output-md5.txt)
output-md5-update: $(BUILD)/pgnkit
	@UPDATE=1 PGNKIT_REL_BIN=$(BUILD)/pgnkit PGNKIT_SHARED=$(SHARED) bash tests/cli/test_output_md5.sh
# the scripted UCI engine of tests/cli/test_analyze.sh
$(BUILD)/fake_engine: tests/tools/fake_engine.c tests/tools/fake_script.h $(BUILD)/libpgnkit.a
	$(CC) $(STD) $(OPT) $(WARN) -Iinclude -o $@ tests/tools/fake_engine.c $(BUILD)/libpgnkit.a $(LDLIBS)
$(BUILD)/slow/tests/%: tests/unit/%.c tests/harness.c tests/testutil.c $(BUILD)/libpgnkit.a
	@mkdir -p $(@D)
	$(CC) $(STD) $(OPT) $(WARN) -Iinclude -Itests -o $@ tests/unit/$*.c tests/harness.c tests/testutil.c \
	  $(BUILD)/libpgnkit.a $(LDLIBS)

# ---- the Python package (python/, issue 19): the extension built in place with Debian's Python ----
PYTHON ?= /usr/bin/python3
PY_DEPS := $(wildcard python/src/*.c python/src/*.h) python/setup.py $(LIB_SRC) $(wildcard include/*.h include/pgnkit/*.h src/*/*.h)
python: $(BUILD)/python.stamp
# the extension's own files and the library's, with the house warnings (-Werror under WERROR=1)
$(BUILD)/python.stamp: $(PY_DEPS)
	@mkdir -p $(BUILD)/python
	cd python && PGNKIT_CFLAGS="$(LIB_WARN)" $(PYTHON) setup.py -q build_ext --inplace --build-temp ../$(BUILD)/python
	@touch $@
# the package again, its extension built under ASan+UBSan, in $(BUILD)/python-asan/lib: the tests
# that run it (python/tests/test_asan.py) load it with the sanitizer runtime preloaded
# (python-asan.preload names it)
python-asan: $(BUILD)/python-asan.stamp
$(BUILD)/python-asan.stamp: $(PY_DEPS) $(wildcard python/pgnkit/*.py)
	@mkdir -p $(BUILD)/python-asan
	cd python && PGNKIT_CFLAGS="$(SAN_FLAGS) $(LIB_WARN)" PGNKIT_LDFLAGS="$(SAN_FLAGS)" $(PYTHON) setup.py -q \
	  build --build-base ../$(BUILD)/python-asan/tmp --build-lib ../$(BUILD)/python-asan/lib
	$(CC) -print-file-name=libasan.so > $(BUILD)/python-asan.preload
	@touch $@

# ---- robustness: fuzzing (clang's libFuzzer), pathological inputs, valgrind ----
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_TARGETS := reader roundtrip fen san json query scan repair db
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/fuzz/%.o)
FUZZ_BINS := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))
$(BUILD)/fuzz/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(STD) $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(LIB_WARN) $(CPPFLAGS_ALL) -MMD -MP -c $< -o $@
$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h fuzz/fuzz_log.h $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(STD) $(FUZZ_SAN) -fsanitize=fuzzer $(WARN) -Iinclude -o $@ $< $(FUZZ_LIB_OBJ) $(DB_LIBS)
fuzz: $(FUZZ_BINS)
# the same targets with the portable paths forced (PLAIN_BITS=1: bits.h, the movetext scan), in
# $(BUILD)/plain/fuzz/ (issue 32: the fuzz targets run with both the SIMD and the portable path)
fuzz-plain:
	@$(MAKE) --no-print-directory fuzz BUILD=$(BUILD)/plain PLAIN_BITS=1
fuzz-smoke: $(FUZZ_BINS) $(BUILD)/pgnkit
	@BUILD=$(BUILD) SHARED=$(SHARED) FUZZ_TIME=$(FUZZ_TIME) FUZZ_TARGETS="$(FUZZ_TARGETS)" tools/fuzz-smoke.sh

pathological: $(BUILD)/slow/tests/test_robust
	@PGNKIT_SLOW=1 PGNKIT_ROBUST_TABLE=1 $(BUILD)/slow/tests/test_robust

# Release build of the unit tests under memcheck: no error, no leak (the CLI tests are shell).
# PGNKIT_VALGRIND=1 makes the heavy suites lighter (corpus: edge files only; robust: fewer points;
# perft: a small node cap); make check runs them in full under ASan.
VALGRIND ?= valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
	--errors-for-leak-kinds=definite,indirect,possible --quiet
check-valgrind: $(SLOW_TESTS) $(BUILD)/pgnkit
	@PGNKIT_SHARED=$(SHARED) PGNKIT_VALGRIND=1 PGNKIT_PERFT_CAP=200000 LOGDIR=$(BUILD)/test-logs-valgrind \
	  PGNKIT_BIN=$(BUILD)/pgnkit PGNKIT_REL_BIN=$(BUILD)/pgnkit \
	  TEST_WRAPPER="$(VALGRIND)" tests/run_tests.sh $(SLOW_TESTS)

# The layering rule (STYLE C2): the order is tools/check-layers.sh's (--order prints it).
# And no circle of calls between the files of cli/ (tools/check-circles.sh, on their objects).
check-layers: $(CLI_OBJ)
	@tools/check-layers.sh && tools/check-layers.sh --self-test && tools/check-size.sh \
		&& tools/check-labels.sh && tools/check-labels.sh --self-test \
		&& tools/check-circles.sh $(CLI_OBJ) && tools/check-circles.sh --self-test

# ---- demo, bench, tables ----
demo-run: $(BUILD)/pgnkit
	@PGNKIT=$(BUILD)/pgnkit bash tools/demo.sh

bench: $(BUILD)/pgnkit $(BUILD)/bench_perft $(BUILD)/bench_read $(BUILD)/cpurun
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/run_bench.sh
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_io.sh
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_query.sh
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_parallel.sh
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_lang.sh
	@PGNKIT=$(BUILD)/pgnkit BUILD=$(BUILD) bash bench/bench_variants.sh
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_db.sh
# perft of each lichess variant beside Fairy-Stockfish's (docs/variants.md)
bench-variants: $(BUILD)/pgnkit $(BUILD)/cpurun
	@PGNKIT=$(BUILD)/pgnkit BUILD=$(BUILD) bash bench/bench_variants.sh
# other notations (German letters, descriptive) beside English (docs/notation.md)
bench-lang: $(BUILD)/pgnkit $(BUILD)/cpurun
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_lang.sh
# -j N: wall times of check and fmt at -j 1 and -j 2, plain, .gz and .zst, beside pgn-extract
bench-parallel: $(BUILD)/pgnkit $(BUILD)/cpurun
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_parallel.sh
# pgnkit select beside pgn-extract and pgnkit check (a few minutes)
bench-query: $(BUILD)/pgnkit $(BUILD)/cpurun
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_query.sh
# select beside Scoutfish (GPL, built from SCOUTFISH_SRC, a checkout of its source; or SCOUTFISH=binary)
# the game database (issue 30): import rate, size against the PGN, explore time (bench/bench_db.sh)
bench-db: $(BUILD)/pgnkit $(BUILD)/cpurun $(BUILD)/bench_db_select
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_db.sh
bench-scoutfish: $(BUILD)/pgnkit $(BUILD)/cpurun
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_scoutfish.sh
# the viewer page of the book in Chromium: shown within 5 s? (issue 36; bench/bench_html.sh)
bench-html: $(BUILD)/pgnkit
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) PYTHON=$(PYTHON) bash bench/bench_html.sh
# the Python package beside python-chess (PYTHON_CHESS_DIR: a copy of its source; bench/bench_python.py)
bench-python: python
	@SHARED=$(SHARED) $(PYTHON) bench/bench_python.py
# the reading and writing part of make bench alone (a few minutes; the perft part takes longer)
bench-io: $(BUILD)/pgnkit $(BUILD)/bench_read $(BUILD)/cpurun
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash bench/bench_io.sh
$(BUILD)/cpurun: bench/cpurun.c
	$(CC) $(STD) $(OPT) $(WARN) -o $@ bench/cpurun.c
$(BUILD)/bench_read: bench/bench_read.c $(BUILD)/libpgnkit.a
	$(CC) $(STD) $(OPT) $(WARN) -Iinclude -o $@ bench/bench_read.c $(BUILD)/libpgnkit.a $(LDLIBS)
$(BUILD)/bench_db_select: bench/bench_db_select.c $(BUILD)/libpgnkit.a
	$(CC) $(STD) $(OPT) $(WARN) -Iinclude -o $@ bench/bench_db_select.c $(BUILD)/libpgnkit.a $(PROG_LIBS) $(LDLIBS)
$(BUILD)/bench_perft: bench/bench_perft.c tests/twic_tokens.h $(BUILD)/libpgnkit.a
	$(CC) $(STD) $(OPT) $(WARN) -Iinclude -o $@ bench/bench_perft.c $(BUILD)/libpgnkit.a $(LDLIBS)

tables: $(BUILD)/gen_tables
	$(BUILD)/gen_tables > src/chess/tables.inc
# The ECO table (src/opening/eco_table.inc, committed) from the lichess table in $(SHARED)/data/eco.
ECO_TSV = $(wildcard $(SHARED)/data/eco/[a-e].tsv)
eco-table: $(BUILD)/gen_eco
	$(BUILD)/gen_eco "the lichess opening table, lichess-org/chess-openings at commit \
	$$(sed -n 's/.*at commit \([0-9a-f]*\).*/\1/p' $(SHARED)/data/eco/README.md) ($(notdir $(ECO_TSV))), \
	CC0 1.0 (public domain dedication)" $(ECO_TSV) > src/opening/eco_table.inc
$(BUILD)/gen_eco: tools/gen_eco.c $(BUILD)/libpgnkit.a
	$(CC) $(STD) -O2 $(WARN) -Iinclude -o $@ $< $(BUILD)/libpgnkit.a $(LDLIBS)
# the Celtic pieces (MIT, src/render/PIECES.md) as a C table; the output is committed
pieces:
	/usr/bin/python3 tools/gen_pieces.py $(SHARED)/data/pieces/celtic > src/render/pieces.inc
# the README's pictures, drawn by the program itself: a board with arrows, and the evaluation
# graph of a game analysed by Stockfish (fixed node count, one thread: the same every time)
pictures: $(BUILD)/pgnkit
	@PGNKIT=$(BUILD)/pgnkit SHARED=$(SHARED) BUILD=$(BUILD) bash tools/pictures.sh
$(BUILD)/gen_tables: tools/gen_tables.c
	@mkdir -p $(@D)
	$(CC) $(STD) -O2 $(WARN) -o $@ $<

FORMAT_FILES = $(wildcard include/*.h include/pgnkit/*.h src/*/*.c src/*/*.h cli/*.c cli/*.h tests/*.c tests/*.h \
	tests/unit/*.c tests/tools/*.c fuzz/*.c fuzz/*.h bench/*.c tools/*.c python/src/*.c python/src/*.h)
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "format-check: $(words $(FORMAT_FILES)) files clean"

# ---- install (issue 11): the versioned shared library with its soname and dev links, the static
# library, the headers, pgnkit.pc and the man page; uninstall removes exactly what install wrote.
VERSION := $(shell sed -n 's/^\#define PGNKIT_VERSION_STRING "\(.*\)"/\1/p' include/pgnkit.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
LIBDIR ?= $(PREFIX)/lib
MANDIR ?= $(PREFIX)/share/man
INSTALLED := $(DESTDIR)$(PREFIX)/bin/pgnkit $(DESTDIR)$(LIBDIR)/libpgnkit.a \
	$(DESTDIR)$(LIBDIR)/libpgnkit.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpgnkit.so.$(SOMAJOR) \
	$(DESTDIR)$(LIBDIR)/libpgnkit.so $(DESTDIR)$(LIBDIR)/pkgconfig/pgnkit.pc \
	$(DESTDIR)$(PREFIX)/include/pgnkit.h $(patsubst include/%,$(DESTDIR)$(PREFIX)/include/%,$(wildcard include/pgnkit/*.h)) \
	$(DESTDIR)$(MANDIR)/man1/pgnkit.1
man: $(BUILD)/pgnkit.1
# the man page's source is scdoc (man/pgnkit.1.scd); scdoc comes from tools/deps.sh
$(BUILD)/pgnkit.1: man/pgnkit.1.scd
	@mkdir -p $(@D)
	@if command -v scdoc >/dev/null 2>&1; then scdoc < $< > $@; \
	else echo "man page: scdoc is missing (apt-get install scdoc, or tools/deps.sh); not built" >&2; fi
install: all man
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/pgnkit \
	  $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(BUILD)/libpgnkit.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(BUILD)/libpgnkit.so $(DESTDIR)$(LIBDIR)/libpgnkit.so.$(VERSION)
	ln -sf libpgnkit.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpgnkit.so.$(SOMAJOR)
	ln -sf libpgnkit.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libpgnkit.so
	install -m 755 $(BUILD)/pgnkit $(DESTDIR)$(PREFIX)/bin/
	install -m 644 include/pgnkit.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/pgnkit/*.h $(DESTDIR)$(PREFIX)/include/pgnkit/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@IO_LIBS@|$(strip $(IO_ZLIBS))|' tools/pgnkit.pc.in \
	  > $(DESTDIR)$(LIBDIR)/pkgconfig/pgnkit.pc
	@if [ -s $(BUILD)/pgnkit.1 ]; then install -m 644 $(BUILD)/pgnkit.1 $(DESTDIR)$(MANDIR)/man1/; \
	else echo "install: the man page was not built (scdoc missing)" >&2; fi
# rewrites the README's command synopsis from the program's --help texts (tests/cli/test_docs.sh)
readme: $(BUILD)/pgnkit
	@tools/synopsis.sh $(BUILD)/pgnkit > $(BUILD)/synopsis.txt
	@awk -v f=$(BUILD)/synopsis.txt '/<!-- synopsis: begin/{print; print "```"; while ((getline l < f) > 0) print l; \
	  print "```"; skip=1; next} /<!-- synopsis: end/{skip=0} !skip' README.md > $(BUILD)/README.new && \
	  mv $(BUILD)/README.new README.md
uninstall:
	rm -f $(INSTALLED)
	-rmdir $(DESTDIR)$(PREFIX)/include/pgnkit 2>/dev/null

clean:
	rm -rf $(BUILD)

.SECONDARY:
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Regenerates tests/golden/*/*/{out,err,status} from the sanitizer build, for review (git diff).
golden-update: $(BUILD)/asan/pgnkit
	@GOLDEN_UPDATE=1 PGNKIT_BIN=$(BUILD)/asan/pgnkit PGNKIT_SHARED=$(SHARED) tests/cli/test_golden.sh
