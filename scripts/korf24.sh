#!/usr/bin/env bash
# Solves Korf's 24-puzzle instances that took Korf & Felner fewer than
# 5e9 nodes (Korf & Felner 2002, Table 2), easiest first, one at a time with
# `pdbgen solve --reflect --from blank-first -t THREADS`, and prints a table:
# instance, length (published), nodes (Korf & Felner's), wall and CPU seconds,
# million nodes per CPU-second. Every length is checked against the published
# one and every move string is replayed to the blank-first goal.
#
# Usage: scripts/korf24.sh [-t THREADS] [-n COUNT] [-s SET]
#   -t  threads per search (default 2)
#   -n  solve only the first COUNT of the 15 instances (default 15)
#   -s  set file or comma-separated tables (default: build preset 24-6666 into data/)
# Needs GNU time (/usr/bin/time) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=2 count=15 set=""
while getopts "t:n:s:" o; do
  case $o in
    t) threads=$OPTARG ;; n) count=$OPTARG ;; s) set=$OPTARG ;;
    *) sed -n '10,14p' "$0" >&2; exit 2 ;;
  esac
done
go build -o bin/pdbgen ./cmd/pdbgen
if [ -z "$set" ]; then
  set=data/24-6666.set.json
  [ -f "$set" ] || bin/pdbgen build --preset 24-6666 -o data --quiet >/dev/null
fi
files=(${set//,/ })
ids=(38 40 25 32 44 37 30 13 1 28 36 5 22 16 29)
tsv=solver/testdata/korf50-24.tsv
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '| # | length (published) | nodes | Korf & Felner nodes | wall s | CPU s | M nodes/CPU-s |\n|---|---|---|---|---|---|---|\n'
total_start=$(date +%s.%N)
fail=0
for id in "${ids[@]:0:$count}"; do
  line=$(awk -F'\t' -v id="$id" '$1 == id' "$tsv")
  want=$(cut -f2 <<<"$line") kf=$(cut -f3 <<<"$line") board=$(cut -f4 <<<"$line")
  /usr/bin/time -f '%e %U %S' -o "$out/t" bin/pdbgen solve --reflect --from blank-first -t "$threads" "${files[@]}" <<<"$board" >"$out/s"
  read -r wall user sys <"$out/t"
  got=$(sed -n 's/.* length \([0-9]*\) .*/\1/p' "$out/s")
  moves=$(sed -n 's/.* moves \([udlr-]*\) .*/\1/p' "$out/s")
  nodes=$(sed -n 's/.* nodes \([0-9]*\).*/\1/p' "$out/s")
  python3 - "$board" "$moves" "$got" "$want" <<'PY' || fail=1
import sys
b = list(map(int, sys.argv[1].split())); moves = sys.argv[2].strip('-'); got, want = int(sys.argv[3]), int(sys.argv[4])
z = b.index(0)
for m in moves:
    r, c = divmod(z, 5)
    r, c = {'u': (r-1, c), 'd': (r+1, c), 'l': (r, c-1), 'r': (r, c+1)}[m]
    assert 0 <= r < 5 and 0 <= c < 5, "move off the board"
    t = r*5 + c; b[z], b[t] = b[t], 0; z = t
if b != list(range(25)) or len(moves) != got or got != want:
    sys.exit("instance %s: length %d, published %d, replay %s" % (sys.argv[1], got, want, "ok" if b == list(range(25)) else "FAILS"))
PY
  awk -v id="$id" -v g="$got" -v w="$want" -v n="$nodes" -v k="$kf" -v wa="$wall" -v u="$user" -v s="$sys" \
    'BEGIN { printf "| %d | %d (%d) | %d | %d | %.1f | %.1f | %.2f |\n", id, g, w, n, k, wa, u+s, n/(u+s)/1e6 }'
done
awk -v s="$total_start" -v e="$(date +%s.%N)" 'BEGIN { printf "total wall %.1f s\n", e - s }'
exit $fail
