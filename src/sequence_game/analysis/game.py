"""Post-game analysis of a record on the evaluator: every move's winning chances, the mover's best
plays, labels, and each side's luck kept apart from its decisions (``docs/analysis.md``).

Per move of seat ``m`` (side ``s``), all from ``m``'s view before the move, as the evaluator
(:mod:`sequence_game.evaluator.model`) judges it:

- ``before``: ``s``'s chance after the best legal play, its draw averaged over the unseen cards;
- ``after``: its chance after the actual play, averaged the same way;
- ``loss = before - after`` (>= 0): what the decision cost;
- ``after_draw``: its chance after the actual play with the card really drawn;
- ``hidden = after_pile - after``, where ``after_pile`` averages the draw over the cards really in
  the pile: what the other hands held that the mover could not tell from the pile (a player who
  keeps its jacks leaves the others expecting draws that are in its hand);
- ``luck = after_draw - after_pile``: what the draw was worth against an average draw from that pile.

At 2 players each draw is also judged with both hands known (``luck_known``, by the whole-position
judge, :mod:`sequence_game.evaluator.whole`), and so is the deal; those are the luck the
luck-adjusted result takes out there: judged from the drawer's view alone, a draw's luck also
carries what the other hand held. What each move changed besides its draw's luck, by the same
judge (``decision_known``), adds up to the luck-adjusted result, and the squares of those changes
tell how surely the judge read the game (:func:`adjusted_error`).

So ``after_draw = before - loss + hidden + luck`` for every move, and a side's figures add up over the
game: ``start + decisions + luck + others = result`` (:class:`SideSummary`). A decision is
labelled where its loss passes a threshold, and the label is then checked by rollouts of the two
plays (:mod:`.check`). The evaluator is deterministic and the rollouts' random streams come from
the move's place in the record: the same record always gets the same figures and labels.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field, replace
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ..actions import DEAD, DRAW, WILD, action_name_for
from ..bots.base import forced_action
from ..bots.evaluation import Board, threats
from ..cards import Card, card_name
from ..config import GameConfig
from ..state import EV_PENALTY, EV_RESHUFFLE, GameState
from ..views import PlayerView
from .check import CHECK_WORLDS, CHECKED_LABELS, can_check, new_reader, rollout_loss

if TYPE_CHECKING:  # NumPy loads with the evaluator, when an analysis runs, not on import
    from ..bots.reading import HandReader
    from ..evaluator.model import Evaluator
    from ..evaluator.whole import WholeJudge

MISTAKE: Final = 0.10
"""A decision that loses at least this much winning chance (10 percentage points) is a mistake."""
BLUNDER: Final = 0.25
"""... and at least this much, a blunder."""
MISSED: Final = 0.10
"""A missed win or a missed block is labelled only when it loses at least this much."""
CURVE_SIDE: Final = 0
"""The side whose chance the analysis' one curve shows (who is ahead)."""
ERROR_FLOOR: Final = 0.05
ERROR_SLOPE: Final = 3.3
"""The variance of a 2-player game's luck-adjusted difference (one side's less the other's) when
the two sides play alike, as ``ERROR_FLOOR + ERROR_SLOPE * S``, ``S`` the sum of the squares of
every move's ``decision_known``: fitted (a gamma model, identity link) to 1,200 games of ``hard``
against itself (``experiments/skill_weighted.py``)."""

Progress = Callable[[int, int], None]
"""Called with (moves done, moves in all) as the analysis goes (for progress bars)."""


class AnalysisError(ValueError):
    """A record that cannot be analysed (malformed, or with an illegal action)."""


