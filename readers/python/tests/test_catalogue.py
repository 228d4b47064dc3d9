"""Catalogues (SPEC.md section 12, set file version 2): the maximum over
partitions of additive sums. Built here from the parts of the set kit's good
files (readers/testdata/sets), so that each partition is also a version-1 set
file whose value the catalogue takes the maximum of."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import tilepdb
from tilepdb.pattern import Pattern, positions
from tilepdb.setfile import map_pattern, parse_set_file
from tilepdb.tableset import Part, TableSet
from conftest import ROOT, SETS, tsv

GOOD_A = json.loads((SETS / "good-a.set.json").read_text())  # 2,3,4 and 5,9,13 through the table of 2,3,4
GOOD_B = json.loads((SETS / "good-b.set.json").read_text())  # three corners through the table of 1,2,5


def own(name: str, tiles: list[int]) -> dict:
    """A part through the table built for its own tiles."""
    sha = tilepdb.read_file(SETS / name).header["raw_sha256"]
    return {"tiles": tiles, "table": name, "table_tiles": tiles, "symmetry": "identity", "tile_map": tiles, "table_raw_sha256": sha}


# good-a's partition with 10,11,15 through their own table: 9 tiles, as good-b's
PARTS_A = GOOD_A["parts"] + [own("4x4_10-11-15.pdb", [10, 11, 15])]
PARTS_B = GOOD_B["parts"]
PARTS_C = GOOD_A["parts"][:1]


def catalogue(*partitions) -> dict:
    return {"tilepdb_set": 2, "width": 4, "height": 4, "goal": GOOD_A["goal"], "partitions": list(partitions)}


def additive(parts) -> dict:
    return {"tilepdb_set": 1, "width": 4, "height": 4, "goal": GOOD_A["goal"], "parts": parts}


@pytest.fixture
def tables(tmp_path):
    """A folder holding the kit's 4x4 tables."""
    for p in SETS.glob("4x4_*.pdb"):
        shutil.copy(p, tmp_path / p.name)
    return tmp_path


def write(folder, name: str, obj) -> str:
    p = folder / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj, indent=1))
    return str(p)


def random_boards(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(16) for _ in range(count)], dtype=np.uint8)


def test_maximum_over_partitions(tables):
    cat = tilepdb.open_set(write(tables, "cat.set.json", catalogue(PARTS_A, PARTS_B, PARTS_C)))
    assert cat.catalogue
    assert cat.partitions == [[0, 1, 2], [3, 4, 5], [6]]
    assert len(cat.tables) == 3
    singles = [tilepdb.open_set(write(tables, f"p{i}.set.json", additive(ps))) for i, ps in enumerate((PARTS_A, PARTS_B, PARTS_C))]
    assert not singles[0].catalogue
    boards = random_boards(3000, 7)
    wins = [0, 0]
    for b in boards:
        pos = positions(list(b))
        vals = [s.heuristic(pos) for s in singles]
        assert cat.heuristic(pos) == max(vals), list(b)
        wins[0] += vals[0] > vals[1]
        wins[1] += vals[1] > vals[0]
    assert min(wins) > 100, f"each of the first two partitions wins on some boards: {wins}"
    # the batch path: the maximum of the partitions' batch sums, -1 for the unsolvable boards
    got = cat.lookup_batch(boards)
    per = np.stack([s.lookup_batch(boards) for s in singles])
    np.testing.assert_array_equal(got, per.max(axis=0))
    assert (got == -1).sum() > 1000
    np.testing.assert_array_equal(cat.lookup_batch(boards, check=False)[got >= 0], got[got >= 0])
    # a catalogue of one partition is the set of that partition
    one = tilepdb.open_set(write(tables, "one.set.json", catalogue(PARTS_B)))
    assert one.catalogue
    np.testing.assert_array_equal(one.lookup_batch(boards[:300]), singles[1].lookup_batch(boards[:300]))


def test_each_table_read_once(tables, monkeypatch):
    read = []
    real = tilepdb.tableset.read_file

    def counting(p):
        read.append(p)
        return real(p)

    monkeypatch.setattr(tilepdb.tableset, "read_file", counting)
    s = tilepdb.open_set(write(tables, "c.set.json", catalogue(PARTS_A, PARTS_B, PARTS_A, PARTS_C)))
    assert sorted(p.rsplit("/", 1)[-1] for p in read) == ["4x4_1-2-5.pdb", "4x4_10-11-15.pdb", "4x4_2-3-4.pdb"]
    assert len(s.parts) == 10 and len(s.tables) == 3


