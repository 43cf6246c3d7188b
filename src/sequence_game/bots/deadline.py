"""When a search must stop starting new work: the shared clock of the searches (``mcts``,
``pimc``, ``planner``).

>>> deadline_of(10.0, Limit(seconds=1.0))
10.96
"""

from __future__ import annotations

import math
from typing import Final

from .base import Limit

__all__ = ["SAFETY", "deadline_of"]

#: Stop this far before a time limit: the last simulation started before the deadline must end
#: within it (one evaluated world takes a few milliseconds; 5% of a limit is the allowance).
SAFETY: Final = 0.04


def deadline_of(start: float, limit: Limit) -> float:
    """When a search that started at ``start`` must stop starting new work: the time limit less
    :data:`SAFETY` of it, so that the whole move, preparation included, ends within 5%."""
    if limit.seconds is None:
        return math.inf
    return start + limit.seconds * (1.0 - SAFETY)
