"""Events are sent as data, never as English sentences (issue 21, item 3): each seat's page words
them in its own language.

A whole four-seat game is driven over real websockets (the host, a second person who calls table
talk, leaves, comes back and leaves again, two bots, a spectator), with house rules, refusals and
both rulings on a call. Then every message any of them received, the room's HTTP answers and the
replay frames are checked, precisely:

- no object has a ``text`` key, except a chat line (what a person typed);
- no string value reads like a sentence (two words of two or more letters joined by a space, or by a
  colon, stop or the like and a space; a list of names such as "random, greedy" is not one), except: a ``name`` (typed by a person, or a bot's label; the page names bots
  from ``bot_level``), a move's ``action`` in the notation (``discard ac``: a file format, docs/record-format.md),
  a chat line's ``text``, and the ``msgid`` and ``message`` (the English fallback for API clients) of
  anything worded by a code: an error, each check of the server's fairness verification
  (``room.fairness.game.verify``) and an analysis job's ``error``;
- the finished game's fairness verification is data: every check has a ``code`` and a ``msgid`` that
  both catalogues translate (tampered records, whose checks fail, are covered on their own below),
  and so is a failed analysis job's ``error``;
- every event has a known ``kind``, and every table note of a move or replay step is a dict with a
  known ``kind`` (never a string);
- every error has a ``code`` and a ``msgid`` that the Spanish and the Danish catalogues translate,
  and its ``message`` is that msgid filled with its ``params``.
"""

from __future__ import annotations

import asyncio
import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from sequence_game import GameConfig
from sequence_game.fairness import FairDeal, fair_game
from sequence_game.i18n import translation
from sequence_game.records import with_fairness, write_record
from sequence_game.server.analysis_jobs import JOB_ERRORS, AnalysisJobs, job_error
from sequence_game.server.events import NOTE_KINDS
from sequence_game.server.fair_rooms import verification
from sequence_game.server.limits import Limits

from .conftest import Client, Server, my_turn, over

SENTENCE = re.compile(r"[A-Za-z]{2,}[:;.!?]? [A-Za-z]{2,}")
NOTATION = re.compile(r"[2-9tjqka][shdc]@[a-j]\d|(dead|discard) [2-9tjqka][shdc]|draw")
EVENT_KINDS = {"seat", "config", "seed", "start", "action", "call", "rule", "away", "back", "chat"}
STEP_KINDS = {"deal", "action", "penalty"}


