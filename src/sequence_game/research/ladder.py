"""The benchmark's fixed ladder: the opponents, their budgets, the tables and the published seeds.

A rating means something only against a fixed yardstick. Version 1 of the protocol fixes four
rungs, each a bot of this project at a budget counted in simulations, never seconds (so a fast
machine and a slow one give the same games), two tables (2 players, and 4 players in 2 teams),
and the deals: deal ``k`` of a table is ``new_game(config, seed=deal_seed(table, k))`` and is
played twice, the agent's side first to act in one and second in the other (paired deals).

The rungs' ratings are fixed too (:data:`ANCHORS_FILE`), measured once by a round robin among
them (``sequence benchmark --calibrate``): a Bradley-Terry fit of all its games at once (no
order effects), put on OpenSkill's scale, where two players ``d`` apart in ``mu`` meet with the
chance ``1 / (1 + exp(-d / c))``, ``c = sqrt(2) * beta``, ``beta = 25 / 6``. An agent's rating
moves against them and they do not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from ..bots import EXPERT
from ..config import GameConfig

PROTOCOL: Final = "sequence-bench/1"
PROTOCOL_SEED: Final = 20_261_204
ANCHORS_FILE: Final = Path(__file__).with_name("ladder_v1.json")
LEAGUE_FILE: Final = Path(__file__).with_name("league_v1.json")
"""The levels' anchors at 3 sides (tables ``3p`` and ``3-teams``), outside the benchmark's
protocol: a Plackett-Luce fit of a 3-sided league, ``scripts/bot_league.py``."""


@dataclass(frozen=True)
class Rung:
    """One opponent of the ladder: a name, a bot spec and its simulation budget a move."""

    name: str
    spec: str
    simulations: int | None = None


RUNGS: Final = (
    Rung("random", "random"),
    Rung("greedy", "greedy"),
    Rung("hard", "heuristic"),
    Rung("expert@100", EXPERT, 100),
)
"""Weakest first. ``expert@100`` is the expert level's search at 100 rollouts a move."""

TABLES: Final = {"2p": GameConfig(players=2), "4p-teams": GameConfig(players=4, teams=2)}
"""The protocol's tables by name."""


def deal_seed(table: str, deal: int) -> int:
    """The published seed of deal ``deal`` (0, 1, ...) at ``table``."""
    return PROTOCOL_SEED * 1_000 + list(TABLES).index(table) * 100_000_000 + deal


def rung(name: str) -> Rung:
    for r in RUNGS:
        if r.name == name:
            return r
    raise ValueError(f"no rung {name!r}; the ladder: {', '.join(r.name for r in RUNGS)}")


@cache
def anchors() -> dict[str, dict[str, dict[str, float]]]:
    """Per table, per rung: its fixed ``mu`` and ``sigma``; empty before calibration."""
    if not ANCHORS_FILE.exists():
        return {}
    data: dict[str, Any] = json.loads(ANCHORS_FILE.read_text(encoding="utf-8"))
    ratings: dict[str, dict[str, dict[str, float]]] = data["ratings"]
    return ratings


@cache
def league_anchors() -> dict[str, dict[str, dict[str, float]]]:
    """Per 3-sided table (``3p``, ``3-teams``), per rung: its fixed ``mu`` and ``sigma`` on the
    ladder's scale (:data:`LEAGUE_FILE`); empty when the file is absent."""
    if not LEAGUE_FILE.exists():
        return {}
    data: dict[str, Any] = json.loads(LEAGUE_FILE.read_text(encoding="utf-8"))
    ratings: dict[str, dict[str, dict[str, float]]] = data["ratings"]
    return ratings
