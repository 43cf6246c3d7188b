"""Agents for the benchmark's tests, importable as ``tests.research.agents_for_tests:NAME``."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from typing import Any, ClassVar


def first_legal(seat: int, seed: int) -> Any:
    """A plain function: always the lowest legal action id."""
    return lambda view, legal: min(legal)


def illegal(seat: int, seed: int) -> Any:
    """Plays an occupied or impossible cell: the harness must refuse it with the rule."""
    return lambda view, legal: next(a for a in range(400) if a not in legal)


class Counting:
    """An agent object with ``close``, to check that the harness tells it the game ended."""

    closed: ClassVar[list[int | None]] = []

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat

    def act(self, view: Any, legal: Sequence[int]) -> int:
        return max(legal)

    def close(self, winner: int | None) -> None:
        Counting.closed.append(winner)


def main() -> None:
    """A JSON-lines agent that misbehaves as ``argv[1]`` says: ``garbage``, ``exit``, ``silent``."""
    how = sys.argv[1]
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] != "act":
            continue
        if how == "garbage":
            print("not json", flush=True)
        elif how == "exit":
            return
        elif how == "silent":
            time.sleep(3600)
        else:
            print(json.dumps({"action": message["legal"][0]}), flush=True)


if __name__ == "__main__":
    main()
