# SPDX-License-Identifier: GPL-2.0-or-later
# A thin wrapper around CMake so the README's two commands stay short.
#   make deps     install missing Debian packages (as root, apt-get)
#   make lab-deps the packages of the manual lab test (tests/lab/README.md)
#   make          build build/schedreplay
#   make demo     deps + build + the main job on a bundled real trace
#   make check    deps + build + every test, then again under ASan+UBSan,
#                 then a short smoke run of every fuzz harness
#   make fuzz-build   the libFuzzer harnesses in build-fuzz/ (clang-14)
#   make fuzz FUZZ_SECONDS=600   run each harness in turn (tests/fuzz/run.sh)
#   make install  install the binary and the man page (PREFIX=/usr/local)

PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PACKAGES = gcc make cmake pkg-config libtracecmd-dev libtraceevent-dev \
	libtracefs-dev libbpf-dev libjansson-dev libncurses-dev check trace-cmd jq tmux man-db \
	python3 python3-jsonschema time clickhouse-server clickhouse-client libzstd-dev zlib1g-dev \
	clang-14 libclang-rt-14-dev llvm-14 libnuma-dev xz-utils
# only for the manual lab test, tests/lab/ (not installed by deps/CI; its
# script installs what it lacks itself)
LAB_DEB_PACKAGES = qemu-system-x86 busybox-static numactl cpio gzip gcc libc6-dev trace-cmd jq

FUZZ_SECONDS ?= 600

.PHONY: all deps lab-deps build demo check test test-asan fuzz-build test-fuzz fuzz install clean

all: build

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi

lab-deps:
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(LAB_DEB_PACKAGES)

build:
	cmake -S . -B build -DCMAKE_INSTALL_PREFIX=$(PREFIX) -DSR_WERROR=ON
	cmake --build build -j$(JOBS)

demo: deps build
	./build/schedreplay replay fixtures/numa01-4n

test: build
	cd build && ctest --output-on-failure -j$(JOBS)

test-asan:
	cmake -S . -B build-asan -DSR_SANITIZE=address,undefined -DSR_WERROR=ON
	cmake --build build-asan -j$(JOBS)
	cd build-asan && CK_FORK=no ASAN_OPTIONS=detect_leaks=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp ctest --output-on-failure -j$(JOBS) -LE lab

# The harnesses (SR_FUZZ=ON) need clang; CC only for this build folder.
fuzz-build:
	CC=clang-14 cmake -S . -B build-fuzz -DSR_FUZZ=ON -DSR_BUILD_TESTS=OFF -DSR_WERROR=ON
	cmake --build build-fuzz -j$(JOBS)

# Each harness replays its seeds and regressions, then fuzzes 15 s (one at a time).
test-fuzz: fuzz-build
	cd build-fuzz && ctest --output-on-failure -L fuzz

fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_SECONDS)

check: deps
	$(MAKE) test
	$(MAKE) test-asan
	$(MAKE) test-fuzz

install: build
	cmake --install build

clean:
	rm -rf build build-asan build-fuzz
