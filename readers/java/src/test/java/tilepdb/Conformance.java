package tilepdb;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs the project-wide conformance kit (index.json, see its README.md) against the Java reader. */
final class Conformance {
    private Conformance() {}

    @SuppressWarnings("unchecked")
    static int run(Path dir) throws Exception {
        Map<String, Object> index = (Map<String, Object>) Json.parse(Files.readString(dir.resolve("index.json"), StandardCharsets.UTF_8));
        ReaderTests.eq(1, num(index.get("kit_version")), "kit_version");
        List<Object> files = (List<Object>) index.get("files");
        for (Object o : files) {
            Map<String, Object> f = (Map<String, Object>) o;
            String name = (String) f.get("file");
            byte[] bytes = Files.readAllBytes(dir.resolve(name));
            String got = ReaderTests.outcome(bytes);
            if (f.get("expect").equals("error")) {
                ReaderTests.eq(f.get("error"), got, name + " (" + f.get("description") + ")");
                continue;
            }
            ReaderTests.eq("ok", got, name);
            Table t = TableReader.read(TableReader.bytes(bytes));
            Map<String, Object> want = (Map<String, Object>) f.get("table");
            ReaderTests.eq(want.get("format"), t.major + "." + t.minor, name + " format");
            ReaderTests.eq(num(want.get("width")), t.pattern.w, name);
            ReaderTests.eq(num(want.get("height")), t.pattern.h, name);
            ReaderTests.eq(ints(want.get("goal")), java.util.Arrays.toString(t.header.goal()), name + " goal");
            ReaderTests.eq(ints(want.get("tiles")), java.util.Arrays.toString(t.header.tiles()), name + " tiles");
            ReaderTests.eq(want.get("kind"), t.pattern.kind(), name);
            if (want.containsKey("encoding")) ReaderTests.eq(want.get("encoding"), t.header.encoding(), name + " encoding");
            ReaderTests.eq(num(want.get("entries")), t.header.entries(), name);
            ReaderTests.eq(num(want.get("max_value")), t.header.maxValue(), name);
            ReaderTests.eq(want.get("raw_sha256"), t.header.rawSha256(), name);
            for (Object r : (List<Object>) f.get("ranks")) {
                Map<String, Object> rv = (Map<String, Object>) r;
                ReaderTests.eq(num(rv.get("value")), t.values[(int) num(rv.get("rank"))] & 0xff, name + " rank " + rv.get("rank"));
            }
            for (Object b : (List<Object>) f.get("boards")) {
                Map<String, Object> bv = (Map<String, Object>) b;
                List<Object> cells = (List<Object>) bv.get("board");
                int[] board = cells.stream().mapToInt(c -> (int) num(c)).toArray();
                ReaderTests.eq(num(bv.get("rank")), t.pattern.rank(ReaderTests.pos(board)), name + " board rank");
                ReaderTests.eq(num(bv.get("value")), t.value(ReaderTests.pos(board)), name + " board value");
                // the checked lookup answers the goal's parity class, else throws UnsolvableException (format.Set.Lookup)
                if (t.pattern.solvablePositions(ReaderTests.pos(board))) ReaderTests.eq(num(bv.get("value")), t.lookup(board), name + " board lookup");
                else {
                    try {
                        t.lookup(board);
                        ReaderTests.check(false, name + " unsolvable board accepted");
                    } catch (UnsolvableException x) {
                        // expected
                    }
                }
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
