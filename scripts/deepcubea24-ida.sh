#!/usr/bin/env bash
# Solves optimally (IDA*, `pdbgen solve --reflect -j JOBS --json`, in ONE
# process: the tables are loaded once) the instances of DeepCubeA's 24-puzzle
# test set (Agostinelli et al. 2019; blank-last goal) whose PDB baseline
# (DeepCubeA's optimal IDA* with 6-6-6-6 additive tables, 'PDBs+')
# generated at most NODES nodes, and compares our generated nodes with the
# baseline's, instance by instance. Every length is checked against the
# baseline's optimal length and every move string is replayed; the script
# fails otherwise. Boards are converted to the blank-first convention
# (180-degree rotation, tile t -> 25-t: the same distance) when the tables'
# goal is blank-first.
#
# Usage: scripts/deepcubea24-ida.sh -s SET [-f TSV] [-n NODES] [-j JOBS]
#   -s  set file or comma-separated tables of the 5x5 board
#   -f  ../shared/reference/deepcubea-24.tsv or a copy (the default)
#   -n  the largest baseline node count taken (default 100000000)
#   -j  instances solved at once (default 2)
# Needs GNU time (/usr/bin/time) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
set_files="" tsv=../shared/reference/deepcubea-24.tsv limit=100000000 jobs=2
while getopts "s:f:n:j:" o; do
  case $o in
    s) set_files=$OPTARG ;; f) tsv=$OPTARG ;; n) limit=$OPTARG ;; j) jobs=$OPTARG ;;
    *) sed -n '13,17p' "$0" >&2; exit 2 ;;
  esac
done
[ -n "$set_files" ] || { sed -n '13,17p' "$0" >&2; exit 2; }
for v in "$limit" "$jobs"; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "deepcubea24-ida.sh: -n and -j take a positive integer, not '$v'" >&2; exit 2; }
done
go build -o bin/pdbgen ./cmd/pdbgen
files=(${set_files//,/ })
bf=0
info=$(bin/pdbgen info "${files[0]}") # whole, not piped to grep -q: an early exit would kill info (SIGPIPE) and, under pipefail, read as blank-last
if [[ $info == *'goal blank-first'* ]]; then bf=1; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$tsv" "$limit" "$bf" "$out" <<'PY'
import sys
tsv, limit, bf, out = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
rows = [l.rstrip("\n").split("\t") for l in open(tsv) if not l.startswith("#")]
head, rows = rows[0], rows[1:]
col = {k: head.index(k) for k in ("id", "pdb_optimal_length", "pdb_nodes", "tiles")}
with open(out + "/instances", "w") as fi, open(out + "/boards", "w") as fb:
    for r in rows:
        if not r[col["pdb_nodes"]] or int(r[col["pdb_nodes"]]) > limit:
            continue
        b = list(map(int, r[col["tiles"]].split()))
        if bf:
            b = [0 if t == 0 else 25 - t for t in reversed(b)]
        fi.write("\t".join([r[col["id"]], r[col["pdb_optimal_length"]], r[col["pdb_nodes"]], " ".join(map(str, b))]) + "\n")
        fb.write(" ".join(map(str, b)) + "\n")
PY
echo "pdbgen solve --reflect -j $jobs ${files[*]}: $(wc -l <"$out/boards") instances (baseline at most $limit nodes)" >&2
/usr/bin/time -f '%e %U %S %M' -o "$out/t" bin/pdbgen solve --reflect -j "$jobs" --json "${files[@]}" <"$out/boards" >"$out/answers"
read -r wall user sys rss <"$out/t"
goal=blank-last
[ $bf = 0 ] || goal=blank-first
python3 scripts/ida24-check.py "$out/instances" "$out/answers" $goal "baseline nodes" "$wall" "$user" "$sys" "$rss"
