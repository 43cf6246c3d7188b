"""Errors and check details carry their data (``sequence_game.messages``): each is an English text
formatted from a catalogue template and its params, and is worded in Spanish and Danish from that
data, with no reading back of the English.

Behavioural: real errors of the engine (random games, every action id, every seat), of the record
reader and of the fairness checks. Structural: every template in the source is a literal the
catalogue extracts, and the catalogue translates it with the same fields.
"""

from __future__ import annotations

import ast
import copy
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sequence_game import GameConfig, i18n, new_game
from sequence_game.actions import DRAW, Action
from sequence_game.errors import ConfigError, IllegalActionError
from sequence_game.messages import CardCode, Listed, Message, message_of
from sequence_game.records import RecordError, replay

from .test_record_messages import _record_errors, fair_record

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "sequence_game"
LANGS = ("es", "da")


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def _english(message: Message) -> str:
    """The English, formatted here from the template and params alone (not by ``Message``)."""
    params = {k: format(v) if isinstance(v, Listed) else str(v) for k, v in message.params.items()}
    text = message.template.format(**params)
    return f"{message.rule}: {text}" if message.rule else text


def assert_carries_its_data(error: BaseException | str) -> Message:
    """The text is its template filled with its params; the catalogue words it in each language."""
    message = message_of(error) if isinstance(error, BaseException) else error
    assert isinstance(message, Message), repr(error)
    english = str(error)
    assert english == str(message) == _english(message), (english, message.template, message.params)
    assert set(message.params) >= _fields(message.template), message.template
    for lang in LANGS:
        translated = i18n.translation(lang).gettext(message.msgid)
        assert translated != message.msgid or not re.search("[a-z]{3}", message.msgid), (lang, message.msgid)
        assert _fields(translated) == _fields(message.msgid), (lang, message.msgid, translated)
        worded = i18n.message_text(error, lang)
        assert worded != english, (lang, english)
        assert re.findall(r"R\d\.\d", worded) == re.findall(r"R\d\.\d", english), (english, worded)
        cards = [v for v in message.params.values() if isinstance(v, CardCode)]
        assert all(i18n.card_short(card) in worded for card in cards), (english, worded)
    return message


def _engine_errors(state_seed: int, moves: int) -> Iterator[ValueError]:
    """Every refusal of every action id by every seat (and a few unreadable ones) after ``moves``
    random moves of a game of each team size."""
    for config in (GameConfig(players=2), GameConfig(players=4, draw="manual")):
        state = new_game(config, seed=state_seed)
        rng = random.Random(state_seed)
        for _ in range(moves):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if config.team_size > 1 and not state.is_terminal() and rng.random() < 0.5:
            state.call_table_talk(rng.randrange(config.sides))
        for seat in (*range(config.players), config.players, -1):
            for action in (*range(0, DRAW + 1, 7), DRAW, DRAW + 1, -3):
                try:
                    state.check(action, seat)
                except IllegalActionError as exc:
                    yield exc
            for text in ("xx@e4", "7h@z9", "7h", "dead zz", "jd@a0", "jh@e4", "2s@a1"):
                try:
                    state.apply(text, seat)  # now and then a legal move: play goes on from it
                except IllegalActionError as exc:
                    yield exc


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 60))
def test_every_engine_refusal_carries_its_data(seed: int, moves: int) -> None:
    for error in _engine_errors(seed, moves):
        assert_carries_its_data(error)


@pytest.mark.parametrize(
    "attempt",
    [
        lambda: GameConfig(players=5),
        lambda: GameConfig(players=4, teams=3),
        lambda: GameConfig(players=2, draw="sometimes"),  # type: ignore[arg-type]
        lambda: Action.parse("xx@e4"),
        lambda: Action.parse("7h@z9"),
        lambda: Action.parse("7h"),
        lambda: Action.parse("7h@a0"),
        lambda: Action.decode(10**6),
        lambda: new_game(GameConfig(players=2), seed=1).call_table_talk(0),
        lambda: new_game(GameConfig(players=4), seed=1).call_table_talk(7),
    ],
)
def test_configuration_and_notation_errors_carry_their_data(attempt: Any) -> None:
    with pytest.raises((ConfigError, IllegalActionError, ValueError)) as caught:
        attempt()
    assert_carries_its_data(caught.value)


