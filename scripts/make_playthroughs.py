"""Regenerate tests/fixtures/playthroughs/ (review the diff: it shows every change in behaviour).

python scripts/make_playthroughs.py
"""

from __future__ import annotations

from pathlib import Path

from sequence_game import GameConfig
from sequence_game.playthrough import playthrough

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "playthroughs"

CASES = {
    "two-players": (GameConfig(players=2), 1),
    "three-players": (GameConfig(players=3), 2),
    "four-players-manual": (GameConfig(players=4, draw="manual"), 3),
    "twelve-players-three-teams": (GameConfig(players=12, teams=3), 4),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (config, seed) in CASES.items():
        (OUT / f"{name}.txt").write_text(playthrough(config, seed))
        print("wrote", name)


if __name__ == "__main__":
    main()
