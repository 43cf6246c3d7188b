"""Perfect-information Monte Carlo with compiled rollouts: the ``pimc`` bot.

The search is :class:`~sequence_game.bots.planner.PlannerBot`'s fair mode made fast enough to
matter. The heuristic ranks the plays and the ``width`` best become candidates; full worlds are
sampled from the view (:class:`~sequence_game.bots.mcts.Determinizer`, with what the other seats'
plays showed they did not hold); in each world every candidate is played and the game rolled out
to the end on the compiled engine (:func:`sequence_game.fast.pimc.candidate_values`), with the
same world and the same random stream for every candidate (common random numbers). The
heuristic's own play is kept unless another beats it by ``confidence`` standard errors of the
paired differences: a search that only ever replaces the heuristic's move when the evidence says
so cannot play much worse than the heuristic.

The rollout policy (``policy``) is ``1``, the compiled heuristic on every seat (against the
``heuristic`` bot a rollout then predicts the opponent's replies), ``3`` the same with the
heuristic's inference (its default, exactly), ``2`` its cheap form, or ``0``, random play.
``oracle=True`` (a measurement tool: :class:`~sequence_game.bots.base.Oracle`) rolls out in the
TRUE state instead of sampled worlds (with ``shuffle_draws=True``, the true hands and a random
draw pile: what knowing the other hands is worth). ``reading`` deals the sampled worlds by what
the other seats' last plays showed (:mod:`~sequence_game.bots.reading`), with ``jack_weights``
for the jacks players keep (in games of at most ``reading_players``; ``reading_model="greedy"``
reads them as a ``greedy`` player's). ``two_player_width`` and ``two_player_confidence`` search
another number of plays, on another margin, at a 2-player table (the expert: 8 plays, half a
standard error), where the move's budget buys at least ``two_player_rollouts`` rollouts (the
expert: 2,000; at about 650, 8 plays lost to 4 on one standard error). ``rank="tuned"`` ranks the plays (the candidates, and the
play kept unless beaten) with the heuristic's numbers tuned at 2 players (:data:`~.heuristic.TUNED`),
``rank="tuned3"`` with those tuned at 3 (:data:`~.heuristic.TUNED_3P`) and ``rank="table"`` with
those of the table's kind (the 3-player ones where three sides play), as the expert does;
``policy=5`` rolls the search's own seats out with the 2-player ones.

Two calibrations, measured and off by default (``docs/research/bots-log.md``, twentieth pass): ``posterior=T``
resamples the worlds by how well each explains the other seats' last plays
(:mod:`~sequence_game.bots.posterior`), and ``lookahead=N`` searches the search side's next move
inside every rollout over ``lookahead_width`` plays and ``N`` re-dealt worlds
(:mod:`sequence_game.fast.lookahead`): a stronger continuation, at ``1 + N * lookahead_width``
rollouts a candidate and world.
``leaf=N`` stops every rollout after ``N`` turns and lets the evaluator judge where it stands
(:mod:`sequence_game.evaluator.leaves`; measured in ``docs/evaluator.md``, "Leaf values");
``leaf_rollouts=R`` does so only where the move's budget buys fewer than ``R`` full rollouts,
``leaf_players=N`` only at tables of at most ``N`` players.

The clock is honest: it starts before any work (the ranking included), worlds are evaluated in
batches of at most half the time left at the rate measured so far, and none starts unless one
more world fits before the limit less 4%. ``Limit(simulations=N)`` buys ``N`` rollouts:
``N // width`` worlds, or more where ``prune`` drops candidates on the way.

It needs the compiled engine (``pip install 'sequence-game[fast]'``); it is imported when the
bot is built, so the package itself never needs Numba.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=4)
>>> bot = PimcBot(seed=1)
>>> bot.select_action(state.view(state.current_seat), Limit(simulations=60)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from types import ModuleType
from typing import TYPE_CHECKING, Final

from ..actions import DEAD, REMOVE, WILD
from ..cards import ONE_EYED, TWO_EYED
from ..state import GameState
from ..views import PlayerView
from .base import Limit, Oracle, forced_action
from .deadline import deadline_of
from .determinize import Determinizer, TrueWorld, dealt_rows
from .heuristic import WIN, HeuristicBot
from .planner import LENGTH_PENALTY
from .posterior import PosteriorDealer
from .ranking import RANKINGS, ranked_plays
from .reading import DEFAULT_MARGIN, MODELS, HandReader

if TYPE_CHECKING:
    import numpy as np

DEFAULT_LIMIT: Final = Limit(seconds=1.0)
FIRST_BATCH: Final = 2
"""Worlds in the first batch, before the clock knows what one costs."""
MAX_BATCH: Final = 64
"""Worlds in one compiled call at most (later batches double up to this)."""
MIN_PRUNE_WORLDS: Final = 8
"""Worlds a candidate must have met before it may be pruned (fewer say too little)."""


def _fast_pimc() -> ModuleType:
    """The compiled rollouts, or a clear error naming the extra that provides them."""
    try:
        from ..fast import pimc
    except ImportError as exc:
        raise ImportError(
            "the pimc bot rolls out on the compiled engine: pip install 'sequence-game[fast]'"
        ) from exc
    return pimc


def kernel_groups(leaf: bool = True) -> tuple[str, ...]:
    """The groups of compiled kernels a search calls (:func:`~sequence_game.fast.compile.ensure_compiled`):
    the rollouts, the dealer of its worlds and, with ``leaf``, the judged ends' features."""
    from ..fast import dealer, pimc

    if not leaf:  # the features' module builds its tables on import: only where they are used
        return (pimc.GROUP, dealer.GROUP)
    from ..fast import leaf_features

    return (pimc.GROUP, dealer.GROUP, leaf_features.GROUP)


