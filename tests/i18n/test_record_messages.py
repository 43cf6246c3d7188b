"""``sequence verify`` and every command that loads a record speak the chosen language (issue 21): the
fairness checks' details and the record reader's errors carry their catalogue message and params
(``sequence_game.messages``) and are worded again (``sequence_game.record_messages``); ``--json``
stays English data.

Behavioural: real records (a fair game, tampered copies of it, malformed files) go through the real
CLI with ``--lang es`` and ``--lang da``. Two scanners look for English left in what a person reads:
the catalogue's English wording that a translation lacks (as ``tests/tui/test_languages.py`` reads
screens), and the English details themselves as the commands' ``--json`` reports carry them (what
the text output printed before it was translated). Both are shown to catch untranslated text.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from sequence_game import GameConfig, i18n
from sequence_game.cli import main
from sequence_game.fairness import FairDeal, fair_game, verify_cards
from sequence_game.record_messages import check_parts, record_message, record_parts
from sequence_game.records import RecordError, fairness_of, parse_record, with_fairness, write_record

LANGS = ("es", "da")
DEAL = FairDeal(bytes.fromhex("9f" * 32), ((0, "c0ffee"), (1, "feedface")))


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@cache
def _fair_record() -> str:
    """A whole random two-player game dealt fairly (it runs into a reshuffle, R5.4)."""
    state = fair_game(GameConfig(players=2), DEAL, dealer=1)
    state.playout(random.Random(0))
    return json.dumps(with_fairness(write_record(state), DEAL))


def fair_record() -> dict[str, Any]:
    return json.loads(_fair_record())  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------ the records


def _tampered_seed(r: dict[str, Any]) -> None:
    seed = bytearray(bytes.fromhex(r["fairness"]["seed"]))
    seed[0] ^= 1
    r["fairness"]["seed"] = seed.hex()


def _swapped_card_and_corner(r: dict[str, Any]) -> None:
    deck = r["deck"]
    deck[-1], deck[-3] = deck[-3], deck[-1]  # deep in the draw pile
    r["actions"][2]["cell"] = [0, 0]  # a corner: the engine refuses it (R5.2)


def _reshuffle(r: dict[str, Any]) -> list[str]:
    return next(a["reshuffle"] for a in r["actions"] if "reshuffle" in a)  # type: ignore[no-any-return]


def _reshuffle_order(r: dict[str, Any]) -> None:
    pile = _reshuffle(r)
    i = next(i for i in range(len(pile) - 1, 0, -1) if pile[i] != pile[i - 1])
    pile[i], pile[i - 1] = pile[i - 1], pile[i]


def _reshuffle_cards(r: dict[str, Any]) -> None:
    pile = _reshuffle(r)
    pile[0] = next(c for c in ("2s", "3s", "4s", "5s") if c != pile[0])  # not the discarded cards (R5.4)


def _stated_winner(r: dict[str, Any]) -> None:
    r["result"]["winner"] = 1 - r["result"]["winner"]


def _nonce(r: dict[str, Any]) -> None:
    r["fairness"]["nonces"][1]["nonce"] = "feedfacf"


def _hidden_seed(r: dict[str, Any]) -> None:
    del r["fairness"]["seed"]


def _no_fairness(r: dict[str, Any]) -> None:
    del r["fairness"]


def _stranger(r: dict[str, Any]) -> None:
    r["fairness"]["nonces"].append({"seat": 7, "nonce": "x"})


def _bad_commitment(r: dict[str, Any]) -> None:
    r["fairness"]["commitment"] = "nope"


def _bad_card(r: dict[str, Any]) -> None:
    r["actions"][3] = {"seat": r["actions"][3].get("seat", 0), "card": "zz", "cell": [4, 4]}


def _short_deck(r: dict[str, Any]) -> None:
    del r["deck"][10:]


def _no_actions(r: dict[str, Any]) -> None:
    del r["actions"]


#: Records as their JSON changed by a tampering: (name, change).
TAMPERED: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("seed", _tampered_seed),
    ("deck_and_corner", _swapped_card_and_corner),
    ("reshuffle_order", _reshuffle_order),
    ("reshuffle_cards", _reshuffle_cards),
    ("stated_winner", _stated_winner),
    ("nonce", _nonce),
    ("hidden_seed", _hidden_seed),
    ("no_fairness", _no_fairness),
]
MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("stranger", _stranger),
    ("bad_commitment", _bad_commitment),
    ("bad_card", _bad_card),
    ("short_deck", _short_deck),
    ("no_actions", _no_actions),
]
#: Files that are not records at all: (name, bytes); None: no such file.
BROKEN: list[tuple[str, bytes | None]] = [
    ("bad_json", b'{"format": "sequence-record/1", "players": 2,'),
    ("bad_utf8", b'{"format": "\xff"}'),
    ("not_an_object", b"[1, 2]"),
    ("nan", b'{"players": NaN}'),
    ("wrong_format", b'{"format": "nonsense", "actions": [{"seat": 0}]}'),
    ("missing", None),
]


def write(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], None] | None = None) -> Path:
    record = fair_record()
    if change is not None:
        change(record)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record))
    return path


def write_broken(tmp_path: Path, name: str, data: bytes | None) -> Path:
    path = tmp_path / f"{name}.json"
    if data is not None:
        path.write_bytes(data)
    return path


# ------------------------------------------------------------------------------------ the scanners


@cache
def catalogue_wording(lang: str) -> frozenset[str]:
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


def detail_wording(details: list[str]) -> set[str]:
    """Runs of two or more words in the English details (what the old text output printed); paths,
    the same in every language, are left out."""
    texts = [re.sub(r"\S*/\S*", " ", text) for text in details]
    return {run for text in texts for run in re.findall(r"[A-Za-z]{2,}(?:[ -][A-Za-z]{2,})+", text)}


def english_left(text: str, lang: str, details: list[str]) -> list[str]:
    flat = " ".join(text.split())
    pieces = catalogue_wording(lang) | detail_wording(details)
    return sorted(piece for piece in pieces if piece in flat)


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(args)
    captured = capsys.readouterr()
    i18n.set_language("en")
    return status, captured.out + captured.err


def json_details(command: str, path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The English details of the command's ``--json`` report (every check's, and its error)."""
    main([command, str(path), "--json"])
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    details = [str(c["detail"]) for c in report.get("checks", [])]
    return details + [str(report[k]) for k in ("error",) if k in report]


