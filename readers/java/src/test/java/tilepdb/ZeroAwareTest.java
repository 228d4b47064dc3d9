package tilepdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Zero-aware tables (SPEC.md section 11): the zero-aware conformance kit,
 * the vectors of 11.4, a set part through a symmetry, and malformed
 * zero-aware headers (one error of a class, quickly, never a crash or a
 * giant allocation).
 */
class ZeroAwareTest {
    static final Path za = TestFiles.conformanceZeroAware;
    static final Path vectors = TestFiles.root.resolve("format/testdata/zero_aware_vectors.txt");

    static Table kit3x3() throws Exception {
        return TableReader.read(TableReader.bytes(Files.readAllBytes(za.resolve("v1-zero-aware-3x3.pdb"))));
    }

    @Test
    @DisplayName("zero-aware conformance kit (format/testdata/conformance-zero-aware)")
    void conformanceKit() throws Exception {
        assumeTrue(Files.exists(za.resolve("index.json")), za + "/index.json is not in this tree");
        assertTrue(Conformance.run(za) >= 8);
    }

    @Test
    @DisplayName("format/testdata/zero_aware_vectors.txt is the block of SPEC.md section 11.4")
    void vectorsFileIsTheSpecBlock() throws Exception {
        assertEquals(TestFiles.specBlock("zero-aware-vectors"), Files.readString(vectors));
    }

    @Test
    @DisplayName("SPEC.md 11.4 vectors: regions of every cell set, slotStart, S, index and values")
    void specVectors() throws Exception {
        Table t = kit3x3();
        Regions r = new Regions(t.pattern);
        assertEquals(84, r.comb);
        assertEquals(124, r.slots);
        assertEquals(744, r.size);
        Set<Long> multi = new HashSet<>();
        int boards = 0;
        for (String[] row : TestFiles.tsv(vectors)) {
            if (row[0].startsWith("M=")) {
                long m = Long.parseLong(row[0].substring(2));
                multi.add(m);
                String[] regions = row[2].substring("regions ".length()).split(" ");
                StringBuilder occ = new StringBuilder();
                int max = -1;
                for (int c = 0; c < regions.length; c++) {
                    if (regions[c].equals("x")) {
                        occ.append(occ.length() > 0 ? "," : "").append(c);
                        assertEquals(Regions.OCCUPIED, r.region(m, c), "M=" + m + " cell " + c);
                    } else {
                        assertEquals(Integer.parseInt(regions[c]), r.region(m, c), "M=" + m + " cell " + c);
                        max = Math.max(max, Integer.parseInt(regions[c]));
                    }
                }
                assertEquals(row[1].substring("cells ".length()), occ.toString(), "cells of M=" + m);
                assertEquals(max + 1, r.count(m));
                assertEquals(Long.parseLong(row[3].substring("slotStart ".length())), r.slotStart(m));
                continue;
            }
            byte[] pos = TestFiles.pos(TestFiles.ints(row[0], " "));
            long m = Long.parseLong(row[2]), p = Long.parseLong(row[3]);
            assertEquals(Integer.parseInt(row[4]), pos[0]);
            assertEquals(p * 84 + m, t.pattern.rank(pos), "rank of " + row[0]);
            assertEquals(Integer.parseInt(row[5]), r.region(m, pos[0]), "region of " + row[0]);
            assertEquals(Long.parseLong(row[6]), r.slotStart(m));
            long index = Long.parseLong(row[7]);
            assertEquals(index, r.index(pos), "index of " + row[0]);
            assertEquals(Integer.parseInt(row[8]), t.values[(int) index] & 0xff, "value of " + row[0]);
            assertEquals(Integer.parseInt(row[8]), t.value(pos), "value of " + row[0]);
            int min = 255;
            long base = p * 124 + r.slotStart(m);
            for (int i = 0; i < r.count(m); i++) min = Math.min(min, t.values[(int) (base + i)] & 0xff);
            assertEquals(Integer.parseInt(row[9]), min, "additive value of " + row[0]);
            boards++;
        }
        assertTrue(boards >= 8);
        for (long m = 0; m < 84; m++) if (!multi.contains(m)) assertEquals(1, r.count(m), "M=" + m);
    }

    @Test
    @DisplayName("cellSetOfSlot inverts slotStart")
    void cellSetOfSlot() throws Exception {
        int[] goal = new int[12];
        for (int i = 0; i < 12; i++) goal[i] = i;
        Regions r = new Regions(new Pattern(4, 3, goal, new int[] {1, 2, 3, 4}));
        for (long m = 0; m < r.comb; m++)
            for (long s = r.slotStart(m); s < r.slotStart(m + 1); s++) assertEquals(m, r.cellSetOfSlot(s));
    }

