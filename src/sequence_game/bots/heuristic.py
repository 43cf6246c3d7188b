"""The heuristic bot: one ply with a documented evaluation that knows its own hand.

Each legal play is scored as (``docs/bots.md`` explains the numbers):

1. **Open lines by length** and **blocks**: :func:`~sequence_game.bots.evaluation.aware_gain`
   under :data:`HEURISTIC` (a four-of-five is worth far more than a three, an opponent's four
   far more than our own three), each window scaled by how reachable its other missing spaces are
   (card counting: in our hand, still unseen, or gone but for a two-eyed jack); completing a
   sequence is worth ``line[5]``, and winning (R7.1) outweighs everything.
2. **Threats**: a new four whose missing space we can fill next turn from the cards left in hand
   (its card, or a two-eyed jack) earns a bonus; a second such space more (the opponents can
   rarely block both). A play that blocks or breaks an opponent's threat that would *win* the
   game earns an urgency bonus on top of the ordinary block.
3. **Centre and corners**: a small bonus for central cells; corners enter through the windows,
   which count a corner as a chip of every side (R3.2).
4. **Jacks and dead cards**: a two-eyed or one-eyed jack costs its keeping value when spent, so
   jacks are kept for threats and blocks; a dead card is always exchanged (R5.1); discards
   (R5.5, R6.1) throw away the least useful card.
5. **Team play** (4-12 players): chips are shared by the side (R2.4), so a team mate's line is
   ours; our fours are worth more the more team mates can complete them, and an opponent's lines
   weigh more the sooner that side plays after us (R4.3).

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=4), seed=4)
>>> HeuristicBot(seed=1).select_action(state.view(state.current_seat)) in state.legal_actions()
True
"""

from __future__ import annotations

from typing import Final

from ..actions import REMOVE, WILD
from ..board import LAYOUT, NUM_CELLS
from ..cards import JC, JD, JH, JS, TWO_EYED
from ..views import PlayerView
from ..worlds import unseen_cards
from .evaluation import Board, Weights, action_gain, aware_gain, threat_windows, threats, threats_after
from .inference import HandInference, infer_hands
from .oneply import OnePlyBot

HEURISTIC: Final = Weights(
    line=(0.0, 1.0, 4.0, 14.0, 50.0, 400.0),
    block=(0.0, 1.0, 5.0, 20.0, 140.0, 0.0),
    centre=2.0,
)
WIN: Final = 100_000.0
TWO_EYED_COST: Final = 30.0
ONE_EYED_COST: Final = 24.0
"""What holding a jack is worth to search evaluations (``mcts``)."""
TWO_EYED_SPEND: Final = 1000.0
ONE_EYED_SPEND: Final = 400.0
"""What spending a jack costs the one-ply heuristic: a two-eyed jack goes only to a sequence that
wins or to a gain worth more than a sequence; a one-eyed jack mostly to break a threat. Tuned in
1000-game matches against ``greedy`` (docs/bots.md): from 53% at 30/24 to 61-64%."""
THREAT_WEIGHT: Final = 1.0
"""Scale of the threat terms (expected sequences won or lost before our next turn)."""
WINNING_SEQUENCE: Final = 2000.0
"""The value of a sequence that wins the game (a plain one is worth ``line[5]``)."""
TEAM_FOUR_BONUS: Final = 0.2
"""Our fours gain this fraction per team mate beyond the first seat."""
REACH: Final = (1.0, 0.6, 0.2)
"""How reachable a space is (:func:`reach_table`): its card in our hand; a copy unseen; none left."""
TUNED: Final = Weights(
    line=(0.0, 1.355, 5.489, 13.96, 50.83, 727.6),
    block=(0.0, 0.8759, 3.731, 10.69, 122.4, 0.0),
    centre=2.336,
)
TUNED_JACK_COSTS: Final = (489.7, 288.6)
TUNED_THREAT_WEIGHT: Final = 0.5999
TUNED_REACH: Final = (1.0, 0.4581, 0.1125)
"""The numbers a joint search over all of the heuristic's found (``experiments/tune_heuristic.py``):
52.2% against the defaults over 5,000 games (``docs/research/bots-log.md``, tenth pass), too small a gain to
move the ``hard`` level everyone measures against; the ``pimc`` bot ranks and rolls out its own
plays with them (``rank="tuned"``, ``policy=5``)."""

TUNED_3P: Final = Weights(
    line=(0.0, 1.003, 5.744, 17.62, 65.93, 531.4),
    block=(0.0, 0.4105, 3.374, 14.73, 107.0, 0.0),
    centre=2.297,
)
TUNED_3P_JACK_COSTS: Final = (695.7, 366.6)
TUNED_3P_THREAT_WEIGHT: Final = 0.8717
TUNED_3P_REACH: Final = (1.0, 0.5302, 0.17)
"""The same search at 3 players (``experiments/tune_heuristic.py --players 3 --minutes 20 --deals 1000
--final-deals 4000 --seed 1``): one seat with these numbers against two with the defaults scores
35.4% [34.5, 36.3] over 12,000 fresh compiled games, where a fair share is 33.3% (the 2-player
numbers there: 34.0%). Blocks weigh about a third less than the defaults' (two opponents share
the blocking), fours more; the expert ranks its plays with them where three sides play
(``pimc(rank="table")``; ``rank="tuned3"`` at any table)."""


