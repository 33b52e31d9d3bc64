# Sluice: the two commands a user needs are `make demo` and `make test` (see README.md).
#   make build  - builds build/sluice (optimized, with debug info)
#   make test   - installs what is missing, builds with clang, ASan+UBSan and runs every test
#                 (the libFuzzer targets for 30 s each among them)
#   make bench  - builds in release and runs the benchmarks
#   make bench-flink - the Nexmark queries on Sluice and on Apache Flink 2.2.1, same machine, same run:
#                 events/s, CPU seconds, peak RSS and the ratios (docs/performance.md; Java 17 and Maven;
#                 BENCH_EVENTS=1000000 for a shorter run, BENCH_QUERIES=q0,q5 for some queries)
#   make demo   - runs the example pipeline on embedded defaults (LAKE=polaris: its Iceberg tables in s3://
#                 behind a Polaris catalog, local S3 server and Polaris stand-in; Java 17 and Maven)
#   make fuzz   - runs each libFuzzer target for FUZZ_SECONDS (600) in the test build (tests/fuzz)
#   make crash-kafka RUNS=N - the crash harness on a real Kafka broker: Kafka source -> random stateful
#                 pipeline -> 'exactly-once' Kafka sinks, killed and restarted (tests/crash, docs/kafka.md;
#                 Java 17 and Maven; RUNS defaults to 100)
#   make test-flink - the same scripts on Apache Flink 2.2.1 and on build/sluice, compared
#                 (tests/flink, docs/flink.md; Java 17 and Maven; a few minutes, Flink's results cached)
#   make test-flink-larkspur - the seed's Larkspur pipeline on Flink 2.2.1 and on build/sluice over the same
#                 Kafka topics (a real broker) into two Iceberg warehouses, compared side by side
#                 (tests/flink/larkspur_side_by_side.py, docs/flink_differences.md; Java 17 and Maven; ~3 minutes)
#   make test-flink-random N=2000 SEED=7 - N random queries and inputs from SEED on both, compared
#                 (tests/flink/random_queries.py; about a second per query)
#   make test-kafka-failover - three Kafka brokers, the partition leader killed and restarted while an
#                 exactly-once job runs (docs/kafka.md; about 2 minutes, most of it starting brokers)
SHELL := /bin/bash
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := sql json csv debezium_json checkpoint parquet avro iceberg_metadata

# The test build: clang (libFuzzer), ASan+UBSan, and libFuzzer's coverage instrumentation so the fuzz
# targets are extra executables of the same build. A build-asan configured with another compiler
# (gcc, before the fuzz targets) is started afresh.
define configure_asan
	@if [ -f build-asan/CMakeCache.txt ] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang' build-asan/CMakeCache.txt; then \
	  rm -rf build-asan; fi
	@cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DSLUICE_SANITIZE=ON \
	  -DSLUICE_BUILD_FUZZ=ON -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" $(CMAKE_FLAGS) >/dev/null
endef

.PHONY: deps build test test-flink test-flink-larkspur test-flink-random test-kafka-failover crash-kafka fuzz bench bench-flink demo clean
RUNS ?= 100

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSLUICE_BUILD_TESTS=OFF $(CMAKE_FLAGS) >/dev/null
	@ninja -C build -j $(JOBS) sluice

test: deps
	$(configure_asan)
	@ninja -C build-asan -j $(JOBS)
	@cd build-asan && ctest --output-on-failure -j $(JOBS)

test-flink: build
	@nice -n 10 python3 tests/flink/run_differential.py --sluice build/sluice

# LARKSPUR_STORES=150 for a smaller replay (the ctest entry's).
LARKSPUR_STORES ?= 600
test-flink-larkspur: build
	@nice -n 10 bash tests/interop/kafka_broker.sh python3 tests/flink/larkspur_side_by_side.py --sluice build/sluice \
	  --stores $(LARKSPUR_STORES)

crash-kafka: build
	@nice -n 10 python3 tests/crash/crash_harness.py --sluice build/sluice --kafka --runs $(RUNS)

N ?= 200
SEED ?= 1
test-flink-random: build
	@nice -n 10 python3 tests/flink/random_queries.py --sluice build/sluice --n $(N) --seed $(SEED) --quiet

test-kafka-failover: build
	@bash tests/interop/kafka_cluster.sh python3 tests/interop/kafka_failover_test.py build/sluice

fuzz: deps
	$(configure_asan)
	@ninja -C build-asan -j $(JOBS) fuzz_targets
	@failed=0; for t in $(FUZZ_TARGETS); do \
	  bash tests/fuzz/run_fuzz.sh build-asan/tests/fuzz/$${t}_fuzz $$t $(FUZZ_SECONDS) build-asan/tests/fuzz/work || failed=1; \
	done; exit $$failed

bench: deps
	@cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_TESTS=OFF -DSLUICE_BUILD_BENCH=ON $(CMAKE_FLAGS) >/dev/null
	@ninja -C build-release -j $(JOBS)
	@bash bench/run.sh build-release

BENCH_EVENTS ?= 10000000
BENCH_QUERIES ?=
bench-flink: deps
	@cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_TESTS=OFF -DSLUICE_BUILD_BENCH=ON $(CMAKE_FLAGS) >/dev/null
	@ninja -C build-release -j $(JOBS) sluice nexmark_events
	@python3 bench/flink/bench_flink.py --sluice build-release/sluice --nexmark-events build-release/bench/nexmark_events \
	  --events $(BENCH_EVENTS) $(if $(BENCH_QUERIES),--queries $(BENCH_QUERIES))

# make demo KAFKA=host:port: the pipeline once more on that Kafka broker (examples/larkspur/README.md).
# make demo LAKE=polaris: its Iceberg tables in s3:// behind a Polaris catalog (local S3 server and a
# Polaris stand-in; examples/larkspur/README.md).
demo: build
	@KAFKA="$(KAFKA)" LAKE="$(LAKE)" bash examples/demo.sh build/sluice

clean:
	rm -rf build build-asan build-release
