package tilepdb;

/**
 * The index of a zero-aware table (format/SPEC.md section 11, ranking
 * {@code cellset-order-region}): for every cell set M of an additive
 * pattern (colexicographic rank of the occupied cells), the connected
 * regions of its free cells (orthogonal neighbours), numbered 0, 1, ... in
 * the order of their smallest cell, and slotStart[M], the prefix sums of
 * the region counts. index = P·S + slotStart[M] + region of the blank, in
 * [0, k!·S). Memory: C(N,k)·(N+4) bytes (4.4 MB for 6 tiles of the
 * 24-puzzle). Immutable; {@link #index} does not allocate.
 */
public final class Regions {
    public static final String KIND = "zero-aware", RANKING = "cellset-order-region";
    /** Label of an occupied cell in {@link #region}. */
    public static final int OCCUPIED = 0xff;

    public final Pattern pattern;
    /** C(N,k), the number of cell sets. */
    public final long comb;
    /** S, the number of (cell set, region) slots. */
    public final long slots;
    /** k!·S, the entries of the zero-aware table. */
    public final long size;
    private final int n, k;
    private final int[] slotStart; // C(N,k)+1
    private final byte[] regionOf; // regionOf[M·N + c]

    /**
     * Labels every cell set of the additive pattern p. The caller bounds
     * C(N,k)·N below 2^31 (TableReader: the pattern's plain table fits one
     * array); throws IllegalArgumentException for an exact pattern or more
     * than 2^31-1 slots.
     */
    public Regions(Pattern p) {
        if (p.exact) throw new IllegalArgumentException(p + " is exact; zero-aware tables are additive");
        this.pattern = p;
        this.n = p.n;
        this.k = p.tiles.length;
        this.comb = p.comb;
        if (comb * n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException(p + ": " + comb + " cell sets are too many to label here");
        int cs = (int) comb;
        slotStart = new int[cs + 1];
        regionOf = new byte[cs * n];
        int[][] nb = neighbours(p.w, p.h);
        int[] stack = new int[n];
        int[] c = new int[k]; // the cell set in colexicographic order, c[0] < ... < c[k-1]
        for (int i = 0; i < k; i++) c[i] = i;
        long total = 0;
        for (int m = 0; m < cs; m++) {
            long mask = 0;
            for (int i = 0; i < k; i++) mask |= 1L << c[i];
            total += label(nb, mask, m * n, stack);
            if (total > Integer.MAX_VALUE) throw new IllegalArgumentException(p + ": more than 2^31 slots");
            slotStart[m + 1] = (int) total;
            // next cell set: raise the lowest cell that can move up, reset the ones below
            int i = 0;
            while (i < k - 1 && c[i] + 1 == c[i + 1]) i++;
            c[i]++;
            for (int j = 0; j < i; j++) c[j] = j;
        }
        this.slots = total;
        long f = 1;
        for (int i = 2; i <= k; i++) f *= i;
        this.size = f * total;
    }

    static int[][] neighbours(int w, int h) {
        int[][] out = new int[w * h][];
        for (int c = 0; c < w * h; c++) {
            int r = c / w, col = c % w, j = 0;
            int[] nb = new int[4];
            if (r > 0) nb[j++] = c - w;
            if (r < h - 1) nb[j++] = c + w;
            if (col > 0) nb[j++] = c - 1;
            if (col < w - 1) nb[j++] = c + 1;
            out[c] = java.util.Arrays.copyOf(nb, j);
        }
        return out;
    }

    // label writes the region of every cell (OCCUPIED for a cell in mask)
    // at regionOf[off..off+n) and returns the number of regions.
    private int label(int[][] nb, long mask, int off, int[] stack) {
        java.util.Arrays.fill(regionOf, off, off + n, (byte) OCCUPIED);
        int label = 0;
        for (int c = 0; c < n; c++) {
            if ((mask >>> c & 1) != 0 || (regionOf[off + c] & 0xff) != OCCUPIED) continue;
            regionOf[off + c] = (byte) label;
            stack[0] = c;
            int top = 1;
            while (top > 0) {
                int x = stack[--top];
                for (int y : nb[x]) {
                    if ((mask >>> y & 1) == 0 && (regionOf[off + y] & 0xff) == OCCUPIED) {
                        regionOf[off + y] = (byte) label;
                        stack[top++] = y;
                    }
                }
            }
            label++;
        }
        return label;
    }

    /** slotStart[M], M = 0..C(N,k) (slotStart(C(N,k)) = S). */
    public long slotStart(long m) { return slotStart[(int) m]; }

    /** Number of regions of cell set M. */
    public int count(long m) { return slotStart[(int) m + 1] - slotStart[(int) m]; }

    /** Region of cell c in cell set M; {@link #OCCUPIED} for a pattern cell. */
    public int region(long m, int c) { return regionOf[(int) m * n + c] & 0xff; }

    /** Zero-aware index of the state with position vector pos (pos[0] = the blank's cell); not checked. */
    public long index(byte[] pos) {
        long rank = pattern.rank(pos);
        long m = rank % comb;
        return rank / comb * slots + slotStart[(int) m] + region(m, pos[0]);
    }

    /**
     * Zero-aware index of the symmetric lookup in which table tile j sits on
     * cell[pos[src[j]]] and the blank on cell[pos[0]] (SPEC.md sections 10
     * and 11; src and cell from {@link SetFile.Mapping}). Not checked.
     */
    public long indexMapped(byte[] pos, byte[] src, byte[] cell) {
        long rank = pattern.rankMapped(pos, src, cell);
        long m = rank % comb;
        return rank / comb * slots + slotStart[(int) m] + region(m, cell[pos[0]]);
    }

    /** The cell set M whose slots hold slot s (0 <= s < S). */
    public long cellSetOfSlot(long s) {
        int lo = 0, hi = (int) comb;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (slotStart[mid] <= s) lo = mid;
            else hi = mid;
        }
        return lo;
    }
}
