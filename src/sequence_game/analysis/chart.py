"""A PNG chart of each side's winning chances over the game (needs the ``plot`` extra:
``pip install 'sequence-game[plot]'``)."""

from __future__ import annotations

from pathlib import Path

from .game import GameAnalysis

SIDE_COLOURS = ("tab:blue", "tab:green", "tab:red")  # blue, green, red sides (R1.4)
LABEL_MARKERS = {"missed win": "X", "missed block": "X", "blunder": "v", "mistake": "o"}


class ChartUnavailable(RuntimeError):
    """matplotlib is not installed."""


def write_chart(analysis: GameAnalysis, path: str | Path) -> None:
    """Each side's chance after each of its moves (its draw seen), from its own view; labelled
    moves are marked. Raises :class:`ChartUnavailable` without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ChartUnavailable("the chart needs matplotlib: pip install 'sequence-game[plot]'") from None
    fig, ax = plt.subplots(figsize=(10, 4), dpi=100)
    try:
        for side in range(analysis.sides):
            moves = [m for m in analysis.moves if m.side == side]
            colour = SIDE_COLOURS[side % len(SIDE_COLOURS)]
            xs = [m.index for m in moves]
            ax.plot(xs, [100 * m.after_draw for m in moves], color=colour, label=f"side {side}")
            for label, marker in LABEL_MARKERS.items():
                marked = [m for m in moves if m.label == label]
                if marked:
                    ax.scatter(
                        [m.index for m in marked],
                        [100 * m.after_draw for m in marked],
                        marker=marker,
                        color=colour,
                        s=60,
                        zorder=3,
                    )
        ax.set_ylim(0, 100)
        ax.set_xlabel("action")
        ax.set_ylabel("winning chance (%)")
        ax.set_title("Winning chances (each side's own view; x/v/o: missed, blunder, mistake)")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left")
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)
