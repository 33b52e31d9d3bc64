# Sluice: the two commands a user needs are `make demo` and `make test` (see README.md).
#   make build  - builds build/sluice (optimized, with debug info)
#   make test   - installs what is missing, builds with ASan+UBSan and runs every test
#   make bench  - builds in release and runs the benchmarks
#   make demo   - runs the example pipeline on embedded defaults
SHELL := /bin/bash
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: deps build test bench demo clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSLUICE_BUILD_TESTS=OFF $(CMAKE_FLAGS) >/dev/null
	@ninja -C build -j $(JOBS) sluice

test: deps
	@cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSLUICE_SANITIZE=ON -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" $(CMAKE_FLAGS) >/dev/null
	@ninja -C build-asan -j $(JOBS)
	@cd build-asan && ctest --output-on-failure -j $(JOBS)

bench: deps
	@cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_TESTS=OFF -DSLUICE_BUILD_BENCH=ON $(CMAKE_FLAGS) >/dev/null
	@ninja -C build-release -j $(JOBS)
	@bash bench/run.sh build-release

demo: build
	@bash examples/demo.sh build/sluice

clean:
	rm -rf build build-asan build-release
