"""Strict JSON for set files (format/SPEC.md section 10.1) and the JSON helpers
the header parser shares (section 2).

:func:`parse_set_json` is a port of the Go reader's set-file scanner
(format/setjson.go; readers/js/json.mjs is the same): Python's :mod:`json`
neither gives the byte offset of a duplicate key nor refuses a ``\\u``
escape of a lone surrogate, and its messages differ. Errors carry the
byte offset in the file and the Go reader's words, so that messages are
byte-identical to ``pdbgen``'s.
"""

from __future__ import annotations

import re

__all__ = [
    "MAX_SET_FILE_DEPTH",
    "JSONNum",
    "SetJSONError",
    "parse_set_json",
    "has_lone_surrogate",
    "quote_name",
    "kind_of",
]

#: How deep arrays and objects may nest in a set file, the top-level object
#: counting as 1 (SPEC.md section 10.1; a set file needs 4).
MAX_SET_FILE_DEPTH = 64

_WS = b" \t\n\r"
_ESCAPES = {
    ord('"'): '"',
    ord("\\"): "\\",
    ord("/"): "/",
    ord("b"): "\b",
    ord("f"): "\f",
    ord("n"): "\n",
    ord("r"): "\r",
    ord("t"): "\t",
}
_HEX4 = re.compile(rb"[0-9a-fA-F]{4}")
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NAMED = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}


class JSONNum(str):
    """A JSON number literal as written in a set file (converted by the caller)."""


class SetJSONError(ValueError):
    """A JSON syntax error of a set file; the message ends in "at byte N"."""

    def __init__(self, msg: str, offset: int) -> None:
        super().__init__(f"{msg} at byte {offset}")
        self.offset = offset


def quote_name(s: str) -> str:
    """Quotes a name read from a file for a message by Go's %+q rule
    (strconv.QuoteToASCII), as format.QuoteName: printable ASCII as is,
    ``"`` and ``\\`` escaped, \\a \\b \\f \\n \\r \\t \\v, other characters
    below 0x80 as \\xhh, others as \\uhhhh or \\Uhhhhhhhh (a lone surrogate
    as \\ufffd)."""
    out = ['"']
    for ch in s:
        r = ord(ch)
        if r in (0x22, 0x5C):
            out.append("\\" + ch)
        elif 0x20 <= r < 0x7F:
            out.append(ch)
        elif r in _NAMED:
            out.append(_NAMED[r])
        elif r < 0x80:
            out.append(f"\\x{r:02x}")
        else:
            if 0xD800 <= r <= 0xDFFF:
                r = 0xFFFD
            out.append(f"\\u{r:04x}" if r < 0x10000 else f"\\U{r:08x}")
    out.append('"')
    return "".join(out)


