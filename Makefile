# SPDX-License-Identifier: GPL-2.0-only
# tracemap build: ./tracemap from cmd/ linked against build/libtracemap.a from lib/.

VERSION		:= 0.1.0
PREFIX		?= /usr/local
DESTDIR		?=
BINDIR		:= $(PREFIX)/bin
MANDIR		:= $(PREFIX)/share/man/man1
COMPDIR		:= $(PREFIX)/share/bash-completion/completions

CC		?= cc
PKGS		:= libtracefs libtraceevent libzstd
BUILD		:= build
ASAN_BUILD	:= $(BUILD)/asan

PKG_CFLAGS	:= $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS	:= $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS		?= -O2 -g
BASE_CFLAGS	:= -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Ilib \
		   $(PKG_CFLAGS) -DTM_VERSION='"$(VERSION)"' -MMD -MP -pthread
SAN_FLAGS	:= -fsanitize=address,undefined -fno-omit-frame-pointer \
		   -fno-sanitize-recover=undefined
LDLIBS		:= $(PKG_LIBS) -pthread -ldl

LIB_SRC		:= $(sort $(wildcard lib/*.c))
CMD_SRC		:= $(sort $(wildcard cmd/*.c))
UNIT_SRC	:= $(sort $(wildcard tests/unit/*.c))

LIB_OBJ		:= $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ		:= $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_OBJ	:= $(UNIT_SRC:%.c=$(BUILD)/%.o)
ASAN_LIB_OBJ	:= $(LIB_SRC:%.c=$(ASAN_BUILD)/%.o)
ASAN_CMD_OBJ	:= $(CMD_SRC:%.c=$(ASAN_BUILD)/%.o)
ASAN_UNIT_OBJ	:= $(UNIT_SRC:%.c=$(ASAN_BUILD)/%.o)

PKG_STAMP	:= $(BUILD)/.pkgs-ok

# Debian packages the build, tests and demo need (only missing ones are installed).
DEB_PKGS	:= build-essential pkg-config libtracefs-dev libtraceevent-dev \
		   libtraceevent1-plugin libzstd-dev bats jq groff-base clang libclang-rt-14-dev \
		   trace-cmd libtracecmd-dev util-linux procps strace bc time

.PHONY: all deps check fuzz demo install clean asan

all: tracemap

$(PKG_STAMP):
	@mkdir -p $(BUILD)
	@for p in $(PKGS); do \
		pkg-config --exists $$p || { \
			echo "tracemap: missing build dependency: $$p (pkg-config cannot find $$p.pc; run 'make deps' as root)" >&2; \
			exit 1; }; \
	done
	@touch $@

tracemap: $(CMD_OBJ) $(BUILD)/libtracemap.a
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libtracemap.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/libtracemap.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c | $(PKG_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -c -o $@ $<

$(ASAN_BUILD)/%.o: %.c | $(PKG_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -O1 -g $(BASE_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(ASAN_BUILD)/libtracemap.a: $(ASAN_LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# The sanitizer build of the CLI: the bats tests run it.
$(ASAN_BUILD)/tracemap: $(ASAN_CMD_OBJ) $(ASAN_BUILD)/libtracemap.a
	$(CC) -g $(BASE_CFLAGS) $(SAN_FLAGS) -o $@ $(ASAN_CMD_OBJ) $(ASAN_BUILD)/libtracemap.a $(LDLIBS)

$(BUILD)/unit-tests: $(UNIT_OBJ) $(BUILD)/libtracemap.a
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -o $@ $^ $(LDLIBS)

$(ASAN_BUILD)/unit-tests: $(ASAN_UNIT_OBJ) $(ASAN_BUILD)/libtracemap.a
	$(CC) -g $(BASE_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

asan: $(ASAN_BUILD)/tracemap $(ASAN_BUILD)/unit-tests

deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "tracemap: missing packages; run as root: apt-get update && apt-get install -y$$missing" >&2; exit 1; \
	fi; \
	echo "installing:$$missing"; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing


FUZZ_TARGET	:= $(if $(wildcard tests/fuzz/fuzz_reader.c),$(BUILD)/fuzz-reader)

check: deps
	@$(MAKE) --no-print-directory all asan $(BUILD)/unit-tests $(FUZZ_TARGET)
	@bash tests/run-all.sh

# libFuzzer target for the trace.dat reader (clang), seeded with the fixtures.
FUZZ_SECONDS	?= 60
$(BUILD)/fuzz-reader: tests/fuzz/fuzz_reader.c $(LIB_SRC) $(wildcard lib/*.h) | $(PKG_STAMP)
	@mkdir -p $(BUILD)
	clang -g -O1 -std=gnu11 -D_GNU_SOURCE -Ilib $(PKG_CFLAGS) -DTM_VERSION='"$(VERSION)"' \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-o $@ tests/fuzz/fuzz_reader.c $(LIB_SRC) $(LDLIBS)

fuzz: $(BUILD)/fuzz-reader
	@bash tests/fuzz/run.sh $(FUZZ_SECONDS)

# Two seconds of sched events system-wide, then the report's head and the stats.
demo: deps
	@$(MAKE) --no-print-directory all
	./tracemap record -q -e sched --duration 2 -o demo.dat
	./tracemap report demo.dat | head -n 20
	./tracemap report --stat demo.dat

install: tracemap
	install -D -m 0755 tracemap $(DESTDIR)$(BINDIR)/tracemap
	install -d $(DESTDIR)$(MANDIR)
	install -m 0644 man/*.1 $(DESTDIR)$(MANDIR)/
	install -D -m 0644 completions/tracemap.bash $(DESTDIR)$(COMPDIR)/tracemap

clean:
	rm -rf $(BUILD) tracemap demo.dat

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(UNIT_OBJ:.o=.d)
-include $(ASAN_LIB_OBJ:.o=.d) $(ASAN_CMD_OBJ:.o=.d) $(ASAN_UNIT_OBJ:.o=.d)
