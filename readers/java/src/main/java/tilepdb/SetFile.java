package tilepdb;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Set files (format/SPEC.md sections 10 and 12): one additive table serving several
 * patterns through a board symmetry σ and a tile relabelling π(t) =
 * goal[σ(goal cell of t)]. A set file ({@code <name>.set.json}, UTF-8 JSON, at
 * most {@link #MAX_LEN} bytes) lists the parts of one heuristic, each with
 * the table it is looked up through. This class parses it with the types of
 * Go's format.SetFile (unknown keys ignored; a missing key or null is the
 * zero value, which the checks refuse), holds the symmetries and the check
 * that a table serves a pattern (Go's puzzle.MapPattern), and checks a set
 * file (version 1, or 2: a catalogue of partitions) against its tables with every MUST of section 10 in the order of the
 * Go reader, with its messages. {@link TableReader#openSet} and {@link
 * #open} use it.
 */
public final class SetFile {
    /** The newest set file version read ("tilepdb_set"): 1 (SPEC.md section 10) and 2 (catalogues, section 12); any other is refused. */
    public static final int VERSION = 2;
    /** Most partitions in a catalogue (set file version 2; SPEC.md section 12). */
    public static final int MAX_PARTITIONS = 64;
    /** Most parts over all partitions of a catalogue (SPEC.md section 12). */
    public static final int MAX_CATALOGUE_PARTS = 4096;
    /** Largest set file read, in bytes (1 MiB). */
    public static final int MAX_LEN = 1 << 20;
    /** The symmetry names of SPEC.md section 10, in Go's order; the last four need a square board. */
    public static final List<String> SYMMETRIES = List.of("identity", "rot90", "rot180", "rot270", "flip-lr", "flip-tb", "transpose", "anti-transpose");

    /** One part as written in the file. */
    public record PartSpec(long[] tiles, String table, long[] tableTiles, String symmetry, long[] tileMap, String tableRawSha256) {}

    public final long version, width, height;
    public final long[] goal;
    /** The parts, in file order (for a catalogue: partition by partition). */
    public final List<PartSpec> parts;
    /** For a catalogue (version 2), the parts of each partition; null for version 1. */
    public final List<List<PartSpec>> partitions;

    private SetFile(long version, long width, long height, long[] goal, List<PartSpec> parts, List<List<PartSpec>> partitions) {
        this.version = version;
        this.width = width;
        this.height = height;
        this.goal = goal;
        this.parts = parts;
        this.partitions = partitions;
    }

    /** How deep arrays and objects may nest in a set file (the top-level object counts as 1; SPEC.md section 10.1). */
    public static final int MAX_DEPTH = 64;
    /** Longest table name in a set file, in bytes (SPEC.md section 10.2). */
    public static final int MAX_TABLE_NAME_LEN = 255;

    /**
     * Bad content in a set file: the message without "NAME: tilepdb: invalid
     * set: "; part is its part number (within its partition), 0 for the file
     * or a whole partition; partition the partition number of a catalogue, else 0.
     */
    static final class Problem extends Exception {
        final int part, partition;

        Problem(String msg) { this(msg, 0); }

        Problem(String msg, int part) { this(msg, part, 0); }

        Problem(String msg, int part, int partition) {
            super(msg);
            this.part = part;
            this.partition = partition;
        }
    }

    /**
     * Whether bytes (the start of a file) look like a set file (SPEC.md
     * section 10.3, format.IsSetFile): after an optional UTF-8 byte-order
     * mark and JSON white space (space, tab, LF, CR) comes '{'. Returns
     * TRUE or FALSE, or null when the bytes hold only the mark and white
     * space (look further, up to {@link #MAX_LEN} bytes; a file that is all
     * white space there is not a set file). offset is where b starts in the file.
     */
    public static Boolean looksLikeSetFile(byte[] b, int len, long offset) {
        int i = 0;
        if (offset == 0 && len >= 3 && (b[0] & 0xff) == 0xef && (b[1] & 0xff) == 0xbb && (b[2] & 0xff) == 0xbf) i = 3;
        for (; i < len; i++) {
            byte c = b[i];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
            return c == '{';
        }
        return null;
    }

    /** Whether b[0..len) (the start of a file) looks like a set file; see {@link #looksLikeSetFile(byte[], int, long)}. */
    public static boolean looksLikeSetFile(byte[] b, int len) {
        return Boolean.TRUE.equals(looksLikeSetFile(b, len, 0));
    }

    /**
     * Whether name is a plain file name in the set file's directory (SPEC.md
     * section 10.2): 1 to {@link #MAX_TABLE_NAME_LEN} bytes of UTF-8, no '/',
     * '\\' or ':', not "." or "..", no control character (U+0000 to U+001F,
     * U+007F to U+009F).
     */
    static boolean validTableName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.getBytes(StandardCharsets.UTF_8).length > MAX_TABLE_NAME_LEN) return false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\' || c == ':' || c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false;
        }
        return true;
    }

    private static String kindOf(Object v) { return Json.kindOf(v); }

    /**
     * Parses a set file by the JSON rules and required keys of SPEC.md
     * section 10, in the order of Go's format.ParseSetFile, with its
     * messages: no byte-order mark, valid UTF-8, the JSON rules of {@link
     * Json} with nesting at most {@link #MAX_DEPTH}, a JSON object;
     * tilepdb_set first (present, an integer, 1 or 2); then every required
     * key present, not null, of its type: width, height, goal, then parts
     * (version 1) or partitions (version 2, SPEC.md section 12: an array of
     * arrays of parts), and in each part tiles, table, table_tiles,
     * symmetry, tile_map, table_raw_sha256 ("partition I part J: " before a
     * catalogue's part messages). Unknown keys are ignored. Throws Problem
     * (the first).
     */
    static SetFile parse(byte[] data) throws Problem {
        if (data.length >= 3 && (data[0] & 0xff) == 0xef && (data[1] & 0xff) == 0xbb && (data[2] & 0xff) == 0xbf)
            throw new Problem("not a set file: starts with a byte-order mark");
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(data)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new Problem("not a set file: not valid UTF-8");
        }
        Object v;
        try {
            v = Json.parse(text, MAX_DEPTH);
        } catch (Json.JsonException e) {
            throw new Problem("not a set file: " + e.getMessage());
        } catch (StackOverflowError e) {
            // Cannot happen with the depth bound; a clear refusal all the same.
            throw new Problem("not a set file: JSON nested deeper than " + MAX_DEPTH + " levels");
        }
        if (!(v instanceof Map<?, ?> obj)) throw new Problem("not a set file: want a JSON object, found " + kindOf(v));
        long version = integer(obj, "tilepdb_set", 0);
        if (version != 1 && version != 2) throw new Problem("set file version " + version + " is not supported (this reader supports 1 and 2)");
        long width = integer(obj, "width", 0), height = integer(obj, "height", 0);
        long[] goal = ints(obj, "goal", 0);
        String key = version == 1 ? "parts" : "partitions";
        Object pv = field(obj, key, 0);
        if (!(pv instanceof List<?> list)) throw new Problem("key \"" + key + "\": want an array of " + (version == 1 ? "objects" : "arrays") + ", found " + kindOf(pv));
        List<PartSpec> parts = new ArrayList<>();
        if (version == 1) {
            int no = 0;
            for (Object p : list) parts.add(part(p, ++no, 0));
            return new SetFile(version, width, height, goal, parts, null);
        }
        List<List<PartSpec>> partitions = new ArrayList<>();
        int i = 0;
        for (Object q : list) {
            i++;
            if (!(q instanceof List<?> qs)) throw new Problem("partition " + i + ": want an array, found " + kindOf(q), 0, i);
            List<PartSpec> ps = new ArrayList<>();
            int no = 0;
            for (Object p : qs) ps.add(part(p, ++no, i));
            partitions.add(List.copyOf(ps));
            parts.addAll(ps);
        }
        return new SetFile(version, width, height, goal, parts, List.copyOf(partitions));
    }

    /** One part object: part number no within partition (0 for version 1). */
    private static PartSpec part(Object p, int no, int partition) throws Problem {
        try {
            if (!(p instanceof Map<?, ?> m)) throw keyProblem("want an object, found " + kindOf(p), no);
            return new PartSpec(ints(m, "tiles", no), string(m, "table", no), ints(m, "table_tiles", no),
                    string(m, "symmetry", no), ints(m, "tile_map", no), string(m, "table_raw_sha256", no));
        } catch (Problem e) {
            if (partition == 0) throw e;
            throw new Problem("partition " + partition + " " + e.getMessage(), e.part, partition);
        }
    }

    private static Problem keyProblem(String msg, int part) {
        return new Problem(part > 0 ? "part " + part + ": " + msg : msg, part);
    }

    /** A required key: present and not null. */
    private static Object field(Map<?, ?> o, String key, int part) throws Problem {
        if (!o.containsKey(key)) throw keyProblem("required key \"" + key + "\" is missing", part);
        Object v = o.get(key);
        if (v == null) throw keyProblem("key \"" + key + "\" is null", part);
        return v;
    }

    /** An integer of a set file (format's jsonInt): no fraction or exponent ("-0" is 0), within int64; null with the message in msg[0] otherwise. */
    private static Long intOf(Object v, String[] msg) {
        if (!(v instanceof Json.Num num)) {
            msg[0] = "want an integer, found " + kindOf(v);
            return null;
        }
        String t = num.text();
        if (t.contains(".") || t.contains("e") || t.contains("E")) {
            msg[0] = t + " is not an integer";
            return null;
        }
        BigInteger b = new BigInteger(t);
        if (b.compareTo(Json.INT64_MIN) < 0 || b.compareTo(Json.INT64_MAX) > 0) {
            msg[0] = t + " is out of range";
            return null;
        }
        return b.longValueExact();
    }

    private static long integer(Map<?, ?> o, String key, int part) throws Problem {
        String[] msg = new String[1];
        Long x = intOf(field(o, key, part), msg);
        if (x == null) throw keyProblem("key \"" + key + "\": " + msg[0], part);
        return x;
    }

    private static long[] ints(Map<?, ?> o, String key, int part) throws Problem {
        Object v = field(o, key, part);
        if (!(v instanceof List<?> list)) throw keyProblem("key \"" + key + "\": want an array of integers, found " + kindOf(v), part);
        long[] out = new long[list.size()];
        String[] msg = new String[1];
        for (int i = 0; i < out.length; i++) {
            Long x = intOf(list.get(i), msg);
            if (x == null) throw keyProblem("key \"" + key + "\"[" + i + "]: " + msg[0], part);
            out[i] = x;
        }
        return out;
    }

    private static String string(Map<?, ?> o, String key, int part) throws Problem {
        Object v = field(o, key, part);
        if (!(v instanceof String s)) throw keyProblem("key \"" + key + "\": want a string, found " + kindOf(v), part);
        return s;
    }

    /** Go's %v of a list of integers: "[2 3 4]". */
    static String goList(long[] xs) {
        StringJoiner j = new StringJoiner(" ", "[", "]");
        for (long x : xs) j.add(Long.toString(x));
        return j.toString();
    }

    static String goList(byte[] xs) {
        StringJoiner j = new StringJoiner(" ", "[", "]");
        for (byte x : xs) j.add(Integer.toString(x));
        return j.toString();
    }

    /** Whether symmetry name maps a w x h board onto itself. */
    public static boolean validOn(String sym, int w, int h) {
        return switch (sym) {
            case "identity", "rot180", "flip-lr", "flip-tb" -> true;
            case "rot90", "rot270", "transpose", "anti-transpose" -> w == h;
            default -> false;
        };
    }

    /** Image of cell under symmetry sym (valid on the board) on w columns and h rows, by the table of SPEC.md section 10. */
    public static int cell(String sym, int w, int h, int cell) {
        int r = cell / w, c = cell % w;
        int[] rc = switch (sym) {
            case "rot90" -> new int[] {c, h - 1 - r};
            case "rot180" -> new int[] {h - 1 - r, w - 1 - c};
            case "rot270" -> new int[] {w - 1 - c, r};
            case "flip-lr" -> new int[] {r, w - 1 - c};
            case "flip-tb" -> new int[] {h - 1 - r, c};
            case "transpose" -> new int[] {c, r};
            case "anti-transpose" -> new int[] {w - 1 - c, h - 1 - r};
            default -> new int[] {r, c};
        };
        return rc[0] * w + rc[1];
    }

    /** The blank's goal region of p as a bit mask (bit c = cell c, up to 64 cells): cells reachable from the goal's blank cell through cells holding none of p's tiles at the goal. */
    static long goalBlankRegion(Pattern p) {
        long occupied = 0;
        for (byte t : p.tiles) occupied |= 1L << p.goalPos[t];
        int start = p.goalPos[0];
        long region = 1L << start;
        int[] stack = new int[p.n];
        int sp = 0;
        stack[sp++] = start;
        while (sp > 0) {
            int c = stack[--sp];
            int r = c / p.w, col = c % p.w;
            int[] next = {r > 0 ? c - p.w : -1, r < p.h - 1 ? c + p.w : -1, col > 0 ? c - 1 : -1, col < p.w - 1 ? c + 1 : -1};
            for (int nb : next) {
                if (nb < 0 || (occupied & (1L << nb)) != 0 || (region & (1L << nb)) != 0) continue;
                region |= 1L << nb;
                stack[sp++] = nb;
            }
        }
        return region;
    }

    /**
     * The symmetric use of the table of pattern to for pattern from (puzzle.MapPattern):
     * cell[c] = σ(c), tile[t] = π(t), src[j] = the from tile looked up as to.tiles[j].
     */
    public record Mapping(byte[] cell, byte[] tile, byte[] src) {}

    /**
     * Checks that the table of to serves from through sym: neither exact, sym
     * valid on the board, from's goal cells mapped exactly onto to's, and the
     * blank's goal region of from onto to's. Throws Problem with Go's message
     * (from "bad symmetry: ").
     */
    static Mapping map(Pattern from, Pattern to, String sym) throws Problem {
        int w = from.w, h = from.h, n = from.n;
        if (to.w != w || to.h != h) throw new Problem("bad symmetry: pattern " + from + " is on a " + w + "x" + h + " board, its table " + to + " on " + to.w + "x" + to.h);
        if (!Arrays.equals(to.goal, from.goal)) throw new Problem("bad symmetry: pattern " + from + " has goal \"" + Boards.format(from.goal) + "\", its table " + to + " has goal \"" + Boards.format(to.goal) + "\"");
        if (from.exact || to.exact) throw new Problem("bad symmetry: exact tables (" + to + ") serve only themselves");
        if (!validOn(sym, w, h)) throw new Problem("bad symmetry: " + sym + " does not map a " + w + "x" + h + " board onto itself (square boards only)");
        if (from.tiles.length != to.tiles.length) throw new Problem("bad symmetry: pattern " + from + " has " + from.tiles.length + " tiles, its table " + to + " has " + to.tiles.length);
        byte[] cell = new byte[n];
        for (int c = 0; c < n; c++) cell[c] = (byte) cell(sym, w, h, c);
        byte[] tile = new byte[n];
        for (int c = 0; c < n; c++) tile[from.goal[c]] = from.goal[cell[c]];
        Map<Integer, Integer> idx = new HashMap<>();
        for (int j = 0; j < to.tiles.length; j++) idx.put((int) to.tiles[j], j);
        byte[] src = new byte[to.tiles.length];
        for (byte t : from.tiles) {
            Integer j = idx.get((int) tile[t]);
            if (j == null) {
                int g = from.goalPos[t];
                throw new Problem("bad symmetry: " + sym + " maps the goal cell " + g + " of tile " + t + " of " + from + " to cell " + cell[g] + ", which is not a goal cell of " + to);
            }
            src[j] = t;
        }
        long fromRegion = goalBlankRegion(from), img = 0;
        for (int c = 0; c < n; c++) if ((fromRegion & (1L << c)) != 0) img |= 1L << cell[c];
        if (img != goalBlankRegion(to))
            throw new Problem("bad symmetry: " + sym + " maps the blank's goal region of " + from + " (the free cells around goal cell " + from.goalPos[0] + ") onto another region than that of " + to);
        return new Mapping(cell, tile, src);
    }

    /** Reads the table file of a name, for part "part N" (where). */
    public interface Tables {
        Table read(String name, String where) throws java.io.IOException, TilepdbException, LimitException;
    }

    /** The parts of a set file checked against its tables ({@link #parts}), the names of the parts in errors, and for a catalogue the indices into parts of each partition's parts (null for version 1). */
    record Checked(List<TableSet.Part> parts, List<String> names, int[][] partitions) {}

    /**
     * Checks this set file (named file in errors) against its tables, read
     * with tables, with every MUST of SPEC.md sections 10 and 12 in the
     * order of Go's reader, and returns its parts.
     */
    Checked parts(String file, Tables tables) throws java.io.IOException, TilepdbException, LimitException {
        if (width < Pattern.MIN_SIDE || width > Pattern.MAX_SIDE || height < Pattern.MIN_SIDE || height > Pattern.MAX_SIDE)
            throw bad(file, 0, "board " + width + "x" + height + ": each side must be between " + Pattern.MIN_SIDE + " and " + Pattern.MAX_SIDE);
        int w = (int) width, h = (int) height, n = w * h;
        if (goal.length != n) throw bad(file, 0, "goal has " + goal.length + " cells, want " + n);
        int[] g = new int[n];
        for (int c = 0; c < n; c++) {
            if (goal[c] < 0 || goal[c] >= n) throw bad(file, 0, "goal cell " + c + " holds " + goal[c] + ", not a tile of 0.." + (n - 1));
            g[c] = (int) goal[c];
        }
        String gErr = Boards.validate(g, n);
        if (gErr != null) throw bad(file, 0, "goal: " + gErr);
        List<List<PartSpec>> groups;
        if (partitions == null) {
            if (parts.isEmpty() || parts.size() > n - 1) throw bad(file, 0, parts.size() + " parts, want 1 to " + (n - 1));
            groups = List.of(parts);
        } else {
            int np = partitions.size();
            if (np == 0 || np > MAX_PARTITIONS) throw bad(file, 0, np + " partitions, want 1 to " + MAX_PARTITIONS);
            for (int i = 0; i < np; i++) {
                int k = partitions.get(i).size();
                if (k == 0 || k > n - 1) throw new SetFileException(file + ": tilepdb: invalid set: partition " + (i + 1) + ": " + k + " parts, want 1 to " + (n - 1), file, 0, i + 1);
            }
            if (parts.size() > MAX_CATALOGUE_PARTS) throw bad(file, 0, parts.size() + " parts in all, want at most " + MAX_CATALOGUE_PARTS);
            groups = partitions;
        }
        List<TableSet.Part> out = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int[][] idx = partitions == null ? null : new int[partitions.size()][];
        for (int k = 0; k < groups.size(); k++) {
            List<PartSpec> ps = groups.get(k);
            int partition = partitions == null ? 0 : k + 1;
            if (idx != null) idx[k] = new int[ps.size()];
            for (int i = 0; i < ps.size(); i++) {
                String where = (partition > 0 ? "partition " + partition + " " : "") + "part " + (i + 1);
                if (idx != null) idx[k][i] = out.size();
                out.add(part(file, ps.get(i), where, i + 1, partition, w, h, g, tables));
                names.add(file + " " + where);
            }
        }
        return new Checked(out, names, idx);
    }

    /** Checks one part (SPEC.md 10.3 step 5, 12 step 7); where names it ("part J" or "partition I part J"). */
    private static TableSet.Part part(String file, PartSpec sp, String where, int no, int partition, int w, int h, int[] g, Tables tables)
            throws java.io.IOException, TilepdbException, LimitException {
        int n = w * h;
        long[] ts = sp.tiles();
        if (ts.length == 0) throw bad(file, no, partition, where + ": tiles: empty");
        for (int j = 0; j < ts.length; j++) {
            if (ts[j] < 1 || ts[j] >= n || (j > 0 && ts[j] <= ts[j - 1]))
                throw bad(file, no, partition, where + ": tiles: " + goList(ts) + " is not a strictly ascending list of tiles 1.." + (n - 1));
        }
        if (ts.length == n - 2)
            throw bad(file, no, partition, where + ": bad pattern: " + (n - 2) + " of " + (n - 1) + " tiles leaves one non-pattern tile, so some placements are unreachable; use all " + (n - 1) + " tiles (the exact table) or at most " + (n - 3));
        int[] tiles = new int[ts.length];
        for (int j = 0; j < ts.length; j++) tiles[j] = (int) ts[j];
        Pattern p;
        try {
            p = new Pattern(w, h, g, tiles);
        } catch (BoardException e) {
            throw bad(file, no, partition, where + ": " + e.getMessage());
        }
        String sym = sp.symmetry();
        if (!SYMMETRIES.contains(sym)) throw bad(file, no, partition, where + ": bad symmetry: " + Json.quoteName(sym) + " is not one of " + String.join(", ", SYMMETRIES));
        String name = sp.table();
        String qname = Json.quoteName(name);
        if (!validTableName(name)) throw bad(file, no, partition, where + ": table " + qname + " must be a plain file name in the set file's directory");
        Table t = tables.read(name, where);
        Pattern tp = t.pattern;
        if (tp.w != w || tp.h != h) throw bad(file, no, partition, where + ": table " + qname + " is for a " + tp.w + "x" + tp.h + " board, the set for " + w + "x" + h);
        byte[] gb = new byte[n];
        for (int c = 0; c < n; c++) gb[c] = (byte) g[c];
        if (!Arrays.equals(tp.goal, gb)) throw bad(file, no, partition, where + ": table " + qname + " has goal \"" + Boards.format(tp.goal) + "\", the set \"" + Boards.format(gb) + "\"");
        boolean sameTiles = sp.tableTiles().length == tp.tiles.length;
        for (int j = 0; sameTiles && j < tp.tiles.length; j++) sameTiles = sp.tableTiles()[j] == tp.tiles[j];
        if (!sameTiles) throw bad(file, no, partition, where + ": table " + qname + " holds tiles " + goList(tp.tiles) + ", the set file says " + goList(sp.tableTiles()));
        if (!sp.tableRawSha256().equals(t.header.rawSha256()))
            throw bad(file, no, partition, where + ": table " + qname + " has raw_sha256 " + t.header.rawSha256() + ", the set file says " + Json.quoteName(sp.tableRawSha256()));
        // SPEC.md section 10: no table of a set file is exact (an exact table serves only itself, alone).
        if (tp.exact) throw bad(file, no, partition, where + ": table " + qname + " is an exact table (" + tp + "); a set file lists additive tables only");
        Mapping m = null;
        long[] tileMap = new long[p.tiles.length];
        for (int j = 0; j < tileMap.length; j++) tileMap[j] = p.tiles[j];
        if (!(sym.equals("identity") && Arrays.equals(p.tiles, tp.tiles))) {
            try {
                m = map(p, tp, sym);
            } catch (Problem e) {
                throw new SetFileException(file + ": " + where + " (tiles " + goList(ts) + ") through table " + qname + ": tilepdb: invalid set: " + e.getMessage(), file, no, partition);
            }
            for (int j = 0; j < tileMap.length; j++) tileMap[j] = m.tile()[p.tiles[j]];
        }
        if (!Arrays.equals(sp.tileMap(), tileMap))
            throw bad(file, no, partition, where + ": tile_map " + goList(sp.tileMap()) + ", but " + sym + " maps tiles " + goList(ts) + " to " + goList(tileMap));
        return new TableSet.Part(p, t, sym, m);
    }

    private static SetFileException bad(String file, int part, String msg) {
        return bad(file, part, 0, msg);
    }

    private static SetFileException bad(String file, int part, int partition, String msg) {
        return new SetFileException(file + ": tilepdb: invalid set: " + msg, file, part, partition);
    }

    /**
     * The set described by a set file given as bytes (UTF-8 JSON, at most
     * {@link #MAX_LEN}), named name in errors, with its tables read by name
     * through tables (for example from a URL or a jar). A table named by
     * several parts is read once. Throws SetFileException for a malformed
     * set file or one that does not hold together with its tables, and the
     * tables' own errors.
     */
    public static TableSet open(byte[] data, String name, Tables tables) throws java.io.IOException, TilepdbException, LimitException {
        if (data.length > MAX_LEN) throw new SetFileException(name + ": tilepdb: invalid set: larger than " + MAX_LEN + " bytes", name, 0);
        SetFile sf;
        try {
            sf = parse(data);
        } catch (Problem e) {
            throw new SetFileException(name + ": tilepdb: invalid set: " + e.getMessage(), name, e.part, e.partition);
        }
        Map<String, Table> cache = new HashMap<>();
        Checked c = sf.parts(name, (tname, where) -> {
            Table t = cache.get(tname);
            if (t == null) {
                try {
                    t = tables.read(tname, where);
                } catch (TilepdbException e) {
                    throw e instanceof SetFileException ? e : e.withPath(name + ": " + where + ": " + tname);
                }
                cache.put(tname, t);
            }
            return t;
        });
        return TableSet.ofParts(c.parts(), c.names(), true, c.partitions());
    }
}
