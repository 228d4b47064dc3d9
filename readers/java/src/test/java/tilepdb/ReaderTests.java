package tilepdb;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;

/**
 * Tests of the Java reader, runnable with plain javac/java (no framework):
 * SPEC.md rank and value vectors, the readers kit (readers/testdata/kit) and
 * the project-wide conformance kit once merged, truncations and bit flips,
 * exhaustive rank bijections, Go board messages, sets and the CLI, and set
 * files (SetFileTests).
 * Run from the repository root: readers/java/test.sh. Prints
 * "java: N passed, N failed, N skipped".
 */
public final class ReaderTests {
    static Path root = Path.of(System.getProperty("tilepdb.root", "."));
    static Path kit = root.resolve("readers/testdata/kit");
    static Path conformance = System.getenv("TILEPDB_CONFORMANCE_DIR") != null ? Path.of(System.getenv("TILEPDB_CONFORMANCE_DIR")) : root.resolve("format/testdata/conformance");
    static Path data = root.resolve("data");

    interface Body { void run() throws Exception; }

    static final class Skip extends RuntimeException {
        Skip(String why) { super(why); }
    }

    static int passed, failed, skipped;

    static void test(String name, Body b) {
        try {
            b.run();
            passed++;
            System.out.println("ok   " + name);
        } catch (Skip s) {
            skipped++;
            System.out.println("skip " + name + ": " + s.getMessage());
        } catch (Throwable t) {
            failed++;
            System.out.println("FAIL " + name + ": " + t);
            t.printStackTrace(System.out);
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    static void eq(Object want, Object got, String what) {
        if (!String.valueOf(want).equals(String.valueOf(got))) throw new AssertionError(what + ": want " + want + ", got " + got);
    }

    static List<String[]> tsv(Path p) throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String l : Files.readAllLines(p)) if (!l.isEmpty() && !l.startsWith("#")) out.add(l.split("\t", -1));
        return out;
    }

    static String specBlock(String name) throws IOException {
        String spec = Files.readString(root.resolve("format/SPEC.md"));
        Matcher m = java.util.regex.Pattern.compile("<!-- " + name + ":begin[^>]*-->\\n```\\n([\\s\\S]*?)```\\n<!-- " + name + ":end -->").matcher(spec);
        check(m.find(), "SPEC.md has a " + name + " block");
        return m.group(1);
    }

    static int[] goalFor(String name, int n) {
        int[] g = new int[n];
        if (name.equals("blank-last")) for (int i = 0; i < n; i++) g[i] = (i + 1) % n;
        else if (name.equals("blank-first")) for (int i = 0; i < n; i++) g[i] = i;
        else g = Arrays.stream(name.split(" ")).mapToInt(Integer::parseInt).toArray();
        return g;
    }

    static int[] ints(String s, String sep) {
        return Arrays.stream(s.split(sep)).mapToInt(Integer::parseInt).toArray();
    }

    /** Every permutation of 0..n-1 (n small). */
    static List<int[]> permutations(int n) {
        List<int[]> out = new ArrayList<>();
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = i;
        permute(a, 0, out);
        return out;
    }

    private static void permute(int[] a, int k, List<int[]> out) {
        if (k == a.length) {
            out.add(a.clone());
            return;
        }
        for (int i = k; i < a.length; i++) {
            int t = a[k]; a[k] = a[i]; a[i] = t;
            permute(a, k + 1, out);
            t = a[k]; a[k] = a[i]; a[i] = t;
        }
    }

    static byte[] pos(int[] board) {
        byte[] p = new byte[board.length];
        for (int c = 0; c < board.length; c++) p[board[c]] = (byte) c;
        return p;
    }

    static String outcome(byte[] file) {
        try {
            TableReader.read(TableReader.bytes(file));
            return "ok";
        } catch (TilepdbException e) {
            return e.kind.specName();
        } catch (Exception e) {
            return "other: " + e;
        }
    }

