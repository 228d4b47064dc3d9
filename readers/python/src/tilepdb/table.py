"""Reading and verifying one table file (format/SPEC.md, versions 1.x and 2.x).

:func:`read_bytes` and :func:`read_file` check a file in the strict order of
SPEC.md section 3 and return a :class:`Table` whose ``values`` is a read-only
numpy uint8 array of ``entries`` values (moves), indexed by rank. Nothing the
file says is trusted for an allocation before it is checked against the file
size: the header after ``48 + n <= size``, the table after the frame layout
and every zstd frame header (steps 5 and 7).

Files are memory-mapped: the payload is hashed and decompressed straight
from the page cache, frame by frame into the values array (a table of one
frame in format 1.0 is the decompressed buffer itself, without a copy).
Format 2.0 stores codes; they are decoded once, vectorised, into values.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import re
import stat as _stat
import struct
import traceback

import numpy as np

from . import _zstd
from ._json import has_lone_surrogate, kind_of
from .board import go_quote
from .errors import (
    BoardError,
    ChecksumError,
    FormatError,
    LimitError,
    UnsolvableError,
    UnsupportedError,
    UnsupportedVersionError,
)
from .pattern import MAX_ENTRIES, MAX_SIDE, MIN_SIDE, RANKING_VERSION, ManhattanWalker, Pattern, positions, validate_board
from .regions import KIND_ZERO_AWARE, RANKING_CELLSET_ORDER_REGION, Regions

__all__ = ["Table", "read_bytes", "read_file", "MAGIC", "MAJOR_VERSIONS"]

MAGIC = b"TILEPDB\x1a"
#: Major versions read (any minor version of each).
MAJOR_VERSIONS = (1, 2)
MAX_HEADER_LEN = 16 << 20
MIN_FRAME_SIZE = 1 << 10
MAX_FRAME_SIZE = 1 << 26
BITS_PER_ENTRY = 8
UNREACHED = 255
ENCODINGS = ("manhattan-half-4bit", "manhattan-half-8bit")
#: Largest region maps (C(N,k)·N bytes) labelled for a zero-aware header.
MAX_REGION_BYTES = 1 << 28
_PREFIX_LEN = 16
_CHECKSUM_LEN = 32
_OFF_HEADER = 16
_INT64 = (-(1 << 63), (1 << 63) - 1)
_UINT64 = (0, (1 << 64) - 1)
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class Table:
    """One decoded, verified table (of either format: the values are the same).

    Attributes: ``header`` (dict, the JSON header as parsed), ``pattern``
    (:class:`~tilepdb.pattern.Pattern`), ``values`` (read-only numpy uint8
    array, ``values[rank]`` = moves), ``version`` ((major, minor)),
    ``encoding`` ("raw bytes" in format 1, else the format 2 encoding),
    ``regions`` (a zero-aware table's :class:`~tilepdb.regions.Regions`,
    SPEC.md section 11: ``values`` is indexed by its index; else None).
    """

    def __init__(self, header: dict, pattern: Pattern, values: np.ndarray, version: tuple[int, int],
                 regions: Regions | None = None) -> None:
        values.flags.writeable = False
        self.header = header
        self.pattern = pattern
        self.values = values
        self.version = version
        self.encoding = header.get("encoding", "raw bytes")
        self.regions = regions

    @property
    def zero_aware(self) -> bool:
        """Whether the table is of kind zero-aware."""
        return self.regions is not None

    def __repr__(self) -> str:
        return f"<tilepdb.Table {self.pattern}, {len(self.values)} entries, format {self.version[0]}.{self.version[1]}>"

    @property
    def entries(self) -> int:
        return len(self.values)

    def value(self, pos) -> int:
        """Value of the state with position vector pos (unchecked)."""
        return int(self.values[self.regions.index(pos) if self.regions else self.pattern.rank(pos)])

    def lookup(self, board) -> int:
        """Checked lookup of one board (N tiles, 0 = blank), in moves.

        Raises BoardError for a malformed board and UnsolvableError for one
        that cannot reach the file's goal (exact and additive tables alike)."""
        err = validate_board(list(board), self.pattern.n)
        if err:
            raise BoardError(err)
        pos = positions(board)
        if not self.pattern.solvable(pos):
            raise UnsolvableError(self.pattern.goal_name)
        return self.value(pos)

    def rank_batch(self, boards, *, check: bool = True) -> np.ndarray:
        """Ranks (int64, shape (B,)) of a (B, N) integer array of boards: the
        indexes of ``values`` (zero-aware indexes for a zero-aware table).

        With check, every row must be a permutation of 0..N-1 (ValueError
        naming the first bad row otherwise); unsolvable boards get rank -1."""
        from .tableset import _batch_positions

        out = np.empty(len(_as_boards(boards, self.pattern.n)), dtype=np.int64)
        for lo, hi, pos_t in _batch_positions(boards, self.pattern.n, check):
            r = self.regions.indexes_t(pos_t) if self.regions else self.pattern.ranks_t(pos_t)
            if check:
                r[~self.pattern.solvable_t(pos_t)] = -1
            out[lo:hi] = r
        return out

    def lookup_batch(self, boards, *, check: bool = True) -> np.ndarray:
        """Values (int16, shape (B,)) of a (B, N) integer array of boards; -1
        marks a board that cannot reach the goal (with check; without it,
        rows are only checked to hold tiles 0..N-1 and no solvability is
        tested). ValueError/TypeError for an array of the wrong shape or dtype."""
        from .tableset import TableSet

        return TableSet.of_tables([self]).lookup_batch(boards, check=check)

    def values_at(self, ranks) -> np.ndarray:
        """Values (uint8, same shape) at an integer array of ranks, each in [0, entries).

        TypeError for a non-integer dtype, ValueError for a rank out of range."""
        r = np.asarray(ranks)
        if r.dtype.kind not in "iu":
            raise TypeError(f"values_at: ranks must be an integer array, got dtype {r.dtype}")
        if r.size:
            lo, hi = int(r.min()), int(r.max())
            if lo < 0 or hi >= len(self.values):
                bad = lo if lo < 0 else hi
                raise ValueError(f"values_at: rank {bad} out of range 0..{len(self.values) - 1}")
        return self.values[r]