def _bad(mutate):
    c = copy.deepcopy(catalogue(GOOD_A["parts"], PARTS_B))
    mutate(c)
    return c


ERRORS = [
    (_bad(lambda c: c.update(tilepdb_set=3)), "set file version 3 is not supported (this reader supports 1 and 2)", None, None),
    (_bad(lambda c: c.pop("partitions")), 'required key "partitions" is missing', None, None),
    (_bad(lambda c: c.update(partitions={})), 'key "partitions": want an array of arrays, found object', None, None),
    (_bad(lambda c: c["partitions"].__setitem__(1, {})), "partition 2: want an array, found object", None, None),
    (_bad(lambda c: c["partitions"][0].__setitem__(1, [])), "partition 1 part 2: want an object, found array", None, None),
    (_bad(lambda c: c["partitions"][1][2].pop("tile_map")), 'partition 2 part 3: required key "tile_map" is missing', None, None),
    (_bad(lambda c: c.update(partitions=[])), "0 partitions, want 1 to 64", None, None),
    (_bad(lambda c: c.update(partitions=[PARTS_B] * 65)), "65 partitions, want 1 to 64", None, None),
    (_bad(lambda c: c["partitions"].__setitem__(1, [])), "partition 2: 0 parts, want 1 to 15", None, 2),
    (_bad(lambda c: c["partitions"].__setitem__(1, PARTS_C * 16)), "partition 2: 16 parts, want 1 to 15", None, 2),
    (
        _bad(lambda c: c["partitions"][1][0].update(symmetry="rot45")),
        'partition 2 part 1: bad symmetry: "rot45" is not one of identity, rot90, rot180, rot270, flip-lr, flip-tb, transpose, anti-transpose',
        1,
        2,
    ),
    (_bad(lambda c: c["partitions"][1][2].update(tile_map=[1, 2, 5])), "partition 2 part 3: tile_map [1 2 5], but flip-tb maps tiles [9 13 14] to [5 1 2]", 3, 2),
    (
        _bad(lambda c: c["partitions"][1][1].update(table_tiles=[1, 2, 6])),
        'partition 2 part 2: table "4x4_1-2-5.pdb" holds tiles [1 2 5], the set file says [1 2 6]',
        2,
        2,
    ),
]


@pytest.mark.parametrize("obj,msg,part,partition", ERRORS, ids=[e[1][:60] for e in ERRORS])
def test_errors_name_partition_and_part(tables, obj, msg, part, partition):
    path = write(tables, "c.set.json", obj)
    with pytest.raises(tilepdb.SetFileError) as e:
        tilepdb.open_set(path)
    assert str(e.value) == f"{path}: tilepdb: invalid set: {msg}"
    if part is not None:
        assert (e.value.part, e.value.partition) == (part, partition)
    elif partition is not None:
        assert e.value.partition == partition


def test_errors_symmetry_overlap_and_missing_table(tables):
    c = _bad(lambda c: c["partitions"][1][1].update(symmetry="rot90"))
    path = write(tables, "c.set.json", c)
    with pytest.raises(tilepdb.SetFileError, match=r"^.*c\.set\.json: partition 2 part 2 \(tiles \[3 4 8\]\) through table \"4x4_1-2-5\.pdb\": tilepdb: invalid set: bad symmetry: rot90 maps"):
        tilepdb.open_set(path)
    # within a partition the parts are disjoint; across partitions they may share tiles
    path = write(tables, "o.set.json", _bad(lambda c: c["partitions"][1].append(GOOD_A["parts"][0])))
    with pytest.raises(tilepdb.SetFileError) as e:
        tilepdb.open_set(path)
    assert str(e.value) == (
        f"tilepdb: invalid set: {path} partition 2 part 4 (4x4 blank-last tiles 2,3,4) and {path} partition 2 part 1 "
        "(4x4 blank-last tiles 1,2,5) are not disjoint: both hold tile(s) 2"
    )
    path = write(tables, "m.set.json", _bad(lambda c: c["partitions"][1][1].update(table="none.pdb")))
    with pytest.raises(OSError, match=r"m\.set\.json: partition 2 part 2: open .*none\.pdb: no such file or directory"):
        tilepdb.open_set(path)
    # version 1 keeps "parts": a "partitions" key there is an unknown key, ignored
    assert parse_set_file(json.dumps({**GOOD_A, "partitions": 7}))[0].partitions is None
    assert len(parse_set_file(json.dumps({**catalogue(PARTS_B), "parts": 7}))[0].partitions) == 1


