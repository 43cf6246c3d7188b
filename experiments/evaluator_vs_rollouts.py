"""The evaluator against the rollout analysis it replaces, on the same positions (docs/evaluator.md).

    .venv/bin/sequence tournament --bots "heuristic,heuristic(inference=True)" --games 100 \\
        --seed 777 --records /tmp/recs100 --workers 2 --quiet
    git worktree add --detach /tmp/oldtree 30313d2      # the rollout analysis, before the evaluator
    .venv/bin/python experiments/evaluator_vs_rollouts.py /tmp/recs100 --old /tmp/oldtree/src \\
        --workers 2 --json experiments/results/evaluator_vs_rollouts.json

For every move of every record, the mover's chance before it from the mover's view: the old
analysis's ``before`` (``sequence analyze --json`` at its defaults, run from ``--old``), and the
evaluator's chance of the same view. Both are scored against the mover's side's result (Brier),
overall and by third of the game (the move's turn over the game's length), with the seconds the
old analysis took.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from sequence_game.actions import DEAD, WILD
from sequence_game.evaluator.model import Evaluator
from sequence_game.records import replay
from sequence_game.state import EV_PENALTY, EV_RESHUFFLE, GameState


def old_analysis(path: Path, old: Path) -> tuple[dict[str, object], float]:
    """The old analysis of one record, kept beside it (``NAME.old.json``) so a rerun reuses it."""
    kept = path.with_suffix(".old.json")
    if kept.exists():
        saved = json.loads(kept.read_text())
        return saved["analysis"], saved["seconds"]
    env = {**os.environ, "PYTHONPATH": str(old)}
    start = time.time()
    out = subprocess.run(
        [sys.executable, "-m", "sequence_game", "analyze", "--json", str(path)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    analysis, seconds = json.loads(out.stdout), time.time() - start
    kept.write_text(json.dumps({"analysis": analysis, "seconds": seconds}))
    return analysis, seconds


def evaluator_chances(
    path: Path, judge: Evaluator
) -> tuple[dict[int, float], dict[int, int], int | None, int]:
    """By record index (as the analysis counts them), the mover's chance before the action and
    its side; the winner; the record's length."""
    final = replay(path).state
    piles = iter([tuple(ev[1]) for ev in final.history if ev[0] == EV_RESHUFFLE])
    state = GameState(final.config, final.initial_deck, final.dealer, reshuffle_source=lambda _: next(piles))
    chances: dict[int, float] = {}
    sides: dict[int, int] = {}
    index = 0
    for event in final.history:
        kind = event[0]
        if kind >= 0:
            seat, action, card = event
            chances[index] = judge.chance(state.view(seat))
            sides[index] = seat % state.config.sides
            state.apply(action, seat, card=card if WILD <= action < DEAD else None)
            index += 1
        elif kind == EV_PENALTY:
            state.call_table_talk(event[1])
            index += 1
        elif kind == EV_RESHUFFLE:
            index += 1
    outcome = final.outcome()
    return chances, sides, None if outcome is None else outcome.winner, index


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--old", type=Path, required=True, help="src folder of the old tree")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    files = sorted(f for f in args.records.glob("*.json") if not f.name.endswith(".old.json"))
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        olds = list(pool.map(lambda f: old_analysis(f, args.old), files))
    judge = Evaluator.load()
    rows = []  # (stage, old, new, result)
    for f, (old, seconds) in zip(files, olds, strict=True):
        new, sides, winner, length = evaluator_chances(f, judge)
        moves = old["moves"]  # type: ignore[index]
        for m in moves:  # type: ignore[attr-defined]
            i = m["index"]
            result = 0.5 if winner is None else float(winner == sides[i])
            rows.append((min(2, 3 * i // max(length, 1)), m["before"], new[i], result, seconds))
    arr = np.array(rows)
    out: dict[str, object] = {"games": len(files), "positions": len(rows)}
    for name, col in (("rollouts", 1), ("evaluator", 2)):
        brier = [float(np.mean((arr[arr[:, 0] == s, col] - arr[arr[:, 0] == s, 3]) ** 2)) for s in range(3)]
        out[name] = {"brier": float(np.mean((arr[:, col] - arr[:, 3]) ** 2)), "brier_by_third": brier}
    out["old_seconds_a_game"] = float(np.mean([s for _, s in olds]))
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
