"""The benchmark protocol: rate an agent the same way everywhere (``sequence benchmark``).

The agent meets every rung of the fixed ladder (:mod:`.ladder`) on the published deals of each
table, every deal twice with the sides swapped. Each seat of a side is its own agent object (a
team's seats share nothing, R6.1). A game stopped at the turn limit counts as drawn.

Ratings are OpenSkill's (Plackett-Luce, its default scale: a new player starts at mu 25, sigma
8.33). The agent starts there and is updated game by game, in the protocol's order (deal by
deal, rung by rung), against the rungs' fixed anchors, which never move; its interval is
``mu +- 1.96 sigma``. Beside the rating every rung's score is given with a 95% Wilson interval,
which needs no model.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.ratings import bradley_terry, wilson_interval
from ..bots.tournament import next_actor
from ..config import GameConfig
from ..errors import IllegalActionError
from ..state import new_game
from .agents import AgentError, AgentSpec, parse_agent
from .ladder import PROTOCOL, RUNGS, TABLES, anchors, deal_seed, rung

MAX_TURNS = 2000


@dataclass(frozen=True)
class BenchGame:
    """One game of the protocol: which table, deal, rung, and which side the agent plays."""

    index: int
    table: str
    deal: int
    rung: str
    agent_side: int
    agent: AgentSpec
    opponent: AgentSpec

    @property
    def config(self) -> GameConfig:
        return TABLES[self.table]


@dataclass(frozen=True)
class BenchResult:
    index: int
    score: float
    """The agent's side: 1 won, 0.5 drawn or stopped, 0 lost."""
    turns: int
    agent_seconds: float
    agent_moves: int


