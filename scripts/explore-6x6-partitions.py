#!/usr/bin/python3
"""Issue 20 item 2, exploration: how strong are additive partitions of the
35-puzzle (6x6, blank-last goal) into 5-tile groups, against the plain
Manhattan distance?

For each partition it builds the 7 tables with pdbgen (skipping tables
already in the output folder), then reports
  - the exact mean heuristic over uniformly random solvable states: the sum
    of the tables' means (an additive value depends only on the cells of
    its tiles, and a uniform random solvable state places any k <= N-3
    tiles uniformly), from each table's histogram (pdbgen info --json);
  - the mean over SAMPLES random solvable states (pdbgen lookup), with the
    mean Manhattan distance of the same states, and the share of states
    where the partition beats Manhattan.

Usage (from the repository root, after make build):
    scripts/explore-6x6-partitions.py [-o DIR] [-n SAMPLES] [-j WORKERS] [PARTITION...]
PARTITION is one of: pent, rows, band2, band3 (default: all). Each 5-tile table of
6x6 has 36*35*34*33*32 = 45,239,040 entries and takes about 20 CPU-seconds
and 150 MiB to build. Needs only the Python standard library.

Measured (scripts/explore-6x6-partitions.py pent rows band3, default seed and
10^5 states; 20 tables, about 6 minutes on 2 loaded cores):

    heuristic  exact mean sample mean   > MD
    manhattan                 135.036
    pent          137.049     137.087  64.7%
    rows          136.344     136.375  48.5%
    band3         138.282     138.316  91.4%

("> MD": share of the states where the partition's sum exceeds the Manhattan
distance.) Seven 5-tile tables add only 1 to 3.3 moves (0.9% to 2.4%) to
the Manhattan distance of a random 35-puzzle state.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys

W = H = 6
N = W * H
PDBGEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bin", "pdbgen")


def chunks(seq, k=5):
    return [sorted(seq[i : i + k]) for i in range(0, len(seq), k)]


def band_order(rows_per_band):
    """Tiles band by band (rows_per_band rows each), column by column within a
    band: compact groups of 5 when chunked."""
    out = []
    for top in range(0, H, rows_per_band):
        for col in range(W):
            for r in range(top, min(top + rows_per_band, H)):
                cell = r * W + col
                if cell != N - 1:  # the blank's goal cell
                    out.append(cell + 1)
    return out


PARTITIONS = {
    # six P-pentominoes (a 2x2 square and one cell below) and the last row
    "pent": [[1, 2, 7, 8, 13], [3, 4, 9, 10, 15], [5, 6, 11, 12, 17], [14, 19, 20, 25, 26],
             [16, 21, 22, 27, 28], [18, 23, 24, 29, 30], [31, 32, 33, 34, 35]],
    "rows": chunks(list(range(1, N))),  # reading order: 1-5, 6-10, ...
    "band2": chunks(band_order(2)),  # 2-row bands by columns: {1,2,3,7,8}, ...
    "band3": chunks(band_order(3)),  # 3-row bands by columns: {1,2,7,8,13}, ...
}


def table_path(out, tiles):
    return os.path.join(out, f"{W}x{H}_{'-'.join(map(str, tiles))}.pdb")


def build(out, groups, workers):
    for g in groups:
        if not os.path.exists(table_path(out, g)):
            subprocess.run([PDBGEN, "build", "-j", str(workers), "--board", f"{W}x{H}",
                            "--tiles", ",".join(map(str, g)), "-o", out], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def table_mean(path):
    info = json.loads(subprocess.run([PDBGEN, "info", "--json", path], check=True,
                                     capture_output=True, text=True).stdout)
    return sum(v * c for v, c in enumerate(info["histogram"])) / info["entries"]


def solvable(board):
    """Parity rule (puzzle.Solvable) for the blank-last goal."""
    goal_cell = {t: t - 1 for t in range(1, N)}
    goal_cell[0] = N - 1
    perm = [0] * N  # goal cell of tile t -> its cell in board
    for c, t in enumerate(board):
        perm[goal_cell[t]] = c
    seen = [False] * N
    cycles = 0
    for i in range(N):
        if not seen[i]:
            cycles += 1
            j = i
            while not seen[j]:
                seen[j] = True
                j = perm[j]
    blank = board.index(0)
    dist = abs(blank // W - (N - 1) // W) + abs(blank % W - (N - 1) % W)
    return (N - cycles) % 2 == dist % 2


def random_boards(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        b = list(range(N))
        rng.shuffle(b)
        if not solvable(b):  # swap two tiles (not the blank): the other half
            i, j = [c for c in range(N) if b[c] != 0][:2]
            b[i], b[j] = b[j], b[i]
        out.append(b)
    return out


def manhattan(b):
    s = 0
    for c, t in enumerate(b):
        if t:
            g = t - 1
            s += abs(c // W - g // W) + abs(c % W - g % W)
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", default="/tmp/tilepdb-6x6", help="folder of the tables (default /tmp/tilepdb-6x6)")
    ap.add_argument("-n", type=int, default=100000, help="random states (default 100000)")
    ap.add_argument("-j", type=int, default=2, help="build workers")
    ap.add_argument("--seed", type=int, default=2035)
    ap.add_argument("partitions", nargs="*", default=list(PARTITIONS))
    a = ap.parse_args()
    os.makedirs(a.o, exist_ok=True)
    boards = random_boards(a.n, a.seed)
    text = "".join(" ".join(map(str, b)) + "\n" for b in boards)
    md = [manhattan(b) for b in boards]
    print(f"{a.n} random solvable 6x6 states (seed {a.seed}), blank-last goal")
    print(f"{'heuristic':<10} {'exact mean':>10} {'sample mean':>11} {'> MD':>6}  groups")
    print(f"{'manhattan':<10} {'':>10} {sum(md) / len(md):11.3f} {'':>6}")
    for name in a.partitions:
        groups = PARTITIONS[name]
        assert sorted(t for g in groups for t in g) == list(range(1, N)), name
        build(a.o, groups, a.j)
        paths = [table_path(a.o, g) for g in groups]
        exact = sum(table_mean(p) for p in paths)
        res = subprocess.run([PDBGEN, "lookup", *paths], input=text, check=True,
                             capture_output=True, text=True).stdout.splitlines()
        vals = [int(line.rsplit("\t", 1)[1]) for line in res]
        better = sum(v > m for v, m in zip(vals, md)) / len(md)
        print(f"{name:<10} {exact:10.3f} {sum(vals) / len(vals):11.3f} {better:6.1%}  "
              + " ".join(",".join(map(str, g)) for g in groups))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
