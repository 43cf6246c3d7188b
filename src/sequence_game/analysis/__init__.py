"""Post-game analysis on the evaluator: winning chances move by move from each mover's view, the
mover's best plays, labelled mistakes, and luck kept apart from skill (``docs/analysis.md``).

>>> from sequence_game import GameConfig, new_game
>>> from sequence_game.records import write_record
>>> state = new_game(GameConfig(players=2), seed=5)
>>> for _ in range(3):
...     state.apply(state.legal_actions()[0])
>>> result = analyze_record(write_record(state))
>>> [m.index for m in result.moves], all(0.0 <= m.after <= m.before <= 1.0 for m in result.moves)
([0, 1, 2], True)
"""

from __future__ import annotations

from .game import (
    BLUNDER,
    CURVE_SIDE,
    MISSED,
    MISTAKE,
    Alternative,
    AnalysisError,
    Budget,
    GameAnalysis,
    MoveAnalysis,
    SideSummary,
    analyze_record,
    blocking_plays,
    label_of,
    winning_plays,
)
from .report import format_text

__all__ = [
    "BLUNDER",
    "CURVE_SIDE",
    "MISSED",
    "MISTAKE",
    "Alternative",
    "AnalysisError",
    "Budget",
    "GameAnalysis",
    "MoveAnalysis",
    "SideSummary",
    "analyze_record",
    "blocking_plays",
    "format_text",
    "label_of",
    "winning_plays",
]
