"""Hints: the expert's play for a seated player's own view, and why (the evaluator's reading of
it), in rooms that allow them. A hint the pool cannot give in time is refused as not ready
(``hint_not_ready``), never replaced by a move nobody judged: a random move must not be presented
as advice.

Why a module of its own: a hint is thought out in the bot pool like a bot's move, but for a person
and outside the room's lock (the room answers everyone meanwhile), one at a time per seat, and it
is sent to the asking socket only, never stored.
"""

from __future__ import annotations

from typing import Any

from ..actions import DEAD, DISCARD, DRAW
from ..board import LAYOUT
from ..cards import card_name, is_one_eyed, is_two_eyed
from ..i18n import N_
from .bot_runner import BotRunner
from .protocol import ProtocolError
from .room_state import Room

#: Seconds a person waits for a hint before being told it is not ready (the first hint on a
#: fresh server waits for a pool process to start and load NumPy and the evaluator).
HINT_WAIT = 10.0


class Hints:
    """Works out hints in the bot pool, one at a time for each seat."""

    def __init__(self, bots: BotRunner) -> None:
        self.bots = bots
        self._hinting: set[tuple[str, int]] = set()
        """Seats with a hint being computed: one at a time each."""

    async def hint(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The hint for ``seat``'s own view, thought out in the bot pool.

        The room's lock is held only to read the view: the room answers everyone meanwhile."""
        if seat is None:
            raise ProtocolError("not_seated", N_("spectators may only watch"))
        async with room.lock:
            if not room.config.get("hints"):
                raise ProtocolError("hints_off", N_("the host did not allow hints in this room"))
            if not any(s.kind == "bot" for s in room.seats):
                raise ProtocolError("hints_off", N_("hints are only given in games against bots"))
            state = room.state
            if room.status != "playing" or state is None:
                raise ProtocolError("not_playing", N_("the game is not being played"))
            if seat not in state.seats_to_act():
                raise ProtocolError("not_your_turn", N_("a hint is for your own turn"), "R4.3")
            view = state.view(seat)  # the seat's view only: never the hidden state
            if not view.legal_actions:
                raise ProtocolError("not_your_turn", N_("nothing to play: the turn passes"), "R5.5")
            version = room.game_version
        key = (room.code, seat)
        if key in self._hinting:
            raise ProtocolError("rate_limited", N_("a hint is already being worked out"))
        self._hinting.add(key)
        try:
            advice = await self.bots.advise(view, HINT_WAIT, room=room.code)
        finally:
            self._hinting.discard(key)
        if advice is None or advice.action not in view.legal_actions:
            raise ProtocolError("hint_not_ready", N_("the hint is not ready yet: ask again in a moment"))
        action = advice.action
        why = {
            "reason": advice.reason,
            "cells": list(advice.cells),
            "side": advice.side,
            "chance": round(advice.chance, 4),
        }
        card = hint_card(action, view.hand)
        return {
            "type": "hint",
            "version": room.version,
            "game_version": version,
            "action": action,
            "card": card_name(card) if card is not None else None,
            "cell": action % 100 if action < DEAD else None,
            "level": advice.chosen_by,
            **why,
        }


def hint_card(action: int, hand: tuple[int, ...]) -> int | None:
    """The hand card an action uses (a jack of the right kind for a wild play or a removal)."""
    if action < 100:
        return LAYOUT[action]
    if action < 300:
        kind = is_two_eyed if action < 200 else is_one_eyed
        return next((c for c in hand if kind(c)), None)
    if action < DISCARD:
        return action - DEAD
    if action < DRAW:
        return action - DISCARD
    return None