def strings(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every string value in a JSON value, with its path of keys and indexes."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from strings(value, (*path, key))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from strings(value, (*path, i))


def dicts(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    if isinstance(obj, dict):
        yield path, obj
        for key, value in obj.items():
            yield from dicts(value, (*path, key))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from dicts(value, (*path, i))


def in_chat(path: tuple[Any, ...]) -> bool:
    return "chat" in path


def sentence_fields(message: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    """The string fields of a message that read like a sentence and are not allowed to."""
    found = []
    for path, value in strings(message):
        last = path[-1] if path else None
        if last == "name" or (last == "text" and in_chat(path)):
            continue
        if last == "action" and NOTATION.fullmatch(
            value
        ):  # the notation, a file format (docs/record-format.md)
            continue
        holder = parent(message, path)
        if last in ("message", "msgid") and ("code" in holder or "params" in holder):  # worded by a code
            continue
        if SENTENCE.search(value):
            found.append((path, value))
    return found


def check_notes(notes: Any) -> None:
    assert isinstance(notes, list)
    for note in notes:
        assert isinstance(note, dict) and note["kind"] in NOTE_KINDS, note


def check_event(event: dict[str, Any]) -> None:
    assert event["kind"] in EVENT_KINDS, event
    assert "text" not in event, event
    if event["kind"] == "action":
        check_notes(event["notes"])
        assert isinstance(event["action"], str)
    if event["kind"] == "start":
        assert isinstance(event["dealer"], int) and isinstance(event["first"], int)


def parent(message: Any, path: tuple[Any, ...]) -> Any:
    """The object holding the value at ``path``."""
    for key in path[:-1]:
        message = message[key]
    return message


def translated(msgid: str) -> bool:
    return all(msgid in translation(lang)._catalog for lang in ("es", "da"))  # type: ignore[attr-defined]


def check_error(error: dict[str, Any]) -> None:
    msgid = error.get("msgid")
    assert error["code"] and msgid, error
    assert translated(msgid), msgid
    assert error["message"] == msgid.format(**error["params"]), error


def check_coded(data: dict[str, Any]) -> None:
    """A fairness check or a job's error: a code, a translated msgid with its params (card codes as
    symbols), and an engine error inside it as a ``reason`` of its own."""
    assert data["code"] and data["code"] != "other", data
    assert translated(data["msgid"]), data
    assert isinstance(data["params"], dict), data
    if "reason" in data:
        assert translated(data["reason"]["msgid"]), data
        data["reason"]["msgid"].format(**data["reason"]["params"])
    data["msgid"].format(**data["params"], error="")
    assert sentence_fields(data) == [], data


def check_message(message: dict[str, Any]) -> None:
    assert sentence_fields(message) == [], message.get("type")
    for path, d in dicts(message):
        assert "text" not in d or in_chat(path), (path, d)
    if message.get("type") == "error":
        check_error(message)
    if message.get("type") in ("welcome", "state") and message.get("event"):
        check_event(message["event"])
    for event in message.get("log", []):
        check_event(event)


def refused(client: Client, command: dict[str, Any], code: str) -> dict[str, Any]:
    error = client.error(command)
    assert error["code"] == code, error
    return error


def play_until(ann: Client, stop: Any) -> dict[str, Any]:
    """Ann plays her first legal option on each of her turns until ``stop(message)``."""
    m = ann.last
    while True:
        if m is None or not (my_turn(0)(m) or stop(m)):  # the latest state may already be her turn
            m = ann.recv_until(lambda m: my_turn(0)(m) or stop(m))
        if stop(m) or over(m):
            return m
        ann.send({"type": "act", "action": m["view"]["legal_actions"][0], "version": m["version"]})
        m = None


def test_a_whole_game_sends_data_never_english_sentences(server: Server) -> None:
    room = server.create_room(players=4, name="Ann")
    code = room["code"]
    ann = server.client(code, room["token"])
    bob_token = server.join(code, 1, "Bob")
    bob = server.client(code, bob_token)
    watcher = server.client(code)
    http: list[dict[str, Any]] = [room, server.get(f"/api/rooms/{code}").json()]
    taken = server.post(f"/api/rooms/{code}/seats/1", {"name": "Eve"})
    assert taken.status_code == 409
    http.append(taken.json())

    # the lobby: refusals with their parameters, house rules, bots
    error = refused(bob, {"type": "configure", "draw": "manual"}, "not_host")
    refused(ann, {"type": "bot", "seat": 2, "level": "nobody"}, "bad_bot")
    error = refused(ann, {"type": "bot", "seat": 9, "level": "random"}, "bad_seat")
    assert error["params"] == {"seat": 9, "players": 4} and error["rule"] == "R2.1"
    refused(ann, {"type": "mute", "seat": 0}, "bad_seat")
    ann.send({"type": "configure", "draw": "auto", "turn_seconds": 0})
    config = ann.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "config")
    assert config["event"]["rules"] == {"draw": "auto", "turn_seconds": 0}
    for seat in (2, 3):
        ann.send({"type": "bot", "seat": seat, "level": "random"})
        ann.recv_until(lambda m, s=seat: m["type"] == "state" and m["room"]["seats"][s]["kind"] == "bot")
    refused(bob, {"type": "start"}, "not_host")
    bob.send({"type": "chat", "text": "good luck, have fun"})
    ann.send({"type": "start"})
    start = ann.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "start")
    assert {"dealer", "first"} <= set(start["event"])
    bob.send({"type": "leave"})  # a bot stands in for Bob (he comes back later)
    ann.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "away")

    # the game: a refusal from the engine, worded by the catalogue with its fields
    m = play_until(ann, my_turn(0))
    held = set(m["view"]["hand"])
    missing = next(c for c in ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s") if c not in held)
    exchange = 300 + "23456789tjqka".index(missing[0]) * 4 + "shdc".index(missing[1])
    error = refused(ann, {"type": "act", "action": exchange, "version": m["version"]}, "illegal")
    assert error["rule"] and error["params"]["seat"] == "0" and "♠" in error["params"]["card"], error
    # table talk: Bob calls it against Ann's side twice, the host dismisses it, then upholds it
    for uphold in (False, True):
        bob.send({"type": "call", "side": 0})
        call = ann.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "call")
        ann.send({"type": "rule", "call": call["room"]["calls"][0]["id"], "uphold": uphold})
        ann.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "rule")
    refused(bob, {"type": "call", "side": 1}, "illegal")  # his own side (R6.1)
    # Bob comes back and leaves again
    play_until(ann, lambda m: m["type"] == "state" and m["room"]["version"] > start["version"] + 12)
    bob_again = server.client(code, bob_token)
    assert bob_again.welcome["log"][-1]["kind"] == "back"
    bob_again.send({"type": "leave"})
    final = play_until(ann, over)
    assert final["view"]["termination"] is not None
    watcher.recv_until(over)
    replay = server.get(f"/api/rooms/{code}/replay").json()
    http += [server.get(f"/api/rooms/{code}").json(), replay]

    kinds = set()
    clients = (ann, bob, bob_again, watcher)
    for message in [m for c in clients for m in c.messages] + [c.welcome for c in clients]:
        check_message(message)
        if message.get("type") == "state" and message.get("event"):
            kinds.add(message["event"]["kind"])
    assert {"seat", "config", "start", "action", "call", "rule", "away", "back"} <= kinds, kinds
    autos = {
        m["event"].get("auto")
        for m in ann.messages
        if m.get("type") == "state" and m["event"]["kind"] == "action"
    }
    assert "stand_in" in autos, autos  # Bob's moves while away: a bot stood in
    for answer in http:
        check_message(answer)
    frames = replay["frames"]
    assert frames[0]["step"] == {"kind": "deal"}
    for frame in frames:
        assert frame["step"]["kind"] in STEP_KINDS and "text" not in frame
        check_notes(frame["step"].get("notes", []))
    assert any(f["step"]["kind"] == "penalty" for f in frames)  # the upheld call (R6.1)
    assert frames[-1]["step"]["notes"][-1]["kind"] in ("win", "drawn")
    # the server's fairness verification of the finished game: every check a code and its message
    verify = server.get(f"/api/rooms/{code}").json()["fairness"]["game"]["verify"]
    assert verify["ok"] and {c["check"] for c in verify["checks"]} >= {"commitment", "deck", "replay"}
    for check in verify["checks"]:
        check_coded(check)
    for c in clients:
        c.close()


