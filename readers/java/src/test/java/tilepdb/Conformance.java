package tilepdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs a project-wide conformance kit (index.json, see its README.md) against the Java reader (TableReaderTest,
 * ZeroAwareTest). In the zero-aware kit every rank is a zero-aware index (SPEC.md 11.2).
 */
final class Conformance {
    private Conformance() {}

    @SuppressWarnings("unchecked")
    static int run(Path dir) throws Exception {
        Map<String, Object> index = (Map<String, Object>) Json.parse(Files.readString(dir.resolve("index.json"), StandardCharsets.UTF_8));
        assertEquals(1, num(index.get("kit_version")), "kit_version");
        List<Object> files = (List<Object>) index.get("files");
        for (Object o : files) {
            Map<String, Object> f = (Map<String, Object>) o;
            String name = (String) f.get("file");
            byte[] bytes = Files.readAllBytes(dir.resolve(name));
            String got = TestFiles.outcome(bytes);
            if (f.get("expect").equals("error")) {
                assertEquals(f.get("error"), got, name + " (" + f.get("description") + ")");
                continue;
            }
            assertEquals("ok", got, name);
            Table t = TableReader.read(TableReader.bytes(bytes));
            Map<String, Object> want = (Map<String, Object>) f.get("table");
            assertEquals(want.get("format"), t.major + "." + t.minor, name + " format");
            assertEquals(num(want.get("width")), t.pattern.w, name);
            assertEquals(num(want.get("height")), t.pattern.h, name);
            assertEquals(ints(want.get("goal")), java.util.Arrays.toString(t.header.goal()), name + " goal");
            assertEquals(ints(want.get("tiles")), java.util.Arrays.toString(t.header.tiles()), name + " tiles");
            assertEquals(want.get("kind"), t.zeroAware() ? Regions.KIND : t.pattern.kind(), name);
            assertEquals(want.get("kind"), t.header.kind(), name + " header kind");
            if (want.containsKey("encoding")) assertEquals(want.get("encoding"), t.header.encoding(), name + " encoding");
            assertEquals(num(want.get("entries")), t.header.entries(), name);
            assertEquals(num(want.get("max_value")), t.header.maxValue(), name);
            assertEquals(want.get("raw_sha256"), t.header.rawSha256(), name);
            for (Object r : (List<Object>) f.get("ranks")) {
                Map<String, Object> rv = (Map<String, Object>) r;
                assertEquals(num(rv.get("value")), t.values[(int) num(rv.get("rank"))] & 0xff, name + " rank " + rv.get("rank"));
            }
            for (Object b : (List<Object>) f.get("boards")) {
                Map<String, Object> bv = (Map<String, Object>) b;
                List<Object> cells = (List<Object>) bv.get("board");
                int[] board = cells.stream().mapToInt(c -> (int) num(c)).toArray();
                long at = t.zeroAware() ? t.regions.index(TestFiles.pos(board)) : t.pattern.rank(TestFiles.pos(board));
                assertEquals(num(bv.get("rank")), at, name + " board rank");
                assertEquals(num(bv.get("value")), t.value(TestFiles.pos(board)), name + " board value");
                // the checked lookup answers the goal's parity class, else throws UnsolvableException (format.Set.Lookup)
                if (t.pattern.solvablePositions(TestFiles.pos(board))) assertEquals(num(bv.get("value")), t.lookup(board), name + " board lookup");
                else assertThrows(UnsolvableException.class, () -> t.lookup(board), name + " unsolvable board");
            }
        }
        return files.size();
    }

    static long num(Object o) {
        return new BigInteger(((Json.Num) o).text()).longValueExact();
    }

    @SuppressWarnings("unchecked")
    static String ints(Object o) {
        return ((List<Object>) o).stream().map(x -> Long.toString(num(x))).collect(java.util.stream.Collectors.joining(", ", "[", "]"));
    }
}
