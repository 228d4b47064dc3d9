package tilepdb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;

/**
 * The repository's test files and small helpers shared by the tests.
 *
 * The tests read the files of this repository, found through the system
 * property {@code tilepdb.root} (the pom sets it to the repository root; it
 * defaults to the working directory): SPEC.md and its vectors in
 * format/testdata, the readers kit (readers/testdata/kit), the set kit
 * (readers/testdata/sets), the conformance kit (format/testdata/conformance,
 * or TILEPDB_CONFORMANCE_DIR) and, when built, the tables of data/.
 */
final class TestFiles {
    private TestFiles() {}

    static final Path root = Path.of(System.getProperty("tilepdb.root", ".")).toAbsolutePath().normalize();
    static final Path kit = root.resolve("readers/testdata/kit");
    static final Path sets = root.resolve("readers/testdata/sets");
    static final Path conformance = System.getenv("TILEPDB_CONFORMANCE_DIR") != null
            ? Path.of(System.getenv("TILEPDB_CONFORMANCE_DIR")) : root.resolve("format/testdata/conformance");
    static final Path data = root.resolve("data");
    /** The zero-aware conformance kit (SPEC.md section 11), beside the conformance kit. */
    static final Path conformanceZeroAware = conformance.resolveSibling("conformance-zero-aware");

    /** The SPEC error classes a damaged file may give. */
    static final List<String> CLASSES = List.of("format", "checksum", "unsupported", "unsupported-version");

    /** The rows of a TSV file, without blank and '#' lines. */
    static List<String[]> tsv(Path p) throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String l : Files.readAllLines(p)) if (!l.isEmpty() && !l.startsWith("#")) out.add(l.split("\t", -1));
        return out;
    }

    /** The text between SPEC.md's "<!-- name:begin -->" and "<!-- name:end -->" markers. */
    static String specBlock(String name) throws IOException {
        String spec = Files.readString(root.resolve("format/SPEC.md"));
        Matcher m = java.util.regex.Pattern.compile("<!-- " + name + ":begin[^>]*-->\\n```\\n([\\s\\S]*?)```\\n<!-- " + name + ":end -->").matcher(spec);
        assertTrue(m.find(), "SPEC.md has a " + name + " block");
        return m.group(1);
    }

    /** The goal board named "blank-last", "blank-first" or given as "t0 t1 ...". */
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

    /** The positions of a board: pos[tile] = cell. */
    static byte[] pos(int[] board) {
        byte[] p = new byte[board.length];
        for (int c = 0; c < board.length; c++) p[board[c]] = (byte) c;
        return p;
    }

    /** "ok", the SPEC error class of a file's bytes, or "other: ..." for anything else thrown. */
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

    /** Manhattan distance of tile t at cell c from its goal cell. */
    static int dist(Pattern p, int t, int c) {
        int g = p.goalPos[t];
        return Math.abs(c / p.w - g / p.w) + Math.abs(c % p.w - g % p.w);
    }

    interface Visit { void visit(int[] cells) throws Exception; }

    /** Calls v with every arrangement of k distinct cells out of n (n at most 31). */
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