class HeuristicBot(OnePlyBot):
    """A hand-aware one-ply evaluation (a few milliseconds a move)."""

    name = "heuristic"
    jack_keep = (TWO_EYED_COST * 4, ONE_EYED_COST * 3)

    def __init__(
        self,
        seed: int | None = None,
        weights: Weights = HEURISTIC,
        jack_costs: tuple[float, float] = (TWO_EYED_SPEND, ONE_EYED_SPEND),
        threat_weight: float = THREAT_WEIGHT,
        reach: tuple[float, float, float] = REACH,
        inference: bool = True,
    ) -> None:
        super().__init__(seed, weights)
        self.jack_costs = jack_costs
        """What spending a two-eyed and a one-eyed jack costs."""
        self.threat_weight = threat_weight
        """Scale of the threat terms."""
        self.reach = reach
        """How reachable a space is: its card held, a copy unseen, none left (see :data:`REACH`)."""
        self.inference = inference
        """Whether the odds of the opponents' threats use what their plays showed of their hands."""

    def score_plays(self, view: PlayerView, board: Board, plays: list[int]) -> list[float]:
        return score_plays(
            view,
            board,
            plays,
            self.weights,
            self.jack_costs,
            threat_weight=self.threat_weight,
            reach=self.reach,
            inference=self.inference,
        )


def opponent_weights(view: PlayerView) -> list[float]:
    """Per side: 1 for the side playing right after us, a little less for later sides (R4.3)."""
    sides = view.config.sides
    me = view.side
    return [1.0 if s == me else 1.0 - 0.15 * (((s - me) % sides) - 1) for s in range(sides)]


def score_plays(
    view: PlayerView,
    board: Board,
    plays: list[int],
    weights: Weights,
    jack_costs: tuple[float, float] = (TWO_EYED_SPEND, ONE_EYED_SPEND),
    *,
    threat_weight: float = THREAT_WEIGHT,
    reach: tuple[float, float, float] = REACH,
    inference: bool = True,
) -> list[float]:
    """The heuristic score of each R5.2 play in ``plays`` for the view's seat; ``jack_costs`` is
    what spending a two-eyed and a one-eyed jack costs, ``threat_weight`` scales the threat
    terms, ``reach`` is :data:`REACH` and ``inference`` whether the odds of the opponents'
    threats use what their last plays showed of their hands (:class:`Odds`)."""
    two_cost, one_cost = jack_costs
    side = view.side
    sides = view.config.sides
    team = view.config.team_size
    hand = list(view.hand)
    opp_w = opponent_weights(view)
    four = weights.line[4] * (1.0 + TEAM_FOUR_BONUS * (team - 1))
    line = (*weights.line[:4], four, weights.line[5])
    w_team = Weights(line=line, block=weights.block, centre=weights.centre)
    odds = Odds(view, inference)
    before_windows = [threat_windows(board, s) for s in range(sides)]
    before = [threats(board, s) for s in range(sides)]
    table = reach_table(view, odds, reach)
    # the terms of the position before the play are the same for every play: computed once
    mine_before = threat_value(view, board, side, before[side], hand=hand, odds=odds)
    risk_before = [
        odds.completion_risk(view, board, s, before[s]) if s != side else 0.0 for s in range(sides)
    ]
    out = []
    for a in plays:
        if a < REMOVE:
            score = aware_gain(board, side, a if a < WILD else a - WILD, w_team, table, opp_w)
        else:
            score = action_gain(board, side, a, w_team, opp_w)
        rest = list(hand)
        if a < REMOVE:
            cell = a if a < WILD else a - WILD
            card = (
                LAYOUT[cell] if a < WILD else (JD if JD in hand else next(c for c in hand if c in TWO_EYED))
            )
            rest.remove(card)
            if a >= WILD:
                score -= two_cost
        else:
            cell = a - REMOVE
            rest.remove(JS if JS in hand else JH)
            score -= one_cost
        after = board.after(a, side)
        if after.sequences[side] >= view.config.sequences_to_win:
            out.append(score + WIN)
            continue
        mine = threats_after(board, after, side, a, before_windows[side])[1]
        score += threat_weight * (threat_value(view, after, side, mine, hand=rest, odds=odds) - mine_before)
        for s in range(sides):
            if s != side:
                now = threats_after(board, after, s, a, before_windows[s])[1]
                lost = odds.completion_risk(view, after, s, now) - risk_before[s]
                score -= threat_weight * opp_w[s] * lost
        out.append(score)
    return out


