"""Boards past 5x5 (up to 8x8, 64 cells): the 6x6 and 7x7 tables of the
conformance kit against the value vectors of SPEC.md section 7 (the same
tables), one board at a time and in batches; batch ranks equal scalar ranks
on 6x6..8x8 and the long 2x8 and 8x2; boards past 8x8 are refused."""

from __future__ import annotations

import numpy as np
import pytest

import tilepdb
from tilepdb.pattern import Pattern
from conftest import CONFORMANCE, FORMAT_TESTDATA, goal_for, tsv

# kit file -> the table name of format/testdata/vectors.tsv
BIG_TABLES = {"v2-additive-6x6.pdb": "6x6_1-2-3", "v2-additive-7x7-frames.pdb": "7x7_1-2-8"}
VALUE_ROWS = tsv(FORMAT_TESTDATA / "vectors.tsv")


@pytest.mark.parametrize("file,name", sorted(BIG_TABLES.items()))
def test_big_tables_hold_the_value_vectors(file, name):
    t = tilepdb.read_file(CONFORMANCE / file)
    rows = [r for r in VALUE_ROWS if r[0] == name]
    assert len(rows) >= 8
    boards = np.array([[int(x) for x in board.split()] for _, board, _, _ in rows])
    for (_, board, rank, value), b in zip(rows, boards):
        pos = tilepdb.positions(list(b))
        assert t.pattern.rank(pos) == int(rank), board
        assert t.lookup(list(b)) == int(value), board
    assert list(t.lookup_batch(boards)) == [int(r[3]) for r in rows]


@pytest.mark.parametrize("file", sorted(BIG_TABLES))
def test_big_tables_batch_equals_lookup(file):
    t = tilepdb.read_file(CONFORMANCE / file)
    rng = np.random.default_rng(49)
    boards = np.argsort(rng.random((1500, t.pattern.n)), axis=1)
    want = []
    for row in boards:
        try:
            want.append(t.lookup([int(x) for x in row]))
        except tilepdb.UnsolvableError:
            want.append(-1)
    assert list(t.lookup_batch(boards)) == want
    assert sum(v == -1 for v in want) > 500  # half of the permutations are unsolvable


@pytest.mark.parametrize("w,h,goal,tiles", [
    (6, 6, "blank-last", [1, 2, 3, 7, 8, 9]),
    (7, 7, "blank-first", [1, 2, 8, 9, 48]),
    (8, 8, "blank-last", [1, 2, 3, 4, 5, 6]),
    (8, 8, "blank-first", [55, 62, 63]),
    (2, 8, "blank-last", [1, 2, 3, 4, 5, 6, 7]),
    (8, 2, "blank-first", [8, 9, 15]),
    (6, 5, "blank-last", [10, 20, 29]),
])
def test_big_board_batch_ranks_equal_scalar_ranks(w, h, goal, tiles):
    p = Pattern(w, h, goal_for(goal, w * h), tiles)
    rng = np.random.default_rng(w * 10 + h)
    boards = np.argsort(rng.random((400, p.n)), axis=1)
    pos = np.argsort(boards, axis=1)
    want = [p.rank(list(row)) for row in pos]
    got = p.ranks_t(np.ascontiguousarray(pos.T.astype(np.uint8)))
    assert list(got) == want
    assert 0 <= got.min() and got.max() < p.size
    # the last index: the k highest cells, in descending order of tile
    top = list(range(p.n - 1, p.n - 1 - p.k, -1))
    assert p.rank_cells(top) == p.size - 1


@pytest.mark.parametrize("w,h", [(9, 9), (8, 9), (9, 2), (1, 8)])
def test_boards_past_8x8_are_refused(w, h):
    with pytest.raises(tilepdb.BoardError, match=f"board {w}x{h}: each side must be between 2 and 8"):
        Pattern(w, h, goal_for("blank-last", w * h), [1])
