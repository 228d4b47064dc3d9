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

from .pattern import Pattern

__all__ = [
    "SET_VERSION",
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

#: The set file version this reader implements ("tilepdb_set").
SET_VERSION = 1
#: Largest set file read, in bytes (1 MiB).
MAX_SET_FILE_LEN = 1 << 20
SET_FILE_EXT = ".set.json"
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
    tilepdb_set: int = 0
    width: int = 0
    height: int = 0
    goal: list[int] = field(default_factory=list)
    parts: list[SetPart] = field(default_factory=list)


class _SetJSONError(ValueError):
    pass


_INT64 = (-(1 << 63), (1 << 63) - 1)


def _kind(v) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "number"


def _int_of(v, what: str) -> int:
    from .table import _NonInteger

    if v is None:
        return 0
    if type(v) is not int:
        if isinstance(v, _NonInteger):
            raise _SetJSONError(f"cannot unmarshal number {v.literal} into {what} of type int")
        raise _SetJSONError(f"cannot unmarshal {_kind(v)} into {what} of type int")
    if not _INT64[0] <= v <= _INT64[1]:
        raise _SetJSONError(f"cannot unmarshal number {v} into {what} of type int")
    return v


def _ints_of(v, what: str) -> list[int]:
    if v is None:
        return []
    if not isinstance(v, list):
        raise _SetJSONError(f"cannot unmarshal {_kind(v)} into {what} of type []int")
    return [_int_of(e, what) for e in v]


def _str_of(v, what: str) -> str:
    if v is None:
        return ""
    if not isinstance(v, str):
        raise _SetJSONError(f"cannot unmarshal {_kind(v)} into {what} of type string")
    return v


def parse_set_file(data: bytes | str) -> tuple[SetFile | None, str | None]:
    """Parses a set file's JSON with the types of Go's format.SetFile (unknown
    keys ignored, a missing key or null is the zero value, which later checks
    refuse) and checks the version. Returns (set, None) or (None, message
    after "tilepdb: invalid set: "). The caller checks the size first."""
    from .table import parse_json

    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    try:
        obj = parse_json(text)
        if not isinstance(obj, dict):
            raise _SetJSONError(f"cannot unmarshal {_kind(obj)} into a set file (want a JSON object)")
        parts_json = obj.get("parts")
        if parts_json is not None and not isinstance(parts_json, list):
            raise _SetJSONError(f"cannot unmarshal {_kind(parts_json)} into field parts of type []SetPart")
        head = (
            _int_of(obj.get("tilepdb_set"), "field tilepdb_set"),
            _int_of(obj.get("width"), "field width"),
            _int_of(obj.get("height"), "field height"),
            _ints_of(obj.get("goal"), "field goal"),
        )
        parts = []
        for i, p in enumerate(parts_json or []):
            if p is None:
                p = {}
            if not isinstance(p, dict):
                raise _SetJSONError(f"cannot unmarshal {_kind(p)} into part {i + 1} (want a JSON object)")
            parts.append(
                SetPart(
                    tiles=_ints_of(p.get("tiles"), "field parts.tiles"),
                    table=_str_of(p.get("table"), "field parts.table"),
                    table_tiles=_ints_of(p.get("table_tiles"), "field parts.table_tiles"),
                    symmetry=_str_of(p.get("symmetry"), "field parts.symmetry"),
                    tile_map=_ints_of(p.get("tile_map"), "field parts.tile_map"),
                    table_raw_sha256=_str_of(p.get("table_raw_sha256"), "field parts.table_raw_sha256"),
                )
            )
        sf = SetFile(*head, parts=parts)
    except RecursionError:
        return None, "not a set file: JSON nested too deeply for this reader"
    except ValueError as e:
        return None, f"not a set file: {e}"
    if sf.tilepdb_set != SET_VERSION:
        return None, f"set file version {sf.tilepdb_set} is not supported (this reader supports {SET_VERSION})"
    return sf, None


def looks_like_set_file(head: bytes) -> bool:
    """Whether the start of a file looks like a set file: its first byte other
    than space, tab, CR and LF is '{' (format.IsSetFile)."""
    for b in head:
        if b in (0x20, 0x09, 0x0D, 0x0A):
            continue
        return b == 0x7B
    return False


#: Longest table name in a set file, in bytes of UTF-8 (SPEC.md section 10.2).
MAX_TABLE_NAME_LEN = 255


def valid_table_name(name: str) -> bool:
    """A plain file name in the set file's directory (SPEC.md section 10.2):
    1 to MAX_TABLE_NAME_LEN bytes of UTF-8, no '/', '\\' or ':', no control
    character (C0, DEL, C1), not '.' or '..'."""
    if name in ("", ".", "..") or len(name.encode("utf-8", errors="surrogatepass")) > MAX_TABLE_NAME_LEN:
        return False
    return not any(ch in "/\\:" or ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in name)


_NAMED_ESCAPES = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}


def quote_name(s: str) -> str:
    """A name read from a file quoted for a message by the rule of Go's %+q
    (strconv.QuoteToASCII), as pdbgen prints it, so that no control
    character reaches a terminal: printable ASCII as is, '"' and '\\'
    escaped, \\a \\b \\f \\n \\r \\t \\v, other characters below 0x80 as \\xhh,
    others as \\uhhhh or \\Uhhhhhhhh (a lone surrogate as \\ufffd)."""
    out = ['"']
    for ch in s:
        r = ord(ch)
        if r in (0x22, 0x5C):
            out.append("\\" + ch)
        elif 0x20 <= r < 0x7F:
            out.append(ch)
        elif r in _NAMED_ESCAPES:
            out.append(_NAMED_ESCAPES[r])
        elif r < 0x20 or r == 0x7F:
            out.append(f"\\x{r:02x}")
        else:
            if 0xD800 <= r <= 0xDFFF:
                r = 0xFFFD
            out.append(f"\\u{r:04x}" if r < 0x10000 else f"\\U{r:08x}")
    out.append('"')
    return "".join(out)


def tile_list_error(xs: list[int], n: int) -> str | None:
    """None, or what is wrong with a tile list (non-empty, strictly ascending, in 1..n-1)."""
    if not xs:
        return "empty"
    for i, x in enumerate(xs):
        if x < 1 or x >= n or (i > 0 and x <= xs[i - 1]):
            return f"{go_list(xs)} is not a strictly ascending list of tiles 1..{n - 1}"
    return None
