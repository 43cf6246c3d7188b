"""Tools for testing the engine and anything built on it.

:func:`position` sets up a position directly (as python-chess's ``Board.set_piece_at`` does), and
:func:`check_api` plays random games checking the engine's invariants after every action, after
OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test``.

>>> from sequence_game import GameConfig
>>> check_api(GameConfig(players=3), games=2, seed=1) > 0
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace

from .actions import DEAD, DISCARD, DRAW, NUM_ACTIONS
from .board import CELLS_OF_CARD, CORNERS, LINES, PLAYABLE, parse_cell
from .cards import FULL_DECK, Card, parse_card
from .config import GameConfig
from .errors import IllegalActionError
from .state import GameState, new_game
from .worlds import _build


class InvariantError(AssertionError):
    """An engine invariant failed during :func:`check_api`."""


def _cards(cards: Iterable[Card | str]) -> list[Card]:
    return [parse_card(c) if isinstance(c, str) else c for c in cards]


def _cells(cells: Iterable[int | str]) -> list[int]:
    return [parse_cell(c) if isinstance(c, str) else c for c in cells]


def position(
    config: GameConfig,
    chips: Mapping[int, Iterable[int | str]] | None = None,
    hands: Mapping[int, Iterable[Card | str]] | None = None,
    *,
    seat: int = 0,
    deck: Iterable[Card | str] | None = None,
    sequences: Mapping[int, Iterable[int]] | None = None,
    discards: Mapping[int, Iterable[Card | str]] | None = None,
) -> GameState:
    """A position with the given chips per side (cells or names like ``"e4"``), hands per seat
    (cards or codes) and seat to play. Unlisted hands are empty; ``deck`` (top card first) defaults
    to every other card in a fixed order. ``sequences`` gives completed windows per side (locked).
    ``discards`` gives face-up discard piles per seat, oldest first (with an empty ``deck``, the
    next draw reshuffles them, R5.4).

    >>> from sequence_game import GameConfig
    >>> s = position(GameConfig(), {0: ["b1", "c1"]}, {0: ["7h"], 1: ["jd"]})
    >>> s.chip_at(11), s.hand(0), s.current_seat
    (0, [21], 0)
    """
    chips = chips or {}
    hands = hands or {}
    masks = [0] * config.sides
    for side, cells in chips.items():
        for cell in _cells(cells):
            if not PLAYABLE >> cell & 1:
                raise ValueError(f"cell {cell} cannot hold a chip")
            masks[side] |= 1 << cell
    all_hands = [_cards(hands.get(s, ())) for s in range(config.players)]
    piles = [_cards((discards or {}).get(s, ())) for s in range(config.players)]
    remaining = Counter(FULL_DECK)
    for cards in all_hands + piles:
        remaining.subtract(cards)
    if deck is not None:
        pile = _cards(deck)
        remaining.subtract(pile)
        if any(v != 0 for v in remaining.values()):
            raise ValueError("hands, discards and deck must hold the 104 cards exactly")
    else:
        if any(v < 0 for v in remaining.values()):
            raise ValueError("a card appears more than twice in the hands and discards")
        pile = sorted(remaining.elements())
    windows = [list(sequences.get(s, ())) if sequences else [] for s in range(config.sides)]
    locked = 0
    for side_windows in windows:
        for w in side_windows:
            locked |= LINES[w] & ~CORNERS
    view = replace(
        new_game(config, seed=0).view(0),
        seat=seat,
        chips=tuple(masks),
        locked=locked,
        sequence_windows=tuple(tuple(w) for w in windows),
        hand_sizes=tuple(len(h) for h in all_hands),
        deck_size=len(pile),
        discards=tuple(tuple(pile) for pile in piles),
        current_seat=seat,
        seat_to_play=seat,
        penalty_due=(),
        history=(),
    )
    built = _build(view, all_hands, pile[::-1], 0)
    built.initial_deck = ()
    return built


def _check_state(state: GameState) -> None:
    n = state.players
    cards: Counter[Card] = Counter()
    for seat in range(n):
        cards.update(state._hands[seat])
        cards.update(state._discards[seat])
    cards.update(state._deck)
    if cards != Counter(FULL_DECK):
        raise InvariantError("the 104 cards are not all accounted for")
    occ = 0
    for side in range(state.config.sides):
        mask = state.chips(side)
        if mask & occ:
            raise InvariantError("two chips on one cell")
        occ |= mask
    if occ != state.occupied:
        raise InvariantError("occupied mask out of step with chips")
    if occ & CORNERS:
        raise InvariantError("a chip on a corner")
    if state.locked & ~occ:
        raise InvariantError("a locked cell without a chip")
    for side in range(state.config.sides):
        windows = state._seqs[side]
        for i, a in enumerate(windows):
            if LINES[a] & ~(state.chips(side) | CORNERS):
                raise InvariantError("a declared sequence is broken")
            for b in windows[i + 1 :]:
                if (LINES[a] & LINES[b]).bit_count() > 1:
                    raise InvariantError("two sequences share more than one space (R3.3)")
    for card in range(52):
        open_cells = state._open[card]
        if open_cells is not None:
            expected = tuple(c for c in CELLS_OF_CARD[card] if not occ >> c & 1)
            if tuple(sorted(open_cells)) != expected:
                raise InvariantError(f"open cells of card {card} out of step")


def check_api(config: GameConfig, games: int = 5, seed: int = 0, max_turns: int = 400) -> int:
    """Play ``games`` random games and check every invariant after each action; returns the number
    of states checked. Raises :class:`InvariantError` on the first failure."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        state = new_game(config, rng=rng)
        while not state.is_terminal() and state.turn < max_turns:
            seats = state.seats_to_act()
            if not seats:
                raise InvariantError("no seat may act in a game that is not over")
            seat = seats[int(rng.random() * len(seats))]
            acts = state.legal_actions(seat)
            if not acts or acts != sorted(set(acts)):
                raise InvariantError(f"legal actions empty or unsorted for seat {seat}: {acts}")
            mask = state.legal_action_mask(seat)
            if len(mask) != NUM_ACTIONS or [a for a in range(NUM_ACTIONS) if mask[a]] != acts:
                raise InvariantError("mask disagrees with legal actions")
            illegal = int(rng.random() * NUM_ACTIONS)
            if illegal not in acts:
                before = state.copy()
                try:
                    state.apply(illegal, seat)
                except IllegalActionError:
                    pass
                else:
                    raise InvariantError(f"illegal action {illegal} accepted")
                if before.view(seat) != state.view(seat):
                    raise InvariantError("a refused action changed the state")
            locked = state.locked
            dead = [a for a in acts if DEAD <= a < DISCARD]
            action = (dead or acts)[int(rng.random() * len(dead or acts))]
            if rng.random() < 0.05 and config.team_size >= 2 and not state.penalty_due and action != DRAW:
                state.call_table_talk(int(rng.random() * config.sides))
                continue
            state.apply(action, seat)
            if state.locked & locked != locked:
                raise InvariantError("a locked chip left the board")
            _check_state(state)
            checked += 1
    return checked
