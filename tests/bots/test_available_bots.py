"""Bots whose extra is not installed are not offered (the TUI's choices, the server's lists)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

import sequence_game.bots as bots
from sequence_game.tui.controller import bot_for_level, level_choices


@pytest.fixture
def without_numba(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> object:
        return None if name == "numba" else real(name, package)

    monkeypatch.setattr(bots, "find_spec", find_spec)
    bots.available_bots.cache_clear()
    yield
    bots.available_bots.cache_clear()


def test_every_bot_is_available_with_every_extra() -> None:
    bots.available_bots.cache_clear()
    assert bots.available_bots() == tuple(bots.BOTS)


def test_a_bot_whose_extra_is_missing_is_not_offered(without_numba: None) -> None:
    assert "pimc" not in bots.available_bots()
    assert "policy" in bots.available_bots()  # numpy is still there
    assert "pimc" not in level_choices()
    with pytest.raises(ValueError, match="unknown bot level 'pimc'"):
        bot_for_level("pimc")
    assert bot_for_level("expert") == "mcts"  # the expert's fallback (LEVEL_FALLBACKS)
    assert bots.level_spec("expert") == "mcts"
    assert bots.table_spec("pimc") == "pimc"  # no level plays it here
    assert bots.make_bot("expert", seed=1).name == "mcts"
    assert bots.level_bots()["mcts"] == "expert"


def test_the_bots_import_and_play_without_numpy() -> None:
    """The engine and its one-ply bots need nothing beyond the standard library: with numpy and
    Numba unimportable, ``sequence_game.bots`` imports, the heuristic plays, and building the
    compiled search says which extra to install."""
    import subprocess
    import sys

    code = """
import sys
class Blocked:
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in ('numpy', 'numba'):
            raise ImportError('blocked: ' + name)
sys.meta_path.insert(0, Blocked())
from sequence_game import GameConfig, new_game
from sequence_game.bots import PimcBot, make_bot
state = new_game(GameConfig(players=2), seed=1)
assert make_bot('heuristic', seed=1).select_action(state.view(state.current_seat)) in state.legal_actions()
try:
    PimcBot(seed=1)
except ImportError as exc:
    print(exc)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "pip install 'sequence-game[fast]'" in done.stdout
