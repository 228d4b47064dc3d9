"""Throughput of the batch API on one core (python bench.py [FILE...]).

Looks up B random boards (random permutations of 0..N-1, half of them
unsolvable) with TableSet.lookup_batch, checked and unchecked, and a single
table's values_at on random ranks; prints boards (or ranks) per second of
CPU time (time.process_time: what one core delivers, also on a machine
shared with other work) and of wall time, the best of R runs. Defaults: the
15-663 set in ../../data (make data), B = 2^20, R = 5. Pin it to one core
with `taskset -c 0` where available; numpy starts no threads for these
operations (no BLAS calls).

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


def best(fn, runs: int) -> tuple[float, float]:
    """The smallest CPU time and the smallest wall time of runs calls of fn, in seconds."""
    cpu, wall = [], []
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return min(cpu), min(wall)


def rate(what: str, count: int, times: tuple[float, float], unit: str = "boards") -> None:
    cpu, wall = times
    print(f"{what}: {count / cpu / 1e6:.2f} M {unit}/s of CPU time ({count / wall / 1e6:.2f} M/s wall)")


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
    print(f"{b} boards, best of {runs}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for check in (True, False):
        rate(f"lookup_batch check={check}", b, best(lambda: s.lookup_batch(boards, check=check), runs))
    wide = boards.astype(np.int64)
    rate("lookup_batch, int64 boards", b, best(lambda: s.lookup_batch(wide), runs))
    table = max(s.tables, key=lambda x: x.entries)
    ranks = rng.integers(0, table.entries, size=b, dtype=np.int64)
    rate(f"values_at ({table.pattern})", b, best(lambda: table.values_at(ranks), runs), "ranks")
    one = next(r for r in ([int(x) for x in row] for row in boards) if s.solvable(tilepdb.positions(r)))
    n1 = 20000
    rate("lookup, one board per call", n1, best(lambda: [s.lookup(one) for _ in range(n1)], 1))

if __name__ == "__main__":
    main()
