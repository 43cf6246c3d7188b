"""``sequence play``: a game in the terminal against bots or friends at one keyboard.

With no options on a terminal it opens the new-game screen (Enter starts you against one bot);
any game option starts that game at once. ``--plain`` (automatic when standard input is not a
terminal) plays through lines of text instead, for screen readers, pipes and scripts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..i18n import _
from ..record_messages import record_message

GAME_OPTIONS = ("players", "teams", "bots", "seed", "draw", "hotseat", "resume")


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help=_("play in the terminal against bots or at one keyboard (hot-seat)"),
        description=_(
            "Play Sequence in the terminal. Seat 0 is you; --bots sets the other seats "
            "(easy, medium, hard, expert, a bot name, or 'human' for a friend at this keyboard)."
        ),
    )
    p.add_argument(
        "--players", type=int, default=None, help=_("2, 3, 4, 6, 8, 9, 10 or 12 (R2.1); default 2")
    )
    p.add_argument(
        "--teams", type=int, default=None, help=_("number of sides where the count allows a choice (R2.2)")
    )
    p.add_argument(
        "--bots",
        nargs="+",
        metavar="LEVEL",
        default=None,
        help=_(
            "levels of seats 1, 2, ... (the last repeats): easy, medium, hard, expert, a bot name or human"
        ),
    )
    p.add_argument("--hotseat", action="store_true", help=_("every seat is a person at this keyboard"))
    p.add_argument(
        "--seed", type=int, default=None, help=_("seed of the deal and the bots (repeatable games)")
    )
    p.add_argument(
        "--draw", choices=("auto", "manual"), default=None, help=_("draw mode (R5.3); default auto")
    )
    p.add_argument(
        "--think", type=float, default=1.0, metavar="SECONDS", help=_("time a searching bot may think")
    )
    p.add_argument("--plain", action="store_true", help=_("line mode: text board, moves typed in notation"))
    p.add_argument("--replay", type=Path, metavar="FILE", help=_("step through a game record"))
    p.add_argument(
        "--resume",
        type=Path,
        metavar="FILE",
        help=_("continue a saved game record, with the people, bot levels and log it remembers"),
    )
    p.set_defaults(run=run)


def seat_levels(args: argparse.Namespace, players: int) -> list[str]:
    """Seat 0 is a person; ``--bots`` fills seats 1.. (its last entry repeats); ``--hotseat`` makes
    everyone a person."""
    from ..tui.controller import DEFAULT_LEVEL, HUMAN

    if args.hotseat:
        return [HUMAN] * players
    bots = [b.lower() for b in (args.bots or [DEFAULT_LEVEL])]
    return [HUMAN, *bots]


def build_session(args: argparse.Namespace) -> Any:
    """The game the options ask for; raises ``ValueError`` (with its rule) for a refused table."""
    from ..bots import Limit
    from ..tui.controller import GameSession

    limit = Limit(seconds=args.think)
    if args.resume is not None:
        seats = None
        if args.bots or args.hotseat:
            from ..records import load

            players = load(args.resume).get("players")
            seats = seat_levels(args, players if isinstance(players, int) else 2)
        return GameSession.resume(args.resume, seats, args.seed, limit)
    players = args.players
    if players is None:
        players = len(args.bots) + 1 if args.bots and len(args.bots) > 1 else 2
    return GameSession.new(
        players=players,
        teams=args.teams,
        draw=args.draw or "auto",
        seed=args.seed,
        seats=seat_levels(args, players)[:players],
        limit=limit,
    )


def run(args: argparse.Namespace) -> int:
    from ..records import RecordError

    plain = args.plain or not sys.stdin.isatty() or not sys.stdout.isatty()
    if args.replay is not None:
        if plain:
            from ..tui.plain import run_plain_replay

            return run_plain_replay(args.replay, sys.stdin, sys.stdout)
        return _run_app(args, replay=args.replay)
    wants_game = any(getattr(args, name) not in (None, False) for name in GAME_OPTIONS)
    if not (plain or wants_game):
        return _run_app(args)  # the new-game screen
    try:
        session = build_session(args)
    except (ValueError, RecordError) as exc:
        print(f"sequence play: {record_message(exc)}", file=sys.stderr)
        return 2
    if plain:
        from ..tui.plain import run_plain

        return run_plain(session, sys.stdin, sys.stdout)
    return _run_app(args, session=session)


def _run_app(args: argparse.Namespace, session: Any = None, replay: Path | None = None) -> int:
    try:
        from ..tui.app import SequenceApp
    except ImportError as exc:  # textual missing: the line mode still works
        print(
            "sequence play: "
            + _(
                "the terminal interface needs Textual ({error}); "
                "install it with pip install 'sequence-game[tui]', or use --plain"
            ).format(error=exc),
            file=sys.stderr,
        )
        return 2
    app = SequenceApp(session=session, replay=replay, think=args.think)
    app.run()
    return int(app.return_code or 0)
