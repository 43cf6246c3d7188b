"""Hand reading: what the other seats' recent plays show about the cards they still hold.

:mod:`~sequence_game.bots.inference` reads one thing from a play (a four left unfilled). This
module reads more, under a stronger assumption: the other players play about as the ``heuristic``
bot would. For each of a seat's last ``turns`` plays it replays the public board to that moment,
and for every kind of card asks whether its best play would have beaten the play made by more
than ``margin``. The play made is scored in the most generous hand (one of every card, so every
threat it makes can be filled later) and the other card's plays in a hand of just the two: the
real hand is unknown, and a card counts as not held only where it wins even so. Jack plays are
not read (a jack is spent for what the rest of the hand makes of the play). A card not held then
is not among the cards the seat has held ever since. Those cards are known by count (every play
is followed by a draw), not by name, so the reading is a chain, oldest play first: ``held`` cards
held since that play, none of them in ``absent``.

A search deals the sampled worlds' hidden hands by it (:class:`~sequence_game.bots.mcts.Determinizer`):
the cards held longest avoid what every later play showed, and fresh draws are free. A player who
breaks the assumption only makes some constraints unsatisfiable; those are then dropped. It reads
only the public history of a view, so it is as fair as the view itself.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=4)
>>> HandReader().read(state.view(0))  # nobody has played yet
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..actions import DEAD, REMOVE, WILD
from ..board import CARD_MASK, PLAYABLE, cells_of
from ..cards import JD, JH, NUM_CARDS, ONE_EYED, TWO_EYED, Card
from ..views import PlayerView, PublicEvent
from .evaluation import GREEDY, Board, action_gain
from .heuristic import HEURISTIC, ONE_EYED_SPEND, TWO_EYED_SPEND, score_plays
from .inference import boards_before, exchanged_before, taken_since

DEFAULT_MARGIN: Final = 10.0
"""How much better (in the heuristic's points: a new four is worth about 50, blocking one 140) a
card's best play must have been for the card to count as not held: small gaps are noise in a
reading made from a guessed hand."""

KINDS: Final = (*(c for c in range(NUM_CARDS) if c not in TWO_EYED | ONE_EYED), JD, JH)
"""The cards a reading asks about: each natural card, one two-eyed and one one-eyed jack (the
two of a kind play alike)."""


@dataclass(frozen=True)
class HeldSince:
    """Cards a seat has held since one of its plays, by count, and what they cannot be."""

    seat: int
    held: int
    absent: frozenset[Card]


MODELS: Final = ("heuristic", "greedy")
"""The players a reading may assume: one who plays about as the ``heuristic`` bot would, or one
who plays as ``greedy`` does (the play of largest board gain, jacks spent as freely as any card)."""


class HandReader:
    """Reads the other seats' hands from their recent plays, remembering each play's verdict (the
    past does not change, so a game costs one reading per play).

    ``model`` is the player assumed (:data:`MODELS`). A ``greedy`` player's choice depends on the
    board alone, so its reading is exact: every card it held when it played had no play of larger
    board gain than the one made, jacks included, and no card of it was dead unless it exchanged
    one that turn (R5.1: the bots always do)."""

    def __init__(self, turns: int = 3, margin: float = DEFAULT_MARGIN, model: str = "heuristic") -> None:
        if model not in MODELS:
            raise ValueError(f"a hand reading assumes one of {', '.join(MODELS)}, not {model!r}")
        self.turns = turns
        self.margin = margin
        self.model = model
        self._absent: dict[tuple[tuple[int, ...], ...], frozenset[Card]] = {}

    def read(self, view: PlayerView) -> list[HeldSince]:
        """Per other seat, oldest play first: the cards held since each of its last ``turns``
        R5.2 plays and what they cannot be (each group's cards are the ones held since that play
        and not since the one before it; the absent sets accumulate toward the oldest)."""
        history = view.history
        plays: dict[int, list[int]] = {}
        for i, event in enumerate(history):
            seat, action = event[0], event[1]
            if seat >= 0 and seat != view.seat and action < DEAD:
                plays.setdefault(seat, []).append(i)
        if not plays or self.turns < 1:
            return []
        boards = boards_before(view, {i for idx in plays.values() for i in idx[-self.turns :]})
        if boards is None:
            return []  # a position set up without its history: nothing can be read from it
        auto = view.config.draw == "auto"
        out: list[HeldSince] = []
        for seat, idx in plays.items():
            size = view.hand_sizes[seat]
            chain: list[HeldSince] = []
            union: frozenset[Card] = frozenset()
            # most recent first: the cards held since an older play are a subset of the newer's
            for i in reversed(idx[-self.turns :]):
                held = max(0, size - taken_since(history, i, seat, auto))
                key = history[: i + 1]
                absent = self._absent.get(key)
                if absent is None:
                    read = self._greedy_absent_at if self.model == "greedy" else self._absent_at
                    absent = self._absent[key] = read(view, boards[i], seat, history, i)
                union |= absent
                chain.append(HeldSince(seat, held, union))
            # newest-first counts -> groups: held since play k but not since the older play k+1
            groups = [
                HeldSince(seat, g.held - (chain[k + 1].held if k + 1 < len(chain) else 0), g.absent)
                for k, g in enumerate(chain)
            ]
            out.extend(g for g in reversed(groups) if g.held > 0)
        return out

    def _greedy_absent_at(
        self, view: PlayerView, board: Board, seat: int, history: Sequence[PublicEvent], i: int
    ) -> frozenset[Card]:
        """For a ``greedy`` player: the cards with a play of more board gain on ``board`` than the
        play made at ``history[i]``, and the dead cards there unless the seat exchanged one that turn."""
        action, played = history[i][1], history[i][2]
        side = seat % view.config.sides
        made = action_gain(board, side, action, GREEDY)
        exchanged = exchanged_before(history, i)
        absent: set[Card] = set()
        for card in KINDS:
            options = card_plays(board, side, card)
            if not options:
                if not exchanged and card not in TWO_EYED | ONE_EYED and card != played:
                    absent.add(card)  # dead (R5.1): it would have been exchanged first
                continue
            if card == played:
                continue
            if max(action_gain(board, side, a, GREEDY) for a in options) > made + self.margin + 1e-9:
                absent.update(TWO_EYED if card in TWO_EYED else ONE_EYED if card in ONE_EYED else (card,))
        return frozenset(absent)

    def _absent_at(
        self, view: PlayerView, board: Board, seat: int, history: Sequence[PublicEvent], i: int
    ) -> frozenset[Card]:
        """The cards whose best play on ``board`` beats the seat's actual play by ``margin``."""
        action, played = history[i][1], history[i][2]
        if action >= WILD:
            # a jack is spent for what the rest of the hand makes of the play (threats it can fill
            # later), which a guessed hand cannot score: nothing is read from it
            return frozenset()
        side = seat % view.config.sides

        # the play made, scored in the most generous hand (every kind of card: each threat it makes
        # can be filled later), against each card's best play in a hand of just that card and the
        # one played: a card counts as absent only where it wins even so
        def then(hand: tuple[Card, ...]) -> PlayerView:
            return replace(
                view,
                seat=seat,
                hand=hand,
                chips=board.chips,
                locked=board.locked,
                sequence_windows=board.windows,
            )

        costs = (TWO_EYED_SPEND, ONE_EYED_SPEND)
        generous = tuple(sorted({played, *KINDS}))
        bar = score_plays(then(generous), board, [action], HEURISTIC, costs, inference=False)[0] + self.margin
        absent: set[Card] = set()
        for card in KINDS:
            if (
                card == played
                or (card in TWO_EYED and played in TWO_EYED)
                or (card in ONE_EYED and played in ONE_EYED)
            ):
                continue
            options = card_plays(board, side, card)
            if not options:
                continue
            scores = score_plays(
                then(tuple(sorted((played, card)))), board, options, HEURISTIC, costs, inference=False
            )
            if max(scores) > bar:
                absent.update(TWO_EYED if card in TWO_EYED else ONE_EYED if card in ONE_EYED else (card,))
        return frozenset(absent)


def card_plays(board: Board, side: int, card: Card) -> list[int]:
    """The R5.2 plays of ``card`` by ``side`` on ``board``: its printed spaces left empty, any
    empty space for a two-eyed jack, any other side's chip outside a sequence for a one-eyed jack."""
    empty = PLAYABLE & ~board.occupied
    if card in TWO_EYED:
        return [WILD + c for c in cells_of(empty)]
    if card in ONE_EYED:
        removable = 0
        for s, mask in enumerate(board.chips):
            if s != side:
                removable |= mask
        return [REMOVE + c for c in cells_of(removable & ~board.locked)]
    return cells_of(CARD_MASK[card] & empty)
