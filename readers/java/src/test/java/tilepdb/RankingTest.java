package tilepdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tilepdb.TestFiles.dist;
import static tilepdb.TestFiles.goalFor;
import static tilepdb.TestFiles.ints;
import static tilepdb.TestFiles.perms;
import static tilepdb.TestFiles.pos;
import static tilepdb.TestFiles.root;
import static tilepdb.TestFiles.specBlock;
import static tilepdb.TestFiles.tsv;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Ranking (SPEC.md section 6): the vectors, bijections, and the Manhattan walk of format 2. */
class RankingTest {
    @Test
    @DisplayName("rank_vectors.tsv is the block of SPEC.md section 6")
    void rankVectorsFileIsTheSpecBlock() throws Exception {
        assertEquals(specBlock("rank-vectors"), Files.readString(root.resolve("format/testdata/rank_vectors.tsv")));
    }

    @Test
    @DisplayName("SPEC.md ranking vectors: the ranking scheme and the rank of each board")
    void specRankingVectors() throws Exception {
        List<String[]> rows = tsv(root.resolve("format/testdata/rank_vectors.tsv"));
        assertTrue(rows.size() >= 30, rows.size() + " vectors");
        for (String[] r : rows) {
            int[] wh = ints(r[0], "x");
            Pattern p = new Pattern(wh[0], wh[1], goalFor(r[1], wh[0] * wh[1]), ints(r[2], ","));
            assertEquals(r[3], p.ranking(), "ranking of " + String.join(" ", r));
            assertEquals(Long.parseLong(r[5]), p.rank(pos(ints(r[4], " "))), String.join(" ", r));
        }
    }

    @ParameterizedTest(name = "k = {0}")
    @DisplayName("cellset-order is a bijection (exhaustive, 3x3)")
    @ValueSource(ints = {1, 2, 3, 4})
    void cellsetOrderIsABijection(int k) throws Exception {
        int[] tiles = new int[k];
        for (int i = 0; i < k; i++) tiles[i] = i + 1;
        Pattern p = new Pattern(3, 3, goalFor("blank-last", 9), tiles);
        boolean[] seen = new boolean[(int) p.size];
        int[] count = {0};
        byte[] ps = new byte[9];
        perms(9, k, new int[k], 0, 0, cells -> {
            for (int i = 0; i < cells.length; i++) ps[i + 1] = (byte) cells[i];
            long r = p.rank(ps);
            assertTrue(r >= 0 && r < p.size && !seen[(int) r], "rank " + r + " of " + Arrays.toString(cells));
            seen[(int) r] = true;
            count[0]++;
        });
        assertEquals(p.size, count[0], "placements");
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("lehmer-half is a bijection on the solvable 3x2 states")
    @ValueSource(strings = {"blank-last", "blank-first"})
    void lehmerHalfIsABijection(String goal) throws Exception {
        Pattern p = new Pattern(3, 2, goalFor(goal, 6), new int[] {1, 2, 3, 4, 5});
        boolean[] seen = new boolean[(int) p.size];
        int[] count = {0};
        perms(6, 6, new int[6], 0, 0, ps -> {
            byte[] b = new byte[6];
            for (int i = 0; i < 6; i++) b[i] = (byte) ps[i];
            if (!p.solvablePositions(b)) return;
            long r = p.rank(b);
            assertFalse(seen[(int) r], "rank " + r + " twice");
            seen[(int) r] = true;
            count[0]++;
        });
        assertEquals(p.size, count[0], "solvable states");
    }

    static Stream<Arguments> walkCases() {
        return Stream.of(
                Arguments.of(3, 3, "blank-last", new int[] {1, 2, 3}),
                Arguments.of(3, 3, "blank-first", new int[] {2, 5, 7}),
                Arguments.of(4, 3, "blank-first", new int[] {1, 2, 3}),
                Arguments.of(2, 2, "1 3 2 0", new int[] {1, 2, 3}),
                Arguments.of(3, 2, "blank-last", new int[] {1, 2, 3, 4, 5}),
                Arguments.of(2, 3, "5 4 3 2 1 0", new int[] {1, 2, 3, 4, 5}));
    }

    @ParameterizedTest(name = "{0}x{1} {2}")
    @DisplayName("format 2: the Manhattan walk equals the definition at every rank (exhaustive small tables)")
    @MethodSource("walkCases")
    void manhattanWalkMatchesTheDefinition(int w, int h, String goal, int[] tiles) throws Exception {
        Pattern p = new Pattern(w, h, goalFor(goal, w * h), tiles);
        int[] walk = new int[(int) p.size];
        long[] count = {0};
        Manhattan.forEach(p, (r, m) -> {
            assertEquals(count[0]++, r, "ranks in order");
            walk[(int) r] = m;
            return true;
        });
        assertEquals(p.size, count[0], "ranks walked");
        int k = p.exact ? p.n : p.tiles.length;
        byte[] pos = new byte[p.n];
        perms(p.n, k, new int[k], 0, 0, cells -> {
            int m = 0;
            if (p.exact) {
                for (int t = 0; t < p.n; t++) pos[t] = (byte) cells[t];
                if (!p.solvablePositions(pos)) return;
                for (int t = 1; t < p.n; t++) m += dist(p, t, cells[t]);
            } else {
                for (int i = 0; i < k; i++) {
                    pos[p.tiles[i]] = (byte) cells[i];
                    m += dist(p, p.tiles[i], cells[i]);
                }
            }
            assertEquals(m, walk[(int) p.rank(pos)], Arrays.toString(cells));
        });
    }
}
