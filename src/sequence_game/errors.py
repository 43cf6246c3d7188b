"""Errors raised at the engine's boundary; both are ``ValueError`` so callers can catch either."""

from __future__ import annotations


class ConfigError(ValueError):
    """A game configuration that the rules do not allow (R2.1, R2.2)."""

    def __init__(self, message: str, rule: str = "R2.1") -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class IllegalActionError(ValueError):
    """An action that breaks a rule; ``rule`` names it (``"R5.2"``)."""

    def __init__(self, rule: str, message: str, action: object = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.action = action
