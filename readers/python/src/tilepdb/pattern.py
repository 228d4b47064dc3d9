"""Ranking of tilepdb tables (format/SPEC.md section 4), scalar and vectorised.

Conventions of SPEC.md: cells are numbered 0..N-1 in reading order
(cell = row*W + col); a board lists the tile in each cell (0 = blank); a
position vector ``pos`` lists the cell of each tile (``pos[0]`` = the blank's
cell). Tables have at most 2^36 entries, so ranks fit in int64.

The batch functions work on position vectors stored transposed, shape
``(N, B)`` (row t = the cells of tile t over the batch), so that every step
is one numpy operation on a contiguous row of B values.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .errors import BoardError

__all__ = [
    "Pattern",
    "validate_board",
    "positions",
    "goal_name",
    "blank_last_goal",
    "blank_first_goal",
    "MAX_ENTRIES",
]

MIN_SIDE = 2
MAX_SIDE = 8
MAX_CELLS = MAX_SIDE * MAX_SIDE
#: Largest table a pattern may index (SPEC.md section 2, ``entries``).
MAX_ENTRIES = 1 << 36
RANKING_CELLSET_ORDER = "cellset-order"
RANKING_LEHMER_HALF = "lehmer-half"
RANKING_VERSION = 1


def blank_last_goal(n: int) -> tuple[int, ...]:
    """The goal 1 2 ... N-1 0."""
    return tuple(list(range(1, n)) + [0])


def blank_first_goal(n: int) -> tuple[int, ...]:
    """The goal 0 1 ... N-1."""
    return tuple(range(n))


def goal_name(goal) -> str:
    """"blank-last", "blank-first", or the goal written out, as pdbgen names it."""
    g = tuple(int(x) for x in goal)
    if g == blank_last_goal(len(g)):
        return "blank-last"
    if g == blank_first_goal(len(g)):
        return "blank-first"
    return " ".join(str(x) for x in g)


def validate_board(board, n: int) -> str | None:
    """None if board holds each of 0..n-1 once, else the message of puzzle.Board.Validate."""
    if len(board) != n:
        return f"bad board: {len(board)} cells, want {n}"
    seen = [False] * n
    for i, t in enumerate(board):
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0 or t >= n:
            return f"bad board: cell {i}: tile {t} out of range 0..{n - 1}"
        t = int(t)
        if seen[t]:
            return "bad board: more than one blank" if t == 0 else f"bad board: tile {t} appears twice"
        seen[t] = True
    for t in range(n):
        if not seen[t]:
            return "bad board: no blank" if t == 0 else f"bad board: tile {t} is missing"
    return None


def positions(board) -> list[int]:
    """Position vector of a valid board: pos[t] = cell of tile t."""
    pos = [0] * len(board)
    for c, t in enumerate(board):
        pos[int(t)] = c
    return pos


@lru_cache(maxsize=None)
def _binom_table() -> np.ndarray:
    b = np.zeros((MAX_CELLS + 1, MAX_CELLS + 2), dtype=np.int64)
    for i in range(MAX_CELLS + 1):
        b[i, 0] = 1
        for j in range(1, i + 1):
            b[i, j] = b[i - 1, j - 1] + b[i - 1, j]
    return b


@lru_cache(maxsize=None)
def _popcount16() -> np.ndarray:
    x = np.arange(1 << 16, dtype=np.uint32)
    c = np.zeros(1 << 16, dtype=np.uint8)
    for bit in range(16):
        c += ((x >> bit) & 1).astype(np.uint8)
    return c


@lru_cache(maxsize=None)
def _colex16(nbits: int, offset_bits: int, rows: int | None = None) -> np.ndarray:
    """lut[j0, m] = sum over set bits s of m (cell offset_bits+s) of C(cell, j0 + index + 1),
    for j0 < rows (default offset_bits + 1: every count of lower set bits)."""
    binom = _binom_table()
    size = 1 << nbits
    m = np.arange(size, dtype=np.uint32)
    pc = _popcount16()
    rows = offset_bits + 1 if rows is None else min(rows, offset_bits + 1)
    out = np.zeros((rows, size), dtype=np.int64)
    for j0 in range(rows):
        acc = np.zeros(size, dtype=np.int64)
        for s in range(nbits):
            has = ((m >> s) & 1).astype(bool)
            below = pc[(m & ((1 << s) - 1)).astype(np.intp)].astype(np.intp)
            acc += np.where(has, binom[offset_bits + s, j0 + below + 1], 0)
        out[j0] = acc
    return out


class Pattern:
    """A pattern: board geometry (w x h), goal board and pattern tiles.

    With all tiles 1..N-1 it is exact (ranking ``lehmer-half``, N!/2 entries),
    else an additive pattern database (``cellset-order``, N!/(N-k)! entries).
    Raises :class:`BoardError` like puzzle.NewPattern for an invalid one.
    """

    def __init__(self, w: int, h: int, goal, tiles) -> None:
        if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
            raise BoardError(f"board {w}x{h}: each side must be between {MIN_SIDE} and {MAX_SIDE}")
        n = w * h
        err = validate_board(list(goal), n)
        if err:
            raise BoardError(f"goal: {err}")
        if len(tiles) == 0:
            raise BoardError("bad pattern: no tiles")
        ts = sorted(int(t) for t in tiles)
        for i, t in enumerate(ts):
            if t == 0:
                raise BoardError("bad pattern: 0 is the blank, not a pattern tile")
            if t >= n:
                raise BoardError(f"bad pattern: tile {t} does not exist on a {w}x{h} board (tiles 1..{n - 1})")
            if i > 0 and ts[i - 1] == t:
                raise BoardError(f"bad pattern: tile {t} listed twice")
        if len(ts) == n - 2:
            raise BoardError(
                f"bad pattern: {len(ts)} of {n - 1} tiles leaves one non-pattern tile, "
                "so some placements are unreachable"
            )
        self.w, self.h, self.n = w, h, n
        self.goal = tuple(int(x) for x in goal)
        self.tiles = tuple(ts)
        self.exact = len(ts) == n - 1
        self.k = n - 2 if self.exact else len(ts)
        size = 1
        for i in range(self.k):
            size *= n - i
            if size > MAX_ENTRIES:
                raise BoardError(f"bad pattern: {len(ts)} tiles on a {w}x{h} board need more than 2^36 entries")
        #: Number of table entries.
        self.size = size
        #: C(N, k): number of occupied-cell sets (additive).
        self.comb = math.comb(n, self.k)
        self.goal_pos = tuple(positions(self.goal))
        self.ranking = RANKING_LEHMER_HALF if self.exact else RANKING_CELLSET_ORDER
        self.kind = "exact" if self.exact else "additive"
        self.goal_name = goal_name(self.goal)
        gb = self.goal_pos[0]
        self._blank_parity = [
            (abs(c // w - gb // w) + abs(c % w - gb % w)) & 1 for c in range(n)
        ]
        self._blank_parity_lut = np.asarray(self._blank_parity, dtype=np.uint8)
        self._tiles_list = list(self.tiles)
        self._goal_list = list(self.goal)

    def __str__(self) -> str:
        what = "exact (all tiles)" if self.exact else "tiles " + ",".join(str(t) for t in self.tiles)
        return f"{self.w}x{self.h} {self.goal_name} {what}"

    def __repr__(self) -> str:
        return f"Pattern({self})"

    # --- scalar (one state) ---

    def rank(self, pos) -> int:
        """Table index of the state with position vector pos (length N; for an
        additive pattern only the pattern tiles are read). pos must be a valid
        state, solvable for an exact table: not checked."""
        if self.exact:
            return _exact_rank(pos, self.n)
        return self.rank_cells([pos[t] for t in self.tiles])

    def rank_cells(self, cells) -> int:
        """cellset-order rank of cells (the cell of each pattern tile, tiles ascending)."""
        cells = [int(c) for c in cells]  # Python ints: masks of up to 64 cells, numpy ints would wrap
        k = len(cells)
        mask = 0
        for c in cells:
            mask |= 1 << c
        used = 0
        order = 0
        for i, c in enumerate(cells):
            o = (mask & ((1 << c) - 1)).bit_count()
            d = o - (used & ((1 << o) - 1)).bit_count()
            used |= 1 << o
            order = order * (k - i) + d
        m = 0
        j = 1
        for c in range(self.n):
            if mask >> c & 1:
                m += math.comb(c, j)
                j += 1
        return order * math.comb(self.n, k) + m

    def solvable(self, pos) -> bool:
        """Whether the state pos (length N) can reach the goal (SPEC.md 4.2)."""
        n = self.n
        perm = [0] * n
        for t in range(n):
            perm[self.goal_pos[t]] = pos[t]
        seen = [False] * n
        cycles = 0
        for i in range(n):
            if seen[i]:
                continue
            cycles += 1
            j = i
            while not seen[j]:
                seen[j] = True
                j = perm[j]
        return (n - cycles) % 2 == self._blank_parity[pos[0]]

    # --- batch (position vectors transposed: shape (N, B)) ---

    def ranks_t(self, pos_t: np.ndarray, cells_t: np.ndarray | None = None) -> np.ndarray:
        """Ranks (int64, shape (B,)) of the states whose transposed position
        vectors are pos_t (shape (N, B), values 0..N-1). For an additive
        pattern, cells_t (shape (k, B)) may give the cells of the table's
        tiles directly (a symmetric part of a set file). Nothing is checked."""
        if self.exact:
            return _exact_ranks_t(pos_t, self.n)
        if cells_t is None:
            cells_t = pos_t[self._tiles_list]
        return _cellset_ranks_t(cells_t, self.n)

    def solvable_t(self, pos_t: np.ndarray) -> np.ndarray:
        """Boolean (B,): which states of pos_t (uint8, shape (N, B)) can reach the goal.

        The parity of the inversions of the cells in goal order is computed
        eight boards at a time in uint64 words (SWAR): for bytes x, y < 128,
        the top bit of each byte of (x | 0x80..80) - y is [x >= y], with no
        borrow between bytes."""
        n, b = pos_t.shape
        if b % 8 or not pos_t.flags.c_contiguous:
            padded = np.zeros((n, -(-b // 8) * 8), dtype=np.uint8)
            padded[:, :b] = pos_t
        else:
            padded = pos_t
        words = padded.view(np.uint64)
        seq = [words[t] for t in self.goal]  # seq[g]: cells of the tile whose goal cell is g
        acc = np.zeros(words.shape[1], dtype=np.uint64)
        for i in range(n - 1):
            high = seq[i] | _HIGH
            for j in range(i + 1, n):
                acc ^= high - seq[j]
        acc &= _HIGH
        acc >>= np.uint64(7)
        inv = acc.view(np.uint8)[:b]
        return inv == self._blank_parity_lut.take(pos_t[0])


_HIGH = np.uint64(0x8080808080808080)


def _exact_rank(pos, n: int) -> int:
    used = 0
    r = 0
    for i in range(n - 2):
        c = int(pos[i])
        d = c - (used & ((1 << c) - 1)).bit_count()
        used |= 1 << c
        r = r * (n - i) + d
    return r


def _cellset_ranks_t(cells_t: np.ndarray, n: int) -> np.ndarray:
    """cellset-order ranks (SPEC.md 4.1) of cells_t (uint8, shape (k, B): the
    cell of each pattern tile, tiles ascending), vectorised over B.

    rank = P*C(n,k) + M: the Lehmer digits of the tile order are
    d_i = #{j > i: c_j < c_i} (comparisons of uint8 rows), P their mixed-radix
    number; M, the colex rank of the occupied cells, is read from a table
    indexed by the cell mask."""
    k, b = cells_t.shape
    f = math.factorial(k)
    order = np.zeros(b, dtype=np.int16 if f < 1 << 15 else np.int32 if f < 1 << 31 else np.int64)
    rows = list(cells_t)
    for i in range(k - 1):
        d = (rows[i + 1] < rows[i]).view(np.uint8)
        for j in range(i + 2, k):
            d = d + (rows[j] < rows[i]).view(np.uint8)
        order *= k - i
        order += d
    if n <= 16:
        bits = np.left_shift(np.uint16(1), cells_t, dtype=np.uint16)
    elif n <= 32:
        bits = np.left_shift(np.uint32(1), cells_t, dtype=np.uint32)
    else:
        bits = np.left_shift(np.uint64(1), cells_t.astype(np.uint64), dtype=np.uint64)
    mask = np.bitwise_or.reduce(bits, axis=0)
    comb = math.comb(n, k)
    size = math.factorial(n) // math.factorial(n - k)
    wide = np.int32 if size < 1 << 31 else np.int64
    rank = order.astype(wide)
    rank *= comb
    rank += _colex(mask, n, k)
    return rank


def _colex(mask: np.ndarray, n: int, k: int) -> np.ndarray:
    """Colex rank of each cell mask of k cells (int32 for n <= 16, else
    int64): the mask is read 16 bits at a time (cells off..off+15), each
    chunk looked up in the table of its offset by the number of set bits
    below it (at most k, so the tables have k+1 rows)."""
    if n <= 16:
        return _colex_lut(n).take(mask)
    total = np.zeros(mask.shape, dtype=np.int64)
    below = np.zeros(mask.shape, dtype=np.intp)
    pc = _popcount16()
    for off in range(0, n, 16):
        chunk = ((mask >> mask.dtype.type(off)) & mask.dtype.type(0xFFFF)).astype(np.intp)
        total += _colex16(min(16, n - off), off, k + 1)[below, chunk]
        below += pc.take(chunk)
    return total


@lru_cache(maxsize=None)
def _colex_lut(n: int) -> np.ndarray:
    return _colex16(n, 0)[0].astype(np.int32)


def _exact_ranks_t(pos_t: np.ndarray, n: int) -> np.ndarray:
    """lehmer-half ranks (SPEC.md 4.2) of transposed position vectors (uint8, (N, B))."""
    b = pos_t.shape[1]
    r = np.zeros(b, dtype=np.int64)
    for i in range(n - 2):
        c = pos_t[i]
        if i:
            d = c - (pos_t[:i] < c).view(np.uint8).sum(axis=0, dtype=np.uint8)
        else:
            d = c
        r *= n - i
        r += d
    return r


# --- Manhattan distance of every rank (SPEC.md section 8), for format 2 ---


def _dist(p: Pattern) -> np.ndarray:
    """dist[t, c] = taxicab distance from cell c to the goal cell of tile t (0 for the blank)."""
    n, w = p.n, p.w
    d = np.zeros((n, n), dtype=np.uint8)
    for t in range(1, n):
        g = p.goal_pos[t]
        for c in range(n):
            d[t, c] = abs(c // w - g // w) + abs(c % w - g % w)
    return d


def _colex_combinations(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n), sorted cells, in colexicographic order: shape (C(n,k), k)."""
    combs = np.zeros((1, 0), dtype=np.uint8)
    for j in range(1, k + 1):
        # subsets of size j with largest cell `top`, for top = j-1 .. n-1, are
        # the first C(top, j-1) subsets of size j-1 (those within range(top)) plus top.
        blocks = []
        for top in range(j - 1, n):
            prev = combs[: math.comb(top, j - 1)]
            blocks.append(np.hstack([prev, np.full((len(prev), 1), top, dtype=np.uint8)]))
        combs = np.vstack(blocks)
    return combs


