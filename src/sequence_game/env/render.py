"""The text board of ``render_mode="ansi"``: what a spectator sees (no hidden hand).

>>> from sequence_game import GameConfig, new_game
>>> print(board_text(new_game(GameConfig(players=2), seed=1)).splitlines()[1])
0  **  2s  3s  4s  5s  6s  7s  8s  9s  **
"""

from __future__ import annotations

from ..actions import action_name
from ..board import COLUMN_LETTERS, CORNERS, SIZE, card_at
from ..config import SIDE_COLOURS
from ..state import EV_RESHUFFLE, GameState


def _cell_text(state: GameState, cell: int) -> str:
    """A chip as its colour's initial (capital when locked, R3.5), else the printed card."""
    if CORNERS >> cell & 1:
        return "**"
    side = state.chip_at(cell)
    if side is None:
        return card_at(cell)
    letter = SIDE_COLOURS[side][0]
    return (letter.upper() if state.locked >> cell & 1 else letter) + " "


def board_text(state: GameState) -> str:
    """The board, then one line each of score, turn and the last action."""
    lines = ["   " + "   ".join(COLUMN_LETTERS)]
    for row in range(SIZE):
        cells = "  ".join(_cell_text(state, row * SIZE + col) for col in range(SIZE))
        lines.append(f"{row}  {cells}".rstrip())
    counts = state.sequence_counts()
    lines.append(
        "sequences: "
        + ", ".join(f"{SIDE_COLOURS[s]} {counts[s]}" for s in range(state.config.sides))
        + f" (need {state.config.sequences_to_win})"
    )
    lines.append(f"turn {state.turn}, draw pile {state.deck_size}, hand sizes {state.hand_sizes()}")
    outcome = state.outcome()
    if outcome is not None:
        winner = "drawn" if outcome.winner is None else f"{SIDE_COLOURS[outcome.winner]} wins"
        lines.append(f"game over ({outcome.termination.value}): {winner}")
    else:
        seat = state.current_seat
        lines.append(f"to act: seat {seat} ({SIDE_COLOURS[state.side_of(seat)]})")
    last = next((e for e in reversed(state.history) if e[0] >= 0 or e[0] == EV_RESHUFFLE), None)
    if last is not None and last[0] >= 0:
        lines.append(f"last: seat {last[0]} {action_name(last[1])}")
    return "\n".join(lines)


def render(state: GameState, mode: str | None) -> str | None:
    """What an environment's ``render()`` gives: the text for ``"ansi"``, printed for ``"human"``
    (then ``None``), nothing without a render mode."""
    if mode is None:
        return None
    text = board_text(state)
    if mode == "human":
        print(text)
        return None
    return text
