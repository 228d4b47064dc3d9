"""Board syntax of ``pdbgen lookup`` (puzzle.ParseBoard and cmd/pdbgen/boards.go),
reproduced byte for byte, error messages included, so that ``python -m tilepdb
lookup`` gives the same answers and the same ``line N: ...`` errors as pdbgen.

A board line is N numbers in reading order separated by spaces, tabs and/or
commas, no cell left empty between commas ("1,,2" is refused); "0", "x", "X"
or "_" is the blank. Lines are bytes (UTF-8, possibly invalid); quoting in
messages follows Go's %q.
"""

from __future__ import annotations

import unicodedata
from typing import BinaryIO, Iterator

__all__ = ["MAX_LINE_LEN", "LINE_TOO_LONG", "LineSplitter", "read_lines", "board_of_line", "parse_board", "go_quote"]

#: Longest board line accepted, in bytes, without its "\n" or "\r\n" (and
#: without a byte-order mark on line 1): maxLineLen of cmd/pdbgen/boards.go.
MAX_LINE_LEN = 4096
#: pdbgen reads through a buffer of MAX_LINE_LEN + 5 bytes: a line whose raw
#: bytes (before "\n") fill it is too long whatever it holds.
READ_BUF_LEN = MAX_LINE_LEN + 2 + 3
LINE_TOO_LONG = f"line longer than {MAX_LINE_LEN} bytes"
_BOM = b"\xef\xbb\xbf"


class LineSplitter:
    """Splits board input (bytes, in chunks of any size) into numbered lines
    as ``pdbgen lookup`` reads them (cmd/pdbgen/boards.go readBoards): lines
    end at "\\n", one trailing "\\r" is dropped, a last line without "\\n"
    counts, a UTF-8 byte-order mark at the start of the input is skipped,
    and lines are numbered from 1. At most READ_BUF_LEN bytes of a line are
    kept, whatever its length.

    push(chunk) and end() return lists of (no, text), text None for a line
    that is too long.
    """

    def __init__(self) -> None:
        self.no = 0
        self.buf = bytearray()
        self.over = False

    def push(self, chunk: bytes) -> list[tuple[int, bytes | None]]:
        """The lines completed by chunk."""
        out = []
        start = 0
        while start < len(chunk):
            nl = chunk.find(b"\n", start)
            end = len(chunk) if nl < 0 else nl
            if not self.over:
                room = READ_BUF_LEN - len(self.buf)
                self.buf += chunk[start : start + min(end - start, room)]
                if len(self.buf) == READ_BUF_LEN:
                    self.over = True
            if nl < 0:
                break
            out.append(self._take())
            start = nl + 1
        return out

    def end(self) -> list[tuple[int, bytes | None]]:
        """The last line, when the input does not end with "\\n"."""
        if self.buf or self.over:
            return [self._take()]
        return []

    def _take(self) -> tuple[int, bytes | None]:
        self.no += 1
        text = bytes(self.buf)
        over = self.over
        self.buf = bytearray()
        self.over = False
        if over:
            return self.no, None
        if self.no == 1 and text.startswith(_BOM):
            text = text[3:]
        if text.endswith(b"\r"):
            text = text[:-1]
        if len(text) > MAX_LINE_LEN:
            return self.no, None
        return self.no, text


def read_lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """All numbered lines of a binary stream (LineSplitter over its chunks)."""
    read = getattr(stream, "read1", None) or stream.read
    sp = LineSplitter()
    while True:
        chunk = read(65536)
        if not chunk:
            break
        yield from sp.push(chunk)
    yield from sp.end()


def _decode_rune(b: bytes, i: int) -> tuple[int, int]:
    """Go's utf8.DecodeRune at b[i:]: (rune, width); invalid gives (0xFFFD, 1)."""
    n = len(b) - i
    if n <= 0:
        return 0xFFFD, 0
    c0 = b[i]
    if c0 < 0x80:
        return c0, 1
    if 0xC2 <= c0 <= 0xDF:
        need, lo, cp = 1, 0x80, c0 & 0x1F
    elif 0xE0 <= c0 <= 0xEF:
        need, lo, cp = 2, 0x800, c0 & 0x0F
    elif 0xF0 <= c0 <= 0xF4:
        need, lo, cp = 3, 0x10000, c0 & 0x07
    else:
        return 0xFFFD, 1
    if n < need + 1:
        return 0xFFFD, 1
    for k in range(1, need + 1):
        c = b[i + k]
        if c & 0xC0 != 0x80:
            return 0xFFFD, 1
        cp = (cp << 6) | (c & 0x3F)
    if cp < lo or cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
        return 0xFFFD, 1
    return cp, need + 1


def _is_space(r: int) -> bool:
    """unicode.IsSpace"""
    if r <= 0xFF:
        return r == 0x20 or 0x09 <= r <= 0x0D or r in (0x85, 0xA0)
    return r == 0x1680 or 0x2000 <= r <= 0x200A or r in (0x2028, 0x2029, 0x202F, 0x205F, 0x3000)


