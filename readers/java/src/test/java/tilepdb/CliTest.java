package tilepdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tilepdb.TestFiles.kit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The command line (tilepdb.Cli) with the contract of pdbgen lookup. */
class CliTest {
    static final String EXACT = kit.resolve("good-exact.pdb").toString();

    /** Cli.run's exit status, stdout and stderr. */
    record Run(int code, String out, String err) {}

    static Run run(String stdin, String... args) {
        return run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
    }

    static Run run(InputStream in, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Cli.run(args, in, out, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Stream<Arguments> lines() {
        String x4096 = "x".repeat(Boards.MAX_LINE_LEN), bom = "\ufeff";
        return Stream.of(
                Arguments.of("", List.of()),
                Arguments.of("\n", List.of("1:")),
                Arguments.of("a\nb", List.of("1:a", "2:b")),
                Arguments.of("a\r\n\r\nb\r", List.of("1:a", "2:", "3:b")),
                Arguments.of("a\r\r\n", List.of("1:a\r")),
                Arguments.of(bom + "a\n" + bom + "b\n", List.of("1:a", "2:" + bom + "b")),
                Arguments.of("\n" + bom + "a", List.of("1:", "2:" + bom + "a")),
                Arguments.of(x4096 + "\r\n", List.of("1:" + x4096)),
                Arguments.of(x4096 + "x\r\nok", List.of("1 too long", "2:ok")),
                Arguments.of(x4096 + "xx", List.of("1 too long")),
                Arguments.of(bom + x4096.substring(2) + "\n", List.of("1:" + x4096.substring(2))),
                // the limit is measured without the BOM (pdbgen's buffer has room for it and "\r\n")
                Arguments.of(bom + x4096.substring(1) + "\n", List.of("1:" + x4096.substring(1))),
                Arguments.of(bom + x4096 + "\r\nok", List.of("1:" + x4096, "2:ok")),
                Arguments.of(bom + x4096 + "x\n", List.of("1 too long")),
                Arguments.of(bom + x4096 + "xx", List.of("1 too long")),
                Arguments.of("x".repeat(3 << 20) + "\nnext\n" + "x".repeat(5000), List.of("1 too long", "2:next", "3 too long")));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @DisplayName("line reader: numbers, BOM, \\r, the length limit, bounded memory")
    @MethodSource
    void lines(String input, List<String> want) throws Exception {
        List<String> got = new ArrayList<>();
        Cli.LineReader r = new Cli.LineReader(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), () -> {});
        for (int no; (no = r.next()) > 0;) {
            assertTrue(r.buf.length <= Boards.MAX_LINE_LEN + 5, "buffer grew to " + r.buf.length);
            got.add(r.tooLong ? no + " too long" : no + ":" + new String(r.buf, 0, r.len, StandardCharsets.UTF_8));
        }
        assertEquals(want, got);
    }

    @Test
    @DisplayName("lookup: values, unsolvable boards, skipped lines and bad lines with their numbers (exit 1)")
    void lookupAnswersAndBadLines() {
        String in = "\ufeff1 2 3 4 5 0\n# comment\n\n2 1 3 4 5 0\n1 2 3 4 0 5\r\n1 2\n" + "9".repeat(2 << 20) + "\n\u00a01 2 3 4 5 0\n1 2 3 4 5 0";
        Run r = run(in, "lookup", EXACT);
        assertEquals("1 2 3 4 5 0\t0\n2 1 3 4 5 0\tunsolvable\n1 2 3 4 0 5\t1\n1 2 3 4 5 0\t0\n", r.out(), "stdout");
        assertEquals("line 6: bad board: 2 cells, want 6\nline 7: line longer than 4096 bytes\n"
                + "line 8: bad board: cell 0: \"\\u00a01\" is not a tile number or blank (0, x, _)\ntilepdb-java lookup: 3 bad line(s)\n", r.err(), "stderr");
        assertEquals(1, r.code(), "exit");
    }

    @Test
    @DisplayName("lookup: an unsolvable board is an answer, not an error, with an additive table too (exit 0)")
    void lookupUnsolvableWithAdditiveTable() {
        Run r = run("1 4 0 3 2 5 6 7 8\n", "lookup", kit.resolve("good-additive.pdb").toString());
        assertEquals(new Run(0, "1 4 0 3 2 5 6 7 8\tunsolvable\n", ""), r);
    }

    @Test
    @DisplayName("lookup: a write error is trouble (exit 2), named")
    void lookupWriteError() {
        OutputStream full = new OutputStream() {
            @Override
            public void write(int b) throws IOException { throw new IOException("No space left on device"); }
        };
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(new String[] {"lookup", EXACT}, new ByteArrayInputStream("1 2 3 4 5 0\n".getBytes(StandardCharsets.UTF_8)), full, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals("tilepdb-java lookup: writing output: No space left on device\n", err.toString(StandardCharsets.UTF_8));
        assertEquals(2, code, "exit");
    }

    @Test
    @DisplayName("lookup without files is a usage error (exit 2)")
    void lookupWithoutFiles() {
        assertEquals(2, run("", "lookup").code());
    }

    @Test
    @DisplayName("lookup of a missing file is trouble (exit 2)")
    void lookupMissingFile() {
        assertEquals(2, run("", "lookup", "/nonexistent.pdb").code());
    }

    @Test
    @DisplayName("lookup of a directory or a device is trouble (exit 2), saying what it is as pdbgen does")
    void lookupNotRegularFile() {
        String dir = kit.toString();
        Run r = run("", "lookup", dir);
        assertEquals(2, r.code(), "exit");
        assertEquals("tilepdb-java lookup: " + dir + ": not a regular file (a directory)\n", r.err());
        if (java.nio.file.Files.exists(java.nio.file.Path.of("/dev/null"))) {
            r = run("", "lookup", "/dev/null");
            assertEquals(2, r.code(), "exit");
            assertEquals("tilepdb-java lookup: /dev/null: not a regular file (a character device)\n", r.err());
        }
    }

    static Stream<Arguments> lookupTablesThatDoNotCombine() {
        return Stream.of(
                Arguments.of(List.of("4x4_2-3-4.pdb", "4x4_3-4-8.pdb"),
                        "{1} (4x4 blank-last tiles 3,4,8) and {0} (4x4 blank-last tiles 2,3,4) are not disjoint: both hold tile(s) 3,4"),
                Arguments.of(List.of("3x2.pdb", "3x2_1.pdb"),
                        "{0} (3x2 blank-last exact (all tiles)) is an exact table and must be used alone, not in a set of 2"),
                Arguments.of(List.of("3x3_1-2-3.pdb", "4x4_5-9-13.pdb"),
                        "{1} (4x4 blank-last tiles 5,9,13) is for a 4x4 board, {0} (3x3 blank-last tiles 1,2,3) for 3x3"),
                Arguments.of(List.of("4x4_5-9-13.pdb", "4x4-bf_1-2-3.pdb"),
                        "{1} (4x4 blank-first tiles 1,2,3) has goal \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\", {0} has goal \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\""));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("lookup of tables that do not combine is bad data (exit 1), in pdbgen's words")
    @MethodSource
    void lookupTablesThatDoNotCombine(List<String> names, String message) {
        String a = TestFiles.sets.resolve(names.get(0)).toString(), b = TestFiles.sets.resolve(names.get(1)).toString();
        Run r = run("", "lookup", a, b);
        assertEquals(1, r.code(), "exit");
        assertEquals("tilepdb-java lookup: tilepdb: " + message.replace("{0}", a).replace("{1}", b) + "\n", r.err());
    }

    @Test
    @DisplayName("lookup of a corrupt file is bad data (exit 1)")
    void lookupCorruptFile() {
        assertEquals(1, run("", "lookup", kit.resolve("bad-magic.pdb").toString()).code());
    }

    @Test
    @DisplayName("lookup answers a line before the next one arrives")
    void lookupAnswersBeforeReadingOn() {
        // an input that fails the test if read past the first line before its answer is out
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
                assertEquals("1 2 3 4 5 0\t0\n", out.toString(StandardCharsets.UTF_8), "answer written before the next read");
                return -1;
            }
        };
        assertEquals(0, Cli.run(new String[] {"lookup", EXACT}, in, out, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)), "exit");
    }
}
