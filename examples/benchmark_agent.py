"""A benchmark agent in the two forms ``sequence benchmark`` accepts (docs/benchmark.md).

As a Python callable::

    sequence benchmark python:examples.benchmark_agent:make --games 20

As a program speaking JSON lines (the same agent; any language can do this)::

    sequence benchmark "cmd:python examples/benchmark_agent.py" --games 20

It plays a one-ply rule: complete a sequence if it can, else put a chip next to its own chips,
else the first legal action. A baseline to copy, not a strong player.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

NEIGHBOURS = [
    [
        r * 10 + c
        for r in range(max(0, cell // 10 - 1), min(10, cell // 10 + 2))
        for c in range(max(0, cell % 10 - 1), min(10, cell % 10 + 2))
        if r * 10 + c != cell
    ]
    for cell in range(100)
]


def choose(board: Sequence[int | None], side: int, legal: Sequence[int]) -> int:
    """Action ids 0-199 put a chip on cell ``id % 100``; prefer the cell with most own neighbours."""
    best, best_score = legal[0], -1
    for action in legal:
        if action >= 200:
            continue
        cell = action % 100
        score = sum(board[n] == side for n in NEIGHBOURS[cell]) * 2 - (action >= 100)  # keep jacks
        if score > best_score:
            best, best_score = action, score
    return best


class Neighbourly:
    """The Python form: ``act(view, legal)`` with the project's ``PlayerView``."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat

    def act(self, view: Any, legal: Sequence[int]) -> int:
        board = [view.chip_at(c) for c in range(100)]
        return choose(board, view.side, legal)


def make(seat: int, seed: int) -> Neighbourly:
    return Neighbourly(seat, seed)


def main() -> None:
    """The JSON-lines form: one message a line in, one answer a line out for each ``act``."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "act":
            view = message["view"]
            action = choose(view["board"], view["side"], message["legal"])
            print(json.dumps({"action": action}), flush=True)
        elif message["type"] == "end":
            break


if __name__ == "__main__":
    main()