def schedule(
    agent: AgentSpec, tables: Sequence[str], games: int, rungs: Sequence[str] | None = None
) -> list[BenchGame]:
    """``games`` games (rounded up to whole pairs) against each rung at each table, interleaved
    deal by deal so that the online rating sees every rung throughout."""
    names = list(rungs) if rungs else [r.name for r in RUNGS]
    out: list[BenchGame] = []
    for table in tables:
        if table not in TABLES:
            raise ValueError(f"no table {table!r}; the protocol's: {', '.join(TABLES)}")
        for deal in range(-(-games // 2)):
            for name in names:
                r = rung(name)
                opponent = AgentSpec(r.name, "bot", r.spec, r.simulations)
                for side in (0, 1):
                    out.append(BenchGame(len(out), table, deal, name, side, agent, opponent))
    return out


def play(game: BenchGame, timeout: float = 60.0) -> BenchResult:
    """Play one game of the protocol; :class:`AgentError` if the agent breaks the rules."""
    config = game.config
    seed = deal_seed(game.table, game.deal)
    state = new_game(config, seed=seed)
    seats = []
    for seat in range(config.players):
        spec = game.agent if seat % config.sides == game.agent_side else game.opponent
        seats.append(spec.build(seat, seed * 16 + seat, config.players, config.sides, timeout))
    spent = 0.0
    moves = 0
    try:
        while not state.is_terminal() and state.turn < MAX_TURNS:
            seat = next_actor(state)
            view = state.view(seat)
            mine = seat % config.sides == game.agent_side
            start = time.process_time()
            try:
                action = seats[seat].act(view, view.legal_actions)
            except AgentError as exc:
                raise AgentError(
                    f"game {game.index} (deal {game.deal}, {game.table}, turn {state.turn}): {exc}"
                ) from None
            if mine:
                spent += time.process_time() - start
                moves += 1
            try:
                state.apply(action, seat)
            except IllegalActionError as exc:
                raise AgentError(
                    f"game {game.index} (deal {game.deal}, {game.table}, turn {state.turn}), seat {seat}: "
                    f"action {action!r} refused, {exc.rule}: {exc.message}"
                ) from None
    finally:
        outcome = state.outcome()
        winner = None if outcome is None else outcome.winner
        for agent in seats:
            agent.close(winner)
    if outcome is None or outcome.winner is None:
        score = 0.5
    else:
        score = 1.0 if outcome.winner == game.agent_side else 0.0
    return BenchResult(game.index, score, state.turn, spent, moves)


def iter_play(games: Sequence[BenchGame], workers: int = 1, timeout: float = 60.0) -> Iterator[BenchResult]:
    """The results as they finish (any order)."""
    if workers <= 1 or len(games) <= 1:
        for game in games:
            yield play(game, timeout)
        return
    import multiprocessing
    from functools import partial

    with multiprocessing.get_context().Pool(min(workers, len(games))) as pool:
        yield from pool.imap_unordered(partial(play, timeout=timeout), games, chunksize=1)


def rate(
    games: Sequence[BenchGame], results: Sequence[BenchResult], fixed: dict[str, dict[str, float]]
) -> dict[str, float]:
    """The agent's OpenSkill rating after its games in protocol order, against fixed anchors."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    me = model.rating(name="agent")
    by_index = {r.index: r for r in results}
    for game in sorted(games, key=lambda g: g.index):
        result = by_index[game.index]
        anchor = fixed[game.rung]
        them = model.rating(mu=anchor["mu"], sigma=anchor["sigma"], name=game.rung)  # never updated
        [[me], [_them]] = model.rate([[me], [them]], ranks=_ranks(result.score))
    return {"mu": me.mu, "sigma": me.sigma, "low": me.mu - 1.96 * me.sigma, "high": me.mu + 1.96 * me.sigma}


def _ranks(score: float) -> list[float]:
    """OpenSkill's ranks of (first, second) for the first side's score: lower is better."""
    return [0.0, 0.0] if score == 0.5 else ([0.0, 1.0] if score == 1 else [1.0, 0.0])


def summarize(agent: AgentSpec, games: Sequence[BenchGame], results: Sequence[BenchResult]) -> dict[str, Any]:
    """The JSON result: per table the rating and every rung's score; the seeds and the budgets."""
    by_index = {r.index: r for r in results}
    fixed = anchors()
    tables: dict[str, Any] = {}
    for table in dict.fromkeys(g.table for g in games):
        mine = [g for g in games if g.table == table]
        rungs = []
        for name in dict.fromkeys(g.rung for g in mine):
            scores = [by_index[g.index].score for g in mine if g.rung == name]
            won = sum(s == 1 for s in scores)
            drawn = sum(s == 0.5 for s in scores)
            points = won + drawn / 2
            low, high = wilson_interval(points, len(scores))
            rungs.append(
                {
                    "rung": name,
                    "games": len(scores),
                    "won": won,
                    "drawn": drawn,
                    "lost": len(scores) - won - drawn,
                    "score": points / len(scores),
                    "ci95": [low, high],
                }
            )
        entry: dict[str, Any] = {"rungs": rungs, "deals": max(g.deal for g in mine) + 1}
        if table in fixed:
            entry["rating"] = rate(mine, [by_index[g.index] for g in mine], fixed[table])
        seconds = sum(by_index[g.index].agent_seconds for g in mine)
        moves = sum(by_index[g.index].agent_moves for g in mine)
        entry["agent_cpu_ms_per_move"] = 1000 * seconds / moves if moves else 0.0
        tables[table] = entry
    return {
        "protocol": PROTOCOL,
        "agent": agent.label,
        "tables": tables,
        "games": [
            {
                "table": g.table,
                "deal": g.deal,
                "rung": g.rung,
                "agent_side": g.agent_side,
                "score": by_index[g.index].score,
                "turns": by_index[g.index].turns,
            }
            for g in games
        ],
        "ladder": [{"rung": r.name, "bot": r.spec, "simulations": r.simulations} for r in RUNGS],
        "seeds": {t: deal_seed(t, 0) for t in tables},
    }


def run(
    agent_text: str,
    *,
    tables: Sequence[str] = tuple(TABLES),
    games: int = 200,
    rungs: Sequence[str] | None = None,
    simulations: int | None = None,
    workers: int = 1,
    timeout: float = 60.0,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Rate the agent written as ``agent_text`` (see :func:`.agents.parse_agent`)."""
    agent = parse_agent(agent_text, simulations)
    games_list = schedule(agent, tables, games, rungs)
    results: list[BenchResult] = []
    for done, result in enumerate(iter_play(games_list, workers, timeout), 1):
        results.append(result)
        if progress is not None:
            progress(done, len(games_list))
    out = summarize(agent, games_list, results)
    out["games_per_rung"] = games + games % 2
    return out


# ------------------------------------------------------------------ the ladder's own ratings


ANCHOR_SIGMA = 1.0
"""The anchors' sigma in the agent's updates: small, as for well-known players."""


def calibrate(
    games: int, workers: int = 1, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """The anchors: every pair of rungs meets on the protocol's deals (each deal twice, sides
    swapped); a Bradley-Terry fit of each table's games, on OpenSkill's scale with ``random`` at
    its default ``mu`` of 25."""
    schedule_all: list[BenchGame] = []
    for table in TABLES:
        for deal in range(-(-games // 2)):
            for i, a in enumerate(RUNGS):
                for b in RUNGS[i + 1 :]:
                    sa = AgentSpec(a.name, "bot", a.spec, a.simulations)
                    sb = AgentSpec(b.name, "bot", b.spec, b.simulations)
                    for side in (0, 1):
                        schedule_all.append(BenchGame(len(schedule_all), table, deal, b.name, side, sa, sb))
    results: dict[int, BenchResult] = {}
    for done, result in enumerate(iter_play(schedule_all, workers), 1):
        results[result.index] = result
        if progress is not None:
            progress(done, len(schedule_all))
    ratings: dict[str, dict[str, dict[str, float]]] = {}
    scores: dict[str, dict[str, list[float]]] = {}
    for table in TABLES:
        pairs: dict[tuple[str, str], tuple[float, float]] = {}
        for game in schedule_all:
            if game.table == table:
                key = (game.agent.text, game.opponent.text)
                mine, theirs = pairs.get(key, (0.0, 0.0))
                score = results[game.index].score
                pairs[key] = (mine + score, theirs + 1 - score)
        elo = bradley_terry([r.name for r in RUNGS], pairs)
        scale = math.sqrt(2) * 25 / 6 * math.log(10) / 400  # Elo points to OpenSkill mu
        base = elo[RUNGS[0].name]
        ratings[table] = {
            r.name: {"mu": 25 + (elo[r.name] - base) * scale, "sigma": ANCHOR_SIGMA} for r in RUNGS
        }
        scores[table] = {f"{a} vs {b}": [s[0], s[0] + s[1]] for (a, b), s in pairs.items()}
    return {
        "protocol": PROTOCOL,
        "games_per_pair": games + games % 2,
        "ladder": [{"rung": r.name, "bot": r.spec, "simulations": r.simulations} for r in RUNGS],
        "ratings": ratings,
        "scores": scores,
    }
