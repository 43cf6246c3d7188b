"""The terminal game in Spanish and Danish (issue 21): every screen a player meets speaks the chosen
language, nothing of the English catalogue is left on screen, and the Danish words fit at 80x24.

The check for English left on screen reads each screen as text (the same SVG the snapshots keep)
and looks for the English catalogue's wording: every run of two or more words of an English
message that its translation does not also contain. A new message that is not wrapped in ``_()``
shows up here once a screen shows it; ``tests/i18n`` checks the source for the same.
"""

from __future__ import annotations

import html
import io
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest
from test_snapshots import finished, pick, table
from textual.widgets import Static
from tui_helpers import settle

from sequence_game import i18n
from sequence_game.cli import main
from sequence_game.tui.app import SequenceApp
from sequence_game.tui.controller import GameSession
from sequence_game.tui.game_screen import GameScreen
from sequence_game.tui.plain import run_plain, run_plain_replay
from sequence_game.tui.widgets import HandView

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# ---------------------------------------------------------------------------------- reading


def screen_text(app: SequenceApp) -> str:
    """What the terminal shows, line by line (from the SVG screenshot)."""
    rows: dict[float, list[tuple[float, str]]] = defaultdict(list)
    for m in re.finditer(
        r'<text [^>]*?x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', app.export_screenshot()
    ):
        rows[float(m[2])].append((float(m[1]), html.unescape(m[3]).replace("\xa0", " ")))
    return "\n".join("".join(t for _, t in sorted(row)) for _, row in sorted(rows.items()))


@cache
def english_wording(lang: str) -> frozenset[str]:
    """Runs of two or more English words of each message that its ``lang`` translation lacks."""
    found: set[str] = set()
    catalogue = i18n.translation(lang)
    for msgid, msgstr in catalogue._catalog.items():  # type: ignore[attr-defined]
        english = msgid[0] if isinstance(msgid, tuple) else msgid
        if not english:
            continue
        for piece in re.split(r"\{\w+\}|%\(\w+\)\w|%\w|\n", english):
            piece = " ".join(piece.split()).strip(" .,:;()")
            if len(piece) >= 10 and re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", piece) and piece not in msgstr:
                found.add(piece)
    return frozenset(found)


def english_left(text: str, lang: str) -> list[str]:
    flat = " ".join(text.split())
    return sorted(piece for piece in english_wording(lang) if piece in flat)


def test_the_wording_check_finds_english() -> None:
    left = english_left("Turno 1: Choose a card first: 1-9 or click it in your hand.", "es")
    assert "Choose a card first: 1-9 or click it in your hand" in left
    assert english_left("Elija primero una carta: 1-9 o haga clic en ella en su mano.", "es") == []


# ---------------------------------------------------------------------------------- the screens


