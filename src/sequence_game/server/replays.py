"""Frames for replaying a finished game in the page: one public snapshot per recorded step.

A record of a finished game reveals the whole deal anyway, so frames show every hand. Each frame's
``step`` says what led to it, as data (the page words it in its own language, docs/i18n.md):
``{"kind": "deal"}``, ``{"kind": "action", "seat", "action", "notes"}`` (the action in the
notation, the table notes as in a websocket ``action`` event) or ``{"kind": "penalty", "side",
"notes"}`` (table talk upheld against a side, R6.1).

>>> import random
>>> from sequence_game import GameConfig, new_game
>>> from sequence_game.records import write_record
>>> state = new_game(GameConfig(players=3), seed=3)
>>> _ = state.playout(random.Random(3))
>>> frames = replay_frames(write_record(state))
>>> frames[0]["step"], frames[-1]["winner"] == state.outcome().winner
({'kind': 'deal'}, True)
>>> frames[-1]["step"]["notes"][-1]["kind"] in ("win", "drawn")
True
"""

from __future__ import annotations

from typing import Any

from ..cards import card_name
from ..records import RecordError, replay
from ..state import EV_PENALTY, EV_RESHUFFLE, GameState
from . import events
from .rooms import action_text

MAX_FRAMES = 5000


def _frame(state: GameState, step: dict[str, Any]) -> dict[str, Any]:
    view = state.view(0).to_dict()
    del view["hand"], view["legal_actions"]
    view["seat"] = view["side"] = None
    view["hands"] = [[card_name(c) for c in state.hand(s)] for s in range(state.players)]
    view["step"] = step
    return view


def replay_frames(record: dict[str, Any] | str | bytes) -> list[dict[str, Any]]:
    """Replay a complete, legal record of a finished game into frames; raises ``RecordError``."""
    result = replay(record)
    if not result.ok:
        raise RecordError(f"illegal record at action {result.index}: {result.rule}: {result.error}")
    final = result.state
    lost_on_time = isinstance(record, dict) and "clock_flag" in record  # a room's game ended by a clock
    if not final.is_terminal() and not lost_on_time:
        raise RecordError("only finished games are replayed")
    history = final.history
    orders = iter([list(e[1]) for e in history if e[0] == EV_RESHUFFLE])
    state = GameState(
        final.config, final.initial_deck, final.dealer, reshuffle_source=lambda _pool: next(orders)
    )
    frames = [_frame(state, {"kind": "deal"})]
    for event in history:
        before = len(state.history)
        made = events.sequence_counts(state)
        step: dict[str, Any]
        if event[0] >= 0:
            seat, action, card = event
            state._apply(action, seat, card if card >= 0 else None)
            step = {
                "kind": "action",
                "seat": seat,
                "action": action_text(action, card if card >= 0 else None),
            }
        elif event[0] == EV_PENALTY:
            state.call_table_talk(event[1])
            step = {"kind": "penalty", "side": event[1]}
        else:
            continue  # reshuffles, passes and lost draws follow from the actions
        step["notes"] = (
            events.notes(state.history[before:])
            + events.sequence_notes(made, events.sequence_counts(state))
            + events.outcome_notes(state.outcome())
        )
        frames.append(_frame(state, step))
        if len(frames) > MAX_FRAMES:
            raise RecordError(f"more than {MAX_FRAMES} steps")
    return frames
