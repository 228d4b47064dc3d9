"""The batch API: lookup_batch equals the one-board lookup, refuses arrays of
the wrong shape or dtype and bad rows with a clear message, marks
unsolvable boards; values_at checks its ranks."""

from __future__ import annotations

import numpy as np
import pytest

import tilepdb
from conftest import DATA, KIT, SETS, need_data


def random_boards(n: int, b: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((b, n)), axis=1)


def one_by_one(s, boards) -> list[int]:
    out = []
    for row in boards:
        try:
            out.append(s.lookup([int(x) for x in row]))
        except tilepdb.UnsolvableError:
            out.append(-1)
    return out


@pytest.mark.parametrize("name", ["good-a.set.json", "good-b.set.json", "good-3x2.set.json", "good-blank-first.set.json"])
def test_set_file_batch_equals_lookup(name):
    s = tilepdb.open_set([SETS / name])
    boards = random_boards(s.n, 3000)
    assert list(s.lookup_batch(boards)) == one_by_one(s, boards)


def test_exact_table_batch_equals_lookup():
    t = tilepdb.read_file(KIT / "good-v2-exact.pdb")
    boards = random_boards(t.pattern.n, 2000)
    assert list(t.lookup_batch(boards)) == one_by_one(t, boards)


def test_15_663_batch_equals_lookup_across_chunks(monkeypatch):
    files = need_data("15-663_1-5-6-9-10-13.pdb", "15-663_2-3-4.pdb", "15-663_7-8-11-12-14-15.pdb")
    import tilepdb.tableset as ts

    monkeypatch.setattr(ts, "BATCH_CHUNK", 1000)  # several chunks, the last one short
    s = tilepdb.open_set(files)
    boards = random_boards(16, 4321)
    got = s.lookup_batch(boards)
    assert got.dtype == np.int16 and got.shape == (4321,)
    assert list(got) == one_by_one(s, boards)
    assert (got == -1).sum() > 1000  # half of random permutations are unsolvable


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64])
def test_every_integer_dtype_gives_the_same_values(dtype):
    s = tilepdb.open_set([SETS / "good-a.set.json"])
    boards = random_boards(16, 200)
    assert list(s.lookup_batch(boards.astype(dtype))) == list(s.lookup_batch(boards))


def test_unchecked_batch_gives_the_sums_for_every_board():
    s = tilepdb.open_set([SETS / "good-a.set.json"])
    boards = random_boards(16, 500)
    checked = s.lookup_batch(boards)
    unchecked = s.lookup_batch(boards, check=False)
    solvable = checked >= 0
    assert (unchecked[solvable] == checked[solvable]).all()
    assert (unchecked >= 0).all()


@pytest.mark.parametrize("bad,exc,msg", [
    (np.zeros((3, 15), dtype=np.uint8), ValueError, r"shape \(B, 16\).*got shape \(3, 15\)"),
    (np.zeros(16, dtype=np.uint8), ValueError, r"got shape \(16,\)"),
    (np.zeros((2, 16), dtype=np.float64), TypeError, "integer array.*float64"),
    (np.zeros((2, 16), dtype=bool), TypeError, "dtype bool"),
    ([["a"] * 16], TypeError, "integer array"),
])
def test_wrong_shape_or_dtype_is_refused(bad, exc, msg):
    s = tilepdb.open_set([SETS / "good-a.set.json"])
    with pytest.raises(exc, match=msg):
        s.lookup_batch(bad)


@pytest.mark.parametrize("check", [True, False])
def test_out_of_range_tile_names_the_row(check):
    s = tilepdb.open_set([SETS / "good-a.set.json"])
    boards = random_boards(16, 10).astype(np.int64)
    boards[7, 3] = 16
    with pytest.raises(ValueError, match=r"boards\[7\]: bad board: cell 3: tile 16 out of range 0..15"):
        s.lookup_batch(boards, check=check)


def test_repeated_tile_names_the_row():
    s = tilepdb.open_set([SETS / "good-a.set.json"])
    boards = random_boards(16, 10).astype(np.uint8)
    boards[4, 0] = boards[4, 1]
    with pytest.raises(ValueError, match=r"boards\[4\]: bad board: tile \d+ appears twice"):
        s.lookup_batch(boards)


def test_empty_batch():
    s = tilepdb.open_set([SETS / "good-a.set.json"])
    assert s.lookup_batch(np.zeros((0, 16), dtype=np.uint8)).shape == (0,)


def test_values_at_reads_ranks_and_refuses_bad_ones():
    t = tilepdb.read_file(KIT / "good-additive.pdb")
    ranks = np.arange(t.entries)
    assert (t.values_at(ranks) == t.values).all()
    with pytest.raises(ValueError, match=f"rank {t.entries} out of range"):
        t.values_at(np.array([0, t.entries]))
    with pytest.raises(ValueError, match="rank -1 out of range"):
        t.values_at(np.array([-1]))
    with pytest.raises(TypeError, match="integer array"):
        t.values_at(np.array([0.5]))


def test_rank_batch_marks_unsolvable_boards():
    t = tilepdb.read_file(KIT / "good-additive.pdb")
    boards = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [2, 1, 3, 4, 5, 6, 7, 8, 0]])
    assert list(t.rank_batch(boards)) == [0, -1]


def test_values_are_read_only():
    t = tilepdb.read_file(KIT / "good-additive.pdb")
    with pytest.raises(ValueError):
        t.values[0] = 1


@pytest.mark.parametrize("n", [4, 6, 9, 12, 16, 20, 25])
def test_position_vectors_are_the_inverse_permutations(n):
    from tilepdb.tableset import _batch_positions

    boards = random_boards(n, 1000, seed=n)
    (lo, hi, pos_t), = list(_batch_positions(boards, n, True))
    assert (lo, hi) == (0, 1000)
    assert (pos_t.T == np.argsort(boards, axis=1)).all()


@pytest.mark.parametrize("n", [9, 25])
def test_a_repeated_tile_is_found_on_every_board_size(n):
    from tilepdb.tableset import _batch_positions

    boards = random_boards(n, 50, seed=n)
    boards[31, 2] = boards[31, 5]
    with pytest.raises(ValueError, match=r"boards\[31\]: bad board: "):
        list(_batch_positions(boards, n, True))


@pytest.mark.parametrize("n,w", [(9, 3), (16, 4), (25, 5), (12, 4)])
def test_batch_solvability_equals_the_scalar_test(n, w):
    from tilepdb.pattern import Pattern

    p = Pattern(w, n // w, list(range(1, n)) + [0], [1])
    boards = random_boards(n, 777, seed=n)
    pos = np.argsort(boards, axis=1)
    got = p.solvable_t(np.ascontiguousarray(pos.T.astype(np.uint8)))
    assert list(got) == [p.solvable(list(r)) for r in pos]


@pytest.mark.parametrize("layout", ["one row", "fortran", "c"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
def test_batch_leaves_the_callers_array_alone(layout, dtype):
    # A one-row or Fortran-ordered uint8 batch was shifted in place (its
    # transpose is C-contiguous, so the key array was a view of it).
    s = tilepdb.open_set([SETS / "good-a.set.json"])
    boards = random_boards(s.n, 1 if layout == "one row" else 50).astype(dtype)
    if layout == "fortran":
        boards = np.asfortranarray(boards)
    before = boards.copy()
    want = one_by_one(s, before)
    assert list(s.lookup_batch(boards)) == want
    np.testing.assert_array_equal(boards, before)
    s.lookup_batch(boards, check=False)
    np.testing.assert_array_equal(boards, before)