def test_given_with_others(tables):
    path = write(tables, "cat.set.json", catalogue(GOOD_A["parts"], PARTS_B))
    alone = tilepdb.open_set(path)
    with_own = tilepdb.open_set([str(tables / "4x4_2-3-4.pdb"), path, str(tables / "4x4_1-2-5.pdb")])
    assert with_own.partitions == alone.partitions
    boards = random_boards(100, 3)
    np.testing.assert_array_equal(with_own.lookup_batch(boards), alone.lookup_batch(boards))
    head = f"{path}: tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with "
    extra = str(tables / "4x4_10-11-15.pdb")
    junk = write(tables, "junk.pdb", "not a table")  # refused before it is read as a table
    other = write(tables, "other.set.json", catalogue(PARTS_B))
    additive_set = write(tables, "a.set.json", additive(GOOD_A["parts"]))
    for paths, culprit in (([path, extra], extra), ([junk, path], junk), ([path, other], other), ([additive_set, path], additive_set),
                           ([path, path], path)):  # the same catalogue twice, as pdbgen refuses it
        with pytest.raises(tilepdb.SetFileError) as e:
            tilepdb.open_set(paths)
        assert str(e.value) == head + culprit


def test_command_line(tables):
    path = write(tables, "cat.set.json", catalogue(PARTS_A, PARTS_B))
    s = tilepdb.open_set(path)
    boards = random_boards(50, 11)
    vals = s.lookup_batch(boards)
    want = "".join(f"{' '.join(map(str, b))}\t{v if v >= 0 else 'unsolvable'}\n" for b, v in zip(boards, vals))
    env = {"PYTHONPATH": str(ROOT / "readers" / "python" / "src")}
    r = subprocess.run([sys.executable, "-m", "tilepdb", "lookup", path], input="".join(" ".join(map(str, b)) + "\n" for b in boards), capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == want
    r = subprocess.run([sys.executable, "-m", "tilepdb", "verify", path], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{path}: ok (catalogue, 4x4 board, 2 partitions of 6 parts through 3 tables)\n"


CAT_VECTORS = ROOT / "format" / "testdata" / "catalogue_vectors.tsv"


def test_catalogue_vectors_file_is_the_spec_block():
    spec = (ROOT / "format" / "SPEC.md").read_text(encoding="utf-8")
    begin = spec.index("<!-- catalogue-vectors:begin")
    block = spec[spec.index("```\n", begin) + 4 : spec.index("```\n<!-- catalogue-vectors:end")]
    assert block == CAT_VECTORS.read_text(encoding="utf-8")


def test_catalogue_vectors():
    """SPEC.md 12.2: the catalogue the comment lines describe ("# partition I:
    TILES by SYM of TABLE; ..."), built from the set kit's tables, gives each
    part's value, each partition's sum and h on every board (through the
    set and through lookup_batch)."""
    goal = tuple(GOOD_A["goal"])
    tables: dict[str, tilepdb.Table] = {}
    parts: list[Part] = []
    partitions: list[list[int]] = []
    for line in CAT_VECTORS.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^# partition (\d+): (.*)$", line)
        if not m:
            continue
        assert int(m[1]) == len(partitions) + 1
        idx = []
        for d in m[2].split("; "):
            tiles, sym, tname = re.match(r"^([\d,]+) by ([a-z0-9-]+) of (\S+)$", d).groups()
            t = tables.setdefault(tname, tilepdb.read_file(SETS / f"{tname}.pdb"))
            src = Pattern(4, 4, goal, [int(x) for x in tiles.split(",")])
            own = sym == "identity" and src.tiles == t.pattern.tiles
            smap = None
            if not own:
                smap, err = map_pattern(src, t.pattern, sym)
                assert err is None, err
            idx.append(len(parts))
            parts.append(Part(src, t, sym, smap))
        partitions.append(idx)
    assert len(partitions) == 3
    s = TableSet(parts, [f"part {i + 1}" for i in range(len(parts))], None, partitions)
    rows = tsv(CAT_VECTORS)
    assert len(rows) >= 10
    boards = np.array([[int(x) for x in r[0].split()] for r in rows], dtype=np.uint8)
    np.testing.assert_array_equal(s.lookup_batch(boards), [int(r[-1]) for r in rows])
    for r in rows:
        board = [int(x) for x in r[0].split()]
        pos = positions(board)
        for k, col in enumerate(r[1:-1]):
            values, total = col.split(" = ")
            got = [TableSet([parts[i]], ["p"]).heuristic(pos) for i in partitions[k]]
            assert got == [int(v) for v in values.split("+")], f"{r[0]}: partition {k + 1}"
            assert sum(got) == int(total)
        assert s.heuristic(pos) == int(r[-1])
        assert s.lookup(board) == int(r[-1])
