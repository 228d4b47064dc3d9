"""Errors of the tilepdb reader, with the error classes of format/SPEC.md section 3.

Every error about a file's content is a :class:`TilepdbError` whose ``kind``
is the SPEC class: ``"format"``, ``"checksum"``, ``"unsupported"``,
``"unsupported-version"``, or ``"set"`` for a set file (SPEC.md section 10)
that is malformed or does not hold together with its tables. Messages are
one line and word the problem as the Go reader (``pdbgen``) does.
"""

from __future__ import annotations

__all__ = [
    "TilepdbError",
    "FormatError",
    "ChecksumError",
    "UnsupportedError",
    "UnsupportedVersionError",
    "SetFileError",
    "SetError",
    "LimitError",
    "BoardError",
    "UnsolvableError",
]


class TilepdbError(Exception):
    """Base class of the errors about a file's content (bad data: exit status 1)."""

    kind = "format"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def with_prefix(self, prefix: str) -> "TilepdbError":
        """Prepends ``prefix`` (a path, "set: part N: ...") to the message, in place; returns self."""
        self.message = prefix + self.message
        self.args = (self.message,)
        return self


class FormatError(TilepdbError):
    """Not a table file, or its structure or content breaks SPEC.md (class *format*).

    ``offset`` is the byte offset the problem was found at.
    """

    kind = "format"

    def __init__(self, offset: int, msg: str) -> None:
        super().__init__(f"tilepdb: invalid table file at byte {offset}: {msg}")
        self.offset = offset


class ChecksumError(TilepdbError):
    """A stored checksum differs from the recomputed one (class *checksum*).

    ``what`` names it: ``header sha256``, ``payload_sha256``, a zstd frame's
    content checksum, or ``raw_sha256``.
    """

    kind = "checksum"

    def __init__(self, what: str, want: str = "", got: str = "") -> None:
        if want or got:
            msg = f"tilepdb: {what} mismatch: file says {want}, content hashes to {got}"
        else:
            msg = f"tilepdb: {what} mismatch"
        super().__init__(msg)
        self.what = what


class UnsupportedError(TilepdbError):
    """A well-formed header asks for what this reader does not implement (class *unsupported*):
    ``ranking_version``, ``bits_per_entry`` or ``encoding``."""

    kind = "unsupported"

    def __init__(self, offset: int, msg: str) -> None:
        super().__init__(f"tilepdb: unsupported table file at byte {offset}: {msg}")
        self.offset = offset


class UnsupportedVersionError(TilepdbError):
    """A major version other than 1 and 2 (class *unsupported-version*)."""

    kind = "unsupported-version"

    def __init__(self, major: int, minor: int) -> None:
        super().__init__(
            f"tilepdb: table file format version {major}.{minor} is not supported "
            "(this reader supports 1.x and 2.x)"
        )
        self.major = major
        self.minor = minor


class SetFileError(TilepdbError):
    """A set file (SPEC.md sections 10 and 12) that is malformed, of another
    version, or inconsistent with its tables. ``file`` names the set file,
    ``part`` the part (1-based; within its partition for a catalogue) when
    there is one, ``partition`` the partition of a catalogue (1-based) when
    there is one."""

    kind = "set"

    def __init__(self, message: str, file: str = "", part: int | None = None, partition: int | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.part = part
        self.partition = partition


class SetError(Exception):
    """Tables given directly that do not form one heuristic (overlapping tiles,
    different boards or goals, an exact table with others): not a file
    problem, but bad data all the same (Go: puzzle.ErrNotAdditive;
    ``pdbgen lookup`` exits 1)."""


class LimitError(Exception):
    """A valid table this reader cannot hold (not enough memory for its entries)."""


class BoardError(ValueError):
    """A malformed board; the message is the one ``pdbgen`` prints ("bad board: ...")."""


class UnsolvableError(ValueError):
    """A valid board that cannot reach the goal (the other parity class).

    ``pdbgen lookup`` answers such a board "unsolvable"; it is not bad input.
    """

    def __init__(self, goal_name: str) -> None:
        super().__init__(f"board is not solvable for goal {goal_name}")