@dataclass(frozen=True)
class Budget:
    """How the analysis runs. The evaluator judges every legal play over every possible draw,
    whatever the budget: ``seconds``, ``samples``, ``total``, ``bot_share`` and ``bot_simulations``
    belonged to the sampled rollouts it replaced and have no effect (they are still accepted, so
    saved settings and old callers keep working)."""

    seconds: float | None = 1.0
    samples: int = 64
    total: float | None = 90.0
    bot_share: float = 0.3
    bot_simulations: int = 150
    alternatives: int = 3
    """How many of the mover's best plays each decision lists."""
    delay: float = 0.0
    """Seconds to wait after each move: none in use; tests of the interfaces that must stay live
    (and stoppable) while an analysis runs set it, now that a whole game takes a few seconds."""
    check: int = CHECK_WORLDS
    """Worlds of rollouts that check each label the evaluator gives (:mod:`.check`); 0: none."""

    def __post_init__(self) -> None:
        for name, value in (("seconds", self.seconds), ("total", self.total)):
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be positive, not {value!r}")
        if self.samples < 1 or self.bot_simulations < 1 or self.alternatives < 1:
            raise ValueError("samples, bot simulations and alternatives must be at least 1")
        if self.delay < 0:
            raise ValueError(f"delay must be at least 0, not {self.delay!r}")
        if self.check < 0:
            raise ValueError(f"check must be at least 0 worlds, not {self.check!r}")


@dataclass(frozen=True)
class Alternative:
    """One of the mover's best plays and its chance (its draw averaged over the unseen cards)."""

    move: str
    chance: float


@dataclass(frozen=True)
class MoveAnalysis:
    """One action of the record, judged from its mover's view."""

    index: int
    """Its 0-based index into the record's ``actions``."""
    turn: int
    seat: int
    side: int
    move: str
    """The action in notation (``7h@e4``, ``jd@a2``, ``dead:as``, ``draw``)."""
    decision: bool
    """Whether there was a choice (not a single legal action, a dead card or an owed draw)."""
    before: float
    after: float
    loss: float
    drawn: str | None
    after_draw: float
    luck: float
    """What the draw was worth against the average card of the pile it came from."""
    best: str | None
    """The best play by the evaluator (decisions only)."""
    best_chance: float | None
    label: str | None
    """``missed win``, ``missed block``, ``blunder``, ``mistake`` or ``None``."""
    accuracy: float | None
    alternatives: list[Alternative] = field(default_factory=list)
    """The mover's best plays, best first, with their chances (decisions only)."""
    chances: list[float] = field(default_factory=list)
    """After the move (its draw seen), each seat's own-view chance of its own side, by seat."""
    ahead: float = 0.5
    """After the move, side :data:`CURVE_SIDE`'s chance: the mean of its seats' own-view chances."""
    evaluated: int = 0
    """Positions the evaluator judged for this move (every legal play times every draw, and the
    actual play over the pile's cards)."""
    hidden: float = 0.0
    """``after_pile - after``: the draw averaged over the pile's cards against over every unseen card."""
    luck_known: float | None = None
    """At 2 players, the draw's luck with both hands known: the drawer's chance by the
    whole-position judge against its mean over the pile's cards (``None``: nothing drawn from a
    pile, the game over, or more players)."""
    decision_known: float | None = None
    """At 2 players, what the move changed with both hands known: the mover's chance by the
    whole-position judge after it (the result, once the game is over) less before it, less its
    draw's ``luck_known``. For a player who plays as `hard`, whom the judge assumes, it is the
    judge's own error, so it is noise as often as skill: its sum over a game is the
    luck-adjusted result, its squares measure that result's uncertainty (``None``: more players)."""
    checked_loss: float | None = None
    """For a decision the evaluator labelled: the loss by rollouts that checked it (:mod:`.check`),
    from which its label was read again; ``None`` where nothing was checked."""


