"""Set files (SPEC.md section 10): the set kit's files give the expected
outcome and message; the spec's set lookup vectors; a set lookup equals the
lookup of the transformed board through the table."""

from __future__ import annotations

import numpy as np
import pytest

import tilepdb
from tilepdb.pattern import Pattern
from tilepdb.setfile import map_pattern, symmetry_cell
from conftest import FORMAT_TESTDATA, SETS, goal_for, tsv

SET_ROWS = tsv(SETS / "index.tsv")


def exit_status(e: BaseException) -> int:
    """The exit status python -m tilepdb lookup gives for an error of open_set."""
    return 1 if isinstance(e, (tilepdb.TilepdbError, tilepdb.SetError)) else 2


@pytest.mark.parametrize("row", SET_ROWS, ids=[r[0] for r in SET_ROWS])
def test_set_kit_file(row):
    file, expect, code, check, message = row[:5]
    path = str(SETS / file)
    if expect == "ok":
        s = tilepdb.open_set([path])
        assert s.lookup(list(s.goal)) == 0
        return
    with pytest.raises((tilepdb.TilepdbError, tilepdb.SetError, OSError)) as e:
        tilepdb.open_set([path])
    assert exit_status(e.value) == int(code), str(e.value)
    if check in ("go", "spec"):
        assert str(e.value) == message.replace("{dir}", str(SETS))


def test_set_kit_index_is_not_empty():
    assert len(SET_ROWS) >= 30


def test_a_table_given_directly_and_through_its_set_file_is_used_once():
    s = tilepdb.open_set([SETS / "good-a.set.json", SETS / "4x4_2-3-4.pdb"])
    assert len(s.parts) == 2 and len(s.tables) == 1


def test_overlapping_tables_are_a_set_error_naming_both():
    p = str(SETS / "4x4_2-3-4.pdb")
    with pytest.raises(tilepdb.SetError, match="are not disjoint: both hold tile\\(s\\) 2,3,4"):
        tilepdb.open_set([p, p])


SET_VECTORS = tsv(FORMAT_TESTDATA / "set_vectors.tsv")


@pytest.mark.parametrize("row", SET_VECTORS, ids=[f"{r[0]}-{r[3]}-{i}" for i, r in enumerate(SET_VECTORS)])
def test_set_vector(row):
    size, goal, tiles, sym, table_tiles, tile_map, board, cells, rank = row[:9]
    w, h = (int(x) for x in size.split("x"))
    g = goal_for(goal, w * h)
    ints = lambda s: [int(x) for x in s.split(",")]  # noqa: E731
    src = Pattern(w, h, g, ints(tiles))
    to = Pattern(w, h, g, ints(table_tiles))
    m, err = map_pattern(src, to, sym)
    assert err is None
    assert [m.tile[t] for t in src.tiles] == ints(tile_map)
    pos = tilepdb.positions([int(x) for x in board.split()])
    got_cells = [m.cell[pos[t]] for t in m.src]
    assert got_cells == ints(cells)
    assert to.rank_cells(got_cells) == int(rank)


def test_set_lookup_equals_the_transformed_board_through_the_table():
    s = tilepdb.open_set([SETS / "good-b.set.json"])
    rng = np.random.default_rng(5)
    for _ in range(300):
        board = [int(x) for x in np.argsort(rng.random(s.n))]
        pos = tilepdb.positions(board)
        if not s.solvable(pos):
            continue
        want = 0
        for part in s.parts:
            # move every tile t on cell c to cell σ(c), renamed π(t); look it up as usual
            t = part.table
            moved = [0] * s.n
            for tile in part.pattern.tiles:
                moved_cell = symmetry_cell(part.symmetry, s.w, s.h, pos[tile])
                moved[part.map.tile[tile] if part.map else tile] = moved_cell
            want += int(t.values[t.pattern.rank(moved)])
        assert s.lookup(board) == want
