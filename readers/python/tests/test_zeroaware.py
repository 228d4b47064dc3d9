"""Zero-aware tables (SPEC.md section 11): the vectors of 11.4, lookups
through a set part's symmetry (one board at a time and in batches), and
malformed zero-aware headers (one error of a class each, quickly, never a
crash or a giant allocation). The zero-aware kit runs in test_kits.py."""

from __future__ import annotations

import json
import random
import time

import numpy as np
import pytest

import tilepdb
from conftest import CONFORMANCE_ZA, FORMAT_TESTDATA, ROOT, assemble, split_file, tsv
from tilepdb.pattern import Pattern
from tilepdb.regions import OCCUPIED, Regions
from tilepdb.setfile import map_pattern
from tilepdb.tableset import Part, TableSet

KIT3 = CONFORMANCE_ZA / "v1-zero-aware-3x3.pdb"
VECTORS = FORMAT_TESTDATA / "zero_aware_vectors.txt"


def test_vectors_file_is_the_spec_block():
    spec = (ROOT / "format" / "SPEC.md").read_text(encoding="utf-8")
    begin = spec.index("<!-- zero-aware-vectors:begin")
    block = spec[spec.index("```\n", begin) + 4 : spec.index("```\n<!-- zero-aware-vectors:end")]
    assert block == VECTORS.read_text(encoding="utf-8")


def test_spec_vectors():
    t = tilepdb.read_file(KIT3)
    r = Regions(t.pattern)
    assert (r.comb, r.slots, r.size) == (84, 124, 744)
    multi, boards = set(), 0
    for row in tsv(VECTORS):
        if row[0].startswith("M="):
            m = int(row[0][2:])
            multi.add(m)
            regions = row[2].removeprefix("regions ").split(" ")
            assert [c for c, x in enumerate(regions) if x == "x"] == [int(c) for c in row[1].removeprefix("cells ").split(",")]
            assert list(r.region_of[m]) == [OCCUPIED if x == "x" else int(x) for x in regions], m
            assert r.count(m) == max(int(x) for x in regions if x != "x") + 1
            assert r.slot_start[m] == int(row[3].removeprefix("slotStart "))
            continue
        board = [int(x) for x in row[0].split()]
        m, p, blank, region, start, index, value, plain = map(int, row[2:10])
        pos = tilepdb.positions(board)
        assert pos[0] == blank
        assert t.pattern.rank(pos) == p * 84 + m
        assert r.region_of[m, blank] == region
        assert r.slot_start[m] == start
        assert r.index(pos) == index
        assert t.values[index] == value and t.value(pos) == value
        base = p * 124 + start
        assert t.values[base : base + r.count(m)].min() == plain
        assert r.cell_set_of_slot(start + region) == m
        boards += 1
    assert boards >= 8
    assert all(r.count(m) == 1 for m in range(84) if m not in multi)


def _transposed(b, goal):
    tc = lambda c: (c % 3) * 3 + c // 3  # noqa: E731
    gp = tilepdb.positions(goal)
    out = [0] * 9
    for c, x in enumerate(b):
        out[tc(c)] = goal[tc(gp[x])]
    return out


def test_part_through_transpose_reads_the_transposed_cells_and_blank():
    t = tilepdb.read_file(KIT3)
    goal = list(t.pattern.goal)
    part = Pattern(3, 3, goal, [1, 4, 7])
    m, err = map_pattern(part, t.pattern, "transpose")
    assert m is not None, err
    s = TableSet([Part(part, t, "transpose", m)], ["part 1"])
    own = TableSet.of_tables([t])
    rnd = random.Random(7)
    boards = []
    for _ in range(2000):
        b = list(range(9))
        rnd.shuffle(b)
        boards.append(b)
    want = [t.value(tilepdb.positions(_transposed(b, goal))) for b in boards]
    got = [s.heuristic(tilepdb.positions(b)) for b in boards]
    assert got == want
    assert sum(own.heuristic(tilepdb.positions(b)) != w for b, w in zip(boards, want)) > 100
    # the batch path agrees (-1 for the boards of the other parity class)
    batch = s.lookup_batch(np.array(boards), check=True)
    solv = [s.solvable(tilepdb.positions(b)) for b in boards]
    assert list(batch) == [w if ok else -1 for w, ok in zip(want, solv)]
    assert list(own.lookup_batch(np.array(boards), check=False)) == [own.heuristic(tilepdb.positions(b)) for b in boards]


