# Stockpot: the two-command quick start (`make demo`, `make test`) and the other entry points.
# C libraries (Debian packages, installed by `make deps` when missing):
#   liblz4-dev, libxxhash-dev, libutf8proc-dev, libsodium-dev, libpq-dev (sync's PostgreSQL client),
#   and libsqlite3-dev (benchmark and tests only); the benchmark also loads librocksdb-dev,
#   libleveldb-dev, liblmdb-dev and libsqlcipher-dev at run time (installed by `Tools/deps.sh --bench`).
# The PostgreSQL server (Debian: postgresql, no pkg-config; found by its initdb): the sync tests
#   start a throwaway one in /tmp for the test process and stop it at the end (docs/sync.md).

SWIFT ?= swift
BENCH_ARGS ?=

.PHONY: all deps build demo test docs format crash crash-convert query-soak sql-soak sync-soak bench bench-queries bench-queries-1m bench-sql bench-report \
	bench-report-1m bench-tables clean \
	fuzz fuzz-build sanitize sanitize-thread sanitize-address

all: build

deps:
	@bash Tools/deps.sh

build: deps
	$(SWIFT) build

# The demo: builds the CLI in release, then `stockpot demo` creates ./demo-store (replacing
# an earlier demo store) with an Account soup on all five index kinds, ingests DEMO_ENTRIES
# generated Accounts with a progress bar, times a few lookups, and prints how to look at the
# store with the CLI. DEMO_ARGS adds arguments (e.g. a directory other than ./demo-store).
DEMO_ENTRIES ?= 100000
DEMO_ARGS ?=
demo: deps
	$(SWIFT) build -c release --product stockpot
	.build/release/stockpot demo --entries $(DEMO_ENTRIES) $(DEMO_ARGS)

# The layering rules first (docs/architecture.md, "Rules"): a forbidden import fails at once.
# The build fails on a compiler warning (Tools/build-tests.sh).
# The sync tests start their own PostgreSQL; whatever the tests return, any server a dead test
# process left running is stopped afterwards.
test: deps
	bash Tools/check-layers.sh
	bash Tools/lint.sh $(SWIFT)
	bash Tools/build-tests.sh $(SWIFT)
	bash Tools/build-docs.sh $(SWIFT) .build/docs
	$(SWIFT) test --skip-build; rc=$$?; bash Tools/stop-test-postgres.sh; exit $$rc

# Formats every Swift file with the toolchain's swift-format and .swift-format; `make test`
# fails while any file is not formatted so (Tools/lint.sh).
format:
	bash Tools/lint.sh $(SWIFT) --fix

# The DocC reference and articles (Sources/Stockpot/Stockpot.docc) as a static site in
# DOCS_OUTPUT; fails on any DocC warning (Tools/build-docs.sh). `make test` builds it too.
DOCS_OUTPUT ?= .build/docs
docs: deps
	bash Tools/build-docs.sh $(SWIFT) $(DOCS_OUTPUT)

# The long crash run: many more SIGKILLs of a writing child process than `make test` makes.
CRASH_KILLS ?= 3000
ALTER_KILLS ?= 300
crash: deps
	$(SWIFT) build --build-tests
	STOCKPOT_CRASH_KILLS=$(CRASH_KILLS) STOCKPOT_ALTER_KILLS=$(ALTER_KILLS) $(SWIFT) test --skip-build --filter CrashTests

# The long conversion kill run: encrypt, decrypt, rekey and rekey --rotate each killed
# CONVERT_KILLS times at random points (docs/testing.md); the store must open with exactly one
# of the old and new keys and hold every document each time.
CONVERT_KILLS ?= 500
crash-convert: deps
	$(SWIFT) build --build-tests
	STOCKPOT_CONVERT_KILLS=$(CONVERT_KILLS) $(SWIFT) test --skip-build --filter ConversionKillTests

# The long query differential run: many more random queries against SQLite than `make test`.
QUERY_ROUNDS ?= 20000
query-soak: deps
	$(SWIFT) build --build-tests
	STOCKPOT_QUERY_ROUNDS=$(QUERY_ROUNDS) $(SWIFT) test --skip-build --filter QueryDifferentialTests

# The long Smart SQL differential run: many more random statements against SQLite than
# `make test` (10,000), over soups SQL_SCALE times as large (the join budget grows with them).
SQL_ROUNDS ?= 200000
SQL_SCALE ?= 1
sql-soak: deps
	$(SWIFT) build --build-tests
	STOCKPOT_SMARTSQL_ROUNDS=$(SQL_ROUNDS) STOCKPOT_SMARTSQL_SCALE=$(SQL_SCALE) STOCKPOT_SMARTSQL_MAX_DIFFERENCES=20 \
		$(SWIFT) test --skip-build --filter SmartSQLDifferentialTests

