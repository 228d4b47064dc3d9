package tilepdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tilepdb.TestFiles.goalFor;
import static tilepdb.TestFiles.pos;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Boards past 5x5 (up to 8x8, cells 32..63 included): ranks, solvability, limits and symmetries. */
class BigBoardTest {
    /** SPEC.md section 4 transcribed in BigInteger arithmetic, independent of Pattern's bit masks. */
    static long direct(Pattern p, byte[] pos) {
        int k = p.tiles.length;
        int[] c = new int[k];
        for (int i = 0; i < k; i++) c[i] = pos[p.tiles[i]];
        int[] s = c.clone();
        Arrays.sort(s);
        BigInteger m = BigInteger.ZERO;
        for (int j = 0; j < k; j++) m = m.add(binom(s[j], j + 1));
        BigInteger ord = BigInteger.ZERO;
        for (int i = 0; i < k; i++) {
            int later = 0;
            for (int q = i + 1; q < k; q++) if (c[q] < c[i]) later++;
            ord = ord.add(BigInteger.valueOf(later).multiply(fact(k - 1 - i)));
        }
        return ord.multiply(binom(p.n, k)).add(m).longValueExact();
    }

    static BigInteger fact(int m) {
        BigInteger f = BigInteger.ONE;
        for (int i = 2; i <= m; i++) f = f.multiply(BigInteger.valueOf(i));
        return f;
    }

    static BigInteger binom(int a, int b) {
        return a < b ? BigInteger.ZERO : fact(a).divide(fact(b).multiply(fact(a - b)));
    }

    static int[] shuffled(int n, Random rnd) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    @Test
    @DisplayName("cellset-order ranks on every board from 2x2 to 8x8 equal a BigInteger transcription (random states, up to 2^36 entries)")
    void ranksEqualTheTranscription() throws Exception {
        Random rnd = new Random(2026);
        int checked = 0;
        for (int w = 2; w <= Pattern.MAX_SIDE; w++) {
            for (int h = 2; h <= Pattern.MAX_SIDE; h++) {
                int n = w * h;
                for (String goal : List.of("blank-last", "blank-first")) {
                    int kMax = 0;
                    for (long size = 1; kMax < n - 3 && size * (n - kMax) <= Pattern.MAX_ENTRIES; kMax++) size *= n - kMax;
                    for (int trial = 0; trial < 20; trial++) {
                        int k = 1 + rnd.nextInt(kMax);
                        int[] order = shuffled(n - 1, rnd);
                        int[] tiles = new int[k];
                        for (int i = 0; i < k; i++) tiles[i] = order[i] + 1;
                        Pattern p = new Pattern(w, h, goalFor(goal, n), tiles);
                        byte[] ps = pos(shuffled(n, rnd));
                        long r = p.rank(ps);
                        assertTrue(r >= 0 && r < p.size, p + ": rank " + r + " of " + p.size);
                        assertEquals(direct(p, ps), r, p + " " + Arrays.toString(ps));
                        byte[] cells = new byte[k];
                        for (int i = 0; i < k; i++) cells[i] = ps[p.tiles[i]];
                        assertEquals(r, p.rankCells(cells, k));
                        checked++;
                    }
                }
            }
        }
        assertEquals(49 * 2 * 20, checked);
    }

    @ParameterizedTest(name = "{0}x{1}, k = {2}")
    @DisplayName("cellset-order is a bijection on boards past 32 cells (exhaustive)")
    @CsvSource({"6, 6, 3", "7, 7, 3", "8, 8, 2", "8, 2, 4"})
    void cellsetOrderIsABijection(int w, int h, int k) throws Exception {
        int n = w * h;
        int[] tiles = new int[k];
        for (int i = 0; i < k; i++) tiles[i] = n - 1 - i;
        Pattern p = new Pattern(w, h, goalFor("blank-last", n), tiles);
        boolean[] seen = new boolean[(int) p.size];
        byte[] ps = new byte[n];
        boolean[] used = new boolean[n];
        long[] count = {0};
        place(p, 0, ps, used, seen, count);
        assertEquals(p.size, count[0]);
    }

