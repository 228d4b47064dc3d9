#!/usr/bin/env python3
"""Fits the beam search's rank weights (pdbgen solve --rank-weights) to solutions.

Usage: scripts/fit-rank-weights.py ANSWERS FILE... > weights

ANSWERS: the output of `pdbgen solve --json` (final answers with moves, in
the tables' goal convention) on FILE... (an additive set: its tables or set
file, as given to solve). Every third state along each answer is a sample:
its value in each part (`pdbgen lookup --parts FILE...`) and the moves left
to the goal on the answer's path (an upper bound on its distance).
A least-squares fit of moves left = b + sum w_i * h_i gives the weights; they
are clipped to 0..8 and scaled to a mean of 1 (the ranking only needs their
ratios) and printed comma-separated; the fit's root-mean-square error and that
of h scaled alone go to stderr. Needs python3 and bin/pdbgen (make build).
"""
import json
import subprocess
import sys


def samples(path, side):
    for line in open(path):
        a = json.loads(line)
        if not a.get("final", True) or not a.get("moves") or a["moves"] == "-":
            continue
        b = list(a["board"])
        z = b.index(0)
        left = len(a["moves"])
        for i, m in enumerate(a["moves"]):
            if i % 3 == 0:
                yield tuple(b), left - i
            r, c = divmod(z, side)
            dr, dc = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}[m]
            t = (r + dr) * side + c + dc
            b[z], b[t] = b[t], b[z]
            z = t


def solve(a, v):
    """Solves a x = v by Gaussian elimination with partial pivoting."""
    n = len(v)
    m = [row[:] + [v[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if m[c][c] == 0:
            sys.exit("fit-rank-weights: the tables' values are linearly dependent on these samples")
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    answers, tables = sys.argv[1], sys.argv[2:]
    try:
        first = json.loads(open(answers).readline())
    except (OSError, ValueError) as e:
        sys.exit("fit-rank-weights: %s: not solve --json output: %s" % (answers, e))
    side = int(round(len(first["board"]) ** 0.5))
    rows = list(samples(answers, side))
    text = "".join(" ".join(map(str, b)) + "\n" for b, _ in rows)
    run = subprocess.run(["bin/pdbgen", "lookup", "--parts"] + tables, input=text, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("fit-rank-weights: pdbgen lookup --parts failed: " + run.stderr.strip())
    out = run.stdout
    x = [[1.0] + [int(v) for v in l.split("\t")[2].split(",")] for l in out.splitlines() if l.strip()]
    if len(x) != len(rows):
        sys.exit("fit-rank-weights: pdbgen lookup answered %d of %d samples" % (len(x), len(rows)))
    y = [float(left) for _, left in rows]
    k = len(x[0])
    if len(rows) < 10 * k:
        sys.exit("fit-rank-weights: %d samples are too few for %d weights" % (len(rows), k - 1))
    ata = [[sum(r[p] * r[q] for r in x) for q in range(k)] for p in range(k)]
    aty = [sum(r[p] * t for r, t in zip(x, y)) for p in range(k)]
    w = solve(ata, aty)

    def rmse(pred):
        return (sum((p - t) ** 2 for p, t in zip(pred, y)) / len(y)) ** 0.5

    h = [sum(r[1:]) for r in x]
    scale = sum(a * t for a, t in zip(h, y)) / sum(a * a for a in h)
    fit = [sum(a * b for a, b in zip(w, r)) for r in x]
    print("fit-rank-weights: %d samples; moves left = %.2f + sum w_i h_i: rms error %.2f (h scaled alone: %.2f)"
          % (len(rows), w[0], rmse(fit), rmse([scale * a for a in h])), file=sys.stderr)
    ws = [min(max(v, 0.0), 8.0) for v in w[1:]]
    mean = sum(ws) / len(ws)
    if mean <= 0:
        sys.exit("fit-rank-weights: every weight fitted at or below 0")
    print(",".join("%.3f" % min(v / mean, 8.0) for v in ws))


if __name__ == "__main__":
    main()