# The long sync runs (docs/sync.md, "Testing"): the convergence test with SYNC_DEVICES devices
# over SYNC_ROUNDS rounds per policy, and the kill and fault tests with more kills and faults.
SYNC_DEVICES ?= 40
SYNC_ROUNDS ?= 20
SYNC_KILLS ?= 50
sync-soak: deps
	$(SWIFT) build --build-tests
	STOCKPOT_SYNC_DEVICES=$(SYNC_DEVICES) STOCKPOT_SYNC_ROUNDS=$(SYNC_ROUNDS) STOCKPOT_SYNC_KILLS=$(SYNC_KILLS) \
		$(SWIFT) test --skip-build --filter StockpotSyncTests; rc=$$?; bash Tools/stop-test-postgres.sh; exit $$rc

bench: deps
	@bash Tools/deps.sh --bench
	$(SWIFT) run -c release stockpot-bench $(BENCH_ARGS)

# The query workloads (docs/benchmarks.md, "Queries"): both sides load QUERY_DOCS generated
# Accounts (untimed), then time each query type. bench-queries-1m runs them at 1,000,000
# entries (loading alone takes several minutes).
QUERY_WORKLOADS = query.exact query.range query.like-prefix query.like-substring \
	query.match-ids query.match-count query.deep-page query.page-walk
QUERY_DOCS ?= 100000
bench-queries: deps
	$(SWIFT) build -c release --product stockpot-bench
	.build/release/stockpot-bench $(QUERY_WORKLOADS) --docs $(QUERY_DOCS) $(BENCH_ARGS)

bench-queries-1m:
	$(MAKE) bench-queries QUERY_DOCS=1000000

# The Smart SQL workloads (docs/benchmarks.md, "Smart SQL"): the same fixture as bench-queries (QUERY_DOCS Accounts plus one Contact each, loaded untimed), each
# statement through Stockpot's Smart SQL against SQLite running its SmartStore translation.
SQL_WORKLOADS = sql.count-where sql.group-by sql.join sql.order-limit
bench-sql: deps
	$(SWIFT) build -c release --product stockpot-bench
	.build/release/stockpot-bench $(SQL_WORKLOADS) --docs $(QUERY_DOCS) $(BENCH_ARGS)

# The results page: every report row (Benchmarks/StockpotBench/Report/ReportRow.swift) in
# REPORT_PROCESSES separate processes, the sides' order flipped between processes, over
# REPORT_DOCS accounts (every row takes hours here); writes Benchmarks/results/<date>-<commit>.jsonl
# and regenerates the tables of docs/benchmarks.md from it (REPORT_TABLES: earlier results
# files to show before it). The binary is copied first, so that a build during the run does
# not change what runs (with the `stockpot` binary that exec.request-memory starts beside it). REPORT_ARGS adds arguments (row names to run only those).
REPORT_DOCS ?= 100000
REPORT_PROCESSES ?= 5
REPORT_SECONDS ?= 3
REPORT_ARGS ?=
REPORT_TABLES ?=
bench-report: deps
	@bash Tools/deps.sh --bench
	$(SWIFT) build -c release --product stockpot-bench
	$(SWIFT) build -c release --product stockpot
	cp .build/release/stockpot-bench .build/stockpot-bench-report
	cp .build/release/stockpot .build/stockpot
	.build/stockpot-bench-report report --processes $(REPORT_PROCESSES) --docs $(REPORT_DOCS) \
		--timed-seconds $(REPORT_SECONDS) $(REPORT_ARGS) > .build/bench-report.path || true
	test -s .build/bench-report.path
	.build/stockpot-bench-report tables $(REPORT_TABLES) "$$(tail -1 .build/bench-report.path)" --page docs/benchmarks.md

# The results files docs/benchmarks.md shows, in page order; `make bench-tables` regenerates the
# page's tables from them (no benchmark runs). A new results file joins this list to reach the page.
PAGE_RESULTS = $(addprefix Benchmarks/results/, 2026-12-06-ea735d45f233.jsonl 2026-12-06-ea735d45f233-2.jsonl \
	2026-12-04-5c2544ef16b6.jsonl)
bench-tables:
	$(SWIFT) build -c release --product stockpot-bench
	.build/release/stockpot-bench tables $(PAGE_RESULTS) --page docs/benchmarks.md

