package tilepdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static tilepdb.TestFiles.CLASSES;
import static tilepdb.TestFiles.conformance;
import static tilepdb.TestFiles.data;
import static tilepdb.TestFiles.ints;
import static tilepdb.TestFiles.kit;
import static tilepdb.TestFiles.outcome;
import static tilepdb.TestFiles.pos;
import static tilepdb.TestFiles.root;
import static tilepdb.TestFiles.specBlock;
import static tilepdb.TestFiles.tsv;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reading tables (formats 1 and 2): SPEC.md's value vectors, the readers kit,
 * the conformance kit, damaged and mutated files, and the size limit.
 */
class TableReaderTest {
    static final String GOOD_FILES = "tilepdb.TableReaderTest#goodKitFiles";

    /** The good files the fuzz tests mutate: the readers kit's, and the conformance kit's 6x6 and 7x7 tables (cell sets past cell 31) when it is there. */
    static Stream<String> goodKitFiles() {
        Stream<String> big = Stream.of("v2-additive-6x6.pdb", "v2-additive-7x7-frames.pdb").filter(f -> Files.exists(conformance.resolve(f)));
        // zero-aware tables (SPEC.md section 11), formats 1 and 2, frames starting inside a block of S entries
        big = Stream.concat(big, Stream.of("v1-zero-aware-3x3.pdb", "v2-zero-aware-4x3-frames.pdb").filter(f -> Files.exists(TestFiles.conformanceZeroAware.resolve(f))));
        return Stream.concat(Stream.of("good-additive.pdb", "good-exact.pdb", "good-v2-additive.pdb", "good-v2-exact.pdb", "good-multiframe.pdb"), big);
    }

    /** A file of goodKitFiles: in the readers kit, or (v2-additive-*, *zero-aware*) in the conformance kits. */
    static Path goodFile(String name) {
        if (name.contains("zero-aware")) return TestFiles.conformanceZeroAware.resolve(name);
        return name.startsWith("v2-additive-") ? conformance.resolve(name) : kit.resolve(name);
    }

    @Test
    @DisplayName("vectors.tsv is the block of SPEC.md section 7")
    void valueVectorsFileIsTheSpecBlock() throws Exception {
        assertEquals(specBlock("value-vectors"), Files.readString(root.resolve("format/testdata/vectors.tsv")));
    }

