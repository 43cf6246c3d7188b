"""What an engine refusal costs, and what a legal move costs, with errors raised as data.

Why: the engine's errors carry their catalogue template and params (``sequence_game.messages``)
instead of a bare f-string; that must cost nothing on the legal path and little on the refusal
path (bots and environments call ``check`` and catch refusals). Run it against two trees to compare:

    python benchmarks/error_messages.py                  # this tree
    python benchmarks/error_messages.py OTHER/src        # another checkout's package

It prints microseconds per call (best of 5 rounds) of ``GameState.check`` refusing a move (each
kind of refusal in turn), of ``check`` accepting one, and of ``apply`` + ``undo``-free replays of
random games (the legal path).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

if len(sys.argv) > 1:
    sys.path.insert(0, str(Path(sys.argv[1]).resolve()))
else:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD, DRAW, REMOVE
from sequence_game.errors import IllegalActionError


def best_of(rounds: int, calls: int, body: Callable[[], None]) -> float:
    """Microseconds per call, the best of ``rounds`` runs of ``calls`` calls."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            body()
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


def main() -> None:
    import sequence_game

    print(f"package: {Path(sequence_game.__file__).parent}")
    state = new_game(GameConfig(players=2), seed=7)
    seat = state.current_seat
    refused = []
    for action in (0, 5, 44, REMOVE + 44, DEAD + 3, DRAW, 9999):
        for who in (seat, 1 - seat):
            try:
                state.check(action, who)
            except IllegalActionError:
                refused.append((action, who))
    legal = state.legal_actions()[0]
    index = [0]

    def refuse() -> None:
        action, who = refused[index[0] % len(refused)]
        index[0] += 1
        try:  # noqa: SIM105 - suppress() would add its own cost to what is measured
            state.check(action, who)
        except IllegalActionError:
            pass

    def accept() -> None:
        state.check(legal, seat)

    def playout() -> None:
        game = new_game(GameConfig(players=2), seed=index[0])
        index[0] += 1
        game.playout(random.Random(1))

    print(f"refusals: {len(refused)} kinds")
    print(f"check refused: {best_of(5, 20_000, refuse):.2f} us/call")
    print(f"check legal:   {best_of(5, 20_000, accept):.2f} us/call")
    print(f"random game:   {best_of(5, 20, playout):.0f} us/game")


if __name__ == "__main__":
    main()
