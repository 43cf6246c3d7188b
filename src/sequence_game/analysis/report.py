"""The analysis as text for a terminal: one line a move (with the mover's best plays), then each
side's account and its luck-adjusted result.

The words are messages of the catalogue (docs/i18n.md), in the language the interface chose
(``sequence --lang da analyze``); the analysis itself (``GameAnalysis``, ``--json``) stays data,
its labels English keys.
"""

from __future__ import annotations

from ..i18n import N_, _
from .game import GameAnalysis, MoveAnalysis

#: Each label in words (the analysis keys them in English, ``docs/analysis.md``).
LABEL_WORDS = {
    "missed win": N_("missed win"),
    "missed block": N_("missed block"),
    "blunder": N_("blunder"),
    "mistake": N_("mistake"),
}


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _signed(x: float, width: int = 0) -> str:
    return f"{100 * x:+{width}.1f}"


def label_word(label: str) -> str:
    """A label in the active language ("blunder", "bommert", "error grave")."""
    return _(LABEL_WORDS[label]) if label in LABEL_WORDS else label


def alternatives_text(m: MoveAnalysis) -> str:
    """The mover's best plays with their chances: ``5h@e4 61.2%, kc@e7 55.0%``."""
    return ", ".join(f"{a.move} {_pct(a.chance).strip()}" for a in m.alternatives)


def move_line(m: MoveAnalysis) -> str:
    """One move: who, what, chances before and after, the draw and its luck, the label, and the
    mover's best plays ranked by chance."""
    who = _("seat {seat} (side {side})").format(seat=m.seat, side=m.side)
    parts = [f"{m.index:4d} {who} {m.move:<12}"]
    parts.append(f"{_pct(m.before)} -> {_pct(m.after)}")
    if m.drawn is not None:
        parts.append(_("drew {card} {luck}").format(card=m.drawn, luck=_signed(m.luck, 5)))
    else:
        parts.append(" " * 13)
    if m.label:
        lost = m.checked_loss if m.checked_loss is not None else m.loss  # what the label was read from
        parts.append(f"[{label_word(m.label)}, -{100 * lost:.1f}]")
    if m.decision and m.alternatives:
        parts.append(_("best: {plays}").format(plays=alternatives_text(m)))
    return "  ".join(parts)


def format_text(analysis: GameAnalysis) -> str:
    """The whole report: moves, the side accounts, the largest swings."""
    header = f"{_('idx'):>4} {_('mover'):<27}{_('before -> after   draw  luck')}"
    lines = [header + "   " + _("(chances of the mover's side, from its own view)")]
    lines.append(
        _(
            "The chances assume that every seat plays like the hard bot from here on (evaluator {version})."
        ).format(version=analysis.evaluator)
    )
    lines += [move_line(m) for m in analysis.moves]
    lines.append("")
    if analysis.over:
        if analysis.winner is None:
            lines.append(_("result: drawn"))
        else:
            lines.append(_("result: side {side} wins").format(side=analysis.winner))
    else:
        lines.append(_("result: game not over"))
    for s in analysis.sides_summary:
        acc = "-" if s.accuracy is None else f"{s.accuracy:.0f}%"
        labels = ", ".join(f"{n} {label_word(k)}" for k, n in sorted(s.labels.items())) or _(
            "no labelled moves"
        )
        lines.append(
            _(
                "side {side}: accuracy {accuracy} over {decisions} decisions; {labels}; start {start} "
                "+ decisions {decided} + luck {luck} + others {others} = result {result}"
            ).format(
                side=s.side,
                accuracy=acc,
                decisions=s.decisions_made,
                labels=labels,
                start=_pct(s.start).strip(),
                decided=_signed(s.decisions),
                luck=_signed(s.luck),
                others=_signed(s.others),
                result=_pct(s.result).strip(),
            )
        )
        if s.deal_known is not None and s.luck_known is not None and s.luck_known_against is not None:
            adjusted = _(
                "side {side}: luck-adjusted result {adjusted} ±{error} (result {result} - the deal's luck "
                "{deal} - own luck {luck} + the other side's luck {against}, every hand known; ±: the "
                "standard error the judge's misses leave)"
            )
            terms = {"deal": s.deal_known, "luck": s.luck_known, "against": s.luck_known_against}
        else:
            adjusted = _(
                "side {side}: luck-adjusted result {adjusted} (result {result} - own luck {luck} "
                "+ the other sides' luck {against})"
            )
            terms = {"luck": s.luck, "against": s.luck_against}
        lines.append(
            adjusted.format(
                side=s.side,
                adjusted=_pct(s.adjusted).strip(),
                result=_pct(s.result).strip(),
                error=_pct(s.adjusted_error or 0.0).strip(),
                **{name: _signed(value) for name, value in terms.items()},
            )
        )
        if s.added is not None:
            lines.append(
                _(
                    "side {side}: decisions {added} a move against the hard bot's "
                    "(the chance after each play less the chance before it)"
                ).format(side=s.side, added=_signed(s.added))
            )
    swings = ", ".join(
        f"#{m.index} {m.move} ({_('decision')} {_signed(-m.loss)})"
        if m.loss >= abs(m.luck)
        else f"#{m.index} {m.move} ({_('draw')} {_signed(m.luck)})"
        for m in analysis.swings()
    )
    lines.append(_("largest swings: {swings}").format(swings=swings))
    lines.append(_("analysed in {seconds} s").format(seconds=f"{analysis.seconds:.1f}"))
    return "\n".join(lines)
