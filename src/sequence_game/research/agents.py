"""How an agent enters the benchmark: a bot of this project, a Python callable, or a program in
any language that speaks JSON lines on its standard input and output.

Every agent answers one question: given what one seat sees (its view) and its legal actions
(the action ids of ``docs/environment.md``), which action? One agent object plays one seat of
one game; a team's seats get one object each and must not share what they see (R6.1).

**Python.** ``python:package.module:factory`` names a callable ``factory(seat, seed)`` that
returns either an object with ``act(view, legal) -> int`` (and, if it wants to hear how the game
ended, ``close(winner)``) or a plain function ``(view, legal) -> int``; ``view`` is a
:class:`~sequence_game.views.PlayerView`.

**JSON lines.** ``cmd:COMMAND`` starts ``COMMAND`` (split as a shell would, run without a shell)
once per seat of each game, and writes one JSON object a line to it:

- ``{"type": "start", "seat": 0, "players": 2, "teams": 2, "seed": 7}`` when the game starts;
- ``{"type": "act", "view": {...}, "legal": [12, 57, ...]}``: the program answers with one line,
  ``{"action": 57}``; ``view`` is :meth:`PlayerView.to_dict` plus ``history``, the public events;
- ``{"type": "end", "winner": 1}`` (``null`` for a drawn game); then standard input closes.

An answer that is late, malformed or not among ``legal`` stops the benchmark with an
:class:`AgentError` that says which game, seat and turn, so a broken agent is never scored as a
weak one.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..bots import make_bot
from ..bots.base import Limit
from ..cards import card_name
from ..views import PlayerView


class AgentError(RuntimeError):
    """An agent broke the protocol: no answer in time, a malformed answer, an illegal action."""


class Agent(Protocol):
    """One seat's player for one game."""

    def act(self, view: PlayerView, legal: Sequence[int]) -> int: ...

    def close(self, winner: int | None) -> None: ...


@dataclass(frozen=True)
class AgentSpec:
    """How to build an agent for a seat: the text given on the command line, and its kind."""

    text: str
    kind: str
    target: str
    simulations: int | None = None

    @property
    def label(self) -> str:
        return self.text if self.simulations is None else f"{self.text}@{self.simulations}"

    def build(self, seat: int, seed: int, players: int, teams: int, timeout: float = 60.0) -> Agent:
        if self.kind == "bot":
            return BotAgent(self.target, seed, self.simulations)
        if self.kind == "python":
            return PythonAgent(_load_factory(self.target), seat, seed)
        return ProcessAgent(self.target, seat, seed, players, teams, timeout)


def parse_agent(text: str, simulations: int | None = None) -> AgentSpec:
    """``bot:SPEC`` (or just a bot spec or level), ``python:module:factory`` or ``cmd:COMMAND``."""
    text = text.strip()
    if text.startswith("python:"):
        target = text.removeprefix("python:")
        if target.count(":") != 1 or not all(target.split(":")):
            raise ValueError(f"{text!r}: write python:package.module:factory")
        return AgentSpec(text, "python", target, simulations)
    if text.startswith("cmd:"):
        command = text.removeprefix("cmd:").strip()
        if not command:
            raise ValueError("cmd: needs a command to run")
        return AgentSpec(text, "process", command, simulations)
    spec = text.removeprefix("bot:")
    make_bot(spec, seed=0)  # refuses an unknown bot or option now, not in the first game
    return AgentSpec(text, "bot", spec, simulations)


class BotAgent:
    """A bot of this project at a fixed simulation budget (``None``: the bot's own default)."""

    def __init__(self, spec: str, seed: int, simulations: int | None) -> None:
        self.bot = make_bot(spec, seed=seed)
        self.limit = Limit(simulations=simulations) if simulations is not None else None

    def act(self, view: PlayerView, legal: Sequence[int]) -> int:
        return int(self.bot.select_action(view, self.limit))

    def close(self, winner: int | None) -> None:
        pass


def _load_factory(target: str) -> Callable[..., Any]:
    module_name, attr = target.split(":")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as ``python -m`` does: agents in the current folder import
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import {module_name!r}: {exc}") from None
    factory: Callable[..., Any] | None = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise ValueError(f"{module_name}.{attr} is not a callable")
    return factory


class PythonAgent:
    """A callable's agent: an object with ``act`` or a function of ``(view, legal)``."""

    def __init__(self, factory: Callable[..., Any], seat: int, seed: int) -> None:
        made = factory(seat, seed)
        self.fn: Callable[[PlayerView, Sequence[int]], Any] = made.act if hasattr(made, "act") else made
        if not callable(self.fn):
            raise AgentError("the factory returned neither a function nor an object with act()")
        self.made = made

    def act(self, view: PlayerView, legal: Sequence[int]) -> int:
        return int(self.fn(view, legal))

    def close(self, winner: int | None) -> None:
        close = getattr(self.made, "close", None)
        if callable(close):  # an agent object's own clean-up (a function has none)
            close(winner)


def view_message(view: PlayerView) -> dict[str, Any]:
    """The view as a JSON-lines agent reads it: ``to_dict`` and the public history."""
    message = view.to_dict()
    history: list[dict[str, Any]] = []
    for event in view.history:
        if event[0] >= 0:
            seat, action, card = event
            history.append({"seat": seat, "action": action, "card": card_name(card) if card >= 0 else None})
        else:
            history.append({"event": -event[0], "value": event[1] if len(event) > 1 else None})
    message["history"] = history
    return message


class ProcessAgent:
    """A program speaking JSON lines, one process a seat a game."""

    def __init__(self, command: str, seat: int, seed: int, players: int, teams: int, timeout: float) -> None:
        self.timeout = timeout
        self.seat = seat
        try:
            self.proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise AgentError(f"cannot start {command!r}: {exc}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._send({"type": "start", "seat": seat, "players": players, "teams": teams, "seed": seed})

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise AgentError(f"seat {self.seat}: the agent's program has exited") from None

    def act(self, view: PlayerView, legal: Sequence[int]) -> int:
        self._send({"type": "act", "view": view_message(view), "legal": list(legal)})
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise AgentError(f"seat {self.seat}: no answer within {self.timeout:g} s") from None
        if line is None:
            raise AgentError(f"seat {self.seat}: the agent's program exited without answering")
        try:
            answer = json.loads(line)
            action = answer["action"]
        except (ValueError, KeyError, TypeError):
            raise AgentError(
                f'seat {self.seat}: expected {{"action": id}}, got {line.strip()[:80]!r}'
            ) from None
        if not isinstance(action, int) or isinstance(action, bool):
            raise AgentError(f"seat {self.seat}: the action must be an integer id, got {action!r}")
        return action

    def close(self, winner: int | None) -> None:
        try:
            self._send({"type": "end", "winner": winner})
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except (AgentError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
