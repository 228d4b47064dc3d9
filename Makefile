# tilepdb: build, verify and test pattern databases.
#   make data   build the tables data/MANIFEST.tsv lists (the default set:
#               8puzzle, 15-555, 15-663) into data/, only those missing or bad:
#               a table already there that matches the manifest and passes
#               verify is kept; a new one must match the manifest and pass
#               verify before it is written
#   make ci-tables  the CI recipe (scripts/ci-tables.sh) twice on a fresh folder
#   make test   gofmt, go vet, the unit tests with the race detector (the heavy
#               ones without it), the examples of README.md and docs/ (make readme-test)
#   make cross  build and vet for Windows, macOS, arm64 and 32-bit x86, and
#               check that go.mod and go.sum are tidy
#   make bench  benchmarks and long runs (minutes); see docs/performance.md
#   make readers-test  JavaScript, Java and Python readers: their tests and a
#               cross-check against pdbgen lookup (after make data; scripts/ci-readers.sh
#               installs)
#   make web-test      the browser solver in headless Chromium (after make data)
#   make beam-test  the Apache Beam module (beam/, its own go.mod): gofmt, vet,
#               tidy, its tests on Prism in-process and on a Prism job server
#               with two worker-pool processes (the first run downloads and
#               compiles Beam: minutes)
#   make beam-build  bin/pdbgen-beam (docs/sharding.md, "Building on Apache Beam")
SHELL := bash
GO ?= go
PDBGEN := bin/pdbgen
J ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: lint all build data ci-tables test readme-test vet fmt-check cross bench bench-presets bench-korf24 long fuzz clean readers-test web-test beam-test beam-build

all: build

build:
	$(GO) build -o $(PDBGEN) ./cmd/pdbgen

data: build
	$(PDBGEN) build --if-needed -j $(J) -o data --manifest data/MANIFEST.tsv

# The CI recipe of docs/ci.md (scripts/ci-tables.sh) on a fresh folder, twice
# with one cache: the first run builds, verifies and fills the cache; the
# second restores every table from it and must build nothing.
ci-tables: build
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	for run in 1 2; do \
	  rm -rf "$$tmp/data" && mkdir -p "$$tmp/data" && cp data/MANIFEST.tsv "$$tmp/data/" && \
	  PDBGEN=$(PDBGEN) J=$(J) CACHE_DIR="$$tmp/cache" REPORTS="$$tmp/reports$$run" ARTIFACT="$$tmp/tables.tar.gz" \
	    scripts/ci-tables.sh "$$tmp/data/MANIFEST.tsv" || exit $$?; \
	done && \
	if grep -v '"action":"kept"' "$$tmp/reports2/build.jsonl"; then \
	  echo "ci-tables: the second run did not keep every table" >&2; exit 1; fi && \
	tar -tzf "$$tmp/tables.tar.gz" && \
	echo "ci-tables: recipe ok: second run restored and kept all $$(wc -l < "$$tmp/reports2/build.jsonl") tables"

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# make test runs every test with the race detector, in -short mode: the
# CPU-heavy correctness tests (whole state spaces, reference builds,
# Korf's instances) then run a smaller variant, or none (RACE_SKIP). Those
# tests then run in full without the race detector, which is about ten
# times faster on them, so no correctness check is lost; make long runs
# the long ones (-long). Then the examples of README.md and docs/ (scripts/readme-examples.sh).
# CATALOGUE663: the pdbgen tests of the 15-663 catalogue, whose shared
# fixture builds the 15-663 preset unless data/ has it: 90 of the 215 s of
# cmd/pdbgen under the race detector, 5 s without; the code they drive
# (lookup, verify of a set, solve) is raced by the other tests. Likewise
# TestPlanCataloguePreset, single-threaded planning of the 24-best
# catalogue: 25 to 52 s under the race detector, 5 s without.
CATALOGUE663 := TestLookupCatalogue|TestVerifyCatalogue|TestSolveCatalogue663|TestPlanCataloguePreset
HEAVY := TestBuildMatchesReference|TestBuildShardedMatchesBuild|TestBuildOutOfCore|TestBuildOutOfCoreResume|TestDeterministic|TestHistogramA089473|TestPublishedMeans|TestExact8AllStates|TestKorfEasy|Test8AllAlgorithms|TestKorfEasyAlgorithms|TestRandom15Algorithms|TestBidirectional15|TestBidirectionalVsBFS|TestSolveKorf|$(CATALOGUE663)
RACE_SKIP := TestDeterministic|TestHistogramA089473|TestBidirectionalVsBFS|TestSolveKorf|$(CATALOGUE663)

test: fmt-check vet
	$(GO) test -race -short -skip '^($(RACE_SKIP))$$' -timeout 15m ./...
	$(GO) test -timeout 15m -run '^($(HEAVY))$$' ./...
	scripts/readme-examples.sh