class PimcBot(Oracle):
    """Perfect-information Monte Carlo over the ``width`` best plays of the heuristic, with
    compiled rollouts to the end of the game in every sampled world (or the true state, in
    oracle mode)."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        width: int = 4,
        jacks: int = 0,
        policy: int = 3,
        opponents: int = -1,
        confidence: float = 1.0,
        prune: float = 0.0,
        horizon: int = 200,
        length_penalty: float = LENGTH_PENALTY,
        inference: bool = True,
        oracle: bool = False,
        shuffle_draws: bool = False,
        hands: str = "all",
        reading: int = 0,
        margin: float = DEFAULT_MARGIN,
        jack_weights: tuple[float, float] = (1.0, 1.0),
        reading_players: int = 12,
        two_player_width: int = 0,
        two_player_confidence: float = -1.0,
        two_player_rollouts: int = 0,
        reading_model: str = "heuristic",
        rank: str = "heuristic",
        posterior: float = 0.0,
        proposals: int = 4,
        lookahead: int = 0,
        lookahead_width: int = 3,
        threads: int = 1,
        judge: int = 0,
        leaf: int = 0,
        leaf_rollouts: int = 0,
        leaf_players: int = 12,
        default_limit: Limit = DEFAULT_LIMIT,
    ) -> None:
        for what, value, least in (
            ("width", width, 1),
            ("jacks", jacks, 0),
            ("horizon", horizon, 1),
            ("confidence", confidence, 0),
            ("prune", prune, 0),
            ("reading", reading, 0),
            ("margin", margin, 0),
            ("reading_players", reading_players, 2),
            ("threads", threads, 1),
            ("two_player_width", two_player_width, 0),
            ("two_player_rollouts", two_player_rollouts, 0),
            ("posterior", posterior, 0),
            ("proposals", proposals, 1),
            ("lookahead", lookahead, 0),
            ("lookahead_width", lookahead_width, 1),
            ("leaf", leaf, 0),
            ("leaf_rollouts", leaf_rollouts, 0),
            ("leaf_players", leaf_players, 2),
        ):
            if not value >= least:  # also refuses NaN
                raise ValueError(f"pimc: {what} must be at least {least}, not {value!r}")
        others = policy if opponents == -1 else opponents
        for what, value in (("policy", policy), ("opponents", others)):
            if value not in (0, 1, 2, 3, 4, 5):
                raise ValueError(
                    f"pimc: {what} is 0 (random rollouts), 1 (the heuristic), 2 (its lite form), 3 (the "
                    f"heuristic with inference), 4 (greedy) or 5 (the tuned heuristic), not {value!r}"
                )
        if (policy == 0) != (others == 0):
            raise ValueError("pimc: random rollouts (0) are for every seat or none: policy and opponents")
        if len(jack_weights) != 2 or not all(w > 0 for w in jack_weights):
            raise ValueError(f"pimc: jack_weights is two positive numbers, not {jack_weights!r}")
        if shuffle_draws and not oracle:
            raise ValueError("pimc: shuffle_draws calibrates the oracle: it needs oracle=True")
        if leaf_rollouts and not leaf:
            raise ValueError("pimc: leaf_rollouts says when to use leaves: it needs leaf=N")
        if leaf and lookahead:
            raise ValueError(
                "pimc: leaf judges cut rollouts, lookahead searches inside full ones: one or the other"
            )
        if lookahead and (threads > 1 or others != policy):
            raise ValueError("pimc: lookahead rolls out with one policy on every seat, in one thread")
        if reading_model not in MODELS:
            raise ValueError(f"pimc: reading_model is one of {', '.join(MODELS)}, not {reading_model!r}")
        if rank not in (*RANKINGS, "table"):
            raise ValueError(f"pimc: rank is one of {', '.join(RANKINGS)}, table, not {rank!r}")
        if hands not in TRUE_PARTS:
            raise ValueError(f"pimc: hands is one of {', '.join(TRUE_PARTS)}, not {hands!r}")
        if hands != "all" and not shuffle_draws:
            raise ValueError("pimc: hands calibrates the oracle's hands: it needs shuffle_draws=True")
        if not (two_player_confidence >= 0 or two_player_confidence == -1):
            raise ValueError(
                f"pimc: two_player_confidence is at least 0, or -1 for confidence, not {two_player_confidence!r}"
            )
        if not 0.0 <= length_penalty < 0.01:
            raise ValueError(f"pimc: length_penalty must be in [0, 0.01), not {length_penalty!r}")
        self.fast = _fast_pimc()
        for group in kernel_groups(leaf=bool(leaf)):  # now, not inside the first move's time limit
            self.fast.ensure_compiled(group)
        if leaf:  # the judge's weights too
            from ..evaluator.model import Evaluator

            Evaluator.load()
        self.rng = random.Random(seed)
        self.width = width
        """How many of the heuristic's best plays are candidates."""
        self.jacks = jacks
        """How many of the best two-eyed and of the best one-eyed jack plays join the candidates
        beyond ``width``: the heuristic's jack costs rank them last, so a plain ``width`` rarely
        lets the rollouts judge whether a jack is worth spending now."""
        self.policy = policy
        """Rollout policy: 1 the compiled heuristic on every seat, 2 its lite form, 3 the heuristic
        with inference (the ``heuristic`` bot's default), 4 the ``greedy`` bot, 5 the heuristic
        with inference and its tuned numbers, 0 random play."""
        self.rank = rank
        """Whose numbers rank the plays, pick the candidates and make the play kept unless the
        rollouts say otherwise: the ``heuristic`` bot's, the ``tuned`` ones (:data:`~.heuristic.TUNED`,
        tuned at 2 players), ``tuned3`` (:data:`~.heuristic.TUNED_3P`, at 3) or those tuned for
        the ``table`` (the 3-player ones where three sides play)."""
        self.opponents = others
        """The rollout policy of the other sides' seats: the search's model of its opponents
        (-1 given: ``policy``, everyone plays alike)."""
        self.confidence = confidence
        """Standard errors of the paired difference by which another candidate must beat the
        heuristic's play to be chosen; 0 takes the best mean."""
        self.prune = prune
        """Standard errors of the paired difference by which the best candidate must beat another
        for that one to get no more worlds (successive elimination); 0 keeps every candidate."""
        self.horizon = horizon
        """Rollout turns after which a game counts as drawn (200: nearly always to the end)."""
        self.length_penalty = length_penalty
        """Per rollout turn: a quicker win is worth a little more, a later loss a little less."""
        self.inference = inference
        """Whether sampled worlds use what the other seats' plays showed they did not hold."""
        self.oracle = oracle
        """Roll out in the TRUE state (revealed by the tournament): a measurement tool only."""
        self.reader = HandReader(reading, margin, reading_model) if reading else None
        """Reads the other hands from their last ``reading`` plays (:mod:`.reading`), for the
        sampled worlds; ``None`` uses :mod:`.inference` alone."""
        self.jack_weights = (float(jack_weights[0]), float(jack_weights[1]))
        """How much likelier a two-eyed and a one-eyed jack are than another card among the cards a
        seat has held since a play read by ``reading`` (players keep their jacks)."""
        self.reading_players = reading_players
        """The reading and the jack weights are used in games of at most this many players: they
        were fitted on 2-player games and gain there, while at 3 and 4 players they did not help
        (``docs/research/bots-log.md``, fourteenth pass), so the expert reads at 2 only."""
        self.two_player_width = two_player_width or width
        """Candidates at a 2-player table (0 given: ``width``). With the tuned ranking, the plays
        it ranks fifth to eighth hold much of what a second's worlds can find: the expert searches
        8 there (``docs/research/bots-log.md``, twenty-first pass); at 3 and 4 players it was measured with 4."""
        self.two_player_confidence = confidence if two_player_confidence == -1 else two_player_confidence
        """``confidence`` at a 2-player table (-1 given: ``confidence``)."""
        self.two_player_rollouts = two_player_rollouts
        """The least rollouts a move's budget must buy for ``two_player_width`` and
        ``two_player_confidence`` to apply (0: always). Below it the search keeps ``width`` plays
        on ``confidence``: at 0.1 s a move (about 650 rollouts) 8 plays on half a standard error
        won 4.0 points by deal less than 4 on one, at 1 s (about 6,500) 3.5 more (``docs/research/bots-log.md``,
        twenty-second pass). A time limit is judged after the first batch of worlds, at the rate
        measured: a slower machine gets the narrower search."""
        self.shuffle_draws = shuffle_draws
        """In oracle mode, keep every hand true but deal each world's draw pile at random: a
        calibration of what knowing the other hands (and only them) is worth."""
        self.true_part = hands
        """With ``shuffle_draws``, which part of the other hands stays true (:data:`TRUE_PARTS`)."""
        self.posterior = posterior
        """With a temperature above 0, the sampled worlds are resampled by how well they explain
        the other seats' last plays under the heuristic (:mod:`.posterior`): ``exp(-regret / T)``."""
        self.proposals = proposals
        """Candidate worlds dealt per world kept, with ``posterior``."""
        self.lookahead = lookahead
        """With a number of worlds above 0, the search side's next move in every rollout is itself
        searched over ``lookahead_width`` plays in that many re-dealt worlds
        (:mod:`sequence_game.fast.lookahead`): a calibration of a stronger continuation."""
        self.lookahead_width = lookahead_width
        self.threads = threads
        """Threads the rollouts of a batch of worlds are split among (the same values, sooner)."""
        if judge < 0:
            raise ValueError(f"pimc: judge is a number of draws (0: off), not {judge!r}")
        self.judge = judge
        """Above 0, the plays are ranked by the evaluator (:mod:`sequence_game.evaluator`): its
        chance after each play, averaged over this many draws; the heuristic still spots a win in
        one. The ranking picks the candidates and the play kept unless the rollouts beat it."""
        self.leaf = leaf
        """Above 0, a rollout stops after this many turns (the candidate's own included) and the
        evaluator judges where it stands (:mod:`sequence_game.evaluator.leaves`): a value with
        the luck of the rest of the game averaged out, at the cost of the evaluator's bias."""
        self.leaf_rollouts = leaf_rollouts
        """With ``leaf``, use the leaves only where the move's budget buys fewer than this many full
        rollouts (0: always). Leaves trade the noise of full rollouts for the evaluator's bias: a
        good trade at a small budget, less so where full rollouts are many. A time limit is
        judged after the first batch (full rollouts) at the rate measured, as
        ``two_player_rollouts`` is; that batch's values are then dropped."""
        self.leaf_players = leaf_players
        """With ``leaf``, use the leaves only at tables of at most this many players: the expert's
        were measured at 2 (``docs/evaluator.md``, "Leaf values")."""
        self.default_limit = default_limit
        self.last_simulations = 0
        """Rollouts the last move ran (for benchmarks)."""
        self.last_worlds = 0
        """Worlds the last move sampled."""
        self.last_narrowed = False
        """Whether the last move's budget was too small for the 2-player width (``two_player_rollouts``)."""
        self.last_leaves = False
        """Whether the last move's search judged cut rollouts (``leaf``, ``leaf_rollouts``)."""

    def select_action(self, view: PlayerView, limit: Limit | None = None) -> int:
        start = time.perf_counter()  # the clock runs from the first work: ranking included
        self.last_simulations = self.last_worlds = 0
        self.last_narrowed = self.last_leaves = False
        forced = forced_action(view)
        if forced is not None:
            return forced
        if limit is None or (limit.seconds is None and limit.simulations is None):
            limit = self.default_limit
        acts = [a for a in view.legal_actions if a < DEAD]
        if not acts or any(view.penalty_due):
            # a stuck hand (R5.5) or a table-talk fine (R6.1, which the compiled engine does not
            # play): the heuristic's discard
            return HeuristicBot(seed=self.rng.getrandbits(32)).select_action(view, limit)
        order, net = self.ranked(view, acts)
        if net[order[0]] >= WIN / 2:  # it wins now (R7.1)
            return order[0]
        if self.judge:
            order = self._judged(view, acts)
        duel = view.config.players == 2
        cands = self.candidates(order, self.two_player_width if duel else self.width)
        if len(cands) == 1:
            return cands[0]
        truth = self.true_world(view) if self.oracle else None
        source: Determinizer | TrueWorld | PosteriorDealer
        if truth is None:
            reads = view.config.players <= self.reading_players
            held = self.reader.read(view) if self.reader is not None and reads else None
            weights = self.jack_weights if reads else (1.0, 1.0)
            source = Determinizer(view, self.rng, self.inference, held, weights)
            if self.posterior > 0:
                source = PosteriorDealer(source, view, self.rng, self.posterior, self.proposals)
        elif self.shuffle_draws:
            source = TrueHands(truth, self.rng, view.seat, self.true_part)
        else:
            source = TrueWorld(truth)
        narrow = None
        if duel and self.two_player_rollouts:
            kept = set(self.candidates(order, self.width))  # within cands: see candidates()
            narrow = ([i for i, c in enumerate(cands) if c in kept], self.two_player_rollouts)
        values = self._rollouts(view, cands, source, start, limit, narrow)
        exact = truth is not None and not self.shuffle_draws  # one true world: a rollout decides
        confidence = self.two_player_confidence if duel and not self.last_narrowed else self.confidence
        return cands[self._choose(values, 0.0 if exact else confidence)]

    def ranked(self, view: PlayerView, acts: list[int]) -> tuple[list[int], dict[int, float]]:
        """The plays, best first by the ranking's score net of a jack's cost (equals keep their
        order), and each one's net score: the candidates, and the play kept unless the rollouts
        beat it, come from the front."""
        return ranked_plays(view, acts, self.rank, self.inference)

    def _judged(self, view: PlayerView, acts: list[int]) -> list[int]:
        """The plays, best first by the evaluator's chance after each (``judge`` draws each)."""
        from ..evaluator.model import Evaluator
        from ..evaluator.moves import view_play_chances

        chances = view_play_chances(Evaluator.load(), view, self.rng, acts, draws=self.judge)
        return sorted(acts, key=lambda a: -chances[a])

    def candidates(self, order: list[int], width: int | None = None) -> list[int]:
        """The plays to search, from the heuristic's ranking (best first): its ``width`` best (the
        bot's own unless given), then its ``jacks`` best two-eyed and ``jacks`` best one-eyed jack
        plays not among them."""
        cands = order[: self.width if width is None else width]
        for lo in (WILD, REMOVE) if self.jacks else ():
            kind = [a for a in order if lo <= a < lo + 100 and a not in cands]
            cands.extend(kind[: self.jacks])
        return cands

    def _rollouts(
        self,
        view: PlayerView,
        cands: list[int],
        source: Determinizer | TrueWorld | PosteriorDealer,
        start: float,
        limit: Limit,
        narrow: tuple[list[int], int] | None = None,
    ) -> list[list[float]]:
        """Per candidate, its rollout value in each world it met, in batches of worlds while the
        budget and the clock allow (at least one world). With ``prune``, a candidate that the best
        beats by ``prune`` standard errors is dropped after a batch, so the worlds left go to the
        plays still in contention; the heuristic's play (the first) is never dropped, so every
        survivor's values stay paired with it world by world. ``narrow`` (candidates to keep, and
        the least rollouts) drops the others where the budget buys fewer rollouts than that: at
        once for a rollout budget, after the first batch (whose rate it projects) for a clock."""
        deadline = deadline_of(start, limit)
        budget = math.inf if limit.simulations is None else max(len(cands), limit.simulations)
        values: list[list[float]] = [[] for _ in cands]
        active = list(range(len(cands)))
        keep, least = narrow if narrow is not None else (None, 0)
        if keep is not None and deadline == math.inf:  # a rollout budget alone: known now
            if budget < least:
                active, self.last_narrowed = keep, True
            keep = None
        judged = bool(self.leaf) and view.config.players <= self.leaf_players
        leaves, switch = judged, self.leaf_rollouts if judged else 0
        if switch and (budget < switch or deadline == math.inf):  # known now
            leaves, switch = budget < switch, 0
        elif switch:
            leaves = False  # the first batch runs full rollouts, to measure their rate
        worlds = spent = timed = 0
        cost = 1 + self.lookahead * self.lookahead_width  # rollouts a candidate costs in a world
        batch = FIRST_BATCH
        began = time.perf_counter()
        while len(active) > 1 or not worlds:
            now = time.perf_counter()
            rate = (now - began) / timed if timed else 0.0  # seconds a rollout, so far
            n = _batch_size(batch, budget, spent, len(active) * cost, rate, deadline - now)
            if n < 1:
                break  # the rollout budget or the clock is spent
            rows = dealt_rows(source, n)
            seeds = [self.rng.getrandbits(63) for _ in range(n)]
            out = self._batch(view, rows, seeds, [cands[i] for i in active], leaves)
            for i, row in zip(active, out.tolist(), strict=True):
                values[i].extend(row)
            worlds += n
            spent += n * len(active) * cost
            timed += n * len(active) * cost
            batch = min(2 * batch, MAX_BATCH)
            if keep is not None or switch:  # the first batch measured what a rollout costs
                now = time.perf_counter()
                projected = min(budget, spent + (deadline - now) * timed / max(now - began, 1e-9))
                if keep is not None and projected < least:
                    active, self.last_narrowed = [i for i in active if i in keep], True
                if switch and projected < switch:  # too few full rollouts: judge cut ones instead
                    leaves, values, worlds = True, [[] for _ in cands], 0
                    began, timed, batch = now, 0, FIRST_BATCH
                keep, switch = None, 0
            if self.prune and worlds >= MIN_PRUNE_WORLDS:
                active = self._survivors(values, active, self.prune)
        self.last_leaves = leaves
        self.last_worlds = worlds
        self.last_simulations = spent
        return values

    def _batch(
        self, view: PlayerView, rows: np.ndarray, seeds: list[int], plays: list[int], leaves: bool
    ) -> np.ndarray:
        """Each play's value in each world of the batch (an array, plays by worlds): judged cut
        rollouts with ``leaves``, else full rollouts (or the lookahead's)."""
        if leaves:
            from ..evaluator.leaves import leaf_values
            from ..evaluator.model import Evaluator

            ends = self.fast.cut_rollouts(
                rows, seeds, plays, view.side, self.leaf, self.policy, self.opponents
            )
            return leaf_values(Evaluator.load(), view, rows, ends)
        if self.lookahead:
            from ..fast.lookahead import lookahead_values

            return lookahead_values(
                rows,
                seeds,
                plays,
                view.side,
                self.policy,
                self.lookahead_width,
                self.lookahead,
                self.horizon,
                self.length_penalty,
            )
        out: np.ndarray = self.fast.candidate_values(
            rows,
            seeds,
            plays,
            view.side,
            self.policy,
            self.horizon,
            self.length_penalty,
            self.threads,
            self.opponents,
        )
        return out

    @staticmethod
    def _survivors(values: list[list[float]], active: list[int], prune: float) -> list[int]:
        """The active candidates that the best of them does not beat by ``prune`` standard errors of
        the paired differences (the first, the heuristic's play, always stays)."""
        means = {i: sum(values[i]) / len(values[i]) for i in active}
        best = max(active, key=lambda i: (means[i], -i))
        return [i for i in active if i in (0, best) or _paired_lead(values[best], values[i]) < prune]

    @staticmethod
    def _choose(values: list[list[float]], confidence: float) -> int:
        """Among the candidates that met every world (those not pruned), the one with the best mean,
        if it beats the heuristic's (the first) by ``confidence`` standard errors of the paired
        differences; else the first. (Oracle mode passes 0: the true state is the only world, and
        one rollout of it decides.)"""
        worlds = len(values[0])
        survivors = [i for i, v in enumerate(values) if len(v) == worlds]
        best = max(survivors, key=lambda i: (sum(values[i]) / worlds, -i))
        if best == 0 or confidence == 0.0:
            return best
        if worlds < 2:
            return 0
        return best if _paired_lead(values[best], values[0]) >= confidence else 0