    static Stream<Arguments> vectorSources() {
        return Stream.of(
                Arguments.of("15-663_2-3-4", kit.resolve("good-multiframe.pdb")),
                Arguments.of("8puzzle", data.resolve("8puzzle.pdb")),
                Arguments.of("15-555_1-2-3-4-7", data.resolve("15-555_1-2-3-4-7.pdb")));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("SPEC.md value vectors: rank, fast value and checked lookup")
    @MethodSource("vectorSources")
    void specValueVectors(String table, Path file) throws Exception {
        assumeTrue(Files.exists(file), file + " not built (run make data)");
        Table t = TableReader.readFile(file.toString());
        String vec = Files.readString(root.resolve("format/testdata/vectors.tsv"));
        assertTrue(vec.contains("#   " + table + ":") && vec.contains("raw_sha256 " + t.header.rawSha256()), "the whole table matches the vectors' raw_sha256");
        int n = 0;
        for (String[] r : tsv(root.resolve("format/testdata/vectors.tsv"))) {
            if (!r[0].equals(table)) continue;
            n++;
            int[] b = ints(r[1], " ");
            assertEquals(Long.parseLong(r[2]), t.pattern.rank(pos(b)), "rank " + r[1]);
            assertEquals(Integer.parseInt(r[3]), t.value(pos(b)), "fast value " + r[1]);
            // checked lookup: the value, or UnsolvableException for the other parity class
            if (t.pattern.solvablePositions(pos(b))) assertEquals(Integer.parseInt(r[3]), t.lookup(b), "value " + r[1]);
            else assertThrows(UnsolvableException.class, () -> t.lookup(b), "unsolvable " + r[1]);
        }
        assertEquals(8, n, "rows");
    }

    static Stream<Arguments> kitIndex() throws IOException {
        List<String[]> rows = tsv(kit.resolve("index.tsv"));
        assertTrue(rows.size() >= 40, "kit present: " + rows.size() + " files");
        return rows.stream().map(r -> Arguments.of(r[0], r[1]));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @DisplayName("readers kit: every file gives its expected class")
    @MethodSource("kitIndex")
    void readersKitClass(String file, String want) throws Exception {
        assertEquals(want, outcome(Files.readAllBytes(kit.resolve(file))));
    }

    @Test
    @DisplayName("readers kit: every truncation of a good file is a format error")
    void truncationsAreFormatErrors() throws Exception {
        byte[] b = Files.readAllBytes(kit.resolve("good-additive.pdb"));
        for (int n = 0; n < b.length; n++) assertEquals("format", outcome(Arrays.copyOf(b, n)), "length " + n);
    }

    @Test
    @DisplayName("readers kit: a flipped bit anywhere is caught or harmless")
    void bitFlipsAreCaughtOrHarmless() throws Exception {
        byte[] b = Files.readAllBytes(kit.resolve("good-additive.pdb"));
        Table good = TableReader.read(TableReader.bytes(b));
        for (int i = 0; i < b.length; i++) {
            byte[] c = b.clone();
            c[i] ^= (byte) (1 << (i % 8));
            String o = sameOrClass(good, c);
            assertTrue(CLASSES.contains(o) || o.equals("same"), "byte " + i + ": " + o);
        }
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("fuzz: truncations are format errors")
    @MethodSource(GOOD_FILES)
    void fuzzTruncations(String name) throws Exception {
        byte[] b = Files.readAllBytes(goodFile(name));
        for (int n = 0; n < b.length; n += Math.max(1, b.length / 300)) assertEquals("format", outcome(Arrays.copyOf(b, n)), "truncated to " + n);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("fuzz: random bit flips give a class or the same table")
    @MethodSource(GOOD_FILES)
    void fuzzBitFlips(String name) throws Exception {
        byte[] b = Files.readAllBytes(goodFile(name));
        Table good = TableReader.read(TableReader.bytes(b));
        Random rnd = new Random(name.length() * 7919L);
        for (int i = 0; i < 300; i++) {
            byte[] c = b.clone();
            c[rnd.nextInt(c.length)] ^= (byte) (1 << rnd.nextInt(8));
            assertClassOrSame(good, c);
        }
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("fuzz: edits of a re-signed header give a class or the same table")
    @MethodSource(GOOD_FILES)
    void fuzzHeaderEdits(String name) throws Exception {
        byte[] b = Files.readAllBytes(goodFile(name));
        Table good = TableReader.read(TableReader.bytes(b));
        Random rnd = new Random(name.length() * 7919L + 1);
        byte[] json = headerJson(b), payload = payload(b);
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
            assertClassOrSame(good, assemble(b[8], j.toByteArray(), payload));
        }
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("fuzz: payload edits (with payload_sha256 re-signed in format 2) give a class or the same table")
    @MethodSource(GOOD_FILES)
    void fuzzPayloadEdits(String name) throws Exception {
        byte[] b = Files.readAllBytes(goodFile(name));
        Table good = TableReader.read(TableReader.bytes(b));
        Random rnd = new Random(name.length() * 7919L + 2);
        int major = b[8];
        byte[] json = headerJson(b), payload = payload(b);
        for (int i = 0; i < 200; i++) {
            byte[] p = payload.clone();
            p[rnd.nextInt(p.length)] = (byte) rnd.nextInt(256);
            byte[] j = json;
            if (major >= 2) {
                String ps = java.util.HexFormat.of().formatHex(TableReader.sha256(p, 0, p.length));
                j = new String(json, StandardCharsets.UTF_8).replaceAll("\"payload_sha256\":\"[0-9a-f]{64}\"", "\"payload_sha256\":\"" + ps + "\"").getBytes(StandardCharsets.UTF_8);
            }
            assertClassOrSame(good, assemble(major, j, p));
        }
    }

    @Test
    @DisplayName("conformance kit (format/testdata/conformance)")
    void conformanceKit() throws Exception {
        assumeTrue(Files.exists(conformance.resolve("index.json")), conformance + "/index.json is not in this tree");
        int n = Conformance.run(conformance);
        assertTrue(n > 40, "kit files: " + n);
    }

    @Test
    @DisplayName("SPEC.md section 9 format 2 vectors (complete file)")
    void format2Vectors() throws Exception {
        Path v = root.resolve("format/testdata/format2_vectors.txt");
        assumeTrue(Files.exists(v), v + " is not in this tree");
        List<String> lines = Files.readAllLines(v);
        int start = lines.indexOf(lines.stream().filter(l -> l.startsWith("complete file")).findFirst().orElseThrow());
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        for (int i = start + 1; i < lines.size() && lines.get(i).matches("[0-9a-f]{4}: .*"); i++)
            for (String x : lines.get(i).substring(6).trim().split(" ")) file.write(Integer.parseInt(x, 16));
        Table t = TableReader.read(TableReader.bytes(file.toByteArray()));
        assertEquals(2, t.major, "major");
        int n = 0;
        for (String l : lines.subList(0, start)) {
            if (!l.matches("\\d+\t.*")) continue;
            String[] r = l.split("\t");
            assertEquals(Integer.parseInt(r[4]), t.values[Integer.parseInt(r[0])], "rank " + r[0]);
            n++;
        }
        assertEquals(t.header.entries(), n, "ranks listed");
    }

    @Test
    @DisplayName("a table larger than one Java array is refused with a LimitException naming the limit (5x5, 7 tiles)")
    void tableLargerThanAnArrayIsRefused() throws Exception {
        byte[] file = bigTable(7);
        LimitException e = assertThrows(LimitException.class, () -> TableReader.read(TableReader.bytes(file)));
        assertTrue(e.getMessage().contains("2422728000") && e.getMessage().contains(Long.toString(TableReader.MAX_TABLE_BYTES)), e.getMessage());
    }

    @Test
    @DisplayName("a 6-tile table of the 48-puzzle (7x7: 10,068,347,520 entries) is refused with a LimitException, not an allocation")
    void table7x7SixTilesIsRefused() throws Exception {
        byte[] file = bigTable(6, 7);
        LimitException e = assertThrows(LimitException.class, () -> TableReader.read(TableReader.bytes(file)));
        assertTrue(e.getMessage().contains("10068347520"), e.getMessage());
    }

    /** "same" when c reads to good's values, "changed" when to others, else its class or "other: ...". */
    static String sameOrClass(Table good, byte[] c) {
        try {
            Table t = TableReader.read(TableReader.bytes(c));
            return Arrays.equals(t.values, good.values) ? "same" : "changed";
        } catch (TilepdbException e) {
            return e.kind.specName();
        } catch (Exception e) {
            return "other: " + e;
        }
    }

    static void assertClassOrSame(Table good, byte[] c) {
        String o = sameOrClass(good, c);
        assertTrue(CLASSES.contains(o) || o.equals("same"), o);
    }

    static byte[] headerJson(byte[] b) {
        int n = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        return Arrays.copyOfRange(b, 16, 16 + n);
    }

    static byte[] payload(byte[] b) {
        int n = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        return Arrays.copyOfRange(b, 48 + n, b.length);
    }

    /** A file of the given major version: prefix, header JSON, header SHA-256, payload. */
    static byte[] assemble(int major, byte[] json, byte[] payload) throws IOException {
        ByteBuffer pre = ByteBuffer.allocate(16 + json.length).order(ByteOrder.LITTLE_ENDIAN);
        pre.put("TILEPDB\u001a".getBytes(StandardCharsets.ISO_8859_1)).putShort((short) major).putShort((short) 0).putInt(json.length).put(json);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(pre.array());
        out.write(TableReader.sha256(pre.array(), 0, pre.array().length));
        out.write(payload);
        return out.toByteArray();
    }

    /** A well-formed format 1.0 file of a 5x5 table of `tiles` tiles with valid zstd frame headers (frames never decoded). */
    static byte[] bigTable(int tiles) throws Exception {
        return bigTable(tiles, 5);
    }

    /** The same on a side x side board. */
    static byte[] bigTable(int tiles, int side) throws Exception {
        int n = side * side;
        long entries = 1;
        for (int i = 0; i < tiles; i++) entries *= n - i;
        long s = 1L << 26;
        int nf = (int) ((entries + s - 1) / s);
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        StringBuilder sizes = new StringBuilder();
        for (int i = 0; i < nf; i++) {
            long raw = i < nf - 1 ? s : entries - s * (nf - 1);
            int len = 10 + 4 * (int) ((raw + 131071) / 131072);
            ByteBuffer f = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
            f.put(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, (byte) 0xe4}).putLong(raw);
            frames.write(f.array());
            sizes.append(i > 0 ? "," : "").append(len);
        }
        StringBuilder goal = new StringBuilder(), ts = new StringBuilder();
        for (int i = 0; i < n; i++) goal.append(i > 0 ? "," : "").append((i + 1) % n);
        for (int i = 1; i <= tiles; i++) ts.append(i > 1 ? "," : "").append(i);
        String json = "{\"width\":" + side + ",\"height\":" + side + ",\"goal\":[" + goal + "],\"goal_name\":\"blank-last\",\"tiles\":[" + ts
                + "],\"kind\":\"additive\",\"ranking\":\"cellset-order\",\"ranking_version\":1,\"entries\":" + entries
                + ",\"bits_per_entry\":8,\"max_value\":0,\"histogram\":[" + entries + "],\"raw_sha256\":\"" + "0".repeat(64)
                + "\",\"generator\":\"test\",\"frame_size\":" + s + ",\"frames\":[" + sizes + "]}";
        return assemble(1, json.getBytes(StandardCharsets.UTF_8), frames.toByteArray());
    }
}
