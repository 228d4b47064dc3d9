package tilepdb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Board syntax of pdbgen lookup (puzzle.ParseBoard), byte for byte with its
 * error messages: N numbers in reading order separated by spaces, tabs
 * and/or commas; "0", "x", "X" or "_" is the blank. Lines are bytes (UTF-8,
 * possibly invalid); messages quote like Go's %q.
 */
public final class Boards {
    private Boards() {}

    /**
     * Longest board line accepted, in bytes, measured without its "\n" or
     * "\r\n" (and without a byte-order mark on line 1): maxLineLen of
     * cmd/pdbgen/boards.go. A longer line, of any length, is reported and skipped.
     */
    public static final int MAX_LINE_LEN = 4096;

    /** null, or the message of puzzle.Board.Validate. */
    public static String validate(int[] b, int n) {
        if (b.length != n) return "bad board: " + b.length + " cells, want " + n;
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            int t = b[i];
            if (t < 0 || t >= n) return "bad board: cell " + i + ": tile " + t + " out of range 0.." + (n - 1);
            if (seen[t]) return t == 0 ? "bad board: more than one blank" : "bad board: tile " + t + " appears twice";
            seen[t] = true;
        }
        for (int t = 0; t < n; t++) if (!seen[t]) return t == 0 ? "bad board: no blank" : "bad board: tile " + t + " is missing";
        return null;
    }

    static String goalName(byte[] goal) {
        int n = goal.length;
        boolean last = true, first = true;
        for (int i = 0; i < n; i++) {
            if (goal[i] != (i + 1) % n) last = false;
            if (goal[i] != i) first = false;
        }
        if (last) return "blank-last";
        if (first) return "blank-first";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(' ');
            sb.append(goal[i]);
        }
        return sb.toString();
    }

    /** Go's utf8.DecodeRune: {rune, width}; invalid gives {0xFFFD, 1}. */
    static int[] decodeRune(byte[] b, int i, int end) {
        int n = end - i;
        if (n <= 0) return new int[] {0xfffd, 0};
        int c0 = b[i] & 0xff;
        if (c0 < 0x80) return new int[] {c0, 1};
        int need, min, cp;
        if (c0 >= 0xc2 && c0 <= 0xdf) { need = 1; min = 0x80; cp = c0 & 0x1f; }
        else if (c0 >= 0xe0 && c0 <= 0xef) { need = 2; min = 0x800; cp = c0 & 0x0f; }
        else if (c0 >= 0xf0 && c0 <= 0xf4) { need = 3; min = 0x10000; cp = c0 & 0x07; }
        else return new int[] {0xfffd, 1};
        if (n < need + 1) return new int[] {0xfffd, 1};
        for (int k = 1; k <= need; k++) {
            int c = b[i + k] & 0xff;
            if ((c & 0xc0) != 0x80) return new int[] {0xfffd, 1};
            cp = (cp << 6) | (c & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return new int[] {0xfffd, 1};
        return new int[] {cp, need + 1};
    }

    static boolean isSpace(int r) {
        if (r <= 0xff) return r == 0x20 || (r >= 0x09 && r <= 0x0d) || r == 0x85 || r == 0xa0;
        return r == 0x1680 || (r >= 0x2000 && r <= 0x200a) || r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f || r == 0x3000;
    }

    /** strings.TrimSpace on b[0..len): returns {start, end}. */
    public static int[] trimSpace(byte[] b, int len) {
        int s = 0, e = len;
        while (s < e) {
            int[] rw = decodeRune(b, s, e);
            if (!isSpace(rw[0]) || (rw[0] == 0xfffd && rw[1] == 1)) break;
            s += rw[1];
        }
        while (e > s) {
            // decode the last rune as utf8.DecodeLastRune does
            int lim = Math.max(s, e - 4);
            int start = e - 1;
            if ((b[start] & 0xff) >= 0x80) {
                for (start--; start >= lim; start--) if ((b[start] & 0xc0) != 0x80) break;
                if (start < lim) start = lim;
            }
            int[] rw = decodeRune(b, start, e);
            int r = rw[0], w = rw[1];
            if (start + w != e) { r = 0xfffd; w = 1; }
            if (!isSpace(r) || (r == 0xfffd && w == 1)) break;
            e -= w;
        }
        return new int[] {s, e};
    }

    static boolean isPrint(int r) {
        if (r < 0x80) return r >= 0x20 && r < 0x7f;
        if (r <= 0xff) return r >= 0xa1 && r != 0xad;
        switch (Character.getType(r)) {
            case Character.UPPERCASE_LETTER: case Character.LOWERCASE_LETTER: case Character.TITLECASE_LETTER:
            case Character.MODIFIER_LETTER: case Character.OTHER_LETTER:
            case Character.NON_SPACING_MARK: case Character.ENCLOSING_MARK: case Character.COMBINING_SPACING_MARK:
            case Character.DECIMAL_DIGIT_NUMBER: case Character.LETTER_NUMBER: case Character.OTHER_NUMBER:
            case Character.CONNECTOR_PUNCTUATION: case Character.DASH_PUNCTUATION: case Character.START_PUNCTUATION:
            case Character.END_PUNCTUATION: case Character.INITIAL_QUOTE_PUNCTUATION: case Character.FINAL_QUOTE_PUNCTUATION:
            case Character.OTHER_PUNCTUATION:
            case Character.MATH_SYMBOL: case Character.CURRENCY_SYMBOL: case Character.MODIFIER_SYMBOL: case Character.OTHER_SYMBOL:
                return true;
            default:
                return false;
        }
    }

    private static String hex(int v, int w) {
        String s = Integer.toHexString(v);
        return "0".repeat(Math.max(0, w - s.length())) + s;
    }

    /** Go's %q (strconv.Quote) of b[s..e). */
    public static String goQuote(byte[] b, int s, int e) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = s; i < e;) {
            int[] rw = decodeRune(b, i, e);
            int r = rw[0];
            if (rw[1] == 1 && r == 0xfffd) {
                out.append("\\x").append(hex(b[i] & 0xff, 2));
                i++;
                continue;
            }
            i += rw[1];
            if (r == '"' || r == '\\') out.append('\\').append((char) r);
            else if (isPrint(r)) out.appendCodePoint(r);
            else if (r == 7) out.append("\\a");
            else if (r == 8) out.append("\\b");
            else if (r == 12) out.append("\\f");
            else if (r == 10) out.append("\\n");
            else if (r == 13) out.append("\\r");
            else if (r == 9) out.append("\\t");
            else if (r == 11) out.append("\\v");
            else if (r < 0x20 || r == 0x7f) out.append("\\x").append(hex(r, 2));
            else if (r < 0x10000) out.append("\\u").append(hex(r, 4));
            else out.append("\\U").append(hex(r, 8));
        }
        return out.append('"').toString();
    }

    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE), INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** strconv.Atoi on ASCII bytes, or null. */
    private static BigInteger atoi(byte[] b, int s, int e) {
        int i = s;
        boolean neg = false;
        if (i < e && (b[i] == '+' || b[i] == '-')) { neg = b[i] == '-'; i++; }
        if (i >= e) return null;
        StringBuilder sb = new StringBuilder();
        for (; i < e; i++) {
            if (b[i] < '0' || b[i] > '9') return null;
            sb.append((char) b[i]);
        }
        BigInteger v = new BigInteger(sb.toString());
        if (neg) v = v.negate();
        if (v.compareTo(INT64_MAX) > 0 || v.compareTo(INT64_MIN) < 0) return null;
        return v;
    }

    private static boolean isSep(byte c) { return c == ' ' || c == '\t' || c == ',' || c == '\r'; }

    /**
     * puzzle's emptyCell on b[s..e): the index of the first cell left empty by
     * a comma (one at the start or end of the line, or two with only spaces,
     * tabs or '\r' between them: "1,,2"), or -1.
     */
    static int emptyCell(byte[] b, int s, int e) {
        int cells = 0;
        boolean want = true; // at the start or just after a comma: a cell must come
        boolean inCell = false, comma = false;
        for (int i = s; i < e; i++) {
            byte c = b[i];
            if (c == ',') {
                if (want) return cells;
                want = true;
                inCell = false;
                comma = true;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                inCell = false;
            } else {
                if (!inCell) {
                    cells++;
                    inCell = true;
                }
                want = false;
            }
        }
        return comma && want ? cells : -1;
    }

    /** Result of {@link #parse}: a board, or the error message. */
    public record Parsed(byte[] board, String error) {}

    /**
     * puzzle.ParseBoard(line, n) on the bytes b[s..e), n > 0: fields are split
     * at spaces, tabs, commas and '\r' only, and a comma at either end of the
     * line or two commas with only separators between them leave a cell
     * empty, an error (pdbgen passes the line untrimmed, the blank-or-comment
     * test aside).
     */
    public static Parsed parse(byte[] b, int s, int e, int n) {
        List<int[]> fields = new ArrayList<>();
        for (int i = s; i < e;) {
            while (i < e && isSep(b[i])) i++;
            int st = i;
            while (i < e && !isSep(b[i])) i++;
            if (i > st) fields.add(new int[] {st, i});
        }
        if (fields.isEmpty()) return new Parsed(null, "bad board: empty line");
        int empty = emptyCell(b, s, e);
        if (empty >= 0) return new Parsed(null, "bad board: cell " + empty + ": empty (a comma with no tile before it)");
        if (fields.size() != n) return new Parsed(null, "bad board: " + fields.size() + " cells, want " + n);
        byte[] board = new byte[n];
        for (int i = 0; i < n; i++) {
            int fs = fields.get(i)[0], fe = fields.get(i)[1];
            if (fe - fs == 1 && (b[fs] == 'x' || b[fs] == 'X' || b[fs] == '_')) continue;
            BigInteger v = atoi(b, fs, fe);
            if (v == null) return new Parsed(null, "bad board: cell " + i + ": " + goQuote(b, fs, fe) + " is not a tile number or blank (0, x, _)");
            if (v.signum() < 0 || v.compareTo(BigInteger.valueOf(n)) >= 0)
                return new Parsed(null, "bad board: cell " + i + ": tile " + v + " out of range 0.." + (n - 1));
            board[i] = (byte) v.intValue();
        }
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            int t = board[i];
            if (seen[t]) return new Parsed(null, t == 0 ? "bad board: more than one blank" : "bad board: tile " + t + " appears twice");
            seen[t] = true;
        }
        for (int t = 0; t < n; t++) if (!seen[t]) return new Parsed(null, t == 0 ? "bad board: no blank" : "bad board: tile " + t + " is missing");
        return new Parsed(board, null);
    }

    /** Parses a Java string (encoded as UTF-8, trimmed as Go trims). */
    public static Parsed parse(String line, int n) {
        byte[] b = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int[] se = trimSpace(b, b.length);
        return parse(b, se[0], se[1], n);
    }

    /** Board written as numbers separated by single spaces. */
    public static String format(byte[] board) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < board.length; i++) {
            if (i > 0) sb.append(' ');
            sb.append(board[i]);
        }
        return sb.toString();
    }

    /** Position vector of a valid board. */
    public static byte[] positions(byte[] board, byte[] out) {
        for (int c = 0; c < board.length; c++) out[board[c]] = (byte) c;
        return out;
    }
}
