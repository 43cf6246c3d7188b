"""``sequence bench``: games per second between uniformly random legal players.

Dead cards are always exchanged. Speed is counted per CPU-second of this process (wall-clock
figures are given too), so that other load on the machine disturbs it less.

``--engine pure`` (default) is the reference engine: ``--path fast`` (default) is its inlined
playout, the trusted path of rollouts; ``trusted`` loops ``random_action`` and ``_apply``; ``api``
lists ``legal_actions()`` and calls the validating ``apply`` every turn, as an interface would.
``--engine fast`` is the compiled engine (``pip install 'sequence-game[fast]'``, docs/fast.md):
its compile (or cache load) time is reported apart, and it is timed after a warm-up.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from ..config import TEAM_OPTIONS, GameConfig
from ..i18n import _
from ..state import new_game


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "bench",
        help=_("measure engine speed with random players"),
        description=_("Games per second between random legal players, per CPU-second of this process."),
    )
    p.add_argument(
        "--players",
        type=int,
        default=2,
        choices=sorted(TEAM_OPTIONS),
        help=_("players (default %(default)s)"),
    )
    p.add_argument(
        "--teams", type=int, default=None, help=_("number of sides (default: the usual one, R2.2)")
    )
    p.add_argument("--games", type=int, default=2000, help=_("games to play (default %(default)s)"))
    p.add_argument("--seed", type=int, default=0, help=_("random seed (default %(default)s)"))
    p.add_argument("--engine", choices=("pure", "fast"), default="pure", help=_("the engine to time"))
    p.add_argument("--path", choices=("fast", "trusted", "api"), default="fast", help=_("pure engine only"))
    p.add_argument("--warmup", type=int, default=1000, help=_("fast engine: games played before timing"))
    p.add_argument("--max-turns", type=int, default=2000, help=_("stop a game after this many turns"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run)


def bench(
    config: GameConfig, games: int, seed: int, path: str = "fast", max_turns: int = 2000
) -> dict[str, Any]:
    """Play ``games`` random games and return the figures."""
    rng = random.Random(seed)
    wins = [0] * config.sides
    draws = truncated = turns = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _game in range(games):
        state = new_game(config, rng=rng)
        if path == "fast":
            state.playout(rng, max_turns)
        elif path == "trusted":
            while not state.is_terminal() and state.turn < max_turns:
                state._apply(state.random_action(rng), state.current_seat)
        else:
            while not state.is_terminal() and state.turn < max_turns:
                acts = state.legal_actions()
                dead = [a for a in acts if 300 <= a < 352]
                choice = dead or acts
                state.apply(choice[int(rng.random() * len(choice))])
        outcome = state.outcome()
        turns += state.turn
        if outcome is None:
            truncated += 1
        elif outcome.winner is None:
            draws += 1
        else:
            wins[outcome.winner] += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "players": config.players,
        "teams": config.sides,
        "games": games,
        "path": path,
        "seconds": round(elapsed, 4),
        "cpu_seconds": round(cpu, 4),
        # per CPU-second, as docs/performance.md counts: steadier than wall time on a shared machine
        "games_per_second": round(games / max(cpu, 1e-9), 1),
        "wall_games_per_second": round(games / elapsed, 1),
        "turns_per_game": round(turns / games, 2),
        "microseconds_per_turn": round(cpu / max(turns, 1) * 1e6, 3),
        "wins_by_side": wins,
        "draws": draws,
        "truncated": truncated,
    }


def bench_fast(
    config: GameConfig, games: int, seed: int, max_turns: int = 2000, warmup: int = 1000
) -> dict[str, Any]:
    """Time ``games`` random games on the compiled engine, after compiling and ``warmup`` games.

    The same policy as the pure playout: dead cards exchanged first, else every distinct legal
    action equally likely.
    """
    import numpy as np

    from ..fast import kernels
    from ..fast.compile import ensure_compiled
    from ..fast.engine import check_config

    check_config(config)
    compile_seconds = ensure_compiled()
    if warmup > 0:
        kernels.play_games(
            config.players, config.sides, warmup, seed + 1, max_turns, np.zeros((warmup, 2), np.int64)
        )
    stats = np.zeros((games, 2), dtype=np.int64)
    start, cpu_start = time.perf_counter(), time.process_time()
    kernels.play_games(config.players, config.sides, games, seed, max_turns, stats)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    winners, turns = stats[:, 0], int(stats[:, 1].sum())
    return {
        "engine": "fast",
        "players": config.players,
        "teams": config.sides,
        "games": games,
        "compile_seconds": round(compile_seconds, 3),
        "warmup_games": warmup,
        "seconds": round(elapsed, 4),
        "cpu_seconds": round(cpu, 4),
        "games_per_second": round(games / max(cpu, 1e-9), 1),
        "wall_games_per_second": round(games / max(elapsed, 1e-9), 1),
        "turns_per_game": round(turns / games, 2),
        "microseconds_per_turn": round(cpu / max(turns, 1) * 1e6, 4),
        "wins_by_side": [int((winners == s).sum()) for s in range(config.sides)],
        "draws": int((winners == -1).sum()),
        "truncated": int((winners == -2).sum()),
    }


def run(args: argparse.Namespace) -> int:
    from ..errors import ConfigError
    from ..i18n import engine_message

    try:
        config = GameConfig(players=args.players, teams=args.teams)
    except ConfigError as exc:
        raise SystemExit("sequence bench: " + engine_message(exc)) from None
    if args.games < 1:
        raise SystemExit("sequence bench: " + _("--games must be at least 1"))
    if args.engine == "fast":
        try:
            result = bench_fast(config, args.games, args.seed, args.max_turns, max(args.warmup, 0))
        except ImportError as exc:
            raise SystemExit("sequence bench: " + str(exc)) from None
    else:
        result = bench(config, args.games, args.seed, args.path, args.max_turns)
        result["engine"] = "pure"
    if args.json:
        print(json.dumps(result))
    else:
        engine = result["engine"] + (" " + result["path"] if "path" in result else "")
        print(
            _(
                "{games} games, {players} players in {sides} sides, {engine} engine: {rate} games/s, "
                "{turns} turns/game, {us} us/turn"
            ).format(
                games=result["games"],
                players=config.players,
                sides=config.sides,
                engine=engine,
                rate=f"{result['games_per_second']:.0f}",
                turns=f"{result['turns_per_game']:.1f}",
                us=f"{result['microseconds_per_turn']:.2f}",
            )
        )
        sides = ", ".join(
            _("side {side} {wins}").format(side=s, wins=n) for s, n in enumerate(result["wins_by_side"])
        )
        print(
            _("results: {sides}, drawn {draws}, truncated {truncated}").format(
                sides=sides, draws=result["draws"], truncated=result["truncated"]
            )
        )
        if "compile_seconds" in result:
            print(
                _("compile (or cache load): {seconds} s, not counted above").format(
                    seconds=f"{result['compile_seconds']:.2f}"
                )
            )
    return 0