class Tour:
    """Screens collected while a pilot plays; each is checked for English wording."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.screens: list[str] = []

    def take(self, app: SequenceApp) -> str:
        text = screen_text(app)
        self.screens.append(text)
        return text

    def check(self) -> None:
        left = {piece for text in self.screens for piece in english_left(text, self.lang)}
        assert not left, f"English on the {self.lang} screens: {sorted(left)}"


@pytest.mark.parametrize("lang", ["es", "da"])
async def test_a_game_tour_speaks_the_language(lang: str) -> None:
    i18n.set_language(lang)
    tour = Tour(lang)
    session = table()
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = tour.take(app)
        await pilot.press(pick(session, "jd"))
        tour.take(app)
        await pilot.press(pick(session, "js"))
        tour.take(app)
        await pilot.press("9")  # no such card
        tour.take(app)
        await pilot.press("e")  # a typed column waits for its row
        tour.take(app)
        await pilot.press("escape", "x")  # nothing chosen to give up
        tour.take(app)
        for key in ("question_mark", "l", "s"):
            await pilot.press(key)
            await pilot.pause()
            tour.take(app)
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        tour.take(app)
        await pilot.press("n")
    tour.check()
    expected = {
        "es": ("Turno 3 (ronda 2): juega", "Su mano:"),
        "da": ("Tur 3 (runde 2): Din tur", "Din hånd:"),
    }
    for words in expected[lang]:
        assert words in first


@pytest.mark.parametrize("lang", ["es", "da"])
async def test_the_other_screens_speak_the_language(lang: str, tmp_path: Path) -> None:
    i18n.set_language(lang)
    tour = Tour(lang)
    async with SequenceApp(bot_delay=0, autosave=False).run_test(size=(80, 24)) as pilot:  # new game
        await pilot.pause()
        tour.take(pilot.app)
        pilot.app.screen.query_one("#players").value = 4
        await pilot.pause()
        tour.take(pilot.app)
    four = GameSession.new(players=4, seed=1, seats=["human", "easy"])
    async with SequenceApp(four, bot_delay=0, autosave=False).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t")  # table talk (R6.1)
        await pilot.pause()
        tour.take(pilot.app)
    hotseat = table(seats=("human", "human"))
    async with SequenceApp(hotseat, bot_delay=0, autosave=False).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tour.take(pilot.app)  # pass the keyboard
    async with SequenceApp(finished(), bot_delay=0, autosave=False).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tour.take(pilot.app)  # the result
        await pilot.press("b")
        await pilot.pause()
        tour.take(pilot.app)  # the board after the game
    bots = GameSession.new(players=3, seed=6, seats=["easy"])
    bots.step_bots()
    path = tmp_path / "game.json"
    bots.save(path)
    async with SequenceApp(replay=path).run_test(size=(80, 24)) as pilot:
        await pilot.press("end", "left")
        await pilot.pause()
        tour.take(pilot.app)
    tour.check()


async def test_danish_fits_80x24(danish: str) -> None:
    """The longest words (Danish compounds) leave the hand, the whose-turn line and the side panel
    whole at the smallest size the game promises."""
    session = GameSession.new(players=3, seed=2, seats=["human", "human", "human"])
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        hand = screen.query_one(HandView)
        assert hand._spans and max(line for line, _, _ in hand._spans) < hand.region.height
        assert all(end <= hand.region.width for _, _, end in hand._spans)
        status = screen.query_one("#status", Static)
        log = screen.query_one("#log")
        assert status.region.bottom <= log.region.y and log.region.height > 0  # nothing pushed off
        side = screen.query_one("#side")
        assert side.region.right <= 80 and status.region.width >= 24
        text = screen_text(app)
        assert "Tur 1 (runde 1)" in text
        assert "Hånd: Plads 0 (Blå)" in text  # the hand's caption, whole
        assert not english_left(text, "da")


# ---------------------------------------------------------------------------------- plain mode


class FirstLegalMove(io.StringIO):
    """A player who types a few commands, an illegal move, then always the first legal move."""

    def __init__(self, session: GameSession, commands: str) -> None:
        super().__init__()
        self.session = session
        self.commands = commands.splitlines()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.commands:
            return self.commands.pop(0) + "\n"
        from sequence_game.actions import action_name

        return action_name(self.session.state.legal_actions(0)[0]) + "\n"


@pytest.mark.parametrize("lang", ["es", "da"])
def test_plain_mode_speaks_the_language(lang: str, tmp_path: Path) -> None:
    i18n.set_language(lang)
    session = GameSession.new(players=2, seed=3, seats=["human", "easy"], draw="manual")
    out = io.StringIO()
    commands = "help\nhand\nmoves\ndiscards\nlog\nrules\ntalk blue\nxx@e4\n7h@a0\ndraw\nsave\n"
    assert run_plain(session, FirstLegalMove(session, commands), out) == 0
    text = out.getvalue()
    assert not english_left(text, lang)
    words = {
        "es": (
            "Jugadas legales:",
            "R5.2: a0 es una esquina libre, no 7♥",
            "R6.1: la sanción",
            "no es una carta",
        ),
        "da": ("Lovlige træk:", "R5.2: a0 er et frit hjørne, ikke 7♥", "R6.1: straffen", "ikke et kort"),
    }
    for expected in words[lang]:
        assert expected in text
    path = tmp_path / "game.json"
    session.save(path)
    replayed = io.StringIO()
    assert run_plain_replay(path, io.StringIO("n\n3\nq\n"), replayed) == 0
    assert not english_left(replayed.getvalue(), lang)
    assert ("Paso 3 de" if lang == "es" else "Trin 3 af") in replayed.getvalue()


# ---------------------------------------------------------------------------------- the command line


def test_lang_option_and_locale_choose_the_cli_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "es", "play", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("uso: sequence play") and "muestra esta ayuda y termina" in out
    assert "2, 3, 4, 6, 8, 9, 10 o 12 (R2.1)" in out
    monkeypatch.setenv("LANG", "da_DK.UTF-8")
    assert main(["play", "--plain", "--players", "5"]) == 2
    assert capsys.readouterr().err.strip() == (
        "sequence play: R2.1: 5 spillere: Sequence spilles af 2, 3, 4, 6, 8, 9, 10 eller 12"
    )
    with pytest.raises(SystemExit):
        main(["--bogus"])
    assert "sequence: fejl: ukendte argumenter: --bogus" in capsys.readouterr().err
    assert main(["--lang", "en", "play", "--plain", "--players", "5"]) == 2  # --lang beats the locale
    assert "5 players: Sequence is played by" in capsys.readouterr().err
    assert main(["--lang", "fr", "play"]) == 2
    assert "unknown language 'fr': choose one of en, es, da" in capsys.readouterr().err