# ------------------------------------------------------------------ fairness checks that fail, job errors

DEAL = FairDeal(bytes.fromhex("9f" * 32), ((0, "c0ffee"), (1, "feedface")))


def fair_record() -> dict[str, Any]:
    """A whole random two-player game dealt fairly (it runs into a reshuffle, R5.4)."""
    state = fair_game(GameConfig(players=2), DEAL, dealer=1)
    state.playout(random.Random(0))
    return with_fairness(write_record(state), DEAL)


def test_failed_fairness_checks_are_data_too() -> None:
    """Tampered records (the page then shows why): a seed that is not the commitment's, a swapped
    card deep in the deck, a chip played on a corner (its engine error a ``reason`` of its own)."""
    record = fair_record()
    seed = bytearray(bytes.fromhex(record["fairness"]["seed"]))
    seed[0] ^= 1
    tampered = copy.deepcopy(record)
    tampered["fairness"]["seed"] = seed.hex()
    verify = verification(tampered)
    assert not verify["ok"]
    failed = {c["check"]: c for c in verify["checks"] if not c["ok"]}
    assert failed["commitment"]["code"] == "commitment_differs"
    assert failed["commitment"]["params"]["expected"] == record["fairness"]["commitment"]

    tampered = copy.deepcopy(record)
    deck = tampered["deck"]
    deck[-1], deck[-3] = deck[-3], deck[-1]
    tampered["actions"][2]["cell"] = [0, 0]
    verify = verification(tampered)
    for check in verify["checks"]:
        check_coded(check)
    failed = {c["check"]: c for c in verify["checks"] if not c["ok"]}
    assert set(failed) == {"deck", "replay"}, failed
    assert failed["deck"]["code"] == "card_differs" and failed["deck"]["params"]["at"] == 101
    assert {failed["deck"]["params"]["got"][-1], failed["deck"]["params"]["expected"][-1]} <= set("♠♥♦♣")
    replay = failed["replay"]
    assert replay["code"] == "illegal_action" and replay["params"] == {"action": 2, "rule": "R5.2"}
    assert replay["reason"]["msgid"] == "{card} is not printed on {cell}"
    reshuffle = next(c for c in verify["checks"] if c["check"] == "reshuffle")
    assert reshuffle["number"] == 1 and reshuffle["code"] == "cards_match"
    spanish = (
        translation("es")
        .gettext(replay["msgid"])
        .format(
            **replay["params"],
            error=translation("es").gettext(replay["reason"]["msgid"]).format(**replay["reason"]["params"]),
        )
    )
    assert spanish.startswith("la acción 2 incumple R5.2: ") and "a0" in spanish, spanish

    hidden = copy.deepcopy(record)
    del hidden["fairness"]["seed"]
    verify = verification(hidden)
    assert verify["checks"] == [] and verify["error"]["code"] == "seed_hidden"
    check_coded(verify["error"])


