"""How one bot loses to another: who makes the first sequence, jacks spent and kept, and how the
winning space looked at the loser's last turn (docs/research/bots-log.md, "The fourth pass").

    .venv/bin/python experiments/bot_losses.py --bot heuristic --vs greedy --deals 150 --seed 5000

Two-player games, each deal played with both seatings. Single process: a measurement to rerun, not
a test.
"""

from __future__ import annotations

import argparse
from collections import Counter

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD, REMOVE, WILD
from sequence_game.board import LAYOUT
from sequence_game.bots import Limit, make_bot
from sequence_game.bots.evaluation import Board, threats
from sequence_game.cards import ONE_EYED, TWO_EYED


def play(
    bot: str, vs: str, deal: int, bot_seat: int, stats: Counter[str], limit: Limit | None = None
) -> None:
    """One game; ``bot`` sits at ``bot_seat``, both bots given ``limit`` a move (each bot's own
    default where ``None``). Adds its counts to ``stats``."""
    state = new_game(GameConfig(players=2), seed=deal)
    players = [make_bot(bot, deal), make_bot(vs, deal)]
    if bot_seat == 1:
        players.reverse()
    first: str | None = None
    last_threats: set[int] = set()
    last_hand: list[int] = []
    final = -1
    while not state.is_terminal():
        seat = state.current_seat
        view = state.view(seat)
        action = players[seat].select_action(view, limit)
        who = "bot" if seat == bot_seat else "vs"
        if WILD <= action < REMOVE:
            stats[f"{who} two-eyed jacks spent"] += 1
        elif REMOVE <= action < DEAD:
            stats[f"{who} one-eyed jacks spent"] += 1
        if seat == bot_seat:
            last_threats = set(threats(Board.of_state(state), 1 - bot_seat))
            last_hand = list(view.hand)
        elif action < REMOVE:
            final = action if action < WILD else action - WILD
        before = sum(state.sequence_counts())
        state.apply(action, seat)
        if first is None and sum(state.sequence_counts()) > before:
            first = who
    outcome = state.outcome()
    assert outcome is not None
    winner = None if outcome.winner is None else "bot" if outcome.winner == bot_seat else "vs"
    stats["games"] += 1
    stats[f"won by {winner}"] += 1
    stats[f"first sequence by {first}, won by {winner}"] += 1
    for seat in (0, 1):
        who = "bot" if seat == bot_seat else "vs"
        stats[f"{who} two-eyed jacks kept at the end"] += sum(c in TWO_EYED for c in state.hand(seat))
        stats[f"{who} one-eyed jacks kept at the end"] += sum(c in ONE_EYED for c in state.hand(seat))
    if winner != "vs":
        return
    if final not in last_threats:
        stats["losses: winning space not a four's at our last turn"] += 1
        return
    n = len(last_threats)
    stats[f"losses: {min(n, 3)}{'+' if n >= 3 else ''} open four space(s) at our last turn"] += 1
    if n == 1:
        if LAYOUT[final] in last_hand:
            kind = "held its card"
        elif any(c in TWO_EYED for c in last_hand):
            kind = "held a two-eyed jack"
        elif any(c in ONE_EYED for c in last_hand):
            kind = "held a one-eyed jack"
        else:
            kind = "could not block"
        stats[f"losses to a single four: {kind}"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--vs", default="greedy")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5000, help="the first deal's seed")
    parser.add_argument(
        "--simulations", type=int, default=None, help="a search bot's rollouts a move (its time default else)"
    )
    args = parser.parse_args()
    limit = None if args.simulations is None else Limit(simulations=args.simulations)
    stats: Counter[str] = Counter()
    for deal in range(args.seed, args.seed + args.deals):
        for bot_seat in (0, 1):
            play(args.bot, args.vs, deal, bot_seat, stats, limit)
    for key in sorted(stats):
        print(f"{key}: {stats[key]}")


if __name__ == "__main__":
    main()
