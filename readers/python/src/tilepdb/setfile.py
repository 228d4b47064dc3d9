"""Set files (format/SPEC.md section 10): one additive table serving several
patterns through a board symmetry σ and a tile relabelling π.

The pure parts, with no I/O: parsing a set file's JSON, the 8 board
symmetries, the blank's goal region and the check that a table serves a
pattern (puzzle.MapPattern in Go). :mod:`tilepdb.tableset` reads the tables
and groups the parts. Messages are those of the Go reader
(format/setfile.go, puzzle/symmetry.go).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ._json import JSONNum, kind_of, parse_set_json, quote_name
from .pattern import Pattern

__all__ = [
    "SET_VERSION",
    "SET_VERSIONS",
    "MAX_PARTITIONS",
    "MAX_CATALOGUE_PARTS",
    "MAX_SET_FILE_LEN",
    "SET_FILE_EXT",
    "SYMMETRIES",
    "symmetry_cell",
    "map_pattern",
    "parse_set_file",
    "looks_like_set_file",
    "quote_name",
    "valid_table_name",
    "MAX_TABLE_NAME_LEN",
]

#: The newest set file version this reader implements ("tilepdb_set"): 1
#: (SPEC.md section 10) and 2 (catalogues, section 12).
SET_VERSION = 2
#: The set file versions this reader reads.
SET_VERSIONS = (1, 2)
#: Most partitions in a catalogue (set file version 2; SPEC.md section 12).
MAX_PARTITIONS = 64
#: Most parts over all partitions of a catalogue (SPEC.md section 12).
MAX_CATALOGUE_PARTS = 4096
#: Largest set file read, in bytes (1 MiB; SPEC.md section 10.2).
MAX_SET_FILE_LEN = 1 << 20
SET_FILE_EXT = ".set.json"
#: Longest table name in a set file, in bytes (SPEC.md section 10.2).
MAX_TABLE_NAME_LEN = 255
#: Symmetry names in the order of Go's puzzle.Symmetry constants; the last
#: four only on square boards.
SYMMETRIES = ("identity", "rot90", "rot180", "rot270", "flip-lr", "flip-tb", "transpose", "anti-transpose")


def symmetry_valid_on(name: str, w: int, h: int) -> bool:
    """Whether symmetry name maps a w x h board onto itself."""
    if name in ("identity", "rot180", "flip-lr", "flip-tb"):
        return True
    if name in ("rot90", "rot270", "transpose", "anti-transpose"):
        return w == h
    return False


def symmetry_cell(name: str, w: int, h: int, cell: int) -> int:
    """Image of cell under symmetry name (SPEC.md section 10's table on (r, c))."""
    r, c = divmod(cell, w)
    if name == "rot90":
        r, c = c, h - 1 - r
    elif name == "rot180":
        r, c = h - 1 - r, w - 1 - c
    elif name == "rot270":
        r, c = w - 1 - c, r
    elif name == "flip-lr":
        c = w - 1 - c
    elif name == "flip-tb":
        r = h - 1 - r
    elif name == "transpose":
        r, c = c, r
    elif name == "anti-transpose":
        r, c = w - 1 - c, h - 1 - r
    return r * w + c


def goal_blank_region(p: Pattern) -> int:
    """Bit mask of the cells reachable from the goal's blank cell through cells
    holding none of p's tiles at the goal (4-neighbour moves)."""
    occupied = 0
    for t in p.tiles:
        occupied |= 1 << p.goal_pos[t]
    start = p.goal_pos[0]
    region = 1 << start
    stack = [start]
    while stack:
        c = stack.pop()
        r, col = divmod(c, p.w)
        nbs = []
        if r > 0:
            nbs.append(c - p.w)
        if r < p.h - 1:
            nbs.append(c + p.w)
        if col > 0:
            nbs.append(c - 1)
        if col < p.w - 1:
            nbs.append(c + 1)
        for nb in nbs:
            if occupied >> nb & 1 or region >> nb & 1:
                continue
            region |= 1 << nb
            stack.append(nb)
    return region


@dataclass
class SymmetryMap:
    """How a pattern is looked up through another's table: cell[c] = σ(c),
    tile[t] = π(t), src[j] = the pattern tile looked up as table tile j."""

    cell: list[int]
    tile: list[int]
    src: list[int]


def _quote_goal(goal) -> str:
    return json.dumps(" ".join(str(x) for x in goal))


def map_pattern(src: Pattern, to: Pattern, sym: str) -> tuple[SymmetryMap | None, str | None]:
    """Checks that the table of pattern ``to`` serves pattern ``src`` through
    symmetry sym (puzzle.MapPattern). Returns (map, None) or (None, message)."""
    w, h, n = src.w, src.h, src.n

    def bad(msg):
        return None, f"bad symmetry: {msg}"

    if to.w != w or to.h != h:
        return bad(f"pattern {src} is on a {w}x{h} board, its table {to} on {to.w}x{to.h}")
    if to.goal != src.goal:
        return bad(f"pattern {src} has goal {_quote_goal(src.goal)}, its table {to} has goal {_quote_goal(to.goal)}")
    if src.exact or to.exact:
        return bad(f"exact tables ({to}) serve only themselves")
    if not symmetry_valid_on(sym, w, h):
        return bad(f"{sym} does not map a {w}x{h} board onto itself (square boards only)")
    if len(src.tiles) != len(to.tiles):
        return bad(f"pattern {src} has {len(src.tiles)} tiles, its table {to} has {len(to.tiles)}")
    cell = [symmetry_cell(sym, w, h, c) for c in range(n)]
    tile = [0] * n
    for c in range(n):
        tile[src.goal[c]] = src.goal[cell[c]]
    idx = {t: j for j, t in enumerate(to.tiles)}
    srcs = [0] * len(to.tiles)
    for t in src.tiles:
        j = idx.get(tile[t])
        if j is None:
            g = src.goal_pos[t]
            return bad(f"{sym} maps the goal cell {g} of tile {t} of {src} to cell {cell[g]}, which is not a goal cell of {to}")
        srcs[j] = t
    region = goal_blank_region(src)
    img = 0
    for c in range(n):
        if region >> c & 1:
            img |= 1 << cell[c]
    if img != goal_blank_region(to):
        return bad(
            f"{sym} maps the blank's goal region of {src} (the free cells around goal cell {src.goal_pos[0]}) "
            f"onto another region than that of {to}"
        )
    return SymmetryMap(cell, tile, srcs), None


def go_list(xs) -> str:
    """Go's %v of a list of integers: "[2 3 4]"."""
    return "[" + " ".join(str(x) for x in (xs or [])) + "]"


@dataclass
class SetPart:
    tiles: list[int] = field(default_factory=list)
    table: str = ""
    table_tiles: list[int] = field(default_factory=list)
    symmetry: str = ""
    tile_map: list[int] = field(default_factory=list)
    table_raw_sha256: str = ""


@dataclass
class SetFile:
    """A parsed set file: ``parts`` in file order (for a catalogue,
    partition by partition); ``partitions`` the parts of each partition of
    a catalogue (version 2, SPEC.md section 12), None for version 1."""

    tilepdb_set: int = 0
    width: int = 0
    height: int = 0
    goal: list[int] = field(default_factory=list)
    parts: list[SetPart] = field(default_factory=list)
    partitions: list[list[SetPart]] | None = None


_INT64 = (-(1 << 63), (1 << 63) - 1)


def _int_of(v) -> tuple[int, str | None]:
    """An integer of a set file (format's jsonInt): a JSON number without
    fraction or exponent ("-0" is 0) within int64; (value, None) or (0, what is wrong)."""
    if not isinstance(v, JSONNum):
        return 0, f"want an integer, found {kind_of(v)}"
    if any(ch in v for ch in ".eE"):
        return 0, f"{v} is not an integer"
    x = int(v)
    if not _INT64[0] <= x <= _INT64[1]:
        return 0, f"{v} is out of range"
    return x, None


def parse_set_file(data: bytes | str) -> tuple[SetFile | None, str | None]:
    """Parses a set file (UTF-8 bytes, or a str, which is encoded first) by
    the JSON rules and required keys of SPEC.md section 10, in the order of
    Go's format.ParseSetFile, with its messages: no byte-order mark, valid
    UTF-8, the JSON rules of :func:`tilepdb._json.parse_set_json` (nesting
    at most 64), a JSON object; tilepdb_set first (present, an integer, 1
    or 2); then every required key present, not null, of its type: width,
    height, goal, then parts (version 1) or partitions (version 2, SPEC.md
    section 12: an array of arrays of parts), and in each part tiles,
    table, table_tiles, symmetry, tile_map, table_raw_sha256. Unknown keys
    are ignored. Returns (set, None) or (None, the first problem after
    "tilepdb: invalid set: ", with "part J: " or "partition I part J: "
    first for a part's). The caller checks the size first."""
    b = data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else bytes(data)
    try:
        obj = parse_set_json(b)
    except ValueError as e:
        return None, f"not a set file: {e}"
    if not isinstance(obj, dict):
        return None, f"not a set file: want a JSON object, found {kind_of(obj)}"
    probs: list[tuple[int, str]] = []

    def field(o: dict, key: str):
        if key not in o:
            return None, f'required key "{key}" is missing'
        v = o[key]
        if v is None:
            return None, f'key "{key}" is null'
        return v, None

    def int_key(o: dict, key: str, part: int) -> int:
        v, msg = field(o, key)
        x = 0
        if msg is None:
            x, msg = _int_of(v)
            if msg is not None:
                msg = f'key "{key}": {msg}'
        if msg is not None:
            probs.append((part, msg))
        return x

    def ints_key(o: dict, key: str, part: int) -> list[int]:
        v, msg = field(o, key)
        out: list[int] = []
        if msg is None:
            if not isinstance(v, list):
                msg = f'key "{key}": want an array of integers, found {kind_of(v)}'
            else:
                for i, e in enumerate(v):
                    x, m = _int_of(e)
                    if m is not None:
                        msg = f'key "{key}"[{i}]: {m}'
                        break
                    out.append(x)
        if msg is not None:
            probs.append((part, msg))
        return out

    def str_key(o: dict, key: str, part: int) -> str:
        v, msg = field(o, key)
        if msg is None and (not isinstance(v, str) or isinstance(v, JSONNum)):
            msg = f'key "{key}": want a string, found {kind_of(v)}'
        if msg is not None:
            probs.append((part, msg))
            return ""
        return v

    def first() -> tuple[None, str]:
        part, msg = probs[0]
        return None, f"part {part}: {msg}" if part > 0 else msg

    def part_of(p, no: int, partition: int) -> SetPart | None:
        """One part object; problems of a catalogue's part say "partition I part J"."""
        n0 = len(probs)
        sp = None
        if not isinstance(p, dict):
            probs.append((no, f"want an object, found {kind_of(p)}"))
        else:
            sp = SetPart(
                tiles=ints_key(p, "tiles", no),
                table=str_key(p, "table", no),
                table_tiles=ints_key(p, "table_tiles", no),
                symmetry=str_key(p, "symmetry", no),
                tile_map=ints_key(p, "tile_map", no),
                table_raw_sha256=str_key(p, "table_raw_sha256", no),
            )
        if partition > 0:
            for i in range(n0, len(probs)):
                probs[i] = (0, f"partition {partition} part {probs[i][0]}: {probs[i][1]}")
        return sp

    version = int_key(obj, "tilepdb_set", 0)
    if probs:
        return first()
    if version not in SET_VERSIONS:
        return None, f"set file version {version} is not supported (this reader supports 1 and 2)"
    sf = SetFile(version, int_key(obj, "width", 0), int_key(obj, "height", 0), ints_key(obj, "goal", 0))
    key = "parts" if version == 1 else "partitions"
    parts, msg = field(obj, key)
    if msg is None and not isinstance(parts, list):
        msg = f'key "{key}": want an array of {"objects" if version == 1 else "arrays"}, found {kind_of(parts)}'
    if msg is not None:
        probs.append((0, msg))
        return first()
    if version == 1:
        for i, p in enumerate(parts):
            sp = part_of(p, i + 1, 0)
            if sp is not None:
                sf.parts.append(sp)
    else:
        sf.partitions = []
        for i, q in enumerate(parts):
            if not isinstance(q, list):
                probs.append((0, f"partition {i + 1}: want an array, found {kind_of(q)}"))
                continue
            ps = [sp for j, p in enumerate(q) if (sp := part_of(p, j + 1, i + 1)) is not None]
            sf.partitions.append(ps)
            sf.parts.extend(ps)
    if probs:
        return first()
    return sf, None


def looks_like_set_file(head: bytes, offset: int = 0) -> bool | None:
    """Whether bytes (read from byte offset of a file) look like a set file
    (SPEC.md section 10.3, format.IsSetFile): after an optional UTF-8
    byte-order mark (at offset 0) and JSON white space (space, tab, LF, CR)
    comes '{'. True or False, or None when head holds only the mark and
    white space (look further, up to MAX_SET_FILE_LEN bytes; a file that is
    all white space there is not a set file)."""
    i = 3 if offset == 0 and head.startswith(b"\xef\xbb\xbf") else 0
    for b in head[i:]:
        if b in (0x20, 0x09, 0x0D, 0x0A):
            continue
        return b == 0x7B
    return None


def valid_table_name(name: str) -> bool:
    """Whether name is a plain file name in the set file's directory (SPEC.md
    section 10.2, format.ValidTableName): 1 to MAX_TABLE_NAME_LEN bytes of
    UTF-8, no '/', '\\' or ':', not '.' or '..', no control character
    (U+0000 to U+001F, U+007F to U+009F)."""
    if name in ("", ".", "..") or len(name.encode("utf-8", errors="surrogatepass")) > MAX_TABLE_NAME_LEN:
        return False
    return not any(ch in "/\\:" or ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in name)


def tile_list_error(xs: list[int], n: int) -> str | None:
    """None, or what is wrong with a tile list (non-empty, strictly ascending, in 1..n-1)."""
    if not xs:
        return "empty"
    for i, x in enumerate(xs):
        if x < 1 or x >= n or (i > 0 and x <= xs[i - 1]):
            return f"{go_list(xs)} is not a strictly ascending list of tiles 1..{n - 1}"
    return None
