"""Which per-game figure of the analysis could show skill? Five of them on the same games.

    python experiments/analysis_skill.py --games 200 --seed 1000 --workers 2 --repeat 0 --dump GAMES.jsonl
    python experiments/skill_figures.py GAMES.jsonl --json experiments/results/skill_figures.json

Reads the per-game dump of ``analysis_skill.py`` (two bots on paired deals, then the mirror
match) and compares the two bots game by game on each figure, first bot minus second (seat 0
minus seat 1 in the mirror), each per side of a game:

- ``result``: the game's result (1 won, 0.5 drawn, 0 lost): what any figure competes with;
- ``luck_adjusted``: the analysis' luck-adjusted result (``result - luck + luck_against``);
- ``loss_vs_best``: minus the mean loss per decision against the evaluator's best play (the
  analysis' decisions figure; higher is better here, so that every figure points the same way);
- ``added``: the mean, per decision, of the chance after the play (the draw averaged) minus the
  mover's own-view chance before it (the chance of the position when ``hard``, which the
  evaluator assumes, plays it): what the decision added to the expectation;
- ``opponent_view``: the mean, per decision, of minus the change the move made to the other
  side's own-view chance (judged by the seats that did not choose it, who see their own hands).

For each: the mean difference with its 95% interval over all the games, the per-game
signal-to-noise (mean over standard deviation: a figure separates ``n`` games at 95% when it is
above about ``1.96 / sqrt(n)``, 0.28 for 50), and how many disjoint samples of ``--sample``
games separate.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any

FIGURES = ("result", "luck_adjusted", "loss_vs_best", "added", "opponent_view")


def side_figures(seat: dict[str, Any], side: int, sides: int) -> dict[str, float]:
    """One seat's figures in one game (two-player games: a seat is a side)."""
    summary = seat["summary"]
    added: list[float] = []
    opponent: list[float] = []
    for _loss, _label, _accuracy, after, expected, before_all, after_all in seat["moves"]:
        if before_all is None:  # the game's first move: no chance before it was computed
            continue
        added.append(after - expected)
        others = [after_all[k] - before_all[k] for k in range(len(after_all)) if k % sides != side]
        opponent.append(-statistics.fmean(others))
    losses = [m[0] for m in seat["moves"]]
    return {
        "result": summary["result"],
        "luck_adjusted": summary["result"] - summary["luck"] + summary["luck_against"],
        "loss_vs_best": -statistics.fmean(losses) if losses else 0.0,
        "added": statistics.fmean(added) if added else 0.0,
        "opponent_view": statistics.fmean(opponent) if opponent else 0.0,
    }


def interval(values: list[float]) -> dict[str, float]:
    mean = statistics.fmean(values)
    sd = statistics.stdev(values)
    half = 1.96 * sd / math.sqrt(len(values))
    return {
        "mean": round(mean, 4),
        "low": round(mean - half, 4),
        "high": round(mean + half, 4),
        "snr_per_game": round(mean / sd, 3) if sd else math.inf,
    }


def compare(games: list[dict[str, Any]], first: str, mirror: bool, sample: int) -> dict[str, Any]:
    diffs: dict[str, list[float]] = {name: [] for name in FIGURES}
    for game in games:
        seats = game["seats"]
        figures = [side_figures(s, k, 2) for k, s in enumerate(seats)]
        i = 0 if mirror else [s["bot"] for s in seats].index(first)
        for name in FIGURES:
            diffs[name].append(figures[i][name] - figures[1 - i][name])
    out: dict[str, Any] = {"games": len(games)}
    for name, values in diffs.items():
        row = interval(values)
        samples = [interval(values[k : k + sample]) for k in range(0, len(values) - sample + 1, sample)]
        row["samples"] = len(samples)
        row["samples_separating"] = sum(1 for s in samples if not s["low"] <= 0.0 <= s["high"])
        out[name] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", type=Path, help="analysis_skill.py --dump output")
    parser.add_argument("--sample", type=int, default=50, help="games in one sample")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    games = [json.loads(line) for line in args.dump.read_text(encoding="utf-8").splitlines() if line]
    matches = [g for g in games if g["bots"][0] != g["bots"][1]]
    mirrors = [g for g in games if g["bots"][0] == g["bots"][1]]
    out: dict[str, Any] = {}
    if matches:
        first = matches[0]["bots"][0]
        out["bots"] = {"first": first, **compare(matches, first, False, args.sample)}
    if mirrors:
        out["mirror"] = compare(mirrors, mirrors[0]["bots"][0], True, args.sample)
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
