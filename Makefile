# tilepdb: build, verify and test pattern databases.
#   make data   build the default tables (8puzzle, 15-555, 15-663) into data/,
#               check them against data/MANIFEST.tsv, and verify them
#   make test   gofmt, go vet and the unit tests with the race detector
#   make bench  benchmarks and long runs (minutes); see README.md
SHELL := bash
GO ?= go
PDBGEN := bin/pdbgen
J ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build data test vet fmt-check bench bench-presets long fuzz clean

all: build

build:
	$(GO) build -o $(PDBGEN) ./cmd/pdbgen

data: build
	@mkdir -p data
	$(PDBGEN) build -j $(J) -o data --manifest data/MANIFEST.tsv > data/.built
	$(PDBGEN) verify -j $(J) $$(cat data/.built)
	@rm -f data/.built

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

test: fmt-check vet
	$(GO) test -race -timeout 15m ./...

# Benchmarks: compare ratios within one run (machines are noisy), or save
# two runs and compare them with benchstat.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x -timeout 60m ./...

# Every preset with -j 1 and -j 2: wall, CPU, peak RSS, file size (about 10 minutes).
bench-presets:
	scripts/bench-presets.sh

# Long runs: all of Korf's 100 instances, big presets with timings.
long: build
	$(GO) test -v -timeout 60m -run Long ./builder ./solver -long

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 60s ./format/
	$(GO) test -run '^$$' -fuzz FuzzFormat2Codes -fuzztime 30s ./format/
	$(GO) test -run '^$$' -fuzz FuzzParseBoard -fuzztime 30s ./puzzle/

clean:
	rm -rf bin data/*.pdb data/.built