def _big(w, k, entries):
    def edit(h):
        h.update(width=w, height=w, goal=list(range(1, w * w)) + [0], tiles=list(range(1, k + 1)), entries=entries)
    return edit


def _set(key, value):
    return lambda h: h.__setitem__(key, value)


CASES = [
    ("entries of the additive table", _set("entries", 504), tilepdb.FormatError,
     "entries 504, but the zero-aware table of pattern 3x3 blank-last tiles 1,2,3 has 744"),
    ("entries one more", _set("entries", 745), tilepdb.FormatError, "has 744"),
    ("entries 2^64-1", _set("entries", 2**64 - 1), tilepdb.FormatError, "entries"),
    ("additive ranking", _set("ranking", "cellset-order"), tilepdb.FormatError, 'want "cellset-order-region"'),
    ("kind of another case", _set("kind", "Zero-Aware"), tilepdb.UnsupportedError, 'kind "Zero-Aware"'),
    ("future kind", _set("kind", "zero-aware-2"), tilepdb.UnsupportedError, 'kind "zero-aware-2"'),
    ("kind as a number", _set("kind", 3), tilepdb.FormatError, "kind"),
    ("kind zero-aware, all tiles", _set("tiles", list(range(1, 9))), tilepdb.FormatError,
     'kind "zero-aware", but 8 of 8 tiles make an "exact" table'),
    ("kind zero-aware, 7 of 8 tiles", _set("tiles", list(range(1, 8))), tilepdb.FormatError, "tiles"),
    ("ranking_version 0", _set("ranking_version", 0), tilepdb.UnsupportedError, "ranking_version 0"),
    # 8x8, 6 tiles: region maps of 4.8 GB, refused before any labelling
    ("8x8 6 tiles", _big(8, 6, 2**36), tilepdb.LimitError, "take 4798359552 bytes"),
    # 7x7, 4 tiles: C(49,4) = 211,876 cell sets labelled, then the entries disagree
    ("7x7 4 tiles, entries wrong", _big(7, 4, 1000), tilepdb.FormatError,
     "entries 1000, but the zero-aware table of pattern 7x7 blank-last tiles 1,2,3,4 has "),
]


@pytest.mark.parametrize("name,edit,cls,msg", CASES, ids=[c[0] for c in CASES])
def test_malformed_zero_aware_header(name, edit, cls, msg):
    major, js, payload = split_file(KIT3.read_bytes())
    h = json.loads(js)
    edit(h)
    t0 = time.monotonic()
    with pytest.raises(cls) as e:
        tilepdb.read_bytes(assemble(major, json.dumps(h, separators=(",", ":")).encode(), payload))
    assert msg in str(e.value)
    assert time.monotonic() - t0 < 30


def _flood_regions(w, h, occupied):
    """Reference labelling, one flood fill at a time (SPEC.md 11.1)."""
    n = w * h
    lab = [OCCUPIED] * n
    nxt = 0
    for c in range(n):
        if c in occupied or lab[c] != OCCUPIED:
            continue
        lab[c], stack = nxt, [c]
        while stack:
            x = stack.pop()
            r, col = divmod(x, w)
            for y, ok in ((x - w, r > 0), (x + w, r < h - 1), (x - 1, col > 0), (x + 1, col < w - 1)):
                if ok and y not in occupied and lab[y] == OCCUPIED:
                    lab[y] = nxt
                    stack.append(y)
        nxt += 1
    return lab, nxt


@pytest.mark.parametrize("w,h,tiles", [(3, 3, [1, 2, 3]), (4, 3, [1, 2, 3, 4]), (3, 4, [2, 5]), (5, 2, [1, 2, 3]), (2, 5, [1, 3, 4]), (4, 4, [1, 2, 3, 4, 5])])
def test_vectorised_labels_match_flood_fill(w, h, tiles):
    from tilepdb.pattern import _colex_combinations

    n = w * h
    r = Regions(Pattern(w, h, list(range(1, n)) + [0], tiles))
    start = 0
    for m, cs in enumerate(_colex_combinations(n, len(tiles))):
        lab, count = _flood_regions(w, h, set(int(c) for c in cs))
        assert list(r.region_of[m]) == lab, (m, list(cs))
        assert r.slot_start[m] == start
        start += count
    assert r.slots == start
