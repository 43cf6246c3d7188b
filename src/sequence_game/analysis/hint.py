"""A hint: the expert's play for a seat's own view, explained by the evaluator.

Why not the evaluator's own best play: played move after move, it wins 44.8% against ``hard``
(800 games, ``experiments/hint_strength.py``): it ranks the plays of one position poorly
(docs/evaluator.md, "Ranking plays"), above all where a jack could be spent. The expert's search,
given a short time, plays far better, and the evaluator still says what the play is worth and
why. Where the compiled engine is missing, or not loaded yet in this process (its first load
on a machine compiles for tens of seconds, started here in the background), the heuristic's
tuned ranking chooses: as a player, about as strong as ``hard``, in a few milliseconds.
A hint is never a random move.
"""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from typing import Final

from ..actions import DEAD
from ..bots import level_bot, level_spec, make_bot
from ..bots.base import Limit, forced_action
from ..bots.heuristic import HeuristicBot
from ..bots.ranking import ranked_plays
from ..evaluator.advice import Advice, advise
from ..evaluator.model import Evaluator
from ..views import PlayerView

HINT_SECONDS: Final = 0.3
"""The search's time for a hint: a person asking waits about this long."""

_warming: list[threading.Thread] = []
"""The background load of the search's kernels, once started (at most one a process)."""
_warming_lock = threading.Lock()


def hint(
    view: PlayerView, rng: random.Random, *, seconds: float = HINT_SECONDS, judge: Evaluator | None = None
) -> Advice:
    """The play to advise ``view``'s seat, with its chance and why (:func:`.advise`): a forced
    action as it is, else the expert's search for ``seconds`` where it is ready, else the tuned
    ranking's first play."""
    play, chosen_by = forced_action(view), "forced"
    if play is None:
        play, chosen_by = searched_play(view, rng, seconds), "expert"
    if play is None:
        plays = [a for a in view.legal_actions if a < DEAD]
        play = ranked_plays(view, plays)[0][0] if plays else HeuristicBot(seed=0).select_action(view)
        chosen_by = "ranking"
    return replace(advise(view, rng, judge, play=play), chosen_by=chosen_by)


def searched_play(view: PlayerView, rng: random.Random, seconds: float) -> int | None:
    """The expert's play within ``seconds``, or ``None`` where its compiled engine is not
    installed or not yet loaded in this process (:func:`warm_search` then loads it)."""
    if not warm_search(wait=0.0):
        return None
    bot = make_bot(level_spec("expert"), seed=rng.getrandbits(32))
    return bot.select_action(view, Limit(seconds=seconds))


def warm_search(wait: float | None = None) -> bool:
    """Start loading (on a machine's first run, compiling) the search's kernels in a daemon
    thread, once per process, and wait for it up to ``wait`` seconds (``None``: until done);
    whether hints are searched now. ``False`` at once where the compiled engine is missing."""
    from ..bots import is_warm, warm_up

    if level_bot("expert") != "pimc":
        return False
    if is_warm("pimc"):
        return True
    with _warming_lock:
        if not _warming:
            _warming.append(
                threading.Thread(target=warm_up, args=("pimc",), name="hint-warm-up", daemon=True)
            )
            _warming[0].start()
        thread = _warming[0]
    thread.join(wait)
    return is_warm("pimc")
