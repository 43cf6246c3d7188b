"""Where the expert's time a move goes: cProfile of its searched moves against ``hard``.

    .venv/bin/python experiments/expert_profile.py --seconds 0.1 --games 3

Plays ``--games`` 2-player games of the expert (``bots.EXPERT``, seat 0) against ``hard`` on deals
100, 101, ... and profiles only the expert's moves: the mean worlds and rollouts a searched move,
the share of moves judged by leaves, and the functions by cumulative time (at 0.1 s: reading the
other hand, cut rollouts, judging their leaves). One move is played first, outside the profile, so
that compiling the kernels is not counted. Times depend on the machine's load; the split between
the parts is what this is for.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from sequence_game import GameConfig
from sequence_game.bots import EXPERT, make_bot
from sequence_game.bots.base import Limit
from sequence_game.bots.pimc import PimcBot
from sequence_game.bots.tournament import next_actor
from sequence_game.state import new_game


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=0.1, help="the expert's time a move")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--lines", type=int, default=30, help="functions to print")
    args = p.parse_args()
    limit = Limit(seconds=args.seconds)
    expert, hard = make_bot(EXPERT, 1), make_bot("heuristic", 2)
    assert isinstance(expert, PimcBot)
    warm = new_game(GameConfig(players=2), seed=99, dealer=1)
    expert.select_action(warm.view(0), limit)
    profile = cProfile.Profile()
    searched: list[tuple[int, int, bool]] = []
    for game in range(args.games):
        state = new_game(GameConfig(players=2), seed=100 + game, dealer=1)
        while not state.is_terminal():
            seat = next_actor(state)
            view = state.view(seat)
            if seat == 0:
                profile.enable()
                action = expert.select_action(view, limit)
                profile.disable()
                if expert.last_worlds:
                    searched.append((expert.last_worlds, expert.last_simulations, expert.last_leaves))
            else:
                action = hard.select_action(view, limit)
            state.apply(action, seat)
    n = max(1, len(searched))
    print(
        f"{len(searched)} searched moves: {sum(w for w, _, _ in searched) / n:.0f} worlds and "
        f"{sum(s for _, s, _ in searched) / n:.0f} rollouts a move, "
        f"{sum(leaf for _, _, leaf in searched) / n:.0%} judged by leaves"
    )
    pstats.Stats(profile).sort_stats("cumulative").print_stats(args.lines)


if __name__ == "__main__":
    main()
