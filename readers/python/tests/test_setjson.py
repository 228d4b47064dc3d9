"""The strict JSON of set files (SPEC.md section 10.1): the cases and messages
of Go's TestParseSetJSON (format/setjson_test.go), byte offsets included;
random mutations of the set kit's files; the lone-surrogate test of
headers; names quoted by Go's %+q; telling set files from tables."""

from __future__ import annotations

import json
import random

import pytest

from tilepdb import is_set_file
from tilepdb._json import JSONNum, has_lone_surrogate, parse_set_json, quote_name
from tilepdb.setfile import parse_set_file
from conftest import SETS

CASES = [
    (b'{"a":1}', ""),
    (b' \t\r\n{"a":-0} \n', ""),
    (b'{"a":"\\ud83d\\ude00"}', ""),
    (b'{"a":{"b":[1,{"c":null}]},"b":{"b":1}}', ""),
    (b"\xef\xbb\xbf{}", "starts with a byte-order mark"),
    (b'{"a":"\xc3"}', "not valid UTF-8"),
    (b'{"a":1,"a":2}', 'duplicate key "a" at byte 11'),
    (b'{"a":{"b":1,"b":2}}', 'duplicate key "b" at byte 16'),
    (b'{"a\\u0000":1,"a\\u0000":1}', 'duplicate key "a\\x00" at byte 23'),
    (b'{"a":"\\ud800"}', "lone surrogate in \\u escape at byte 6"),
    (b'{"a":"\\udc00\\ud800"}', "lone surrogate in \\u escape at byte 6"),
    (b'{"a":"\\ud800\\u0041"}', "lone surrogate in \\u escape at byte 6"),
    (b'{"a":"\\x"}', "invalid escape in string literal at byte 6"),
    (b'{"a":"\\u+123"}', "invalid escape in string literal at byte 6"),
    (b'{"a":01}', "after object key:value pair: want ',' or '}' at byte 6"),
    (b'{"a":1.}', "after object key:value pair: want ',' or '}' at byte 6"),
    (b'{"a":tru}', "invalid character looking for beginning of value at byte 5"),
    (b'{"a":1}x', "invalid character after top-level value at byte 7"),
    (b'{"a":1,}', "looking for beginning of object key string at byte 7"),
    (b'{"a" 1}', "after object key: want ':' at byte 5"),
    (b"[1 2]", "after array element: want ',' or ']' at byte 3"),
    (b'{"a":"b', "unexpected end of JSON input in string at byte 7"),
    (b'{"a":"\t"}', "invalid control character in string literal at byte 6"),
    (b'{"a":', "unexpected end of JSON input at byte 5"),
    ('{"é":1,"é":2}'.encode(), 'duplicate key "\\u00e9" at byte 13'),
    (b'{"a":' + b"1" * 400 + b"}", "number literal too long at byte 5"),
    (b'{"a":' + b"[" * 63 + b"]" * 63 + b"}", ""),
    (b'{"a":' + b"[" * 64 + b"]" * 64 + b"}", "JSON nested deeper than 64 levels at byte 68"),
]


@pytest.mark.parametrize("data,want", CASES, ids=[repr(c[0][:30]) for c in CASES])
def test_parse_set_json(data, want):
    try:
        parse_set_json(data)
        got = ""
    except ValueError as e:
        got = str(e)
    assert got == want


def _same(a, b) -> bool:
    """A parse_set_json value equals a json.loads one."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, JSONNum):
        return json.loads(a) == b and not isinstance(b, bool)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("seed", range(4))
def test_mutated_set_files_are_refused_or_read_as_json_reads_them(seed):
    rng = random.Random(seed)
    files = sorted(SETS.glob("*.set.json"))
    for _ in range(300):
        data = bytearray(rng.choice(files).read_bytes()[:4096])
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(data) + 1)
            op = rng.randrange(3)
            if op == 0 and i < len(data):
                del data[i]
            elif op == 1:
                data[i:i] = bytes([rng.choice(b'{}[]",:\\u0123456789abcdefnrt- \xff\xc3')])
            elif i < len(data):
                data[i] = rng.randrange(256)
        sf, err = parse_set_file(bytes(data))
        assert (sf is None) != (err is None)
        assert err is None or "\n" not in err
        try:
            v = parse_set_json(bytes(data))
        except ValueError:
            continue
        assert _same(v, json.loads(bytes(data))), bytes(data)


@pytest.mark.parametrize(
    "js,want",
    [
        (b'{"a":"\\ud800"}', True),
        (b'{"a":"\\udc00"}', True),
        (b'{"a":"\\ud800\\u0041"}', True),
        (b'{"a":"\\ud800x"}', True),
        (b'{"a":"\\ud83d\\ude00"}', False),
        (b'{"a":"\\\\ud800"}', False),
        (b'{"a":"\\u0041"}', False),
        (b'{"\\"\\ud800":1}', True),
    ],
)
def test_has_lone_surrogate(js, want):
    assert has_lone_surrogate(js) is want


@pytest.mark.parametrize(
    "name,want",
    [
        ("4x4_2-3-4.pdb", '"4x4_2-3-4.pdb"'),
        ('a"b\\c', '"a\\"b\\\\c"'),
        ("a\x00b\x7f\n\t\x1b", '"a\\x00b\\x7f\\n\\t\\x1b"'),
        ("é\u0085\U0001f600", '"\\u00e9\\u0085\\U0001f600"'),
    ],
)
def test_quote_name_is_gos_plus_q(name, want):
    assert quote_name(name) == want


@pytest.mark.parametrize(
    "content,want",
    [
        (b"{}", True),
        (b"\xef\xbb\xbf \r\n{", True),
        (b" " * 10000 + b"{", True),
        (b" " * 10000, False),
        (b"[{}]", False),
        (b" \xef\xbb\xbf{", False),
        (b"TILEPDB\x1a", False),
        (b"", False),
    ],
)
def test_is_set_file(tmp_path, content, want):
    p = tmp_path / "f"
    p.write_bytes(content)
    assert is_set_file(p) is want
