"""Every test speaks English unless it asks for another language, whatever the machine's locale:
``sequence`` and the terminal game follow ``LANG``/``LC_ALL`` (docs/i18n.md), and the expected
outputs and snapshots are English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sequence_game import i18n


@pytest.fixture(autouse=True)
def _english_by_default(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in i18n.LOCALE_VARIABLES:  # also cleared for the servers and commands a test starts
        monkeypatch.delenv(name, raising=False)
    i18n.set_language("en")
    yield
    i18n.set_language("en")
