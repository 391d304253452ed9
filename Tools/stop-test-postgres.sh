#!/usr/bin/env bash
# Stops the throwaway PostgreSQL servers the sync tests started (Tests/StockpotTestSupport/
# TestPostgres.swift) whose test process is gone, and removes their directories. `make test`
# runs it after the tests whatever they returned. Only /tmp/stockpot-test-pg-PID-* directories,
# which only this project makes, are touched; a running test process's server is left alone.
set -u
for dir in /tmp/stockpot-test-pg-*; do
  [ -d "$dir" ] || continue
  name=${dir#/tmp/stockpot-test-pg-}
  pid=${name%%-*}
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    continue  # its test process still runs and stops it at exit
  fi
  if [ -f "$dir/data/postmaster.pid" ]; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    if [ "$(id -u)" -eq 0 ]; then
      runuser -u postgres -- "$bindir/pg_ctl" stop -D "$dir/data" -m immediate >/dev/null 2>&1
    else
      "$bindir/pg_ctl" stop -D "$dir/data" -m immediate >/dev/null 2>&1
    fi
    echo "stop-test-postgres: stopped the server in $dir"
  fi
  rm -rf "$dir"
done
exit 0