    @Test
    @DisplayName("a set part through transpose reads the zero-aware table at the transposed cells and blank")
    void transposedPart() throws Exception {
        Table t = kit3x3();
        int[] goal = t.header.goal();
        Pattern part = new Pattern(3, 3, goal, new int[] {1, 4, 7});
        SetFile.Mapping m = SetFile.map(part, t.pattern, "transpose");
        TableSet set = TableSet.ofParts(List.of(new TableSet.Part(part, t, "transpose", m)), List.of("part 1"), true);
        TableSet own = new TableSet(List.of(t));
        byte[] goalPos = TestFiles.pos(goal);
        java.util.Random rnd = new java.util.Random(7);
        int differ = 0;
        for (int i = 0; i < 3000; i++) {
            int[] b = {0, 1, 2, 3, 4, 5, 6, 7, 8};
            for (int j = 8; j > 0; j--) {
                int k = rnd.nextInt(j + 1), x = b[j];
                b[j] = b[k];
                b[k] = x;
            }
            // the board transposed, its tiles renamed to the goal's tiles at the transposed goal cells
            int[] tb = new int[9];
            for (int c = 0; c < 9; c++) tb[tr(c)] = goal[tr(goalPos[b[c]])];
            int want = t.value(TestFiles.pos(tb));
            assertEquals(want, set.heuristic(TestFiles.pos(b)), java.util.Arrays.toString(b));
            if (own.heuristic(TestFiles.pos(b)) != want) differ++;
        }
        assertTrue(differ > 100, "the transposed part looks up other entries than the identity");
    }

    private static int tr(int c) { return (c % 3) * 3 + c / 3; }

    static byte[] withHeader(byte[] file, UnaryOperator<String> edit) throws Exception {
        String js = new String(TableReaderTest.headerJson(file), StandardCharsets.UTF_8);
        return TableReaderTest.assemble(file[8], edit.apply(js).getBytes(StandardCharsets.UTF_8), TableReaderTest.payload(file));
    }

    static UnaryOperator<String> big(int w, int k, String entries) {
        StringBuilder goal = new StringBuilder(), tiles = new StringBuilder();
        for (int i = 0; i < w * w; i++) goal.append(i > 0 ? "," : "").append((i + 1) % (w * w));
        for (int i = 1; i <= k; i++) tiles.append(i > 1 ? "," : "").append(i);
        return js -> js.replaceFirst("\"width\":\\d+", "\"width\":" + w).replaceFirst("\"height\":\\d+", "\"height\":" + w)
                .replaceFirst("\"goal\":\\[[^\\]]*\\]", "\"goal\":[" + goal + "]").replaceFirst("\"tiles\":\\[[^\\]]*\\]", "\"tiles\":[" + tiles + "]")
                .replaceFirst("\"entries\":\\d+", "\"entries\":" + entries);
    }

    record Case(String name, UnaryOperator<String> edit, String cls, String msg) {}

    @Test
    @DisplayName("malformed zero-aware headers: one error of a class each, quickly")
    void malformedHeaders() throws Exception {
        byte[] file = Files.readAllBytes(za.resolve("v1-zero-aware-3x3.pdb"));
        List<Case> cases = List.of(
                new Case("entries of the additive table", js -> js.replace("\"entries\":744", "\"entries\":504"), "format", "entries 504, but the zero-aware table of pattern 3x3 blank-last tiles 1,2,3 has 744"),
                new Case("entries one more", js -> js.replace("\"entries\":744", "\"entries\":745"), "format", "has 744"),
                new Case("entries 2^64-1", js -> js.replace("\"entries\":744", "\"entries\":18446744073709551615"), "format", "entries"),
                new Case("additive ranking", js -> js.replace("\"cellset-order-region\"", "\"cellset-order\""), "format", "want \"cellset-order-region\""),
                new Case("kind of another case", js -> js.replace("\"zero-aware\"", "\"Zero-Aware\""), "unsupported", "kind \"Zero-Aware\""),
                new Case("future kind", js -> js.replace("\"zero-aware\"", "\"zero-aware-2\""), "unsupported", "kind \"zero-aware-2\""),
                new Case("kind as a number", js -> js.replace("\"zero-aware\"", "3"), "format", "kind"),
                new Case("kind zero-aware, all tiles", js -> js.replaceFirst("\"tiles\":\\[[^\\]]*\\]", "\"tiles\":[1,2,3,4,5,6,7,8]"), "format", "kind \"zero-aware\", but 8 of 8 tiles make an \"exact\" table"),
                new Case("kind zero-aware, 7 of 8 tiles", js -> js.replaceFirst("\"tiles\":\\[[^\\]]*\\]", "\"tiles\":[1,2,3,4,5,6,7]"), "format", "tiles"),
                new Case("ranking_version 0", js -> js.replace("\"ranking_version\":1", "\"ranking_version\":0"), "unsupported", "ranking_version 0"),
                // 8x8, 6 tiles: 5.4e10 placements, refused before any region is labelled
                new Case("8x8 6 tiles", big(8, 6, "68719476736"), "limit", "at least 53981544960 entries"),
                // 7x7, 4 tiles: C(49,4) = 211,876 cell sets labelled, then the entries disagree
                new Case("7x7 4 tiles, entries wrong", big(7, 4, "1000"), "format", "entries 1000, but the zero-aware table of pattern 7x7 blank-last tiles 1,2,3,4 has "));
        for (Case c : cases) {
            long t0 = System.nanoTime();
            String got;
            String msg;
            try {
                TableReader.read(TableReader.bytes(withHeader(file, c.edit())));
                got = "ok";
                msg = "";
            } catch (TilepdbException e) {
                got = e.kind.specName();
                msg = e.getMessage();
            } catch (LimitException e) {
                got = "limit";
                msg = e.getMessage();
            }
            assertEquals(c.cls(), got, c.name() + ": " + msg);
            assertTrue(msg.contains(c.msg()), c.name() + ": " + msg);
            assertTrue(System.nanoTime() - t0 < 20_000_000_000L, c.name() + " took too long");
        }
    }
}
