"""A label checked by rollouts: a decision keeps its label only where rollouts see the loss too.

Why: the evaluator judges positions well and the differences between the plays of one position
less well (docs/evaluator.md, "Ranking plays"). A label rests on the largest of many such
differences, the best play's lead over the play made, and that maximum is overstated: on the 207
decisions the evaluator labelled in 40 `hard` games, it said they lost 0.155 of a chance on
average, rollouts from the true position 0.058, and a quarter of them really lost the 0.10 of a
mistake; 88% said a jack should have been spent (``experiments/label_check.py``). So the two
plays are rolled out, paired (the same worlds and random streams for both), by ``hard`` on the
compiled engine from worlds dealt from the mover's own view, and the label is read again from
the rollouts' loss. Up to 4 players the other hands are dealt as the expert reads them from
their recent plays (a `hard` player keeps the cards it had no use for, so a hand dealt uniformly from the
unseen cards is stronger than the real one): on those 207 labels, the check kept 74 labels of
which 46% were true, the check with the reading 49 of which 59% were true, their mean true loss
0.151 instead of 0.120 (with the jack costs of ``evaluator.moves``, 38 of 109, 63% true). The
worlds' random streams come from the move's place in the record, so the same record gets the
same labels every time.

Without the compiled engine (the ``fast`` extra) the evaluator's labels stand alone.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from ..actions import DEAD
from ..bots import available_bots
from ..state import GameState

if TYPE_CHECKING:
    from ..bots.reading import HandReader

CHECK_WORLDS: Final = 256
"""Worlds a labelled decision is rolled out in: the loss to about +-0.03 (one standard error)."""

READING_TURNS: Final = 8
"""The other seats' plays the check reads their hands from, as the expert does (``bots.EXPERT``)."""

READING_PLAYERS: Final = 4
"""The tables whose checks deal the other hands with the reading: where it was measured (at 2, 3
and 4 players more of the labels it keeps are true: ``experiments/label_check.py``)."""

CHECKED_LABELS: Final = frozenset({"mistake", "blunder", "missed block"})
"""The labels a check may take back; a missed win is a fact of the rules, not an estimate."""


def new_reader() -> HandReader:
    """The expert's reading of the other hands, as the check deals them."""
    from ..bots.reading import HandReader

    return HandReader(READING_TURNS, margin=0.0)


def can_check() -> bool:
    """Whether labels are checked here (the compiled engine is installed)."""
    return "pimc" in available_bots()


def rollout_loss(
    state: GameState,
    seat: int,
    best: int,
    played: int,
    worlds: int,
    index: int,
    *,
    reading: bool | None = None,
    reader: HandReader | None = None,
) -> float | None:
    """How much more of a chance ``best`` gives ``seat``'s side than ``played``, over ``worlds``
    paired rollouts of ``hard`` from the seat's view of ``state``; ``None`` where it cannot be
    measured (no compiled engine, or an action that is not a play). ``reading``: whether the other
    hands are dealt with the expert's reading of their plays
    (:class:`~sequence_game.bots.reading.HandReader`); by default at :data:`READING_PLAYERS` players.
    ``reader``: one to reuse (:func:`new_reader`), which remembers what it read of earlier plays: an
    analysis checks several labels of one game."""
    if not can_check() or worlds < 1 or best >= DEAD or played >= DEAD:
        return None
    from ..bots.determinize import Determinizer, dealt_rows
    from ..bots.pimc import kernel_groups
    from ..fast import pimc as fast_pimc
    from ..fast.compile import ensure_compiled

    for group in kernel_groups(leaf=False):
        ensure_compiled(group)
    rng = random.Random(1_000_003 * (index + 1))
    view = state.view(seat)
    if reading is None:
        reading = state.config.players <= READING_PLAYERS
    held = (reader or new_reader()).read(view) if reading else None
    rows = dealt_rows(Determinizer(view, rng, True, held), worlds)
    seeds = [rng.getrandbits(63) for _ in range(worlds)]
    side = seat % state.config.sides
    values = fast_pimc.candidate_values(rows, seeds, [best, played], side, policy=fast_pimc.INFERRING)
    return float((values[0] - values[1]).mean() / 2)  # a rollout is worth +-1, a chance (v + 1) / 2
