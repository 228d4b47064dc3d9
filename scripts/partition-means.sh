#!/usr/bin/env bash
# Compares additive partitions by the mean heuristic they give: over COUNT
# uniformly random solvable boards (seeded, so every run sees the same
# boards) and, with -f, over the boards of a DeepCubeA test set, for each
# set file given, beside the mean Manhattan distance of the same boards.
# The heuristic is `pdbgen lookup` over the set file: the sum of the parts
# (no reflection). A higher mean is a stronger heuristic; on the 15- and
# 24-puzzle each extra move of mean heuristic cuts IDA*'s nodes by about
# the branching factor (Korf & Felner 2002).
#
# Usage: scripts/partition-means.sh [-n COUNT] [-f DEEPCUBEA_TSV] [-s SEED] SET...
#   SET  a set file, or tables separated by commas (their sum)
#   -n  random boards (default 1000000)
#   -f  also the boards of this DeepCubeA test set (../shared/reference/deepcubea-*.tsv)
#   -s  seed of the random boards (default 1)
# Every SET is a set file or comma-separated tables, all of the same board
# with the blank-last goal. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
count=1000000 tsv="" seed=1
while getopts "n:f:s:" o; do
  case $o in
    n) count=$OPTARG ;; f) tsv=$OPTARG ;; s) seed=$OPTARG ;;
    *) sed -n '11,17p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '11,17p' "$0" >&2; exit 2; }
[[ $count =~ ^[1-9][0-9]*$ ]] || { echo "partition-means.sh: -n takes a positive integer, not '$count'" >&2; exit 2; }
go build -o bin/pdbgen ./cmd/pdbgen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
first=${1%%,*}
if [[ $first == *.set.json ]]; then
  read -r w h < <(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["width"], d["height"])' "$first") || w=""
else
  read -r w h < <(bin/pdbgen info "$first" | awk '$1 == "board" {split($2, a, "[x,]"); print a[1], a[2]; exit}') || w=""
fi
[ -n "$w" ] || { echo "partition-means.sh: $first: cannot read its board size" >&2; exit 2; }
python3 - "$w" "$h" "$count" "$seed" >"$tmp/random" <<'PY'
import random, sys
w, h, count, seed = map(int, sys.argv[1:5])
n = w * h
rng = random.Random(seed)
goal = list(range(1, n)) + [0]
def solvable(b):
    # parity of the permutation taking b to the goal equals the parity of
    # the blank's taxicab distance to its goal cell
    perm = [goal.index(t) for t in b]
    seen, swaps = [False] * n, 0
    for i in range(n):
        j, length = i, 0
        while not seen[j]:
            seen[j], j, length = True, perm[j], length + 1
        swaps += max(0, length - 1)
    z = b.index(0)
    return swaps % 2 == (abs(z // w - (h - 1)) + abs(z % w - (w - 1))) % 2
out = sys.stdout
for _ in range(count):
    b = goal[:]
    rng.shuffle(b)
    if not solvable(b):
        i, j = [k for k in range(n) if b[k] != 0][:2]
        b[i], b[j] = b[j], b[i]
    out.write(" ".join(map(str, b)) + "\n")
PY
inputs=(random)
if [ -n "$tsv" ]; then
  awk -F'\t' '!/^#/ && $1 ~ /^[0-9]+$/ {print $NF}' "$tsv" >"$tmp/deepcubea"
  inputs+=(deepcubea)
fi
python3 - "$w" "$h" "${inputs[@]/#/$tmp/}" <<'PY' >"$tmp/manhattan"
import sys
w, h = int(sys.argv[1]), int(sys.argv[2])
for path in sys.argv[3:]:
    tot = cnt = 0
    for line in open(path):
        b = list(map(int, line.split()))
        for c, t in enumerate(b):
            if t:
                g = t - 1
                tot += abs(c // w - g // w) + abs(c % w - g % w)
        cnt += 1
    print("%s\t%d\t%.3f" % (path.rsplit("/", 1)[1], cnt, tot / cnt))
PY
printf '| heuristic | boards | mean |\n|---|---|---|\n'
while IFS=$'\t' read -r name cnt mean; do
  printf '| Manhattan distance | %s %s | %s |\n' "$cnt" "$name" "$mean"
done <"$tmp/manhattan"
for set in "$@"; do
  label=$set
  [[ $set == *,* ]] && label="$(dirname "${set%%,*}")/ ($(tr ',' '\n' <<<"$set" | wc -l) tables)"
  for in in "${inputs[@]}"; do
    bin/pdbgen lookup ${set//,/ } <"$tmp/$in" | awk -F'\t' -v s="$label" -v n="$in" \
      '$2 != "unsolvable" {t += $2; c++} END {printf "| %s | %d %s | %.3f |\n", s, c, n, t / c}'
  done
done