def test_the_scanners_find_english() -> None:
    details = [
        "card 101 (0 = top) is 2c, the algorithm gives qs",
        "R5.4: the reshuffled pile is not exactly it",
    ]
    assert "the algorithm gives qs" in english_left("FAIL deck: " + details[0], "es", details)
    assert "the reshuffled pile is not exactly it" in english_left(details[1], "da", details)
    left = english_left("ok   el compromiso: SHA-256 of the seed matches the commitment", "es", [])
    assert "SHA-256 of the seed matches the commitment" in left
    assert (
        english_left("FALLO la baraja: la carta 101 (0 = arriba) es 2♣; el algoritmo da Q♠", "es", details)
        == []
    )


# ------------------------------------------------------------------------------------ sequence verify


def _verify_speaks(path: Path, lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    details = json_details("verify", path, capsys)
    english_status, english = run_cli(["--lang", "en", "verify", str(path)], capsys)
    status, text = run_cli(["--lang", lang, "verify", str(path)], capsys)
    assert status == english_status
    assert text.strip() and len(text.splitlines()) == len(english.splitlines()), (english, text)
    assert english_left(text, lang, details) == [], text
    assert re.findall(r"R\d\.\d", text) == re.findall(r"R\d\.\d", english), (english, text)
    return text


@pytest.mark.parametrize("lang", LANGS)
def test_verify_of_a_good_record_speaks_the_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _verify_speaks(write(tmp_path, "good"), lang, capsys)
    assert {"es": "verificado", "da": "verificeret"}[lang] in text
    assert {"es": "la baraja", "da": "bunken"}[lang] in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "change"), TAMPERED + MALFORMED, ids=[n for n, _ in TAMPERED + MALFORMED])
def test_verify_of_a_tampered_or_malformed_record_speaks_the_language(
    name: str,
    change: Callable[[dict[str, Any]], None],
    lang: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = _verify_speaks(write(tmp_path, name, change), lang, capsys)
    if name == "deck_and_corner":
        assert "2♣" in text and "Q♠" in text and "R5.2" in text and "a0" in text, text
    if name == "reshuffle_cards":
        assert "R5.4" in text, text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "data"), BROKEN, ids=[n for n, _ in BROKEN])
def test_verify_of_a_broken_file_speaks_the_language(
    name: str, data: bytes | None, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _verify_speaks(write_broken(tmp_path, name, data), lang, capsys)


def test_the_json_report_stays_english_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path in (write(tmp_path, "corner", _swapped_card_and_corner), write_broken(tmp_path, "broken", b"{")):
        outputs = [
            run_cli(["--lang", lang, "verify", str(path), "--json"], capsys) for lang in ("en", *LANGS)
        ]
        assert len({out for _status, out in outputs}) == 1, outputs


# ------------------------------------------------------------------------------------ the other commands


def _speaks(command: list[str], path: Path, lang: str, details: list[str], capsys: Any) -> str:
    english_status, english = run_cli(["--lang", "en", *command, str(path)], capsys)
    status, text = run_cli(["--lang", lang, *command, str(path)], capsys)
    assert status == english_status and status != 0, (english, text)
    assert text.strip() and english_left(text, lang, details) == [], text
    assert re.findall(r"R\d\.\d", text) == re.findall(r"R\d\.\d", english), (english, text)
    return text


CASES = [(n, "record", c) for n, c in [*TAMPERED[1:2], *TAMPERED[3:5], *MALFORMED[2:]]] + [
    (n, "broken", d) for n, d in BROKEN
]


def _case_path(tmp_path: Path, name: str, kind: str, what: Any) -> Path:
    return write(tmp_path, name, what) if kind == "record" else write_broken(tmp_path, name, what)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "kind", "what"), CASES, ids=[n for n, _k, _w in CASES])