# The examples of README.md and docs/ in a fresh copy of the checkout (git status stays clean).
readme-test: build
	scripts/readme-examples.sh

# Other platforms: every package builds and passes go vet (tests included)
# for each target; on a linux/amd64 host the 32-bit limits are also tested
# natively with GOARCH=386, when the kernel runs 32-bit x86 programs (a
# probe runs a 386 test binary first; where it cannot, the tests are
# skipped and the target says so). go mod tidy -diff fails when go.mod or
# go.sum would change.
CROSS := windows/amd64 darwin/amd64 darwin/arm64 linux/arm64 linux/386

cross:
	@set -e; for t in $(CROSS); do \
		echo "GOOS=$${t%/*} GOARCH=$${t#*/}: build, vet"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build ./...; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./...; \
	done
	@if [ "$$($(GO) env GOHOSTOS)/$$($(GO) env GOHOSTARCH)" = linux/amd64 ]; then \
		probe=$$(mktemp -d) && trap 'rm -rf "$$probe"' EXIT && \
		GOARCH=386 $(GO) test -c -o "$$probe/puzzle-386.test" ./puzzle && \
		rc=0; "$$probe/puzzle-386.test" -test.run '^$$' >/dev/null 2>&1 || rc=$$?; \
		if [ $$rc = 0 ]; then \
			echo "GOARCH=386: 32-bit limit tests"; \
			GOARCH=386 $(GO) test -count=1 -run 'TestIndexLimits|TestBuild32BitLimit' ./puzzle ./cmd/pdbgen; \
		elif [ $$rc = 126 ]; then \
			echo "GOARCH=386: skipped the 32-bit limit tests: this machine cannot run 32-bit x86 programs (exec format error: a kernel without IA-32 emulation); they were built and vetted above"; \
		else \
			echo "GOARCH=386: the probe test binary failed (exit $$rc)" >&2; exit 1; \
		fi; \
	fi
	$(GO) mod tidy -diff

# Benchmarks: compare ratios within one run (machines are noisy), or save
# two runs and compare them with benchstat.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x -timeout 60m ./...

# Every preset with -j 1 and -j 2: wall, CPU, peak RSS, file size (about 10 minutes).
bench-presets:
	scripts/bench-presets.sh

# Korf's 24-puzzle instances that took Korf & Felner under 5e9 nodes, in one
# pdbgen solve -j 2 (N=5: only the first five); builds 24-6666 into data/
# unless SET names a set file (SET=data/24-best.set.json: the catalogue,
# after bin/pdbgen build --preset 24-best -o data).
bench-korf24:
	scripts/korf24.sh -j 2 $(if $(N),-n $(N)) $(if $(SET),-s $(SET))

# Long runs: all of Korf's 100 instances, big presets with timings.
long: build
	$(GO) test -v -timeout 60m -run Long ./builder ./solver -long

# Readers in other languages (readers/js, readers/java, readers/python): unit
# tests, then thousands of random boards per table and set through them and pdbgen.
# PYTHON: a Python >= 3.11 with numpy, zstandard and pytest (Debian's python3-*).
PYTHON ?= /usr/bin/python3
readers-test: build
	cd readers/js && npm test
	readers/java/test.sh
	$(PYTHON) -m pytest -q readers/python
	PYTHON=$(PYTHON) scripts/check-readers.sh

# The browser solver (web/) driven in headless Chromium.
web-test:
	cd web && node test/web-test.mjs

# The beam/ module keeps Beam's ~90 requirements out of the core go.mod;
# the root's go commands do not see it (a nested module).
beam-test:
	@cd beam && out=$$(gofmt -l .) && if [ -n "$$out" ]; then echo "gofmt needed in beam/:"; echo "$$out"; exit 1; fi
	cd beam && $(GO) vet ./...
	cd beam && $(GO) mod tidy -diff
	cd beam && $(GO) test -timeout 15m ./...

beam-build:
	cd beam && $(GO) build -o ../bin/pdbgen-beam ./cmd/pdbgen-beam

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 60s ./format/
	$(GO) test -run '^$$' -fuzz FuzzFormat2Codes -fuzztime 30s ./format/
	$(GO) test -run '^$$' -fuzz FuzzParseBoard -fuzztime 30s ./puzzle/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./manifest/

clean:
	rm -rf bin data/*.pdb

# golangci-lint v2 (.golangci.yml) on both modules; the pinned version is
# built once into bin/ from the Go module proxy.
GOLANGCI_VERSION := v2.15.0
GOLANGCI := bin/golangci-lint-$(GOLANGCI_VERSION)
$(GOLANGCI):
	GOBIN=$(CURDIR)/bin/golangci-tmp $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION)
	mv bin/golangci-tmp/golangci-lint $@ && rmdir bin/golangci-tmp
lint: $(GOLANGCI)
	$(GOLANGCI) run ./...
	cd beam && ../$(GOLANGCI) run --config ../.golangci.yml ./...
