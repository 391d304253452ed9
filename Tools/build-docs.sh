#!/usr/bin/env bash
# Builds the DocC reference and articles of the Stockpot library (Sources/Stockpot/Stockpot.docc)
# into a static site (`make docs`), and fails on any DocC warning, so that every symbol link
# in the articles and in the `///` comments resolves. The library's symbol graph is extracted
# from the debug build's module with the toolchain's swift-symbolgraph-extract, and `docc
# convert` turns it and the catalog into the site. `make test` runs it too.
# Usage: Tools/build-docs.sh SWIFT OUTPUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${1:-swift}
output=${2:-.build/docs}
toolchain=$(dirname "$(readlink -f "$(command -v "$swift")")")
for tool in docc swift-symbolgraph-extract; do
  [ -x "$toolchain/$tool" ] || { echo "docs: $tool is not in the Swift toolchain ($toolchain)" >&2; exit 1; }
done
"$swift" build --target Stockpot >/dev/null || exit 1
modules="$("$swift" build --show-bin-path)/Modules"
graphs=.build/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
includes=()
for shim in Sources/C*; do includes+=(-I "$shim"); done
"$toolchain/swift-symbolgraph-extract" -module-name Stockpot -I "$modules" "${includes[@]}" \
  -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public -output-dir "$graphs" || exit 1
rm -rf "$output"
"$toolchain/docc" convert Sources/Stockpot/Stockpot.docc --fallback-display-name Stockpot \
  --fallback-bundle-identifier org.stockpot.Stockpot --additional-symbol-graph-dir "$graphs" \
  --output-path "$output" --transform-for-static-hosting > .build/docc.log 2>&1
status=$?
if [ "$status" -ne 0 ] || grep -q 'warning:' .build/docc.log; then
  cat .build/docc.log >&2
  echo "docs: docc failed or warned (status $status); the reference is kept free of warnings" >&2
  exit 1
fi
echo "docs: $output (open $output/documentation/stockpot/index.html through a web server)"
