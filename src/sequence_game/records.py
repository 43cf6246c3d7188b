"""Game records in the interchange form of ``RECORD.md`` (``sequence-record/1``).

A record holds the shuffled deck, the dealer and every action and reshuffle, so it replays
exactly with no random number generator.

>>> from sequence_game import GameConfig, new_game
>>> import random
>>> state = new_game(GameConfig(players=2), seed=5)
>>> _ = state.playout(random.Random(5))
>>> result = replay(write_record(state))
>>> result.ok, result.state.outcome() == state.outcome()
(True, True)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from .board import LAYOUT, SIZE
from .cards import Card, card_name, is_one_eyed, is_two_eyed, parse_card
from .config import GameConfig
from .errors import ConfigError, IllegalActionError
from .state import EV_PENALTY, EV_RESHUFFLE, GameState

FORMAT = "sequence-record/1"
MAX_RECORD_BYTES = 16 * 1024 * 1024


class RecordError(ValueError):
    """A record that is not well formed (as opposed to one with an illegal action)."""


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of replaying a record: the state reached and, if refused, where and why."""

    state: GameState
    ok: bool
    index: int | None = None
    """0-based index into ``actions`` of the first action refused."""
    rule: str | None = None
    error: str | None = None

    def summary(self) -> dict[str, Any]:
        """The JSON answer of ``sequence validate --json``."""
        state = self.state
        outcome = state.outcome()
        out: dict[str, Any] = {
            "ok": self.ok,
            "over": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "sequences": list(state.sequence_counts()),
        }
        if outcome is not None:
            out["end"] = outcome.termination.value
        if not self.ok:
            out.update(index=self.index, rule=self.rule, error=self.error)
        return out


# ----------------------------------------------------------------------------- writing


def _cell(cell: int) -> list[int]:
    return [cell // SIZE, cell % SIZE]


def write_record(state: GameState) -> dict[str, Any]:
    """The record of a game played from a known deal (``new_game`` or a replay)."""
    if not state.initial_deck:
        raise RecordError("this state has no known deal (a sampled world?), so it has no record")
    actions: list[dict[str, Any]] = []
    for event in state.history:
        kind = event[0]
        if kind >= 0:
            seat, action, card = event
            if action < DEAD:
                cell = action % 100
                actions.append({"seat": seat, "card": card_name(card), "cell": _cell(cell)})
            elif action < DISCARD:
                actions.append({"seat": seat, "dead": card_name(card)})
            elif action < DRAW:
                actions.append({"seat": seat, "discard": card_name(card)})
            else:
                actions.append({"seat": seat, "draw": True})
        elif kind == EV_RESHUFFLE:
            actions.append({"reshuffle": [card_name(c) for c in event[1]]})
        elif kind == EV_PENALTY:
            actions.append({"penalty": event[1]})
    record: dict[str, Any] = {
        "format": FORMAT,
        "players": state.config.players,
        "teams": state.config.sides,
        "draw": state.config.draw,
        "dealer": state.dealer,
        "deck": [card_name(c) for c in state.initial_deck],
        "actions": actions,
    }
    outcome = state.outcome()
    if outcome is not None:
        record["result"] = {
            "winner": outcome.winner,
            "sequences": list(outcome.sequences),
            "end": outcome.termination.value,
        }
    return record


def dumps(state: GameState) -> str:
    """The record as JSON text, one action a line for readable diffs."""
    record = write_record(state)
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in record.items() if k != "actions"]
    actions = ",\n".join(f"    {json.dumps(a)}" for a in record["actions"])
    lines.insert(len(lines) - ("result" in record), f'  "actions": [\n{actions}\n  ]')
    return "{\n" + ",\n".join(lines) + "\n}\n"


# ----------------------------------------------------------------------------- reading


def _need(obj: dict[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise RecordError(f"{where}: missing field {key!r}")
    return obj[key]


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where}: expected an integer, got {value!r}")
    return value


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected a card code, got {value!r}")
    try:
        return parse_card(value)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _cell_of(value: Any, where: str) -> int:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in value)
    ):
        raise RecordError(f"{where}: a cell is [row, column], both 0..9, not {value!r}")
    row, col = value
    return int(row) * SIZE + int(col)


def load(source: str | bytes | Path | dict[str, Any]) -> dict[str, Any]:
    """Parse a record from JSON text, a file path or an already decoded dict."""
    if isinstance(source, dict):
        return source
    if isinstance(source, Path):
        path = source
        try:
            if path.stat().st_size > MAX_RECORD_BYTES:
                raise RecordError(f"{path}: larger than {MAX_RECORD_BYTES} bytes")
            source = path.read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(source)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def _config(data: dict[str, Any]) -> GameConfig:
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(f"format is {fmt!r}, expected {FORMAT!r}")
    players = _int(_need(data, "players", "record"), "players")
    teams = _int(data["teams"], "teams") if "teams" in data else None
    draw = data.get("draw", "auto")
    try:
        return GameConfig(players=players, teams=teams, draw=draw)
    except ConfigError as exc:
        raise RecordError(str(exc)) from None


