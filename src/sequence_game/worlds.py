"""Determinization: full game states consistent with one seat's view, for search over hidden
information (Information-Set MCTS). A bot that searches sampled worlds never holds the true state,
so it cannot peek.

The unseen cards are the 104 minus the seat's own hand and every face-up discard; they lie in the
other hands and the draw pile. After a reshuffle (R5.4) the draw pile is made only of the known
reshuffled cards not drawn since, so the sampled pile is taken from those.

>>> from sequence_game import GameConfig, new_game
>>> import random
>>> state = new_game(GameConfig(players=2), seed=3)
>>> world = sample_world(state.view(0), random.Random(0))
>>> world.view(0) == state.view(0), world.hand(1) == state.hand(1)
(True, False)
"""

from __future__ import annotations

import random
from collections import Counter

from .board import CELLS_OF_CARD, COUNTER_START, COUNTER_STEP, cells_of
from .cards import FULL_DECK, Card, is_jack
from .state import GameState, Termination
from .views import PlayerView


def unseen_cards(view: PlayerView) -> Counter[Card]:
    """The multiset of cards the seat cannot see: other hands plus the draw pile."""
    unseen = Counter(FULL_DECK)
    unseen.subtract(view.hand)
    for pile in view.discards:
        unseen.subtract(pile)
    return +unseen


def sample_world(view: PlayerView, rng: random.Random) -> GameState:
    """A full state that gives back ``view`` for its seat, with the hidden cards dealt at random.

    The sampled state has no ``initial_deck`` (the deal is unknown) and its own reshuffle seed.
    """
    unseen = unseen_cards(view)
    pool = list(unseen.elements())
    if view.reshuffles:
        # The pile holds only reshuffled cards: take it from those still unseen.
        candidates = list((Counter(view.reshuffle_pool) & unseen).elements())
        if len(candidates) < view.deck_size:  # cannot happen for a view of a real game
            candidates = pool
        rng.shuffle(candidates)
        deck = candidates[: view.deck_size]
        rest = unseen - Counter(deck)
        others = list(rest.elements())
    else:
        rng.shuffle(pool)
        deck = pool[: view.deck_size]
        others = pool[view.deck_size :]
    rng.shuffle(others)
    hands: list[list[Card]] = []
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(others[at : at + size])
            at += size
    return _build(view, hands, deck, rng.getrandbits(63))


def _build(view: PlayerView, hands: list[list[Card]], deck: list[Card], seed: int) -> GameState:
    config = view.config
    state = GameState.__new__(GameState)
    state.config = config
    state.dealer = -1
    state.initial_deck = ()
    state._n = config.players
    state._sides = config.sides
    state._need = config.sequences_to_win
    state._manual = config.draw == "manual"
    state._chips = list(view.chips)
    occ = 0
    counters = []
    for mask in view.chips:
        occ |= mask
        counter = COUNTER_START
        for cell in cells_of(mask):
            counter += COUNTER_STEP[cell]
        counters.append(counter)
    state._counters = counters
    state._occ = occ
    state._open = [
        None if is_jack(c) else tuple(x for x in CELLS_OF_CARD[c] if not occ >> x & 1) for c in range(52)
    ]
    state._locked = view.locked
    state._seqs = [list(w) for w in view.sequence_windows]
    state._hands = hands
    state._deck = list(deck)  # order is random already; the top is the end
    state._discards = [list(pile) for pile in view.discards]
    state._seat = view.seat_to_play
    state._dead_done = view.dead_card_exchanged
    state._turn = view.turn
    state._owed = list(view.owed_draws)
    owed_turn, prev_player, last = view.manual_draw_order
    state._owed_turn = list(owed_turn)
    state._prev_player = list(prev_player)
    state._last_player = last[0]
    state._penalty = list(view.penalty_due)
    state._stuck_run = view.stuck_run
    state._winner = view.winner
    state._end = Termination(view.termination) if view.termination else None
    state._history = list(view.history)
    state._reshuffle_seed = seed
    state._reshuffle_source = None
    state._reshuffles = view.reshuffles
    state._reshuffle_pool = view.reshuffle_pool
    state._drawn_since = list(view.drawn_since_reshuffle)
    return state
