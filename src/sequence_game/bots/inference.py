"""What the other seats' plays show about their hands: a player who could have completed a
sequence with the card printed on its missing space, and did not, did not hold that card.

The bots assume one thing of every player: a sequence that a natural card completes is always
made (it is worth more than any other play), and a sequence that *wins* (R7.1) is made with a
two-eyed jack too. So when a seat's last play left one of its side's fours unfilled, the cards
that would have filled it were not in its hand then; only the cards it has taken in since (the
draw after that play, a dead-card replacement, R5.1) may be one of them. Without this, a threat
that has stood for several turns looks as likely to be filled as a new one: the sampled worlds
of search hand the card to the opponent about half the time, when it is in fact only as likely
as one fresh draw.

The inference reads only the public history of a view, so it is as fair as the view itself.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=4)
>>> infer_hands(state.view(0))  # nobody has played yet
{}
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import LAYOUT
from ..cards import TWO_EYED, Card
from ..views import PlayerView, PublicEvent
from .evaluation import Board, threats


@dataclass(frozen=True)
class HandInference:
    """One seat's hand as its last play showed it."""

    absent: frozenset[Card]
    """Cards it did not hold when it made its last play."""
    fresh: int
    """Cards it has taken into its hand since then (any of them may be one of ``absent``)."""


def infer_hands(view: PlayerView) -> dict[int, HandInference]:
    """Per other seat that has made an R5.2 play, what that play showed it did not hold
    (seats whose last play showed nothing are left out)."""
    sides = view.config.sides
    need = view.config.sequences_to_win
    history = view.history
    last_play: dict[int, int] = {}
    for i, event in enumerate(history):
        seat, action = event[0], event[1]
        if seat >= 0 and seat != view.seat and action < DEAD:
            last_play[seat] = i
    if not last_play:
        return {}
    wanted = {i: seat for seat, i in last_play.items()}
    boards = boards_before(view, wanted)
    if boards is None:
        return {}  # a position set up without its history: nothing can be read from it
    out: dict[int, HandInference] = {}
    auto = view.config.draw == "auto"
    for i in sorted(wanted):
        seat = wanted[i]
        absent = _absent(boards[i], seat % sides, history[i][1], need)
        if absent:
            fresh = taken_since(history, i, seat, auto)
            out[seat] = HandInference(absent, min(fresh, view.hand_sizes[seat]))
    return out


def boards_before(view: PlayerView, wanted: Collection[int]) -> dict[int, Board] | None:
    """The public board just before each event ``history[i]``, ``i`` in ``wanted``, replayed from
    the view's history; ``None`` for a position set up without its history (the replay does not
    end on the view's board), from which nothing can be read."""
    sides = view.config.sides
    board = Board.from_parts([0] * sides, 0, [()] * sides)
    out: dict[int, Board] = {}
    for i, event in enumerate(view.history):
        if i in wanted:
            out[i] = board
        if event[0] >= 0 and event[1] < DEAD:
            board = board.after(event[1], event[0] % sides)
    return out if board.chips == tuple(view.chips) else None


def exchanged_before(history: Sequence[PublicEvent], i: int) -> bool:
    """Whether the seat that made ``history[i]`` exchanged a dead card (R5.1) just before it, in
    the same turn: then a dead card in its hand at that play says nothing against the play."""
    return i > 0 and history[i - 1][0] == history[i][0] and DEAD <= history[i - 1][1] < DISCARD


def taken_since(history: Sequence[PublicEvent], i: int, seat: int, auto: bool) -> int:
    """Cards the seat has taken into its hand since its play at ``history[i]``: with automatic
    draws one after every play of its own from that one on; a dead-card replacement, a stuck
    hand's draw and a manual draw one each."""
    fresh = 0
    for later in history[i:]:
        if later[0] != seat:
            continue
        if later[1] < DEAD:
            fresh += 1 if auto else 0
        elif later[1] <= DRAW:
            fresh += 1
    return fresh


def _absent(board: Board, side: int, action: int, need: int) -> frozenset[Card]:
    """The cards a play of ``action`` by ``side`` on ``board`` shows were not in the hand."""
    if action < REMOVE and board.after(action, side).sequences[side] > board.sequences[side]:
        return frozenset()  # it made a sequence: other fours may have been fillable too
    fours = threats(board, side)
    if not fours:
        return frozenset()
    absent = {LAYOUT[m] for m in fours}
    if action < WILD:
        absent.discard(LAYOUT[action])  # played on the card's other space: it held that card
    elif action < REMOVE:
        return frozenset(absent)  # it held a two-eyed jack and did not win with it
    if board.sequences[side] + 1 >= need:
        absent.update(TWO_EYED)  # a winning sequence is made with a two-eyed jack too (R7.1)
    return frozenset(absent)