@dataclass(frozen=True)
class SideSummary:
    """A side's account: ``start + decisions + luck + others == result`` exactly, where
    ``decisions`` is minus its moves' losses, ``luck`` the sum of its draws' luck and ``others``
    everything between its moves (the other sides' plays and draws, and the evaluator's changes
    of mind between two views)."""

    side: int
    moves: int
    decisions_made: int
    accuracy: float | None
    start: float
    decisions: float
    luck: float
    others: float
    result: float
    labels: dict[str, int]
    luck_against: float = 0.0
    """The other sides' luck, counted against this side: the sum of their draws' luck (each from
    its drawer's view), shared equally among the sides that did not draw."""
    adjusted: float = 0.0
    """The luck-adjusted result: what the result would be worth had the deal and every draw been
    average ones. At 2 players ``result - deal_known - luck_known + luck_known_against``, with
    both hands known; else ``result - luck + luck_against``. Over the sides it sums to the
    results' sum."""
    deal_known: float | None = None
    """At 2 players, the deal's luck with both hands known: the side's chance after the deal
    by the whole-position judge, less a half (the two sides' sum to zero)."""
    luck_known: float | None = None
    """At 2 players, the sum of its draws' ``luck_known``."""
    luck_known_against: float | None = None
    """At 2 players, the other side's ``luck_known``."""
    adjusted_error: float | None = None
    """At 2 players, the standard error of ``adjusted`` that the judge's own misses leave
    (:func:`adjusted_error`): a series of games weighs each by its inverse square
    (:func:`~sequence_game.analysis.scores.weighted_interval`)."""
    added: float | None = None
    """What its decisions added, a decision on average: the chance after the play made (``after``)
    less the mover's own-view chance just before it, which is the chance of the position when
    `hard`, whom the evaluator assumes, plays it. Above 0: played better than `hard` would have,
    as the evaluator judges (``None`` without a decision after the first move)."""


@dataclass
class GameAnalysis:
    players: int
    sides: int
    budget: Budget
    moves: list[MoveAnalysis] = field(default_factory=list)
    sides_summary: list[SideSummary] = field(default_factory=list)
    winner: int | None = None
    over: bool = False
    seconds: float = 0.0
    evaluator: str = ""
    """The evaluator's version."""
    assumes: str = ""
    """What the evaluator's chances assume about the play from each position on."""
    labels_checked: bool = False
    """Whether the evaluator's labels were checked by rollouts (:mod:`.check`)."""

    def swings(self, count: int = 3) -> list[MoveAnalysis]:
        """The moves whose decision or draw changed their mover's chances most."""
        return sorted(self.moves, key=lambda m: -max(m.loss, abs(m.luck)))[:count]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "sides": self.sides,
            "over": self.over,
            "winner": self.winner,
            "evaluator": {"version": self.evaluator, "assumes": self.assumes},
            "curve": {"side": CURVE_SIDE, "field": "ahead"},
            "budget": asdict(self.budget),
            "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER, "missed": MISSED},
            "labels_checked": self.labels_checked,
            "seconds": round(self.seconds, 3),
            "moves": [asdict(m) for m in self.moves],
            "summary": [asdict(s) for s in self.sides_summary],
            "swings": [m.index for m in self.swings()],
        }


def move_accuracy(loss: float) -> float:
    """0-100 from a loss of winning chance, on the exponential curve lichess publishes for its
    accuracy: 100 for no loss, 64 for 0.10, 32 for 0.25."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-4.354 * loss) - 3.1669))


# ----------------------------------------------------------------------------- walking a record


@dataclass(frozen=True)
class Step:
    """One action of a replayed record with the state just before it."""

    index: int
    state: GameState
    seat: int
    action: int
    card: Card | None


def steps(source: str | bytes | Path | dict[str, Any]) -> tuple[GameConfig, GameState, list[Step]]:
    """Replay a record and give every action with a copy of the state just before it."""
    from ..messages import M_, N_, Message, message_of, with_rule
    from ..records import RecordError, replay

    try:
        result = replay(source)
    except RecordError as exc:
        raise AnalysisError(M_("malformed record: {error}", error=message_of(exc))) from None
    if not result.ok:
        if result.index is None:  # the stated result differs from the replay's
            raise AnalysisError(
                Message(
                    "illegal action None: {rule}: {error}",
                    {"rule": result.rule, "error": result.error},
                    N_("illegal result: {error}"),
                )
            )
        refusal = with_rule(result.rule, result.error or "")
        raise AnalysisError(M_("illegal action {n}: {error}", n=result.index, error=refusal))
    final = result.state
    history = final.history
    piles = iter([tuple(ev[1]) for ev in history if ev[0] == EV_RESHUFFLE])
    state = GameState(final.config, final.initial_deck, final.dealer, reshuffle_source=lambda _: next(piles))
    out: list[Step] = []
    index = 0  # record actions: every history entry but passes and lost draws
    for event in history:
        kind = event[0]
        if kind >= 0:
            seat, action, card = event
            jack = card if WILD <= action < DEAD else None
            out.append(Step(index, state.copy(), seat, action, jack))
            state.apply(action, seat, card=jack)
            index += 1
        elif kind == EV_PENALTY:
            state.call_table_talk(event[1])
            index += 1
        elif kind == EV_RESHUFFLE:
            index += 1
    return final.config, state, out


# ----------------------------------------------------------------------------- labels


def winning_plays(view: PlayerView) -> list[int]:
    """The view's plays that win the game at once (R7.1)."""
    board = Board.of_view(view)
    need = view.config.sequences_to_win
    return [
        a for a in view.legal_actions if a < DEAD and board.after(a, view.side).sequences[view.side] >= need
    ]


