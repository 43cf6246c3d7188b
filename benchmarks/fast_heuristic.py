"""The compiled heuristic (``sequence_game.fast.heuristic``): how often it makes the Python
heuristic's move, and how fast it is.

``agreement``: positions from games between ``HeuristicBot(inference=False)`` seats (pure
engine, auto draw); at each, the Python bot's tie set (every play scored within 1e-9 of the best)
against the compiled policy's, and the compiled policy's choice against the Python tie set.

``speed``: moves a second of ``choose`` and rollouts a second of ``heuristic_playout`` from early,
mid and late positions (turns 2, 20, 40 of heuristic games), against the Python bot's milliseconds
a move on the same positions; ``inferring_playout``, ``lite_playout`` and random
``kernels.playout`` rollouts for scale.
CPU time of this process (``time.process_time``): the machine may be shared.

    nice -n 10 .venv/bin/python benchmarks/fast_heuristic.py agreement --games 20 --players 2 3 4 6
    nice -n 10 .venv/bin/python benchmarks/fast_heuristic.py agreement --games 20 --inference on
    nice -n 10 .venv/bin/python benchmarks/fast_heuristic.py speed --players 2 4
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from sequence_game import GameConfig, GameState, new_game
from sequence_game.actions import DEAD
from sequence_game.bots.base import forced_action
from sequence_game.bots.evaluation import Board
from sequence_game.bots.heuristic import HEURISTIC, HeuristicBot, score_plays
from sequence_game.fast import heuristic as fh
from sequence_game.fast import kernels as k
from sequence_game.fast.compile import ensure_compiled
from sequence_game.fast.engine import FastGame

TIE = 1e-9


def config_of(table: str) -> GameConfig:
    """``"4"``: 4 players in the default sides (two teams at 4 and 6, R2.3); ``"6/3"``: 6 players
    in 3 teams."""
    players, _, teams = table.partition("/")
    return GameConfig(players=int(players), teams=int(teams) if teams else None)


def random_positions(table: str, games: int, seed: int) -> Iterator[GameState]:
    """One position per game, reached by random play (a random number of turns up to 150)."""
    for i in range(games):
        state = new_game(config_of(table), seed=seed + i)
        rng = random.Random(seed + i)
        state.playout(rng, max_turns=rng.randint(0, 150))
        if not state.is_terminal():
            yield state


def positions(table: str, games: int, seed: int, inference: bool = False) -> Iterator[GameState]:
    """Every position (before each action) of ``games`` heuristic-vs-heuristic games."""
    for i in range(games):
        state = new_game(config_of(table), seed=seed + i)
        bots = [HeuristicBot(seed=seed * 1000 + i * 20 + s, inference=inference) for s in range(12)]
        while not state.is_terminal():
            yield state
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)))


def python_choice(state: GameState, inference: bool = False) -> tuple[set[int], dict[int, float]]:
    """The Python heuristic's tie set, and its scores (empty for a forced action or a discard)."""
    view = state.view(state.current_seat)
    forced = forced_action(view)
    if forced is not None:
        return {forced}, {}
    plays = [a for a in view.legal_actions if a < DEAD]
    if not plays:
        return {HeuristicBot(inference=False).select_action(view)}, {}
    scores = score_plays(view, Board.of_view(view), plays, HEURISTIC, inference=inference)
    top = max(scores)
    return {a for a, s in zip(plays, scores, strict=True) if s >= top - TIE}, dict(
        zip(plays, scores, strict=True)
    )


def compiled_choice(game: FastGame, lite: bool, inference: bool) -> tuple[set[int], dict[int, float]]:
    scored = fh.heuristic_scores(game, lite=lite, inference=inference)
    if isinstance(scored, int):
        return {scored}, {}
    top = max(scored.values())
    return {a for a, s in scored.items() if s >= top - TIE}, scored


@dataclass
class Tally:
    positions: int = 0
    same_set: int = 0
    choice_in_set: int = 0
    max_error: float = 0.0
    score_errors: int = 0


def agreement(
    players: list[str],
    games: int,
    seed: int,
    lite: bool,
    show: int,
    inference: bool,
    compiled_inference: bool,
    random_play: bool = False,
) -> dict[str, object]:
    ensure_compiled("heuristic")
    out: dict[str, object] = {}
    for n in players:
        tally = Tally()
        kinds: Counter[str] = Counter()
        shown = 0
        source = random_positions(n, games, seed) if random_play else positions(n, games, seed, inference)
        for state in source:
            game = FastGame.from_state(state, seed=1)
            py_set, py_scores = python_choice(state, inference)
            fast_set, fast_scores = compiled_choice(game, lite, compiled_inference)
            tally.positions += 1
            if py_set == fast_set:
                tally.same_set += 1
            rs = np.array([k.seed_state(tally.positions)], dtype=np.uint64)
            policy = fh.choose_lite if lite else fh.choose_inferring if compiled_inference else fh.choose
            pick = int(policy(game.row, rs, 0))
            if pick in py_set:
                tally.choice_in_set += 1
            if py_scores and not lite and inference == compiled_inference:
                err = max(abs(py_scores[a] - fast_scores.get(a, float("inf"))) for a in py_scores)
                tally.max_error = max(tally.max_error, err)
                tally.score_errors += int(err > 1e-6)
            if py_set != fast_set:
                kinds["forced" if not py_scores else "scored"] += 1
                if shown < show:
                    shown += 1
                    print(f"  {n}p turn {state.turn}: python {sorted(py_set)} compiled {sorted(fast_set)}")
        out[f"{n}p"] = {
            "positions": tally.positions,
            "same_tie_set": round(tally.same_set / max(tally.positions, 1), 4),
            "choice_in_python_set": round(tally.choice_in_set / max(tally.positions, 1), 4),
            "max_score_error": tally.max_error,
            "positions_with_score_error": tally.score_errors,
            "differences": dict(kinds),
        }
        print(f"{n}p: {json.dumps(out[f'{n}p'])}", flush=True)
    return out


