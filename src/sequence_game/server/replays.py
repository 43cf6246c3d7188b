"""Frames for replaying a finished game in the page: one public snapshot per recorded step.

A record of a finished game reveals the whole deal anyway, so frames show every hand.

>>> import random
>>> from sequence_game import GameConfig, new_game
>>> from sequence_game.records import write_record
>>> state = new_game(GameConfig(players=3), seed=3)
>>> _ = state.playout(random.Random(3))
>>> frames = replay_frames(write_record(state))
>>> frames[0]["text"], frames[-1]["winner"] == state.outcome().winner
('deal', True)
"""

from __future__ import annotations

from typing import Any

from ..cards import card_name
from ..records import RecordError, replay
from ..state import EV_PENALTY, EV_RESHUFFLE, GameState
from .rooms import action_text, public_notes

MAX_FRAMES = 5000


def _frame(state: GameState, text: str) -> dict[str, Any]:
    view = state.view(0).to_dict()
    del view["hand"], view["legal_actions"]
    view["seat"] = view["side"] = None
    view["hands"] = [[card_name(c) for c in state.hand(s)] for s in range(state.players)]
    view["text"] = text
    return view


def replay_frames(record: dict[str, Any] | str | bytes) -> list[dict[str, Any]]:
    """Replay a complete, legal record of a finished game into frames; raises ``RecordError``."""
    result = replay(record)
    if not result.ok:
        raise RecordError(f"illegal record at action {result.index}: {result.rule}: {result.error}")
    final = result.state
    if not final.is_terminal():
        raise RecordError("only finished games are replayed")
    history = final.history
    orders = iter([list(e[1]) for e in history if e[0] == EV_RESHUFFLE])
    state = GameState(
        final.config, final.initial_deck, final.dealer, reshuffle_source=lambda _pool: next(orders)
    )
    frames = [_frame(state, "deal")]
    for event in history:
        before = len(state.history)
        if event[0] >= 0:
            seat, action, card = event
            state._apply(action, seat, card if card >= 0 else None)
            text = f"seat {seat}: {action_text(action, card if card >= 0 else None)}"
        elif event[0] == EV_PENALTY:
            state.call_table_talk(event[1])
            text = f"table talk upheld against side {event[1]} (R6.1)"
        else:
            continue  # reshuffles, passes and lost draws follow from the actions
        notes = public_notes(state.history[before:])
        frames.append(_frame(state, "; ".join([text, *notes])))
        if len(frames) > MAX_FRAMES:
            raise RecordError(f"more than {MAX_FRAMES} steps")
    return frames
