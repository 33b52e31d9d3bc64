#!/usr/bin/env bash
# Installs the Debian packages Sluice needs to build, test and benchmark, and only those missing.
# Runs as root, or through sudo when not root. Called by every Makefile target that builds.
set -euo pipefail

PACKAGES=(
  g++ cmake ninja-build pkg-config ccache make python3
  clang libclang-rt-14-dev                     # `make test` and `make fuzz` build with clang: libFuzzer (tests/fuzz)
  libgtest-dev libgmock-dev libbenchmark-dev   # tests and benchmarks
  libsimdjson-dev                              # JSON format: SIMD parsing, the fastest packaged parser
  libfmt-dev                                   # message formatting
  libre2-dev                                   # Kafka 'topic-pattern': linear-time regular expressions
  libpcre2-dev                                 # REGEXP_* / SIMILAR TO: Java's regex syntax and matching, JIT-compiled (function/regex.h)
  libcli11-dev                                 # the sluice command line
  libxxhash-dev                                # hashing keys for state and exchanges
  libhowardhinnant-date-dev tzdata             # IANA time zones (CONVERT_TZ, TIMESTAMP_LTZ)
  libabsl-dev                                  # flat hash maps for keyed state
  libsqlite3-dev sqlite3                       # the independent batch engine of the differential tests
  libzstd-dev                                  # compression of checkpoint files and Parquet pages (zstd)
  libsnappy-dev                                # Parquet and Avro snappy codec (Iceberg readers and writers)
  zlib1g-dev                                   # Avro 'deflate' and Parquet gzip codecs (Iceberg manifests)
  libroaring-dev                               # Iceberg deletion vectors (Puffin 'deletion-vector-v1')
  libcurl4-openssl-dev                         # HTTP for the Iceberg REST catalog client and S3 (src/connectors/s3)
  libssl-dev                                   # SHA-256/HMAC for AWS Signature V4 (S3 requests; no Debian S3 client fits: libs3 2.0 has no session tokens)
  librdkafka-dev                               # the kafka and upsert-kafka connectors (and their mock cluster)
  openjdk-17-jdk-headless maven                # interop oracles only: the Iceberg Java reference reader (tests/interop/java)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