def _trim_space(b: bytes) -> bytes:
    """strings.TrimSpace on bytes (invalid UTF-8 stops the trimming)."""
    runes = []
    i = 0
    while i < len(b):
        r, w = _decode_rune(b, i)
        runes.append((i, r, w))
        i += w
    s = 0
    while s < len(runes) and _is_space(runes[s][1]) and not (runes[s][1] == 0xFFFD and runes[s][2] == 1):
        s += 1
    e = len(runes)
    while e > s and _is_space(runes[e - 1][1]):
        e -= 1
    if s >= e:
        return b""
    return b[runes[s][0] : runes[e - 1][0] + runes[e - 1][2]]


def _is_print(r: int) -> bool:
    """strconv.IsPrint"""
    if r < 0x80:
        return 0x20 <= r < 0x7F
    if r <= 0xFF:
        return r >= 0xA1 and r != 0xAD
    return unicodedata.category(chr(r))[0] in "LMNPS"


def go_quote(b: bytes) -> str:
    """Go's %q (strconv.Quote) of a byte string."""
    out = ['"']
    i = 0
    while i < len(b):
        r, w = _decode_rune(b, i)
        if w == 1 and r == 0xFFFD:
            out.append(f"\\x{b[i]:02x}")
            i += 1
            continue
        i += w
        if r in (0x22, 0x5C):
            out.append("\\" + chr(r))
        elif _is_print(r):
            out.append(chr(r))
        elif r in _ESC:
            out.append(_ESC[r])
        elif r < 0x20 or r == 0x7F:
            out.append(f"\\x{r:02x}")
        elif r < 0x10000:
            out.append(f"\\u{r:04x}")
        else:
            out.append(f"\\U{r:08x}")
    out.append('"')
    return "".join(out)


_ESC = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
_SEP = frozenset(b" \t,\r")
_INT64_MAX = (1 << 63) - 1


def _atoi(f: bytes) -> int | None:
    """Go's strconv.Atoi on ASCII bytes: optional sign, decimal digits, int64 range."""
    i = 0
    neg = False
    if f[:1] in (b"+", b"-"):
        neg = f[:1] == b"-"
        i = 1
    if i >= len(f):
        return None
    digits = f[i:]
    if not all(0x30 <= c <= 0x39 for c in digits):
        return None
    v = int(digits)
    if neg:
        v = -v
    if v > _INT64_MAX or v < -_INT64_MAX - 1:
        return None
    return v


def _empty_cell(line: bytes) -> int:
    """puzzle's emptyCell: the index of the first cell left empty by a comma
    (one at the start or end of the line, or two with only spaces, tabs or
    "\\r" between them: "1,,2"), or -1."""
    cells = 0
    want = True  # at the start or just after a comma: a cell must come
    in_cell = comma = False
    for c in line:
        if c == 0x2C:
            if want:
                return cells
            want, in_cell, comma = True, False, True
        elif c in (0x20, 0x09, 0x0D):
            in_cell = False
        else:
            if not in_cell:
                cells += 1
                in_cell = True
            want = False
    return cells if comma and want else -1


def parse_board(line: bytes, n: int) -> tuple[list[int] | None, str | None]:
    """puzzle.ParseBoard(line, n) on a byte line (fields split at spaces, tabs,
    commas and "\\r" only, a comma at either end or two commas with only
    separators between them leaving a cell empty, an error; pdbgen passes the
    line untrimmed): (board, None) or (None, message) with the message pdbgen
    prints after "line N: "."""
    fields = []
    i = 0
    ln = len(line)
    while i < ln:
        while i < ln and line[i] in _SEP:
            i += 1
        s = i
        while i < ln and line[i] not in _SEP:
            i += 1
        if i > s:
            fields.append(line[s:i])
    if not fields:
        return None, "bad board: empty line"
    empty = _empty_cell(line)
    if empty >= 0:
        return None, f"bad board: cell {empty}: empty (a comma with no tile before it)"
    if len(fields) != n:
        return None, f"bad board: {len(fields)} cells, want {n}"
    board = [0] * n
    for i, f in enumerate(fields):
        if len(f) == 1 and f in (b"x", b"X", b"_"):
            continue
        v = _atoi(f)
        if v is None:
            return None, f"bad board: cell {i}: {go_quote(f)} is not a tile number or blank (0, x, _)"
        if v < 0 or v >= n:
            return None, f"bad board: cell {i}: tile {v} out of range 0..{n - 1}"
        board[i] = v
    seen = [False] * n
    for t in board:
        if seen[t]:
            return None, "bad board: more than one blank" if t == 0 else f"bad board: tile {t} appears twice"
        seen[t] = True
    for t in range(n):
        if not seen[t]:
            return None, "bad board: no blank" if t == 0 else f"bad board: tile {t} is missing"
    return board, None


def board_of_line(text: bytes | None, n: int) -> tuple[list[int] | None, str | None] | None:
    """What ``pdbgen lookup`` does with one line of read_lines: None for a line
    it skips (blank, or first non-space character '#'), else parse_board of
    the untrimmed line, or (None, LINE_TOO_LONG)."""
    if text is None:
        return None, LINE_TOO_LONG
    t = _trim_space(text)
    if not t or t[0] == 0x23:
        return None
    return parse_board(text, n)