# The report's pass at 1,000,000 entries (docs/benchmarks.md, "At 1,000,000 entries"): ingest,
# open, memory, the point get and the headline query rows, in REPORT_1M_PROCESSES processes
# (each process generates the corpus and reopens the fixture; the fixture's load alone takes
# several minutes). REPORT_TABLES as for bench-report.
REPORT_1M_ROWS = store.ingest3 store.ingest5 store.open store.memory store.get query.exact query.range \
	query.like-prefix query.like-substring query.match-ids query.match-count query.deep-page query.page-walk
REPORT_1M_PROCESSES ?= 3
bench-report-1m:
	$(MAKE) bench-report REPORT_DOCS=1000000 REPORT_PROCESSES=$(REPORT_1M_PROCESSES) REPORT_ARGS="$(REPORT_1M_ROWS)"

# Fuzzing with libFuzzer (docs/testing.md): builds the stockpot-fuzz driver in release with
# libFuzzer's coverage and FUZZ_SANITIZER into $(FUZZ_BUILD), then runs each of FUZZ_TARGETS
# for FUZZ_SECONDS, starting from the committed seeds (Tests/FuzzCorpus/TARGET), keeping what
# it finds in $(FUZZ_BUILD)/corpus/TARGET; a crash or failed property stops the run and leaves
# its input in $(FUZZ_BUILD)/artifacts/TARGET/. One target: `make fuzz FUZZ_TARGETS=json`.
FUZZ_TARGETS ?= json exec-request segment hint manifest dictionary snapshot-file store-snapshot \
	ordered-index-snapshot full-text-snapshot smart-sql match-expression like-pattern dump-reader \
	key-envelope sealed-segment encrypted-dump import-source
FUZZ_SECONDS ?= 60
FUZZ_SANITIZER ?= address
FUZZ_BUILD ?= .build/fuzz
FUZZ_ARGS ?=
# libFuzzer without its main (the driver's main calls LLVMFuzzerRunDriver): SwiftPM links an
# executable's own main, which clashes with the one -sanitize=fuzzer would link. The modules
# get the coverage instrumentation -sanitize=fuzzer would give them. Leak detection is off:
# Swift keeps enum case tags in a pointer's spare bits, so LeakSanitizer takes objects that
# such a pointer holds (a cached parsed statement's nodes) for unreachable.
FUZZ_RUNTIME ?= $(firstword $(wildcard $(dir $(realpath $(shell command -v $(SWIFT))))../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-$(shell uname -m).a))
fuzz-build: deps
	@test -n "$(FUZZ_RUNTIME)" || { echo "Error: libclang_rt.fuzzer_no_main not found in the Swift toolchain (set FUZZ_RUNTIME)"; exit 1; }
	$(SWIFT) build -c release --scratch-path $(FUZZ_BUILD) --product stockpot-fuzz \
		-Xswiftc -sanitize=$(FUZZ_SANITIZER) -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
		-Xswiftc -DSTOCKPOT_LIBFUZZER \
		-Xlinker --whole-archive -Xlinker $(FUZZ_RUNTIME) -Xlinker --no-whole-archive -Xlinker -lstdc++

fuzz: fuzz-build
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$target $(FUZZ_BUILD)/artifacts/$$target $(FUZZ_BUILD)/logs; \
		echo "== fuzz $$target for $(FUZZ_SECONDS) s (log: $(FUZZ_BUILD)/logs/$$target.log)"; \
		ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/release/stockpot-fuzz $$target -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -detect_leaks=0 \
			-artifact_prefix=$(FUZZ_BUILD)/artifacts/$$target/ $(FUZZ_ARGS) \
			$(FUZZ_BUILD)/corpus/$$target Tests/FuzzCorpus/$$target > $(FUZZ_BUILD)/logs/$$target.log 2>&1; \
		status=$$?; \
		grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|SUMMARY|FuzzFailure|Fatal error|artifact_prefix)' \
			$(FUZZ_BUILD)/logs/$$target.log; \
		test $$status -eq 0 || exit 1; \
	done

# The suite under ThreadSanitizer and AddressSanitizer (docs/testing.md), each in its own
# build folder. SANITIZE_FILTER narrows the tests run (a `swift test --filter` pattern);
# by default the whole suite runs. Suppressions: Tests/Sanitizers/.
SANITIZE_FILTER ?=
SANITIZE_TEST_ARGS = $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)',)
sanitize: sanitize-thread sanitize-address

sanitize-thread: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp" \
		$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan $(SANITIZE_TEST_ARGS)

sanitize-address: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	ASAN_OPTIONS="halt_on_error=1 detect_leaks=0" \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan $(SANITIZE_TEST_ARGS)

clean:
	$(SWIFT) package clean
