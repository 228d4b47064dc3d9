#!/usr/bin/env bash
# Solves Korf's 24-puzzle instances that took Korf & Felner fewer than
# 5e9 nodes (Korf & Felner 2002, Table 2), easiest first, in ONE
# `pdbgen solve --reflect -j JOBS -t THREADS --json` process (the tables are
# loaded once; --from blank-first when they are built for the blank-last
# goal), and prints a table: instance,
# length (published), nodes generated, Korf & Felner's nodes and the ratio,
# the instance's own search time (elapsed_ms); then the total wall time,
# CPU time and peak memory of the process. Every length is checked against
# the published one and every move string is replayed to the blank-first
# goal; the script fails otherwise.
#
# Usage: scripts/korf24.sh [-j JOBS] [-t THREADS] [-n COUNT] [-s SET] [-c]
#   -j  instances solved at once (default 2)
#   -t  threads per search (default 1)
#   -n  solve only the first COUNT of the 15 instances (default 15)
#   -s  set file or comma-separated tables (default: build preset 24-6666 into data/)
#   -c  --compact-index (no direct copies of the tables)
# Needs GNU time (/usr/bin/time) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=2 threads=1 count=15 set="" extra=()
while getopts "j:t:n:s:c" o; do
  case $o in
    j) jobs=$OPTARG ;; t) threads=$OPTARG ;; n) count=$OPTARG ;; s) set=$OPTARG ;; c) extra+=(--compact-index) ;;
    *) sed -n '12,18p' "$0" >&2; exit 2 ;;
  esac
done
for v in "$jobs" "$threads" "$count"; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "korf24.sh: -j, -t and -n take a positive integer, not '$v'" >&2; exit 2; }
done
(( count <= 15 )) || { echo "korf24.sh: -n takes 1 to 15 (the instances Korf & Felner solved in under 5e9 nodes), not $count" >&2; exit 2; }
for f in ${set//,/ }; do
  [ -f "$f" ] || { echo "korf24.sh: -s: $f: no such file" >&2; exit 2; }
done
go build -o bin/pdbgen ./cmd/pdbgen
if [ -z "$set" ]; then
  set=data/24-6666.set.json
  [ -f "$set" ] || bin/pdbgen build --preset 24-6666 -o data --quiet >/dev/null
fi
files=(${set//,/ })
# Korf's boards are blank-first: converted unless the tables' goal is too.
from=(--from blank-first)
info=$(bin/pdbgen info "${files[0]}") # whole, not piped to grep -q: an early exit would kill info (SIGPIPE) and, under pipefail, read as blank-last
if [[ $info == *'goal blank-first'* ]]; then from=(); fi
ids=(38 40 25 32 44 37 30 13 1 28 36 5 22 16 29)
tsv=solver/testdata/korf50-24.tsv
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for id in "${ids[@]:0:$count}"; do
  awk -F'\t' -v id="$id" '$1 == id' "$tsv"
done >"$out/instances"
cut -f4 "$out/instances" >"$out/boards"
echo "pdbgen solve --reflect ${from[*]} -j $jobs -t $threads ${extra[*]} ${files[*]}: $(wc -l <"$out/boards") instances" >&2
/usr/bin/time -f '%e %U %S %M' -o "$out/t" bin/pdbgen solve --reflect "${from[@]}" -j "$jobs" -t "$threads" "${extra[@]}" --json "${files[@]}" <"$out/boards" >"$out/answers"
read -r wall user sys rss <"$out/t"
# The answers are in the boards' convention (solve converts back): blank-first.
python3 scripts/ida24-check.py "$out/instances" "$out/answers" blank-first "Korf & Felner (expanded)" "$wall" "$user" "$sys" "$rss"
