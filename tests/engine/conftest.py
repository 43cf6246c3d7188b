"""Shared helpers for the rule tests."""

from sequence_game import GameState
from sequence_game.board import parse_cell
from sequence_game.cards import parse_card


def cell(name: str) -> int:
    return parse_cell(name)


def card(code: str) -> int:
    return parse_card(code)


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything observable about a state, for 'changed nothing' checks."""
    return (
        tuple(state.view(s) for s in range(state.players)),
        tuple(tuple(state.hand(s)) for s in range(state.players)),
        state.deck_size,
        tuple(state.history),
    )
