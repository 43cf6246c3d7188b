"""The post-game analysis as the terminal shows it: a move's label and swing, each side's account,
and a small chart of the winning chances over the game (``docs/analysis.md``, ``docs/terminal.md``).

The chart is drawn here rather than with Textual's ``Sparkline``: that widget stretches its data
between the data's own minimum and maximum, so a game whose chances stayed between 40% and 60%
would look like wild swings; chances need a fixed 0-100% scale, columns that line up across the
sides, and marks for the labelled moves and the current step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from ..analysis import GameAnalysis, MoveAnalysis
from ..analysis.report import label_word
from ..i18n import _, card_short, ngettext, notation_label
from .controller import SIDE_LETTERS, side_name

#: Eight heights of bar: a chance of 0-12.5% draws the lowest, 87.5-100% the full block.
BARS = "▁▂▃▄▅▆▇█"
#: Each side's colour as text (the chips' colours, readable on a dark background).
SIDE_TEXT_STYLES = ("bold #6f9bff", "bold #3fbf62", "bold #ff6b5f")
#: The chart's mark for each label, as in the PNG chart of ``sequence analyze --chart``.
LABEL_MARKS = {"missed win": "x", "missed block": "x", "blunder": "v", "mistake": "o"}
#: How a label is written in the move line: the worse, the louder.
LABEL_STYLES = {
    "missed win": "bold reverse #ff6b5f",
    "missed block": "bold reverse #ff6b5f",
    "blunder": "bold #ff6b5f",
    "mistake": "bold #ffd75f",
}


def label_count(label: str, n: int) -> str:
    """``2 blunders``, ``1 missed win``: a label counted, in the player's language."""
    if label == "missed win":
        text = ngettext("{n} missed win", "{n} missed wins", n)
    elif label == "missed block":
        text = ngettext("{n} missed block", "{n} missed blocks", n)
    elif label == "blunder":
        text = ngettext("{n} blunder", "{n} blunders", n)
    elif label == "mistake":
        text = ngettext("{n} mistake", "{n} mistakes", n)
    else:
        text = f"{{n}} {label}"
    return text.format(n=n)


def percent(chance: float) -> str:
    return f"{chance * 100:.0f}%"


def points(change: float, digits: int = 0) -> str:
    """A change of chance in percentage points, signed (``-17``, ``+5``; ``+0.6`` with a digit)."""
    return f"{change * 100:+.{digits}f}"


def move_line(move: MoveAnalysis) -> Text:
    """One analysed move, in the symbols the rest of the screen uses (``7♥ e4``, not ``7h@e4``): the
    mover, its swing (before -> after, with the loss), the label, the mover's best plays ranked by
    chance, and the draw with its luck."""
    text = Text()
    text.append(f"{SIDE_LETTERS[move.side]} ", style=SIDE_TEXT_STYLES[move.side])
    text.append(f"{notation_label(move.move)}: {percent(move.before)} -> {percent(move.after)}")
    if move.loss >= 0.005:
        text.append(f" ({points(-move.loss)})")
    if move.label:
        text.append(" ")
        text.append(label_word(move.label), style=LABEL_STYLES.get(move.label, "bold"))
    if not move.decision:
        text.append(" " + _("(no choice)"), style="dim")
    if move.decision and move.alternatives:
        plays = ", ".join(f"{notation_label(a.move)} {percent(a.chance)}" for a in move.alternatives)
        text.append("\n  " + _("best: {plays}").format(plays=plays))
    if move.drawn is not None:
        text.append(
            "\n  "
            + _("drew {card}: luck {points} -> {chance}").format(
                card=card_short(move.drawn), points=points(move.luck), chance=percent(move.after_draw)
            )
        )
    return text


def summary_text(analysis: GameAnalysis, step_of: Callable[[int], int | None]) -> Text:
    """Each side's accuracy, luck and labels, then the largest swings by replay step."""
    text = Text()
    for side in analysis.sides_summary:
        text.append(f"{SIDE_LETTERS[side.side]} ", style=SIDE_TEXT_STYLES[side.side])
        accuracy = "-" if side.accuracy is None else f"{side.accuracy:.0f}%"
        added = "-" if side.added is None else points(side.added, 1)
        text.append(
            _(
                "{side}: accuracy {accuracy}, decisions {added} a move, luck {points}, "
                "luck-adjusted result {result}"
            ).format(
                side=side_name(side.side),
                accuracy=accuracy,
                added=added,
                points=points(side.luck if side.luck_known is None else side.luck_known),
                result=percent(side.adjusted)
                + ("" if side.adjusted_error is None else f" ±{100 * side.adjusted_error:.0f}"),
            )
        )
        if side.labels:
            counts = ", ".join(label_count(label, n) for label, n in sorted(side.labels.items()))
            text.append(f"; {counts}")
        text.append("\n")
    swings = []
    for m in analysis.swings():
        step = step_of(m.index)
        what = _("luck {points}").format(points=points(m.luck)) if abs(m.luck) > m.loss else points(-m.loss)
        swings.append(f"{step if step is not None else '?'} ({SIDE_LETTERS[m.side]} {what})")
    if swings:
        text.append(_("Largest swings at steps {steps}").format(steps=", ".join(swings)))
    return text


def chart_columns(moves: Sequence[MoveAnalysis], width: int) -> list[list[MoveAnalysis]]:
    """The moves split into at most ``width`` consecutive columns of (nearly) equal size."""
    n = len(moves)
    if n == 0 or width <= 0:
        return []
    cols = min(n, width)
    return [list(moves[c * n // cols : (c + 1) * n // cols]) for c in range(cols)]


def chart_text(analysis: GameAnalysis, width: int, current: int | None = None) -> Text:
    """One line a side, its winning chance (after its own moves and draws, from its own view) over
    the game on a fixed 0-100% scale, then a line marking the labelled moves (x missed win or
    block, v blunder, o mistake); the column holding move ``current`` is shown reversed."""
    columns = chart_columns(analysis.moves, width - 2)
    text = Text()
    for side in range(analysis.sides):
        text.append(f"{SIDE_LETTERS[side]} ", style=SIDE_TEXT_STYLES[side])
        chance: float | None = None
        for column in columns:
            for m in column:
                if m.side == side:
                    chance = m.after_draw
            bar = " " if chance is None else BARS[min(len(BARS) - 1, int(chance * len(BARS)))]
            style = SIDE_TEXT_STYLES[side]
            if current is not None and any(m.index == current for m in column):
                style += " reverse"
            text.append(bar, style=style)
        text.append("\n")
    text.append("  ")
    for column in columns:
        labelled = [m for m in column if m.label]
        worst = min(labelled, key=lambda m: "xvo".index(LABEL_MARKS[m.label or "mistake"]), default=None)
        style = "reverse" if current is not None and any(m.index == current for m in column) else ""
        if worst is None:
            text.append(" ", style=style)
        else:
            text.append(
                LABEL_MARKS[worst.label or "mistake"], style=f"{SIDE_TEXT_STYLES[worst.side]} {style}"
            )
    return text


class ChanceChart(Widget):
    """The winning-chance chart (:func:`chart_text`), as wide as its container."""

    DEFAULT_CSS = """
    ChanceChart { height: auto; }
    """

    current: reactive[int | None] = reactive(None)
    """The record index of the move the replay shows."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.analysis: GameAnalysis | None = None

    def show(self, analysis: GameAnalysis) -> None:
        self.analysis = analysis
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 0 if self.analysis is None else self.analysis.sides + 1

    def render(self) -> Text:
        if self.analysis is None:
            return Text()
        return chart_text(self.analysis, self.size.width, self.current)
