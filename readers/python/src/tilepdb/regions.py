"""The index of zero-aware tables (format/SPEC.md section 11, ranking
``cellset-order-region``).

For every cell set M of an additive pattern (colexicographic rank of the
occupied cells), the connected regions of its free cells (orthogonal
neighbours) are numbered 0, 1, ... in the order of their smallest cell;
``slot_start[M]`` is the prefix sum of the region counts, S = the number
of slots, and the index of a state is ``P·S + slot_start[M] + region of
the blank``, in [0, k!·S). The labelling is vectorised over cell sets
(min-label propagation, a chunk of cell sets at a time).
"""

from __future__ import annotations

import math

import numpy as np

from .pattern import Pattern, _colex_combinations

__all__ = ["Regions", "KIND_ZERO_AWARE", "RANKING_CELLSET_ORDER_REGION", "OCCUPIED"]

KIND_ZERO_AWARE = "zero-aware"
RANKING_CELLSET_ORDER_REGION = "cellset-order-region"
#: Region label of an occupied cell in :attr:`Regions.region_of`.
OCCUPIED = 0xFF
_CHUNK = 1 << 15  # cell sets labelled per vectorised step


class Regions:
    """The region numbering of an additive pattern.

    Attributes: ``pattern``; ``comb`` (C(N,k)); ``slot_start`` (int64 array
    of C(N,k)+1 prefix sums); ``region_of`` (uint8 array of shape
    (C(N,k), N): region of each cell, :data:`OCCUPIED` for a pattern cell);
    ``slots`` (S); ``size`` (k!·S, the table's entries). Memory about
    C(N,k)·(N+8) bytes (4.6 MB for 6 tiles of the 24-puzzle).
    ValueError for an exact pattern.
    """

    def __init__(self, p: Pattern) -> None:
        if p.exact:
            raise ValueError(f"{p} is exact; zero-aware tables are additive")
        n, k = p.n, p.k
        self.pattern = p
        self.n, self.k = n, k
        self.comb = math.comb(n, k)
        combs = _colex_combinations(n, k)  # (C, k) sorted cells
        cells = np.arange(n, dtype=np.uint8)
        self.region_of = np.empty((self.comb, n), dtype=np.uint8)
        counts = np.empty(self.comb, dtype=np.int64)
        for lo in range(0, self.comb, _CHUNK):
            cs = combs[lo : lo + _CHUNK]
            occ = np.zeros((len(cs), n), dtype=bool)
            np.put_along_axis(occ, cs.astype(np.intp), True, axis=1)
            # min-label propagation: each free cell ends with the smallest cell of its region
            # (rows that stopped changing leave the working set)
            lab = np.where(occ, np.uint8(OCCUPIED), cells[None, :])
            rows = np.arange(len(cs))
            cur, cocc = lab, occ
            while len(rows):
                # the four neighbours as shifted views of the (rows, h, w) boards
                new = cur.copy()
                c3, n3 = cur.reshape(-1, p.h, p.w), new.reshape(-1, p.h, p.w)
                np.minimum(n3[:, 1:, :], c3[:, :-1, :], out=n3[:, 1:, :])
                np.minimum(n3[:, :-1, :], c3[:, 1:, :], out=n3[:, :-1, :])
                np.minimum(n3[:, :, 1:], c3[:, :, :-1], out=n3[:, :, 1:])
                np.minimum(n3[:, :, :-1], c3[:, :, 1:], out=n3[:, :, :-1])
                new[cocc] = OCCUPIED
                moving = (new != cur).any(axis=1)
                lab[rows] = new
                rows, cur, cocc = rows[moving], new[moving], cocc[moving]
            root = (lab == cells[None, :]) & ~occ
            # region number = roots at smaller cells than this cell's root
            before = np.cumsum(root, axis=1, dtype=np.uint8) - root
            reg = np.take_along_axis(before, np.minimum(lab, n - 1).astype(np.intp), axis=1)
            reg[occ] = OCCUPIED
            self.region_of[lo : lo + len(cs)] = reg
            counts[lo : lo + len(cs)] = root.sum(axis=1)
        self.slot_start = np.zeros(self.comb + 1, dtype=np.int64)
        np.cumsum(counts, out=self.slot_start[1:])
        self.slots = int(self.slot_start[-1])
        self.size = math.factorial(k) * self.slots
        self._flat = self.region_of.reshape(-1)

    def count(self, m: int) -> int:
        """Number of regions of cell set m."""
        return int(self.slot_start[m + 1] - self.slot_start[m])

    def index(self, pos) -> int:
        """Zero-aware index of the state with position vector pos (pos[0] = the blank's cell); unchecked."""
        return self.index_cells([pos[t] for t in self.pattern.tiles], pos[0])

    def index_cells(self, cells, blank: int) -> int:
        """index given the cells of the pattern tiles (tiles ascending) and the blank's cell, which must be free."""
        rank = self.pattern.rank_cells(cells)
        order, m = divmod(rank, self.comb)
        return order * self.slots + int(self.slot_start[m]) + int(self.region_of[m, blank])

    def indexes_t(self, pos_t: np.ndarray, cells_t: np.ndarray | None = None, blank_t: np.ndarray | None = None) -> np.ndarray:
        """Zero-aware indexes (int64, shape (B,)) of transposed position
        vectors pos_t (shape (N, B)); cells_t (k, B) and blank_t (B,) may give
        the cells of the table's tiles and of the blank (a symmetric part)."""
        r = self.pattern.ranks_t(pos_t, cells_t)
        order, m = np.divmod(r, self.comb)
        blank = (pos_t[0] if blank_t is None else blank_t).astype(np.int64)
        return order * self.slots + self.slot_start[m] + self._flat[m * self.n + blank]

    def slot_cell_sets(self) -> np.ndarray:
        """For every slot s < S, its cell set M (int64, shape (S,))."""
        return np.repeat(np.arange(self.comb, dtype=np.int64), np.diff(self.slot_start))

    def cell_set_of_slot(self, s: int) -> int:
        """The cell set M whose slots hold slot s (0 <= s < S)."""
        return int(np.searchsorted(self.slot_start, s, side="right")) - 1
