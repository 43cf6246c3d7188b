"""The end of a turn: the draw it owes, passes by empty hands, sequences declared and the end of
the game (R3.4, R3.5, R5.3, R5.5, R7)."""

from __future__ import annotations

from ..actions import EV_LOST_DRAW, EV_PASS
from ..board import CORNERS, COUNTER_FULL, LINES, LINES_THROUGH
from ..sequences import declare
from .draw import Drawing
from .outcome import Termination

__all__ = ["TurnFlow"]


class TurnFlow(Drawing):
    """What happens between one seat's play and the next seat's turn."""

    __slots__ = ()

    def _lose_draw(self, seat: int) -> None:
        self._owed[seat] = False
        self._history.append((EV_LOST_DRAW, seat))

    def _end_turn(self, seat: int) -> None:
        if self._stuck_run >= self._n:
            # R5.5, R7.2: the game ends with the stuck round's last discard; nobody draws after it
            # (a draw here could reshuffle after the end and put that into the record).
            self._turn += 1
            self._finish(Termination.STUCK, None)
            return
        if self._manual:
            if self._owed[seat]:
                self._lose_draw(seat)  # played again before drawing (R5.3)
            self._owed[seat] = True
            self._owed_turn[seat] = self._turn
            self._prev_player[seat] = self._last_player
            self._last_player = seat
        else:
            self._draw(seat)
        self._turn += 1
        self._seat = (seat + 1) % self._n
        self._dead_done = False
        if not self._hands[self._seat]:
            self._skip_passes()

    def _skip_passes(self) -> None:
        """A seat with an empty hand and no draw owed passes; a full round of that draws (R5.5)."""
        while self._end is None and not self._hands[self._seat] and not self._owed[self._seat]:
            seat = self._seat
            self._history.append((EV_PASS, seat))
            self._stuck_run += 1
            self._prev_player[seat] = self._last_player
            self._last_player = seat
            self._turn += 1
            if self._stuck_run >= self._n:
                self._finish(Termination.STUCK, None)
                return
            self._seat = (seat + 1) % self._n
            self._dead_done = False

    def _declare(self, side: int, cell: int) -> None:
        full = self._counters[side] & COUNTER_FULL[cell]
        candidates = [w for w in LINES_THROUGH[cell] if full >> (4 * w + 3) & 1]
        seqs = self._seqs[side]
        for w in declare(candidates, seqs):
            seqs.append(w)
            self._locked |= LINES[w] & ~CORNERS  # R3.5
        if len(seqs) >= self._need:
            self._finish(Termination.SEQUENCES, side)

    def _finish(self, termination: Termination, winner: int | None) -> None:
        self._end = termination
        self._winner = winner
        self._penalty.clear()
