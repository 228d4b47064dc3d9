"""Ranking (SPEC.md section 4) against the spec's test vectors, scalar and
batch, and the format 2 Manhattan walk against a direct computation."""

from __future__ import annotations

import itertools
import numpy as np
import pytest

import tilepdb
from tilepdb.pattern import ManhattanWalker, Pattern
from conftest import FORMAT_TESTDATA, goal_for, tsv

RANK_ROWS = tsv(FORMAT_TESTDATA / "rank_vectors.tsv")


def pattern_of(size: str, goal: str, tiles: str) -> Pattern:
    w, h = (int(x) for x in size.split("x"))
    return Pattern(w, h, goal_for(goal, w * h), [int(t) for t in tiles.split(",")])


@pytest.mark.parametrize("row", RANK_ROWS, ids=[f"{r[0]}-{r[2]}-{r[5]}" for r in RANK_ROWS])
def test_rank_vector_scalar(row):
    size, goal, tiles, ranking, board, rank = row
    p = pattern_of(size, goal, tiles)
    assert p.ranking == ranking
    assert p.rank(tilepdb.positions([int(x) for x in board.split()])) == int(rank)


def test_rank_vectors_batch():
    for size, goal, tiles, _, board, rank in RANK_ROWS:
        p = pattern_of(size, goal, tiles)
        pos_t = np.array(tilepdb.positions([int(x) for x in board.split()]), dtype=np.uint8)[:, None]
        assert p.ranks_t(pos_t)[0] == int(rank), (size, tiles, board)


@pytest.mark.parametrize("size,tiles", [("4x4", "1,2,3,4,5,6"), ("4x4", "2,3,4"), ("5x5", "1,2,5,6,7,12"),
                                        ("3x3", "1,2,3,4,5,6,7,8"), ("4x3", "1,2,3,4,5,6,7,8,9,10,11")])
def test_batch_ranks_equal_scalar_ranks_on_random_states(size, tiles):
    p = pattern_of(size, "blank-last", tiles)
    rng = np.random.default_rng(7)
    boards = np.argsort(rng.random((500, p.n)), axis=1)
    pos = np.argsort(boards, axis=1)
    want = []
    for row in pos:
        want.append(p.rank(list(row)))  # lehmer-half reads pos[0..N-3] only
    pos_t = np.ascontiguousarray(pos.T.astype(np.uint8))
    got = p.ranks_t(pos_t)
    assert list(got) == want
    assert got.max() < p.size


def test_worked_examples_of_the_spec():
    p = Pattern(3, 3, goal_for("blank-last", 9), [1, 2, 3])
    assert p.rank(tilepdb.positions([4, 1, 0, 3, 2, 5, 6, 7, 8])) == 92
    e = Pattern(3, 3, goal_for("blank-last", 9), range(1, 9))
    assert e.rank(tilepdb.positions([4, 1, 0, 3, 2, 5, 6, 7, 8])) == 43620


def _manhattan_of_state(p: Pattern, pos) -> int:
    return sum(abs(pos[t] // p.w - p.goal_pos[t] // p.w) + abs(pos[t] % p.w - p.goal_pos[t] % p.w) for t in p.tiles)


@pytest.mark.parametrize("w,h,tiles", [(3, 3, [1, 2, 3]), (3, 2, [1, 2]), (3, 2, [1, 2, 3, 4, 5]),
                                       (2, 2, [1, 2, 3]), (4, 2, [2, 5, 7]), (4, 4, [1, 6, 11])])
@pytest.mark.parametrize("goal", ["blank-last", "blank-first"])
def test_manhattan_walk_matches_every_state(w, h, tiles, goal):
    p = Pattern(w, h, goal_for(goal, w * h), tiles)
    want = np.full(p.size, -1, dtype=np.int64)
    if p.exact:
        for perm in itertools.permutations(range(p.n)):
            pos = list(perm)
            if p.solvable(pos):
                want[p.rank(pos)] = _manhattan_of_state(p, pos)
    else:
        for cells in itertools.permutations(range(p.n), len(p.tiles)):
            pos = [0] * p.n
            for t, c in zip(p.tiles, cells):
                pos[t] = c
            want[p.rank(pos)] = _manhattan_of_state(p, pos)
    assert (want >= 0).all()
    walker = ManhattanWalker(p)
    assert list(walker.manhattan(0, p.size)) == list(want)
    mid = p.size // 3
    assert list(walker.manhattan(mid, p.size)) == list(want[mid:])