def test_every_record_error_carries_its_data() -> None:
    errors = _record_errors()
    assert len(errors) > 30
    for error in errors:
        assert isinstance(error, RecordError)
        assert_carries_its_data(error)


def _tampered(record: dict[str, Any], how: str) -> dict[str, Any]:
    out = copy.deepcopy(record)
    if how in ("deck", "both"):
        out["deck"][-1], out["deck"][-3] = out["deck"][-3], out["deck"][-1]
    if how in ("winner", "both"):
        out["result"]["winner"] = 1 - out["result"]["winner"]
    if how == "sequences":
        out["result"]["sequences"] = [9, 9]
    if how == "corner":
        out["actions"][2]["cell"] = [0, 0]
    if how == "seed":
        out["fairness"]["seed"] = "00" * 32
    return out


@pytest.mark.parametrize("how", ["none", "deck", "winner", "sequences", "corner", "seed", "both"])
def test_every_check_detail_and_replay_refusal_carries_its_data(how: str) -> None:
    from sequence_game.commands.verify import verify_record

    source = _tampered(fair_record(), how)
    _status, report = verify_record(source)
    assert report["checks"]
    for check in report["checks"]:
        assert_carries_its_data(check["detail"])
    if how == "none":
        assert report["ok"]
        return
    result = replay(source)
    if not result.ok:
        assert isinstance(result.error, str)
        assert_carries_its_data(result.error)


def test_plain_text_is_the_fallback() -> None:
    """Text with no data (another program's, or read back from a file) is shown through the
    catalogue as a whole when it is a message itself, else as it is."""
    assert i18n.message_text("R7.1: the game is over", "da") == "R7.1: " + i18n.gettext_in(
        "da", "the game is over"
    )
    assert i18n.message_text("R9.9: something new", "es") == "R9.9: something new"
    assert i18n.engine_parts("seat 0 holds no 7h") is None


# ---------------------------------------------------------------------------------- the source


def _calls(name: str) -> Iterator[tuple[Path, ast.Call]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                yield path, node


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def test_every_template_in_the_source_is_a_catalogue_message() -> None:
    """``M_("...")`` takes a literal template (the extractor reads only literals); a ``Message``
    worded by another msgid names it with ``N_("...")``; each is translated with the same fields."""
    wanted: list[tuple[str, str]] = []
    for path, call in _calls("M_"):
        template = _literal(call.args[0]) if call.args else None
        assert template is not None, f"{path}:{call.lineno}: M_ needs a literal template"
        assert _fields(template) == {k.arg for k in call.keywords}, f"{path}:{call.lineno}: {template}"
        wanted.append((f"{path.name}:{call.lineno}", template))
    for path, call in _calls("Message"):
        if not call.args or _literal(call.args[0]) is None:
            continue  # a message made again from another one's data (records.RecordError)
        msgid = next(
            (k.value for k in call.keywords if k.arg == "msgid"), call.args[2] if len(call.args) > 2 else None
        )
        assert isinstance(msgid, ast.Call) and isinstance(msgid.func, ast.Name) and msgid.func.id == "N_", (
            f"{path}:{call.lineno}: a Message names its catalogue msgid with N_(...)"
        )
        found = _literal(msgid.args[0])
        assert found is not None, f"{path}:{call.lineno}"
        template = _literal(call.args[0])
        assert template is not None and _fields(template) >= _fields(found), f"{path}:{call.lineno}"
        wanted.append((f"{path.name}:{call.lineno}", found))
    assert len(wanted) > 80
    for lang in LANGS:
        catalogue = i18n.translation(lang)
        for where, msgid in wanted:
            translated = catalogue.gettext(msgid)
            assert translated and translated != msgid, (lang, where, msgid)
            assert _fields(translated) == _fields(msgid), (lang, where, msgid, translated)
