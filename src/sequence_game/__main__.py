"""``python -m sequence_game`` is the ``sequence`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
