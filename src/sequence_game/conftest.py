"""Doctests of the package: modules of an optional extra that is not installed are not collected."""

from __future__ import annotations

import importlib.util

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["env/openspiel_game.py"]