def winning_threats(board: Board, side: int, need: int) -> list[int]:
    """Cells where one more chip of ``side`` wins the game (R7.1)."""
    return [c for c in threats(board, side) if board.after(c, side).sequences[side] >= need]


def _threatened(board: Board, me: int, sides: int, need: int) -> bool:
    return any(winning_threats(board, t, need) for t in range(sides) if t != me)


def blocking_plays(view: PlayerView) -> list[int]:
    """When another side threatens to win next (a winning four), the plays that leave no such
    threat (R5.2: its card or a two-eyed jack on the space, a one-eyed jack on one of its chips)."""
    board = Board.of_view(view)
    need, sides, me = view.config.sequences_to_win, view.config.sides, view.side
    if not _threatened(board, me, sides, need):
        return []
    return [
        a for a in view.legal_actions if a < DEAD and not _threatened(board.after(a, me), me, sides, need)
    ]


def label_of(view: PlayerView, action: int, loss: float) -> str | None:
    """The label of a decision that lost ``loss`` (``docs/analysis.md``)."""
    if loss >= MISSED and winning_plays(view) and action not in winning_plays(view):
        return "missed win"
    if loss >= MISSED and blocking_plays(view) and action not in blocking_plays(view):
        return "missed block"
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    return None


# ----------------------------------------------------------------------------- the analysis


def load_evaluator(evaluator: Evaluator | str | Path | None = None) -> Evaluator:
    """The evaluator to judge with: the shipped one by default, or one from a weights file."""
    from ..evaluator.model import Evaluator

    if isinstance(evaluator, Evaluator):
        return evaluator
    return Evaluator.load(evaluator)


def analyze_record(
    source: str | bytes | Path | dict[str, Any],
    budget: Budget | None = None,
    *,
    seed: int = 0,
    bot: str | None = None,
    progress: Progress | None = None,
    evaluator: Evaluator | str | Path | None = None,
) -> GameAnalysis:
    """Analyse every action of a record (``docs/analysis.md``); ``progress`` is called after each.

    ``seed`` and ``bot`` have no effect (the evaluator is deterministic and names the best plays
    itself); they are accepted for old callers. Raises :class:`AnalysisError` for a malformed
    record or one with an illegal action.
    """
    del seed, bot
    budget = budget or Budget()
    started = time.perf_counter()
    config, final, walk = steps(source)
    judge_with = load_evaluator(evaluator)
    analysis = GameAnalysis(
        config.players,
        config.sides,
        budget,
        evaluator=judge_with.version,
        assumes=judge_with.assumes,
        labels_checked=budget.check > 0 and can_check(),
    )
    reader = new_reader()  # one for the game: it remembers what it read of each play
    whole = _whole_judge(config)
    for done, step in enumerate(walk, start=1):
        after = walk[done].state if done < len(walk) else final
        analysis.moves.append(_analyse_move(step, after, budget, judge_with, reader, whole))
        if progress is not None:
            progress(done, len(walk))
        if budget.delay:
            time.sleep(budget.delay)
    outcome = final.outcome()
    analysis.over = outcome is not None
    analysis.winner = outcome.winner if outcome else None
    deals = None
    if whole is not None and walk:
        chances = _known_chances(walk, final, whole)
        deals = [chances[0] - 0.5, 0.5 - chances[0]]
        analysis.moves = _with_decisions_known(analysis.moves, chances)
    analysis.sides_summary = [_summary(analysis, s, final, deals) for s in range(config.sides)]
    analysis.seconds = time.perf_counter() - started
    return analysis


