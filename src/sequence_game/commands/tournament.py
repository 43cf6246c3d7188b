"""``sequence tournament``: bots play each other with seats rotated and deals paired.

Prints a table of win rates with 95% Wilson intervals and Bradley-Terry ratings, or with
``--json`` one JSON object; ``--records DIR`` saves every game as a ``sequence-record/1`` file as
soon as it ends; ``--luck`` judges every game with the analysis and adds each pair's luck-adjusted
score (``analysis.scores``). Ctrl-C stops the workers and reports the games finished so far (exit status 130).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
from importlib.util import find_spec
from typing import Any

from ..config import TEAM_OPTIONS
from ..i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help=_("pit bots against each other (win rates, confidence intervals, ratings)"),
        description=_("Every pair of bots plays paired deals with seats rotated, in parallel workers."),
    )
    p.add_argument(
        "--bots",
        default="random,greedy,heuristic",
        help=_(
            "comma-separated bot names or levels, each optionally with options, e.g. "
            "'heuristic,mcts(width=8, plies=20)' (default: %(default)s)"
        ),
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
    p.add_argument("--draw", choices=("auto", "manual"), default="auto", help=_("draw mode (R5.3)"))
    p.add_argument(
        "--games", type=int, default=20, help=_("games per pair (rounded up to whole deal groups)")
    )
    p.add_argument("--time-per-move", type=float, default=None, metavar="S", help=_("search time per move"))
    p.add_argument(
        "--simulations", type=int, default=None, help=_("search iterations per move (reproducible)")
    )
    p.add_argument("--workers", type=int, default=None, help=_("worker processes (default: CPU count)"))
    p.add_argument("--seed", type=int, default=0, help=_("random seed (default %(default)s)"))
    p.add_argument("--max-turns", type=int, default=2000, help=_("call a game drawn after this many turns"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument("--records", metavar="DIR", default=None, help=_("save every game's record in DIR"))
    p.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help=_("where the games run: local processes or a Ray cluster (default %(default)s)"),
    )
    p.add_argument(
        "--luck",
        action="store_true",
        help=_(
            "also judge every game with the analysis and report each pair's luck-adjusted score: "
            "the result less the luck of the draws, a narrower interval from the same games "
            "(docs/analysis.md; needs NumPy)"
        ),
    )
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..bots.specs import parse_bot_spec, split_bot_list
    from ..bots.tournament import (
        GameResult,
        ProgressBar,
        format_table,
        iter_results,
        schedule,
        seat_labels,
        summarize,
    )
    from ..config import GameConfig
    from ..errors import ConfigError
    from ..i18n import engine_message

    names: list[str] = []
    try:  # every spec is parsed and built once here, so that no worker meets a bad one
        for text in split_bot_list(args.bots):
            bot = parse_bot_spec(text, allow_oracle=True)  # a measurement: the table marks it
            bot.build()
            names.append(bot.label)
    except (ValueError, ImportError) as exc:  # a bad spec, or a bot whose extra is not installed
        raise SystemExit(f"{PREFIX}{exc}") from None
    names = seat_labels(names)  # a mirror match's two bots: hard#1 and hard#2
    if args.time_per_move is not None and args.time_per_move <= 0:
        raise SystemExit(PREFIX + _("--time-per-move must be positive"))
    if args.simulations is not None and args.simulations < 1:
        raise SystemExit(PREFIX + _("--simulations must be at least 1"))
    try:
        config = GameConfig(players=args.players, teams=args.teams, draw=args.draw)
        specs = schedule(
            names,
            config,
            args.games,
            seed=args.seed,
            seconds=args.time_per_move,
            simulations=args.simulations,
            max_turns=args.max_turns,
            record=args.records is not None or args.luck,
        )
    except ConfigError as exc:
        raise SystemExit(PREFIX + engine_message(exc)) from None
    except ValueError as exc:
        raise SystemExit(f"{PREFIX}{exc}") from None
    if args.luck and find_spec("numpy") is None:  # before the games, not after them
        raise SystemExit(PREFIX + _("--luck needs NumPy: pip install 'sequence-game[fast]'"))
    if args.records is not None:
        os.makedirs(args.records, exist_ok=True)
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    progress = None if args.quiet else ProgressBar(sys.stderr)
    results: list[GameResult] = []
    interrupted = False
    games = iter_results(specs, workers=workers, backend=args.backend)
    guard = _SaveGuard()
    previous = signal.signal(signal.SIGINT, guard)
    try:
        for result in games:
            with guard:  # a game is counted and saved together, or not at all
                if args.records is not None:
                    spec = specs[result.index]
                    seats = "-".join(_file_part(name) for name in spec.bots)
                    path = os.path.join(args.records, f"game-{result.index:05d}-{seats}.json")
                    with open(path + ".part", "w", encoding="utf-8") as fh:
                        fh.write(result.record or "")
                    os.replace(path + ".part", path)
                results.append(result)
            if progress is not None:
                progress(len(results), len(specs))
    except RuntimeError as exc:
        raise SystemExit(f"{PREFIX}{exc}") from None
    except KeyboardInterrupt:
        interrupted = True
        games.close()
        print(
            "\n"
            + _("interrupted: the {done} finished games of {total}").format(
                done=len(results), total=len(specs)
            ),
            file=sys.stderr,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    results.sort(key=lambda r: r.index)
    summary = summarize(specs, results, names)
    summary["config"] = {"players": config.players, "teams": config.sides, "draw": config.draw}
    summary["time_per_move"] = args.time_per_move
    summary["simulations"] = args.simulations
    summary["interrupted"] = interrupted
    if args.luck and results:
        from ..analysis.scores import luck_adjusted_scores

        by_pair = luck_adjusted_scores(specs, results, workers)
        for entry in summary["pairs"]:
            entry["luck_adjusted"] = by_pair[tuple(entry["bots"])]
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_table(summary))
    return 130 if interrupted else 0


PREFIX = "sequence tournament: "
"""What every error of the command starts with (the program's name is not translated)."""


def _file_part(label: str) -> str:
    """A bot label as part of a file name: ``mcts(width=8)`` becomes ``mcts_width=8``."""
    return re.sub(r"[^A-Za-z0-9=.+-]+", "_", label).strip("_")


class _SaveGuard:
    """The SIGINT handler of a tournament: Ctrl-C stops the wait for the next game at once, but
    a finished game being counted and saved is completed first, so the summary and the records
    always agree."""

    def __init__(self) -> None:
        self.saving = False
        self.pending = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.saving:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def __enter__(self) -> None:
        self.saving = True

    def __exit__(self, *exc: object) -> None:
        self.saving = False
        if self.pending and exc[0] is None:
            raise KeyboardInterrupt
