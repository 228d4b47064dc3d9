#!/usr/bin/env python3
"""Checks and tabulates the answers of one `pdbgen solve --json` run on 5x5
boards against reference optimal lengths and node counts (scripts/korf24.sh,
scripts/deepcubea24-ida.sh).

Usage: ida24-check.py INSTANCES ANSWERS GOAL REF WALL USER SYS RSS_KB
  INSTANCES  TSV: id, optimal length, reference node count, board (the tile
             in each cell, row-major, 0 = blank, in the tables' convention)
  ANSWERS    the JSON lines of pdbgen solve, one per instance, same order
  GOAL       blank-first or blank-last: the goal every move string must reach
  REF        the reference's name for the table header
  WALL USER SYS RSS_KB  the process's figures from GNU time

Prints a Markdown table (id, length, nodes, reference nodes, ratio, the
instance's search seconds), a total row, and the process's wall, CPU and
peak RSS; exits 1 when a length is not the optimal one or a move string does
not replay to the goal.
"""
import json
import sys


def replay(board, moves):
    b, z = list(board), board.index(0)
    for m in moves:
        r, c = divmod(z, 5)
        r, c = {"u": (r - 1, c), "d": (r + 1, c), "l": (r, c - 1), "r": (r, c + 1)}[m]
        if not (0 <= r < 5 and 0 <= c < 5):
            return None
        t = r * 5 + c
        b[z], b[t] = b[t], 0
        z = t
    return b


def main(argv):
    if len(argv) != 9:
        sys.exit(__doc__)
    inst = [l.rstrip("\n").split("\t") for l in open(argv[1])]
    ans = [json.loads(l) for l in open(argv[2])]
    goal = list(range(25)) if argv[3] == "blank-first" else list(range(1, 25)) + [0]
    ref = argv[4]
    wall, user, sys_, rss = float(argv[5]), float(argv[6]), float(argv[7]), int(argv[8])
    if len(ans) != len(inst):
        sys.exit("%d answers for %d instances" % (len(ans), len(inst)))
    print("| # | length (optimal) | nodes generated | %s | ratio | search s |" % ref)
    print("|---|---|---|---|---|---|")
    bad, nodes, refn, search, worst = 0, 0, 0, 0.0, 0.0
    for (id_, want, rn, board), a in zip(inst, ans):
        b = list(map(int, board.split()))
        if a["board"] != b:
            sys.exit("answer for %s, want %s" % (a["board"], b))
        end = replay(b, a["moves"])
        if not (end == goal and a["length"] == int(want) == len(a["moves"])):
            bad += 1
            print("#%s: length %s, optimal %s, replay %s" % (id_, a["length"], want, "ok" if end == goal else "FAILS"), file=sys.stderr)
        ratio = a["nodes"] / int(rn)
        worst = max(worst, ratio)
        nodes += a["nodes"]
        refn += int(rn)
        search += a["elapsed_ms"] / 1000
        print("| %s | %d (%s) | %s | %s | %.4f | %.1f |" % (id_, a["length"], want, format(a["nodes"], ","), format(int(rn), ","), ratio, a["elapsed_ms"] / 1000))
    print("| all %d | | %s | %s | %.4f (largest %.4f) | %.1f |" % (len(inst), format(nodes, ","), format(refn, ","), nodes / refn, worst, search))
    print("wall %.1f s, CPU %.1f s (user %.1f + sys %.1f), %.1f M nodes per CPU-second, peak RSS %d MiB"
          % (wall, user + sys_, user, sys_, nodes / (user + sys_) / 1e6, rss // 1024))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
