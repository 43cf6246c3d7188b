"""The compiled heuristic (``sequence_game.fast.heuristic``): how often it makes the Python
heuristic's move, and how fast it is.

``agreement``: positions from games between ``HeuristicBot(inference=False)`` seats (pure
engine, auto draw); at each, the Python bot's tie set (every play scored within 1e-9 of the best)
against the compiled policy's, and the compiled policy's choice against the Python tie set.

``speed``: moves a second of ``choose`` and rollouts a second of ``heuristic_playout`` from early,
mid and late positions (turns 2, 20, 40 of heuristic games), against the Python bot's milliseconds
a move on the same positions; ``inferring_playout``, the same with every play scored
(``playout_unpruned_with``: no branch and bound, window tables counted afresh each move),
``lite_playout`` and random ``kernels.playout`` rollouts for scale.
CPU time of this process (``time.process_time``): the machine may be shared.

``pruning``: how many plays the choosing kernels' branch and bound skips (scores ``-inf``, never
chosen), by kind, over every position of seeded ``inferring_playout`` games from new deals.

``compare``: rollouts a second of ``playout_policy_with`` under two source trees (``--old``, e.g.
an earlier commit unpacked with ``git archive``, and ``--new``, by default this checkout's), each
in a process of its own, the same seeded rollouts in short turns alternating between them, so
that a shared machine's load falls on both alike; the ratio of their CPU times per table and
policy.

    nice -n 10 .venv/bin/python benchmarks/fast_heuristic.py agreement --games 20 --players 2 3 4 6
    nice -n 10 .venv/bin/python benchmarks/fast_heuristic.py agreement --games 20 --inference on
    nice -n 10 .venv/bin/python benchmarks/fast_heuristic.py speed --players 2 4
    nice -n 10 .venv/bin/python benchmarks/fast_heuristic.py pruning --players 2 4 --games 20
    mkdir -p /tmp/old && git archive 15df790 | tar -x -C /tmp/old
    nice -n 5 .venv/bin/python benchmarks/fast_heuristic.py compare --old /tmp/old/src --rounds 10
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sequence_game import GameConfig, GameState, new_game
from sequence_game.actions import DEAD, REMOVE, WILD
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
    iw, fw = fh.new_work()
    warm = FastGame.new(GameConfig(players=2), seed=seed).row.copy()  # compiled before any timing
    fh.playout_unpruned_with(
        warm, np.array([k.seed_state(seed)], dtype=np.uint64), 0, 2, iw, fw, fh.DEFAULT_PARAMS, True
    )
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
            for r in range(rollouts):
                fh.playout_unpruned_with(
                    rows[r % len(rows)].copy(), rs, 0, 1 << 30, iw, fw, fh.DEFAULT_PARAMS, True
                )
            unpruned_seconds = time.process_time() - t0
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
                "inferring_unpruned_rollouts_per_s": round(rollouts / unpruned_seconds, 1),
                "random_rollouts_per_s": round(rollouts * 10 / random_seconds),
                "speedup_per_move": round(1000 * python_ms / choose_us, 1),
            }
            print(f"{key}: {json.dumps(out[key])}", flush=True)
    return out


def pruning(players: list[str], games: int, seed: int) -> dict[str, object]:
    ensure_compiled("heuristic")
    out: dict[str, object] = {}
    iw, fw = fh.new_work()
    for n in players:
        scored: Counter[str] = Counter()
        skipped: Counter[str] = Counter()
        decisions = 0
        rs = np.array([k.seed_state(seed)], dtype=np.uint64)
        for g in range(games):
            row = FastGame.new(config_of(n), seed=seed + g).row.copy()
            while row[k.I_END] == k.END_NONE:
                count = int(fh._score(row, iw, fw, True, fh.DEFAULT_PARAMS, True))
                decisions += 1
                for i in range(max(count, 0)):
                    action = int(iw[fh.I_PLAYS + i])
                    kind = "natural" if action < WILD else "two_eyed" if action < REMOVE else "one_eyed"
                    if fw[fh.F_SCORES + i] == -np.inf:
                        skipped[kind] += 1
                    else:
                        scored[kind] += 1
                k.apply(row, rs, 0, fh.choose_policy_with(row, rs, 0, iw, fw, fh.INFERRING))
        out[f"{n}p"] = {
            "positions": decisions,
            **{
                kind: {
                    "plays": scored[kind] + skipped[kind],
                    "skipped": skipped[kind],
                    "share_skipped": round(skipped[kind] / max(scored[kind] + skipped[kind], 1), 4),
                }
                for kind in ("natural", "two_eyed", "one_eyed")
            },
        }
        print(f"{n}p: {json.dumps(out[f'{n}p'])}", flush=True)
    return out


COMPARED = (
    (2, fh.INFERRING),
    (3, fh.INFERRING),
    (4, fh.INFERRING),
    (6, fh.INFERRING),
    (2, fh.FULL),
    (2, fh.LITE),
)
"""(players, policy) of ``compare``: the ``pimc`` bot's rollouts (INFERRING) at each table size first."""
STARTS = 64


