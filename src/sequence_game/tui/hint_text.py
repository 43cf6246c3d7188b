"""A hint's words: the evaluator's play for the seat and why, in the player's language."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..board import cell_name
from ..i18n import _
from ..views import PlayerView
from .controller import side_name

if TYPE_CHECKING:
    from ..evaluator.advice import Advice


def evaluator_hint(view: PlayerView, moment: int) -> tuple[int, str] | None:
    """The evaluator's play for ``view`` and why (docs/evaluator.md); ``None`` without NumPy,
    when the caller asks the strongest bot instead."""
    try:
        from ..evaluator.advice import advise
    except ImportError:
        return None
    advice = advise(view, random.Random(moment))
    return advice.action, hint_reason(advice)


def hint_reason(advice: Advice) -> str:
    """Why the hint's play, in the player's language, with its chance to win."""
    cells = ", ".join(cell_name(c) for c in advice.cells)
    if advice.reason == "wins":
        return _("It wins the game.")
    if advice.reason == "sequence":
        why = _("It completes a sequence.")
    elif advice.reason == "blocks" and advice.side is not None:
        why = _("It blocks {side} from five at {cells}.").format(side=side_name(advice.side), cells=cells)
    elif advice.reason == "threatens":
        why = _("It threatens five at {cells}.").format(cells=cells)
    else:
        why = _("It keeps your best chance.")
    return why + " " + _("{chance}% to win.").format(chance=round(100 * advice.chance))
