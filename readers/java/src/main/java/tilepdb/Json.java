package tilepdb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict JSON parser (RFC 8259) for table headers and set files that
 * keeps numbers exact (entries and histogram counts are unsigned 64-bit),
 * with the JSON rules of SPEC.md sections 2 and 10.1: white space is space,
 * tab, CR, LF; a key occurs at most once per object; keys match byte for
 * byte; no \\u escape of a lone surrogate; arrays and objects nested at most
 * maxDepth deep; required keys are present and not null; integers have no
 * fraction or exponent and lie in their type's range. Objects become
 * LinkedHashMap, arrays List, numbers {@link Num}. (UTF-8 and the
 * byte-order mark are checked on the bytes.) Syntax errors give the byte
 * offset in the UTF-8 text and the words of the Go reader's set-file parser
 * (format/setjson.go), so that set-file messages are byte-identical.
 */
final class Json {
    private Json() {}

    /** A JSON syntax or type error. */
    static final class JsonException extends Exception {
        JsonException(String msg) { super(msg); }
    }

    /** A number literal, kept as written. */
    record Num(String text) {}

    /** Default nesting limit (arrays and objects), as Go's encoding/json. */
    private static final int MAX_DEPTH = 10000;
    private static final Pattern NUMBER = Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?");

    static Object parse(String s) throws JsonException {
        return parse(s, MAX_DEPTH);
    }

    /**
     * Parses s with arrays and objects nested at most maxDepth deep (the
     * top-level one counts as 1); set files use 64, so no stack is at risk.
     */
    static Object parse(String s, int maxDepth) throws JsonException {
        Json.P p = new Json.P(s, maxDepth);
        Object v = p.value(0);
        p.ws();
        if (p.i != s.length()) throw p.fail("invalid character after top-level value");
        return v;
    }

