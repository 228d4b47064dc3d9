"""``python -m tilepdb lookup FILE... < boards`` (see tilepdb.cli)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
