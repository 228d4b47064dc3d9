"""Random mutations of good files (deterministic seeds) are rejected with one
of the four error classes of SPEC.md section 3, or read to the same table;
never another exception. Header mutations are re-signed (and, in format 2,
payload mutations get a new payload_sha256) so that they reach the JSON,
sanity, zstd and code checks."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import tilepdb
from conftest import CLASSES, CONFORMANCE_ZA, KIT, assemble, split_file

GOOD = ["good-additive.pdb", "good-exact.pdb", "good-v2-additive.pdb", "good-v2-exact.pdb", "good-multiframe.pdb"]
# zero-aware tables (SPEC.md section 11), formats 1 and 2, frames starting inside a block of S entries
GOOD += [f for f in ("v1-zero-aware-3x3.pdb", "v2-zero-aware-4x3-frames.pdb") if (CONFORMANCE_ZA / f).exists()]


def good_file(name: str):
    return (CONFORMANCE_ZA if "zero-aware" in name else KIT) / name


def outcome(data: bytes, good) -> str:
    try:
        t = tilepdb.read_bytes(data)
    except tilepdb.TilepdbError as e:
        assert e.kind in CLASSES, e
        assert "\n" not in str(e)
        return e.kind
    return "same" if (len(t.values) == len(good) and (t.values == good).all()) else "changed"


def resign_payload(major: int, js: bytes, payload: bytes) -> bytes:
    if major >= 2:
        h = json.loads(js)
        h["payload_sha256"] = hashlib.sha256(payload).hexdigest()
        js = json.dumps(h, separators=(",", ":")).encode()
    return assemble(major, js, payload)


@pytest.mark.parametrize("name", GOOD)
def test_fuzz_mutations_give_an_error_class(name):
    data = good_file(name).read_bytes()
    good = tilepdb.read_bytes(data).values
    major, js, payload = split_file(data)
    rnd = random.Random(name)
    for _ in range(300):
        kind = rnd.randrange(4)
        if kind == 0:  # raw bytes anywhere
            b = bytearray(data)
            for _ in range(rnd.randint(1, 4)):
                b[rnd.randrange(len(b))] = rnd.randrange(256)
            got = outcome(bytes(b), good)
            assert got in CLASSES or got == "same"
        elif kind == 1:  # header bytes, re-signed
            j = bytearray(js)
            for _ in range(rnd.randint(1, 3)):
                j[rnd.randrange(len(j))] = rnd.choice(b'0123456789{}[]",:-.eE tfnul\x00\xff')
            got = outcome(assemble(major, bytes(j), payload), good)
            assert got in CLASSES or got == "same"
        elif kind == 2:  # payload bytes, payload_sha256 re-signed
            p = bytearray(payload)
            for _ in range(rnd.randint(1, 3)):
                p[rnd.randrange(len(p))] ^= 1 << rnd.randrange(8)
            got = outcome(resign_payload(major, js, bytes(p)), good)
            assert got in CLASSES or got == "same"
        else:  # header values replaced by hostile ones, re-signed
            h = json.loads(js)
            key = rnd.choice(sorted(h))
            h[key] = rnd.choice([None, -1, 0, 2**64, 2**36 + 1, 1.5, "x", [], {}, [2**63], True])
            got = outcome(assemble(major, json.dumps(h).encode(), payload), good)
            assert got in CLASSES or (got == "same" and key == "generator")


def test_huge_counts_are_refused_before_any_allocation():
    # entries and frames claim a 5x5 table of 2^36 entries in a tiny file
    data = (KIT / "good-additive.pdb").read_bytes()
    major, js, payload = split_file(data)
    h = json.loads(js)
    h.update(width=5, height=5, goal=list(range(1, 25)) + [0], tiles=list(range(1, 8)),
             entries=2424480000, histogram=[2424480000], max_value=0, frames=[10] * 2313)
    with pytest.raises(tilepdb.FormatError):
        tilepdb.read_bytes(assemble(major, json.dumps(h).encode(), payload))
