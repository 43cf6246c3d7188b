"""The analysis as text for a terminal: one line a move, then each side's account."""

from __future__ import annotations

from .game import GameAnalysis, MoveAnalysis


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def move_line(m: MoveAnalysis) -> str:
    """One move: who, what, chances before and after, the draw and its luck, the bot's play, label."""
    parts = [f"{m.index:4d} seat {m.seat} (side {m.side}) {m.move:<12}"]
    parts.append(f"{_pct(m.before)} -> {_pct(m.after)}")
    if m.drawn is not None:
        parts.append(f"drew {m.drawn} {100 * m.luck:+5.1f}")
    else:
        parts.append(" " * 13)
    if m.decision and m.best is not None and m.best != m.move:
        parts.append(f"best {m.best} ({_pct(m.best_chance or 0.0).strip()})")
    if m.label:
        parts.append(f"[{m.label}, -{100 * m.loss:.1f}]")
    return "  ".join(parts)


def format_text(analysis: GameAnalysis) -> str:
    """The whole report: moves, the side accounts, the largest swings."""
    header = f"{'idx':>4} {'mover':<27}before -> after   draw  luck"
    lines = [f"{header}   (chances of the mover's side, from its own view)"]
    lines += [move_line(m) for m in analysis.moves]
    lines.append("")
    if analysis.over:
        lines.append("result: drawn" if analysis.winner is None else f"result: side {analysis.winner} wins")
    else:
        lines.append("result: game not over")
    for s in analysis.sides_summary:
        acc = "-" if s.accuracy is None else f"{s.accuracy:.0f}%"
        labels = ", ".join(f"{n} {k}" for k, n in sorted(s.labels.items())) or "no labelled moves"
        lines.append(
            f"side {s.side}: accuracy {acc} over {s.decisions_made} decisions; {labels}; "
            f"start {_pct(s.start).strip()} + decisions {100 * s.decisions:+.1f} + luck {100 * s.luck:+.1f} "
            f"+ others {100 * s.others:+.1f} = result {_pct(s.result).strip()}"
        )
    swings = ", ".join(
        f"#{m.index} {m.move} ({'decision' if m.loss >= abs(m.luck) else 'draw'} "
        f"{-100 * m.loss if m.loss >= abs(m.luck) else 100 * m.luck:+.1f})"
        for m in analysis.swings()
    )
    lines.append(f"largest swings: {swings}")
    lines.append(f"analysed in {analysis.seconds:.1f} s")
    return "\n".join(lines)