    private static void place(Pattern p, int i, byte[] ps, boolean[] used, boolean[] seen, long[] count) {
        if (i == p.tiles.length) {
            long r = p.rank(ps);
            assertTrue(r >= 0 && r < p.size && !seen[(int) r], p + ": rank " + r + " twice or out of range");
            seen[(int) r] = true;
            count[0]++;
            return;
        }
        for (int c = 0; c < p.n; c++) {
            if (used[c]) continue;
            used[c] = true;
            ps[p.tiles[i]] = (byte) c;
            place(p, i + 1, ps, used, seen, count);
            used[c] = false;
        }
    }

    @ParameterizedTest(name = "{0}x{1}")
    @DisplayName("solvability past 32 cells: walks of the blank from the goal are solvable, a swap of two tiles is not")
    @CsvSource({"6, 6", "7, 7", "8, 8", "8, 3", "2, 8", "5, 7"})
    void solvability(int w, int h) throws Exception {
        int n = w * h;
        Random rnd = new Random(w * 10 + h);
        for (String goal : List.of("blank-last", "blank-first")) {
            int[] g = goalFor(goal, n);
            Pattern p = new Pattern(w, h, g, new int[] {1, 2});
            for (int trial = 0; trial < 30; trial++) {
                int[] b = g.clone();
                int z = 0;
                while (b[z] != 0) z++;
                for (int m = 1 + rnd.nextInt(400); m > 0; m--) {
                    List<Integer> to = new ArrayList<>();
                    if (z >= w) to.add(z - w);
                    if (z + w < n) to.add(z + w);
                    if (z % w > 0) to.add(z - 1);
                    if (z % w < w - 1) to.add(z + 1);
                    int c = to.get(rnd.nextInt(to.size()));
                    b[z] = b[c];
                    b[c] = 0;
                    z = c;
                }
                assertTrue(p.solvablePositions(pos(b)), Arrays.toString(b));
                int i = (z + 1) % n, j = (z + 2) % n;
                int t = b[i];
                b[i] = b[j];
                b[j] = t;
                assertFalse(p.solvablePositions(pos(b)), "swapped " + Arrays.toString(b));
            }
        }
    }

    @Test
    @DisplayName("limits: sides 2..8, at most 2^36 entries (pdbgen's messages)")
    void limits() throws Exception {
        BoardException e = assertThrows(BoardException.class, () -> new Pattern(9, 3, goalFor("blank-last", 27), new int[] {1}));
        assertEquals("board 9x3: each side must be between 2 and 8", e.getMessage());
        e = assertThrows(BoardException.class, () -> new Pattern(8, 8, goalFor("blank-last", 64), new int[] {1, 2, 3, 4, 5, 6, 7}));
        assertEquals("bad pattern: 7 tiles on a 8x8 board need more than 2^36 entries", e.getMessage());
        assertEquals(64L * 63 * 62 * 61 * 60 * 59, new Pattern(8, 8, goalFor("blank-last", 64), new int[] {1, 2, 3, 4, 5, 6}).size);
        assertEquals(new BigInteger("1832624140942590534"), BigInteger.valueOf(Pattern.BINOM[64][32]));
    }

    @Test
    @DisplayName("symmetries on 8x8: transpose serves the transposed tiles; a blank region past cell 31 that maps elsewhere is refused")
    void symmetriesOn8x8() throws Exception {
        int[] goal = goalFor("blank-last", 64);
        // tiles 63 and 56 sit on cells 62 and 55, each the other's transpose
        SetFile.Mapping m = SetFile.map(new Pattern(8, 8, goal, new int[] {63, 56}), new Pattern(8, 8, goal, new int[] {56, 63}), "transpose");
        assertEquals(55, m.cell()[62]);
        // cells 62, 55, 61 shut the blank's goal cell 63 in: its region is {63}, and flip-lr maps it to {56}
        Pattern corner = new Pattern(8, 8, goal, new int[] {63, 56, 62});
        assertEquals(1L << 63, SetFile.goalBlankRegion(corner));
        SetFile.Problem pr = assertThrows(SetFile.Problem.class, () -> SetFile.map(corner, new Pattern(8, 8, goal, new int[] {58, 49, 59}), "flip-lr"));
        assertTrue(pr.getMessage().contains("flip-lr maps the blank's goal region"), pr.getMessage());
        // one tile far from the blank: flip-tb maps the region onto the other's
        SetFile.map(new Pattern(8, 8, goal, new int[] {1}), new Pattern(8, 8, goal, new int[] {57}), "flip-tb");
    }
}
