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

import json
import os
import random
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD, action_name
from ..board import CELLS_OF_CARD, LAYOUT, cell_name
from ..bots import LEVELS, Bot, Limit, available_bots, level_bot, make_bot, table_spec
from ..cards import JC, JD, JH, JS, Card, card_label, card_name, is_one_eyed, is_two_eyed
from ..config import GameConfig
from ..errors import IllegalActionError
from ..i18n import N_, _, engine_message, ngettext
from ..record_messages import replay_message
from ..records import RecordError, dumps, load, replay
from ..state import EV_LOST_DRAW, EV_PASS, EV_PENALTY, EV_RESHUFFLE, GameState, Termination, new_game
from .hand_order import HandOrder

#: The sides' names in English; shown through :func:`side_name` in the player's language.
SIDE_NAMES = (N_("Blue"), N_("Green"), N_("Red"))  # R1.4
SIDE_LETTERS = ("B", "G", "R")

#: Difficulty levels offered to players, weakest first, and the bot each would like to use.
DEFAULT_LEVEL = "medium"
HUMAN = "human"
#: How long a searching bot may think per move; cheap bots ignore it.
DEFAULT_LIMIT = Limit(seconds=1.0)
#: The key of a saved record that holds what only this interface needs (who plays each seat, the log).
#: Readers of ``sequence-record/1`` ignore fields they do not know, so a save stays a plain record.
SAVE_KEY = "terminal"
#: Where the game in progress is saved after every move (``SEQUENCE_GAME_HOME`` moves it, for tests).
AUTOSAVE_NAME = "last-game.json"


def side_name(side: int) -> str:
    """A side's name in the player's language (``Blue``, ``Azul``, ``Blå``)."""
    return _(SIDE_NAMES[side])


#: The difficulty levels' words, for the catalogue (a bot's own name is shown as it is).
LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "expert": N_("expert")}


def level_word(level: str) -> str:
    """A level in the player's language (``easy``, ``fácil``, ``let``); bot names stay as they are."""
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


#: The draw modes in words (R5.3).
DRAW_WORDS = {"auto": N_("auto draw"), "manual": N_("manual draw")}


def draw_words(draw: str) -> str:
    """``auto draw`` or ``manual draw`` in the player's language."""
    return _(DRAW_WORDS[draw]) if draw in DRAW_WORDS else draw


def data_home() -> Path:
    """The folder of the autosave: ``$SEQUENCE_GAME_HOME``, else the XDG data folder."""
    explicit = os.environ.get("SEQUENCE_GAME_HOME")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sequence-game"


def autosave_path() -> Path:
    return data_home() / AUTOSAVE_NAME


def unfinished_autosave() -> Path | None:
    """The autosaved game, if there is one that is not over (for "Continue last game")."""
    path = autosave_path()
    try:
        data = load(path)
    except RecordError:
        return None
    return None if data.get("result") else path


def turn_number(state: GameState) -> int:
    """The turn in progress, counted from 1 over every seat's turn (plays, discards and passes).

    One count everywhere: the side panel, the plain mode, the log, the result and resume all use it.
    A finished game reports the number of turns played (:func:`turns_played`).
    """
    return state.turn + 1


def round_number(state: GameState) -> int:
    """The round in progress: round 1 is every seat's first turn (R4.3: play passes to the left)."""
    return state.turn // state.players + 1


def turns_played(state: GameState) -> int:
    """Turns played so far; a winning play ends its turn at once, so it is counted here."""
    outcome = state.outcome()
    won = outcome is not None and outcome.termination is Termination.SEQUENCES
    return state.turn + (1 if won else 0)


_CARD_CODE = r"(?<![\w@]){}(?![\w@])"


def card_codes_to_symbols(message: str, cards: Iterable[Card]) -> str:
    """``"R5.1: th is not dead"`` -> ``"R5.1: 10♥ is not dead"`` for the cards an error is about.

    Only the codes of the given cards are replaced, so words such as "as" stay words.
    """
    for card in set(cards):
        message = re.sub(_CARD_CODE.format(card_name(card)), card_label(card), message)
    return message


def cards_of_action(action: object, card: Card | None = None) -> list[Card]:
    """The cards an action id is about: the card given, the card printed on a cell, the one given up."""
    cards = [] if card is None else [card]
    if isinstance(action, int) and not isinstance(action, bool):
        if 0 <= action < WILD and LAYOUT[action] >= 0:
            cards.append(LAYOUT[action])
        elif DEAD <= action < DISCARD:
            cards.append(action - DEAD)
        elif DISCARD <= action < DRAW:
            cards.append(action - DISCARD)
    return cards


