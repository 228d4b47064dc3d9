package tilepdb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict JSON parser (RFC 8259) for table headers that keeps numbers
 * exact (entries and histogram counts are unsigned 64-bit), with the JSON
 * rules of SPEC.md section 2: white space is space, tab, CR, LF; a key
 * occurs at most once per object; keys match byte for byte; required keys
 * are present and not null; integers have no fraction or exponent and lie
 * in their type's range. Objects become LinkedHashMap, arrays List, numbers
 * {@link Num}. (UTF-8 and the byte-order mark are checked on the bytes.)
 */
final class Json {
    private Json() {}

    /** A JSON syntax or type error. */
    static final class JsonException extends Exception {
        JsonException(String msg) { super(msg); }
    }

    /** A number literal, kept as written. */
    record Num(String text) {}

    private static final int MAX_DEPTH = 10000;
    private static final Pattern NUMBER = Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?");

    static Object parse(String s) throws JsonException {
        Json.P p = new Json.P(s);
        Object v = p.value(0);
        p.ws();
        if (p.i != s.length()) throw new JsonException("invalid character after top-level value at offset " + p.i);
        return v;
    }

    private static final class P {
        final String s;
        int i;

        P(String s) { this.s = s; }

        void ws() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') i++;
                else break;
            }
        }

        JsonException fail(String what) { return new JsonException(what + " at offset " + i); }

        char peek() { return i < s.length() ? s.charAt(i) : '\0'; }

        Object value(int depth) throws JsonException {
            if (depth > MAX_DEPTH) throw fail("exceeded max depth");
            ws();
            if (i >= s.length()) throw fail("unexpected end of JSON input");
            char c = s.charAt(i);
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
                    if (m.containsKey(k)) throw fail("duplicate key \"" + k + "\"");
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
                            out.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
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
