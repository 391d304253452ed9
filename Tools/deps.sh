#!/usr/bin/env bash
# Installs the C libraries the package links, when pkg-config cannot find them, and the
# PostgreSQL server the sync tests start.
# Used by `make deps`; safe to run again (it installs nothing that is present).
# `--bench` also installs what the benchmark loads at run time: the key-value peers (RocksDB,
# LevelDB, LMDB) and SQLCipher (`--sqlite sqlcipher`); `make bench` and `make bench-report`
# pass it, nothing else needs them.
set -euo pipefail

# pkg-config name -> Debian package that provides it.
declare -A PROVIDERS=(
  [liblz4]=liblz4-dev            # segment record compression
  [libxxhash]=libxxhash-dev      # record and file checksums
  [libutf8proc]=libutf8proc-dev  # Unicode folding for the full-text tokenizer
  [libsodium]=libsodium-dev      # encryption at rest (docs/encryption.md)
  [sqlite3]=libsqlite3-dev       # benchmark baseline and test oracle only
  [libpq]=libpq-dev              # sync's PostgreSQL client (docs/sync.md)
  [libedit]=libedit-dev          # line editing and history in `stockpot shell`
)

# Benchmark-only peers: Debian package -> a shared library it installs.
declare -A BENCH_PEERS=(
  [librocksdb-dev]=librocksdb.so
  [libleveldb-dev]=libleveldb.so
  [liblmdb-dev]=liblmdb.so
  [libsqlcipher-dev]=libsqlcipher.so
)

missing=()
if [ "${1:-}" = "--bench" ]; then
  for package in "${!BENCH_PEERS[@]}"; do
    if ! ldconfig -p 2>/dev/null | grep -q "${BENCH_PEERS[$package]}"; then
      missing+=("$package")
    fi
  done
fi
if ! command -v pkg-config >/dev/null 2>&1; then
  missing+=(pkg-config)
fi
for lib in "${!PROVIDERS[@]}"; do
  if ! pkg-config --exists "$lib" 2>/dev/null; then
    missing+=("${PROVIDERS[$lib]}")
  fi
done

# The PostgreSQL server the sync tests start (no pkg-config file: look for its initdb).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all C libraries present (${!PROVIDERS[*]})"
  exit 0
fi

echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
else
  echo "deps: cannot install as this user. Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

for lib in "${!PROVIDERS[@]}"; do
  pkg-config --exists "$lib" || { echo "deps: $lib still missing after install" >&2; exit 1; }
done
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "deps: postgresql (initdb) still missing after install" >&2; exit 1; }
echo "deps: installed ${missing[*]}"