    public static void main(String[] args) throws Exception {
        test("rank_vectors.tsv is the block of SPEC.md section 6", () ->
                eq(specBlock("rank-vectors"), Files.readString(root.resolve("format/testdata/rank_vectors.tsv")), "block"));

        test("SPEC.md ranking vectors", () -> {
            List<String[]> rows = tsv(root.resolve("format/testdata/rank_vectors.tsv"));
            check(rows.size() >= 30, "vectors present");
            for (String[] r : rows) {
                int[] wh = ints(r[0], "x");
                Pattern p = new Pattern(wh[0], wh[1], goalFor(r[1], wh[0] * wh[1]), ints(r[2], ","));
                eq(r[3], p.ranking(), "ranking");
                eq(r[5], p.rank(pos(ints(r[4], " "))), String.join(" ", r));
            }
        });

        test("cellset-order is a bijection (exhaustive, 3x3 k=1..4)", () -> {
            for (int k = 1; k <= 4; k++) {
                int[] tiles = new int[k];
                for (int i = 0; i < k; i++) tiles[i] = i + 1;
                Pattern p = new Pattern(3, 3, goalFor("blank-last", 9), tiles);
                boolean[] seen = new boolean[(int) p.size];
                int[] count = {0};
                byte[] ps = new byte[9];
                perms(9, k, new int[k], 0, 0, cells -> {
                    for (int i = 0; i < cells.length; i++) ps[i + 1] = (byte) cells[i];
                    long r = p.rank(ps);
                    check(r >= 0 && r < p.size && !seen[(int) r], "rank " + r);
                    seen[(int) r] = true;
                    count[0]++;
                });
                eq(p.size, count[0], "count");
            }
        });

        test("lehmer-half is a bijection on solvable 3x2 states, both goals", () -> {
            for (String g : new String[] {"blank-last", "blank-first"}) {
                Pattern p = new Pattern(3, 2, goalFor(g, 6), new int[] {1, 2, 3, 4, 5});
                boolean[] seen = new boolean[(int) p.size];
                int[] count = {0};
                perms(6, 6, new int[6], 0, 0, ps -> {
                    byte[] b = new byte[6];
                    for (int i = 0; i < 6; i++) b[i] = (byte) ps[i];
                    if (!p.solvablePositions(b)) return;
                    long r = p.rank(b);
                    check(!seen[(int) r], "dup " + r);
                    seen[(int) r] = true;
                    count[0]++;
                });
                eq(p.size, count[0], "solvable states");
            }
        });

        test("vectors.tsv is the block of SPEC.md section 7", () ->
                eq(specBlock("value-vectors"), Files.readString(root.resolve("format/testdata/vectors.tsv")), "block"));

        String[][] sources = {
            {"15-663_2-3-4", kit.resolve("good-multiframe.pdb").toString()},
            {"8puzzle", data.resolve("8puzzle.pdb").toString()},
            {"15-555_1-2-3-4-7", data.resolve("15-555_1-2-3-4-7.pdb").toString()},
        };
        for (String[] s : sources) {
            test("SPEC.md value vectors: " + s[0], () -> {
                if (!Files.exists(Path.of(s[1]))) throw new Skip(s[1] + " not built (run make data)");
                Table t = TableReader.readFile(s[1]);
                String vec = Files.readString(root.resolve("format/testdata/vectors.tsv"));
                check(vec.contains("#   " + s[0] + ":") && vec.contains("raw_sha256 " + t.header.rawSha256()), "whole table matches");
                int n = 0;
                for (String[] r : tsv(root.resolve("format/testdata/vectors.tsv"))) {
                    if (!r[0].equals(s[0])) continue;
                    n++;
                    int[] b = ints(r[1], " ");
                    eq(r[2], t.pattern.rank(pos(b)), "rank " + r[1]);
                    eq(r[3], t.value(pos(b)), "fast value " + r[1]);
                    // checked lookup: the value, or UnsolvableException for the other parity class
                    if (t.pattern.solvablePositions(pos(b))) eq(r[3], t.lookup(b), "value " + r[1]);
                    else {
                        try {
                            t.lookup(b);
                            check(false, "unsolvable accepted " + r[1]);
                        } catch (UnsolvableException x) {
                            // expected
                        }
                    }
                }
                eq(8, n, "rows");
            });
        }

        test("readers kit: every file gives its expected class", () -> {
            List<String[]> rows = tsv(kit.resolve("index.tsv"));
            check(rows.size() >= 40, "kit present");
            for (String[] r : rows) eq(r[1], outcome(Files.readAllBytes(kit.resolve(r[0]))), r[0]);
        });

        test("readers kit: truncations are format errors; bit flips are caught or harmless", () -> {
            byte[] b = Files.readAllBytes(kit.resolve("good-additive.pdb"));
            Table good = TableReader.read(TableReader.bytes(b));
            for (int n = 0; n < b.length; n++) eq("format", outcome(Arrays.copyOf(b, n)), "length " + n);
            for (int i = 0; i < b.length; i++) {
                byte[] c = b.clone();
                c[i] ^= (byte) (1 << (i % 8));
                try {
                    Table t = TableReader.read(TableReader.bytes(c));
                    check(Arrays.equals(t.values, good.values), "byte " + i + " changed the table silently");
                } catch (TilepdbException e) {
                    // a class: fine
                }
            }
        });

        for (String name : new String[] {"good-additive.pdb", "good-exact.pdb", "good-v2-additive.pdb", "good-v2-exact.pdb", "good-multiframe.pdb"}) {
            test("fuzz " + name + ": truncations, bit flips, re-signed header and payload mutations", () -> fuzz(Files.readAllBytes(kit.resolve(name)), name.length() * 7919));
        }

        test("conformance kit (format/testdata/conformance)", () -> {
            if (!Files.exists(conformance.resolve("index.json"))) throw new Skip(conformance + "/index.json is not in this tree yet (it lands with format 2); the readers kit stands in");
            int n = Conformance.run(conformance);
            check(n > 40, "kit files: " + n);
        });

        test("format 2: Manhattan walk = the definition at every rank (exhaustive small tables)", () -> {
            Object[][] cases = {
                {3, 3, "blank-last", new int[] {1, 2, 3}}, {3, 3, "blank-first", new int[] {2, 5, 7}}, {4, 3, "blank-first", new int[] {1, 2, 3}},
                {2, 2, "1 3 2 0", new int[] {1, 2, 3}}, {3, 2, "blank-last", new int[] {1, 2, 3, 4, 5}}, {2, 3, "5 4 3 2 1 0", new int[] {1, 2, 3, 4, 5}},
            };
            for (Object[] c : cases) {
                int w = (int) c[0], h = (int) c[1];
                Pattern p = new Pattern(w, h, goalFor((String) c[2], w * h), (int[]) c[3]);
                int[] walk = new int[(int) p.size];
                long[] count = {0};
                Manhattan.forEach(p, (r, m) -> {
                    check(r == count[0]++, "ranks in order");
                    walk[(int) r] = m;
                    return true;
                });
                eq(p.size, count[0], "count");
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
                    eq(m, walk[(int) p.rank(pos)], Arrays.toString(cells));
                });
            }
        });

        test("SPEC.md section 9 format 2 vectors (complete file)", () -> {
            Path v = root.resolve("format/testdata/format2_vectors.txt");
            if (!Files.exists(v)) throw new Skip("format/testdata/format2_vectors.txt is not in this tree yet (it lands with format 2)");
            List<String> lines = Files.readAllLines(v);
            int start = lines.indexOf(lines.stream().filter(l -> l.startsWith("complete file")).findFirst().orElseThrow());
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            for (int i = start + 1; i < lines.size() && lines.get(i).matches("[0-9a-f]{4}: .*"); i++)
                for (String x : lines.get(i).substring(6).trim().split(" ")) file.write(Integer.parseInt(x, 16));
            Table t = TableReader.read(TableReader.bytes(file.toByteArray()));
            eq(2, t.major, "major");
            int n = 0;
            for (String l : lines.subList(0, start)) {
                if (!l.matches("\\d+\t.*")) continue;
                String[] r = l.split("\t");
                eq(r[4], t.values[Integer.parseInt(r[0])], "rank " + r[0]);
                n++;
            }
            eq(t.header.entries(), n, "ranks listed");
        });

        test("a table larger than one Java array is refused with a LimitException naming the limit (5x5, 7 tiles)", () -> {
            byte[] file = bigTable(7);
            try {
                TableReader.read(TableReader.bytes(file));
                check(false, "accepted");
            } catch (LimitException e) {
                check(e.getMessage().contains("2422728000") && e.getMessage().contains(Long.toString(TableReader.MAX_TABLE_BYTES)), e.getMessage());
            }
        });

        test("board syntax and Go messages", () -> {
            String[][] cases = {
                {"1 2 3 4 5 6 7 8 0", null},
                {"  1\t2 ,3,,4 5 6 7 8 _\r", null},
                {"+1 02 3 4 5 6 7 8 -0", null},
                {",,,", "bad board: empty line"},
                {"1 2 3", "bad board: 3 cells, want 9"},
                {"1 2 3 4 5 6 7 8 -1", "bad board: cell 8: tile -1 out of range 0..8"},
                {"1 2 3 4 5 6 7 8 99999999999999999999", "bad board: cell 8: \"99999999999999999999\" is not a tile number or blank (0, x, _)"},
                {"1 2 3 4 5 6 7 8 é\u00a0\u0007", "bad board: cell 8: \"é\\u00a0\\a\" is not a tile number or blank (0, x, _)"},
                {"1 2 3 4 5 6 7 8 \uff18", "bad board: cell 8: \"\uff18\" is not a tile number or blank (0, x, _)"},
                {"1 2 3 4 5 6 7 8 \u200b\ud83d\ude00", "bad board: cell 8: \"\\u200b\ud83d\ude00\" is not a tile number or blank (0, x, _)"},
                {"\u0085 \u3000 1 2 3 4 5 6 7 8 0 \u2029", null},
                {"\ufeff1 2 3 4 5 6 7 8 0", "bad board: cell 0: \"\\ufeff1\" is not a tile number or blank (0, x, _)"},
                {"1 1 3 4 5 6 7 8 0", "bad board: tile 1 appears twice"},
                {"0 2 3 4 5 6 7 8 0", "bad board: more than one blank"},
            };
            for (String[] c : cases) {
                Boards.Parsed r = Boards.parse(c[0], 9);
                eq(c[1], r.error(), c[0]);
                if (c[1] == null) eq("[1, 2, 3, 4, 5, 6, 7, 8, 0]", Arrays.toString(r.board()), c[0]);
            }
            byte[] bad = {0x61, (byte) 0xff, (byte) 0xed, (byte) 0xa0, (byte) 0x80};
            eq("\"a\\xff\\xed\\xa0\\x80\"", Boards.goQuote(bad, 0, bad.length), "quote");
        });

        test("checked lookup and sets", () -> {
            Table a = TableReader.readFile(kit.resolve("good-additive.pdb").toString());
            Table e = TableReader.readFile(kit.resolve("good-exact.pdb").toString());
            eq(a.values[92] & 0xff, a.lookup(new int[] {4, 1, 0, 3, 2, 5, 6, 7, 8}), "worked example");
            eq(0, e.lookup(new int[] {1, 2, 3, 4, 5, 0}), "goal");
            // one swap of two tiles changes the parity class: refused by exact and
            // additive tables alike (format.Set.Lookup), though the additive table
            // has a value for that placement
            int[] swapped = {1, 4, 0, 3, 2, 5, 6, 7, 8};
            check(a.value(pos(swapped)) >= 0, "additive value");
            List<Body> unsolvable = List.of(() -> e.lookup(new int[] {2, 1, 3, 4, 5, 0}), () -> a.lookup(swapped),
                    () -> new TableSet(List.of(a)).lookup(swapped), () -> new TableSet(List.of(e)).heuristicBoard(new int[] {2, 1, 3, 4, 5, 0}));
            for (Body u : unsolvable) {
                try {
                    u.run();
                    check(false, "unsolvable accepted");
                } catch (UnsolvableException x) {
                    check(x.getMessage().equals("board is not solvable for goal blank-last"), x.getMessage());
                }
            }
            try {
                a.lookup(new int[] {1, 4, 0, 3, 2, 5, 6, 7});
                check(false, "short board accepted");
            } catch (BoardException x) {
                eq("bad board: 8 cells, want 9", x.getMessage(), "message");
            }
            for (List<Table> bad : List.of(List.of(a, a), List.of(a, e), List.of(e, e), List.<Table>of())) {
                try {
                    new TableSet(bad);
                    check(false, "set accepted");
                } catch (IllegalArgumentException x) {
                    // expected
                }
            }
        });

        test("checked lookup agrees with the parity rule on every 3x2 board", () -> {
            Table e = TableReader.readFile(kit.resolve("good-exact.pdb").toString());
            TableSet set = new TableSet(List.of(e));
            int solvable = 0;
            for (int[] b : permutations(6)) {
                byte[] p = pos(b);
                if (e.pattern.solvablePositions(p)) {
                    solvable++;
                    eq(e.values[(int) e.pattern.rank(p)] & 0xff, set.lookup(b), "value");
                } else {
                    try {
                        set.lookup(b);
                        check(false, "unsolvable accepted " + Arrays.toString(b));
                    } catch (UnsolvableException x) {
                        // expected
                    }
                }
            }
            eq(360, solvable, "solvable boards");
        });

        test("CLI line reader: numbers, BOM, \\r, the length limit, bounded memory", () -> {
            String x4096 = "x".repeat(Boards.MAX_LINE_LEN), bom = "\ufeff";
            Object[][] cases = {
                {"", List.of()},
                {"\n", List.of("1:")},
                {"a\nb", List.of("1:a", "2:b")},
                {"a\r\n\r\nb\r", List.of("1:a", "2:", "3:b")},
                {"a\r\r\n", List.of("1:a\r")},
                {bom + "a\n" + bom + "b\n", List.of("1:a", "2:" + bom + "b")},
                {"\n" + bom + "a", List.of("1:", "2:" + bom + "a")},
                {x4096 + "\r\n", List.of("1:" + x4096)},
                {x4096 + "x\r\nok", List.of("1 too long", "2:ok")},
                {x4096 + "xx", List.of("1 too long")},
                {bom + x4096.substring(2) + "\n", List.of("1:" + x4096.substring(2))},
                // the limit is measured without the BOM (pdbgen's buffer has room for it and "\r\n")
                {bom + x4096.substring(1) + "\n", List.of("1:" + x4096.substring(1))},
                {bom + x4096 + "\r\nok", List.of("1:" + x4096, "2:ok")},
                {bom + x4096 + "x\n", List.of("1 too long")},
                {bom + x4096 + "xx", List.of("1 too long")},
                {"x".repeat(3 << 20) + "\nnext\n" + "x".repeat(5000), List.of("1 too long", "2:next", "3 too long")},
            };
            for (Object[] c : cases) {
                byte[] in = ((String) c[0]).getBytes(StandardCharsets.UTF_8);
                List<String> got = new ArrayList<>();
                Cli.LineReader r = new Cli.LineReader(new ByteArrayInputStream(in), () -> {});
                for (int no; (no = r.next()) > 0;) {
                    check(r.buf.length <= Boards.MAX_LINE_LEN + 5, "buffer grew");
                    got.add(r.tooLong ? no + " too long" : no + ":" + new String(r.buf, 0, r.len, StandardCharsets.UTF_8));
                }
                eq(c[1], got, "lines of " + ((String) c[0]).substring(0, Math.min(20, ((String) c[0]).length())));
            }
        });

        test("CLI lookup: values, unsolvable, bad lines, exit codes", () -> {
            String f = kit.resolve("good-exact.pdb").toString();
            String in = "\ufeff1 2 3 4 5 0\n# comment\n\n2 1 3 4 5 0\n1 2 3 4 0 5\r\n1 2\n" + "9".repeat(2 << 20) + "\n\u00a01 2 3 4 5 0\n1 2 3 4 5 0";
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int code = Cli.run(new String[] {"lookup", f}, new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)), out, new PrintStream(err));
            eq(1, code, "exit");
            eq("1 2 3 4 5 0\t0\n2 1 3 4 5 0\tunsolvable\n1 2 3 4 0 5\t1\n1 2 3 4 5 0\t0\n", out.toString(), "stdout");
            eq("line 6: bad board: 2 cells, want 6\nline 7: line longer than 4096 bytes\n"
                    + "line 8: bad board: cell 0: \"\\u00a01\" is not a tile number or blank (0, x, _)\ntilepdb-java lookup: 3 bad line(s)\n", err.toString(), "stderr");
            // unsolvable boards are answered, not errors, with an additive table too
            out.reset();
            err.reset();
            String a = kit.resolve("good-additive.pdb").toString();
            eq(0, Cli.run(new String[] {"lookup", a}, new ByteArrayInputStream("1 4 0 3 2 5 6 7 8\n".getBytes(StandardCharsets.UTF_8)), out, new PrintStream(err)), "additive unsolvable exit");
            eq("1 4 0 3 2 5 6 7 8\tunsolvable\n", out.toString(), "additive unsolvable");
            eq("", err.toString(), "additive unsolvable stderr");
            // a write error is trouble (exit 2), named
            OutputStream full = new OutputStream() {
                @Override
                public void write(int b) throws IOException { throw new IOException("No space left on device"); }
            };
            err.reset();
            eq(2, Cli.run(new String[] {"lookup", f}, new ByteArrayInputStream("1 2 3 4 5 0\n".getBytes(StandardCharsets.UTF_8)), full, new PrintStream(err)), "write error");
            eq("tilepdb-java lookup: writing output: No space left on device\n", err.toString(), "write error message");
            eq(2, Cli.run(new String[] {"lookup"}, new ByteArrayInputStream(new byte[0]), out, new PrintStream(err)), "no files");
            eq(2, Cli.run(new String[] {"lookup", "/nonexistent.pdb"}, new ByteArrayInputStream(new byte[0]), out, new PrintStream(err)), "missing file");
            eq(1, Cli.run(new String[] {"lookup", kit.resolve("bad-magic.pdb").toString()}, new ByteArrayInputStream(new byte[0]), out, new PrintStream(err)), "corrupt file");
        });

        test("CLI lookup answers a line before the next one arrives", () -> {
            // an input that fails the test if read past the first line before its answer is out
            String f = kit.resolve("good-exact.pdb").toString();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = new InputStream() {
                int k;
                final byte[] first = "1 2 3 4 5 0\n".getBytes(StandardCharsets.US_ASCII);

                @Override
                public int read() { throw new UnsupportedOperationException(); }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (k++ == 0) {
                        System.arraycopy(first, 0, b, off, first.length);
                        return first.length;
                    }
                    check(out.toString().equals("1 2 3 4 5 0\t0\n"), "answer not written before the next read: " + out);
                    return -1;
                }
            };
            eq(0, Cli.run(new String[] {"lookup", f}, in, out, new PrintStream(new ByteArrayOutputStream())), "exit");
        });

        SetFileTests.all();

        System.out.println("java: " + passed + " passed, " + failed + " failed, " + skipped + " skipped");
        System.exit(failed == 0 ? 0 : 1);
    }

    /** A well-formed format 1.0 file of a 5x5 table of `tiles` tiles with valid zstd frame headers (frames never decoded). */
    static byte[] bigTable(int tiles) throws Exception {
        long entries = 1;
        for (int i = 0; i < tiles; i++) entries *= 25 - i;
        long s = 1L << 26;
        int nf = (int) ((entries + s - 1) / s);
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        StringBuilder sizes = new StringBuilder();
        for (int i = 0; i < nf; i++) {
            long raw = i < nf - 1 ? s : entries - s * (nf - 1);
            int len = 10 + 4 * (int) ((raw + 131071) / 131072);
            java.nio.ByteBuffer f = java.nio.ByteBuffer.allocate(len).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            f.put(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, (byte) 0xe4}).putLong(raw);
            frames.write(f.array());
            sizes.append(i > 0 ? "," : "").append(len);
        }
        StringBuilder goal = new StringBuilder(), ts = new StringBuilder();
        for (int i = 0; i < 25; i++) goal.append(i > 0 ? "," : "").append((i + 1) % 25);
        for (int i = 1; i <= tiles; i++) ts.append(i > 1 ? "," : "").append(i);
        String json = "{\"width\":5,\"height\":5,\"goal\":[" + goal + "],\"goal_name\":\"blank-last\",\"tiles\":[" + ts
                + "],\"kind\":\"additive\",\"ranking\":\"cellset-order\",\"ranking_version\":1,\"entries\":" + entries
                + ",\"bits_per_entry\":8,\"max_value\":0,\"histogram\":[" + entries + "],\"raw_sha256\":\"" + "0".repeat(64)
                + "\",\"generator\":\"test\",\"frame_size\":" + s + ",\"frames\":[" + sizes + "]}";
        byte[] hb = json.getBytes(StandardCharsets.UTF_8);
        java.nio.ByteBuffer pre = java.nio.ByteBuffer.allocate(16 + hb.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        pre.put("TILEPDB\u001a".getBytes(StandardCharsets.ISO_8859_1)).putShort((short) 1).putShort((short) 0).putInt(hb.length).put(hb);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(pre.array());
        out.write(TableReader.sha256(pre.array(), 0, pre.array().length));
        out.write(frames.toByteArray());
        return out.toByteArray();
    }

    static final List<String> CLASSES = List.of("format", "checksum", "unsupported", "unsupported-version");

    static byte[] assemble(int major, byte[] json, byte[] payload) throws IOException {
        java.nio.ByteBuffer pre = java.nio.ByteBuffer.allocate(16 + json.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        pre.put("TILEPDB\u001a".getBytes(StandardCharsets.ISO_8859_1)).putShort((short) major).putShort((short) 0).putInt(json.length).put(json);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(pre.array());
        out.write(TableReader.sha256(pre.array(), 0, pre.array().length));
        out.write(payload);
        return out.toByteArray();
    }

    /** Mutated copies of a good file are rejected with a class or read to the same table. */
    static void fuzz(byte[] b, long seed) throws Exception {
        Table good = TableReader.read(TableReader.bytes(b));
        java.util.Random rnd = new java.util.Random(seed);
        for (int n = 0; n < b.length; n += Math.max(1, b.length / 300)) eq("format", outcome(Arrays.copyOf(b, n)), "truncated to " + n);
        java.util.function.Consumer<byte[]> run = c -> {
            String o;
            try {
                Table t = TableReader.read(TableReader.bytes(c));
                o = Arrays.equals(t.values, good.values) ? "same" : "changed";
            } catch (TilepdbException e) {
                o = e.kind.specName();
            } catch (Exception e) {
                o = "other: " + e;
            }
            check(CLASSES.contains(o) || o.equals("same"), o);
        };
        for (int i = 0; i < 300; i++) {
            byte[] c = b.clone();
            c[rnd.nextInt(c.length)] ^= (byte) (1 << rnd.nextInt(8));
            run.accept(c);
        }
        int n = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(12);
        int major = b[8];
        byte[] json = Arrays.copyOfRange(b, 16, 16 + n);
        byte[] payload = Arrays.copyOfRange(b, 48 + n, b.length);
        byte[] alphabet = "{}[]\",:-.0123456789eE aznulltrue\\\t\n".getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < 400; i++) {
            ByteArrayOutputStream j = new ByteArrayOutputStream();
            int k = rnd.nextInt(json.length);
            int op = rnd.nextInt(3);
            j.write(json, 0, k);
            if (op == 1) j.write(rnd.nextInt(10) == 0 ? 0xff : alphabet[rnd.nextInt(alphabet.length)]);
            if (op == 2) j.write(alphabet[rnd.nextInt(alphabet.length)]);
            int from = op == 1 ? k : k + 1;
            j.write(json, from, json.length - from);
            run.accept(assemble(major, j.toByteArray(), payload));
        }
        for (int i = 0; i < 200; i++) {
            byte[] p = payload.clone();
            p[rnd.nextInt(p.length)] = (byte) rnd.nextInt(256);
            byte[] j = json;
            if (major >= 2) {
                String ps = java.util.HexFormat.of().formatHex(TableReader.sha256(p, 0, p.length));
                j = new String(json, StandardCharsets.UTF_8).replaceAll("\"payload_sha256\":\"[0-9a-f]{64}\"", "\"payload_sha256\":\"" + ps + "\"").getBytes(StandardCharsets.UTF_8);
            }
            run.accept(assemble(major, j, p));
        }
    }

    static int dist(Pattern p, int t, int c) {
        int g = p.goalPos[t];
        return Math.abs(c / p.w - g / p.w) + Math.abs(c % p.w - g % p.w);
    }

    interface Visit { void visit(int[] cells) throws Exception; }

    static void perms(int n, int k, int[] cur, int depth, int used, Visit v) throws Exception {
        if (depth == k) {
            v.visit(cur);
            return;
        }
        for (int c = 0; c < n; c++) {
            if ((used & (1 << c)) != 0) continue;
            cur[depth] = c;
            perms(n, k, cur, depth + 1, used | (1 << c), v);
        }
    }
}
