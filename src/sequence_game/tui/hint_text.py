"""A hint's words: the expert's play for the seat and why, in the player's language."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import LAYOUT, cell_name
from ..cards import Card, card_label, is_one_eyed, is_two_eyed
from ..i18n import _
from ..views import PlayerView
from .controller import side_name

if TYPE_CHECKING:
    from ..evaluator.advice import Advice


#: Seconds the first hint of a session waits for the search's compiled kernels to load (about one
#: from the disk cache); on a machine's first run, when they compile for longer, the hint comes
#: from the tuned ranking meanwhile (:mod:`sequence_game.analysis.hint`).
WARM_WAIT = 3.0


def explained_hint(view: PlayerView, moment: int) -> tuple[int, str] | None:
    """The hint for ``view`` (the expert's play) and why, in the evaluator's words
    (:mod:`sequence_game.analysis.hint`); ``None`` without NumPy, when the caller asks the
    strongest bot instead."""
    try:
        from ..analysis.hint import hint, warm_search
    except ImportError:
        return None
    warm_search(wait=WARM_WAIT)
    advice = hint(view, random.Random(moment))
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


@dataclass(frozen=True)
class HintParts:
    """What a hint shows: the card to pick, the space to put the cursor on, and its sentence."""

    card: Card | None
    cell: int | None
    text: str


def hint_parts(action: int, hand: Sequence[Card]) -> HintParts:
    """The hint for ``action`` from a seat holding ``hand``: a jack's play names the jack held."""
    card: Card | None
    cell: int | None = None
    if action < WILD:
        card, cell = LAYOUT[action], action
    elif action < DEAD:
        jacks = [c for c in hand if (is_two_eyed(c) if action < REMOVE else is_one_eyed(c))]
        card, cell = (jacks[0] if jacks else None), action % 100
    elif action < DISCARD:
        card = action - DEAD
    elif action < DRAW:
        card = action - DISCARD
    else:
        card = None
    text = ""
    if action == DRAW:
        text = _("Hint: draw a card (d).")
    elif cell is not None and card is not None:
        if REMOVE <= action < DEAD:
            sentence = _("Hint: {card}, remove the chip on {cell}. Enter does it.")
        else:
            sentence = _("Hint: {card}, play it on {cell}. Enter does it.")
        text = sentence.format(card=card_label(card), cell=cell_name(cell))
    elif card is not None:
        if action < DISCARD:
            sentence = _("Hint: exchange the dead {card} (x).")
        else:
            sentence = _("Hint: discard {card} (x).")
        text = sentence.format(card=card_label(card))
    return HintParts(card, cell if card is not None else None, text)
