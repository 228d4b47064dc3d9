#!/usr/bin/env bash
# Solves instances of one of DeepCubeA's test sets (Agostinelli, McAleer,
# Shmakov & Baldi, Nature Machine Intelligence 1:356-363, 2019; blank-last
# goal) with `pdbgen solve --anytime --beam --time-limit T -j JOBS --json` in ONE
# process (tables loaded once), and compares every answer with DeepCubeA's
# own solution length for that instance. Each answer is the best solution
# found within T and its proven lower bound on the optimum ("optimal"
# when they meet). With -j 2 on 2 cores, T is the CPU time per instance.
#
# Writes a results file (TSV, one row per instance: id, DeepCubeA's length,
# ours, our proven lower bound, optimal, ours minus DeepCubeA's, nodes,
# seconds, stop reason) and prints a summary: mean length of both on the
# same instances, how many are proven optimal, longer or shorter than
# DeepCubeA's. Every move string is replayed to the goal; the script fails
# on a move string that does not solve its board.
#
# Usage: scripts/deepcubea.sh -s SET [-f TSV] [-r FROM-TO] [-T SECONDS] [-j JOBS] [-m SIZE] [-o OUT] [-a ARGS]
#   -s  set file (or comma-separated tables) of the board's blank-last goal
#   -f  DeepCubeA test set as in ../shared/reference/deepcubea-{24,35,48}.tsv
#       (default: ../shared/reference/deepcubea-35.tsv)
#   -r  instance ids FROM-TO, inclusive (default 0-99)
#   -T  seconds per instance (default: DeepCubeA's mean time on the set,
#       45 for the 35-puzzle, 144 for the 48-puzzle, 20 for the 24-puzzle)
#   -j  instances solved at once (default 2)
#   -m  --max-memory for the whole process (default 16G)
#   -o  results file (default results/deepcubea-<N>-<FROM>-<TO>.tsv)
#   -a  search flags (default "--beam --reflect": beam searches of growing
#       width, ranked by the sum of the regular and the reflected additive
#       sums, then IDA* for the lower bound; "--restarts --schedule
#       3,2,1.6,1.4,1.2,1" runs restarting weighted A* instead, whose
#       solutions are far longer on these boards)
# Needs GNU time (/usr/bin/time) and python3. PDBGEN=BINARY runs that binary
# instead of building bin/pdbgen (for side-by-side runs of two versions).
set -euo pipefail
cd "$(dirname "$0")/.."
set_files="" tsv=../shared/reference/deepcubea-35.tsv range=0-99 secs="" jobs=2 mem=16G out=""
search="--beam --reflect"
while getopts "s:f:r:T:j:m:o:a:" o; do
  case $o in
    s) set_files=$OPTARG ;; f) tsv=$OPTARG ;; r) range=$OPTARG ;; T) secs=$OPTARG ;;
    j) jobs=$OPTARG ;; m) mem=$OPTARG ;; o) out=$OPTARG ;; a) search=$OPTARG ;;
    *) sed -n '17,32p' "$0" >&2; exit 2 ;;
  esac
done
[ -n "$set_files" ] || { echo "deepcubea.sh: -s SET is required (e.g. data/35-puzzle.set.json)" >&2; exit 2; }
[ -f "$tsv" ] || { echo "deepcubea.sh: $tsv: no such file" >&2; exit 2; }
[[ $range =~ ^([0-9]+)-([0-9]+)$ ]] || { echo "deepcubea.sh: -r takes FROM-TO, not '$range'" >&2; exit 2; }
from=${BASH_REMATCH[1]} to=${BASH_REMATCH[2]}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "deepcubea.sh: -j takes a positive integer, not '$jobs'" >&2; exit 2; }
cells=$(awk -F'\t' '!/^#/ && $1 ~ /^[0-9]+$/ {print split($NF, a, " "); exit}' "$tsv")
case $cells in
  25) n=24 def=20 ;; 36) n=35 def=45 ;; 49) n=48 def=144 ;;
  *) echo "deepcubea.sh: $tsv: boards of $cells cells, want 25, 36 or 49" >&2; exit 2 ;;