def speed(players: list[str], games: int, seed: int, rollouts: int) -> dict[str, object]:
    ensure_compiled("heuristic")
    out: dict[str, object] = {}
    for n in players:
        for phase, turn in (("early", 2), ("mid", 20), ("late", 40)):
            starts: list[GameState] = []
            for i in range(games):
                state = new_game(config_of(n), seed=seed + i)
                bots = [HeuristicBot(seed=i * 20 + s, inference=False) for s in range(12)]
                while not state.is_terminal() and state.turn < turn:
                    state.apply(bots[state.current_seat].select_action(state.view(state.current_seat)))
                if not state.is_terminal():
                    starts.append(state)
            if not starts:
                continue
            python_bot = HeuristicBot(seed=1, inference=False)
            t0 = time.process_time()
            for state in starts:
                python_bot.select_action(state.view(state.current_seat))
            python_ms = 1000 * (time.process_time() - t0) / len(starts)
            rows = [FastGame.from_state(state, seed=1).row for state in starts]
            rs = np.array([k.seed_state(seed)], dtype=np.uint64)
            reps = 200
            iw, fw = fh.new_work()
            t0 = time.process_time()
            for _ in range(reps):
                for row in rows:
                    fh.choose_with(row, rs, 0, iw, fw)
            choose_us = 1e6 * (time.process_time() - t0) / (reps * len(rows))
            turns = 0
            t0 = time.process_time()
            for r in range(rollouts):
                row = rows[r % len(rows)].copy()
                fh.heuristic_playout(row, rs, 0, 1 << 30)
                turns += int(row[k.I_TURN]) - int(rows[r % len(rows)][k.I_TURN])
            seconds = time.process_time() - t0
            t0 = time.process_time()
            for r in range(rollouts):
                fh.lite_playout(rows[r % len(rows)].copy(), rs, 0, 1 << 30)
            lite_seconds = time.process_time() - t0
            t0 = time.process_time()
            for r in range(rollouts):
                fh.inferring_playout(rows[r % len(rows)].copy(), rs, 0, 1 << 30)
            inferring_seconds = time.process_time() - t0
            t0 = time.process_time()
            for r in range(rollouts * 10):
                k.playout(rows[r % len(rows)].copy(), rs, 0, 1 << 30)
            random_seconds = time.process_time() - t0
            key = f"{n}p {phase}"
            out[key] = {
                "positions": len(starts),
                "python_ms_per_move": round(python_ms, 2),
                "choose_us_per_move": round(choose_us, 1),
                "choose_moves_per_s": round(1e6 / choose_us),
                "rollouts_per_s": round(rollouts / seconds, 1),
                "rollout_moves_per_s": round(turns / seconds),
                "lite_rollouts_per_s": round(rollouts / lite_seconds, 1),
                "inferring_rollouts_per_s": round(rollouts / inferring_seconds, 1),
                "random_rollouts_per_s": round(rollouts * 10 / random_seconds),
                "speedup_per_move": round(1000 * python_ms / choose_us, 1),
            }
            print(f"{key}: {json.dumps(out[key])}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    a = sub.add_parser("agreement")
    a.add_argument("--players", nargs="+", default=["2", "3", "4", "6", "6/3"], help="e.g. 4 or 6/3 (teams)")
    a.add_argument("--games", type=int, default=10)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--lite", action="store_true", help="measure choose_lite instead of choose")
    a.add_argument("--show", type=int, default=5, help="differences printed per table size")
    a.add_argument(
        "--inference",
        choices=["off", "on", "python-only"],
        default="off",
        help="hand inference (bots.inference) in both policies, or in the Python one only",
    )
    a.add_argument("--random-play", action="store_true", help="one position per game, reached by random play")
    s = sub.add_parser("speed")
    s.add_argument("--players", nargs="+", default=["2", "4"])
    s.add_argument("--games", type=int, default=10, help="start positions per phase")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--rollouts", type=int, default=200)
    args = parser.parse_args()
    if args.what == "agreement":
        result = agreement(
            args.players,
            args.games,
            args.seed,
            args.lite,
            args.show,
            args.inference != "off",
            args.inference == "on",
            args.random_play,
        )
    else:
        result = speed(args.players, args.games, args.seed, args.rollouts)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    random.seed(0)
    main()