def error_text(exc: IllegalActionError, card: Card | None = None) -> str:
    """An engine error for people: the rule, then the message in the player's language with card
    symbols (``R5.2: ...``). The engine speaks English; :func:`~sequence_game.i18n.engine_message`
    words its message again from the data it carries (plain text: card codes made symbols here)."""
    translated = engine_message(exc.message)
    if translated == exc.message:  # a message the table does not know: English, with symbols
        translated = card_codes_to_symbols(exc.message, cards_of_action(exc.action, card))
    return f"{exc.rule}: {translated}"


def bot_for_level(level: str) -> str:
    """The registered bot for a difficulty level or bot name.

    Bots are registered by another part of the project (``sequence_game.bots.BOTS``; those whose
    extra is installed: ``available_bots``); a level whose bot is missing plays its fallback
    (``sequence_game.bots.level_bot``: the expert without the ``fast`` extra is ``mcts``).
    """
    if level in available_bots():
        return level
    if level not in LEVELS:
        raise ValueError(
            _("unknown bot level {level}; choose from {choices}").format(
                level=repr(level), choices=", ".join(level_choices())
            )
        )
    return level_bot(level)


def level_choices() -> list[str]:
    """Every word ``--bots`` accepts: the levels, the registered bot names, and ``human``."""
    return [*LEVELS, *available_bots(), HUMAN]


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
        return side_name(self.side)

    def label(self, single_human: bool = False) -> str:
        """``Seat 0 you``, ``Seat 2`` (a person) or ``Seat 1 bot easy``."""
        if not self.is_bot:
            return (_("Seat {n} you") if single_human else _("Seat {n}")).format(n=self.seat)
        return _("Seat {n} bot {level}").format(n=self.seat, level=level_word(self.level))


