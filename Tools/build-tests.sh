#!/usr/bin/env bash
# Builds the package with its tests (`make test`'s build step) and fails on a compiler
# warning, so the count stays at zero: every `path:line:col: warning:` line of the build is
# printed again and the step exits 1. SwiftPM's own notes (a pkg-config flag it drops) carry
# no source path and do not count. An incremental build shows the warnings of the files it
# compiles, so a new warning is caught where it is written.
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${1:-swift}
mkdir -p .build
"$swift" build --build-tests 2>&1 | tee .build/build-tests.log
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || exit "$status"
warnings=$(grep -E '^/[^ ]+:[0-9]+:[0-9]+: warning: ' .build/build-tests.log | sort -u)
if [ -n "$warnings" ]; then
  printf '%s\n' "$warnings" >&2
  echo "build: $(printf '%s\n' "$warnings" | wc -l) compiler warning(s); make test keeps them at zero" >&2
  exit 1
fi