def test_validate_analyze_and_replay_word_record_errors_in_the_language(
    name: str, kind: str, what: Any, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _case_path(tmp_path, name, kind, what)
    main(["validate", str(path), "--json"])
    summary = json.loads(capsys.readouterr().out)
    details = [str(summary.get("error", ""))]
    _speaks(["validate"], path, lang, details, capsys)
    _speaks(["analyze", "--quiet", "--seconds", "0", "--samples", "1"], path, lang, details, capsys)
    if kind == "broken":  # the replay of a record it can read is a terminal session of its own
        _speaks(["play", "--plain", "--replay"], path, lang, details, capsys)


# ------------------------------------------------------------------------------------ the tables


def _record_errors() -> list[RecordError]:
    """Real errors of the record reader (``records.py``, the fairness block's reader)."""
    good = fair_record()
    bad: list[Any] = [b"{", b"\xff", b"[]", b'{"a": NaN}', b'{"a": 1, "a": 2}', b'{"a": ' + b"9" * 30 + b"}"]
    for change in [
        lambda r: r.update(format="x"),
        lambda r: r.pop("players"),
        lambda r: r.update(players=True),
        lambda r: r.update(players=5),
        lambda r: r.update(players=2**61),
        lambda r: r.update(draw="sometimes"),
        lambda r: r.update(dealer=9),
        lambda r: r.update(deck="all"),
        lambda r: r.update(deck=r["deck"][:-1]),
        lambda r: r.update(deck=[*r["deck"][:-1], r["deck"][0]]),
        lambda r: r.update(actions={}),
        lambda r: r["actions"].__setitem__(0, 7),
        lambda r: r["actions"].__setitem__(0, {"seat": 0}),
        lambda r: r["actions"].__setitem__(0, {"seat": 0, "dead": "2s", "draw": True}),
        lambda r: r["actions"].__setitem__(0, {"seat": 0, "penalty": 1}),
        lambda r: r["actions"].__setitem__(0, {"reshuffle": "2s"}),
        lambda r: r["actions"].__setitem__(0, {"seat": 0, "draw": 1}),
        lambda r: r["actions"].__setitem__(0, {"seat": 0, "card": "2s", "cell": [10, 0]}),
        lambda r: r["actions"].__setitem__(0, {"seat": 0, "card": "1s", "cell": [1, 1]}),
        lambda r: r["actions"].__setitem__(0, {"card": "2s", "cell": [1, 1]}),
        lambda r: r.update(result=3),
        lambda r: r.update(result={"sequences": 2}),
        lambda r: r.update(result={"end": "bored"}),
        lambda r: r.update(fairness=1),
        lambda r: r["fairness"].update(algorithm="x"),
        lambda r: r["fairness"].update(commitment="x"),
        lambda r: r["fairness"].update(seed="x"),
        lambda r: r["fairness"].update(nonces={}),
        lambda r: r["fairness"].update(nonces=[1]),
        lambda r: r["fairness"].update(nonces=[{"seat": 0, "nonce": "a"}, {"seat": 0, "nonce": "b"}]),
        lambda r: r["fairness"].update(nonces=[{"seat": -1, "nonce": "a"}]),
        lambda r: r["fairness"].update(nonces=[{"seat": 0, "nonce": ""}]),
        lambda r: r["fairness"].update(nonces=[{"seat": 0, "nonce": "a"}, {"seat": "b", "nonce": "a"}]),
    ]:
        record = copy.deepcopy(good)
        change(record)
        bad.append(record)
    errors = []
    for source in bad:
        with pytest.raises(RecordError) as caught:
            parse_record(source)
            fairness_of(source)
        errors.append(caught.value)
    with pytest.raises(RecordError) as caught:
        parse_record(Path("/nonexistent/record.json"))
    return [*errors, caught.value]


@pytest.mark.parametrize("lang", LANGS)
def test_every_record_error_is_worded_again_with_its_rule(lang: str) -> None:
    errors = _record_errors()
    messages = [str(error) for error in errors]
    assert len(set(messages)) == len(messages), messages  # each a message of its own
    for error, english in zip(errors, messages, strict=True):
        assert record_parts(error.message) is not None, english  # each carries its data
        translated = record_message(error, lang)
        assert translated != english, english
        assert re.findall(r"R\d\.\d", translated) == re.findall(r"R\d\.\d", english), (english, translated)
        assert english_left(translated, lang, [english]) == [], (english, translated)


def test_unknown_details_pass_through_and_the_checks_are_known() -> None:
    assert record_message("R9.9: something new", "es") == "R9.9: something new"
    assert check_parts("something new") is None
    record = fair_record()
    (check,) = [
        c for c in verify_cards(fairness_of(record), parse_record(record).deck, []) if c.name == "deck"
    ]
    assert check.detail == "all 104 cards match"
    assert check_parts(check.detail) == ("cards_match", "every card matches ({cards})", {"cards": 104})
