package tilepdb;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Reads and verifies tilepdb table files of formats 1.x and 2.x
 * (format/SPEC.md) in the strict order of SPEC.md section 3: size and magic,
 * version, header length, header SHA-256, header JSON (its rules and
 * types) and sanity, frame layout against the file size, the payload
 * SHA-256 (2.x), every zstd frame header, then (only now allocating the
 * table) decompression of every frame with its zstd content checksum
 * (zstd-jni, libzstd), decoding of format 2 codes, the raw SHA-256 and a
 * recount of the histogram. Nothing the file says is trusted for an
 * allocation before it is checked against the file size.
 *
 * <pre>
 * Table t = TableReader.readFile("data/8puzzle.pdb");
 * int moves = t.lookup(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 0});
 * TableSet set = TableReader.openSet(List.of("a.pdb", "b.pdb", "c.pdb"));
 * int h = set.lookup(board); // UnsolvableException for the other parity class
 * </pre>
 */
public final class TableReader {
    private TableReader() {}

    static final byte[] MAGIC = {0x54, 0x49, 0x4c, 0x45, 0x50, 0x44, 0x42, 0x1a};
    public static final int MAX_HEADER_LEN = 16 << 20;
    public static final int MIN_FRAME_SIZE = 1 << 10, MAX_FRAME_SIZE = 1 << 26;
    public static final int BITS_PER_ENTRY = 8, UNREACHED = 255;
    /** Largest table this reader holds: one Java byte array. */
    public static final long MAX_TABLE_BYTES = Integer.MAX_VALUE - 8;
    private static final int PREFIX_LEN = 16, CHECKSUM_LEN = 32, OFF_HEADER = 16;

    /** Random access to the bytes of a file. */
    public interface Source {
        long size();

        /** Reads up to len bytes at off; fewer only at the end of the data. */
        byte[] read(long off, int len) throws IOException;
    }

    /** A source over bytes in memory. */
    public static Source bytes(byte[] b) {
        return new Source() {
            public long size() { return b.length; }

            public byte[] read(long off, int len) {
                int from = (int) Math.min(off, b.length);
                return java.util.Arrays.copyOfRange(b, from, (int) Math.min((long) from + len, b.length));
            }
        };
    }

    /** Reads and verifies the table file at path; errors name the path. */
    public static Table readFile(String path) throws IOException, TilepdbException, LimitException {
        String notRegular = notRegular(java.nio.file.Path.of(path));
        if (notRegular != null) throw new IOException(path + ": not a regular file (" + notRegular + ")");
        try (RandomAccessFile f = new RandomAccessFile(path, "r")) {
            final long size = f.length();
            Source src = new Source() {
                public long size() { return size; }

                public byte[] read(long off, int len) throws IOException {
                    byte[] b = new byte[(int) Math.max(0, Math.min(len, size - off))];
                    f.seek(off);
                    f.readFully(b);
                    return b;
                }
            };
            try {
                return read(src);
            } catch (TilepdbException e) {
                throw e.withPath(path);
            } catch (LimitException e) {
                throw new LimitException(path + ": " + e.getMessage());
            }
        }
    }

