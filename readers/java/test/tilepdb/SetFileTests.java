package tilepdb;

import static tilepdb.ReaderTests.check;
import static tilepdb.ReaderTests.eq;
import static tilepdb.ReaderTests.goalFor;
import static tilepdb.ReaderTests.ints;
import static tilepdb.ReaderTests.kit;
import static tilepdb.ReaderTests.perms;
import static tilepdb.ReaderTests.pos;
import static tilepdb.ReaderTests.root;
import static tilepdb.ReaderTests.specBlock;
import static tilepdb.ReaderTests.test;
import static tilepdb.ReaderTests.tsv;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Set files (SPEC.md section 10): the set-lookup vectors of section 10.4,
 * the set kit (readers/testdata/sets: good files and one broken MUST each,
 * with pdbgen's messages), symmetric lookups against tables built for the
 * part's own tiles on every placement, and {@link SetFile#open}. Run by
 * ReaderTests.
 */
final class SetFileTests {
    private SetFileTests() {}

    static final Path sets = root.resolve("readers/testdata/sets");

    static void all() {
        test("set_vectors.tsv is the block of SPEC.md section 10.4", () ->
                eq(specBlock("set-vectors"), Files.readString(root.resolve("format/testdata/set_vectors.tsv")), "block"));

        test("SPEC.md 10.4 set vectors: relabelling, transformed cells, rank and value", () -> {
            List<String[]> rows = tsv(root.resolve("format/testdata/set_vectors.tsv"));
            check(rows.size() >= 36, rows.size() + " vectors");
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
                eq(Arrays.toString(ints(r[5], ",")), Arrays.toString(tileMap), "tile_map of " + what);
                byte[] p = pos(ints(r[6], " "));
                byte[] cells = new byte[m.src().length];
                int[] got = new int[cells.length];
                for (int j = 0; j < cells.length; j++) got[j] = cells[j] = m.cell()[p[m.src()[j]]];
                eq(Arrays.toString(ints(r[7], ",")), Arrays.toString(got), "cells of " + what);
                eq(r[8], to.rankCells(cells, cells.length), "rank of " + what);
                if (!r[9].equals("-")) {
                    eq("15-663_2-3-4", r[9], "table named");
                    boolean own = r[3].equals("identity") && r[2].equals(r[4]);
                    TableSet s = TableSet.ofParts(List.of(new TableSet.Part(from, t234, r[3], own ? null : m)), List.of("part 1"), true);
                    eq(r[10], s.heuristic(p), "value of " + what);
                    values++;
                }
            }
            check(values >= 8, values + " values checked");
        });

        test("symmetries: bijections that keep cells adjacent; SPEC.md's named moves", () -> {
            int[][] boards = {{3, 2}, {2, 3}, {4, 4}, {5, 5}, {4, 3}};
            for (int[] b : boards) {
                int w = b[0], h = b[1];
                for (String s : SetFile.SYMMETRIES) {
                    if (!SetFile.validOn(s, w, h)) continue;
                    boolean[] seen = new boolean[w * h];
                    for (int c = 0; c < w * h; c++) {
                        int i = SetFile.cell(s, w, h, c);
                        check(!seen[i], s + " on " + w + "x" + h + " is a bijection");
                        seen[i] = true;
                        for (int d : new int[] {c % w < w - 1 ? c + 1 : -1, c + w < w * h ? c + w : -1}) {
                            if (d < 0) continue;
                            int a = SetFile.cell(s, w, h, c), e = SetFile.cell(s, w, h, d);
                            eq(1, Math.abs(a / w - e / w) + Math.abs(a % w - e % w), s + " keeps " + c + "," + d + " adjacent on " + w + "x" + h);
                        }
                    }
                }
            }
            check(!SetFile.validOn("transpose", 3, 2) && SetFile.validOn("flip-lr", 3, 2), "square-only symmetries");
            eq(3, SetFile.cell("rot90", 4, 4, 0), "rot90 takes cell 0 to W-1");
            eq(4, SetFile.cell("transpose", 4, 4, 1), "transpose");
            eq(15, SetFile.cell("anti-transpose", 4, 4, 0), "anti-transpose");
        });

        test("set kit: every set file is accepted or refused as index.tsv says, with pdbgen's message", () -> {
            List<String[]> rows = tsv(sets.resolve("index.tsv"));
            check(rows.size() >= 40, rows.size() + " files");
            int exact = 0;
            for (String[] r : rows) {
                String file = sets.resolve(r[0]).toString();
                String msg = r[4].replace("{dir}", sets.toString());
                Exception err = null;
                TableSet s = null;
                try {
                    s = TableReader.openSet(List.of(file));
                } catch (Exception e) {
                    err = e;
                }
                if (r[1].equals("ok")) {
                    check(err == null, r[0] + ": " + err);
                    check(s.parts.size() >= 1, r[0] + " parts");
                    continue;
                }
                check(err != null, r[0] + " accepted, want an error (" + r[5] + ")");
                int exit = err instanceof TilepdbException ? 1 : 2;
                eq(r[2], exit, r[0] + ": exit for " + err);
                String m = err instanceof java.io.FileNotFoundException f ? Cli.systemMessage(f) : err.getMessage();
                check(m.contains(file), r[0] + ": the error names the set file: " + m);
                if (!r[3].equals("status")) {
                    eq(msg, m, r[0] + " (" + r[5] + ")");
                    exact++;
                }
                if (err instanceof SetFileException se && se.file != null) eq(file, se.file, r[0] + " .file");
            }
            check(exact >= 30, exact + " messages compared exactly");
        });

        test("a set file nested 200,000 deep is refused with one line on every path: bytes, file, command line, child process", () -> {
            String good = Files.readString(sets.resolve("good-a.set.json"));
            String deep = good.replaceFirst("\\{", "{\"x\":" + "[".repeat(200000) + "]".repeat(200000) + ",");
            check(deep.length() < SetFile.MAX_LEN, "under 1 MiB");
            String tail = ": tilepdb: invalid set: not a set file: JSON nested deeper than 64 levels at byte 68";
            try {
                SetFile.open(deep.getBytes(StandardCharsets.UTF_8), "deep.set.json", (n, w) -> null);
                check(false, "accepted");
            } catch (SetFileException e) {
                eq("deep.set.json" + tail, e.getMessage(), "bytes");
            }
            Path dir = Files.createTempDirectory("sets-");
            Path f = dir.resolve("deep.set.json");
            try {
                Files.writeString(f, deep);
                try {
                    TableReader.openSetFile(f.toString());
                    check(false, "accepted");
                } catch (SetFileException e) {
                    eq(f + tail, e.getMessage(), "file");
                }
                for (String cmd : new String[] {"lookup", "verify"}) {
                    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
                    int code = Cli.run(new String[] {cmd, f.toString()}, new java.io.ByteArrayInputStream(new byte[0]), new java.io.ByteArrayOutputStream(), new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
                    eq(1, code, cmd + " exit");
                    String e = err.toString(StandardCharsets.UTF_8);
                    check(e.contains(f + tail + "\n") && !e.contains("StackOverflowError") && e.lines().count() <= 2, cmd + ": " + e);
                }
                // the command line as users run it: its own JVM, default stack
                Process pr = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"), "tilepdb.Cli", "lookup", f.toString())
                        .start();
                pr.getOutputStream().close();
                String out = new String(pr.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                eq(1, pr.waitFor(), "child exit");
                eq("tilepdb-java lookup: " + f + tail + "\n", out, "child stderr");
            } finally {
                Files.deleteIfExists(f);
                Files.delete(dir);
            }
        });

        test("SetFile.parse: the JSON rules and required keys of SPEC.md section 10, in Go's order and words", () -> {
            String good = "{\"tilepdb_set\":1,\"width\":4,\"height\":4,\"goal\":[1],\"parts\":[{\"tiles\":[1],\"table\":\"t\",\"table_tiles\":[1],\"symmetry\":\"identity\",\"tile_map\":[1],\"table_raw_sha256\":\"x\"}]}";
            eq(4L, SetFile.parse(good.replaceFirst("\\{", "{\"x\":[1,{\"y\":-0}],\"WIDTH\":5,").getBytes(StandardCharsets.UTF_8)).width, "unknown keys ignored");
            String[][] cases = {
                {"{}", "required key \"tilepdb_set\" is missing", "0"},
                {"{\"tilepdb_set\":2,\"width\":\"x\"}", "set file version 2 is not supported (this reader supports 1)", "0"},
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
            for (String[] c : cases) {
                try {
                    SetFile.parse(c[0].getBytes(StandardCharsets.UTF_8));
                    check(false, c[0] + " accepted");
                } catch (SetFile.Problem e) {
                    eq(c[1], e.getMessage(), c[0]);
                    eq(c[2], e.part, c[0] + " part");
                }
            }
            try {
                SetFile.parse(new byte[] {0x7b, 0x22, (byte) 0xff, 0x22, 0x3a, 0x31, 0x7d});
                check(false, "bad UTF-8 accepted");
            } catch (SetFile.Problem e) {
                eq("not a set file: not valid UTF-8", e.getMessage(), "UTF-8");
            }
        });

        test("Json.quoteName: Go's %+q (strconv.QuoteToASCII)", () -> {
            // Expected strings from Go: fmt.Printf("%+q", ...)
            eq("\"plain.pdb\"", Json.quoteName("plain.pdb"), "plain");
            eq("\"a\\x00b\\a\\b\\f\\n\\r\\t\\v\\x1b\\x7f\\\"\\\\\"", Json.quoteName("a\u0000b\u0007\b\f\n\r\t\u000b\u001b\u007f\"\\"), "controls");
            eq("\"\\u0085\\u00e9\\u202e\\U0001f600\"", Json.quoteName("\u0085\u00e9\u202e\ud83d\ude00"), "non-ASCII");
        });

        test("set kit: a set file over 1 MiB is refused before parsing", () -> {
            Path dir = Files.createTempDirectory("sets-");
            try {
                String good = Files.readString(sets.resolve("good-a.set.json"));
                Path f = dir.resolve("big.set.json");
                Files.writeString(f, good + " ".repeat(SetFile.MAX_LEN + 1 - good.length()));
                try {
                    TableReader.openSet(List.of(f.toString()));
                    check(false, "accepted");
                } catch (SetFileException e) {
                    eq(f + ": tilepdb: invalid set: larger than 1048576 bytes", e.getMessage(), "message");
                }
                Files.writeString(f, good + " ".repeat(SetFile.MAX_LEN - good.length()));
                Files.copy(sets.resolve("4x4_2-3-4.pdb"), dir.resolve("4x4_2-3-4.pdb"));
                eq(2, TableReader.openSetFile(f.toString()).parts.size(), "exactly 1 MiB is read");
            } finally {
                try (var s = Files.list(dir)) {
                    for (Path p : s.toList()) Files.delete(p);
                }
                Files.delete(dir);
            }
        });

        test("set kit: symmetric parts equal the tables built for their own tiles, on every placement", () -> {
            Map<String, Map<Integer, String>> own = Map.of(
                    "good-a.set.json", Map.of(2, "4x4_5-9-13.pdb"),
                    "good-b.set.json", Map.of(2, "4x4_3-4-8.pdb", 3, "4x4_9-13-14.pdb"),
                    "good-3x2.set.json", Map.of(2, "3x2_3.pdb"),
                    "good-blank-first.set.json", Map.of(2, "4x4-bf_4-8-12.pdb"));
            int[] checked = {0};
            for (var e : own.entrySet()) {
                TableSet s = TableReader.openSet(List.of(sets.resolve(e.getKey()).toString()));
                for (var pe : e.getValue().entrySet()) {
                    TableSet.Part part = s.parts.get(pe.getKey() - 1);
                    check(part.mapping() != null, e.getKey() + " part " + pe.getKey() + " is symmetric");
                    Table ownTable = TableReader.readFile(sets.resolve(pe.getValue()).toString());
                    check(Arrays.equals(ownTable.pattern.tiles, part.pattern().tiles), "same tiles");
                    TableSet one = TableSet.ofParts(List.of(part), List.of("part"), true);
                    byte[] tiles = part.pattern().tiles;
                    int n = s.n;
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
                        eq(ownTable.value(p), one.heuristic(p), e.getKey() + " part " + pe.getKey() + " at " + Arrays.toString(cells));
                        checked[0]++;
                    });
                }
            }
            check(checked[0] > 10000, checked[0] + " placements");
        });

        test("set file lookups: a sum over the parts, UnsolvableException for the other parity class", () -> {
            TableSet s = TableReader.openSet(List.of(sets.resolve("good-a.set.json").toString()));
            TableSet plain = TableReader.openSet(List.of(sets.resolve("4x4_2-3-4.pdb").toString(), sets.resolve("4x4_5-9-13.pdb").toString()));
            int[] goal = goalFor("blank-last", 16);
            eq(0, s.lookup(goal), "goal");
            Random rnd = new Random(7);
            int unsolvable = 0;
            for (int i = 0; i < 2000; i++) {
                int[] b = goal.clone();
                for (int j = b.length - 1; j > 0; j--) {
                    int k = rnd.nextInt(j + 1);
                    int x = b[j]; b[j] = b[k]; b[k] = x;
                }
                try {
                    eq(plain.lookup(b), s.lookup(b), Arrays.toString(b));
                } catch (UnsolvableException e) {
                    unsolvable++;
                }
            }
            check(unsolvable > 500 && unsolvable < 1500, unsolvable + " unsolvable");
        });

        test("openSet: set files with tables given directly; overlapping tables are bad data with a set file", () -> {
            String sf = sets.resolve("good-a.set.json").toString(), t = sets.resolve("4x4_2-3-4.pdb").toString();
            TableSet a = TableReader.openSet(List.of(t, sf));
            eq(2, a.parts.size(), "parts");
            eq(1, a.tables.size(), "tables");
            eq(3, TableReader.openSet(List.of(sf, sets.resolve("4x4_10-11-15.pdb").toString())).parts.size(), "extra table");
            String over = sets.resolve("4x4_4-8-12.pdb").toString();
            try {
                TableReader.openSet(List.of(sf, over));
                check(false, "accepted");
            } catch (SetFileException e) {
                eq("tilepdb: invalid set: " + over + " (4x4 blank-last tiles 4,8,12) and " + sf + " part 1 (4x4 blank-last tiles 2,3,4) are not disjoint: both hold tile(s) 4", e.getMessage(), "message");
            }
            try {
                TableReader.openSet(List.of(t, over));
                check(false, "accepted");
            } catch (TableSet.SetException e) {
                check(e.getMessage().startsWith("tilepdb: ") && e.getMessage().contains("not disjoint"), e.getMessage());
            }
        });

        test("SetFile.open: bytes and tables by name, each read once; errors name the set and the part", () -> {
            byte[] json = Files.readAllBytes(sets.resolve("good-b.set.json"));
            List<String> fetched = new ArrayList<>();
            SetFile.Tables tables = (name, where) -> {
                fetched.add(name);
                return TableReader.read(TableReader.bytes(Files.readAllBytes(sets.resolve(name))));
            };
            TableSet s = SetFile.open(json, "sets/good-b.set.json", tables);
            eq("[4x4_1-2-5.pdb]", fetched, "fetched once");
            TableSet viaFile = TableReader.openSet(List.of(sets.resolve("good-b.set.json").toString()));
            byte[] p = pos(new int[] {12, 1, 3, 4, 2, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 5});
            eq(viaFile.heuristic(p), s.heuristic(p), "same values");
            check(s.heuristic(p) > 0, "non-zero");
            try {
                SetFile.open(Files.readAllBytes(sets.resolve("bad-tile-map.set.json")), "x.set.json", tables);
                check(false, "accepted");
            } catch (SetFileException e) {
                eq(2, e.part, "part");
                eq("x.set.json: tilepdb: invalid set: part 2: tile_map [2 4 3], but transpose maps tiles [5 9 13] to [2 3 4]", e.getMessage(), "message");
            }
            try {
                SetFile.open(Files.readAllBytes(sets.resolve("bad-table-corrupt.set.json")), "y.set.json", tables);
                check(false, "accepted");
            } catch (TilepdbException e) {
                eq("checksum", e.kind.specName(), "class");
                check(e.getMessage().startsWith("y.set.json: part 2: corrupt_2-3-4.pdb: tilepdb: payload_sha256 mismatch"), e.getMessage());
            }
            try {
                SetFile.open("{\"tilepdb_set\": 2}".getBytes(StandardCharsets.UTF_8), "z", tables);
                check(false, "accepted");
            } catch (SetFileException e) {
                eq("z: tilepdb: invalid set: set file version 2 is not supported (this reader supports 1)", e.getMessage(), "message");
            }
        });

        test("fuzz: set files with random edits never crash the reader", () -> {
            byte[] base = Files.readAllBytes(sets.resolve("good-b.set.json"));
            Random rnd = new Random(1);
            String alphabet = "{}[]\",:0123456789-. \nabcdefghijklmnopqrstuvwxyz_";
            SetFile.Tables tables = (name, where) -> {
                Path p = sets.resolve(name);
                if (!Files.isRegularFile(p)) throw new java.io.IOException("no table " + name);
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
                    check(e.getMessage().contains("f.set.json"), e.getMessage());
                } catch (java.io.IOException e) {
                    check(e.getMessage().startsWith("no table"), e.getMessage());
                }
            }
            check(accepted < 1500, accepted + " accepted");
        });
    }
}
