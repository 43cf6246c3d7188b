"""Helpers for the terminal-interface tests: fixed deals and a pilot that waits for the bots."""

from __future__ import annotations

from collections import Counter

from sequence_game import GameConfig, new_game
from sequence_game.cards import FULL_DECK, parse_card
from sequence_game.state import GameState


def stacked_game(
    hands: list[list[str]], players: int = 2, draw: str = "auto", teams: int | None = None
) -> GameState:
    """A game whose first ``len(hands[i])`` cards dealt to seat i are the given ones (seat 0 starts)."""
    config = GameConfig(players=players, teams=teams, draw=draw)  # type: ignore[arg-type]
    size = config.hand_size
    wanted = [[parse_card(c) for c in h] for h in hands]
    rest = Counter(FULL_DECK)
    for h in wanted:
        rest.subtract(h)
    pool = sorted(rest.elements())
    dealt = []
    for seat in range(players):
        h = wanted[seat] if seat < len(wanted) else []
        while len(h) < size:
            card = next(
                c
                for c in pool
                if c not in (parse_card("jd"), parse_card("jc"), parse_card("jh"), parse_card("js"))
            )
            pool.remove(card)
            h = [*h, card]
        dealt.append(h)
    deck = [dealt[seat][i] for i in range(size) for seat in range(players)]
    deck += pool
    # dealer = last seat, so seat 0 is dealt first and plays first (R4.3)
    return new_game(config, dealer=players - 1, deck=deck)


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait until no bot is thinking and the screen has caught up."""
    app = pilot.app
    for _ in range(500):
        await pilot.pause()
        if not any(w.is_running for w in app.workers):
            await pilot.pause()
            if not any(w.is_running for w in app.workers):
                return
        await app.workers.wait_for_complete()
    raise AssertionError("bots never settled")
