"""``python -m sequence_game`` is the ``sequence`` command."""

import sys

from .cli import main

sys.exit(main())
