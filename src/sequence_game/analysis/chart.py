"""A PNG chart of the winning chances over the game (needs the ``plot`` extra:
``pip install 'sequence-game[plot]'``).

One thick curve says who is ahead: side :data:`~.game.CURVE_SIDE`'s chance after every action,
from its own seats' views. Thin lines give each seat's own-view chance of its own side (in two-sided
games they mirror the thick one when both views agree; where they do not, a hand the other seat
cannot see is at work). Labelled moves are marked on the thick curve and named by their notation.
The words are the catalogue's (docs/i18n.md), in the language the command runs in.
"""

from __future__ import annotations

from pathlib import Path

from ..i18n import _
from .game import CURVE_SIDE, GameAnalysis
from .report import label_word

SIDE_COLOURS = ("tab:blue", "tab:green", "tab:red")  # blue, green, red sides (R1.4)
SEAT_STYLES = ("-", "--", ":", "-.")
LABEL_MARKERS = {"missed win": "X", "missed block": "X", "blunder": "v", "mistake": "o"}


class ChartUnavailable(RuntimeError):
    """matplotlib is not installed."""


def write_chart(analysis: GameAnalysis, path: str | Path) -> None:
    """Draw the chart to ``path`` (PNG). Raises :class:`ChartUnavailable` without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
    except ImportError:
        raise ChartUnavailable("the chart needs matplotlib: pip install 'sequence-game[plot]'") from None
    moves = analysis.moves
    xs = [m.index for m in moves]
    fig, ax = plt.subplots(figsize=(11, 4.5), dpi=100)
    try:
        for seat in range(analysis.players):
            side = seat % analysis.sides
            ax.plot(
                xs,
                [100 * m.chances[seat] for m in moves],
                color=SIDE_COLOURS[side % len(SIDE_COLOURS)],
                linestyle=SEAT_STYLES[(seat // analysis.sides) % len(SEAT_STYLES)],
                linewidth=1,
                alpha=0.6,
                label=_("seat {seat} (side {side}), its own view").format(seat=seat, side=side),
            )
        ax.plot(
            xs,
            [100 * m.ahead for m in moves],
            color="black",
            linewidth=2.2,
            label=_("side {side}'s chance (who is ahead)").format(side=CURVE_SIDE),
        )
        handles, _labels = ax.get_legend_handles_labels()
        by_marker: dict[str, list[str]] = {}
        for label, marker in LABEL_MARKERS.items():
            marked = [m for m in moves if m.label == label]
            if marked:
                by_marker.setdefault(marker, []).append(label_word(label))
            for m in marked:
                colour = SIDE_COLOURS[m.side % len(SIDE_COLOURS)]
                ax.scatter([m.index], [100 * m.ahead], marker=marker, color=colour, s=70, zorder=3)
                ax.annotate(
                    f"{m.index} {m.move}",
                    (m.index, 100 * m.ahead),
                    textcoords="offset points",
                    xytext=(0, 9 if m.side == CURVE_SIDE else -15),
                    ha="center",
                    fontsize=7,
                    color=colour,
                )
        for marker, words in by_marker.items():
            handles.append(
                Line2D(
                    [],
                    [],
                    color="grey",
                    marker=marker,
                    linestyle="none",
                    markersize=8,
                    label=" / ".join(words),
                )
            )
        ax.axhline(50, color="grey", linewidth=0.6, alpha=0.5)
        ax.set_ylim(0, 100)
        ax.set_xlim(min(xs, default=0) - 0.5, max(xs, default=0) + 0.5)
        ax.set_xlabel(_("action (index in the record)"))
        ax.set_ylabel(_("winning chance (%)"))
        ax.set_title(_("Winning chances after each action (marks: labelled moves, the mover's colour)"))
        ax.grid(alpha=0.3)
        ax.legend(handles=handles, loc="upper left", fontsize=8, ncol=2)
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)
