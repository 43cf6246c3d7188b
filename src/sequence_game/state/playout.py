"""Random play at speed: one random legal action without listing them all, and whole playouts
with the common turn inlined (the trusted fast path of rollouts and the benchmark).

The loop keeps the state's fields in locals and hands every rare case to
:meth:`~sequence_game.state_apply.Applying._apply`; keep it that way (``PLR0915``: it is long
on purpose).
"""

from __future__ import annotations

import random

from ..actions import DEAD, DISCARD, REMOVE, WILD
from ..board import COUNTER_FULL, COUNTER_STEP, LAYOUT, PLAYABLE
from ..cards import JC, JD, TWO_EYED
from .apply import Applying
from .cells import OTHER_CELL
from .outcome import Outcome

__all__ = ["Playouts"]


class Playouts(Applying):
    """:meth:`random_action` and :meth:`playout`."""

    __slots__ = ()

    def random_action(self, rng: random.Random, exchange_dead: bool = True) -> int:
        """A uniformly random legal action of :attr:`current_seat`, without listing them all.

        With ``exchange_dead`` a dead card is always exchanged first when allowed, and draws are
        never chosen (the auto-draw rollouts of search and the benchmark).
        """
        if self._end is not None or self._penalty or self._manual:
            acts = self.legal_actions()
            if exchange_dead:
                exchanges = [a for a in acts if DEAD <= a < DISCARD]
                if exchanges:
                    return exchanges[int(rng.random() * len(exchanges))]
            return acts[int(rng.random() * len(acts))]
        seat = self._seat
        occ = self._occ
        opens = self._open
        cells: list[int] = []
        wild = remove = False
        dead = -1
        for card in self._hands[seat]:
            open_cells = opens[card]
            if open_cells:
                cells += open_cells
            elif open_cells is None:
                if card in TWO_EYED:
                    wild = True
                else:
                    remove = True
            else:
                dead = card
        if dead >= 0 and exchange_dead and not self._dead_done:
            return DEAD + dead
        n_cells = len(cells)
        free = PLAYABLE & ~occ if wild else 0
        n_free = free.bit_count()
        targets = occ & ~self._chips[seat % self._sides] & ~self._locked if remove else 0
        n_targets = targets.bit_count()
        total = n_cells + n_free + n_targets
        if total == 0:
            return self._stuck_choice(rng)  # R5.5: rare
        r = int(rng.random() * total)
        while r < n_cells:
            m = cells.count(cells[r])  # listed twice when both copies are held: see playout
            if m == 1 or rng.random() * m < 1.0:
                return cells[r]
            r = int(rng.random() * total)
        r -= n_cells
        if r < n_free:
            return WILD + _nth_bit(free, r)
        return REMOVE + _nth_bit(targets, r - n_free)

    def playout(self, rng: random.Random, max_turns: int | None = None) -> Outcome | None:
        """Play uniformly random legal actions (dead cards always exchanged) to the end.

        The trusted fast path of rollouts and the benchmark: the common turn is inlined here and
        every rare case (a sequence, a dead card, a stuck hand, a reshuffle, manual draws, fines)
        goes through :meth:`random_action` and :meth:`_apply`. Stops early, returning ``None``,
        once :attr:`turn` reaches ``max_turns``.
        """
        limit = (1 << 62) if max_turns is None else max_turns
        if self._manual or self._penalty:
            while self._end is None and self._turn < limit:
                self._apply(self.random_action(rng), self.current_seat)
            return self.outcome()
        rand = rng.random
        hands, chips, counters = self._hands, self._chips, self._counters
        discards, deck, history, opens = self._discards, self._deck, self._history, self._open
        drawn = self._drawn_since
        sides, n = self._sides, self._n
        step, full, layout, other_of = COUNTER_STEP, COUNTER_FULL, LAYOUT, OTHER_CELL
        two_eyed = TWO_EYED
        occ = self._occ
        seat = self._seat
        turn = self._turn
        while turn < limit:
            hand = hands[seat]
            cells: list[int] = []
            wild = remove = False
            dead = -1
            for card in hand:
                open_cells = opens[card]
                if open_cells:
                    cells += open_cells
                elif open_cells is None:
                    if card in two_eyed:
                        wild = True
                    else:
                        remove = True
                else:
                    dead = card
            side = seat % sides
            n_cells = len(cells)
            free = PLAYABLE & ~occ if wild else 0
            n_free = free.bit_count()
            targets = occ & ~chips[side] & ~self._locked if remove else 0
            total = n_cells + n_free + targets.bit_count()
            r = int(rand() * total)
            while r < n_cells:
                # Two copies of a card list its cells twice: keep a cell listed m times with
                # probability 1/m, so that every distinct action stays equally likely.
                m = cells.count(cells[r])
                if m == 1 or rand() * m < 1.0:
                    break
                r = int(rand() * total)
            if r >= n_cells + n_free or not deck or (dead >= 0 and not self._dead_done):
                # rare: a removal, a dead card, a stuck hand or an empty draw pile
                self._occ, self._seat, self._turn = occ, seat, turn
                if dead >= 0 and not self._dead_done:
                    self._apply(DEAD + dead, seat)
                elif total == 0:
                    self._apply(self._stuck_choice(rng), seat)
                elif r >= n_cells + n_free:
                    self._apply(REMOVE + _nth_bit(targets, r - n_cells - n_free), seat)
                else:
                    self._apply(cells[r] if r < n_cells else WILD + _nth_bit(free, r - n_cells), seat)
                if self._end is not None:
                    return self.outcome()
                occ = self._occ
                seat = self._seat
                turn = self._turn
                continue
            if r < n_cells:
                cell = cells[r]
                card = layout[cell]
                history.append((seat, cell, card))
            else:
                cell = _nth_bit(free, r - n_cells)
                card = JD if JD in hand else JC
                history.append((seat, WILD + cell, card))
            hand.remove(card)
            discards[seat].append(card)
            bit = 1 << cell
            chips[side] |= bit
            occ |= bit
            other = other_of[cell]
            opens[layout[cell]] = () if occ >> other & 1 else (other,)
            count = counters[side] + step[cell]
            counters[side] = count
            if self._stuck_run:
                self._stuck_run = 0
            if count & full[cell]:
                self._occ, self._seat, self._turn = occ, seat, turn
                self._declare(side, cell)
                if self._end is not None:
                    return self.outcome()
            hand.append(deck.pop())
            drawn[seat] += 1
            turn += 1
            seat = (seat + 1) % n
            self._dead_done = False
            if not hands[seat]:
                self._occ, self._seat, self._turn = occ, seat, turn
                self._skip_passes()
                if self._end is not None:
                    return self.outcome()
                seat, turn = self._seat, self._turn
        self._occ, self._seat, self._turn = occ, seat, turn
        return None

    def _stuck_choice(self, rng: random.Random) -> int:
        acts = self.legal_actions()
        return acts[int(rng.random() * len(acts))]


def _nth_bit(mask: int, n: int) -> int:
    """The cell of the ``n``-th set bit of ``mask`` (0-based, ascending)."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1
