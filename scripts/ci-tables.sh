#!/usr/bin/env bash
# The CI recipe for a folder of tilepdb tables (docs/ci.md, "Tables in CI"):
#   1. restore the tables from a cache keyed by the SHA-256 of the manifest,
#   2. rebuild only the tables that are missing or wrong (pdbgen build --if-needed),
#   3. verify the folder against the manifest (pdbgen verify --manifest),
#   4. save the cache, and pack the manifest and its tables as an artifact.
# Copy it into your project; our own .ci/run runs it, so it is known to work.
# Portable bash (3.2 and later: macOS too); needs awk, tar, sha256sum or shasum.
#
# Usage: scripts/ci-tables.sh [MANIFEST [DATA_DIR]]
#   MANIFEST  the manifest of the set (default data/MANIFEST.tsv)
#   DATA_DIR  the folder holding the tables (default: the manifest's folder)
# Environment, all optional:
#   PDBGEN     the pdbgen binary (default: bin/pdbgen built from the checkout
#              this script lives in when it is the tilepdb repository, from
#              whatever the current directory, else pdbgen on PATH)
#   J          worker goroutines (default: all CPUs)
#   CACHE_DIR  cache root: tables are restored from and saved to CACHE_DIR/<key>
#   REPORTS    folder for the JSON reports build.jsonl and verify.jsonl
#              (default: none; the text reports go to stdout)
#   ARTIFACT   path of a .tar.gz to write with the manifest and its tables
# Exit status (pdbgen's): 0 all good; 1 bad data (a manifest that does not
# parse, a table that does not verify or whose rebuild does not match the
# manifest); 2 trouble (usage, I/O, a data folder that is not a folder).
set -euo pipefail

manifest=${1:-data/MANIFEST.tsv}
data=${2:-$(dirname "$manifest")}
say() { printf 'ci-tables: %s\n' "$*" >&2; }

# The checkout this script lives in, when it is the tilepdb repository
# (the script works from any directory: paths are taken as given).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${PDBGEN:-}" ]; then
  if grep -qs '^module github.com/tilepdb/tilepdb$' "$here/go.mod"; then
    (cd "$here" && go build -o bin/pdbgen ./cmd/pdbgen)
    PDBGEN=$here/bin/pdbgen
  else
    PDBGEN=pdbgen
  fi
fi
jobs=()
[ -n "${J:-}" ] && jobs=(-j "$J")
[ -f "$manifest" ] || { say "manifest $manifest: no such file"; exit 2; }

# The tables the manifest lists (first column of its non-comment lines).
tables=()
while read -r t; do tables+=("$t"); done < <(awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$manifest" | tr -d '\r')

# 1. Restore. The key is the manifest's content: the tables are fully
# determined by it, and a stale or damaged cached table is caught and
# rebuilt by step 2 anyway. Files already in the data folder are kept.
if command -v sha256sum >/dev/null; then
  sum=$(sha256sum < "$manifest")
else
  sum=$(shasum -a 256 < "$manifest")
fi
key=tilepdb-tables-${sum:0:16}
hit=no
if [ -n "${CACHE_DIR:-}" ] && [ -d "$CACHE_DIR/$key" ]; then
  hit=yes
  mkdir -p "$data"
  restored=0
  for t in ${tables[@]+"${tables[@]}"}; do
    if [ -f "$CACHE_DIR/$key/$t" ] && [ ! -e "$data/$t" ]; then
      cp -p "$CACHE_DIR/$key/$t" "$data/$t"
      restored=$((restored + 1))
    fi
  done
  say "cache hit $key: restored $restored of ${#tables[@]} tables"
elif [ -n "${CACHE_DIR:-}" ]; then
  say "cache miss $key"
fi

# 2. Rebuild what is missing or wrong; 3. verify the folder. With REPORTS
# the JSON reports go to files and a line per table to stderr.
if [ -n "${REPORTS:-}" ]; then
  mkdir -p "$REPORTS"
  "$PDBGEN" build --if-needed ${jobs[@]+"${jobs[@]}"} --manifest "$manifest" -o "$data" --json > "$REPORTS/build.jsonl"
  "$PDBGEN" verify ${jobs[@]+"${jobs[@]}"} --manifest "$manifest" --json "$data" > "$REPORTS/verify.jsonl"
else
  "$PDBGEN" build --if-needed ${jobs[@]+"${jobs[@]}"} --manifest "$manifest" -o "$data"
  "$PDBGEN" verify ${jobs[@]+"${jobs[@]}"} --manifest "$manifest" "$data"
fi

# 4. Save (only on a miss: a key's content never changes) and pack.
if [ -n "${CACHE_DIR:-}" ] && [ "$hit" = no ]; then
  mkdir -p "$CACHE_DIR"
  tmp=$(mktemp -d "$CACHE_DIR/.$key.XXXXXX")
  for t in ${tables[@]+"${tables[@]}"}; do cp -p "$data/$t" "$tmp/$t"; done
  if [ ! -e "$CACHE_DIR/$key" ] && mv "$tmp" "$CACHE_DIR/$key"; then
    say "cache saved $key"
  else
    rm -rf "$tmp" # another job saved the same key first
  fi
fi
if [ -n "${ARTIFACT:-}" ]; then
  tar -czf "$ARTIFACT" -C "$(dirname "$manifest")" "$(basename "$manifest")" -C "$(cd "$data" && pwd)" ${tables[@]+"${tables[@]}"}
  say "artifact $ARTIFACT: $(basename "$manifest") and ${#tables[@]} tables"
fi
