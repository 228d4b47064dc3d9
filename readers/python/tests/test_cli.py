"""python -m tilepdb lookup against the contract of pdbgen lookup
(scripts/check-readers.sh compares it with pdbgen itself)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from conftest import KIT, SETS, ROOT

EXACT = str(KIT / "good-exact.pdb")  # 3x2, blank-last, exact
ADDITIVE = str(KIT / "good-additive.pdb")  # 3x3, blank-last, tiles 1,2,3
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "readers" / "python" / "src"), os.environ.get("PYTHONPATH", "")]))


def run(files, data: bytes = b"", *args):
    r = subprocess.run([sys.executable, "-m", "tilepdb", *args, "lookup", *files], input=data, capture_output=True, env=ENV, timeout=120)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def test_unsolvable_boards_are_answered_exit_0():
    assert run([EXACT], b"2 1 3 4 5 0\n1 2 3 4 5 0\n") == (0, "2 1 3 4 5 0\tunsolvable\n1 2 3 4 5 0\t0\n", "")
    assert run([ADDITIVE], b"1 4 0 3 2 5 6 7 8\n") == (0, "1 4 0 3 2 5 6 7 8\tunsolvable\n", "")


def test_bom_long_lines_and_bad_lines():
    data = b"\xef\xbb\xbf1 2 3 4 5 0\r\n" + b"7" * ((2 << 20) + 5) + "\n1 2\n\u00a01 2 3 4 5 0\n1 2 3 4 0 5".encode()
    code, out, err = run([EXACT], data)
    assert code == 1
    assert out == "1 2 3 4 5 0\t0\n1 2 3 4 0 5\t1\n"
    assert err == ('line 2: line longer than 4096 bytes\nline 3: bad board: 2 cells, want 6\n'
                   'line 4: bad board: cell 0: "\\u00a01" is not a tile number or blank (0, x, _)\n'
                   'tilepdb-py lookup: 3 bad line(s)\n')


def test_blank_symbols_and_separators():
    assert run([EXACT], b"1,2,3\t4 5 x\n# comment\n\n1 2 3 4 _ 5\n")[:2] == (0, "1 2 3 4 5 0\t0\n1 2 3 4 0 5\t1\n")


def test_each_answer_is_written_before_the_next_line_arrives():
    p = subprocess.Popen([sys.executable, "-m", "tilepdb", "lookup", EXACT], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, env=ENV)
    try:
        p.stdin.write(b"1 2 3 4 5 0\n")
        p.stdin.flush()
        assert p.stdout.readline() == b"1 2 3 4 5 0\t0\n"
        p.stdin.write(b"2 1 3 4 5 0\n")
        p.stdin.flush()
        assert p.stdout.readline() == b"2 1 3 4 5 0\tunsolvable\n"
    finally:
        p.stdin.close()
    assert p.wait(60) == 0


def test_sigterm_exits_143_saying_interrupted():
    p = subprocess.Popen([sys.executable, "-m", "tilepdb", "lookup", EXACT], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    p.stdin.write(b"1 2 3 4 5 0\n")
    p.stdin.flush()
    assert p.stdout.readline() == b"1 2 3 4 5 0\t0\n"
    p.terminate()
    assert p.wait(60) == 143
    assert p.stderr.read().decode().endswith("tilepdb-py lookup: interrupted\n")
    p.stdin.close()


def test_usage_and_file_errors_exit_2_a_corrupt_table_1(tmp_path):
    assert run([])[0] == 2
    code, _, err = run([str(KIT / "nonexistent.pdb")])
    assert code == 2
    assert err == f"tilepdb-py lookup: open {KIT / 'nonexistent.pdb'}: no such file or directory\n"
    code, _, err = run([str(KIT)])
    assert (code, err) == (2, f"tilepdb-py lookup: {KIT}: not a regular file (a directory)\n")
    if os.path.exists("/dev/null"):
        assert run(["/dev/null"])[::2] == (2, "tilepdb-py lookup: /dev/null: not a regular file (a character device)\n")
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "f.pdb"
        os.mkfifo(fifo)
        assert run([str(fifo)])[::2] == (2, f"tilepdb-py lookup: {fifo}: not a regular file (a named pipe)\n")
    code, _, err = run([str(KIT / "bad-magic.pdb")])
    assert code == 1 and "invalid table file at byte 0" in err and err.count("\n") == 1
    assert run(["-x", EXACT])[0] == 2


@pytest.mark.parametrize("files,message", [
    (["4x4_2-3-4.pdb", "4x4_3-4-8.pdb"],
     "{1} (4x4 blank-last tiles 3,4,8) and {0} (4x4 blank-last tiles 2,3,4) are not disjoint: both hold tile(s) 3,4"),
    (["3x2.pdb", "3x2_1.pdb"],
     "{0} (3x2 blank-last exact (all tiles)) is an exact table and must be used alone, not in a set of 2"),
    (["3x3_1-2-3.pdb", "4x4_5-9-13.pdb"],
     "{1} (4x4 blank-last tiles 5,9,13) is for a 4x4 board, {0} (3x3 blank-last tiles 1,2,3) for 3x3"),
    (["4x4_5-9-13.pdb", "4x4-bf_1-2-3.pdb"],
     '{1} (4x4 blank-first tiles 1,2,3) has goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", '
     '{0} has goal "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"'),
])
def test_tables_that_do_not_combine_are_bad_data_exit_1(files, message):
    paths = [str(SETS / f) for f in files]
    assert run(paths) == (1, "", f"tilepdb-py lookup: tilepdb: {message.format(*paths)}\n")


def test_set_files_as_pdbgen_takes_them():
    code, out, err = run([str(SETS / "good-3x2.set.json")], b"1 2 3 4 5 0\n1 2 0 4 5 3\n2 1 3 4 5 0\n")
    assert (code, out) == (0, "1 2 3 4 5 0\t0\n1 2 0 4 5 3\t1\n2 1 3 4 5 0\tunsolvable\n"), err
    code, _, err = run([str(SETS / "bad-blank-region.set.json")])
    assert code == 1
    assert "part 1 (tiles [6 8]) through table \"3x3_2-4.pdb\": tilepdb: invalid set: bad symmetry: rot180" in err
    code, _, err = run([str(SETS / "bad-table-missing.set.json")])
    assert code == 2 and err.endswith("nonexistent.pdb: no such file or directory\n")


def test_verify():
    r = subprocess.run([sys.executable, "-m", "tilepdb", "verify", ADDITIVE, str(SETS / "good-a.set.json")],
                       capture_output=True, env=ENV, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().count(": ok (") == 2
    r = subprocess.run([sys.executable, "-m", "tilepdb", "verify", str(KIT / "bad-raw-sha.pdb")],
                       capture_output=True, env=ENV, timeout=120)
    assert r.returncode == 1