def analyse_move(
    state: GameState,
    action: int,
    *,
    seat: int | None = None,
    card: Card | None = None,
    budget: Budget | None = None,
    evaluator: Evaluator | str | Path | None = None,
) -> MoveAnalysis:
    """Judge one action in a position (a constructed one too): the position is played on a copy,
    so the card really drawn comes from ``state``'s own draw pile."""
    seat = state.current_seat if seat is None else seat
    after = state.copy()
    after.apply(action, seat, card=card)
    step = Step(0, state.copy(), seat, action, card)
    return _analyse_move(step, after, budget or Budget(), load_evaluator(evaluator))


def _whole_judge(config: GameConfig) -> WholeJudge | None:
    """The whole-position judge at 2 players (the only table it knows), else ``None``."""
    if config.players != 2:
        return None
    from ..evaluator.whole import WholeJudge

    return WholeJudge.load()


def _analyse_move(
    step: Step,
    after_state: GameState,
    budget: Budget,
    evaluator: Evaluator,
    reader: HandReader | None = None,
    whole: WholeJudge | None = None,
) -> MoveAnalysis:
    """One action judged from its mover's view; ``after_state`` is the real state after it."""
    state, seat = step.state, step.seat
    view = state.view(seat)
    decision = step.action != DRAW and forced_action(view) is None
    from .judge import judge

    j = judge(state, seat, step.action, step.card, after_state, evaluator, decision=decision)
    before = j.before
    loss = max(0.0, before - j.after)
    best = j.plays[0] if decision else None
    alternatives = [
        Alternative(_name(p.action, p.card, view.hand), p.chance) for p in j.plays[: budget.alternatives]
    ]
    side0 = [c for s, c in enumerate(j.seat_chances) if s % state.config.sides == CURVE_SIDE]
    label = label_of(view, step.action, loss) if decision else None
    checked = None
    if label in CHECKED_LABELS and best is not None:
        checked = rollout_loss(state, seat, best.action, step.action, budget.check, step.index, reader=reader)
        if checked is not None:
            label = label_of(view, step.action, checked)
    return MoveAnalysis(
        index=step.index,
        turn=state.turn,
        seat=seat,
        side=view.side,
        move=_name(step.action, step.card, view.hand),
        decision=decision,
        before=before,
        after=j.after,
        loss=loss,
        drawn=card_name(j.drawn) if j.drawn is not None else None,
        after_draw=j.after_draw,
        luck=j.after_draw - j.after_pile,
        luck_known=(
            whole.draw_luck(after_state, seat, j.drawn, state._deck)
            if whole is not None and j.drawn is not None and state._deck and not after_state.is_terminal()
            else None
        ),
        best=_name(best.action, best.card, view.hand) if best is not None else None,
        best_chance=best.chance if best is not None else None,
        label=label,
        accuracy=move_accuracy(loss) if decision else None,
        alternatives=alternatives if decision else [],
        chances=list(j.seat_chances),
        ahead=sum(side0) / len(side0),
        evaluated=j.evaluated,
        hidden=j.after_pile - j.after,
        checked_loss=checked,
    )