def make_seats(config: GameConfig, seats: Sequence[str] | None) -> list[SeatInfo]:
    """Seat 0 and every ``"human"`` entry are people; the rest are bots at their level.

    ``seats`` lists every seat; a shorter list is padded with its last entry (or the default
    level), so ``["human", "easy"]`` at a four-player table means one person and three easy bots.
    """
    wanted = list(seats) if seats else [HUMAN]
    if len(wanted) > config.players:
        raise ValueError(
            _("{seats} seats given for {players} players").format(seats=len(wanted), players=config.players)
        )
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
        return _("{card} (two-eyed jack: any open space)").format(card=card_label(card))
    if is_one_eyed(card):
        return _("{card} (one-eyed jack: removes a chip)").format(card=card_label(card))
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
        self._bot_specs = {s.seat: (s.bot_name, rng.getrandbits(32)) for s in self.seats if s.bot_name}
        self.bots: dict[int, Bot] = {}
        """The bots built so far, by seat: each is built on its first move (:meth:`bot`), off the
        UI thread, since the expert's first build on a machine compiles its kernels."""
        self._building = threading.Lock()
        self.log: list[str] = []
        self._seen = len(state.history)
        self._sequences = state.sequence_counts()
        self.hands = HandOrder()
        """The order each person sees their cards in (kept in saves, so a digit keeps its card)."""

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
        to_win = config.sequences_to_win
        session.log.append(
            ngettext(
                "New game: {players} players, {sides} sides, {n} sequence to win (R3.1), {draw}. "
                "Dealer: seat {dealer} (R4.1).",
                "New game: {players} players, {sides} sides, {n} sequences to win (R3.1), {draw}. "
                "Dealer: seat {dealer} (R4.1).",
                to_win,
            ).format(
                players=players,
                sides=config.sides,
                n=to_win,
                draw=draw_words(draw),
                dealer=session.state.dealer,
            )
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
        """Continue a saved game record; raises :class:`RecordError` if it is unreadable or illegal.

        A save made here remembers who plays each seat (people and bot levels) and the log; ``seats``
        overrides the seats. A record without them (an older save, or one from elsewhere) gets seat 0
        as the person and bots at the default level, and the log says so.
        """
        data = load(Path(path))
        result = replay(data, seed=seed)
        if not result.ok:
            where = _("action {n}").format(n=result.index) if result.index is not None else _("its result")
            error = replay_message(result.rule, result.error)
            raise RecordError(
                _("{path}: {where} is illegal: {error}").format(path=path, where=where, error=error)
            )
        state = result.state
        saved_seats, saved_log = saved_terminal_fields(data, state.players)
        chosen = list(seats) if seats else saved_seats
        session = cls(state, make_seats(state.config, chosen), seed=seed, limit=limit)
        session.log += saved_log
        extra = data.get(SAVE_KEY)
        if isinstance(extra, dict):
            session.hands = HandOrder.from_json(extra.get("hands"), state)
        session.log.append(
            _("Resumed {name} at turn {turn}.").format(name=Path(path).name, turn=turn_number(state))
        )
        if not seats and saved_seats is None:
            session.log.append(
                _(
                    "This record does not say who plays each seat: seat 0 is you, the others are "
                    "{level} bots (--hotseat or --bots choose otherwise)."
                ).format(level=level_word(DEFAULT_LEVEL))
            )
        session.log_turn()
        return session

    def rematch(self, seed: int | None = None) -> GameSession:
        """A new deal at the same table with the same people and bots."""
        cfg = self.state.config
        return GameSession.new(
            players=cfg.players,
            teams=cfg.sides,
            draw=cfg.draw,
            seed=seed,
            seats=[s.level for s in self.seats],
            limit=self.limit,
        )

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
        return _("{seat} ({side})").format(seat=info.label(self.single_human), side=info.side_name)

    def short_label(self, seat: int) -> str:
        """``you``, ``S1`` or ``S1 easy``: for the narrow side panel."""
        info = self.seats[seat]
        if not info.is_bot:
            return _("you") if self.single_human else f"S{seat}"
        return f"S{seat} {level_word(info.level)}"

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
            return error_text(exc, card)
        return None

    def explain_cell(self, card: Card, cell: int, seat: int) -> str | None:
        """Why ``card`` cannot go to ``cell`` for ``seat`` (``None`` if it can)."""
        if is_two_eyed(card):
            return self.explain(WILD + cell, seat, card)
        if is_one_eyed(card):
            return self.explain(REMOVE + cell, seat, card)
        if LAYOUT[cell] != card:
            first, second = (cell_name(c) for c in CELLS_OF_CARD[card])
            spaces = _("{first} and {second}").format(first=first, second=second)
            if LAYOUT[cell] < 0:
                message = _("R5.2: {cell} shows a free corner, not {card}; its spaces are {spaces}")
            else:
                message = _("R5.2: {cell} shows {printed}, not {card}; its spaces are {spaces}")
            return message.format(
                cell=cell_name(cell), printed=card_label(LAYOUT[cell]), card=card_label(card), spaces=spaces
            )
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
        return self.bot(seat).select_action(self.state.view(seat), self.limit)

    def bot(self, seat: int) -> Bot:
        """The bot of ``seat``, built on first use with the options of its level (``table_spec``)."""
        with self._building:
            if seat not in self.bots:
                name, seed = self._bot_specs[seat]  # a KeyError for a person's seat
                self.bots[seat] = make_bot(table_spec(name), seed=seed)
            return self.bots[seat]

    def apply_bot(self, seat: int, action: int) -> list[str]:
        """Apply a bot's chosen action; a buggy bot's illegal choice is replaced by a legal one."""
        try:
            self.state.apply(action, seat)
        except IllegalActionError as exc:
            self.log.append(
                _("{who} chose an illegal action ({error}); playing at random").format(
                    who=self.seat_label(seat), error=error_text(exc)
                )
            )
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
                lines.append(
                    _("{side} completes a sequence: {made} of {need} (R3.2)").format(
                        side=side_name(side), made=new, need=need
                    )
                )
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
        """The game record with this interface's own field (seats and log) added at the end."""
        extra = {
            "seats": [s.level for s in self.seats],
            "log": self.log,
            "hands": self.hands.to_json(),
        }
        text = dumps(self.state).rstrip()
        assert text.endswith("}")
        return text[:-1].rstrip() + f',\n  "{SAVE_KEY}": {json.dumps(extra, ensure_ascii=False)}\n}}\n'

    def save(self, path: str | Path, quiet: bool = False) -> Path:
        """Write the game record (``sequence-record/1``); resume it with ``--resume``."""
        target = Path(path).expanduser()
        if not quiet:
            self.log.append(_("Saved to {path}").format(path=target))
        target.write_text(self.record_text(), encoding="utf-8")
        return target

    def autosave(self) -> Path | None:
        """Save to :func:`autosave_path` after a move; a failure to write never stops the game."""
        target = autosave_path()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(".tmp")
            tmp.write_text(self.record_text(), encoding="utf-8")
            tmp.replace(target)
        except OSError:
            return None
        return target


def saved_terminal_fields(data: dict[str, Any], players: int) -> tuple[list[str] | None, list[str]]:
    """The seats and log a save made here carries (``None`` and ``[]`` when it carries none)."""
    extra = data.get(SAVE_KEY)
    if not isinstance(extra, dict):
        return None, []
    seats = extra.get("seats")
    choices = set(level_choices())
    if not (
        isinstance(seats, list)
        and len(seats) == players
        and all(isinstance(x, str) and x.strip().lower() in choices for x in seats)
    ):
        seats = None
    log = extra.get("log")
    lines = [x for x in log if isinstance(x, str)] if isinstance(log, list) else []
    return seats, lines


def _plain_label(state: GameState) -> Callable[[int], str]:
    return lambda seat: _("Seat {n} ({side})").format(n=seat, side=side_name(state.config.side_of(seat)))


def describe_event(
    state: GameState, event: tuple[int, ...], label: Callable[[int], str] | None = None
) -> str:
    """One history event in words (``label`` names a seat)."""
    name = label or _plain_label(state)
    kind = event[0]
    if kind == EV_RESHUFFLE:
        size = event[1] if isinstance(event[1], int) else len(event[1])
        return ngettext(
            "The draw pile ran out: {n} discard reshuffled (R5.4)",
            "The draw pile ran out: {n} discards reshuffled (R5.4)",
            size,
        ).format(n=size)
    if kind == EV_PENALTY:
        return _("Table talk upheld against {side}: each member discards a card (R6.1)").format(
            side=side_name(event[1])
        )
    if kind == EV_PASS:
        return _("{who} has no cards and passes (R5.5)").format(who=name(event[1]))
    if kind == EV_LOST_DRAW:
        return _("{who} did not draw in time and loses that draw (R5.3)").format(who=name(event[1]))
    seat, action, card = event
    who = name(seat)
    if action < WILD:
        return _("{who} plays {card} on {cell}").format(
            who=who, card=card_label(card), cell=cell_name(action)
        )
    if action < REMOVE:
        return _("{who} plays {card} (two-eyed) on {cell}").format(
            who=who, card=card_label(card), cell=cell_name(action - WILD)
        )
    if action < DEAD:
        return _("{who} plays {card} (one-eyed) and removes the chip on {cell}").format(
            who=who, card=card_label(card), cell=cell_name(action - REMOVE)
        )
    if action < DISCARD:
        return _("{who} exchanges the dead {card} (R5.1)").format(who=who, card=card_label(card))
    if action < DRAW:
        return _("{who} discards {card}").format(who=who, card=card_label(card))
    return _("{who} draws a card").format(who=who)


def result_text(state: GameState) -> str:
    """The end of the game in words, with the rule."""
    outcome = state.outcome()
    if outcome is None:
        return _("The game goes on.")
    counts = ", ".join(f"{side_name(s)} {n}" for s, n in enumerate(outcome.sequences))
    if outcome.winner is None:
        return _("Drawn: nobody could play for a full round (R7.2). Sequences: {counts}").format(
            counts=counts
        )
    return _("{side} wins (R7.1). Sequences: {counts}").format(side=side_name(outcome.winner), counts=counts)


def last_move_cell(state: GameState) -> int | None:
    """The cell of the most recent play or removal, for highlighting."""
    for event in reversed(state.history):
        if event[0] >= 0 and event[1] < DEAD:
            return int(event[1] % 100)
    return None


def winning_cells(state: GameState) -> int:
    """The cells of the winner's sequences as a bit mask (0 while the game goes on or if drawn)."""
    outcome = state.outcome()
    mask = 0
    if outcome is not None and outcome.winner is not None:
        for five in state.sequences(outcome.winner):
            for cell in five:
                mask |= 1 << cell
    return mask


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

    def first_entry(self, step: int) -> int | None:
        """The index into the record's ``actions`` of the entry that step ``step`` plays (the
        analysis numbers moves this way); ``None`` for step 0, the deal."""
        if not 1 <= step <= self.steps:
            return None
        return self.ends[step - 2] if step > 1 else 0

    def step_of_entry(self, index: int) -> int | None:
        """The step after which the record's entry ``index`` has been played (its board shows it)."""
        for step, end in enumerate(self.ends, start=1):
            if index < end:
                return step
        return None


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
            card, _at, cell = name.partition("@")
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
    "autosave_path",
    "bot_for_level",
    "describe_card",
    "describe_event",
    "error_text",
    "group_moves",
    "last_move_cell",
    "level_choices",
    "level_word",
    "make_seats",
    "result_text",
    "round_number",
    "side_name",
    "turn_number",
    "turns_played",
    "unfinished_autosave",
    "winning_cells",
]