esac
secs=${secs:-$def}
[[ $secs =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "deepcubea.sh: -T takes seconds, not '$secs'" >&2; exit 2; }
out=${out:-results/deepcubea-$n-$from-$to.tsv}
mkdir -p "$(dirname "$out")"
# PDBGEN: another binary to run (side-by-side runs); default: build bin/pdbgen.
pdbgen=${PDBGEN:-bin/pdbgen}
[ -n "${PDBGEN:-}" ] || go build -o bin/pdbgen ./cmd/pdbgen
files=(${set_files//,/ })
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -F'\t' -v lo="$from" -v hi="$to" '!/^#/ && $1 ~ /^[0-9]+$/ && $1+0 >= lo && $1+0 <= hi' "$tsv" >"$tmp/instances"
[ -s "$tmp/instances" ] || { echo "deepcubea.sh: no instance of $tsv in $range" >&2; exit 2; }
awk -F'\t' '{print $NF}' "$tmp/instances" >"$tmp/boards"
echo "pdbgen solve --anytime $search --time-limit ${secs}s -j $jobs --max-memory $mem ${files[*]}: $(wc -l <"$tmp/boards") instances of $tsv" >&2
# shellcheck disable=SC2086 # $search is a list of flags
/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$pdbgen" solve --anytime $search --time-limit "${secs}s" -j "$jobs" \
  --max-memory "$mem" --json "${files[@]}" <"$tmp/boards" >"$tmp/answers" || true
read -r wall user sys rss < <(tail -n 1 "$tmp/t")
python3 - "$tmp/instances" "$tmp/answers" "$out" "$n" "$secs" "$wall" "$user" "$sys" "$rss" "$search -j $jobs --max-memory $mem" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" <<'PY'
import json, sys
inst_path, ans_path, out, n, secs = sys.argv[1:6]
wall, user, sys_, rss = map(float, sys.argv[6:10])
flags, commit = sys.argv[10:12]
inst = [l.rstrip('\n').split('\t') for l in open(inst_path)]
final = {}
for line in open(ans_path):
    a = json.loads(line)
    if a.get("final", True):
        final[tuple(a["board"])] = a
side = {25: 5, 36: 6, 49: 7}[len(inst[0][-1].split())]

def replay(board, moves):
    b = list(board)
    z = b.index(0)
    for m in moves:
        r, c = divmod(z, side)
        dr, dc = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}[m]
        r, c = r + dr, c + dc
        if not (0 <= r < side and 0 <= c < side):
            return False
        t = r * side + c
        b[z], b[t] = b[t], b[z]
        z = t
    return b == list(range(1, side * side)) + [0]

rows, bad = [], 0
for f in inst:
    id_, dca = int(f[0]), int(f[1])
    board = tuple(map(int, f[-1].split()))
    a = final.get(board)
    if a is None or a.get("length") is None:
        lower = a.get("lower", 0) if a else 0
        stop = (a or {}).get("stopped") or "no answer"
        rows.append((id_, dca, None, lower, False, None, (a or {}).get("nodes", 0), (a or {}).get("elapsed_ms", 0) / 1000, stop))
        continue
    moves = a["moves"] if a["moves"] != "-" else ""
    if not replay(board, moves) or len(moves) != a["length"]:
        print("instance %d: the moves do not solve the board" % id_, file=sys.stderr)
        bad += 1
    L = a["length"]
    rows.append((id_, dca, L, a["lower"], bool(a.get("optimal")), L - dca, a["nodes"], a["elapsed_ms"] / 1000, a.get("stopped") or ""))

with open(out, "w") as w:
    w.write("# DeepCubeA comparison, %d-puzzle, %g s per instance: scripts/deepcubea.sh (pdbgen solve --anytime %s, commit %s)\n" % (int(n), float(secs), flags, commit))
    w.write("# whole process: %.0f s wall, %.0f CPU-s, peak RSS %.0f MiB\n" % (wall, user + sys_, rss / 1024))
    w.write("id\tdeepcubea_length\tlength\tlower\toptimal\tdiff\tnodes\tseconds\tstopped\n")
    for r in rows:
        w.write("\t".join("" if x is None else ("yes" if x is True else "no" if x is False else str(x)) for x in r) + "\n")

solved = [r for r in rows if r[2] is not None]
print("| instances | answered | mean length (ours) | mean length (DeepCubeA) | proven optimal | longer than DeepCubeA | shorter | equal | mean lower bound | mean gap to bound |")
print("|---|---|---|---|---|---|---|---|---|---|")
if solved:
    mo = sum(r[2] for r in solved) / len(solved)
    md = sum(r[1] for r in solved) / len(solved)
    ml = sum(r[3] for r in solved) / len(solved)
    print("| %d | %d | %.2f | %.2f | %d | %d (%.0f%%) | %d | %d | %.2f | %.2f |" % (
        len(rows), len(solved), mo, md, sum(r[4] for r in solved),
        sum(r[5] > 0 for r in solved), 100 * sum(r[5] > 0 for r in solved) / len(solved),
        sum(r[5] < 0 for r in solved), sum(r[5] == 0 for r in solved), ml, mo - ml))
print("whole process: %.0f s wall, %.0f CPU-s, peak RSS %.0f MiB; results in %s" % (wall, user + sys_, rss / 1024, out))
if len(solved) < len(rows):
    print("%d instances without a solution within the time (their lower bounds are in the results file)" % (len(rows) - len(solved)))
if bad:
    sys.exit("%d move strings do not solve their boards" % bad)
PY
