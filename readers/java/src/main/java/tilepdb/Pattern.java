package tilepdb;

import java.util.Arrays;

/**
 * A pattern: board geometry (w x h, 2..5 each), goal board and pattern
 * tiles, with the ranking functions of format/SPEC.md section 4. With all
 * tiles 1..N-1 the pattern is exact (ranking lehmer-half, N!/2 entries),
 * else an additive pattern database (ranking cellset-order, N!/(N-k)!
 * entries). Cells are numbered 0..N-1 in reading order; a position vector
 * pos lists the cell of each tile (pos[0] = the blank's cell). Ranks are
 * below 2^36. Instances are immutable; {@link #rank} does not allocate.
 */
public final class Pattern {
    public static final int MIN_SIDE = 2, MAX_SIDE = 5, MAX_CELLS = 25;
    public static final long MAX_ENTRIES = 1L << 36;
    public static final String CELLSET_ORDER = "cellset-order", LEHMER_HALF = "lehmer-half";
    public static final int RANKING_VERSION = 1;

    /** BINOM[n][r] = C(n, r) for 0 <= r <= n <= 25. */
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
            throw new BoardException("board " + w + "x" + h + ": each side must be between 2 and 5");
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
        int mask = 0;
        for (int i = 0; i < k; i++) mask |= 1 << pos[tiles[i]];
        int used = 0;
        long ord = 0;
        for (int i = 0; i < k; i++) {
            int c = pos[tiles[i]];
            int o = Integer.bitCount(mask & ((1 << c) - 1));
            int d = o - Integer.bitCount(used & ((1 << o) - 1));
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
        int mask = 0;
        for (int i = 0; i < k; i++) mask |= 1 << cell[pos[src[i]]];
        int used = 0;
        long ord = 0;
        for (int i = 0; i < k; i++) {
            int c = cell[pos[src[i]]];
            int o = Integer.bitCount(mask & ((1 << c) - 1));
            int d = o - Integer.bitCount(used & ((1 << o) - 1));
            used |= 1 << o;
            ord = ord * (k - i) + d;
        }
        return ord * comb + combinationRank(mask);
    }

    /** cellset-order rank (additive) of cells[0..k): the cell of each pattern tile, tiles ascending. Not checked. */
    public long rankCells(byte[] cells, int k) {
        int mask = 0;
        for (int i = 0; i < k; i++) mask |= 1 << cells[i];
        int used = 0;
        long ord = 0;
        for (int i = 0; i < k; i++) {
            int c = cells[i];
            int o = Integer.bitCount(mask & ((1 << c) - 1));
            int d = o - Integer.bitCount(used & ((1 << o) - 1));
            used |= 1 << o;
            ord = ord * (k - i) + d;
        }
        return ord * comb + combinationRank(mask);
    }

    /** Lehmer rank of the k-permutation seq[0..k) of 0..n-1. */
    public static long lehmerRank(byte[] seq, int n, int k) {
        int used = 0;
        long r = 0;
        for (int i = 0; i < k; i++) {
            int c = seq[i];
            int d = c - Integer.bitCount(used & ((1 << c) - 1));
            used |= 1 << c;
            r = r * (n - i) + d;
        }
        return r;
    }

    /** Colex rank of a set of cells as a bit mask: sum_j C(s_j, j+1). */
    public static long combinationRank(int mask) {
        long m = 0;
        int j = 1;
        for (int mm = mask; mm != 0; mm &= mm - 1) m += BINOM[Integer.numberOfTrailingZeros(mm)][j++];
        return m;
    }

    /** Whether the state pos can reach the goal (SPEC.md 4.2). */
    public boolean solvablePositions(byte[] pos) {
        int[] perm = new int[n];
        for (int t = 0; t < n; t++) perm[goalPos[t]] = pos[t];
        int seen = 0, cycles = 0;
        for (int i = 0; i < n; i++) {
            if ((seen & (1 << i)) != 0) continue;
            cycles++;
            for (int j = i; (seen & (1 << j)) == 0; j = perm[j]) seen |= 1 << j;
        }
        int parity = (n - cycles) % 2;
        int a = pos[0], b = goalPos[0];
        int dist = Math.abs(a / w - b / w) + Math.abs(a % w - b % w);
        return parity == dist % 2;
    }
}
