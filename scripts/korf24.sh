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
go build -o bin/pdbgen ./cmd/pdbgen
if [ -z "$set" ]; then
  set=data/24-6666.set.json
  [ -f "$set" ] || bin/pdbgen build --preset 24-6666 -o data --quiet >/dev/null
fi
for v in "$jobs" "$threads" "$count"; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "korf24.sh: -j, -t and -n take a positive integer, not '$v'" >&2; exit 2; }
done
files=(${set//,/ })
# Korf's boards are blank-first: converted unless the tables' goal is too.
from=(--from blank-first)
if bin/pdbgen info "${files[0]}" | grep -q 'goal blank-first'; then from=(); fi
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
python3 - "$out/instances" "$out/answers" "$wall" "$user" "$sys" "$rss" <<'PY'
import json, sys
inst = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
ans = [json.loads(l) for l in open(sys.argv[2])]
wall, user, sys_, rss = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
if len(ans) != len(inst):
    sys.exit("%d answers for %d instances" % (len(ans), len(inst)))
print("| # | length (published) | nodes | Korf & Felner | ratio | search s |")
print("|---|---|---|---|---|---|")
bad, nodes, kf, search = 0, 0, 0, 0.0
for (id_, want, kfn, board), a in zip(inst, ans):
    b = list(map(int, board.split()))
    if a["board"] != b:
        sys.exit("answer for %s, want %s" % (a["board"], b))
    z = b.index(0)
    for m in a["moves"]:
        r, c = divmod(z, 5)
        r, c = {'u': (r-1, c), 'd': (r+1, c), 'l': (r, c-1), 'r': (r, c+1)}[m]
        if not (0 <= r < 5 and 0 <= c < 5):
            sys.exit("#%s: move off the board" % id_)
        t = r*5 + c; b[z], b[t] = b[t], 0; z = t
    ok = b == list(range(25)) and a["length"] == int(want) == len(a["moves"])
    if not ok:
        bad += 1
        print("#%s: length %s, published %s, replay %s" % (id_, a["length"], want, "ok" if b == list(range(25)) else "FAILS"), file=sys.stderr)
    nodes += a["nodes"]; kf += int(kfn); search += a["elapsed_ms"] / 1000
    print("| %s | %d (%s) | %s | %s | %.2f | %.1f |" % (id_, a["length"], want, format(a["nodes"], ","), format(int(kfn), ","), a["nodes"] / int(kfn), a["elapsed_ms"] / 1000))
print("| all | | %s | %s | %.2f | %.1f |" % (format(nodes, ","), format(kf, ","), nodes / kf, search))
print("wall %.1f s, CPU %.1f s (user %.1f + sys %.1f), %.1f M nodes per CPU-second, peak RSS %d MiB" % (wall, user + sys_, user, sys_, nodes / (user + sys_) / 1e6, rss // 1024))
sys.exit(1 if bad else 0)
PY
