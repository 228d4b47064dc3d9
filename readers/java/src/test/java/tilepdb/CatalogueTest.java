package tilepdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tilepdb.TestFiles.pos;
import static tilepdb.TestFiles.sets;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Catalogues (SPEC.md section 12, set file version 2): the maximum over
 * partitions of additive sums. Built here from the parts of the set kit's
 * good files (readers/testdata/sets), so that each partition is also a
 * version-1 set file whose value the catalogue takes the maximum of.
 */
class CatalogueTest {
    static final String GOAL = "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0]";

    /** The text of the "parts" array of a kit set file. */
    static String partsOf(String file) throws IOException {
        String s = Files.readString(sets.resolve(file));
        int a = s.indexOf('[', s.indexOf("\"parts\""));
        return s.substring(a, s.lastIndexOf(']') + 1);
    }

    /** Good-a's parts (2,3,4 and 5,9,13 through the table of 2,3,4) with 10,11,15 through their own table: 9 tiles. */
    static String partsA() throws Exception {
        String a = partsOf("good-a.set.json");
        String sha = TableReader.readFile(sets.resolve("4x4_10-11-15.pdb").toString()).header.rawSha256();
        String own = "{\"tiles\":[10,11,15],\"table\":\"4x4_10-11-15.pdb\",\"table_tiles\":[10,11,15],\"symmetry\":\"identity\",\"tile_map\":[10,11,15],\"table_raw_sha256\":\"" + sha + "\"}";
        return a.substring(0, a.lastIndexOf(']')) + "," + own + "]";
    }

    static String catalogue(String... partitions) {
        return "{\"tilepdb_set\":2,\"width\":4,\"height\":4,\"goal\":" + GOAL + ",\"partitions\":[" + String.join(",", partitions) + "]}";
    }

    static String additive(String parts) {
        return "{\"tilepdb_set\":1,\"width\":4,\"height\":4,\"goal\":" + GOAL + ",\"parts\":" + parts + "}";
    }

