"""Every subcommand's help, messages and errors in Spanish and Danish (issue 21), and the analysis
report's text through the catalogue.

The help check is behavioural: each command's ``--help`` is printed in Spanish and in Danish (no
line wrapping, so sentences stay whole) and must hold none of the English help texts of its
options, and must use argparse's translated words (``uso:``/``brug:``, the options section).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator

import pytest

from sequence_game import cli, i18n
from sequence_game.cli import COMMANDS, main

USAGE = {"es": "uso: ", "da": "brug: "}
OPTIONS = {"es": "opciones", "da": "tilvalg"}


@pytest.fixture(autouse=True)
def english_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COLUMNS", "1000")  # argparse wraps at the terminal's width: keep lines whole
    yield
    i18n.set_language("en")
    cli.speak_argparse()


def english_helps(command: str) -> list[str]:
    """The English help texts of a command and its options, each cut before any ``%(default)s``."""
    i18n.set_language("en")
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = [str(choice.help) for choice in sub._choices_actions if choice.dest == command]
    helps += [str(a.help) for a in sub.choices[command]._actions if a.help and a.help != argparse.SUPPRESS]
    texts = [h.split("%(")[0].strip(" (") for h in helps]
    return [t for t in texts if len(t.split()) >= 2 and t != "show this help message and exit"]


@pytest.mark.parametrize("lang", ["es", "da"])
@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_is_translated(
    command: str, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    english = english_helps(command)
    assert english, command
    with pytest.raises(SystemExit):
        main(["--lang", lang, command, "--help"])
    out = capsys.readouterr().out
    assert out.startswith(USAGE[lang] + "sequence " + command), out[:80]
    assert f"\n{OPTIONS[lang]}:" in out, out
    left = [text for text in english if text in out]
    assert left == [], left


@pytest.mark.parametrize("lang", ["es", "da"])
def test_the_command_list_is_translated(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", lang, "--help"])
    out = capsys.readouterr().out
    for command in COMMANDS:
        for text in english_helps(command)[:1]:  # the command's own line in the list
            assert text not in out, (command, text)


def test_the_commands_errors_are_translated(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as bench:
        main(["--lang", "da", "bench", "--games", "0"])
    assert str(bench.value.code) == "sequence bench: --games skal være mindst 1"
    with pytest.raises(SystemExit) as players:
        main(["--lang", "es", "bench", "--players", "4", "--teams", "3"])
    assert str(players.value.code).startswith("sequence bench: R2.2: 4 jugadores no pueden formar 3 bandos")
    with pytest.raises(SystemExit) as tournament:
        main(["--lang", "es", "tournament", "--simulations", "0", "--quiet"])
    assert str(tournament.value.code) == "sequence tournament: --simulations debe ser al menos 1"
    from sequence_game.commands.serve import parse_limits

    i18n.set_language("da")
    with pytest.raises(SystemExit) as limit:
        parse_limits(["chat_burst=-1"], 1)
    assert str(limit.value.code) == "--limit 'chat_burst=-1': må ikke være negativ"


def test_bench_prints_its_figures_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "da", "bench", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 spil, 2 spillere i 2 sider, pure fast-motor:" in out and "resultater: side 0 " in out, out


# ------------------------------------------------------------------------------- the analysis report


@pytest.fixture(scope="module")
def analysis() -> object:
    from sequence_game import GameConfig, new_game
    from sequence_game.analysis import Budget, analyze_record
    from sequence_game.records import write_record

    state = new_game(GameConfig(players=2), seed=5)
    state.playout(random.Random(5))
    return analyze_record(write_record(state), Budget(seconds=None, samples=2, bot_simulations=2), seed=1)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["result: ", "largest swings:", "analysed in", "(chances of the mover's side"]),
        ("es", ["resultado: ", "mayores vaivenes:", "analizada en", "precisión", "asiento 0 (bando 0)"]),
        ("da", ["resultat: ", "største udsving:", "analyseret på", "præcision", "plads 0 (side 0)"]),
    ],
)
def test_the_analysis_report_speaks_the_language(lang: str, words: list[str], analysis: object) -> None:
    from sequence_game.analysis import format_text
    from sequence_game.analysis.report import LABEL_WORDS

    i18n.set_language(lang)
    text = format_text(analysis)  # type: ignore[arg-type]
    for word in words:
        assert word in text, (word, text[-400:])
    if lang != "en":
        for english in ("largest swings", "analysed in", "accuracy", "decisions", "result:", "seat 0 (side"):
            assert english not in text, english
        labels = [i18n._(w) for w in LABEL_WORDS.values()]
        assert all(label != english for label, english in zip(labels, LABEL_WORDS.values(), strict=True))