    /**
     * Reads every path and groups them into one heuristic, like Go's
     * format.OpenSet and {@code pdbgen lookup}: each path is a table file
     * (used for its own pattern) or a set file ({@code <name>.set.json},
     * SPEC.md section 10: its parts, with their tables read from the set
     * file's directory and checked, each table file once; or a catalogue,
     * section 12, used alone: the other paths may only be tables it names). Set files'
     * parts come first, in order,
     * then the tables given directly; a table given both directly and
     * through a set file is used once (through the set file). Errors name
     * the paths: the tables' own, SetException for tables that do not form a
     * set, SetFileException (bad data) for a set file that is malformed or
     * inconsistent with its tables (grouping errors included once a set
     * file is involved).
     */
    public static TableSet openSet(List<String> paths) throws IOException, TilepdbException, LimitException, TableSet.SetException {
        Map<java.nio.file.Path, Table> tables = new java.util.HashMap<>();
        boolean[] isSet = new boolean[paths.size()];
        for (int i = 0; i < paths.size(); i++) isSet[i] = isSetFile(paths.get(i));
        List<String> names = new ArrayList<>();
        List<TableSet.Part> parts = new ArrayList<>();
        java.util.Set<java.nio.file.Path> used = new java.util.HashSet<>();
        SetFile.Checked catalogue = null; // the first catalogue among the set files
        String catalogueFile = null;
        List<String> setPaths = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            if (!isSet[i]) continue;
            String path = paths.get(i);
            byte[] data = readSetFileBytes(path);
            SetFile sf;
            try {
                sf = SetFile.parse(data);
            } catch (SetFile.Problem e) {
                throw new SetFileException(path + ": tilepdb: invalid set: " + e.getMessage(), path, e.part, e.partition);
            }
            SetFile.Checked ps = sf.parts(path, (tname, where) -> {
                String tpath = sibling(path, tname);
                try {
                    return readCached(tables, tpath);
                } catch (TilepdbException e) {
                    throw e.withPath(path + ": " + where);
                } catch (LimitException e) {
                    throw new LimitException(path + ": " + where + ": " + e.getMessage());
                } catch (IOException e) {
                    throw new IOException(path + ": " + where + ": " + Cli.systemMessage(e), e);
                }
            });
            for (SetFile.PartSpec p : sf.parts) used.add(key(sibling(path, p.table())));
            setPaths.add(path);
            if (ps.partitions() != null) {
                if (catalogue == null) {
                    catalogue = ps;
                    catalogueFile = path;
                }
                continue;
            }
            names.addAll(ps.names());
            parts.addAll(ps.parts());
        }
        if (catalogue != null) {
            // SPEC.md section 12: a catalogue is a whole heuristic, given alone or with the tables it names
            for (String p : setPaths) if (!p.equals(catalogueFile)) throw alone(catalogueFile, p);
            if (setPaths.size() > 1) throw alone(catalogueFile, catalogueFile); // the catalogue named twice
            for (int i = 0; i < paths.size(); i++) if (!isSet[i] && !used.contains(key(paths.get(i)))) throw alone(catalogueFile, paths.get(i));
            return TableSet.ofParts(catalogue.parts(), catalogue.names(), true, catalogue.partitions());
        }
        for (int i = 0; i < paths.size(); i++) {
            if (isSet[i] || used.contains(key(paths.get(i)))) continue;
            names.add(paths.get(i));
            parts.add(new TableSet.Part(readCached(tables, paths.get(i))));
        }
        boolean anySet = false;
        for (boolean b : isSet) anySet |= b;
        try {
            return TableSet.ofParts(parts, names, anySet);
        } catch (IllegalArgumentException e) {
            if (e.getCause() instanceof TableSet.SetException se) throw se;
            throw e;
        }
    }

    private static SetFileException alone(String catalogue, String other) {
        return new SetFileException(catalogue + ": tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with " + other, catalogue, 0);
    }

    /** Reads the set file at path (the set described, with its tables); see {@link #openSet}. */
    public static TableSet openSetFile(String path) throws IOException, TilepdbException, LimitException, TableSet.SetException {
        return openSet(List.of(path));
    }

    private static Table readCached(Map<java.nio.file.Path, Table> tables, String path) throws IOException, TilepdbException, LimitException {
        java.nio.file.Path k = key(path);
        Table t = tables.get(k);
        if (t == null) {
            t = readFile(path);
            tables.put(k, t);
        }
        return t;
    }

    private static java.nio.file.Path key(String path) {
        return java.nio.file.Path.of(path).toAbsolutePath().normalize();
    }

    /** The file name in the directory of the set file at path, cleaned as Go's filepath.Join. */
    private static String sibling(String path, String name) {
        return java.nio.file.Path.of(path).resolveSibling(name).normalize().toString();
    }

    /**
     * What p names when it exists (symbolic links followed) and is not a
     * regular file, in the words of pdbgen (Go's internal/regular): "a
     * directory", "a named pipe", "a socket", "a character device", "a
     * device" or "an irregular file"; null for a regular file or a path
     * that cannot be examined (opening it then says why). The kinds other
     * than a directory come from the "unix:mode" attribute where the
     * platform has it.
     */
    static String notRegular(java.nio.file.Path p) {
        java.nio.file.attribute.BasicFileAttributes a;
        try {
            a = java.nio.file.Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class);
        } catch (IOException e) {
            return null;
        }
        if (a.isRegularFile()) return null;
        if (a.isDirectory()) return "a directory";
        try {
            int mode = (Integer) java.nio.file.Files.getAttribute(p, "unix:mode");
            switch (mode & 0170000) { // S_IFMT
                case 0010000: return "a named pipe";
                case 0140000: return "a socket";
                case 0020000: return "a character device";
                case 0060000: return "a device";
                default: break;
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            // no unix attribute view: say no more than BasicFileAttributes does
        }
        return "an irregular file";
    }

    /**
     * Whether the file at path is a set file (SPEC.md section 10.3,
     * format.IsSetFile): after an optional byte-order mark and JSON white
     * space, among its first {@link SetFile#MAX_LEN} bytes, comes '{'; false
     * for a non-regular file.
     */
    public static boolean isSetFile(String path) throws IOException {
        if (notRegular(java.nio.file.Path.of(path)) != null) return false;
        try (java.io.InputStream in = new java.io.FileInputStream(path)) {
            for (long off = 0; off < SetFile.MAX_LEN; ) {
                byte[] b = in.readNBytes((int) Math.min(4096, SetFile.MAX_LEN - off));
                if (b.length == 0) return false;
                Boolean got = SetFile.looksLikeSetFile(b, b.length, off);
                if (got != null) return got;
                off += b.length;
            }
            return false;
        }
    }

    private static byte[] readSetFileBytes(String path) throws IOException, SetFileException {
        try (java.io.InputStream in = new java.io.FileInputStream(path)) {
            byte[] b = in.readNBytes(SetFile.MAX_LEN + 1);
            if (b.length > SetFile.MAX_LEN) throw new SetFileException(path + ": tilepdb: invalid set: larger than " + SetFile.MAX_LEN + " bytes", path, 0);
            return b;
        }
    }

    private static byte[] readExactly(Source src, long off, int len) throws IOException, TilepdbException {
        byte[] b = src.read(off, len);
        if (b.length != len) throw TilepdbException.format(off + b.length, "file truncated: short read (" + b.length + " of " + len + " bytes)");
        return b;
    }

    static byte[] sha256(byte[] b, int off, int len) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(b, off, len);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from java.security", e);
        }
    }

    /** Reads and verifies a table from a source. */
    public static Table read(Source src) throws IOException, TilepdbException, LimitException {
        long size = src.size();
        // 1. size, magic, version, header length
        if (size == 0) throw TilepdbException.format(0, "empty file");
        int have = (int) Math.min(size, PREFIX_LEN);
        byte[] pre = readExactly(src, 0, have);
        for (int i = 0; i < Math.min(have, MAGIC.length); i++)
            if (pre[i] != MAGIC[i]) throw TilepdbException.format(0, "not a tilepdb table file (bad magic)");
        if (have < 12) throw TilepdbException.format(have, "file truncated inside the fixed prefix (" + have + " of 16 bytes)");
        ByteBuffer bb = ByteBuffer.wrap(pre).order(ByteOrder.LITTLE_ENDIAN);
        int major = bb.getShort(8) & 0xffff, minor = bb.getShort(10) & 0xffff;
        if (major != 1 && major != 2) throw TilepdbException.unsupportedVersion(major, minor);
        if (have < PREFIX_LEN) throw TilepdbException.format(have, "file truncated inside the fixed prefix (" + have + " of 16 bytes)");
        long n = bb.getInt(12) & 0xffffffffL;
        if (n > MAX_HEADER_LEN) throw TilepdbException.format(12, "header length " + n + " exceeds the limit of " + MAX_HEADER_LEN + " bytes");
        long payloadOff = PREFIX_LEN + n + CHECKSUM_LEN;
        if (payloadOff > size) throw TilepdbException.format(size, "file truncated: the " + n + "-byte header and its checksum end at byte " + payloadOff + ", the file has " + size + " bytes");
        byte[] head = readExactly(src, 0, (int) payloadOff);
        // 2. header checksum
        byte[] sum = sha256(head, 0, PREFIX_LEN + (int) n);
        byte[] stored = java.util.Arrays.copyOfRange(head, PREFIX_LEN + (int) n, (int) payloadOff);
        HexFormat hex = HexFormat.of();
        if (!MessageDigest.isEqual(sum, stored)) throw TilepdbException.checksum("header sha256", hex.formatHex(stored), hex.formatHex(sum));
        // 3. JSON rules and types
        if (n >= 3 && (head[16] & 0xff) == 0xef && (head[17] & 0xff) == 0xbb && (head[18] & 0xff) == 0xbf)
            throw TilepdbException.format(OFF_HEADER, "header JSON starts with a byte-order mark");
        Raw h;
        try {
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(head, PREFIX_LEN, (int) n)).toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new Json.JsonException("header is not valid UTF-8");
            }
            Object o = Json.parse(text);
            if (!(o instanceof Map)) throw new Json.JsonException("header is not a JSON object");
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) o;
            h = new Raw(m, major);
        } catch (Json.JsonException e) {
            throw TilepdbException.format(OFF_HEADER, "header JSON: " + e.getMessage());
        } catch (StackOverflowError e) {
            throw TilepdbException.format(OFF_HEADER, "header JSON: nested too deeply");
        }
        // 4. sanity, 5. layout
        Checked ck = checkHeader(h, major);
        Pattern p = ck.pattern();
        ValueCodec codec = ValueCodec.forVersion(major, h.encoding);
        long entries = h.entries.longValue();
        int frameSize = checkLayout(h, major, codec, entries, payloadOff, size);
        int nf = h.frames.size();
        long[] frames = new long[nf];
        long[] offs = new long[nf + 1];
        offs[0] = payloadOff;
        for (int i = 0; i < nf; i++) {
            frames[i] = h.frames.get(i).longValue();
            offs[i + 1] = offs[i] + frames[i];
        }
        // 6. payload checksum (2.x)
        if (major >= 2) {
            MessageDigest md = sha256();
            for (int i = 0; i < nf; i++) {
                if (frames[i] > Integer.MAX_VALUE) throw TilepdbException.format(offs[i], "frame " + i + " is too large");
                md.update(readExactly(src, offs[i], (int) frames[i]));
            }
            String ps = hex.formatHex(md.digest());
            if (!ps.equals(h.payloadSha256)) throw TilepdbException.checksum("payload_sha256", h.payloadSha256, ps);
        }
        // 7. zstd frame headers
        for (int i = 0; i < nf; i++) {
            byte[] b = readExactly(src, offs[i], (int) Math.min(18, frames[i]));
            String msg = checkFrameHeader(b, codec.storedSize(frameRaw(entries, frameSize, i)));
            if (!msg.isEmpty()) throw TilepdbException.format(offs[i], "frame " + i + ": " + msg);
        }
        // 8. allocate, decompress, decode
        if (entries > MAX_TABLE_BYTES)
            throw new LimitException("tilepdb: table of " + entries + " entries is larger than this reader's limit of " + MAX_TABLE_BYTES + " bytes (one Java byte array)");
        byte[] raw = new byte[(int) entries];
        boolean direct = codec.storedSize(frameSize) == frameSize && codec.storedSize(1) == 1;
        long window = 1024;
        while (window < frameSize) window <<= 1;
        for (int i = 0; i < nf; i++) {
            if (frames[i] > Integer.MAX_VALUE) throw TilepdbException.format(offs[i], "frame " + i + " is too large");
            byte[] f = readExactly(src, offs[i], (int) frames[i]);
            int lo = i * frameSize;
            int e = (int) frameRaw(entries, frameSize, i);
            int storedLen = (int) codec.storedSize(e);
            String msg = checkFrameBlocks(f, window);
            if (!msg.isEmpty()) throw TilepdbException.format(offs[i], "frame " + i + ": " + msg);
            byte[] dst = direct ? raw : new byte[storedLen];
            int dstOff = direct ? lo : 0;
            long r;
            try {
                r = Zstd.decompressByteArray(dst, dstOff, storedLen, f, 0, f.length);
            } catch (ZstdException ex) {
                // getErrorCode() and errChecksumWrong() are ZSTD_ErrorCode enum values
                if (ex.getErrorCode() == Zstd.errChecksumWrong())
                    throw TilepdbException.checksum("zstd frame " + i + " (at byte " + offs[i] + ") content checksum", "", "");
                throw TilepdbException.format(offs[i], "frame " + i + ": zstd: " + ex.getMessage());
            }
            if (Zstd.isError(r)) {
                if (Zstd.getErrorCode(r) == Zstd.errChecksumWrong())
                    throw TilepdbException.checksum("zstd frame " + i + " (at byte " + offs[i] + ") content checksum", "", "");
                throw TilepdbException.format(offs[i], "frame " + i + ": zstd: " + Zstd.getErrorName(r));
            }
            if (r != storedLen) throw TilepdbException.format(offs[i], "frame " + i + " decodes to " + r + " bytes, want " + storedLen);
            String um = codec.unpack(dst, raw, lo, e);
            if (um != null) throw TilepdbException.format(offs[i], "frame " + i + ": " + um);
        }
        long[] bad = codec.finish(raw, p, ck.regions());
        if (bad != null) throw TilepdbException.format(payloadOff, "the entry of rank " + bad[0] + " decodes to " + bad[1] + ", above 254");
        // 9. raw SHA-256
        String rawSum = hex.formatHex(sha256(raw, 0, raw.length));
        if (!rawSum.equals(h.rawSha256)) throw TilepdbException.checksum("raw_sha256", h.rawSha256, rawSum);
        // 10. recount
        long[] hist = new long[256];
        for (byte v : raw) hist[v & 0xff]++;
        if (hist[UNREACHED] != 0) {
            int first = 0;
            while ((raw[first] & 0xff) != UNREACHED) first++;
            throw TilepdbException.format(payloadOff, hist[UNREACHED] + " entries hold the reserved value 255, first at rank " + first);
        }
        int max = 0;
        for (int v = 255; v >= 0; v--) if (hist[v] != 0) { max = v; break; }
        int maxValue = h.maxValue.intValue();
        if (max != maxValue) throw TilepdbException.format(OFF_HEADER, "header max_value is " + maxValue + ", the largest value in the table is " + max);
        long[] histogram = new long[h.histogram.size()];
        for (int v = 0; v < 256; v++) {
            long want = v < histogram.length ? h.histogram.get(v).longValue() : 0;
            if (v < histogram.length) histogram[v] = want;
            if (want != hist[v]) throw TilepdbException.format(OFF_HEADER, "header histogram does not match the table: value " + v + ": header says " + want + " entries, table has " + hist[v]);
        }
        int[] goal = new int[p.n];
        for (int i = 0; i < p.n; i++) goal[i] = p.goal[i];
        int[] tiles = new int[p.tiles.length];
        for (int i = 0; i < tiles.length; i++) tiles[i] = p.tiles[i];
        Table.Header header = new Table.Header(p.w, p.h, goal, h.goalName, tiles, h.kind, h.ranking, 1, entries,
                BITS_PER_ENTRY, maxValue, histogram, h.rawSha256, h.generator, frameSize, frames,
                major >= 2 ? h.encoding : "raw bytes", major >= 2 ? h.payloadSha256 : "");
        return new Table(header, p, raw, major, minor, ck.regions());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from java.security", e);
        }
    }

    static long frameRaw(long entries, int frameSize, int i) {
        return Math.min(entries - (long) i * frameSize, frameSize);
    }

    /** The header with the types of SPEC.md section 2 (integers exact until checked). */
    private static final class Raw {
        final BigInteger width, height, rankingVersion, entries, bitsPerEntry, maxValue, frameSize;
        final List<BigInteger> goal, tiles, histogram, frames;
        final String goalName, kind, ranking, rawSha256, generator;
        String encoding, payloadSha256;

        Raw(Map<String, Object> o, int major) throws Json.JsonException {
            width = Json.intField(o, "width", false);
            height = Json.intField(o, "height", false);
            goal = Json.intArrayField(o, "goal", false);
            goalName = Json.stringField(o, "goal_name");
            tiles = Json.intArrayField(o, "tiles", false);
            kind = Json.stringField(o, "kind");
            ranking = Json.stringField(o, "ranking");
            rankingVersion = Json.intField(o, "ranking_version", false);
            entries = Json.intField(o, "entries", true);
            bitsPerEntry = Json.intField(o, "bits_per_entry", false);
            maxValue = Json.intField(o, "max_value", false);
            histogram = Json.intArrayField(o, "histogram", true);
            rawSha256 = Json.stringField(o, "raw_sha256");
            generator = Json.stringField(o, "generator");
            frameSize = Json.intField(o, "frame_size", false);
            frames = Json.intArrayField(o, "frames", false);
            if (major >= 2) {
                encoding = Json.stringField(o, "encoding");
                payloadSha256 = Json.stringField(o, "payload_sha256");
            }
        }
    }

    private static boolean in(BigInteger v, long lo, long hi) {
        return v.compareTo(BigInteger.valueOf(lo)) >= 0 && v.compareTo(BigInteger.valueOf(hi)) <= 0;
    }

    private static TilepdbException bad(String msg) {
        return TilepdbException.format(OFF_HEADER, "header: " + msg);
    }

    /** SPEC.md 3.4, in the reference reader's order; returns the pattern. */
    /** The pattern a checked header describes, and a zero-aware table's regions (else null). */
    private record Checked(Pattern pattern, Regions regions) {}

    private static Checked checkHeader(Raw h, int major) throws TilepdbException, LimitException {
        if (!in(h.width, Pattern.MIN_SIDE, Pattern.MAX_SIDE) || !in(h.height, Pattern.MIN_SIDE, Pattern.MAX_SIDE))
            throw bad("board " + h.width + "x" + h.height + ": each side must be between " + Pattern.MIN_SIDE + " and " + Pattern.MAX_SIDE);
        int w = h.width.intValue(), ht = h.height.intValue(), n = w * ht;
        if (h.goal.size() != n) throw bad("goal has " + h.goal.size() + " cells, want " + n + " for a " + w + "x" + ht + " board");
        int[] goal = new int[n];
        for (int i = 0; i < n; i++) {
            if (!in(h.goal.get(i), 0, n - 1)) throw bad("goal cell " + i + ": tile " + h.goal.get(i) + " out of range 0.." + (n - 1));
            goal[i] = h.goal.get(i).intValue();
        }
        String gErr = Boards.validate(goal, n);
        if (gErr != null) throw bad("goal: " + gErr);
        if (h.tiles.isEmpty() || h.tiles.size() > n - 1) throw bad(h.tiles.size() + " tiles, want 1.." + (n - 1));
        int[] tiles = new int[h.tiles.size()];
        for (int i = 0; i < tiles.length; i++) {
            BigInteger t = h.tiles.get(i);
            if (!in(t, 1, n - 1)) throw bad("tile " + t + " out of range 1.." + (n - 1));
            if (i > 0 && t.compareTo(h.tiles.get(i - 1)) <= 0) throw bad("tiles not strictly ascending (" + t + " after " + h.tiles.get(i - 1) + ")");
            tiles[i] = t.intValue();
        }
        Pattern p;
        try {
            p = new Pattern(w, ht, goal, tiles);
        } catch (BoardException e) {
            throw bad(e.getMessage());
        }
        // A zero-aware header describes an additive pattern; a kind none of
        // the three (a future one) is unsupported, not corrupt (SPEC.md 11).
        boolean za = h.kind.equals(Regions.KIND) && !p.exact;
        if (!h.kind.equals("exact") && !h.kind.equals("additive") && !h.kind.equals(Regions.KIND))
            throw TilepdbException.unsupported(OFF_HEADER, "header: kind " + Json.quoteName(h.kind) + " is not supported (this reader implements \"exact\", \"additive\" and \"zero-aware\")");
        String wantKind = za ? Regions.KIND : p.kind(), wantRanking = za ? Regions.RANKING : p.ranking();
        if (!h.kind.equals(wantKind)) throw bad("kind \"" + h.kind + "\", but " + tiles.length + " of " + (n - 1) + " tiles make an \"" + p.kind() + "\" table");
        if (!h.ranking.equals(wantRanking)) throw bad("ranking \"" + h.ranking + "\", want \"" + wantRanking + "\" for a table of kind \"" + wantKind + "\"");
        if (!h.rankingVersion.equals(BigInteger.ONE))
            throw TilepdbException.unsupported(OFF_HEADER, "header: ranking_version " + h.rankingVersion + " is not supported (this reader implements version 1)");
        if (!h.bitsPerEntry.equals(BigInteger.valueOf(BITS_PER_ENTRY)))
            throw TilepdbException.unsupported(OFF_HEADER, "header: bits_per_entry " + h.bitsPerEntry + " is not supported (want 8)");
        if (major >= 2 && ValueCodec.forVersion(major, h.encoding) == null)
            throw TilepdbException.unsupported(OFF_HEADER, "header: encoding \"" + h.encoding + "\" is not supported (this reader implements manhattan-half-4bit and manhattan-half-8bit)");
        Regions regions = null;
        if (za) {
            // The region maps take C(N,k)·(N+4) bytes, less than the k!·C(N,k)
            // entries of the smallest zero-aware table of p for k >= 5 (at most
            // 41 MB below): refuse before labelling what this reader could not hold.
            if (p.size > MAX_TABLE_BYTES)
                throw new LimitException("tilepdb: the zero-aware table of " + p + " has at least " + p.size + " entries, more than this reader's limit of " + MAX_TABLE_BYTES + " bytes (one Java byte array)");
            regions = new Regions(p);
            if (regions.size > Pattern.MAX_ENTRIES) throw bad("the zero-aware table of " + p + " has " + regions.size + " entries, more than " + Pattern.MAX_ENTRIES);
            if (!h.entries.equals(BigInteger.valueOf(regions.size))) throw bad("entries " + h.entries + ", but the zero-aware table of pattern " + p + " has " + regions.size);
        } else if (!h.entries.equals(BigInteger.valueOf(p.size))) throw bad("entries " + h.entries + ", but pattern " + p + " has " + p.size);
        String gn = p.goalName();
        String wantName = gn.equals("blank-last") || gn.equals("blank-first") ? gn : "custom";
        if (!h.goalName.equals(wantName)) throw bad("goal_name \"" + h.goalName + "\", but the goal is \"" + wantName + "\"");
        if (!in(h.maxValue, 0, 254)) throw bad("max_value " + h.maxValue + " out of range 0..254");
        if (h.histogram.size() != h.maxValue.intValue() + 1) throw bad("histogram has " + h.histogram.size() + " counts, want max_value+1 = " + (h.maxValue.intValue() + 1));
        if (h.histogram.get(h.histogram.size() - 1).signum() == 0) throw bad("histogram[max_value] is 0: max_value " + h.maxValue + " is not attained");
        BigInteger sum = BigInteger.ZERO;
        for (BigInteger c : h.histogram) sum = sum.add(c);
        if (!sum.equals(h.entries)) throw bad("histogram sums to " + sum.and(Json.UINT64_MAX) + ", want entries = " + h.entries);
        if (!h.rawSha256.matches("[0-9a-f]{64}")) throw bad("raw_sha256 \"" + h.rawSha256 + "\" is not 64 lowercase hex digits");
        if (major >= 2 && !h.payloadSha256.matches("[0-9a-f]{64}")) throw bad("payload_sha256 \"" + h.payloadSha256 + "\" is not 64 lowercase hex digits");
        return new Checked(p, regions);
    }

    private static long minFrameLen(long raw) {
        long blocks = Math.max((raw + (128 << 10) - 1) / (128 << 10), 1);
        return 4 + 1 + 1 + 4 * blocks + 4;
    }

    /** SPEC.md 3.5; returns frame_size. */
    private static int checkLayout(Raw h, int major, ValueCodec codec, long entries, long payloadOff, long size) throws TilepdbException {
        if (!in(h.frameSize, MIN_FRAME_SIZE, MAX_FRAME_SIZE)) throw bad("frame_size " + h.frameSize + " out of range " + MIN_FRAME_SIZE + ".." + MAX_FRAME_SIZE);
        int fs = h.frameSize.intValue();
        if (major >= 2 && fs % 2 != 0) throw bad("frame_size " + fs + " is odd (format 2 packs two entries per byte)");
        long nf = (entries + fs - 1) / fs;
        if (h.frames.size() != nf) throw bad(h.frames.size() + " frames listed, want ceil(entries/frame_size) = " + nf);
        BigInteger total = BigInteger.ZERO;
        for (int i = 0; i < nf; i++) {
            BigInteger c = h.frames.get(i);
            long raw = codec.storedSize(frameRaw(entries, fs, i));
            if (c.compareTo(BigInteger.valueOf(minFrameLen(raw))) < 0) throw bad("frame " + i + " is " + c + " bytes, too small to hold a zstd frame of " + raw + " bytes");
            total = total.add(c);
            if (total.compareTo(Json.INT64_MAX) > 0) throw bad("frame sizes overflow");
        }
        BigInteger rest = BigInteger.valueOf(size - payloadOff);
        int cmp = total.compareTo(rest);
        if (cmp > 0) throw TilepdbException.format(size, "file truncated: frames need " + total + " payload bytes, file has " + rest);
        if (cmp < 0) throw TilepdbException.format(payloadOff + total.longValue(), rest.subtract(total) + " trailing bytes after the last frame");
        return fs;
    }

    /** The zstd frame header requirements of SPEC.md section 1; "" when met. */
    static String checkFrameHeader(byte[] b, long raw) {
        if (b.length < 6 || (b[0] & 0xff) != 0x28 || (b[1] & 0xff) != 0xb5 || (b[2] & 0xff) != 0x2f || (b[3] & 0xff) != 0xfd)
            return "not a zstd frame (bad zstd magic)";
        int fhd = b[4] & 0xff;
        int fcsFlag = fhd >> 6;
        boolean single = (fhd & 0x20) != 0;
        if ((fhd & 0x08) != 0) return "zstd frame descriptor has the reserved bit set";
        if ((fhd & 0x04) == 0) return "zstd frame has no content checksum";
        if ((fhd & 0x03) != 0) return "zstd frame uses a dictionary";
        if (fcsFlag == 0 && !single) return "zstd frame does not record its content size";
        int i = single ? 5 : 6;
        int fcsLen = new int[] {1, 2, 4, 8}[fcsFlag];
        if (b.length < i + fcsLen) return "zstd frame header truncated";
        long fcs = 0;
        for (int k = fcsLen - 1; k >= 0; k--) fcs = (fcs << 8) | (b[i + k] & 0xff);
        if (fcsLen == 2) fcs += 256;
        if (fcs != raw) return "zstd frame content size is " + Long.toUnsignedString(fcs) + ", want " + raw;
        return "";
    }

    /** Walks the blocks of one frame that must fill exactly f.length bytes; "" when it does. */
    static String checkFrameBlocks(byte[] f, long window) {
        int fhd = f[4] & 0xff;
        boolean single = (fhd & 0x20) != 0;
        int p = 5;
        if (!single) {
            int wd = f[5] & 0xff;
            long base = 1L << (10 + (wd >> 3));
            long w = base + (base / 8) * (wd & 7);
            if (w > window) return "zstd window of " + w + " bytes exceeds the limit of " + window;
            p++;
        }
        p += new int[] {single ? 1 : 0, 2, 4, 8}[fhd >> 6];
        for (;;) {
            if (p + 3 > f.length) return "zstd frame truncated (block header)";
            int bh = (f[p] & 0xff) | ((f[p + 1] & 0xff) << 8) | ((f[p + 2] & 0xff) << 16);
            p += 3;
            int type = (bh >> 1) & 3, size = bh >>> 3;
            if (type == 3) return "zstd block of reserved type";
            if (size > 128 << 10) return "zstd block of " + size + " bytes exceeds 128 KiB";
            p += type == 1 ? 1 : size;
            if (p > f.length) return "zstd frame truncated (block)";
            if ((bh & 1) != 0) break;
        }
        if ((long) p + 4 != f.length)
            return p + 4 > f.length ? "zstd frame truncated (content checksum)" : "zstd frame ends " + (f.length - p - 4) + " bytes before the frame's end";
        return "";
    }
}
