"""Errors raised at the engine's boundary; both are ``ValueError`` so callers can catch either.

Each keeps its English text as before (``str(exc)`` is ``"R5.2: e4 already holds a chip"``) and,
when raised with a :class:`~sequence_game.messages.Message`, that message's ``template`` and
``params``, so an interface words it in the player's language without reading the English back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .messages import Message


class MessageError(ValueError):
    """A ``ValueError`` whose ``message`` may be a :class:`~sequence_game.messages.Message`."""

    message: str

    @property
    def template(self) -> str:
        """The catalogue template of the message (the English itself for a plain-text message)."""
        return self.message.template if isinstance(self.message, Message) else self.message

    @property
    def params(self) -> Mapping[str, Any]:
        """The values of the template's fields (none for a plain-text message)."""
        return self.message.params if isinstance(self.message, Message) else {}


class ConfigError(MessageError):
    """A game configuration that the rules do not allow (R2.1, R2.2)."""

    def __init__(self, message: str, rule: str = "R2.1") -> None:
        super().__init__(f"{rule}: {message}")  # the data stays in .message: messages.message_of
        self.rule = rule
        self.message = message


class IllegalActionError(MessageError):
    """An action that breaks a rule; ``rule`` names it (``"R5.2"``)."""

    def __init__(self, rule: str, message: str, action: object = None) -> None:
        super().__init__(f"{rule}: {message}")  # the data stays in .message: messages.message_of
        self.rule = rule
        self.message = message
        self.action = action
