"""The greedy rollout policy: a fast, board-only move for whichever seat acts in a sampled world
(the plies of the searches' greedy rollouts, and the planner's fallback)."""

from __future__ import annotations

import math
import random
from typing import Final

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import CORNERS, LINES, LINES_THROUGH
from ..cards import TWO_EYED
from ..state import GameState
from .evaluation import GREEDY, Board, action_gain, threats

__all__ = ["GREEDY_PLAYOUT", "greedy_policy"]

GREEDY_PLAYOUT: Final = GREEDY
"""The weights the greedy rollouts score placements with."""


def greedy_policy(world: GameState, rng: random.Random) -> int:
    """A fast greedy move for the seat to act in a sampled world (R5.1 dead cards exchanged): the
    placement with the best :data:`GREEDY_PLAYOUT` board gain; a two-eyed jack only completes our
    four or fills an opponent's missing space, a one-eyed jack only breaks an opponent's four."""
    if world._penalty or world._manual:  # a table-talk fine (R6.1): rare in search
        return world.random_action(rng)
    seat = world._seat
    side = seat % world._sides
    hand = world._hands[seat]
    opens = world._open
    cells: set[int] = set()
    wild = remove = False
    for card in hand:
        open_cells = opens[card]
        if open_cells:
            cells.update(open_cells)
        elif open_cells is None:
            if card in TWO_EYED:
                wild = True
            else:
                remove = True
        elif not world._dead_done:
            return DEAD + card
    board = Board.of_state(world)
    best = -math.inf
    choice = -1
    if cells:
        best, choice = _best_placement(board, side, cells)
    if wild or remove:
        sides = world._sides
        for t in range(sides):
            fours = threats(board, t)
            if not fours:
                continue
            for cell in fours:
                if t == side:
                    if cell in cells:
                        return cell
                    if wild:
                        return WILD + cell
                if t != side:
                    if wild:
                        g = action_gain(board, side, cell, GREEDY_PLAYOUT) - 20.0
                        if g > best:
                            best, choice = g, WILD + cell
                    if remove:
                        for w in LINES_THROUGH[cell]:
                            target = LINES[w] & board.chips[t] & ~board.locked
                            if target and (LINES[w] & ~(board.chips[t] | CORNERS)) == 1 << cell:
                                victim = (target & -target).bit_length() - 1
                                g = action_gain(board, side, REMOVE + victim, GREEDY_PLAYOUT) - 15.0
                                if g > best:
                                    best, choice = g, REMOVE + victim
    if choice < 0:
        acts = world.legal_actions()
        if wild or remove:
            plays = [a for a in acts if a < DEAD]
            if plays:
                return plays[int(rng.random() * len(plays))]
        return min((a for a in acts if DISCARD <= a < DRAW), default=acts[0])
    return choice


def _best_placement(board: Board, side: int, cells: set[int]) -> tuple[float, int]:
    """The placement among ``cells`` with the best :data:`GREEDY_PLAYOUT` board gain, and that
    gain (as :func:`action_gain`, summed per window once: the rollouts' hot loop)."""
    chips = board.chips
    occ = board.occupied
    forbidden = board.forbidden
    line, block = GREEDY_PLAYOUT.line, GREEDY_PLAYOUT.block
    sides = range(len(chips))
    own = [chips[t] | CORNERS for t in sides]
    others = [occ & ~chips[t] for t in sides]
    cache: dict[int, float] = {}
    best = -math.inf
    choice = -1
    for cell in sorted(cells):
        g = 0.0
        for w in LINES_THROUGH[cell]:
            v = cache.get(w)
            if v is None:
                mask = LINES[w]
                v = 0.0
                for t in sides:
                    if mask & others[t] or forbidden[t] >> w & 1:
                        continue
                    n = (mask & own[t]).bit_count()
                    v += line[n + 1] - line[n] if t == side else block[n]
                cache[w] = v
            g += v
        if g > best:
            best, choice = g, cell
    return best, choice