class ManhattanWalker:
    """m(r) for ranges of ranks of a pattern (SPEC.md section 8), vectorised."""

    def __init__(self, p: Pattern) -> None:
        self.p = p
        self.dist = _dist(p)
        if p.exact:
            n = p.n
            self.weights = [math.factorial(n - 1 - i) // 2 for i in range(n - 2)]
            self.goal_parity = 0
            gp = p.goal_pos
            for i in range(n):
                for j in range(i + 1, n):
                    if gp[j] < gp[i]:
                        self.goal_parity ^= 1
            self.bd = np.asarray(p._blank_parity, dtype=np.uint8)
            self.sel = _select_table(n)
        else:
            # combs[M, s] = the s-th smallest cell of cell set M (C(N,k) x k bytes)
            self.combs = _colex_combinations(p.n, p.k)
            self.comb = len(self.combs)

    def manhattan(self, lo: int, hi: int) -> np.ndarray:
        """m(r) for r in [lo, hi), uint8 array of hi-lo values."""
        if self.p.exact:
            return self._exact(lo, hi)
        k = self.p.k
        c = self.comb
        p0, p1 = lo // c, (hi - 1) // c
        orders = np.arange(p0, p1 + 1, dtype=np.int64)
        slots = _unrank_orders(orders, k)  # (nP, k): slot of tile i
        if len(orders) <= 2:
            # Large cell-set ranges (big boards): only the cell sets of
            # [lo, hi) in each order, not whole blocks of C(N,k).
            out = np.empty(hi - lo, dtype=np.uint8)
            r = lo
            for j, o in enumerate(orders.tolist()):
                m0, m1 = r - o * c, min(c, hi - o * c)
                seg = np.zeros(m1 - m0, dtype=np.uint8)
                for i, t in enumerate(self.p.tiles):
                    seg += self.dist[t][self.combs[m0:m1, slots[j, i]]]
                out[r - lo : r - lo + m1 - m0] = seg
                r += m1 - m0
            return out
        block = np.zeros((len(orders), c), dtype=np.uint8)
        for i, t in enumerate(self.p.tiles):
            # dist of tile i from its cell in set M under each order: (C, nP)
            block += self.dist[t][self.combs[:, slots[:, i]]].T
        flat = block.reshape(-1)
        return flat[lo - p0 * c : hi - p0 * c]

    def _exact(self, lo: int, hi: int) -> np.ndarray:
        p = self.p
        n = p.n
        r = np.arange(lo, hi, dtype=np.int64)
        free = np.full(len(r), (1 << n) - 1, dtype=np.int64)
        m = np.zeros(len(r), dtype=np.uint8)
        parity = np.zeros(len(r), dtype=np.uint8)
        blank = None
        for i in range(n - 2):
            w = self.weights[i]
            d = (r // w) % (n - i)
            cell = self.sel[free, d]
            free &= ~(np.int64(1) << cell.astype(np.int64))
            parity ^= (d & 1).astype(np.uint8)
            if i == 0:
                blank = cell
            else:
                m += self.dist[i][cell]
        a = self.sel[free, 0]
        b = self.sel[free, 1]
        keep = (parity ^ self.goal_parity) == self.bd[blank]
        x = np.where(keep, a, b)
        y = np.where(keep, b, a)
        m += self.dist[n - 2][x] + self.dist[n - 1][y]
        return m


def _unrank_orders(orders: np.ndarray, k: int) -> np.ndarray:
    """Lehmer unrank of each order P as a permutation o of 0..k-1: (len, k), o[:, i] = slot of tile i."""
    digits = np.zeros((len(orders), k), dtype=np.int64)
    r = orders.copy()
    for i in range(k - 1, -1, -1):
        digits[:, i] = r % (k - i)
        r //= k - i
    avail = np.ones((len(orders), k), dtype=bool)
    out = np.zeros((len(orders), k), dtype=np.intp)
    rows = np.arange(len(orders))
    for i in range(k):
        cum = np.cumsum(avail, axis=1)
        slot = np.argmax(cum == (digits[:, i : i + 1] + 1), axis=1)
        out[:, i] = slot
        avail[rows, slot] = False
    return out


@lru_cache(maxsize=None)
def _select_table(n: int) -> np.ndarray:
    """sel[mask, d] = the d-th lowest set bit of mask (masks of n <= 12 bits; exact tables)."""
    size = 1 << n
    sel = np.zeros((size, n), dtype=np.uint8)
    for mask in range(size):
        j = 0
        for c in range(n):
            if mask >> c & 1:
                sel[mask, j] = c
                j += 1
    return sel
