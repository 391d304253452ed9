#!/usr/bin/env bash
# The layering rules of docs/architecture.md ("Rules"), checked by reading every source file's
# imports: a module may import only the modules listed for it below (plus the toolchain's own:
# Foundation, Glibc, Darwin, Dispatch, Synchronization). `make test` runs this first; it prints
# each forbidden import with its file and line and exits 1 when there is one.
set -u
cd "$(dirname "$0")/.."

system="Foundation Glibc Darwin Dispatch Synchronization"
# folder | modules its files may import
rules=(
  "Sources/StockpotCore|CXXHash CPrefetch CThreadStack"
  "Sources/StockpotJSON|CThreadStack"
  "Sources/StockpotStorage|StockpotCore CLZ4 CXXHash CPrefetch CFileHints CRenameExchange CSodium"
  "Sources/StockpotIndex|StockpotCore StockpotJSON CUTF8Proc CPrefetch"
  "Sources/StockpotQuery|StockpotCore StockpotJSON StockpotIndex"
  "Sources/Stockpot|StockpotCore StockpotJSON StockpotStorage StockpotIndex StockpotQuery"
  "Sources/StockpotSync|StockpotCore Stockpot StockpotJSON CLibPQ"
  "Sources/StockpotTools|StockpotCore Stockpot StockpotJSON StockpotStorage StockpotSync CLibEdit"
  "Tools/stockpot|StockpotTools"
)

failures=0
for rule in "${rules[@]}"; do
  folder=${rule%%|*}
  allowed="$system ${rule#*|}"
  while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    module=$(printf '%s' "${rest#*:}" | sed -E 's/^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+(class |struct |enum |func |protocol )?([A-Za-z0-9_]+).*/\3/')
    case " $allowed " in
      *" $module "*) ;;
      *)
        echo "forbidden import: $file:$line imports $module; $folder may import only: ${rule#*|}" >&2
        failures=$((failures + 1))
        ;;
    esac
  done < <(grep -rnE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]' "$folder" --include='*.swift' 2>/dev/null)
done

# The benchmark peers and the test oracle never reach the product.
if grep -rlE '^[[:space:]]*import[[:space:]]+CSQLite' Sources Tools --include='*.swift' >/dev/null 2>&1; then
  echo "forbidden import: SQLite (CSQLite) is imported by product code; it belongs to Benchmarks/ and Tests/ only" >&2
  failures=$((failures + 1))
fi

# The JSON layer knows JSON only: no store field is named there (the store names them).
while IFS= read -r hit; do
  [ -n "$hit" ] || continue
  echo "store field in the JSON layer: $hit; StockpotJSON must not name the store's fields" >&2
  failures=$((failures + 1))
done < <(grep -rnE '"_soup[A-Za-z]*"' Sources/StockpotJSON --include='*.swift' 2>/dev/null)

if [ "$failures" -gt 0 ]; then
  echo "check-layers: $failures broken rule(s)" >&2
  exit 1
fi
echo "check-layers: every import follows docs/architecture.md"
