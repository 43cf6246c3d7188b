"""Checked-in playthroughs still come out the same (regenerate with scripts/make_playthroughs.py)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from make_playthroughs import CASES, OUT

from sequence_game.playthrough import playthrough


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_unchanged(name: str) -> None:
    config, seed = CASES[name]
    assert playthrough(config, seed) == (OUT / f"{name}.txt").read_text()