def test_a_failed_analysis_job_sends_its_reason_as_data() -> None:
    """A record the analysis cannot read fails in its worker process: the job's ``error`` is a code
    with its message, like a refusal; every reason a job can fail for is in both catalogues."""

    async def run() -> dict[str, Any]:
        jobs = AnalysisJobs(Limits())
        job = jobs.start(("ROOM", 0), {"format": "nonsense", "actions": [{"seat": 0}]})
        for _ in range(600):
            if job.status in ("done", "failed"):
                break
            await asyncio.sleep(0.05)
        await jobs.close()
        return job.public()

    public = asyncio.run(run())
    assert public["status"] == "failed", public
    error = public["error"]
    assert error["code"] == "bad_record" and error["message"].startswith(error["msgid"] + ": "), error
    check_coded(error)
    assert sentence_fields(public) == [], public
    for code in JOB_ERRORS:
        check_coded(job_error(code, "ValueError('a detail in English')"))


@pytest.mark.parametrize(
    ("locale", "heading", "words"),
    [
        (
            "es-ES",
            "Sequence, en línea",
            ["la baraja: la carta 101 (0 = arriba) es", "incumple R5.2", "no está impres"],
        ),
        ("da-DK", "Sequence, online med venner", ["bunken: kort 101 (0 = øverst) er", "bryder R5.2", "a0"]),
    ],
)
def test_the_page_words_failed_checks_and_job_errors_in_its_language(
    server: Server, browser: Any, locale: str, heading: str, words: list[str]
) -> None:
    """What the page shows at the end of a game whose checks fail, and for a failed analysis: the
    page's own functions word the data (``failedChecks``, ``errorText``), no English left."""
    record = fair_record()
    deck = record["deck"]
    deck[-1], deck[-3] = deck[-3], deck[-1]
    record["actions"][2]["cell"] = [0, 0]
    verify = verification(record)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.http + "/")
        page.locator("#home h1", has_text=heading).wait_for(timeout=15_000)
        lines = page.evaluate("(verify) => failedChecks(verify)", verify)
        job = page.evaluate("(error) => errorText(error)", job_error("stopped"))
        missing = page.evaluate("() => [...window.i18nMissing]")
    finally:
        ctx.close()
    assert errors == [] and missing == [], (errors, missing)
    assert len(lines) == 2, lines
    text = " ".join(lines)
    for word in words:
        assert word in text, (word, lines)
    english = ["card", "algorithm", "breaks", "is not printed", "deck"]
    assert [w for w in english if w in text] == [], lines
    assert job == translation(locale[:2]).gettext("the analysis process stopped"), job
