"""What is legal: listing the legal actions, and checking one action naming the rule it breaks."""

from __future__ import annotations

from ..actions import DEAD, DISCARD, DRAW, NUM_ACTIONS, REMOVE, WILD, action_name
from ..board import CORNERS, LAYOUT, PLAYABLE, cell_name, cells_of
from ..cards import ONE_EYED, TWO_EYED, Card, card_code, is_jack
from ..errors import IllegalActionError
from ..messages import M_
from .cells import BIT_A, BIT_B, CELL_A, CELL_B, KIND
from .fields import StateFields

__all__ = ["Legality"]


class Legality(StateFields):
    """The legal actions (R5) and :meth:`check`, which reports the first rule an action breaks."""

    __slots__ = ()

    def _play_actions(self, seat: int) -> set[int]:
        """R5.2 plays open to the seat."""
        occ = self._occ
        out: set[int] = set()
        wild = remove = False
        for card in self._hands[seat]:
            kind = KIND[card]
            if kind == 0:
                if not occ & BIT_A[card]:
                    out.add(CELL_A[card])
                if not occ & BIT_B[card]:
                    out.add(CELL_B[card])
            elif kind == 1:
                wild = True
            else:
                remove = True
        if wild:
            out.update(WILD + c for c in cells_of(PLAYABLE & ~occ))
        if remove:
            mine = self._chips[seat % self._sides]
            out.update(REMOVE + c for c in cells_of(occ & ~mine & ~self._locked))
        return out

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Legal action ids for ``seat`` (default :attr:`current_seat`), ascending.

        Never empty for a seat in :meth:`seats_to_act`.
        """
        if self._end is not None:
            return []
        if self._penalty:
            payer = self._penalty[0]
            if seat is not None and seat != payer:
                return []
            return sorted({DISCARD + c for c in self._hands[payer]})
        if seat is None:
            seat = self._seat
        if seat != self._seat:
            return [DRAW] if self._owed[seat] else []
        acts = self._play_actions(seat)
        hand = self._hands[seat]
        if not self._dead_done:
            acts.update(DEAD + c for c in hand if self.is_dead(c))
        if not any(a < DEAD for a in acts):
            acts.update(DISCARD + c for c in hand)  # R5.5
        if self._owed[seat]:
            acts.add(DRAW)
        return sorted(acts)

    def legal_action_mask(self, seat: int | None = None) -> list[bool]:
        """A mask over all ``NUM_ACTIONS`` ids."""
        mask = [False] * NUM_ACTIONS
        for a in self.legal_actions(seat):
            mask[a] = True
        return mask

    def is_legal(self, action: int, seat: int | None = None) -> bool:
        return action in self.legal_actions(seat)

    def action_name(self, action: int) -> str:
        """The notation of an action id (``"7h@e4"``)."""
        return action_name(action)

    # ------------------------------------------------------------ validation

    def check(self, action: int, seat: int | None = None, card: Card | None = None) -> None:
        """Raise :class:`IllegalActionError` naming the broken rule if the action is illegal.

        The rules are checked in a fixed order, so that one illegal action always names the same
        rule: the end (R7.1), the seat (R2.1), a table-talk fine owed (R6.1), whose turn it is
        (R4.3), and only then the card and the cell.
        """
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action <= DRAW:
            self._check_actor(seat, None, action)
            raise IllegalActionError("R5.2", M_("not an action id: {what}", what=repr(action)), action)
        actor = self._check_actor(seat, action, action)
        if self._penalty:
            if action - DISCARD not in self._hands[actor]:
                raise IllegalActionError(
                    "R6.1",
                    M_("seat {seat} holds no {card}", seat=actor, card=card_code(action - DISCARD)),
                    action,
                )
            return
        if action == DRAW:
            if not self._manual:
                raise IllegalActionError("R5.3", M_("draws are automatic in this game"), action)
            if not self._owed[actor]:
                raise IllegalActionError("R5.3", M_("seat {seat} owes no draw", seat=actor), action)
            return
        hand = self._hands[actor]
        if action < WILD:
            printed = LAYOUT[action]
            if card is not None and card != printed:
                raise IllegalActionError(
                    "R5.2",
                    M_("{card} is not printed on {cell}", card=card_code(card), cell=cell_name(action)),
                    action,
                )
            if printed < 0:
                raise IllegalActionError(
                    "R5.2", M_("{cell} is a corner and holds no chip", cell=cell_name(action)), action
                )
            if printed not in hand:
                raise IllegalActionError(
                    "R5.2", M_("seat {seat} holds no {card}", seat=actor, card=card_code(printed)), action
                )
            self._check_open(action, action)
        elif action < REMOVE:
            self._check_jack(actor, action, card, TWO_EYED, two_eyed=True)
            self._check_open(action - WILD, action)
        elif action < DEAD:
            self._check_jack(actor, action, card, ONE_EYED, two_eyed=False)
            cell = action - REMOVE
            owner = self.chip_at(cell)
            if owner is None:
                raise IllegalActionError(
                    "R5.2", M_("{cell} holds no chip to remove", cell=cell_name(cell)), action
                )
            if owner == actor % self._sides:
                raise IllegalActionError(
                    "R5.2", M_("the chip on {cell} is your own side's", cell=cell_name(cell)), action
                )
            if self._locked >> cell & 1:
                raise IllegalActionError(
                    "R3.5", M_("the chip on {cell} is part of a sequence", cell=cell_name(cell)), action
                )
        elif action < DISCARD:
            dead = action - DEAD
            if is_jack(dead):
                raise IllegalActionError("R5.1", M_("jacks are never dead"), action)
            if dead not in hand:
                raise IllegalActionError(
                    "R5.1", M_("seat {seat} holds no {card}", seat=actor, card=card_code(dead)), action
                )
            if not self.is_dead(dead):
                raise IllegalActionError(
                    "R5.1", M_("{card} is not dead: a space for it is open", card=card_code(dead)), action
                )
            if self._dead_done:
                raise IllegalActionError("R5.1", M_("only one dead card may be exchanged per turn"), action)
        else:
            discard = action - DISCARD
            if any(a < DEAD for a in self._play_actions(actor)):
                raise IllegalActionError(
                    "R5.5", M_("a card may be discarded only when no play is possible"), action
                )
            if discard not in hand:
                raise IllegalActionError(
                    "R5.5", M_("seat {seat} holds no {card}", seat=actor, card=card_code(discard)), action
                )

    def _check_actor(self, seat: int | None, action: int | None, shown: object) -> int:
        """The checks that come before any card or cell: the game goes on (R7.1), the seat exists
        (R2.1), it is not held up by a table-talk fine (R6.1), and it is its turn (R4.3; another
        seat may only draw). ``action`` is ``None`` when it could not be read. Returns the seat."""
        if self._end is not None:
            raise IllegalActionError("R7.1", M_("the game is over"), shown)
        actor = self.current_seat if seat is None else seat
        if not isinstance(actor, int) or isinstance(actor, bool) or not 0 <= actor < self._n:
            raise IllegalActionError("R2.1", M_("no seat {seat} at this table", seat=repr(actor)), shown)
        if self._penalty:
            payer = self._penalty[0]
            if actor != payer:
                raise IllegalActionError(
                    "R6.1",
                    M_("seat {seat} must first discard for the table-talk penalty", seat=payer),
                    shown,
                )
            if action is None:
                raise IllegalActionError(
                    "R6.1", M_("seat {seat} owes a table-talk discard", seat=actor), shown
                )
            if not DISCARD <= action < DRAW:
                owed = M_(
                    "seat {seat} owes a table-talk discard, not '{what}'",
                    seat=actor,
                    what=action_name(action),
                )
                raise IllegalActionError("R6.1", owed, shown)
        elif actor != self._seat and action != DRAW:
            raise IllegalActionError(
                "R4.3",
                M_("it is seat {seat}'s turn, not seat {actor}'s", seat=self._seat, actor=actor),
                shown,
            )
        return actor

    def _check_open(self, cell: int, action: int) -> None:
        if CORNERS >> cell & 1:
            raise IllegalActionError(
                "R5.2", M_("{cell} is a corner and holds no chip", cell=cell_name(cell)), action
            )
        if self._occ >> cell & 1:
            raise IllegalActionError("R5.2", M_("{cell} already holds a chip", cell=cell_name(cell)), action)

    def _check_jack(
        self, actor: int, action: int, card: Card | None, kinds: frozenset[Card], two_eyed: bool
    ) -> None:
        hand = self._hands[actor]
        if card is not None:
            if card not in kinds:
                not_kind = (
                    M_("{card} is not a two-eyed jack", card=card_code(card))
                    if two_eyed
                    else M_("{card} is not a one-eyed jack", card=card_code(card))
                )
                raise IllegalActionError("R5.2", not_kind, action)
            if card not in hand:
                raise IllegalActionError(
                    "R5.2", M_("seat {seat} holds no {card}", seat=actor, card=card_code(card)), action
                )
        elif not any(c in kinds for c in hand):
            none_held = (
                M_("seat {seat} holds no two-eyed jack", seat=actor)
                if two_eyed
                else M_("seat {seat} holds no one-eyed jack", seat=actor)
            )
            raise IllegalActionError("R5.2", none_held, action)