    /**
     * Quotes a name read from a file for a message, by the rule of Go's %+q
     * (strconv.QuoteToASCII), so that messages are byte-identical to
     * pdbgen's and no control character reaches a terminal: printable ASCII
     * as is, {@code "} and {@code \} escaped, \a \b \f \n \r \t \v, other
     * characters below 0x80 as \xhh, others as \\uhhhh or \Uhhhhhhhh (a lone
     * surrogate as \\ufffd).
     */
    static String quoteName(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); ) {
            int r = s.codePointAt(i);
            i += Character.charCount(r);
            switch (r) {
                case '"', '\\' -> sb.append('\\').append((char) r);
                case 7 -> sb.append("\\a");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case 11 -> sb.append("\\v");
                default -> {
                    if (r >= 0x20 && r < 0x7f) sb.append((char) r);
                    else if (r < 0x20 || r == 0x7f) sb.append(String.format("\\x%02x", r));
                    else if (r >= 0xd800 && r <= 0xdfff) sb.append("\\ufffd");
                    else if (r < 0x10000) sb.append(String.format("\\u%04x", r));
                    else sb.append(String.format("\\U%08x", r));
                }
            }
        }
        return sb.append('"').toString();
    }

    private static final class P {
        final String s;
        final int maxDepth;
        int i;

        P(String s, int maxDepth) {
            this.s = s;
            this.maxDepth = maxDepth;
        }

        void ws() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') i++;
                else break;
            }
        }

        JsonException fail(String what) {
            return new JsonException(what + " at byte " + s.substring(0, i).getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        }

        char peek() { return i < s.length() ? s.charAt(i) : '\0'; }

        /** One value; depth is the number of arrays and objects around it. */
        Object value(int depth) throws JsonException {
            ws();
            if (i >= s.length()) throw fail("unexpected end of JSON input");
            char c = s.charAt(i);
            if ((c == '{' || c == '[') && depth >= maxDepth) throw fail("JSON nested deeper than " + maxDepth + " levels");
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (peek() == '}') { i++; return m; }
                for (;;) {
                    ws();
                    if (peek() != '"') throw fail("looking for beginning of object key string");
                    String k = string();
                    ws();
                    if (peek() != ':') throw fail("after object key: want ':'");
                    i++;
                    if (m.containsKey(k)) throw fail("duplicate key " + quoteName(k));
                    m.put(k, value(depth + 1));
                    ws();
                    if (peek() == ',') { i++; continue; }
                    if (peek() == '}') { i++; return m; }
                    throw fail("after object key:value pair: want ',' or '}'");
                }
            }
            if (c == '[') {
                i++;
                List<Object> a = new ArrayList<>();
                ws();
                if (peek() == ']') { i++; return a; }
                for (;;) {
                    a.add(value(depth + 1));
                    ws();
                    if (peek() == ',') { i++; continue; }
                    if (peek() == ']') { i++; return a; }
                    throw fail("after array element: want ',' or ']'");
                }
            }
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            Matcher m = NUMBER.matcher(s);
            m.region(i, Math.min(s.length(), i + 400));
            if (!m.lookingAt() || m.end() == i) throw fail("invalid character looking for beginning of value");
            if (m.end() - i >= 400) throw fail("number literal too long");
            String text = s.substring(i, m.end());
            i = m.end();
            return new Num(text);
        }

        String string() throws JsonException {
            i++;
            StringBuilder out = new StringBuilder();
            for (;;) {
                if (i >= s.length()) throw fail("unexpected end of JSON input in string");
                char c = s.charAt(i);
                if (c == '"') { i++; return out.toString(); }
                if (c < 0x20) throw fail("invalid control character in string literal");
                if (c == '\\') {
                    char e = i + 1 < s.length() ? s.charAt(i + 1) : '\0';
                    switch (e) {
                        case '"': out.append('"'); break;
                        case '\\': out.append('\\'); break;
                        case '/': out.append('/'); break;
                        case 'b': out.append('\b'); break;
                        case 'f': out.append('\f'); break;
                        case 'n': out.append('\n'); break;
                        case 'r': out.append('\r'); break;
                        case 't': out.append('\t'); break;
                        case 'u':
                            if (i + 6 > s.length() || !s.substring(i + 2, i + 6).matches("[0-9a-fA-F]{4}")) throw fail("invalid escape in string literal");
                            int u = Integer.parseInt(s.substring(i + 2, i + 6), 16);
                            if (u >= 0xd800 && u <= 0xdfff) {
                                // only a high surrogate followed by a \\u escape of a low one
                                int low = i + 12 <= s.length() && s.startsWith("\\u", i + 6) && s.substring(i + 8, i + 12).matches("[0-9a-fA-F]{4}")
                                        ? Integer.parseInt(s.substring(i + 8, i + 12), 16) : -1;
                                if (u >= 0xdc00 || low < 0xdc00 || low > 0xdfff) throw fail("lone surrogate in \\u escape");
                                out.append((char) u).append((char) low);
                                i += 6;
                            } else {
                                out.append((char) u);
                            }
                            i += 4;
                            break;
                        default:
                            throw fail("invalid escape in string literal");
                    }
                    i += 2;
                    continue;
                }
                out.append(c);
                i++;
            }
        }
    }

    /** The value of a required key (exact match); missing or null is an error. */
    static Object field(Map<String, Object> obj, String name) throws JsonException {
        if (!obj.containsKey(name)) throw new JsonException("required key \"" + name + "\" is missing");
        Object v = obj.get(name);
        if (v == null) throw new JsonException("key \"" + name + "\" is null");
        return v;
    }

    static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE), INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    static String kindOf(Object v) {
        if (v == null) return "null";
        if (v instanceof String) return "string";
        if (v instanceof Boolean) return "bool";
        if (v instanceof List) return "array";
        if (v instanceof Map) return "object";
        return "number";
    }

    static BigInteger integer(Object v, String what, boolean unsigned) throws JsonException {
        if (v == null) throw new JsonException("null is not a value of " + what);
        if (!(v instanceof Num num)) throw new JsonException("cannot unmarshal " + kindOf(v) + " into " + what);
        if (!num.text().matches("-?[0-9]+")) throw new JsonException("cannot unmarshal number " + num.text() + " into " + what);
        BigInteger b = new BigInteger(num.text());
        // An unsigned integer has no minus sign, not even in -0 (SPEC.md section 2, rule 5).
        if (unsigned && num.text().startsWith("-")) throw new JsonException("cannot unmarshal number " + num.text() + " into " + what);
        BigInteger lo = unsigned ? BigInteger.ZERO : INT64_MIN, hi = unsigned ? UINT64_MAX : INT64_MAX;
        if (b.compareTo(lo) < 0 || b.compareTo(hi) > 0) throw new JsonException("cannot unmarshal number " + num.text() + " into " + what);
        return b;
    }

    static BigInteger intField(Map<String, Object> o, String name, boolean unsigned) throws JsonException {
        return integer(field(o, name), "field " + name, unsigned);
    }

    static String stringField(Map<String, Object> o, String name) throws JsonException {
        Object v = field(o, name);
        if (!(v instanceof String str)) throw new JsonException("cannot unmarshal " + kindOf(v) + " into field " + name + " of type string");
        return str;
    }

    static List<BigInteger> intArrayField(Map<String, Object> o, String name, boolean unsigned) throws JsonException {
        Object v = field(o, name);
        List<BigInteger> out = new ArrayList<>();
        if (!(v instanceof List<?> list)) throw new JsonException("cannot unmarshal " + kindOf(v) + " into field " + name + " of type array");
        for (Object e : list) out.add(integer(e, "field " + name + " element", unsigned));
        return out;
    }
}
