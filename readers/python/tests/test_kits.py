"""Every file of the readers kit and of the conformance kit gives its expected
result: ok (with the listed header facts, values and board ranks), or the
error class SPEC.md section 3 names."""

from __future__ import annotations

import json

import pytest

import tilepdb
from conftest import CLASSES, CONFORMANCE, CONFORMANCE_ZA, KIT, tsv


def outcome(data: bytes) -> str:
    try:
        tilepdb.read_bytes(data)
        return "ok"
    except tilepdb.TilepdbError as e:
        return e.kind


KIT_ROWS = tsv(KIT / "index.tsv")


@pytest.mark.parametrize("name,want", [(r[0], r[1]) for r in KIT_ROWS], ids=[r[0] for r in KIT_ROWS])
def test_readers_kit_file_gives_its_class(name, want):
    assert outcome((KIT / name).read_bytes()) == want


def test_readers_kit_is_not_empty():
    assert len(KIT_ROWS) >= 40


def test_read_file_names_the_path_and_keeps_the_class():
    with pytest.raises(tilepdb.FormatError) as e:
        tilepdb.read_file(KIT / "bad-magic.pdb")
    assert str(e.value).startswith(f"{KIT / 'bad-magic.pdb'}: tilepdb: invalid table file at byte 0: ")


def test_read_file_of_a_checksum_error_closes_its_map():
    # the error path must release the memory map (no BufferError)
    with pytest.raises(tilepdb.ChecksumError):
        tilepdb.read_file(KIT / "bad-frame-checksum.pdb")


def _conformance_files(kit):
    index = kit / "index.json"
    if not index.exists():
        return []
    return [(kit, f) for f in json.loads(index.read_text(encoding="utf-8"))["files"]]


# the conformance kit and the zero-aware one (its ranks are zero-aware indexes, SPEC.md 11.2)
CONF = _conformance_files(CONFORMANCE) + _conformance_files(CONFORMANCE_ZA)


def test_zero_aware_kit_is_there():
    assert len(_conformance_files(CONFORMANCE_ZA)) >= 8, CONFORMANCE_ZA


@pytest.mark.skipif(not CONF, reason=f"{CONFORMANCE}/index.json not in this tree")
@pytest.mark.parametrize("kit,entry", CONF, ids=[f"{k.name}/{f['file']}" for k, f in CONF])
def test_conformance_kit_file(kit, entry):
    data = (kit / entry["file"]).read_bytes()
    if entry["expect"] == "error":
        assert entry["error"] in CLASSES
        with pytest.raises(tilepdb.TilepdbError) as e:
            tilepdb.read_bytes(data)
        assert e.value.kind == entry["error"], f"{entry['description']}: {e.value}"
        return
    t = tilepdb.read_bytes(data)
    want = entry["table"]
    assert f"{t.version[0]}.{t.version[1]}" == want["format"]
    p = t.pattern
    kind = "zero-aware" if t.zero_aware else p.kind
    assert t.header["kind"] == want["kind"]
    assert (p.w, p.h, list(p.goal), list(p.tiles), kind) == (
        want["width"], want["height"], want["goal"], want["tiles"], want["kind"])
    if "encoding" in want:
        assert t.encoding == want["encoding"]
    assert t.entries == want["entries"]
    assert t.header["max_value"] == want["max_value"]
    assert t.header["raw_sha256"] == want["raw_sha256"]
    for r in entry["ranks"]:
        assert t.values[r["rank"]] == r["value"], r
    for b in entry["boards"]:
        pos = tilepdb.positions(b["board"])
        assert (t.regions.index(pos) if t.zero_aware else p.rank(pos)) == b["rank"], b
        assert t.value(pos) == b["value"], b
        assert t.lookup(b["board"]) == b["value"], b


@pytest.mark.parametrize("name", ["good-additive.pdb", "good-v2-exact.pdb"])
def test_every_truncation_is_a_format_error(name):
    b = (KIT / name).read_bytes()
    for n in range(len(b)):
        assert outcome(b[:n]) == "format", n


def test_single_bit_flips_are_rejected_with_a_class_or_change_nothing():
    b = bytearray((KIT / "good-additive.pdb").read_bytes())
    good = tilepdb.read_bytes(bytes(b)).values.copy()
    for i in range(len(b)):
        c = bytearray(b)
        c[i] ^= 1 << (i % 8)
        try:
            t = tilepdb.read_bytes(bytes(c))
        except tilepdb.TilepdbError as e:
            assert e.kind in CLASSES, i
            continue
        assert (t.values == good).all(), f"byte {i} changed the table silently"