def sequence_value(view: PlayerView, board: Board, side: int, weights: Weights) -> float:
    """What the side's next sequence is worth: the game if it is the last one needed (R3.1)."""
    return WINNING_SEQUENCE if board.sequences[side] + 1 >= view.config.sequences_to_win else weights.line[5]


class Odds:
    """Chances that unseen hands hold given cards, from the multiset of cards this seat cannot see
    and, with ``inference``, what the other seats' last plays showed they did not hold
    (:mod:`~sequence_game.bots.inference`)."""

    def __init__(self, view: PlayerView, inference: bool = True) -> None:
        unseen = unseen_cards(view)
        self.unseen = unseen
        self.total = max(sum(unseen.values()), 1)
        self.wild = unseen[JD] + unseen[JC]
        self.remover = unseen[JH] + unseen[JS]
        n = view.config.players
        sides = view.config.sides
        me = view.seat
        # the hands that act between this seat's turn and its next one, by side
        self.cards_before_next: list[int] = [0] * sides
        self.inferred: list[list[tuple[int, HandInference]]] = [[] for _ in range(sides)]
        """Per side, its seats acting before our next turn whose hands are inferred (with their
        hand sizes); the other seats' cards are counted in :attr:`cards_before_next`."""
        known = infer_hands(view) if inference else {}
        for k in range(1, n):
            seat = (me + k) % n
            if seat in known:
                self.inferred[seat % sides].append((view.hand_sizes[seat], known[seat]))
            else:
                self.cards_before_next[seat % sides] += view.hand_sizes[seat]
        self.weights = HEURISTIC

    def any_of(self, copies: int, cards: int) -> float:
        """P(a hand of ``cards`` unseen cards holds at least one of ``copies`` given cards)."""
        total = self.total
        if copies <= 0 or cards <= 0:
            return 0.0
        miss = 1.0
        for i in range(min(cards, total)):
            if total - i <= 0:
                break
            miss *= max(total - copies - i, 0) / (total - i)
        return 1.0 - miss

    def completion_risk(self, view: PlayerView, board: Board, side: int, cells: dict[int, int]) -> float:
        """Expected value another side completes a sequence from its threats before our next turn."""
        if not cells:
            return 0.0
        hand_cards = self.cards_before_next[side]
        inferred = self.inferred[side]
        miss = 1.0
        for cell in cells:
            card = LAYOUT[cell]
            copies = self.unseen[card] + self.wild
            miss *= 1.0 - self.any_of(copies, hand_cards)
            for size, known in inferred:
                gone = (self.unseen[card] if card in known.absent else 0) + (
                    self.wild if JD in known.absent else 0
                )
                miss *= (1.0 - self.any_of(copies - gone, size)) * (1.0 - self.any_of(gone, known.fresh))
        return (1.0 - miss) * sequence_value(view, board, side, self.weights)


def threat_value(
    view: PlayerView, board: Board, side: int, cells: dict[int, int], *, hand: list[int], odds: Odds
) -> float:
    """Expected value of our threats: those we can fill next turn unless every one is blocked first;
    the others only through team mates' hands or a lucky draw."""
    if not cells:
        return 0.0
    value = sequence_value(view, board, side, HEURISTIC)
    wild = any(c in TWO_EYED for c in hand)
    fillable = [m for m in cells if wild or LAYOUT[m] in hand]
    blockers = sum(odds.cards_before_next[s] for s in range(len(board.chips)) if s != side)
    total = 0.0
    if fillable:
        p_block_all = 1.0
        for m in fillable:
            p_block_all *= odds.any_of(odds.unseen[LAYOUT[m]] + odds.wild + odds.remover, blockers)
        total += value * (1.0 - p_block_all)
    mates = odds.cards_before_next[side]
    for m in cells:
        if m not in fillable:
            total += 0.5 * value * odds.any_of(odds.unseen[LAYOUT[m]] + odds.wild, mates + 1)
    return total


def reach_table(view: PlayerView, odds: Odds, reach: tuple[float, float, float] = REACH) -> list[list[float]]:
    """Per side and cell, how reachable the space is for that side (see :func:`aware_gain`): for
    us, ``reach`` (:data:`REACH`) by whether its card is in our hand, a copy is unseen, or none is left (then
    only a two-eyed jack fills it, and we count ours); for other sides, by whether any copy is
    unseen: the copies we hold or that lie on discard piles are not theirs to play."""
    held, unseen_copy, gone = reach
    hand = set(view.hand)
    floor = unseen_copy if any(c in TWO_EYED for c in hand) else gone
    unseen = odds.unseen
    out: list[list[float]] = []
    for t in range(view.config.sides):
        row = [1.0] * NUM_CELLS
        for cell in range(NUM_CELLS):
            card = LAYOUT[cell]
            if card < 0:
                continue
            if t == view.side:
                row[cell] = held if card in hand else unseen_copy if unseen[card] else floor
            else:
                row[cell] = unseen_copy if unseen[card] else gone
        out.append(row)
    return out