def _result_matches(data: dict[str, Any], state: GameState) -> str | None:
    """A disagreement between the stated result and the replay, if any."""
    stated = data.get("result")
    if stated is None:
        return None
    if not isinstance(stated, dict):
        return "result must be an object"
    outcome = state.outcome()
    if outcome is None:
        return "the record states a result but the game is not over"
    if "winner" in stated and stated["winner"] != outcome.winner:
        return f"the record says winner {stated['winner']!r}, the replay gives {outcome.winner!r}"
    if "sequences" in stated and stated["sequences"] != list(outcome.sequences):
        return (
            f"the record says sequences {stated['sequences']!r}, the replay gives {list(outcome.sequences)!r}"
        )
    if "end" in stated and stated["end"] != outcome.termination.value:
        return f"the record says end {stated['end']!r}, the replay gives {outcome.termination.value!r}"
    return None


class _Reshuffles:
    """Feeds the recorded reshuffle orders to the replay where the draw pile runs out."""

    def __init__(self, actions: Sequence[Any]) -> None:
        self.actions = actions
        self.index = 0  # index of the action being applied
        self.used: int | None = None
        self.failed_at: int | None = None

    def __call__(self, pool: list[Card]) -> list[Card]:
        at = self.index + 1
        entry = self.actions[at] if at < len(self.actions) else None
        if not isinstance(entry, dict) or "reshuffle" not in entry:
            raise IllegalActionError("R5.4", "the draw pile ran out but the record has no reshuffle here")
        order = entry["reshuffle"]
        if not isinstance(order, list):
            raise RecordError(f"actions[{at}]: reshuffle must be a list of cards")
        cards = [_card(c, f"actions[{at}].reshuffle") for c in order]
        if Counter(cards) != Counter(pool):
            self.failed_at = at
            raise IllegalActionError(
                "R5.4", "the reshuffled pile is not exactly the cards of the discard piles"
            )
        self.used = at
        return cards


def replay(source: str | bytes | Path | dict[str, Any], *, seed: int | None = None) -> ReplayResult:
    """Replay a record action by action, stopping at the first illegal one.

    Reshuffles inside the record come from the record; if play goes on past its end, later
    reshuffles (R5.4) are drawn with a generator seeded with ``seed`` (fresh entropy if ``None``),
    so that a resumed game's new draw piles cannot be foreseen.

    Raises :class:`RecordError` for a record that is malformed (bad JSON, missing fields, a deck
    that is not the 104 cards); an illegal action is reported in the result, not raised.
    """
    data = load(source)
    config = _config(data)
    deck_data = _need(data, "deck", "record")
    if not isinstance(deck_data, list):
        raise RecordError("deck must be a list of 104 card codes")
    deck = [_card(c, f"deck[{i}]") for i, c in enumerate(deck_data)]
    dealer = _int(_need(data, "dealer", "record"), "dealer")
    actions = _need(data, "actions", "record")
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    feeder = _Reshuffles(actions)
    try:
        state = GameState(
            config, deck, dealer, reshuffle_seed=random.Random(seed).getrandbits(63), reshuffle_source=feeder
        )
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    for index, entry in enumerate(actions):
        if not isinstance(entry, dict):
            raise RecordError(f"actions[{index}]: expected an object, got {entry!r}")
        if "reshuffle" in entry:
            if feeder.used == index:
                continue
            return ReplayResult(
                state, False, index, "R5.4", "a reshuffle is recorded where the draw pile is not empty"
            )
        feeder.index = index
        try:
            _apply_entry(state, entry, f"actions[{index}]")
        except IllegalActionError as exc:
            at = feeder.failed_at if feeder.failed_at is not None else index
            return ReplayResult(state, False, at, exc.rule, exc.message)
    mismatch = _result_matches(data, state)
    if mismatch is not None:
        return ReplayResult(state, False, None, "result", mismatch)
    state._reshuffle_source = None
    return ReplayResult(state, True)


def _apply_entry(state: GameState, entry: dict[str, Any], where: str) -> None:
    if "penalty" in entry:
        side = _int(entry["penalty"], f"{where}.penalty")
        state.call_table_talk(side)
        return
    seat = _int(_need(entry, "seat", where), f"{where}.seat")
    if not 0 <= seat < state.players:
        raise IllegalActionError("R2.1", f"no seat {seat} at this table")
    if "draw" in entry:
        if entry["draw"] is not True:
            raise RecordError(f"{where}: draw must be true")
        state.apply(DRAW, seat)
        return
    if "dead" in entry:
        state.apply(DEAD + _card(entry["dead"], f"{where}.dead"), seat)
        return
    if "discard" in entry:
        state.apply(DISCARD + _card(entry["discard"], f"{where}.discard"), seat)
        return
    card = _card(_need(entry, "card", where), f"{where}.card")
    cell = _cell_of(_need(entry, "cell", where), f"{where}.cell")
    if is_two_eyed(card):
        state.apply(WILD + cell, seat, card=card)
    elif is_one_eyed(card):
        state.apply(REMOVE + cell, seat, card=card)
    else:
        if LAYOUT[cell] != card:
            raise IllegalActionError(
                "R5.2", f"{card_name(card)} is not printed on [{cell // SIZE}, {cell % SIZE}]"
            )
        state.apply(cell, seat)
