"""Command line of the Python reader, with the contract of ``pdbgen lookup``
(cmd/pdbgen/lookup.go, boards.go)::

    python -m tilepdb lookup FILE... < boards
    python -m tilepdb verify FILE...

lookup: FILE are table files and set files, as pdbgen takes them
(:func:`tilepdb.open_set`). Boards are read from stdin, one per line, and
"<board>\\t<value>" is printed for each as soon as it is known (the sum over
the parts, or the exact distance), or "<board>\\tunsolvable" for a board that
cannot reach the goal. Blank lines, lines whose first non-space character is
'#' and a UTF-8 byte-order mark at the start are skipped. A bad line (one
longer than 4096 bytes included) prints "line N: <problem>" to stderr and is
skipped. Exit status: 0 every line answered; 1 bad data (bad lines, a corrupt
table or set file, tables that do not form a set); 2 usage or I/O trouble (a
missing file, a write error); 130/143 interrupted by SIGINT/SIGTERM.

verify: reads and verifies each table or set file (with its tables); exit 0,
1 bad data, 2 trouble.
"""

from __future__ import annotations

import os
import signal
import sys

from .board import LineSplitter, board_of_line
from .errors import LimitError, SetError, TilepdbError
from .tableset import is_set_file, open_set
from .table import read_file

PROG = "tilepdb-py"
USAGE = """usage: python -m tilepdb lookup FILE... < boards   (FILE: tables and set files)
       python -m tilepdb verify FILE..."""


class _Exit(Exception):
    def __init__(self, code: int, msg: str = "") -> None:
        super().__init__(msg)
        self.code = code
        self.msg = msg


def _parse_args(cmd: str, args: list[str]) -> list[str]:
    files: list[str] = []
    for i, a in enumerate(args):
        if a == "--":
            files.extend(args[i + 1 :])
            break
        if a in ("-h", "--help", "-help"):
            sys.stdout.write(USAGE + "\n")
            raise _Exit(0)
        if a.startswith("-") and a != "-":
            raise _Exit(2, f"flag provided but not defined: {a}")
        files.append(a)
    if not files:
        tail = " < boards" if cmd == "lookup" else ""
        raise _Exit(2, f"no table files given (usage: python -m tilepdb {cmd} FILE...{tail})")
    return files


def _on_signals(cmd: str) -> None:
    def handler(signum, _frame):
        code = 130 if signum == signal.SIGINT else 143
        try:
            sys.stdout.flush()
        except Exception:  # noqa: BLE001 - exiting anyway
            pass
        os.write(2, f"{PROG} {cmd}: interrupted\n".encode())
        os._exit(code)

    signal.signal(signal.SIGINT, handler)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, handler)


def _open_error(e: BaseException) -> _Exit:
    """Exit 1 for bad data (a corrupt table or set file, tables that do not
    combine: pdbgen's puzzle.ErrNotAdditive), 2 for trouble."""
    if isinstance(e, (SetError, TilepdbError)):
        return _Exit(1, str(e))
    return _Exit(2, str(e))


def _lookup(args: list[str]) -> None:
    files = _parse_args("lookup", args)
    _on_signals("lookup")
    try:
        s = open_set(files)
    except (TilepdbError, SetError, LimitError, OSError) as e:
        raise _open_error(e) from None
    n = s.n
    first = s.parts[0].pattern
    out = sys.stdout.buffer
    err = sys.stderr
    stdin = sys.stdin.buffer
    read = getattr(stdin, "read1", None) or stdin.read
    bad = 0
    pending: list[bytes] = []

    def flush() -> None:
        if pending:
            try:
                out.write(b"".join(pending))
                out.flush()
            except OSError as e:
                raise _Exit(2, f"writing output: {e.strerror or e}") from None
            pending.clear()

    def answer(no: int, text: bytes | None) -> None:
        nonlocal bad
        r = board_of_line(text, n)
        if r is None:
            return
        board, problem = r
        if problem is not None:
            flush()
            err.write(f"line {no}: {problem}\n")
            err.flush()
            bad += 1
            return
        pos = [0] * n
        for c, t in enumerate(board):
            pos[t] = c
        value = str(s.heuristic(pos)) if first.solvable(pos) else "unsolvable"
        pending.append((" ".join(map(str, board)) + "\t" + value + "\n").encode())

    lines = LineSplitter()
    while True:
        try:
            chunk = read(65536)
        except OSError as e:
            raise _Exit(2, f"reading boards: {e.strerror or e}") from None
        if not chunk:
            break
        for no, text in lines.push(chunk):
            answer(no, text)
        flush()
    for no, text in lines.end():
        answer(no, text)
    flush()
    if bad:
        raise _Exit(1, f"{bad} bad line(s)")


def _verify(args: list[str]) -> None:
    files = _parse_args("verify", args)
    bad = trouble = 0
    for f in files:
        try:
            if is_set_file(f):
                s = open_set([f])
                what = f"catalogue, {s.w}x{s.h} board, {len(s.partitions)} partitions of" if s.catalogue else f"set file, {s.w}x{s.h} board,"
                print(f"{f}: ok ({what} {len(s.parts)} parts through {len(s.tables)} tables)")
                continue
            t = read_file(f)
            print(f"{f}: ok ({t.pattern}, {t.entries} entries, max {t.header['max_value']})")
        except TilepdbError as e:
            print(e, file=sys.stderr)
            bad += 1
        except (SetError, LimitError, OSError) as e:
            print(e, file=sys.stderr)
            trouble += 1
    if trouble:
        raise _Exit(2, f"{trouble} file(s) could not be read")
    if bad:
        raise _Exit(1, f"{bad} bad file(s)")


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    commands = {"lookup": _lookup, "verify": _verify}
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stderr.write(USAGE + "\n")
        return 0 if argv else 2
    cmd, args = argv[0], argv[1:]
    if cmd not in commands:
        sys.stderr.write(f'{PROG}: unknown command "{cmd}"\n{USAGE}\n')
        return 2
    try:
        commands[cmd](args)
        return 0
    except _Exit as e:
        if e.msg:
            sys.stderr.write(f"{PROG} {cmd}: {e.msg}\n")
        return e.code
    except Exception as e:  # noqa: BLE001 - one line, never a traceback
        sys.stderr.write(f"{PROG} {cmd}: {e}\n")
        return 2


def main_exit() -> None:
    """Entry point of the ``tilepdb-py`` script: main() as the exit status."""
    sys.exit(main())
