"""Applying actions: a play, a two-eyed or one-eyed jack, a dead-card exchange, a discard, a
manual draw (R5), and the table-talk penalty (R6.1).

:meth:`Applying.apply` checks first; :meth:`Applying._apply` is the trusted path of search and
playouts, one inlined branch per kind of action (no call per kind: it is the engine's hot path).
"""

from __future__ import annotations

from ..actions import DEAD, DISCARD, DRAW, EV_PENALTY, REMOVE, WILD, Action
from ..board import COUNTER_FULL, COUNTER_STEP, LAYOUT
from ..cards import JC, JD, JH, JS, Card
from ..errors import IllegalActionError
from ..messages import M_, message_of
from .cells import OTHER_CELL
from .legality import Legality
from .turns import TurnFlow

__all__ = ["Applying"]


class Applying(Legality, TurnFlow):
    """Where actions and table events enter the state (the playout inlines its common turn)."""

    __slots__ = ()

    def apply(self, action: int | str | Action, seat: int | None = None, *, card: Card | None = None) -> None:
        """Apply a legal action, or raise :class:`IllegalActionError` and change nothing.

        ``seat`` defaults to :attr:`current_seat` (give it for a manual draw by another seat);
        ``card`` names which jack to play when the hand holds both of a kind.
        """
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError as exc:
                self._check_actor(seat, None, action)  # whose turn and a fine owed come first
                raise IllegalActionError("R5.2", message_of(exc), action) from None
        if isinstance(action, Action):
            if card is None and action.kind in ("wild", "remove"):
                card = action.card
            action = int(action)
        self.check(action, seat, card)
        self._apply(action, self.current_seat if seat is None else seat, card)

    def _apply(self, action: int, seat: int, card: Card | None = None) -> None:
        """Apply an action known to be legal for ``seat``: the trusted path for search."""
        if action < REMOVE:
            hand = self._hands[seat]
            if action < WILD:
                cell = action
                card = LAYOUT[cell]
            else:
                cell = action - WILD
                if card is None:
                    card = JD if JD in hand else JC
            hand.remove(card)
            self._discards[seat].append(card)
            self._history.append((seat, action, card))
            side = seat % self._sides
            bit = 1 << cell
            self._chips[side] |= bit
            occ = self._occ | bit
            self._occ = occ
            other = OTHER_CELL[cell]
            self._open[LAYOUT[cell]] = () if occ >> other & 1 else (other,)
            counters = self._counters[side] + COUNTER_STEP[cell]
            self._counters[side] = counters
            self._stuck_run = 0
            if counters & COUNTER_FULL[cell]:
                self._declare(side, cell)
                if self._end is not None:
                    return
            self._end_turn(seat)
        elif action < DEAD:
            hand = self._hands[seat]
            cell = action - REMOVE
            if card is None:
                card = JS if JS in hand else JH
            hand.remove(card)
            self._discards[seat].append(card)
            self._history.append((seat, action, card))
            bit = 1 << cell
            for side in range(self._sides):
                if self._chips[side] & bit:
                    self._chips[side] ^= bit
                    self._counters[side] -= COUNTER_STEP[cell]
                    break
            self._occ ^= bit
            other = OTHER_CELL[cell]
            self._open[LAYOUT[cell]] = (cell,) if self._occ >> other & 1 else (cell, other)
            self._stuck_run = 0
            self._end_turn(seat)
        elif action < DISCARD:
            card = action - DEAD
            self._hands[seat].remove(card)
            self._discards[seat].append(card)
            self._history.append((seat, action, card))
            self._dead_done = True
            self._draw(seat)  # the replacement, in both draw modes (R5.1)
        elif action < DRAW:
            card = action - DISCARD
            self._hands[seat].remove(card)
            self._discards[seat].append(card)
            self._history.append((seat, action, card))
            if self._penalty:
                self._penalty.pop(0)  # R6.1: no replacement
                if not self._penalty:
                    self._skip_passes()
            else:
                self._stuck_run += 1  # R5.5
                self._end_turn(seat)
        else:
            self._history.append((seat, action, -1))
            self._owed[seat] = False
            self._draw(seat)
            prev = self._prev_player[seat]
            if (
                prev >= 0
                and prev != seat
                and self._owed[prev]
                and self._owed_turn[prev] == self._owed_turn[seat] - 1
            ):
                self._lose_draw(prev)  # the next player has played and drawn (R5.3)
                if prev == self._seat and not self._hands[prev]:
                    self._skip_passes()

    def call_table_talk(self, side: int) -> None:
        """Uphold a table-talk call against ``side`` (R6.1): each member with cards owes a
        discard, in ascending seat order, before play goes on."""
        if self._end is not None:
            raise IllegalActionError("R7.1", M_("the game is over"))
        if not isinstance(side, int) or not 0 <= side < self._sides:
            raise IllegalActionError("R6.1", M_("no side {side} in this game", side=repr(side)))
        if self.config.team_size < 2:
            raise IllegalActionError(
                "R6.1", M_("the table-talk penalty applies only to teams of two or more")
            )
        if self._penalty:
            raise IllegalActionError("R6.1", M_("a table-talk penalty is already being paid"))
        self._history.append((EV_PENALTY, side))
        self._penalty = [s for s in range(side, self._n, self._sides) if self._hands[s]]