    /** A folder holding the kit's 4x4 tables. */
    static Path withTables(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(sets)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.getFileName().toString().startsWith("4x4_")) Files.copy(p, dir.resolve(p.getFileName()));
            }
        }
        return dir;
    }

    static String write(Path dir, String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p.toString();
    }

    static int[] randomBoard(Random r) {
        int[] b = new int[16];
        for (int c = 0; c < 16; c++) b[c] = c;
        for (int c = 15; c > 0; c--) {
            int j = r.nextInt(c + 1), t = b[c];
            b[c] = b[j];
            b[j] = t;
        }
        return b;
    }

    @Test
    @DisplayName("the value is the maximum over the partitions of their sums, each partition read as a version-1 set file")
    void maximumOverPartitions(@TempDir Path tmp) throws Exception {
        Path dir = withTables(tmp);
        String a = partsA(), b = partsOf("good-b.set.json"), c = partsOf("good-a.set.json");
        c = c.substring(0, c.indexOf('}') + 1) + "]"; // good-a's first part alone
        TableSet cat = TableReader.openSet(List.of(write(dir, "cat.set.json", catalogue(a, b, c))));
        assertTrue(cat.catalogue(), "catalogue");
        assertEquals(3, cat.partitionCount(), "partitions");
        assertArrayEquals(new int[] {3, 4, 5}, cat.partition(1), "partition 2");
        assertEquals(7, cat.parts.size(), "parts");
        assertEquals(3, cat.tables.size(), "tables, each read once");
        List<TableSet> singles = new ArrayList<>();
        for (String ps : List.of(a, b, c)) singles.add(TableReader.openSet(List.of(write(dir, "p" + singles.size() + ".set.json", additive(ps)))));
        Random r = new Random(7);
        int winsA = 0, winsB = 0;
        for (int i = 0; i < 3000; i++) {
            int[] board = randomBoard(r);
            byte[] p = pos(board);
            int want = 0;
            for (TableSet s : singles) want = Math.max(want, s.heuristic(p));
            assertEquals(want, cat.heuristic(p), java.util.Arrays.toString(board));
            if (cat.parts.get(0).pattern().solvablePositions(p)) assertEquals(want, cat.lookup(board));
            if (singles.get(0).heuristic(p) > singles.get(1).heuristic(p)) winsA++;
            if (singles.get(1).heuristic(p) > singles.get(0).heuristic(p)) winsB++;
        }
        assertTrue(winsA > 100 && winsB > 100, "each of the first two partitions wins on some boards: " + winsA + ", " + winsB);
        TableSet one = TableReader.openSet(List.of(write(dir, "one.set.json", catalogue(b))));
        assertTrue(one.catalogue(), "one partition is still a catalogue");
        for (int i = 0; i < 200; i++) {
            byte[] p = pos(randomBoard(r));
            assertEquals(singles.get(1).heuristic(p), one.heuristic(p));
        }
        assertFalse(singles.get(0).catalogue(), "version 1 is not a catalogue");
    }

    @Test
    @DisplayName("SetFile.open reads each table once, however many partitions use it")
    void tablesReadOnce() throws Exception {
        String a = partsOf("good-a.set.json"), b = partsOf("good-b.set.json");
        List<String> fetched = new ArrayList<>();
        TableSet s = SetFile.open(catalogue(a, b, a, b).getBytes(StandardCharsets.UTF_8), "c.set.json", SetFileTests.kitTables(fetched));
        assertEquals(List.of("4x4_2-3-4.pdb", "4x4_1-2-5.pdb"), fetched, "fetched once each");
        assertEquals(10, s.parts.size(), "parts");
        assertEquals(2, s.tables.size(), "tables");
    }

    static Stream<Arguments> errors() throws IOException {
        String a = partsOf("good-a.set.json"), b = partsOf("good-b.set.json");
        String b0 = b.substring(0, b.indexOf('}') + 1) + "]"; // good-b's first part alone
        String a0 = a.substring(a.indexOf('{'), a.indexOf('}') + 1); // good-a's first part
        return Stream.of(
                Arguments.of(catalogue(a, b).replace("\"tilepdb_set\":2", "\"tilepdb_set\":3"), "set file version 3 is not supported (this reader supports 1 and 2)", 0, 0),
                Arguments.of(catalogue(a, b).replace("\"partitions\"", "\"parts\""), "required key \"partitions\" is missing", 0, 0),
                Arguments.of(catalogue("{}").replace("[{}]", "{}"), "key \"partitions\": want an array of arrays, found object", 0, 0),
                Arguments.of(catalogue(a, "{}"), "partition 2: want an array, found object", 0, 2),
                Arguments.of(catalogue(a, "[" + a0 + ",[]]"), "partition 2 part 2: want an object, found array", 2, 2),
                Arguments.of(catalogue(a, b.replace("\"tile_map\":[5,1,2],\"table_raw_sha256\"", "\"table_raw_sha256\"")), "partition 2 part 2: required key \"tile_map\" is missing", 2, 2),
                Arguments.of(catalogue(), "0 partitions, want 1 to 64", 0, 0),
                Arguments.of(catalogue(java.util.Collections.nCopies(65, b0).toArray(new String[0])), "65 partitions, want 1 to 64", 0, 0),
                Arguments.of(catalogue(a, "[]"), "partition 2: 0 parts, want 1 to 15", 0, 2),
                Arguments.of(catalogue(a, b.replace("rot270", "rot45")), "partition 2 part 2: bad symmetry: \"rot45\" is not one of identity, rot90, rot180, rot270, flip-lr, flip-tb, transpose, anti-transpose", 2, 2),
                Arguments.of(catalogue(a, b.replace("\"tile_map\":[5,1,2],\"table_raw_sha256\"", "\"tile_map\":[1,2,5],\"table_raw_sha256\"")), "partition 2 part 2: tile_map [1 2 5], but rot270 maps tiles [3 4 8] to [5 1 2]", 2, 2));
    }

    @ParameterizedTest(name = "{1}")
    @DisplayName("errors name the partition and the part, in the reading order of SPEC.md section 12")
    @MethodSource("errors")
    void errors(String text, String message, int part, int partition) {
        SetFileException e = assertThrows(SetFileException.class, () -> SetFile.open(text.getBytes(StandardCharsets.UTF_8), "c.set.json", SetFileTests.kitTables(new ArrayList<>())));
        assertEquals("c.set.json: tilepdb: invalid set: " + message, e.getMessage());
        assertEquals(part, e.part, "part");
        assertEquals(partition, e.partition, "partition");
    }

    @Test
    @DisplayName("parts of one partition are disjoint; those of different partitions may share tiles")
    void disjointWithinPartitions() throws Exception {
        String a = partsOf("good-a.set.json"), b = partsOf("good-b.set.json");
        String mixed = b.substring(0, b.lastIndexOf(']')) + "," + a.substring(a.indexOf('{'), a.indexOf('}') + 1) + "]";
        SetFileException e = assertThrows(SetFileException.class, () -> SetFile.open(catalogue(a, mixed).getBytes(StandardCharsets.UTF_8), "c.set.json", SetFileTests.kitTables(new ArrayList<>())));
        assertEquals("tilepdb: invalid set: c.set.json partition 2 part 4 (4x4 blank-last tiles 2,3,4) and c.set.json partition 2 part 1 (4x4 blank-last tiles 1,2,5) are not disjoint: both hold tile(s) 2", e.getMessage());
    }

    @Test
    @DisplayName("a catalogue is given alone or with its own tables; with another table or set file it is refused, as pdbgen does")
    void givenWithOthers(@TempDir Path tmp) throws Exception {
        Path dir = withTables(tmp);
        String a = partsOf("good-a.set.json"), b = partsOf("good-b.set.json");
        String file = write(dir, "cat.set.json", catalogue(a, b));
        TableSet alone = TableReader.openSet(List.of(file));
        TableSet withOwn = TableReader.openSet(List.of(dir.resolve("4x4_2-3-4.pdb").toString(), file, dir.resolve("4x4_1-2-5.pdb").toString()));
        byte[] p = pos(new int[] {12, 1, 3, 4, 2, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 5});
        assertEquals(alone.heuristic(p), withOwn.heuristic(p));
        assertTrue(withOwn.catalogue());
        String extra = dir.resolve("4x4_10-11-15.pdb").toString();
        String head = file + ": tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with ";
        SetFileException e = assertThrows(SetFileException.class, () -> TableReader.openSet(List.of(file, extra)));
        assertEquals(head + extra, e.getMessage());
        String junk = write(dir, "junk.pdb", "not a table"); // refused before it is read as a table
        e = assertThrows(SetFileException.class, () -> TableReader.openSet(List.of(junk, file)));
        assertEquals(head + junk, e.getMessage());
        String other = write(dir, "other.set.json", catalogue(b));
        e = assertThrows(SetFileException.class, () -> TableReader.openSet(List.of(file, other)));
        assertEquals(head + other, e.getMessage());
        String additive = write(dir, "a.set.json", additive(a));
        e = assertThrows(SetFileException.class, () -> TableReader.openSet(List.of(additive, file)));
        assertEquals(head + additive, e.getMessage());
        // the same catalogue twice, as pdbgen refuses it
        e = assertThrows(SetFileException.class, () -> TableReader.openSet(List.of(file, file)));
        assertEquals(head + file, e.getMessage());
    }

    @Test
    @DisplayName("the command line: lookup answers the maximum, verify names the partitions")
    void commandLine(@TempDir Path tmp) throws Exception {
        Path dir = withTables(tmp);
        String file = write(dir, "cat.set.json", catalogue(partsA(), partsOf("good-b.set.json")));
        TableSet set = TableReader.openSet(List.of(file));
        Random r = new Random(11);
        StringBuilder in = new StringBuilder(), want = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            int[] b = randomBoard(r);
            String line = java.util.Arrays.stream(b).mapToObj(Integer::toString).reduce((x, y) -> x + " " + y).orElseThrow();
            in.append(line).append('\n');
            byte[] p = pos(b);
            want.append(line).append('\t').append(set.parts.get(0).pattern().solvablePositions(p) ? Integer.toString(set.heuristic(p)) : "unsolvable").append('\n');
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Cli.run(new String[] {"lookup", file}, new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)), out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertEquals(want.toString(), out.toString(StandardCharsets.UTF_8));
        out.reset();
        code = Cli.run(new String[] {"verify", file}, new ByteArrayInputStream(new byte[0]), out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertEquals(file + ": ok (catalogue, 4x4 board, 2 partitions of 6 parts through 3 tables)\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("SPEC.md 12.2 catalogue vectors: part values, partition sums and h")
    void catalogueVectors() throws Exception {
        Path file = TestFiles.root.resolve("format/testdata/catalogue_vectors.tsv");
        assertEquals(TestFiles.specBlock("catalogue-vectors"), Files.readString(file));
        int[] goal = TestFiles.goalFor("blank-last", 16);
        java.util.Map<String, Table> tables = new java.util.HashMap<>();
        List<TableSet.Part> parts = new ArrayList<>();
        List<int[]> partitions = new ArrayList<>();
        java.util.regex.Pattern line = java.util.regex.Pattern.compile("^# partition (\\d+): (.*)$");
        java.util.regex.Pattern desc = java.util.regex.Pattern.compile("^([\\d,]+) by ([a-z0-9-]+) of (\\S+)$");
        for (String l : Files.readAllLines(file)) {
            java.util.regex.Matcher m = line.matcher(l);
            if (!m.matches()) continue;
            assertEquals(partitions.size() + 1, Integer.parseInt(m.group(1)), "partition number");
            List<Integer> idx = new ArrayList<>();
            for (String d : m.group(2).split("; ")) {
                java.util.regex.Matcher dm = desc.matcher(d);
                assertTrue(dm.matches(), d);
                Table t = tables.get(dm.group(3));
                if (t == null) {
                    t = TableReader.readFile(sets.resolve(dm.group(3) + ".pdb").toString());
                    tables.put(dm.group(3), t);
                }
                Pattern from = new Pattern(4, 4, goal, TestFiles.ints(dm.group(1), ","));
                String sym = dm.group(2);
                boolean own = sym.equals("identity") && java.util.Arrays.equals(from.tiles, t.pattern.tiles);
                idx.add(parts.size());
                parts.add(new TableSet.Part(from, t, sym, own ? null : SetFile.map(from, t.pattern, sym)));
            }
            partitions.add(idx.stream().mapToInt(Integer::intValue).toArray());
        }
        assertEquals(3, partitions.size(), "partitions");
        TableSet set = TableSet.ofParts(parts, null, false, partitions.toArray(new int[0][]));
        List<String[]> rows = TestFiles.tsv(file);
        assertTrue(rows.size() >= 10, rows.size() + " vectors");
        for (String[] r : rows) {
            int[] board = TestFiles.ints(r[0], " ");
            byte[] p = pos(board);
            for (int k = 0; k < partitions.size(); k++) {
                String[] col = r[k + 1].split(" = ");
                int[] want = TestFiles.ints(col[0], "\\+");
                int[] idx = partitions.get(k);
                int sum = 0;
                for (int j = 0; j < idx.length; j++) {
                    int v = TableSet.ofParts(List.of(parts.get(idx[j])), null, false).heuristic(p);
                    assertEquals(want[j], v, r[0] + ": partition " + (k + 1) + " part " + (j + 1));
                    sum += v;
                }
                assertEquals(Integer.parseInt(col[1]), sum, r[0] + ": partition " + (k + 1) + " sum");
            }
            int h = Integer.parseInt(r[r.length - 1]);
            assertEquals(h, set.heuristic(p), r[0]);
            assertEquals(h, set.lookup(board), r[0]);
        }
    }
}
