"""Throughput of the batch API on one core (python bench.py [FILE...]).

Looks up B random boards (random permutations of 0..N-1, half of them
unsolvable) with TableSet.lookup_batch, checked and unchecked, and a single
table's values_at on random ranks; prints boards (or ranks) per second, the
best of R runs. Defaults: the 15-663 set in ../../data (make data), B = 2^20,
R = 5. Pin it to one core with `taskset -c 0` where available; numpy does
not start threads for these operations.

    /usr/bin/python3 readers/python/bench.py            # from the repository root
    BENCH_B=4000000 /usr/bin/python3 readers/python/bench.py data/15-555_*.pdb
"""

from __future__ import annotations

import glob
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import tilepdb  # noqa: E402


def best(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "data", "15-663_*.pdb")))
    if not files:
        sys.exit("bench: no tables given and data/15-663_*.pdb missing (run make data)")
    b = int(os.environ.get("BENCH_B", 1 << 20))
    runs = int(os.environ.get("BENCH_RUNS", 5))
    t0 = time.perf_counter()
    s = tilepdb.open_set(files)
    print(f"open_set {len(files)} files: {time.perf_counter() - t0:.2f} s ({s!r})")
    rng = np.random.default_rng(1)
    boards = np.argsort(rng.random((b, s.n)), axis=1).astype(np.uint8)
    for check in (True, False):
        t = best(lambda: s.lookup_batch(boards, check=check), runs)
        print(f"lookup_batch check={check}: {b} boards in {t:.3f} s = {b / t / 1e6:.2f} M boards/s")
    t = best(lambda: s.lookup_batch(boards.astype(np.int64)), runs)
    print(f"lookup_batch int64 boards: {b / t / 1e6:.2f} M boards/s")
    table = max(s.tables, key=lambda x: x.entries)
    ranks = rng.integers(0, table.entries, size=b, dtype=np.int64)
    t = best(lambda: table.values_at(ranks), runs)
    print(f"values_at ({table.pattern}): {b / t / 1e6:.2f} M ranks/s")
    one = [int(x) for x in boards[0]]
    n1 = 20000
    t = best(lambda: [s.lookup(one) if s.solvable(tilepdb.positions(one)) else 0 for _ in range(n1)], 1)
    print(f"lookup (one board per call, pure Python): {n1 / t / 1e3:.1f} k boards/s")


if __name__ == "__main__":
    main()