def _as_boards(boards, n: int) -> np.ndarray:
    from .tableset import check_boards_array

    return check_boards_array(boards, n)


# --- zstd frame checks of SPEC.md section 1 ---


def _check_frame_header(b: bytes, raw: int) -> str:
    if len(b) < 6 or b[:4] != b"\x28\xb5\x2f\xfd":
        return "not a zstd frame (bad zstd magic)"
    fhd = b[4]
    fcs_flag = fhd >> 6
    single = fhd & 0x20 != 0
    if fhd & 0x08:
        return "zstd frame descriptor has the reserved bit set"
    if not fhd & 0x04:
        return "zstd frame has no content checksum"
    if fhd & 0x03:
        return "zstd frame uses a dictionary"
    if fcs_flag == 0 and not single:
        return "zstd frame does not record its content size"
    i = 5 if single else 6
    fcs_len = (1, 2, 4, 8)[fcs_flag]
    if len(b) < i + fcs_len:
        return "zstd frame header truncated"
    fcs = int.from_bytes(b[i : i + fcs_len], "little")
    if fcs_len == 2:
        fcs += 256
    if fcs != raw:
        return f"zstd frame content size is {fcs}, want {raw}"
    return ""


def _check_frame_blocks(f, window: int) -> str:
    """Walks the blocks of one zstd frame that must fill exactly len(f) bytes."""
    fhd = f[4]
    single = fhd & 0x20 != 0
    fcs_flag = fhd >> 6
    p = 5
    if not single:
        wd = f[5]
        base = 1 << (10 + (wd >> 3))
        w = base + (base // 8) * (wd & 7)
        if w > window:
            return f"zstd window of {w} bytes exceeds the limit of {window}"
        p += 1
    p += ((1 if single else 0), 2, 4, 8)[fcs_flag]
    n = len(f)
    while True:
        if p + 3 > n:
            return "zstd frame truncated (block header)"
        bh = f[p] | (f[p + 1] << 8) | (f[p + 2] << 16)
        p += 3
        last = bh & 1
        typ = (bh >> 1) & 3
        size = bh >> 3
        if typ == 3:
            return "zstd block of reserved type"
        if size > 128 << 10:
            return f"zstd block of {size} bytes exceeds 128 KiB"
        p += 1 if typ == 1 else size
        if p > n:
            return "zstd frame truncated (block)"
        if last:
            break
    if p + 4 != n:
        if p + 4 > n:
            return "zstd frame truncated (content checksum)"
        return f"zstd frame ends {n - p - 4} bytes before the frame's end"
    return ""


def _min_frame_len(raw: int) -> int:
    """Lower bound on a valid zstd frame of raw stored bytes (SPEC.md 3.5)."""
    blocks = max(-(-raw // (128 << 10)), 1)
    return 4 + 1 + 1 + 4 * blocks + 4


def _stored_size(encoding: str | None, e: int) -> int:
    return (e + 1) // 2 if encoding == "manhattan-half-4bit" else e


# --- header JSON (SPEC.md section 2) ---


class _JSONError(ValueError):
    pass


class _NonInteger:
    """A JSON number with a fraction or exponent (never an integer of the header)."""

    def __init__(self, literal: str) -> None:
        self.literal = literal


def _pairs(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise _JSONError(f"duplicate key {json.dumps(k)}")
        d[k] = v
    return d


def _bad_constant(name):
    raise _JSONError(f"invalid character {name[0]!r} looking for beginning of value")


def parse_json(text: str):
    """Strict JSON (RFC 8259) as SPEC.md section 2 wants it: duplicate keys
    refused in every object, numbers with a fraction or exponent kept apart,
    NaN and Infinity refused. Raises ValueError (or RecursionError)."""
    return json.loads(text, object_pairs_hook=_pairs, parse_float=_NonInteger, parse_constant=_bad_constant)


def _field(obj: dict, name: str):
    if name not in obj:
        raise _JSONError(f"required key {json.dumps(name)} is missing")
    v = obj[name]
    if v is None:
        raise _JSONError(f"key {json.dumps(name)} is null")
    return v


def _int_of(v, what: str, lo: int, hi: int) -> int:
    if type(v) is not int:
        lit = v.literal if isinstance(v, _NonInteger) else None
        if lit is not None:
            raise _JSONError(f"cannot unmarshal number {lit} into {what}")
        raise _JSONError(f"cannot unmarshal {kind_of(v)} into {what}")
    if v < lo or v > hi:
        raise _JSONError(f"cannot unmarshal number {v} into {what}")
    return v


def _int_field(obj, name, rng=_INT64):
    return _int_of(_field(obj, name), f"key {name} (integer)", *rng)


def _str_field(obj, name):
    v = _field(obj, name)
    if not isinstance(v, str):
        raise _JSONError(f"cannot unmarshal {kind_of(v)} into field {name} of type string")
    return v


def _ints_field(obj, name, rng=_INT64):
    v = _field(obj, name)
    if not isinstance(v, list):
        raise _JSONError(f"cannot unmarshal {kind_of(v)} into field {name} of type array")
    what = f"field {name} element of type {'uint64' if rng is _UINT64 else 'int'}"
    return [_int_of(e, what, *rng) for e in v]


def _parse_header(text: str, major: int) -> dict:
    obj = parse_json(text)
    if not isinstance(obj, dict):
        raise _JSONError("header is not a JSON object")
    h = {
        "width": _int_field(obj, "width"),
        "height": _int_field(obj, "height"),
        "goal": _ints_field(obj, "goal"),
        "goal_name": _str_field(obj, "goal_name"),
        "tiles": _ints_field(obj, "tiles"),
        "kind": _str_field(obj, "kind"),
        "ranking": _str_field(obj, "ranking"),
        "ranking_version": _int_field(obj, "ranking_version"),
        "entries": _int_field(obj, "entries", _UINT64),
        "bits_per_entry": _int_field(obj, "bits_per_entry"),
        "max_value": _int_field(obj, "max_value"),
        "histogram": _ints_field(obj, "histogram", _UINT64),
        "raw_sha256": _str_field(obj, "raw_sha256"),
        "generator": _str_field(obj, "generator"),
        "frame_size": _int_field(obj, "frame_size"),
        "frames": _ints_field(obj, "frames"),
    }
    if major >= 2:
        h["encoding"] = _str_field(obj, "encoding")
        h["payload_sha256"] = _str_field(obj, "payload_sha256")
    return h


def _check_header(h: dict, major: int) -> tuple[Pattern, Regions | None]:
    """SPEC.md 3.4 in the reference reader's order; returns the pattern and
    a zero-aware table's regions (else None)."""

    def bad(msg):
        return FormatError(_OFF_HEADER, f"header: {msg}")

    def unsupported(msg):
        return UnsupportedError(_OFF_HEADER, f"header: {msg}")

    w, ht = h["width"], h["height"]
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= ht <= MAX_SIDE):
        raise bad(f"board {w}x{ht}: each side must be between {MIN_SIDE} and {MAX_SIDE}")
    n = w * ht
    goal = h["goal"]
    if len(goal) != n:
        raise bad(f"goal has {len(goal)} cells, want {n} for a {w}x{ht} board")
    for i, t in enumerate(goal):
        if t < 0 or t >= n:
            raise bad(f"goal cell {i}: tile {t} out of range 0..{n - 1}")
    err = validate_board(goal, n)
    if err:
        raise bad(f"goal: {err}")
    tiles = h["tiles"]
    if len(tiles) == 0 or len(tiles) > n - 1:
        raise bad(f"{len(tiles)} tiles, want 1..{n - 1}")
    for i, t in enumerate(tiles):
        if t < 1 or t >= n:
            raise bad(f"tile {t} out of range 1..{n - 1}")
        if i > 0 and t <= tiles[i - 1]:
            raise bad(f"tiles not strictly ascending ({t} after {tiles[i - 1]})")
    try:
        p = Pattern(w, ht, goal, tiles)
    except BoardError as e:
        raise bad(str(e)) from None
    # A zero-aware header describes an additive pattern; a kind none of the
    # three (a future one) is unsupported, not corrupt (SPEC.md section 11).
    za = h["kind"] == KIND_ZERO_AWARE and not p.exact
    if h["kind"] not in ("exact", "additive", KIND_ZERO_AWARE):
        raise unsupported(
            f"kind {json.dumps(h['kind'])} is not supported "
            f'(this reader implements "exact", "additive" and "{KIND_ZERO_AWARE}")'
        )
    want_kind = KIND_ZERO_AWARE if za else p.kind
    want_ranking = RANKING_CELLSET_ORDER_REGION if za else p.ranking
    if h["kind"] != want_kind:
        raise bad(f'kind "{h["kind"]}", but {len(p.tiles)} of {n - 1} tiles make an "{p.kind}" table')
    if h["ranking"] != want_ranking:
        raise bad(f'ranking "{h["ranking"]}", want "{want_ranking}" for a table of kind "{want_kind}"')
    if h["ranking_version"] != RANKING_VERSION:
        raise unsupported(
            f"ranking_version {h['ranking_version']} is not supported (this reader implements version {RANKING_VERSION})"
        )
    if h["bits_per_entry"] != BITS_PER_ENTRY:
        raise unsupported(f"bits_per_entry {h['bits_per_entry']} is not supported (want {BITS_PER_ENTRY})")
    if major >= 2 and h["encoding"] not in ENCODINGS:
        raise unsupported(
            f"encoding {json.dumps(h['encoding'])} is not supported "
            "(this reader implements manhattan-half-4bit and manhattan-half-8bit)"
        )
    regions = None
    if za:
        # Labelling takes C(N,k)·N bytes and a flood fill per cell set:
        # bounded before it starts (a 35-puzzle 6-tile table needs 70 MB).
        if p.comb * n > MAX_REGION_BYTES:
            raise LimitError(
                f"tilepdb: the region maps of the zero-aware table of {p} take {p.comb * n} bytes, "
                f"more than this reader's limit of {MAX_REGION_BYTES}"
            )
        regions = Regions(p)
        if regions.size > MAX_ENTRIES:
            raise bad(f"the zero-aware table of {p} has {regions.size} entries, more than {MAX_ENTRIES}")
        if h["entries"] != regions.size:
            raise bad(f"entries {h['entries']}, but the zero-aware table of pattern {p} has {regions.size}")
    elif h["entries"] != p.size:
        raise bad(f"entries {h['entries']}, but pattern {p} has {p.size}")
    want_name = p.goal_name if p.goal_name in ("blank-last", "blank-first") else "custom"
    if h["goal_name"] != want_name:
        raise bad(f'goal_name "{h["goal_name"]}", but the goal is "{want_name}"')
    mv = h["max_value"]
    if mv < 0 or mv >= 255:
        raise bad(f"max_value {mv} out of range 0..254")
    hist = h["histogram"]
    if len(hist) != mv + 1:
        raise bad(f"histogram has {len(hist)} counts, want max_value+1 = {mv + 1}")
    if hist[-1] == 0:
        raise bad(f"histogram[max_value] is 0: max_value {mv} is not attained")
    total = sum(hist)
    if total != h["entries"]:
        raise bad(f"histogram sums to {total & ((1 << 64) - 1)}, want entries = {h['entries']}")
    if not _HEX64.match(h["raw_sha256"]):
        raise bad(f"raw_sha256 {json.dumps(h['raw_sha256'])} is not 64 lowercase hex digits")
    if major >= 2 and not _HEX64.match(h["payload_sha256"]):
        raise bad(f"payload_sha256 {json.dumps(h['payload_sha256'])} is not 64 lowercase hex digits")
    return p, regions


def _check_layout(h: dict, major: int, payload_off: int, size: int) -> list[int]:
    """SPEC.md 3.5; returns the frame offsets (len(frames) + 1 of them)."""

    def bad(msg):
        return FormatError(_OFF_HEADER, f"header: {msg}")

    fs = h["frame_size"]
    if fs < MIN_FRAME_SIZE or fs > MAX_FRAME_SIZE:
        raise bad(f"frame_size {fs} out of range {MIN_FRAME_SIZE}..{MAX_FRAME_SIZE}")
    if major >= 2 and fs % 2:
        raise bad(f"frame_size {fs} is odd (format 2 packs two entries per byte)")
    entries = h["entries"]
    nf = -(-entries // fs)
    frames = h["frames"]
    if len(frames) != nf:
        raise bad(f"{len(frames)} frames listed, want ceil(entries/frame_size) = {nf}")
    enc = h.get("encoding")
    total = 0
    for i, c in enumerate(frames):
        raw = _stored_size(enc, min(entries - i * fs, fs))
        if c < _min_frame_len(raw):
            raise bad(f"frame {i} is {c} bytes, too small to hold a zstd frame of {raw} bytes")
        total += c
    rest = size - payload_off
    if total > rest:
        raise FormatError(size, f"file truncated: frames need {total} payload bytes, file has {rest}")
    if total < rest:
        raise FormatError(payload_off + total, f"{rest - total} trailing bytes after the last frame")
    offs = [payload_off]
    for c in frames:
        offs.append(offs[-1] + c)
    return offs


def _decode_frame(f, raw_len: int, i: int, off: int, window: int) -> bytes:
    msg = _check_frame_blocks(f, window)
    if msg:
        raise FormatError(off, f"frame {i}: {msg}")
    problem = None
    try:
        out = _zstd.decompress(f, raw_len)
    except _zstd.ZstdError as e:
        problem = (_zstd.is_checksum_error(e), str(e))
    if problem is not None:  # raised outside the handler: no chained traceback holds the frame
        if problem[0]:
            raise ChecksumError(f"zstd frame {i} (at byte {off}) content checksum")
        raise FormatError(off, f"frame {i}: zstd: {problem[1]}")
    if len(out) != raw_len:
        raise FormatError(off, f"frame {i} decodes to {len(out)} bytes, want {raw_len}")
    return out


def read_bytes(data) -> Table:
    """Reads and verifies a whole table file held in memory (bytes, bytearray,
    memoryview or mmap), in the order of SPEC.md section 3."""
    buf = memoryview(data).cast("B")
    size = len(buf)
    # 1. size, magic, version, header length
    if size == 0:
        raise FormatError(0, "empty file")
    have = min(size, _PREFIX_LEN)
    pre = bytes(buf[:have])
    m = min(len(pre), len(MAGIC))
    if pre[:m] != MAGIC[:m]:
        raise FormatError(0, f"not a tilepdb table file (magic {go_quote(pre[:8])}, want {go_quote(MAGIC)})")
    if have < 12:
        raise FormatError(have, f"file truncated inside the fixed prefix ({have} of {_PREFIX_LEN} bytes)")
    major, minor = struct.unpack_from("<HH", pre, 8)
    if major not in MAJOR_VERSIONS:
        raise UnsupportedVersionError(major, minor)
    if have < _PREFIX_LEN:
        raise FormatError(have, f"file truncated inside the fixed prefix ({have} of {_PREFIX_LEN} bytes)")
    (n,) = struct.unpack_from("<I", pre, 12)
    if n > MAX_HEADER_LEN:
        raise FormatError(12, f"header length {n} exceeds the limit of {MAX_HEADER_LEN} bytes")
    payload_off = _PREFIX_LEN + n + _CHECKSUM_LEN
    if payload_off > size:
        raise FormatError(
            size,
            f"file truncated: the {n}-byte header and its checksum end at byte {payload_off}, the file has {size} bytes",
        )
    # 2. header checksum
    got = hashlib.sha256(buf[: _PREFIX_LEN + n]).hexdigest()
    stored = bytes(buf[_PREFIX_LEN + n : payload_off]).hex()
    if got != stored:
        raise ChecksumError("header sha256", stored, got)
    # 3. JSON rules and types
    js = bytes(buf[_PREFIX_LEN : _PREFIX_LEN + n])
    if js.startswith(b"\xef\xbb\xbf"):
        raise FormatError(_OFF_HEADER, "header JSON starts with a byte-order mark")
    try:
        try:
            text = js.decode("utf-8")
        except UnicodeDecodeError:
            raise _JSONError("header is not valid UTF-8") from None
        if has_lone_surrogate(js):
            raise _JSONError("lone surrogate in \\u escape")
        h = _parse_header(text, major)
    except (ValueError, RecursionError) as e:
        msg = str(e) if isinstance(e, _JSONError) else (
            "JSON nested too deeply" if isinstance(e, RecursionError) else str(e)
        )
        raise FormatError(_OFF_HEADER, f"header JSON: {msg}") from None
    # 4. header sanity, 5. layout
    pattern, regions = _check_header(h, major)
    offs = _check_layout(h, major, payload_off, size)
    entries, fs, enc = h["entries"], h["frame_size"], h.get("encoding")
    nf = len(offs) - 1

    def frame_entries(i: int) -> int:
        return min(entries - i * fs, fs)

    # 6. payload checksum (2.x)
    if major >= 2:
        ps = hashlib.sha256(buf[payload_off:]).hexdigest()
        if ps != h["payload_sha256"]:
            raise ChecksumError("payload_sha256", h["payload_sha256"], ps)
    # 7. every frame's zstd header, before allocating the table
    for i in range(nf):
        msg = _check_frame_header(bytes(buf[offs[i] : offs[i] + min(18, offs[i + 1] - offs[i])]),
                                  _stored_size(enc, frame_entries(i)))
        if msg:
            raise FormatError(offs[i], f"frame {i}: {msg}")
    # 8. allocate, decompress, decode
    window = 1024
    while window < fs:
        window *= 2
    try:
        values = None if (nf == 1 and enc is None) else np.empty(entries, dtype=np.uint8)
    except MemoryError:
        raise LimitError(f"tilepdb: cannot allocate {entries} bytes for the table") from None
    walker = ManhattanWalker(pattern) if enc is not None else None
    m_of = _ZeroAwareManhattan(walker, regions) if enc is not None and regions is not None else None
    for i in range(nf):
        f = buf[offs[i] : offs[i + 1]]
        e = frame_entries(i)
        stored = _decode_frame(f, _stored_size(enc, e), i, offs[i], window)
        lo = i * fs
        if enc is None:
            if values is None:
                values = np.frombuffer(stored, dtype=np.uint8)  # one frame: no copy
            else:
                values[lo : lo + e] = np.frombuffer(stored, dtype=np.uint8)
            continue
        codes = np.frombuffer(stored, dtype=np.uint8)
        if enc == "manhattan-half-4bit":
            if e & 1 and codes[-1] >> 4:
                raise FormatError(offs[i], f"frame {i}: padding nibble of the last byte is {codes[-1] >> 4}, want 0")
            unpacked = np.empty(2 * len(codes), dtype=np.uint8)
            unpacked[0::2] = codes & 15
            unpacked[1::2] = codes >> 4
            codes = unpacked[:e]
        m = m_of.manhattan(lo, lo + e) if m_of else walker.manhattan(lo, lo + e)
        v = m.astype(np.uint16) + 2 * codes.astype(np.uint16)
        over = np.flatnonzero(v > 254)
        if len(over):
            r = int(over[0])
            raise FormatError(payload_off, f"the entry of rank {lo + r} decodes to {int(v[r])}, above 254")
        values[lo : lo + e] = v
    # 9. raw SHA-256
    raw_sum = hashlib.sha256(values).hexdigest()
    if raw_sum != h["raw_sha256"]:
        raise ChecksumError("raw_sha256", h["raw_sha256"], raw_sum)
    # 10. recount
    hist = np.bincount(values, minlength=256)
    if hist[UNREACHED]:
        first = int(np.argmax(values == UNREACHED))
        raise FormatError(payload_off, f"{int(hist[UNREACHED])} entries hold the reserved value 255, first at rank {first}")
    top = int(np.flatnonzero(hist)[-1]) if entries else 0
    if top != h["max_value"]:
        raise FormatError(_OFF_HEADER, f"header max_value is {h['max_value']}, the largest value in the table is {top}")
    for v in range(256):
        want = h["histogram"][v] if v < len(h["histogram"]) else 0
        if want != int(hist[v]):
            raise FormatError(
                _OFF_HEADER,
                f"header histogram does not match the table: value {v}: header says {want} entries, table has {int(hist[v])}",
            )
    return Table(h, pattern, values, (major, minor), regions)


class _ZeroAwareManhattan:
    """m(index) of a zero-aware table (SPEC.md 11.2): the Manhattan distance
    of index P·S + slot is that of placement P·C(N,k) + M, M the cell set of
    the slot; one order's row of C(N,k) placements at a time (the last one kept)."""

    def __init__(self, walker: ManhattanWalker, regions: Regions) -> None:
        self.walker, self.r = walker, regions
        self.slot_set = regions.slot_cell_sets()
        self.order, self.row = -1, None

    def manhattan(self, lo: int, hi: int) -> np.ndarray:
        s, c = self.r.slots, self.r.comb
        out = np.empty(hi - lo, dtype=np.uint8)
        i = lo
        while i < hi:
            order, first = divmod(i, s)
            j = min(hi, (order + 1) * s)
            if order != self.order:
                self.order, self.row = order, self.walker.manhattan(order * c, (order + 1) * c)
            out[i - lo : j - lo] = self.row[self.slot_set[first : first + j - i]]
            i = j
        return out


def _clear_frames(e: BaseException | None) -> None:
    """Clears the local variables of the finished frames of e's traceback and
    of the exceptions it chains to."""
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        traceback.clear_frames(e.__traceback__)
        e = e.__cause__ or e.__context__


def _file_kind(mode: int) -> str:
    """What a non-regular file of st_mode mode is, in pdbgen's words
    (Go's internal/regular): "a directory", "a named pipe", "a socket", "a
    character device", "a device" or "an irregular file"."""
    if _stat.S_ISDIR(mode):
        return "a directory"
    if _stat.S_ISFIFO(mode):
        return "a named pipe"
    if _stat.S_ISSOCK(mode):
        return "a socket"
    if _stat.S_ISCHR(mode):
        return "a character device"
    if _stat.S_ISBLK(mode):
        return "a device"
    return "an irregular file"


def read_file(path) -> Table:
    """Reads and verifies the table file at path (memory-mapped). Errors about
    the content name the path ("PATH: tilepdb: ..."); OSError for I/O trouble,
    and for a path that is not a regular file ("PATH: not a regular file (a
    directory)", as pdbgen says it)."""
    mode = os.stat(path).st_mode
    if not _stat.S_ISREG(mode):
        raise OSError(f"{os.fspath(path)}: not a regular file ({_file_kind(mode)})")
    with open(path, "rb") as fh:
        st = os.fstat(fh.fileno())
        try:
            if st.st_size == 0:
                return read_bytes(b"")
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                try:
                    return read_bytes(mm)
                except BaseException as e:
                    # The traceback's frames hold views of the map: drop
                    # them so that the map can close.
                    _clear_frames(e)
                    raise
        except (FormatError, ChecksumError, UnsupportedError, UnsupportedVersionError, LimitError) as e:
            if isinstance(e, LimitError):
                raise LimitError(f"{os.fspath(path)}: {e}") from None
            raise e.with_prefix(f"{os.fspath(path)}: ") from None
