"""A set of tables forming one heuristic, as ``pdbgen lookup`` takes them:
one exact table, or additive parts on the same board and goal with pairwise
disjoint tiles (their sum is admissible), given as table files and set files
(SPEC.md section 10: one table serving several patterns through a board
symmetry).

:func:`open_set` reads them; :meth:`TableSet.lookup` answers one board
(checked) and :meth:`TableSet.lookup_batch` a ``(B, N)`` integer array of
boards at once, vectorised with numpy over the batch axis.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator

import numpy as np

from .errors import BoardError, LimitError, SetError, SetFileError, TilepdbError, UnsolvableError
from .pattern import MAX_SIDE, MIN_SIDE, Pattern, goal_name, positions, validate_board
from .setfile import (
    MAX_CATALOGUE_PARTS,
    MAX_PARTITIONS,
    MAX_SET_FILE_LEN,
    SYMMETRIES,
    SymmetryMap,
    go_list,
    looks_like_set_file,
    map_pattern,
    parse_set_file,
    quote_name,
    tile_list_error,
    valid_table_name,
)
from .table import Table, read_file

__all__ = ["TableSet", "Part", "open_set", "is_set_file", "check_boards_array", "BATCH_CHUNK"]

#: Boards processed per vectorised step of the batch API (the working set
#: of one step stays in the CPU caches).
BATCH_CHUNK = 65536


@dataclass
class Part:
    """One part of a set: ``pattern`` (the tiles it covers) looked up through
    ``table``; ``map`` is None for the table's own pattern, else the symmetry
    map (``symmetry`` names it)."""

    pattern: Pattern
    table: Table
    symmetry: str = "identity"
    map: SymmetryMap | None = None


def check_boards_array(boards, n: int) -> np.ndarray:
    """The boards as a (B, n) integer numpy array; TypeError for another dtype,
    ValueError for another shape."""
    a = boards if isinstance(boards, np.ndarray) else np.asarray(boards)
    if a.dtype.kind not in "iu":
        raise TypeError(f"boards must be an integer array of shape (B, {n}), got dtype {a.dtype}")
    if a.ndim != 2 or a.shape[1] != n:
        raise ValueError(f"boards must have shape (B, {n}) (one board of {n} cells per row), got shape {a.shape}")
    return a


@lru_cache(maxsize=None)
def _sorting_network(n: int) -> tuple[tuple[int, int], ...]:
    """Comparators (i, j), i < j, of Batcher's odd-even merge sort for the next
    power of two >= n, pruned to n inputs (the missing ones act as +inf)."""
    p2 = 1
    while p2 < n:
        p2 *= 2
    pairs = []
    p = 1
    while p < p2:
        k = p
        while k >= 1:
            for j in range(k % p, p2 - k, 2 * k):
                for i in range(min(k, p2 - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        pairs.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return tuple((x, y) for x, y in pairs if y < n)


def _batch_positions(boards, n: int, check: bool) -> Iterator[tuple[int, int, np.ndarray]]:
    """(lo, hi, pos_t) for chunks of the boards: pos_t (shape (n, hi-lo),
    uint8) holds the cell of each tile. Rows must hold tiles 0..n-1 (always
    checked: ValueError); with check, each row must be a permutation.

    The position vector of a board is its inverse permutation: the keys
    tile*2^s + cell of its cells, sorted, list the cells in tile order. The
    keys of all boards are sorted at once by a sorting network whose
    comparators are np.minimum and np.maximum on rows of the batch."""
    a = check_boards_array(boards, n)
    total = len(a)
    step = BATCH_CHUNK
    shift = 4 if n <= 16 else 5 if n <= 32 else 6  # bits of a cell number
    kdtype = np.uint8 if n <= 16 else np.uint16
    cellcol = np.arange(n, dtype=kdtype)[:, None]
    network = _sorting_network(n)
    for lo in range(0, total, step):
        hi = min(lo + step, total)
        chunk = a[lo:hi]
        if chunk.dtype != np.uint8:
            if chunk.size and (int(chunk.min()) < 0 or int(chunk.max()) >= n):
                _raise_bad_row(chunk, lo, n)
            chunk = chunk.astype(np.uint8)
        elif chunk.size and int(chunk.max()) >= n:
            _raise_bad_row(chunk, lo, n)
        # A copy, always: keys is shifted in place below, and chunk.T is already
        # C-contiguous (a view of the caller's array) for one row or a
        # Fortran-ordered batch.
        keys = chunk.T.astype(kdtype, order="C", copy=True)
        keys <<= shift
        keys |= cellcol
        rows = list(keys)
        for i, j in network:
            low = np.minimum(rows[i], rows[j])
            rows[j] = np.maximum(rows[i], rows[j])
            rows[i] = low
        srt = np.stack(rows) if rows else keys
        if check and not (srt >> shift == cellcol).all():
            _raise_bad_row(chunk, lo, n)
        srt &= (1 << shift) - 1
        yield lo, hi, srt if kdtype == np.uint8 else srt.astype(np.uint8)


def _raise_bad_row(chunk: np.ndarray, lo: int, n: int) -> None:
    for i, row in enumerate(chunk):
        err = validate_board([int(x) for x in row], n)
        if err:
            raise ValueError(f"boards[{lo + i}]: {err}")
    raise AssertionError("unreachable: no bad row found")  # pragma: no cover


class TableSet:
    """Parts looked up through tables, summed (or one exact table, alone), or
    a catalogue (SPEC.md section 12): several additive partitions of parts,
    the heuristic being the maximum over the partitions of their sums.

    Build one with :func:`open_set` (files) or :meth:`of_tables`. Attributes:
    ``parts`` (list of :class:`Part`), ``tables`` (the distinct tables, in
    order of first use), ``partitions`` (for a catalogue, the indices into
    ``parts`` of each partition's parts; None otherwise), ``w``, ``h``,
    ``n``, ``goal``, ``exact``.
    """

    def __init__(
        self,
        parts: list[Part],
        names: list[str],
        make_error: Callable[[str], Exception] | None = None,
        partitions: list[list[int]] | None = None,
    ):
        def fail(msg):
            return make_error(msg) if make_error else SetError(f"tilepdb: {msg}")

        if not parts:
            raise fail("empty set: need at least one table")
        first = parts[0].pattern
        # per partition the part holding each tile: the parts of each
        # partition are pairwise disjoint (SPEC.md 12 step 8)
        partition_of = [0] * len(parts)
        for k, idx in enumerate(partitions or []):
            for i in idx:
                partition_of[i] = k
        owners: list[dict[int, int]] = [{} for _ in (partitions or [0])]
        for i, part in enumerate(parts):
            owner = owners[partition_of[i]]
            p = part.pattern
            desc = f"{names[i]} ({p})"
            if p.w != first.w or p.h != first.h:
                raise fail(f"{desc} is for a {p.w}x{p.h} board, {names[0]} ({first}) for {first.w}x{first.h}")
            if p.goal != first.goal:
                g1 = " ".join(map(str, p.goal))
                g0 = " ".join(map(str, first.goal))
                raise fail(f'{desc} has goal "{g1}", {names[0]} has goal "{g0}"')
            if p.exact and len(parts) > 1:
                raise fail(f"{desc} is an exact table and must be used alone, not in a set of {len(parts)}")
            # the earlier part holding the smallest shared tile, and the
            # tiles shared with that part (not those shared with others)
            first_shared = next((t for t in p.tiles if t in owner), None)
            if first_shared is not None:
                other = owner[first_shared]
                shared = [t for t in p.tiles if owner.get(t) == other]
                raise fail(
                    f"{desc} and {names[other]} ({parts[other].pattern}) are not disjoint: "
                    f"both hold tile(s) {','.join(map(str, shared))}"
                )
            for t in p.tiles:
                owner[t] = i
        self.parts = list(parts)
        self.partitions = None if partitions is None else [list(idx) for idx in partitions]
        seen: dict[int, Table] = {}
        for p in parts:
            seen.setdefault(id(p.table), p.table)
        self.tables = list(seen.values())
        self.w, self.h, self.n = first.w, first.h, first.n
        self.goal = first.goal
        self.exact = first.exact
        self._first = first
        # Per part: the table's values and pattern, and for a symmetric part
        # the cell map (numpy, for the batch path) and the source tiles.
        self._plan = []
        # a catalogue's plan holds the parts partition by partition; _ends[k]
        # is the end (exclusive) of partition k in it
        order = [i for idx in self.partitions for i in idx] if self.partitions else range(len(self.parts))
        self._ends = None
        if self.partitions:
            self._ends = list(np.cumsum([len(idx) for idx in self.partitions]))
        for part in (self.parts[i] for i in order):
            tp = part.table.pattern
            za = part.table.regions  # a zero-aware table (SPEC.md section 11): the blank's region counts too
            if part.map is None:
                self._plan.append((part.table.values, tp, None, None, list(tp.tiles), za))
            else:
                cm = np.asarray(part.map.cell, dtype=np.uint8)
                self._plan.append((part.table.values, tp, part.map.cell, cm, list(part.map.src), za))

    @classmethod
    def of_tables(cls, tables: list[Table], names: list[str] | None = None) -> "TableSet":
        """Each table used for its own pattern; names label them in errors."""
        names = names or [f"table {i + 1}" for i in range(len(tables))]
        return cls([Part(t.pattern, t) for t in tables], names)

    def __repr__(self) -> str:
        what = f"{len(self.partitions)} partitions of " if self.partitions else ""
        return f"<tilepdb.TableSet {self.w}x{self.h} {goal_name(self.goal)}, {what}{len(self.parts)} parts through {len(self.tables)} tables>"

    @property
    def catalogue(self) -> bool:
        """Whether this set is a catalogue (SPEC.md section 12)."""
        return self.partitions is not None

    def heuristic(self, pos) -> int:
        """Sum of the parts' values for position vector pos (length N), or for
        a catalogue the maximum over its partitions of their sums; unchecked."""
        if self._ends is None:
            return self._sum(pos, self._plan)
        best = 0
        start = 0
        for end in self._ends:
            best = max(best, self._sum(pos, self._plan[start:end]))
            start = end
        return best

    @staticmethod
    def _sum(pos, plan) -> int:
        h = 0
        for values, tp, cell, _, src, za in plan:
            if cell is None:
                h += int(values[za.index(pos) if za else tp.rank(pos)])
            elif za:
                h += int(values[za.index_cells([cell[pos[t]] for t in src], cell[pos[0]])])
            else:
                h += int(values[tp.rank_cells([cell[pos[t]] for t in src])])
        return h

    def solvable(self, pos) -> bool:
        """Whether the state pos can reach the goal."""
        return self._first.solvable(pos)

    def lookup(self, board) -> int:
        """Checked lookup of one board (N tiles, 0 = blank), in moves, with the
        rule of format.Set.Lookup (what ``pdbgen lookup`` prints): BoardError
        for a malformed board, UnsolvableError for one that cannot reach the
        goal (exact and additive sets alike)."""
        err = validate_board(list(board), self.n)
        if err:
            raise BoardError(err)
        pos = positions(board)
        if not self._first.solvable(pos):
            raise UnsolvableError(goal_name(self.goal))
        return self.heuristic(pos)

    def lookup_batch(self, boards, *, check: bool = True, out: np.ndarray | None = None) -> np.ndarray:
        """Heuristic values of a batch of boards, vectorised (no Python loop per board).

        boards: integer numpy array (any int or uint dtype) of shape (B, N),
        one board per row (the tile in each cell, 0 = blank). Returns an int16
        array of shape (B,): the sum over the parts (an exact set: the
        distance; a catalogue: the maximum over its partitions of their
        sums), or -1 for a board that cannot reach the goal.

        With check (the default) every row must be a permutation of 0..N-1
        (ValueError naming the first bad row) and solvability is tested.
        With check=False rows are only checked to hold values 0..N-1 and
        nothing else: a row that is not a permutation gives an unspecified
        value, and an unsolvable board gets the sum of its parts (for an
        exact table, the value of another state), never -1. TypeError for a
        non-integer dtype, ValueError for a wrong shape. ``out`` may give an
        int16 array of shape (B,) to fill."""
        a = check_boards_array(boards, self.n)
        if out is None:
            out = np.empty(len(a), dtype=np.int16)
        elif out.shape != (len(a),) or out.dtype != np.int16:
            raise ValueError(f"out must be an int16 array of shape ({len(a)},)")
        ends = self._ends or [len(self._plan)]
        for lo, hi, pos_t in _batch_positions(a, self.n, check):
            best = None
            acc = None
            for slot, (values, tp, _, cm, src, za) in enumerate(self._plan):
                if cm is None:
                    r = za.indexes_t(pos_t) if za else tp.ranks_t(pos_t)
                elif za:
                    r = za.indexes_t(pos_t, cm.take(pos_t[src]), cm.take(pos_t[0]))
                else:
                    r = tp.ranks_t(pos_t, cm.take(pos_t[src]))
                v = values.take(r)
                if acc is None:
                    acc = v.astype(np.int16)
                else:
                    acc += v
                if slot + 1 in ends:  # the end of a partition
                    best = acc if best is None else np.maximum(best, acc, out=best)
                    acc = None
            if check:
                best[~self._first.solvable_t(pos_t)] = -1
            out[lo:hi] = best
        return out


def _io_message(e: OSError) -> str:
    """An OSError worded as Go's *os.PathError ("open PATH: no such file or directory")."""
    if e.filename is not None and e.strerror:
        s = e.strerror
        return f"open {os.fsdecode(e.filename)}: {s[:1].lower()}{s[1:]}"
    return str(e)


def is_set_file(path) -> bool:
    """Whether the file at path is a set file (SPEC.md section 10.3): after an
    optional UTF-8 byte-order mark and JSON white space, within its first
    MAX_SET_FILE_LEN bytes, comes '{'. False for a non-regular file."""
    if not stat.S_ISREG(os.stat(path).st_mode):  # a directory is opened as a table, and refused there
        return False
    with open(path, "rb") as fh:
        off = 0
        while off < MAX_SET_FILE_LEN:
            chunk = fh.read(min(4096, MAX_SET_FILE_LEN - off))
            if not chunk:
                return False
            found = looks_like_set_file(chunk, off)
            if found is not None:
                return found
            off += len(chunk)
    return False


def _read_set_file_bytes(path) -> bytes:
    with open(path, "rb") as fh:
        data = fh.read(MAX_SET_FILE_LEN + 1)
    if len(data) > MAX_SET_FILE_LEN:
        raise SetFileError(f"{path}: tilepdb: invalid set: larger than {MAX_SET_FILE_LEN} bytes", str(path))
    return data


def _set_file_parts(file: str, sf, read_table: Callable[[str, str], Table]) -> tuple[list[Part], list[str], list[list[int]] | None]:
    """Checks a parsed set file against its tables with every MUST of SPEC.md
    sections 10 and 12, in the order of Go's reader; returns its parts (in
    file order, partition by partition), their names in errors ("FILE part
    J" or "FILE partition I part J") and, for a catalogue, the indices into
    the parts of each partition's parts (None for version 1). read_table(name,
    where) reads a table (the caller reads each once)."""

    def bad(msg, part=None):
        return SetFileError(f"{file}: tilepdb: invalid set: {msg}", file, part)

    w, h = sf.width, sf.height
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
        raise bad(f"board {w}x{h}: each side must be between {MIN_SIDE} and {MAX_SIDE}")
    n = w * h
    if len(sf.goal) != n:
        raise bad(f"goal has {len(sf.goal)} cells, want {n}")
    for c, t in enumerate(sf.goal):
        if t < 0 or t >= n:
            raise bad(f"goal cell {c} holds {t}, not a tile of 0..{n - 1}")
    err = validate_board(sf.goal, n)
    if err:
        raise bad(f"goal: {err}")
    goal = tuple(sf.goal)
    if sf.partitions is None:
        if len(sf.parts) == 0 or len(sf.parts) > n - 1:
            raise bad(f"{len(sf.parts)} parts, want 1 to {n - 1}")
        groups = [(0, sf.parts)]
    else:
        np_ = len(sf.partitions)
        if np_ == 0 or np_ > MAX_PARTITIONS:
            raise bad(f"{np_} partitions, want 1 to {MAX_PARTITIONS}")
        for i, ps in enumerate(sf.partitions):
            if len(ps) == 0 or len(ps) > n - 1:
                raise SetFileError(f"{file}: tilepdb: invalid set: partition {i + 1}: {len(ps)} parts, want 1 to {n - 1}", file, None, i + 1)
        if len(sf.parts) > MAX_CATALOGUE_PARTS:
            raise bad(f"{len(sf.parts)} parts in all, want at most {MAX_CATALOGUE_PARTS}")
        groups = list(enumerate(sf.partitions, 1))
    out: list[Part] = []
    names: list[str] = []
    partitions: list[list[int]] | None = None if sf.partitions is None else []
    for partition, sps in groups:
        idx = []
        for j, sp in enumerate(sps):
            where = f"partition {partition} part {j + 1}" if partition else f"part {j + 1}"
            idx.append(len(out))
            out.append(_set_file_part(file, sp, where, j + 1, partition, w, h, goal, read_table))
            names.append(f"{file} {where}")
        if partitions is not None:
            partitions.append(idx)
    return out, names, partitions


def _set_file_part(file: str, sp, where: str, no: int, partition: int, w: int, h: int, goal: tuple, read_table) -> Part:
    """Checks one part (SPEC.md 10.3 step 5, 12 step 7); where names it ("part J" or "partition I part J")."""
    n = w * h

    def part_err(msg):
        return SetFileError(f"{file}: tilepdb: invalid set: {where}: {msg}", file, no, partition or None)

    terr = tile_list_error(sp.tiles, n)
    if terr:
        raise part_err(f"tiles: {terr}")
    if len(sp.tiles) == n - 2:
        raise part_err(
            f"bad pattern: {n - 2} of {n - 1} tiles leaves one non-pattern tile, so some placements are "
            f"unreachable; use all {n - 1} tiles (the exact table) or at most {n - 3}"
        )
    try:
        p = Pattern(w, h, goal, sp.tiles)
    except BoardError as e:
        raise part_err(str(e)) from None
    if sp.symmetry not in SYMMETRIES:
        raise part_err(f"bad symmetry: {quote_name(sp.symmetry)} is not one of {', '.join(SYMMETRIES)}")
    name = quote_name(sp.table)
    if not valid_table_name(sp.table):
        raise part_err(f"table {name} must be a plain file name in the set file's directory")
    t = read_table(sp.table, where)
    tp = t.pattern
    if tp.w != w or tp.h != h:
        raise part_err(f"table {name} is for a {tp.w}x{tp.h} board, the set for {w}x{h}")
    if tp.goal != goal:
        raise part_err(
            f'table {name} has goal "{" ".join(map(str, tp.goal))}", the set "{" ".join(map(str, goal))}"'
        )
    if list(sp.table_tiles) != list(tp.tiles):
        raise part_err(f"table {name} holds tiles {go_list(tp.tiles)}, the set file says {go_list(sp.table_tiles)}")
    if sp.table_raw_sha256 != t.header["raw_sha256"]:
        raise part_err(
            f"table {name} has raw_sha256 {t.header['raw_sha256']}, the set file says {quote_name(sp.table_raw_sha256)}"
        )
    if tp.exact:
        raise part_err(f"table {name} is an exact table ({tp}); a set file lists additive tables only")
    smap = None
    tile_map = list(p.tiles)
    if not (sp.symmetry == "identity" and p.tiles == tp.tiles):
        smap, merr = map_pattern(p, tp, sp.symmetry)
        if merr:
            raise SetFileError(
                f"{file}: {where} (tiles {go_list(sp.tiles)}) through table {name}: tilepdb: invalid set: {merr}",
                file,
                no,
                partition or None,
            )
        tile_map = [smap.tile[x] for x in p.tiles]
    if list(sp.tile_map) != tile_map:
        raise part_err(
            f"tile_map {go_list(sp.tile_map)}, but {sp.symmetry} maps tiles {go_list(sp.tiles)} to {go_list(tile_map)}"
        )
    return Part(p, t, sp.symmetry, smap)


def _set_file_error(msg: str) -> SetFileError:
    return SetFileError(f"tilepdb: invalid set: {msg}")


def open_set(paths) -> TableSet:
    """Reads every path and groups them into one heuristic, like Go's
    format.OpenSet and ``pdbgen lookup``: each path is a table file (used for
    its own pattern) or a set file (``<name>.set.json``: its parts, with their
    tables read from the set file's directory and checked, each table file
    once; or a catalogue, SPEC.md section 12, used alone: the other paths
    may only be tables it names). Set files' parts
    come first, in order, then the tables given directly; a table given both
    directly and through a set file is used once.

    Errors: the tables' own (FormatError, ChecksumError, ... naming the path),
    SetFileError (bad data) for a set file that is malformed or inconsistent
    with its tables, SetError for tables that do not form a set (bad data
    too), OSError for I/O trouble (worded as Go's, see ``str()``)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    cache: dict[str, Table] = {}

    def read(p: str) -> Table:
        key = os.path.realpath(p)
        if key not in cache:
            cache[key] = read_file(p)
        return cache[key]

    is_set = []
    for p in paths:
        try:
            is_set.append(is_set_file(p))
        except OSError as e:
            raise OSError(_io_message(e)) from None
    names: list[str] = []
    parts: list[Part] = []
    used: set[str] = set()
    catalogue = None  # (path, parts, names, partitions) of the first catalogue among the set files
    set_paths: list[str] = []
    for i, path in enumerate(paths):
        if not is_set[i]:
            continue
        try:
            data = _read_set_file_bytes(path)
        except OSError as e:
            raise OSError(_io_message(e)) from None
        sf, err = parse_set_file(data)
        if err:
            raise SetFileError(f"{path}: tilepdb: invalid set: {err}", path)
        folder = os.path.dirname(path)

        def read_part(tname: str, where: str, path=path, folder=folder) -> Table:
            try:
                return read(os.path.join(folder, tname))
            except TilepdbError as e:
                raise e.with_prefix(f"{path}: {where}: ") from None
            except LimitError as e:
                raise LimitError(f"{path}: {where}: {e}") from None
            except OSError as e:
                raise OSError(f"{path}: {where}: {_io_message(e)}") from None

        ps, pnames, partitions = _set_file_parts(path, sf, read_part)
        used.update(os.path.realpath(os.path.join(folder, sp.table)) for sp in sf.parts)
        set_paths.append(path)
        if partitions is not None:
            if catalogue is None:
                catalogue = (path, ps, pnames, partitions)
            continue
        names.extend(pnames)
        parts.extend(ps)
    if catalogue is not None:
        # SPEC.md section 12: a catalogue is a whole heuristic, given alone or with the tables it names
        cat_path, cat_parts, cat_names, cat_partitions = catalogue

        def alone(other: str) -> SetFileError:
            return SetFileError(
                f"{cat_path}: tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with {other}",
                cat_path,
            )

        for p in set_paths:
            if p != cat_path:
                raise alone(p)
        if len(set_paths) > 1:
            raise alone(cat_path)  # the catalogue named twice
        for i, path in enumerate(paths):
            if not is_set[i] and os.path.realpath(path) not in used:
                raise alone(path)
        return TableSet(cat_parts, cat_names, _set_file_error, cat_partitions)
    for i, path in enumerate(paths):
        if is_set[i] or os.path.realpath(path) in used:
            continue
        try:
            t = read(path)
        except OSError as e:
            raise OSError(_io_message(e)) from None
        names.append(path)
        parts.append(Part(t.pattern, t))
    return TableSet(parts, names, _set_file_error if any(is_set) else None)
