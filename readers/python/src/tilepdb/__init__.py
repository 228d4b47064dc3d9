"""tilepdb: read, verify and look up tilepdb pattern databases for sliding-tile puzzles.

Reads table files of formats 1.x and 2.x (format/SPEC.md of the tilepdb
project) and set files, in the strict order of SPEC.md section 3, and looks
boards up one at a time or in numpy batches::

    import numpy as np
    import tilepdb

    s = tilepdb.open_set(["data/15-663_1-5-6-9-10-13.pdb",
                          "data/15-663_7-8-11-12-14-15.pdb",
                          "data/15-663_2-3-4.pdb"])
    s.lookup([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0])   # 0
    h = s.lookup_batch(boards)        # boards: (B, 16) integer array -> (B,) int16

    t = tilepdb.read_file("data/8puzzle.pdb")
    t.values_at(np.array([0, 1, 2]))  # values at ranks (SPEC.md section 4)

Errors about a file carry the SPEC error class in ``.kind``: FormatError,
ChecksumError, UnsupportedError, UnsupportedVersionError, SetFileError.
"""

from . import errors as _errors
from .errors import *  # noqa: F403 (the error classes, listed once in errors.__all__)
from .pattern import Pattern, goal_name, positions, validate_board
from .table import Table, read_bytes, read_file
from .tableset import Part, TableSet, is_set_file, open_set

__version__ = "0.1.0"

__all__ = [
    "open_set",
    "read_file",
    "read_bytes",
    "is_set_file",
    "Table",
    "TableSet",
    "Part",
    "Pattern",
    "positions",
    "validate_board",
    "goal_name",
    *_errors.__all__,
    "__version__",
]
