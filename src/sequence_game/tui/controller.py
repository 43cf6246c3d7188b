"""A game at the terminal, independent of any widget: who sits where, the bots, the log, saving.

The Textual app and the plain line mode both drive a :class:`GameSession`; keeping the rules
bookkeeping here lets the tests check it without a screen and keeps the widgets thin.

>>> session = GameSession.new(players=2, seed=3, seats=["human", "easy"])
>>> session.seats[1].is_bot, session.seats[1].bot_name
(True, 'random')
>>> session.human_to_prompt() in (0, None)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD, action_name
from ..board import CELLS_OF_CARD, LAYOUT, cell_name
from ..bots import BOTS, LEVELS, Bot, Limit, make_bot
from ..cards import JC, JD, JH, JS, Card, card_label, is_one_eyed, is_two_eyed
from ..config import GameConfig
from ..errors import IllegalActionError
from ..records import RecordError, dumps, load, replay
from ..state import EV_LOST_DRAW, EV_PASS, EV_PENALTY, EV_RESHUFFLE, GameState, new_game

SIDE_NAMES = ("Blue", "Green", "Red")  # R1.4
SIDE_LETTERS = ("B", "G", "R")

#: Difficulty levels offered to players, weakest first, and the bot each would like to use.
DEFAULT_LEVEL = "medium"
HUMAN = "human"
#: How long a searching bot may think per move; cheap bots ignore it.
DEFAULT_LIMIT = Limit(seconds=1.0)


def bot_for_level(level: str) -> str:
    """The registered bot for a difficulty level or bot name.

    Bots are registered by another part of the project (``sequence_game.bots.BOTS``); a level whose
    bot is missing falls back to the next weaker level that exists, and finally to ``"random"``.
    """
    if level in BOTS:
        return level
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(level_choices())}")
    names = list(LEVELS)
    for weaker in reversed(names[: names.index(level) + 1]):
        if LEVELS[weaker] in BOTS:
            return LEVELS[weaker]
    return "random"


def level_choices() -> list[str]:
    """Every word ``--bots`` accepts: the levels, the registered bot names, and ``human``."""
    return [*LEVELS, *(name for name in BOTS if name not in LEVELS), HUMAN]


@dataclass(frozen=True)
class SeatInfo:
    """Who plays a seat: a person at this keyboard or a bot at some level."""

    seat: int
    side: int
    level: str
    """``"human"`` or the level asked for (``"easy"`` ... or a bot name)."""
    bot_name: str | None

    @property
    def is_bot(self) -> bool:
        return self.bot_name is not None

    @property
    def side_name(self) -> str:
        return SIDE_NAMES[self.side]

    def label(self, single_human: bool = False) -> str:
        """``Seat 0 you``, ``Seat 2`` (a person) or ``Seat 1 bot easy``."""
        if not self.is_bot:
            return f"Seat {self.seat} you" if single_human else f"Seat {self.seat}"
        return f"Seat {self.seat} bot {self.level}"


def make_seats(config: GameConfig, seats: Sequence[str] | None) -> list[SeatInfo]:
    """Seat 0 and every ``"human"`` entry are people; the rest are bots at their level.

    ``seats`` lists every seat; a shorter list is padded with its last entry (or the default
    level), so ``["human", "easy"]`` at a four-player table means one person and three easy bots.
    """
    wanted = list(seats) if seats else [HUMAN]
    if len(wanted) > config.players:
        raise ValueError(f"{len(wanted)} seats given for {config.players} players")
    if len(wanted) == 1:
        wanted.append(DEFAULT_LEVEL)
    while len(wanted) < config.players:
        wanted.append(wanted[-1])
    out = []
    for seat, level in enumerate(wanted[: config.players]):
        level = level.strip().lower()
        bot = None if level == HUMAN else bot_for_level(level)
        out.append(SeatInfo(seat, config.side_of(seat), level, bot))
    return out


def describe_card(card: Card) -> str:
    """A card with what it does: ``J♦ (two-eyed, wild)``."""
    if is_two_eyed(card):
        return f"{card_label(card)} (two-eyed jack: any open space)"
    if is_one_eyed(card):
        return f"{card_label(card)} (one-eyed jack: removes a chip)"
    return card_label(card)


class GameSession:
    """One game at this terminal: the state, the seats, their bots and a readable log."""

    def __init__(
        self,
        state: GameState,
        seats: Sequence[SeatInfo],
        *,
        seed: int | None = None,
        limit: Limit = DEFAULT_LIMIT,
    ) -> None:
        self.state = state
        self.seats = list(seats)
        self.seed = seed
        self.limit = limit
        rng = random.Random(seed)
        self.bots: dict[int, Bot] = {
            s.seat: make_bot(s.bot_name, seed=rng.getrandbits(32)) for s in self.seats if s.bot_name
        }
        self.log: list[str] = []
        self._seen = len(state.history)
        self._sequences = state.sequence_counts()

    # ------------------------------------------------------------- building

    @classmethod
    def new(
        cls,
        *,
        players: int = 2,
        teams: int | None = None,
        draw: str = "auto",
        seed: int | None = None,
        seats: Sequence[str] | None = None,
        limit: Limit = DEFAULT_LIMIT,
    ) -> GameSession:
        """Deal a new game; raises ``ConfigError`` (with its rule) for a table the rules refuse."""
        config = GameConfig(players=players, teams=teams, draw=draw)  # type: ignore[arg-type]
        session = cls(new_game(config, seed), make_seats(config, seats), seed=seed, limit=limit)
        session.log.append(
            f"New game: {players} players, {config.sides} sides, "
            f"{config.sequences_to_win} sequence{'s' if config.sequences_to_win > 1 else ''} to win "
            f"(R3.1), {draw} draw. Dealer: seat {session.state.dealer} (R4.1)."
        )
        session.log_turn()
        return session

    @classmethod
    def resume(
        cls,
        path: str | Path,
        seats: Sequence[str] | None = None,
        seed: int | None = None,
        limit: Limit = DEFAULT_LIMIT,
    ) -> GameSession:
        """Continue a saved game record; raises :class:`RecordError` if it is unreadable or illegal."""
        result = replay(Path(path), seed=seed)
        if not result.ok:
            where = f"action {result.index}" if result.index is not None else "its result"
            raise RecordError(f"{path}: {where} is illegal: {result.rule}: {result.error}")
        state = result.state
        session = cls(state, make_seats(state.config, seats), seed=seed, limit=limit)
        session.log.append(f"Resumed {Path(path).name} at turn {state.turn}.")
        session.log_turn()
        return session

    # ------------------------------------------------------------ questions

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if not s.is_bot]

    @property
    def single_human(self) -> bool:
        return len(self.humans) == 1

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat].is_bot

    def seat_label(self, seat: int) -> str:
        """``Seat 1 bot easy (Green)``: used in the log and the status panel."""
        info = self.seats[seat]
        return f"{info.label(self.single_human)} ({info.side_name})"

    def short_label(self, seat: int) -> str:
        """``you``, ``S1`` or ``S1 easy``: for the narrow side panel."""
        info = self.seats[seat]
        if not info.is_bot:
            return "you" if self.single_human else f"S{seat}"
        return f"S{seat} {info.level}"

    def human_draw_seats(self) -> list[int]:
        """People who owe a draw in manual-draw mode (R5.3)."""
        st = self.state
        return [s for s in self.humans if st.owes_draw(s) and DRAW in st.legal_actions(s)]

    def bot_to_move(self) -> int | None:
        """The bot seat that must act now, if any.

        In manual-draw mode a bot waits while a person still owes a draw, so that a quick bot never
        makes a person lose a draw (R5.3) before they could reach the Draw key.
        """
        st = self.state
        if st.is_terminal():
            return None
        seat = st.current_seat
        if not self.is_bot(seat):
            return None
        if not st.penalty_due and self.human_draw_seats():
            return None
        return seat

    def human_to_prompt(self) -> int | None:
        """The person the interface should ask next: one who owes a draw, else the seat to act."""
        st = self.state
        if st.is_terminal():
            return None
        if st.penalty_due:
            payer = st.penalty_due[0]
            return None if self.is_bot(payer) else payer
        draws = self.human_draw_seats()
        seat = st.current_seat
        if not self.is_bot(seat):
            return seat
        return draws[0] if draws else None

    def explain(self, action: int, seat: int, card: Card | None = None) -> str | None:
        """``None`` when legal, else the rule it breaks and why (``"R5.2: e4 already holds a chip"``)."""
        try:
            self.state.check(action, seat, card)
        except IllegalActionError as exc:
            return f"{exc.rule}: {exc.message}"
        return None

    def explain_cell(self, card: Card, cell: int, seat: int) -> str | None:
        """Why ``card`` cannot go to ``cell`` for ``seat`` (``None`` if it can)."""
        if is_two_eyed(card):
            return self.explain(WILD + cell, seat, card)
        if is_one_eyed(card):
            return self.explain(REMOVE + cell, seat, card)
        if LAYOUT[cell] != card:
            spaces = " and ".join(cell_name(c) for c in CELLS_OF_CARD[card])
            where = "a free corner" if LAYOUT[cell] < 0 else card_label(LAYOUT[cell])
            return f"R5.2: {cell_name(cell)} shows {where}, not {card_label(card)}; its spaces are {spaces}"
        return self.explain(cell, seat)

    def targets(self, card: Card, seat: int) -> dict[int, int]:
        """The cells ``card`` may be played to now, each with its action id."""
        legal = set(self.state.legal_actions(seat))
        if is_two_eyed(card):
            base = WILD
        elif is_one_eyed(card):
            base = REMOVE
        else:
            return {c: c for c in CELLS_OF_CARD[card] if c in legal}
        return {a - base: a for a in legal if base <= a < base + 100}

    def card_actions(self, card: Card, seat: int) -> list[int]:
        """Exchange (R5.1) or discard (R5.5, R6.1) actions open for ``card`` now."""
        legal = set(self.state.legal_actions(seat))
        return [a for a in (DEAD + card, DISCARD + card) if a in legal]

    # ------------------------------------------------------------- actions

    def apply(self, action: int, seat: int, card: Card | None = None) -> list[str]:
        """Apply a person's action (validated; raises :class:`IllegalActionError`), then any draws
        bots owe; returns the new log lines."""
        self.state.apply(action, seat, card=card)
        self._bot_draws()
        return self.log_turn()

    def bot_view(self, seat: int) -> Any:
        """What the bot of ``seat`` may see: only its own view."""
        return self.state.view(seat)

    def choose_bot_action(self, seat: int) -> int:
        """Ask the bot of ``seat`` for an action (may take a while: call it off the UI thread)."""
        return self.bots[seat].select_action(self.state.view(seat), self.limit)

    def apply_bot(self, seat: int, action: int) -> list[str]:
        """Apply a bot's chosen action; a buggy bot's illegal choice is replaced by a legal one."""
        try:
            self.state.apply(action, seat)
        except IllegalActionError as exc:
            self.log.append(f"{self.seat_label(seat)} chose an illegal action ({exc}); playing at random")
            self.state.apply(self.state.legal_actions(seat)[0], seat)
        self._bot_draws()
        return self.log_turn()

    def step_bots(self) -> list[str]:
        """Let bots act until a person must (synchronous; the plain mode uses it)."""
        lines: list[str] = []
        while (seat := self.bot_to_move()) is not None:
            lines += self.apply_bot(seat, self.choose_bot_action(seat))
        return lines

    def call_table_talk(self, side: int) -> list[str]:
        """The host upholds a table-talk call against ``side`` (R6.1)."""
        self.state.call_table_talk(side)
        return self.log_turn()

    def _bot_draws(self) -> None:
        """Bots draw as soon as they owe a draw (manual-draw mode, R5.3)."""
        st = self.state
        if st.config.draw != "manual" or st.penalty_due:
            return
        for seat in st.seats_to_act():
            if self.is_bot(seat) and seat != st.seat_to_play and st.owes_draw(seat):
                st.apply(DRAW, seat)

    # ----------------------------------------------------------------- log

    def log_turn(self) -> list[str]:
        """Turn the history since the last call into readable lines and add them to the log."""
        history = self.state.history
        lines = [self.describe(event) for event in history[self._seen :]]
        self._seen = len(history)
        counts = self.state.sequence_counts()
        need = self.state.config.sequences_to_win
        for side, (old, new) in enumerate(zip(self._sequences, counts, strict=True)):
            if new > old:
                lines.append(f"{SIDE_NAMES[side]} completes a sequence: {new} of {need} (R3.2)")
        self._sequences = counts
        if self.state.is_terminal():
            lines.append(self.result_text())
        self.log += lines
        return lines

    def describe(self, event: tuple[int, ...]) -> str:
        """One history event in words."""
        return describe_event(self.state, event, self.seat_label)

    def result_text(self) -> str:
        return result_text(self.state)

    def last_move_cell(self) -> int | None:
        """The cell of the most recent play, for highlighting."""
        return last_move_cell(self.state)

    # ---------------------------------------------------------------- save

    def record_text(self) -> str:
        return dumps(self.state)

    def save(self, path: str | Path) -> Path:
        """Write the game record (``sequence-record/1``); resume it with ``--resume``."""
        target = Path(path).expanduser()
        target.write_text(self.record_text(), encoding="utf-8")
        self.log.append(f"Saved to {target}")
        return target


def _plain_label(state: GameState) -> Callable[[int], str]:
    return lambda seat: f"Seat {seat} ({SIDE_NAMES[state.config.side_of(seat)]})"


def describe_event(
    state: GameState, event: tuple[int, ...], label: Callable[[int], str] | None = None
) -> str:
    """One history event in words (``label`` names a seat)."""
    name = label or _plain_label(state)
    kind = event[0]
    if kind == EV_RESHUFFLE:
        size = event[1] if isinstance(event[1], int) else len(event[1])
        return f"The draw pile ran out: {size} discards reshuffled (R5.4)"
    if kind == EV_PENALTY:
        return f"Table talk upheld against {SIDE_NAMES[event[1]]}: each member discards a card (R6.1)"
    if kind == EV_PASS:
        return f"{name(event[1])} has no cards and passes (R5.5)"
    if kind == EV_LOST_DRAW:
        return f"{name(event[1])} did not draw in time and loses that draw (R5.3)"
    seat, action, card = event
    who = name(seat)
    if action < WILD:
        return f"{who} plays {card_label(card)} on {cell_name(action)}"
    if action < REMOVE:
        return f"{who} plays {card_label(card)} (two-eyed) on {cell_name(action - WILD)}"
    if action < DEAD:
        return (
            f"{who} plays {card_label(card)} (one-eyed) and removes the chip on {cell_name(action - REMOVE)}"
        )
    if action < DISCARD:
        return f"{who} exchanges the dead {card_label(card)} (R5.1)"
    if action < DRAW:
        return f"{who} discards {card_label(card)}"
    return f"{who} draws a card"


def result_text(state: GameState) -> str:
    """The end of the game in words, with the rule."""
    outcome = state.outcome()
    if outcome is None:
        return "The game goes on."
    counts = ", ".join(f"{SIDE_NAMES[s]} {n}" for s, n in enumerate(outcome.sequences))
    if outcome.winner is None:
        return f"Drawn: nobody could play for a full round (R7.2). Sequences: {counts}"
    return f"{SIDE_NAMES[outcome.winner]} wins (R7.1). Sequences: {counts}"


def last_move_cell(state: GameState) -> int | None:
    """The cell of the most recent play or removal, for highlighting."""
    for event in reversed(state.history):
        if event[0] >= 0 and event[1] < DEAD:
            return int(event[1] % 100)
    return None


class ReplayModel:
    """Step through a game record forwards and backwards.

    Each step is one action or table event (reshuffles ride along with the action that needed
    them); the state after ``k`` steps is rebuilt by replaying that prefix of the record.
    """

    def __init__(self, source: str | Path | dict[str, Any]) -> None:
        self.data = load(Path(source) if isinstance(source, str) else source)
        final = replay(self.data)
        self.final = final
        actions = self.data.get("actions") or []
        # entry index where each step ends (inclusive of following reshuffles)
        self.ends: list[int] = []
        for i, entry in enumerate(actions):
            if isinstance(entry, dict) and "reshuffle" in entry and self.ends:
                self.ends[-1] = i + 1
            else:
                self.ends.append(i + 1)
        if not final.ok and final.index is not None:
            self.ends = [e for e in self.ends if e <= final.index]
        self._cache: dict[int, GameState] = {}
        self.step = 0

    @property
    def steps(self) -> int:
        return len(self.ends)

    def state_at(self, step: int) -> GameState:
        step = max(0, min(step, self.steps))
        if step not in self._cache:
            data = {k: v for k, v in self.data.items() if k not in ("actions", "result")}
            data["actions"] = (self.data.get("actions") or [])[: self.ends[step - 1] if step else 0]
            self._cache[step] = replay(data).state
        return self._cache[step]

    def move(self, delta: int) -> GameState:
        self.step = max(0, min(self.step + delta, self.steps))
        return self.state_at(self.step)

    def goto(self, step: int) -> GameState:
        self.step = max(0, min(step, self.steps))
        return self.state_at(self.step)


def group_moves(actions: Iterable[int], hand: Iterable[Card] = ()) -> list[str]:
    """Legal moves grouped by card, one line each: ``7h@ e4 b2``, ``dead 5d``, ``draw``.

    Jacks are written as the jack held (``jh@`` rather than the generic ``js@``) when ``hand`` is given.
    """
    held = set(hand)
    jack_name = {
        "jd": "jd" if JD in held or JC not in held else "jc",
        "js": "js" if JS in held or JH not in held else "jh",
    }
    groups: dict[str, list[str]] = {}
    singles: list[str] = []
    for a in actions:
        name = action_name(a)
        if "@" in name:
            card, _, cell = name.partition("@")
            card = jack_name.get(card, card)
            groups.setdefault(card, []).append(cell)
        else:
            singles.append(name)
    out = [f"{card}@ {' '.join(cells)}" for card, cells in groups.items()]
    return out + singles


__all__ = [
    "DEFAULT_LEVEL",
    "HUMAN",
    "LEVELS",
    "SIDE_LETTERS",
    "SIDE_NAMES",
    "GameSession",
    "ReplayModel",
    "SeatInfo",
    "bot_for_level",
    "describe_card",
    "describe_event",
    "group_moves",
    "last_move_cell",
    "level_choices",
    "make_seats",
    "result_text",
]
