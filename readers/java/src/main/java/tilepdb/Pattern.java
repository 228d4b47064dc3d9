package tilepdb;

import java.util.Arrays;

/**
 * A pattern: board geometry (w x h, 2..8 each), goal board and pattern
 * tiles, with the ranking functions of format/SPEC.md section 4. With all
 * tiles 1..N-1 the pattern is exact (ranking lehmer-half, N!/2 entries),
 * else an additive pattern database (ranking cellset-order, N!/(N-k)!
 * entries). Cells are numbered 0..N-1 in reading order; a position vector
 * pos lists the cell of each tile (pos[0] = the blank's cell). A set of
 * cells (at most 64) is a {@code long} bit mask, bit c for cell c. Ranks are
 * below 2^36. Instances are immutable; {@link #rank} does not allocate.
 */
public final class Pattern {
    public static final int MIN_SIDE = 2, MAX_SIDE = 8, MAX_CELLS = MAX_SIDE * MAX_SIDE;
    public static final long MAX_ENTRIES = 1L << 36;
    public static final String CELLSET_ORDER = "cellset-order", LEHMER_HALF = "lehmer-half";
    public static final int RANKING_VERSION = 1;

    /** BINOM[n][r] = C(n, r) for 0 <= r <= n <= 64 (0 for r > n); C(64, 32) < 2^61 is the largest, so no entry overflows. */
    static final long[][] BINOM = new long[MAX_CELLS + 1][MAX_CELLS + 2];
    static {
        for (int i = 0; i <= MAX_CELLS; i++) {
            BINOM[i][0] = 1;
            for (int j = 1; j <= i; j++) BINOM[i][j] = BINOM[i - 1][j - 1] + BINOM[i - 1][j];
        }
    }

    public final int w, h, n, k;
    public final byte[] goal;
    public final byte[] tiles;
    public final boolean exact;
    /** Number of table entries. */
    public final long size;
    /** C(N, k), the number of occupied-cell sets (additive). */
    public final long comb;
    final byte[] goalPos;

    /** Validates like puzzle.NewPattern; throws BoardException. Tiles in any order. */
    public Pattern(int w, int h, int[] goal, int[] tiles) throws BoardException {
        if (w < MIN_SIDE || w > MAX_SIDE || h < MIN_SIDE || h > MAX_SIDE)
            throw new BoardException("board " + w + "x" + h + ": each side must be between " + MIN_SIDE + " and " + MAX_SIDE);
        int n = w * h;
        String err = Boards.validate(goal, n);
        if (err != null) throw new BoardException("goal: " + err);
        if (tiles.length == 0) throw new BoardException("bad pattern: no tiles");
        int[] ts = tiles.clone();
        Arrays.sort(ts);
        for (int i = 0; i < ts.length; i++) {
            if (ts[i] == 0) throw new BoardException("bad pattern: 0 is the blank, not a pattern tile");
            if (ts[i] < 0 || ts[i] >= n)
                throw new BoardException("bad pattern: tile " + ts[i] + " does not exist on a " + w + "x" + h + " board (tiles 1.." + (n - 1) + ")");
            if (i > 0 && ts[i - 1] == ts[i]) throw new BoardException("bad pattern: tile " + ts[i] + " listed twice");
        }
        if (ts.length == n - 2)
            throw new BoardException("bad pattern: " + ts.length + " of " + (n - 1) + " tiles leaves one non-pattern tile, so some placements are unreachable");
        this.w = w;
        this.h = h;
        this.n = n;
        this.goal = new byte[n];
        for (int i = 0; i < n; i++) this.goal[i] = (byte) goal[i];
        this.tiles = new byte[ts.length];
        for (int i = 0; i < ts.length; i++) this.tiles[i] = (byte) ts[i];
        this.exact = ts.length == n - 1;
        this.k = exact ? n - 2 : ts.length;
        long s = 1;
        for (int i = 0; i < k; i++) {
            s *= n - i;
            if (s > MAX_ENTRIES) throw new BoardException("bad pattern: " + ts.length + " tiles on a " + w + "x" + h + " board need more than 2^36 entries");
        }
        this.size = s;
        this.comb = BINOM[n][k];
        this.goalPos = new byte[n];
        for (int c = 0; c < n; c++) goalPos[goal[c]] = (byte) c;
    }

    public String ranking() { return exact ? LEHMER_HALF : CELLSET_ORDER; }

    public String kind() { return exact ? "exact" : "additive"; }