TRUE_PARTS: Final = ("all", "jacks", "cards")
"""What :class:`TrueHands` keeps true of the other hands: all of them, only their jacks (the other
cards dealt from the hidden cards that are not jacks), or only their other cards (the jacks' places
dealt from the jacks and the draw pile)."""


class TrueHands(TrueWorld):
    """Worlds with the other hands true (all of them, or the ``part`` :data:`TRUE_PARTS` names) and the draw
    pile (and any reshuffle) dealt at random: what a perfect reading of the other hands, or of
    their jacks, would give a fair search (a measurement tool)."""

    def __init__(self, truth: GameState, rng: random.Random, seat: int = 0, part: str = "all") -> None:
        super().__init__(truth)
        self.rng = rng
        self.seat = seat
        self.part = part

    def sample(self) -> GameState:
        world = self.truth.copy()
        rng = self.rng
        if self.part != "all":
            # a hidden card stays in its hand where it is of the revealed kind; every other hidden
            # card (hands and draw pile) goes back into one pool, dealt at random, jacks kept apart
            # from the slots of revealed non-jacks so that no hand gains or loses a revealed card
            jacks = TWO_EYED | ONE_EYED
            keep_jacks = self.part == "jacks"
            slots: list[tuple[int, int]] = []
            pool = list(world._deck)
            for seat, hand in enumerate(world._hands):
                if seat == self.seat:
                    continue
                for i, card in enumerate(hand):
                    if (card in jacks) != keep_jacks:
                        slots.append((seat, i))
                        pool.append(card)
            rng.shuffle(pool)
            if keep_jacks:  # the freed slots held no jack: they take none
                plain = [c for c in pool if c not in jacks]
                fill, rest = plain[: len(slots)], plain[len(slots) :] + [c for c in pool if c in jacks]
            else:
                fill, rest = pool[: len(slots)], pool[len(slots) :]
            for (seat, i), card in zip(slots, fill, strict=True):
                world._hands[seat][i] = card
            world._deck = rest
        rng.shuffle(world._deck)
        world._reshuffle_seed = rng.getrandbits(63)
        return world


