"""Every terminal-interface test autosaves into its own folder, never the user's data folder; it
speaks English (tests/conftest.py) unless it asks for Spanish or Danish here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sequence_game import i18n


@pytest.fixture(autouse=True)
def _autosave_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("sequence-home")
    monkeypatch.setenv("SEQUENCE_GAME_HOME", str(home))
    return home


@pytest.fixture
def spanish() -> Iterator[str]:
    """The terminal game in Spanish for one test (English again afterwards)."""
    i18n.set_language("es")
    yield "es"
    i18n.set_language("en")


@pytest.fixture
def danish() -> Iterator[str]:
    """The terminal game in Danish for one test (English again afterwards)."""
    i18n.set_language("da")
    yield "da"
    i18n.set_language("en")