    /** "blank-last", "blank-first", or the goal written out (numbers and spaces). */
    public String goalName() { return Boards.goalName(goal); }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tiles.length; i++) {
            if (i > 0) sb.append(',');
            sb.append(tiles[i]);
        }
        return w + "x" + h + " " + goalName() + " " + (exact ? "exact (all tiles)" : "tiles " + sb);
    }

    /**
     * Table index of the state with full position vector pos (length N;
     * only the pattern tiles are read for an additive pattern). Not checked;
     * pos must be valid, and solvable for an exact table.
     */
    public long rank(byte[] pos) {
        if (exact) return lehmerRank(pos, n, n - 2);
        long mask = 0;
        for (int i = 0; i < k; i++) mask |= 1L << pos[tiles[i]];
        int used = 0;
        long ord = 0;
        for (int i = 0; i < k; i++) {
            int c = pos[tiles[i]];
            int o = Long.bitCount(mask & ((1L << c) - 1));
            int d = o - Integer.bitCount(used & ((1 << o) - 1)); // o < k < 32
            used |= 1 << o;
            ord = ord * (k - i) + d;
        }
        return ord * comb + combinationRank(mask);
    }

    /**
     * cellset-order rank (additive) of the state in which table tile j
     * (ascending) sits on cell[pos[src[j]]]: the index of a symmetric
     * lookup (format/SPEC.md section 10; src and cell from {@link
     * SetFile.Mapping}). Not checked; no allocation, no shared state.
     */
    public long rankMapped(byte[] pos, byte[] src, byte[] cell) {
        long mask = 0;
        for (int i = 0; i < k; i++) mask |= 1L << cell[pos[src[i]]];
        int used = 0;
        long ord = 0;
        for (int i = 0; i < k; i++) {
            int c = cell[pos[src[i]]];
            int o = Long.bitCount(mask & ((1L << c) - 1));
            int d = o - Integer.bitCount(used & ((1 << o) - 1)); // o < k < 32
            used |= 1 << o;
            ord = ord * (k - i) + d;
        }
        return ord * comb + combinationRank(mask);
    }

    /** cellset-order rank (additive) of cells[0..k): the cell of each pattern tile, tiles ascending. Not checked. */
    public long rankCells(byte[] cells, int k) {
        long mask = 0;
        for (int i = 0; i < k; i++) mask |= 1L << cells[i];
        int used = 0;
        long ord = 0;
        for (int i = 0; i < k; i++) {
            int c = cells[i];
            int o = Long.bitCount(mask & ((1L << c) - 1));
            int d = o - Integer.bitCount(used & ((1 << o) - 1)); // o < k < 32
            used |= 1 << o;
            ord = ord * (k - i) + d;
        }
        return ord * comb + combinationRank(mask);
    }

    /** Lehmer rank of the k-permutation seq[0..k) of 0..n-1 (n <= 64), in [0, n!/(n-k)!); the caller keeps that below 2^63. */
    public static long lehmerRank(byte[] seq, int n, int k) {
        long used = 0;
        long r = 0;
        for (int i = 0; i < k; i++) {
            int c = seq[i];
            int d = c - Long.bitCount(used & ((1L << c) - 1));
            used |= 1L << c;
            r = r * (n - i) + d;
        }
        return r;
    }

    /** Colex rank of a set of cells as a bit mask (bit c = cell c, cells 0..63): sum_j C(s_j, j+1). */
    public static long combinationRank(long mask) {
        long m = 0;
        int j = 1;
        for (long mm = mask; mm != 0; mm &= mm - 1) m += BINOM[Long.numberOfTrailingZeros(mm)][j++];
        return m;
    }

    /** Whether the state pos can reach the goal (SPEC.md 4.2). */
    public boolean solvablePositions(byte[] pos) {
        int[] perm = new int[n];
        for (int t = 0; t < n; t++) perm[goalPos[t]] = pos[t];
        long seen = 0;
        int cycles = 0;
        for (int i = 0; i < n; i++) {
            if ((seen & (1L << i)) != 0) continue;
            cycles++;
            for (int j = i; (seen & (1L << j)) == 0; j = perm[j]) seen |= 1L << j;
        }
        int parity = (n - cycles) % 2;
        int a = pos[0], b = goalPos[0];
        int dist = Math.abs(a / w - b / w) + Math.abs(a % w - b % w);
        return parity == dist % 2;
    }
}
