package tilepdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tilepdb.TestFiles.goalFor;
import static tilepdb.TestFiles.ints;
import static tilepdb.TestFiles.kit;
import static tilepdb.TestFiles.perms;
import static tilepdb.TestFiles.pos;
import static tilepdb.TestFiles.root;
import static tilepdb.TestFiles.sets;
import static tilepdb.TestFiles.specBlock;
import static tilepdb.TestFiles.tsv;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Set files (SPEC.md section 10): the set-lookup vectors of section 10.4,
 * the set kit (readers/testdata/sets: good files and one broken MUST each,
 * with pdbgen's messages), symmetric lookups against tables built for the
 * part's own tiles on every placement, and {@link SetFile#open}.
 */
class SetFileTests {
    @Test
    @DisplayName("set_vectors.tsv is the block of SPEC.md section 10.4")
    void setVectorsFileIsTheSpecBlock() throws Exception {
        assertEquals(specBlock("set-vectors"), Files.readString(root.resolve("format/testdata/set_vectors.tsv")));
    }

    @Test
    @DisplayName("SPEC.md 10.4 set vectors: relabelling, transformed cells, rank and value")
    void setVectors() throws Exception {
        List<String[]> rows = tsv(root.resolve("format/testdata/set_vectors.tsv"));
        assertTrue(rows.size() >= 36, rows.size() + " vectors");
        Table t234 = TableReader.readFile(kit.resolve("good-multiframe.pdb").toString()); // 15-663_2-3-4, re-framed
        int values = 0;
        for (String[] r : rows) {
            String what = String.join(" ", r);
            int[] wh = ints(r[0], "x");
            int[] goal = goalFor(r[1], wh[0] * wh[1]);
            Pattern from = new Pattern(wh[0], wh[1], goal, ints(r[2], ","));
            Pattern to = new Pattern(wh[0], wh[1], goal, ints(r[4], ","));
            SetFile.Mapping m = SetFile.map(from, to, r[3]);
            int[] tileMap = new int[from.tiles.length];
            for (int j = 0; j < tileMap.length; j++) tileMap[j] = m.tile()[from.tiles[j]];
            assertEquals(Arrays.toString(ints(r[5], ",")), Arrays.toString(tileMap), "tile_map of " + what);
            byte[] p = pos(ints(r[6], " "));
            byte[] cells = new byte[m.src().length];
            int[] got = new int[cells.length];
            for (int j = 0; j < cells.length; j++) got[j] = cells[j] = m.cell()[p[m.src()[j]]];
            assertEquals(Arrays.toString(ints(r[7], ",")), Arrays.toString(got), "cells of " + what);
            assertEquals(Long.parseLong(r[8]), to.rankCells(cells, cells.length), "rank of " + what);
            if (!r[9].equals("-")) {
                assertEquals("15-663_2-3-4", r[9], "table named");
                boolean own = r[3].equals("identity") && r[2].equals(r[4]);
                TableSet s = TableSet.ofParts(List.of(new TableSet.Part(from, t234, r[3], own ? null : m)), List.of("part 1"), true);
                assertEquals(Integer.parseInt(r[10]), s.heuristic(p), "value of " + what);
                values++;
            }
        }
        assertTrue(values >= 8, values + " values checked");
    }

    static Stream<Arguments> boards() {
        return Stream.of(Arguments.of(3, 2), Arguments.of(2, 3), Arguments.of(4, 4), Arguments.of(5, 5), Arguments.of(4, 3));
    }

    @ParameterizedTest(name = "{0}x{1}")
    @DisplayName("symmetries are bijections that keep cells adjacent")
    @MethodSource("boards")
    void symmetriesKeepCellsAdjacent(int w, int h) {
        for (String s : SetFile.SYMMETRIES) {
            if (!SetFile.validOn(s, w, h)) continue;
            boolean[] seen = new boolean[w * h];
            for (int c = 0; c < w * h; c++) {
                int i = SetFile.cell(s, w, h, c);
                assertFalse(seen[i], s + " is a bijection");
                seen[i] = true;
                for (int d : new int[] {c % w < w - 1 ? c + 1 : -1, c + w < w * h ? c + w : -1}) {
                    if (d < 0) continue;
                    int a = SetFile.cell(s, w, h, c), e = SetFile.cell(s, w, h, d);
                    assertEquals(1, Math.abs(a / w - e / w) + Math.abs(a % w - e % w), s + " keeps " + c + "," + d + " adjacent");
                }
            }
        }
    }

    @Test
    @DisplayName("symmetries: SPEC.md's named moves; transposes only on square boards")
    void namedSymmetries() {
        assertFalse(SetFile.validOn("transpose", 3, 2), "transpose on 3x2");
        assertTrue(SetFile.validOn("flip-lr", 3, 2), "flip-lr on 3x2");
        assertEquals(3, SetFile.cell("rot90", 4, 4, 0), "rot90 takes cell 0 to W-1");
        assertEquals(4, SetFile.cell("transpose", 4, 4, 1), "transpose");
        assertEquals(15, SetFile.cell("anti-transpose", 4, 4, 0), "anti-transpose");
    }

    static Stream<Arguments> setKit() throws IOException {
        List<String[]> rows = tsv(sets.resolve("index.tsv"));
        assertTrue(rows.size() >= 40, rows.size() + " files");
        return rows.stream().map(r -> Arguments.of(r[0], r[1], r[2], r[3], r[4], r[5]));
    }

    @ParameterizedTest(name = "{0}: {5}")
    @DisplayName("set kit: every set file is accepted or refused as index.tsv says, with pdbgen's message")
    @MethodSource("setKit")
    void setKit(String name, String want, String status, String compare, String message, String why) throws Exception {
        String file = sets.resolve(name).toString();
        Exception err = null;
        TableSet s = null;
        try {
            s = TableReader.openSet(List.of(file));
        } catch (Exception e) {
            err = e;
        }
        if (want.equals("ok")) {
            assertEquals(null, err, "error");
            assertTrue(s.parts.size() >= 1, "parts");
            return;
        }
        assertNotNull(err, "accepted, want an error (" + why + ")");
        int exit = err instanceof TilepdbException ? 1 : 2;
        assertEquals(status, Integer.toString(exit), "exit for " + err);
        String m = err instanceof java.io.FileNotFoundException f ? Cli.systemMessage(f) : err.getMessage();
        assertTrue(m.contains(file), "the error names the set file: " + m);
        if (!compare.equals("status")) assertEquals(message.replace("{dir}", sets.toString()), m, why);
        if (err instanceof SetFileException se && se.file != null) assertEquals(file, se.file, ".file");
    }

    @Test
    @DisplayName("set kit: most refusals are compared by their whole message")
    void setKitComparesMessages() throws Exception {
        long exact = tsv(sets.resolve("index.tsv")).stream().filter(r -> !r[1].equals("ok") && !r[3].equals("status")).count();
        assertTrue(exact >= 30, exact + " messages compared exactly");
    }

    static final String DEEP_TAIL = ": tilepdb: invalid set: not a set file: JSON nested deeper than 64 levels at byte 68";

    static String deepSetFile() throws IOException {
        String good = Files.readString(sets.resolve("good-a.set.json"));
        String deep = good.replaceFirst("\\{", "{\"x\":" + "[".repeat(200000) + "]".repeat(200000) + ",");
        assertTrue(deep.length() < SetFile.MAX_LEN, "under 1 MiB");
        return deep;
    }

    @Test
    @DisplayName("a set file nested 200,000 deep is refused with one line: bytes")
    void deepNestingBytes() throws Exception {
        String deep = deepSetFile();
        SetFileException e = assertThrows(SetFileException.class,
                () -> SetFile.open(deep.getBytes(StandardCharsets.UTF_8), "deep.set.json", (n, w) -> null));
        assertEquals("deep.set.json" + DEEP_TAIL, e.getMessage(), "bytes");
    }

    @Test
    @DisplayName("a set file nested 200,000 deep is refused with one line: file")
    void deepNestingFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("deep.set.json");
        Files.writeString(f, deepSetFile());
        SetFileException e = assertThrows(SetFileException.class, () -> TableReader.openSetFile(f.toString()));
        assertEquals(f + DEEP_TAIL, e.getMessage(), "file");
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("a set file nested 200,000 deep is refused with one line: command line")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"lookup", "verify"})
    void deepNestingCli(String cmd, @TempDir Path dir) throws Exception {
        Path f = dir.resolve("deep.set.json");
        Files.writeString(f, deepSetFile());
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = Cli.run(new String[] {cmd, f.toString()}, new java.io.ByteArrayInputStream(new byte[0]),
                new java.io.ByteArrayOutputStream(), new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, code, cmd + " exit");
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains(f + DEEP_TAIL + "\n") && !e.contains("StackOverflowError") && e.lines().count() <= 2, cmd + ": " + e);
    }

    @Test
    @DisplayName("a set file nested 200,000 deep is refused with one line: the command line in its own JVM, default stack")
    void deepNestingChildProcess(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("deep.set.json");
        Files.writeString(f, deepSetFile());
        Process pr = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "tilepdb.Cli", "lookup", f.toString()).start();
        pr.getOutputStream().close();
        String out = new String(pr.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, pr.waitFor(), "child exit");
        assertEquals("tilepdb-java lookup: " + f + DEEP_TAIL + "\n", out, "child stderr");
    }

    static final String GOOD_SET = "{\"tilepdb_set\":1,\"width\":4,\"height\":4,\"goal\":[1],\"parts\":[{\"tiles\":[1],\"table\":\"t\",\"table_tiles\":[1],\"symmetry\":\"identity\",\"tile_map\":[1],\"table_raw_sha256\":\"x\"}]}";

    @Test
    @DisplayName("SetFile.parse ignores unknown keys, whatever their case, and accepts -0")
    void parseIgnoresUnknownKeys() throws Exception {
        assertEquals(4L, SetFile.parse(GOOD_SET.replaceFirst("\\{", "{\"x\":[1,{\"y\":-0}],\"WIDTH\":5,").getBytes(StandardCharsets.UTF_8)).width, "unknown keys ignored");
    }

    static Stream<Arguments> parseErrors() {
        String good = GOOD_SET;
        String[][] cases = {
            {"{}", "required key \"tilepdb_set\" is missing", "0"},
            {"{\"tilepdb_set\":3,\"width\":\"x\"}", "set file version 3 is not supported (this reader supports 1 and 2)", "0"},
            {"{\"tilepdb_set\":0}", "set file version 0 is not supported (this reader supports 1 and 2)", "0"},
            {good.replace("\"tilepdb_set\":1", "\"tilepdb_set\":2"), "required key \"partitions\" is missing", "0"},
            {"{\"tilepdb_set\":1.0}", "key \"tilepdb_set\": 1.0 is not an integer", "0"},
            {good.replace("\"width\":4", "\"width\":null"), "key \"width\" is null", "0"},
            {good.replace("\"width\":4", "\"Width\":4"), "required key \"width\" is missing", "0"},
            {good.replace("\"width\":4", "\"width\":99999999999999999999"), "key \"width\": 99999999999999999999 is out of range", "0"},
            {good.replace("\"goal\":[1]", "\"goal\":[true]"), "key \"goal\"[0]: want an integer, found bool", "0"},
            {good.replace("\"width\":4", "\"width\":4,\"width\":4"), "not a set file: duplicate key \"width\" at byte 35", "0"},
            {good.replace("\"table\":\"t\"", "\"table\":\"t\",\"table\":\"t\""), "not a set file: duplicate key \"table\" at byte 91", "0"},
            {good.replace("\"table\":\"t\"", "\"table\":\"\\ud800\""), "not a set file: lone surrogate in \\u escape at byte 80", "0"},
            {good.replace("\"parts\":[", "\"parts\":[[],"), "part 1: want an object, found array", "1"},
            {good.replace("\"tiles\":[1],", ""), "part 1: required key \"tiles\" is missing", "1"},
            {good.replace("\"symmetry\":\"identity\"", "\"symmetry\":7"), "part 1: key \"symmetry\": want a string, found number", "1"},
            {"\ufeff" + good, "not a set file: starts with a byte-order mark", "0"},
            {"[1]", "not a set file: want a JSON object, found array", "0"},
        };
        return Arrays.stream(cases).map(c -> Arguments.of(c[1], c[0], Integer.parseInt(c[2])));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("SetFile.parse: the JSON rules and required keys of SPEC.md section 10, in Go's order and words")
    @MethodSource("parseErrors")
    void parseError(String want, String json, int part) {
        SetFile.Problem e = assertThrows(SetFile.Problem.class, () -> SetFile.parse(json.getBytes(StandardCharsets.UTF_8)), json);
        assertEquals(want, e.getMessage(), json);
        assertEquals(part, e.part, json + " part");
    }

    @Test
    @DisplayName("SetFile.parse refuses invalid UTF-8")
    void parseBadUtf8() {
        SetFile.Problem e = assertThrows(SetFile.Problem.class,
                () -> SetFile.parse(new byte[] {0x7b, 0x22, (byte) 0xff, 0x22, 0x3a, 0x31, 0x7d}));
        assertEquals("not a set file: not valid UTF-8", e.getMessage(), "UTF-8");
    }

    @Test
    @DisplayName("Json.quoteName: Go's %+q (strconv.QuoteToASCII)")
    void quoteName() {
        // Expected strings from Go: fmt.Printf("%+q", ...)
        assertEquals("\"plain.pdb\"", Json.quoteName("plain.pdb"), "plain");
        assertEquals("\"a\\x00b\\a\\b\\f\\n\\r\\t\\v\\x1b\\x7f\\\"\\\\\"", Json.quoteName("a\u0000b\u0007\b\f\n\r\t\u000b\u001b\u007f\"\\"), "controls");
        assertEquals("\"\\u0085\\u00e9\\u202e\\U0001f600\"", Json.quoteName("\u0085\u00e9\u202e\ud83d\ude00"), "non-ASCII");
    }

    @Test
    @DisplayName("set kit: a set file over 1 MiB is refused before parsing; exactly 1 MiB is read")
    void sizeLimit(@TempDir Path dir) throws Exception {
        String good = Files.readString(sets.resolve("good-a.set.json"));
        Path f = dir.resolve("big.set.json");
        Files.writeString(f, good + " ".repeat(SetFile.MAX_LEN + 1 - good.length()));
        SetFileException e = assertThrows(SetFileException.class, () -> TableReader.openSet(List.of(f.toString())));
        assertEquals(f + ": tilepdb: invalid set: larger than 1048576 bytes", e.getMessage());
        Files.writeString(f, good + " ".repeat(SetFile.MAX_LEN - good.length()));
        Files.copy(sets.resolve("4x4_2-3-4.pdb"), dir.resolve("4x4_2-3-4.pdb"));
        assertEquals(2, TableReader.openSetFile(f.toString()).parts.size(), "parts of the 1 MiB file");
    }

    static Stream<Arguments> ownTables() {
        return Stream.of(
                Arguments.of("good-a.set.json", 2, "4x4_5-9-13.pdb"),
                Arguments.of("good-b.set.json", 2, "4x4_3-4-8.pdb"),
                Arguments.of("good-b.set.json", 3, "4x4_9-13-14.pdb"),
                Arguments.of("good-3x2.set.json", 2, "3x2_3.pdb"),
                Arguments.of("good-blank-first.set.json", 2, "4x4-bf_4-8-12.pdb"));
    }

    @ParameterizedTest(name = "{0} part {1} = {2}")
    @DisplayName("set kit: a symmetric part equals the table built for its own tiles, on every placement")
    @MethodSource("ownTables")
    void symmetricPartEqualsItsOwnTable(String setFile, int partNo, String table) throws Exception {
        TableSet s = TableReader.openSet(List.of(sets.resolve(setFile).toString()));
        TableSet.Part part = s.parts.get(partNo - 1);
        assertNotNull(part.mapping(), "the part is symmetric");
        Table ownTable = TableReader.readFile(sets.resolve(table).toString());
        assertTrue(Arrays.equals(ownTable.pattern.tiles, part.pattern().tiles), "same tiles");
        TableSet one = TableSet.ofParts(List.of(part), List.of("part"), true);
        byte[] tiles = part.pattern().tiles;
        int n = s.n;
        int[] checked = {0};
        perms(n, tiles.length, new int[tiles.length], 0, 0, cells -> {
            byte[] p = new byte[n];
            boolean[] used = new boolean[n];
            for (int j = 0; j < tiles.length; j++) {
                p[tiles[j]] = (byte) cells[j];
                used[cells[j]] = true;
            }
            int c = 0;
            for (int t = 0; t < n; t++) {
                boolean inPattern = false;
                for (byte x : tiles) inPattern |= x == t;
                if (inPattern) continue;
                while (used[c]) c++;
                p[t] = (byte) c++;
            }
            assertEquals(ownTable.value(p), one.heuristic(p), "at " + Arrays.toString(cells));
            checked[0]++;
        });
        long placements = 1;
        for (int i = 0; i < tiles.length; i++) placements *= n - i;
        assertEquals(placements, checked[0], "placements checked");
    }

    @Test
    @DisplayName("set file lookups: a sum over the parts, UnsolvableException for the other parity class")
    void setFileLookups() throws Exception {
        TableSet s = TableReader.openSet(List.of(sets.resolve("good-a.set.json").toString()));
        TableSet plain = TableReader.openSet(List.of(sets.resolve("4x4_2-3-4.pdb").toString(), sets.resolve("4x4_5-9-13.pdb").toString()));
        int[] goal = goalFor("blank-last", 16);
        assertEquals(0, s.lookup(goal), "goal");
        Random rnd = new Random(7);
        int unsolvable = 0;
        for (int i = 0; i < 2000; i++) {
            int[] b = goal.clone();
            for (int j = b.length - 1; j > 0; j--) {
                int k = rnd.nextInt(j + 1);
                int x = b[j]; b[j] = b[k]; b[k] = x;
            }
            try {
                assertEquals(plain.lookup(b), s.lookup(b), Arrays.toString(b));
            } catch (UnsolvableException e) {
                unsolvable++;
            }
        }
        assertTrue(unsolvable > 500 && unsolvable < 1500, unsolvable + " unsolvable");
    }

    @Test
    @DisplayName("openSet: a set file with its tables given directly, and an extra table")
    void openSetWithTablesGivenDirectly() throws Exception {
        String sf = sets.resolve("good-a.set.json").toString(), t = sets.resolve("4x4_2-3-4.pdb").toString();
        TableSet a = TableReader.openSet(List.of(t, sf));
        assertEquals(2, a.parts.size(), "parts");
        assertEquals(1, a.tables.size(), "tables");
        assertEquals(3, TableReader.openSet(List.of(sf, sets.resolve("4x4_10-11-15.pdb").toString())).parts.size(), "extra table");
    }

    @Test
    @DisplayName("openSet: a table overlapping a set file's part is bad data, naming both")
    void openSetOverlapWithSetFile() {
        String sf = sets.resolve("good-a.set.json").toString(), over = sets.resolve("4x4_4-8-12.pdb").toString();
        SetFileException e = assertThrows(SetFileException.class, () -> TableReader.openSet(List.of(sf, over)));
        assertEquals("tilepdb: invalid set: " + over + " (4x4 blank-last tiles 4,8,12) and " + sf + " part 1 (4x4 blank-last tiles 2,3,4) are not disjoint: both hold tile(s) 4", e.getMessage());
    }

    @Test
    @DisplayName("openSet: overlapping tables without a set file are a SetException")
    void openSetOverlapOfTables() {
        String t = sets.resolve("4x4_2-3-4.pdb").toString(), over = sets.resolve("4x4_4-8-12.pdb").toString();
        TableSet.SetException e = assertThrows(TableSet.SetException.class, () -> TableReader.openSet(List.of(t, over)));
        assertTrue(e.getMessage().startsWith("tilepdb: ") && e.getMessage().contains("not disjoint"), e.getMessage());
    }

    /** Tables of the set kit by name, each fetch recorded. */
    static SetFile.Tables kitTables(List<String> fetched) {
        return (name, where) -> {
            fetched.add(name);
            return TableReader.read(TableReader.bytes(Files.readAllBytes(sets.resolve(name))));
        };
    }

    @Test
    @DisplayName("SetFile.open: bytes and tables by name, each read once, the same values as from the file")
    void openBytes() throws Exception {
        byte[] json = Files.readAllBytes(sets.resolve("good-b.set.json"));
        List<String> fetched = new ArrayList<>();
        TableSet s = SetFile.open(json, "sets/good-b.set.json", kitTables(fetched));
        assertEquals(List.of("4x4_1-2-5.pdb"), fetched, "fetched once");
        TableSet viaFile = TableReader.openSet(List.of(sets.resolve("good-b.set.json").toString()));
        byte[] p = pos(new int[] {12, 1, 3, 4, 2, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 5});
        assertEquals(viaFile.heuristic(p), s.heuristic(p), "same values");
        assertTrue(s.heuristic(p) > 0, "non-zero");
    }

    @Test
    @DisplayName("SetFile.open: a bad part is named with its number")
    void openBytesBadPart() throws Exception {
        byte[] json = Files.readAllBytes(sets.resolve("bad-tile-map.set.json"));
        SetFileException e = assertThrows(SetFileException.class, () -> SetFile.open(json, "x.set.json", kitTables(new ArrayList<>())));
        assertEquals(2, e.part, "part");
        assertEquals("x.set.json: tilepdb: invalid set: part 2: tile_map [2 4 3], but transpose maps tiles [5 9 13] to [2 3 4]", e.getMessage());
    }

    @Test
    @DisplayName("SetFile.open: a corrupt table keeps its class, named by set file, part and table")
    void openBytesCorruptTable() throws Exception {
        byte[] json = Files.readAllBytes(sets.resolve("bad-table-corrupt.set.json"));
        TilepdbException e = assertThrows(TilepdbException.class, () -> SetFile.open(json, "y.set.json", kitTables(new ArrayList<>())));
        assertEquals("checksum", e.kind.specName(), "class");
        assertTrue(e.getMessage().startsWith("y.set.json: part 2: corrupt_2-3-4.pdb: tilepdb: payload_sha256 mismatch"), e.getMessage());
    }

    @Test
    @DisplayName("SetFile.open: an unknown set file version is refused")
    void openBytesUnknownVersion() {
        byte[] json = "{\"tilepdb_set\": 3}".getBytes(StandardCharsets.UTF_8);
        SetFileException e = assertThrows(SetFileException.class, () -> SetFile.open(json, "z", kitTables(new ArrayList<>())));
        assertEquals("z: tilepdb: invalid set: set file version 3 is not supported (this reader supports 1 and 2)", e.getMessage());
    }

    @Test
    @DisplayName("fuzz: set files with random edits never crash the reader")
    void fuzz() throws Exception {
        byte[] base = Files.readAllBytes(sets.resolve("good-b.set.json"));
        Random rnd = new Random(1);
        String alphabet = "{}[]\",:0123456789-. \nabcdefghijklmnopqrstuvwxyz_";
        SetFile.Tables tables = (name, where) -> {
            Path p = sets.resolve(name);
            if (!Files.isRegularFile(p)) throw new IOException("no table " + name);
            return TableReader.read(TableReader.bytes(Files.readAllBytes(p)));
        };
        int accepted = 0;
        for (int i = 0; i < 1500; i++) {
            byte[] b = base.clone();
            int edits = 1 + rnd.nextInt(3);
            for (int k = 0; k < edits; k++) b[rnd.nextInt(b.length)] = (byte) alphabet.charAt(rnd.nextInt(alphabet.length()));
            try {
                SetFile.open(b, "f.set.json", tables);
                accepted++;
            } catch (TilepdbException e) {
                assertTrue(e.getMessage().contains("f.set.json"), e.getMessage());
            } catch (IOException e) {
                assertTrue(e.getMessage().startsWith("no table"), e.getMessage());
            }
        }
        assertTrue(accepted < 1500, accepted + " accepted");
    }
}
