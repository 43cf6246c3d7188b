"""``sequence tournament``'s table and progress bar speak the chosen language (issue 21): the words
are catalogue messages, the numbers the same in every language.

Behavioural: a real tiny tournament (two cheap bots, two games) runs with ``--lang es`` and
``--lang da``; neither its table nor its progress lines may hold the English labels, which the same
run in English shows.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest

from sequence_game import i18n
from sequence_game.bots.tournament import ProgressBar, format_table
from sequence_game.cli import main

#: The English words of the table and the progress line (each a whole word or phrase).
ENGLISH = [
    "pair",
    "games",
    "wins",
    "draws",
    "win rate",
    "of the first",
    "Elo scale",
    "mean 1500",
    "time per move",
    "vs",
    "turns a game",
    "stopped at the turn limit",
    "to go",
    "ORACLE",
    "saw the true state",
    "a measurement only",
]
OWN_WORDS = {
    "es": ["pareja", "partidas", "victorias", "empates", "contra", "tiempo por jugada", "faltan"],
    "da": ["par", "spil", "sejre", "uafgjorte", "mod", "tid pr. træk", "tilbage"],
}
RUN = ["tournament", "--bots", "random,greedy", "--games", "2", "--workers", "1", "--seed", "3"]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def english_left(text: str) -> list[str]:
    return [word for word in ENGLISH if re.search(rf"\b{re.escape(word)}\b", text)]


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?", text)


def run(lang: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main(["--lang", lang, *RUN]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_the_english_run_shows_the_labels_the_others_must_not(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = run("en", capsys)
    assert "pair" in out and "random vs greedy" in out and "turns a game" in out, out
    assert "2/2 games" in err and "to go" in err, err


@pytest.mark.parametrize("lang", ["es", "da"])
def test_a_tiny_tournament_speaks_the_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    english_out, _err = run("en", capsys)
    out, err = run(lang, capsys)
    assert english_left(out) == [], out
    assert english_left(err) == [], err
    for word in OWN_WORDS[lang]:
        assert word in out + err, (word, out, err)
    # the same games, the same figures (time per move aside: it is measured anew each run)
    table = [line for line in out.splitlines() if "random" in line and "greedy" in line]
    english_table = [line for line in english_out.splitlines() if "random" in line and "greedy" in line]
    assert [numbers(line) for line in table] == [numbers(line) for line in english_table]
    assert "2/2" in err


@pytest.mark.parametrize("lang", ["es", "da"])
def test_the_oracle_warning_and_the_progress_bar_are_translated(lang: str) -> None:
    i18n.set_language(lang)
    summary = {
        "games": 4,
        "pairs": [
            {
                "bots": ["random", "planner(oracle=True)"],
                "games": 4,
                "wins": {"random": 1, "planner(oracle=True)": 3},
                "draws": 0,
                "win_rate": {"random": 0.25, "planner(oracle=True)": 0.75},
                "ci95": {"random": [0.05, 0.7], "planner(oracle=True)": [0.3, 0.95]},
            }
        ],
        "ratings": {"random": 1400.0, "planner(oracle=True)": 1600.0},
        "ms_per_move": {"random": 0.01, "planner(oracle=True)": 12.5},
        "oracle": ["planner(oracle=True)"],
        "turns_per_game": 40.5,
        "truncated": 1,
    }
    table = format_table(summary)
    assert english_left(table) == [], table
    oracle = table.splitlines()[-1]
    assert oracle.startswith({"es": "ORÁCULO: ", "da": "ORAKEL: "}[lang]) and "planner(oracle=True)" in oracle
    assert "12.50" in table and "40.5" in table and "25.0%" in table
    stream = io.StringIO()
    bar = ProgressBar(stream, width=10)
    for done in range(1, 5):
        bar(done, 4)
    lines = stream.getvalue().splitlines()
    assert lines[-1].startswith("[##########] 4/4 "), lines
    assert english_left(stream.getvalue()) == [], lines


@pytest.mark.parametrize("lang", ["es", "da"])
def test_what_a_level_plays_is_said_in_the_language(lang: str) -> None:
    i18n.set_language(lang)
    summary = {
        "games": 2,
        "pairs": [],
        "ratings": {"hard": 1500.0, "medium": 1500.0},
        "ms_per_move": {"hard": 1.0, "medium": 0.5},
        "specs": {"hard": "heuristic", "medium": "greedy"},
        "turns_per_game": 40.0,
        "truncated": 0,
    }
    said = {"es": "juega como", "da": "spiller som"}[lang]
    assert format_table(summary).splitlines()[-2:] == [f"hard {said} heuristic", f"medium {said} greedy"]


def test_no_english_literal_is_left_in_the_tournament_module() -> None:
    from .test_catalogs import catalogs

    module = catalogs.PACKAGE / "bots" / "tournament.py"
    assert catalogs.python_strings_outside_catalogue((module,)) == []