def kind_of(v) -> str:
    """The JSON kind of a parsed value in Go's words: null, bool, string,
    array, object or number (the header's values and parse_set_json's)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, JSONNum):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "number"


def _hex4(s: bytes, i: int) -> int | None:
    """The 4 hex digits at s[i:i+4] as an integer, or None."""
    return int(s[i : i + 4], 16) if _HEX4.fullmatch(s, i, i + 4) else None


def has_lone_surrogate(js: bytes) -> bool:
    """Whether the JSON text js holds a \\u escape of a surrogate (D800 to
    DFFF) that is not a high one followed by a \\u escape of a low one
    (SPEC.md section 2 rule 1; format's hasLoneSurrogate)."""
    in_string = False
    i = 0
    n = len(js)
    while i < n:
        c = js[i]
        if c == 0x22:
            in_string = not in_string
        elif c == 0x5C and in_string and i + 1 < n:
            if js[i + 1] != 0x75:  # not \u: skip the escaped byte
                i += 2
                continue
            r = _hex4(js, i + 2)
            if r is None or not 0xD800 <= r <= 0xDFFF:
                i += 2
                continue
            if r >= 0xDC00 or i + 7 >= n or js[i + 6] != 0x5C or js[i + 7] != 0x75:
                return True
            r2 = _hex4(js, i + 8)
            if r2 is None or not 0xDC00 <= r2 <= 0xDFFF:
                return True
            i += 12
            continue
        i += 1
    return False


def parse_set_json(data: bytes):
    """Parses the bytes of a set file by the JSON rules of SPEC.md section
    10.1: no byte-order mark, valid UTF-8, one JSON value and nothing after
    it but JSON white space, a key at most once in each object, no \\u
    escape of a lone surrogate, nesting at most MAX_SET_FILE_DEPTH deep.
    Objects become dicts, arrays lists, numbers JSONNum, strings str,
    true/false bool, null None. Raises ValueError with the Go reader's
    message (SetJSONError, with the byte offset, for a syntax error)."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise ValueError("starts with a byte-order mark")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not valid UTF-8") from None
    p = _Parser(bytes(data))
    v = p.value(0)
    p.ws()
    if p.i != len(p.s):
        p.fail("invalid character after top-level value")
    return v


class _Parser:
    def __init__(self, s: bytes) -> None:
        self.s = s
        self.i = 0

    def fail(self, msg: str):
        raise SetJSONError(msg, self.i)

    def ws(self) -> None:
        s, i, n = self.s, self.i, len(self.s)
        while i < n and s[i] in _WS:
            i += 1
        self.i = i

    def peek(self) -> int:
        return self.s[self.i] if self.i < len(self.s) else 0

    def value(self, depth: int):
        """One value; depth is the number of arrays and objects around it."""
        self.ws()
        s = self.s
        if self.i >= len(s):
            self.fail("unexpected end of JSON input")
        c = s[self.i]
        if c in (0x7B, 0x5B):  # { [
            if depth >= MAX_SET_FILE_DEPTH:
                self.fail(f"JSON nested deeper than {MAX_SET_FILE_DEPTH} levels")
            self.i += 1
            return self.object(depth + 1) if c == 0x7B else self.array(depth + 1)
        if c == 0x22:
            return self.string()
        for lit, v in ((b"true", True), (b"false", False), (b"null", None)):
            if s.startswith(lit, self.i):
                self.i += len(lit)
                return v
        m = _NUMBER.match(s, self.i, self.i + 400)
        if m is None:
            self.fail("invalid character looking for beginning of value")
        if len(m.group()) >= 400:
            self.fail("number literal too long")
        self.i = m.end()
        return JSONNum(m.group().decode("ascii"))

    def object(self, depth: int) -> dict:
        m: dict = {}
        self.ws()
        if self.peek() == 0x7D:
            self.i += 1
            return m
        while True:
            self.ws()
            if self.peek() != 0x22:
                self.fail("looking for beginning of object key string")
            k = self.string()
            self.ws()
            if self.peek() != 0x3A:
                self.fail("after object key: want ':'")
            self.i += 1
            if k in m:
                self.fail(f"duplicate key {quote_name(k)}")
            m[k] = self.value(depth)
            self.ws()
            c = self.peek()
            if c == 0x2C:
                self.i += 1
                continue
            if c == 0x7D:
                self.i += 1
                return m
            self.fail("after object key:value pair: want ',' or '}'")

    def array(self, depth: int) -> list:
        a: list = []
        self.ws()
        if self.peek() == 0x5D:
            self.i += 1
            return a
        while True:
            a.append(self.value(depth))
            self.ws()
            c = self.peek()
            if c == 0x2C:
                self.i += 1
                continue
            if c == 0x5D:
                self.i += 1
                return a
            self.fail("after array element: want ',' or ']'")

    def string(self) -> str:
        """A string literal starting at its opening quote."""
        s, n = self.s, len(self.s)
        self.i += 1
        out: list[str] = []
        start = self.i
        while True:
            if self.i >= n:
                self.fail("unexpected end of JSON input in string")
            c = s[self.i]
            if c == 0x22:
                out.append(s[start : self.i].decode("utf-8"))
                self.i += 1
                return "".join(out)
            if c < 0x20:
                self.fail("invalid control character in string literal")
            if c != 0x5C:
                self.i += 1
                continue
            out.append(s[start : self.i].decode("utf-8"))
            e = s[self.i + 1] if self.i + 1 < n else 0
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
                self.i += 2
                start = self.i
                continue
            r = _hex4(s, self.i + 2)
            if e != 0x75 or r is None:
                self.fail("invalid escape in string literal")
            step = 6
            if 0xD800 <= r <= 0xDFFF:
                r2 = None
                if r < 0xDC00 and self.i + 7 < n and s[self.i + 6] == 0x5C and s[self.i + 7] == 0x75:
                    r2 = _hex4(s, self.i + 8)
                if r2 is None or not 0xDC00 <= r2 <= 0xDFFF:
                    self.fail("lone surrogate in \\u escape")
                r, step = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00), 12
            out.append(chr(r))
            self.i += step
            start = self.i
