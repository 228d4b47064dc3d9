"""Shared paths and helpers. The kits live in the repository
(readers/testdata/kit, readers/testdata/sets, format/testdata/conformance);
tests that need the built default tables (data/, `make data`) skip without them."""

from __future__ import annotations

import hashlib
import os
import struct
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
KIT = ROOT / "readers" / "testdata" / "kit"
SETS = ROOT / "readers" / "testdata" / "sets"
CONFORMANCE = Path(os.environ.get("TILEPDB_CONFORMANCE_DIR", ROOT / "format" / "testdata" / "conformance"))
FORMAT_TESTDATA = ROOT / "format" / "testdata"
#: The zero-aware conformance kit (SPEC.md section 11), beside the conformance kit.
CONFORMANCE_ZA = CONFORMANCE.parent / "conformance-zero-aware"
DATA = ROOT / "data"
CLASSES = ("format", "checksum", "unsupported", "unsupported-version")


def tsv(path: Path) -> list[list[str]]:
    """Non-comment, non-empty lines of a TSV file, split on tabs."""
    return [l.split("\t") for l in path.read_text(encoding="utf-8").splitlines() if l and not l.startswith("#")]


def goal_for(name: str, n: int) -> list[int]:
    if name == "blank-last":
        return list(range(1, n)) + [0]
    if name == "blank-first":
        return list(range(n))
    return [int(x) for x in name.split()]


def split_file(b: bytes) -> tuple[int, bytes, bytes]:
    """(major, header JSON, payload) of a table file."""
    (n,) = struct.unpack_from("<I", b, 12)
    return b[8], b[16 : 16 + n], b[48 + n :]


def assemble(major: int, js: bytes, payload: bytes) -> bytes:
    """A table file with a correct header checksum around js and payload."""
    pre = b"TILEPDB\x1a" + struct.pack("<HHI", major, 0, len(js)) + js
    return pre + hashlib.sha256(pre).digest() + payload


def need_data(*names: str) -> list[Path]:
    paths = [DATA / n for n in names]
    missing = [p for p in paths if not p.exists()]
    if missing:
        pytest.skip(f"{missing[0]} missing: run make data")
    return paths
