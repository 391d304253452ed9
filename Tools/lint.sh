#!/usr/bin/env bash
# The toolchain's swift-format, with the house style of .swift-format (4-space indents, lines up
# to 150 characters, the rules that agree with the house style), over every Swift file: `make
# test` fails on any finding, so the tree stays formatted. `Tools/lint.sh SWIFT --fix` rewrites
# the files in place instead (`make format`).
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${1:-swift}
toolchain=$(dirname "$(readlink -f "$(command -v "$swift")")")
format="$toolchain/swift-format"
[ -x "$format" ] || { echo "lint: swift-format is not in the Swift toolchain ($toolchain)" >&2; exit 1; }
folders=(Sources Tests Benchmarks Tools Package.swift)
if [ "${2:-}" = "--fix" ]; then
  exec "$format" format --in-place --recursive --parallel "${folders[@]}"
fi
findings=$("$format" lint --recursive --parallel "${folders[@]}" 2>&1)
if [ -n "$findings" ]; then
  printf '%s\n' "$findings" | head -50 >&2
  echo "lint: $(printf '%s\n' "$findings" | wc -l) swift-format finding(s); 'bash Tools/lint.sh swift --fix' formats the tree" >&2
  exit 1
fi
echo "lint: swift-format finds nothing"
