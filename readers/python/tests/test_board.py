"""Board syntax of puzzle.ParseBoard and pdbgen's messages for bad boards
(scripts/check-readers.sh compares the CLI with pdbgen itself)."""

from __future__ import annotations

import pytest

from tilepdb.board import parse_board

GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0]


@pytest.mark.parametrize("line", [
    b"1 2 3 4 5 6 7 8 0",
    b"  1\t2 ,3, 4 5 6 7 8 _\r",
    b"1,2,3,4,5,6,7,8,X",
    b"+1 02 3 4 5 6 7 8 -0",
])
def test_accepted(line):
    assert parse_board(line, 9) == (GOAL, None)


@pytest.mark.parametrize("line,message", [
    (b"  \t , ,", "bad board: empty line"),
    (b"1 2 3", "bad board: 3 cells, want 9"),
    # a cell left empty by a comma (issue 22), named before the count
    (b"  1\t2 ,3,,4 5 6 7 8 _\r", "bad board: cell 3: empty (a comma with no tile before it)"),
    (b"1, \t,2", "bad board: cell 1: empty (a comma with no tile before it)"),
    (b",1,2,3,4,5,6,7,8,0", "bad board: cell 0: empty (a comma with no tile before it)"),
    (b"1,2,3,4,5,6,7,8,0,", "bad board: cell 9: empty (a comma with no tile before it)"),
    (b"1 2 3 4 5 6 7 8 0 ,\t", "bad board: cell 9: empty (a comma with no tile before it)"),
    (b"1 2 3 4 5 6 7 8 -1", "bad board: cell 8: tile -1 out of range 0..8"),
    (b"1 2 3 4 5 6 7 8 xx", 'bad board: cell 8: "xx" is not a tile number or blank (0, x, _)'),
    (b"_ 2 3 4 5 6 7 8 X", "bad board: more than one blank"),
])
def test_refused_with_pdbgens_message(line, message):
    assert parse_board(line, 9) == (None, message)
