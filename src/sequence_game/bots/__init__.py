"""Bots, from random to search over hidden information; :func:`make_bot` builds one by name."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, Limit, RandomBot

#: Bot constructors by name, weakest first; each takes ``seed``.
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (see :data:`BOTS`)."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None
    return factory(seed=seed)


__all__ = ["BOTS", "Bot", "Limit", "RandomBot", "make_bot"]