def worker() -> None:
    """``compare``'s side: reads ``players policy count`` lines, plays ``count`` seeded rollouts
    from new games (``STARTS`` deals, the random stream reset each time), answers the CPU
    seconds and the turns played. Only the rollout kernel of the tree on ``PYTHONPATH``."""
    iw, fw = fh.new_work()
    starts = {
        players: [FastGame.new(GameConfig(players=players), seed=100 + g).row for g in range(STARTS)]
        for players, _ in COMPARED
    }
    rs = np.array([k.seed_state(1)], dtype=np.uint64)
    for players, policy in COMPARED:  # compiled (or loaded from the cache) before any timing
        fh.playout_policy_with(starts[players][0].copy(), rs, 0, 1 << 30, iw, fw, policy)
    print("ready", flush=True)
    for line in sys.stdin:
        players, policy, count = map(int, line.split())
        rs[0] = k.seed_state(5)
        turns = 0
        t0 = time.process_time()
        for i in range(count):
            row = starts[players][i % STARTS].copy()
            fh.playout_policy_with(row, rs, 0, 1 << 30, iw, fw, policy)
            turns += int(row[k.I_TURN])
        print(json.dumps([time.process_time() - t0, turns]), flush=True)


def compare(old: str, new: str, rounds: int, count: int) -> dict[str, object]:
    def start(src: str) -> subprocess.Popen[str]:
        env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
        process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        return process

    workers = {"old": start(old), "new": start(new)}
    out: dict[str, object] = {}
    for players, policy in COMPARED:
        seconds: dict[str, list[float]] = {"old": [], "new": []}
        turns: dict[str, int] = {}
        for r in range(rounds):
            for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
                process = workers[name]
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write(f"{players} {policy} {count}\n")
                process.stdin.flush()
                spent, played = json.loads(process.stdout.readline())
                seconds[name].append(spent)
                turns[name] = played
        ratios = [a / b for a, b in zip(seconds["old"], seconds["new"], strict=True)]
        key = f"{players}p policy {policy}"
        out[key] = {
            "old_rollouts_per_s": round(count * rounds / sum(seconds["old"]), 1),
            "new_rollouts_per_s": round(count * rounds / sum(seconds["new"]), 1),
            "cpu_time_ratio": round(sum(seconds["old"]) / sum(seconds["new"]), 3),
            "round_ratios_median_min_max": [
                round(statistics.median(ratios), 3),
                round(min(ratios), 3),
                round(max(ratios), 3),
            ],
            "same_turns_played": turns["old"] == turns["new"],
        }
        print(f"{key}: {json.dumps(out[key])}", flush=True)
    for process in workers.values():
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
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
    r = sub.add_parser("pruning")
    r.add_argument("--players", nargs="+", default=["2", "4"])
    r.add_argument("--games", type=int, default=20)
    r.add_argument("--seed", type=int, default=0)
    c = sub.add_parser("compare")
    c.add_argument("--old", required=True, help="the src folder of the tree to compare against")
    c.add_argument("--new", default=str(Path(__file__).resolve().parent.parent / "src"))
    c.add_argument("--rounds", type=int, default=10, help="turns each tree gets, alternating")
    c.add_argument("--rollouts", type=int, default=64, help="rollouts a turn")
    sub.add_parser("worker", help="(compare's own worker process)")
    args = parser.parse_args()
    if args.what == "worker":
        worker()
        return
    if args.what == "pruning":
        result = pruning(args.players, args.games, args.seed)
    elif args.what == "compare":
        result = compare(args.old, args.new, args.rounds, args.rollouts)
    elif args.what == "agreement":
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