def _batch_size(batch: int, budget: float, spent: int, active: int, rate: float, seconds_left: float) -> int:
    """Worlds the next batch may have: ``batch``, within the rollout budget and, once a ``rate``
    (seconds a rollout) is measured, half the worlds that would still fit in ``seconds_left`` (a
    slower batch still ends in time); 0 when none would fit (the honest clock)."""
    n = batch if budget == math.inf else min(batch, int(budget - spent) // active)
    if n < 1:
        return 0
    if rate > 0.0 and seconds_left < math.inf:
        room = seconds_left / (rate * active)  # worlds that would still fit
        if room < 1.0:
            return 0
        n = max(1, min(n, int(room / 2)))
    return n


def _paired_lead(better: list[float], other: list[float]) -> float:
    """How many standard errors of the paired differences ``better`` leads ``other`` by, over the
    worlds both met (a prefix of each); 0 where the lead is not positive or there is too little to
    tell (fewer than two worlds)."""
    n = min(len(better), len(other))
    if n < 2:
        return 0.0
    diffs = [b - a for a, b in zip(other[:n], better[:n], strict=True)]
    d = sum(diffs) / n
    if d <= 0:
        return 0.0
    var = sum((x - d) ** 2 for x in diffs) / (n - 1)
    return math.inf if var == 0 else d / math.sqrt(var / n)
