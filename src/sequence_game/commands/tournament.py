"""``sequence tournament``: placeholder until its issue lands (owned by that work)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("tournament", help="(not available yet)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    raise SystemExit("sequence tournament is not available in this build yet")