def _known_chances(walk: list[Step], final: GameState, whole: WholeJudge) -> list[float]:
    """Seat 0's chance by the whole-position judge in every state of a 2-player game, before each
    action and after the last (the result, once the game is over); the first is the deal's."""
    outcome = final.outcome()
    end = (0.5 if outcome.winner is None else float(outcome.winner == 0)) if outcome else whole.deal(final, 0)
    return [whole.deal(step.state, 0) for step in walk] + [end]


def _with_decisions_known(moves: list[MoveAnalysis], chances: list[float]) -> list[MoveAnalysis]:
    """The moves with their :attr:`MoveAnalysis.decision_known` from :func:`_known_chances`:
    each move's change of its mover's chance less its draw's luck."""
    out = []
    for i, m in enumerate(moves):
        before, after = chances[i], chances[i + 1]
        if m.side == 1:
            before, after = 1.0 - before, 1.0 - after
        out.append(replace(m, decision_known=after - before - (m.luck_known or 0.0)))
    return out


def adjusted_error(decisions_known: Iterable[float]) -> float:
    """The standard error of a side's luck-adjusted result at 2 players from every move's
    ``decision_known`` (both sides'): the judge's error at each move passes into that result, and
    the square of what a move changed is how large that error may be. Half the standard deviation
    of the two sides' difference, :data:`ERROR_FLOOR` + :data:`ERROR_SLOPE` times the sum of the
    squares (``docs/analysis.md``, "Each game's uncertainty")."""
    return 0.5 * math.sqrt(ERROR_FLOOR + ERROR_SLOPE * sum(d * d for d in decisions_known))


def _name(action: int, card: Card | None, hand: tuple[Card, ...]) -> str:
    """The notation of an action, naming the jack really played."""
    return action_name_for(action, [card] if card is not None else hand)


def _added(analysis: GameAnalysis, side: int) -> float | None:
    """:attr:`SideSummary.added`: over the side's decisions that follow another move."""
    gains = [
        m.after - previous.chances[m.seat]
        for previous, m in pairwise(analysis.moves)
        if m.side == side and m.decision
    ]
    return sum(gains) / len(gains) if gains else None


def _summary(
    analysis: GameAnalysis, side: int, final: GameState, deals: list[float] | None = None
) -> SideSummary:
    moves = [m for m in analysis.moves if m.side == side]
    decisions = [m for m in moves if m.decision]
    outcome = final.outcome()
    if outcome is None:
        result = moves[-1].after_draw if moves else 0.5
    else:
        result = 0.5 if outcome.winner is None else float(outcome.winner == side)
    start = moves[0].before if moves else result
    lost = -sum(m.loss for m in moves)
    luck = sum(m.luck for m in moves)
    others_luck = sum(m.luck for m in analysis.moves if m.side != side)
    against = others_luck / (analysis.sides - 1) if analysis.sides > 1 else 0.0
    labels: dict[str, int] = {}
    for m in moves:
        if m.label:
            labels[m.label] = labels.get(m.label, 0) + 1
    accuracy = sum(m.accuracy or 0.0 for m in decisions) / len(decisions) if decisions else None
    adjusted = result - luck + against
    known = against_known = error = None
    if deals is not None:  # 2 players: the luck with both hands known
        known = sum(m.luck_known or 0.0 for m in moves)
        against_known = sum(m.luck_known or 0.0 for m in analysis.moves if m.side != side)
        adjusted = result - deals[side] - known + against_known
        error = adjusted_error(m.decision_known or 0.0 for m in analysis.moves)
    return SideSummary(
        side=side,
        moves=len(moves),
        decisions_made=len(decisions),
        accuracy=accuracy,
        start=start,
        decisions=lost,
        luck=luck,
        others=result - start - lost - luck,
        result=result,
        labels=labels,
        luck_against=against,
        adjusted=adjusted,
        added=_added(analysis, side),
        deal_known=deals[side] if deals is not None else None,
        luck_known=known,
        luck_known_against=against_known,
        adjusted_error=error,
    )


def iter_labelled(analysis: GameAnalysis) -> Iterator[MoveAnalysis]:
    """The labelled moves, in game order (for replays that mark them)."""
    return (m for m in analysis.moves if m.label)
