"""``sequence play --plain``: the game as lines of text, for screen readers, pipes and scripts.

Every prompt prints the board, the hand and the legal moves in the project's notation; the player
answers with one move a line (``7h@e4``, ``jd@e4``, ``js@e4``, ``dead 7h``, ``discard 7h``,
``draw``) or a command (``help``). An illegal move is answered with the rule it breaks and the
prompt comes back; end of input ends the session cleanly.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..actions import Action
from ..board import COLUMN_LETTERS, LAYOUT, SIZE, parse_cell
from ..cards import card_name, is_one_eyed, is_two_eyed, parse_card
from ..errors import IllegalActionError
from ..records import RecordError
from ..state import GameState
from .controller import (
    SIDE_LETTERS,
    SIDE_NAMES,
    GameSession,
    ReplayModel,
    describe_event,
    group_moves,
    result_text,
)
from .rules_text import RULES_SUMMARY

HELP = """\
Moves (one a line): 7h@e4 plays the 7 of hearts on e4 (column e, row 4); jd@e4 or jc@e4 puts a
chip anywhere open (two-eyed jack); js@e4 or jh@e4 removes that chip (one-eyed jack);
'dead 7h' exchanges a dead card (R5.1); 'discard 7h' when no play is possible (R5.5) or for a
table-talk fine (R6.1); 'draw' in manual-draw mode (R5.3).
Commands: board, hand, moves, discards, log, rules, talk SIDE (uphold a table-talk call, R6.1),
save FILE, help, quit."""


def board_text(state: GameState | None = None, chips: tuple[int, ...] = (), locked: int = 0) -> str:
    """The board as text: each space is its card code, then the chip (``.`` for none, ``B`` ``G``
    ``R``), then ``*`` when the chip is locked in a sequence; corners read ``free``."""
    if state is not None:
        chips = tuple(state.chips(s) for s in range(state.config.sides))
        locked = state.locked
    lines = ["   " + "".join(f"{c:<5}" for c in COLUMN_LETTERS).rstrip()]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            cell = row * SIZE + col
            if LAYOUT[cell] < 0:
                cells.append("free")
                continue
            mark = "."
            for side, mask in enumerate(chips):
                if mask >> cell & 1:
                    mark = SIDE_LETTERS[side]
            cells.append(card_name(LAYOUT[cell]) + mark + ("*" if locked >> cell & 1 else " "))
        lines.append(f"{row}  " + " ".join(cells).rstrip())
    return "\n".join(lines)


LEGEND = "Chips: B blue, G green, R red; * = locked in a sequence (R3.5); free = corner (R1.1)."


def status_text(session: GameSession, seat: int) -> str:
    """Everything ``seat`` may see besides the board: whose turn, hand, piles, sequences."""
    st = session.state
    view = st.view(seat)
    need = st.config.sequences_to_win
    seqs = ", ".join(f"{SIDE_NAMES[s]} {n}/{need}" for s, n in enumerate(st.sequence_counts()))
    hand = []
    for card in view.hand:
        tag = ""
        if is_two_eyed(card):
            tag = "(wild)"
        elif is_one_eyed(card):
            tag = "(remove)"
        elif st.is_dead(card):
            tag = "(dead)"
        hand.append(card_name(card) + tag)
    sizes = " ".join(f"{s}:{n}" for s, n in enumerate(view.hand_sizes))
    lines = [
        (
            f"Turn {st.turn}. Seat {st.seat_to_play} ({SIDE_NAMES[st.config.side_of(st.seat_to_play)]}) "
            f"to play. Deck {st.deck_size}. Sequences: {seqs}."
        ),
        f"Seat {seat} ({SIDE_NAMES[st.config.side_of(seat)]}) hand: {' '.join(hand) or '(empty)'}",
        f"Cards in hands: {sizes}",
    ]
    if st.penalty_due:
        lines.append(f"Table-talk fine (R6.1): seat {st.penalty_due[0]} must discard a card.")
    return "\n".join(lines)


def discards_text(state: GameState, last: int = 6) -> str:
    """Each seat's discard pile, newest last (R5.2: face up)."""
    rows = []
    for seat in range(state.players):
        pile = state.discard_pile(seat)
        shown = " ".join(card_name(c) for c in pile[-last:])
        more = f"(+{len(pile) - last}) " if len(pile) > last else ""
        rows.append(f"seat {seat}: {more}{shown or '-'}")
    return "Discards: " + "; ".join(rows)


class PlainGame:
    """The read-eval-print loop of the line mode."""

    def __init__(self, session: GameSession, stdin: TextIO, stdout: TextIO) -> None:
        self.session = session
        self.stdin = stdin
        self.stdout = stdout

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def show(self, seat: int) -> None:
        st = self.session.state
        self.say(board_text(st))
        self.say(status_text(self.session, seat))
        self.say("Legal moves:")
        for line in group_moves(st.legal_actions(seat), st.hand(seat)):
            self.say("  " + line)

    def run(self) -> int:
        s = self.session
        cfg = s.state.config
        people = ", ".join(f"seat {p}" for p in s.humans)
        self.say(
            f"Sequence: {cfg.players} players, {cfg.sides} sides; people at {people}; "
            f"{cfg.sequences_to_win} sequence(s) to win. Type 'help' for the notation."
        )
        self.say(LEGEND)
        for line in s.log:
            self.say(line)
        self._echo(s.step_bots())
        shown: tuple[int, int] | None = None
        while not s.state.is_terminal():
            seat = s.human_to_prompt()
            if seat is None:  # only bots can act: let them
                self._echo(s.step_bots())
                continue
            key = (seat, len(s.state.history))
            if key != shown:
                self.show(seat)
                shown = key
            self.stdout.write(f"seat {seat}> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("")
                self.say("End of input: the game is left unfinished.")
                return 0
            if self.command(line.strip(), seat) == "quit":
                self.say("Game abandoned.")
                return 0
        self.say(board_text(s.state))
        self.say(s.result_text())
        return 0

    def _echo(self, lines: list[str]) -> None:
        for line in lines:
            self.say(line)

    def command(self, text: str, seat: int) -> str | None:
        """Run one line; returns ``"quit"`` to stop."""
        s = self.session
        word, _, rest = text.partition(" ")
        word = word.lower()
        if not text:
            return None
        if word in ("quit", "exit", "q"):
            return "quit"
        if word in ("help", "?"):
            self.say(HELP)
        elif word == "board":
            self.say(board_text(s.state))
        elif word == "hand":
            self.say(status_text(s, seat))
        elif word == "moves":
            self.say("Legal moves:")
            for line in group_moves(s.state.legal_actions(seat), s.state.hand(seat)):
                self.say("  " + line)
        elif word == "discards":
            self.say(discards_text(s.state))
        elif word == "log":
            for line in s.log[-20:]:
                self.say(line)
        elif word == "rules":
            self.say(RULES_SUMMARY)
        elif word == "save":
            if not rest.strip():
                self.say("usage: save FILE")
            else:
                try:
                    self.say(f"Saved to {s.save(rest.strip())}")
                except OSError as exc:
                    self.say(f"cannot save: {exc}")
        elif word == "talk":
            self._talk(rest)
        else:
            self._move(text, seat)
        return None

    def _talk(self, rest: str) -> None:
        s = self.session
        names = [n.lower() for n in SIDE_NAMES[: s.state.config.sides]]
        arg = rest.strip().lower()
        side = names.index(arg) if arg in names else int(arg) if arg.isdigit() else None
        if side is None:
            self.say(f"usage: talk SIDE (one of {', '.join(names)} or a number)")
            return
        try:
            self._echo(s.call_table_talk(side))
        except IllegalActionError as exc:
            self.say(str(exc))
            return
        self._echo(s.step_bots())

    def _move(self, text: str, seat: int) -> None:
        s = self.session
        try:
            action = Action.parse(text)
        except ValueError as exc:
            self.say(self._unreadable(text, seat, exc))
            return
        card = action.card if action.kind in ("wild", "remove") else None
        try:
            self._echo(s.apply(int(action), seat, card))
        except IllegalActionError as exc:
            self.say(str(exc))
            return
        self._echo(s.step_bots())

    def _unreadable(self, text: str, seat: int, exc: ValueError) -> str:
        """Explain a move that does not parse; a card on the wrong space gets its rule and spaces."""
        card_text, at, cell_text = text.strip().lower().partition("@")
        if at:
            try:
                card, cell = parse_card(card_text), parse_cell(cell_text)
            except ValueError:
                pass
            else:
                reason = self.session.explain_cell(card, cell, seat)
                if reason:
                    return reason
        return f"R5.2: {exc} (type 'help' for the notation)"


def run_plain(session: GameSession, stdin: TextIO, stdout: TextIO) -> int:
    """Play ``session`` through text streams; returns the exit status."""
    return PlainGame(session, stdin, stdout).run()


def run_plain_replay(path: str | Path, stdin: TextIO, stdout: TextIO) -> int:
    """Step through a record: ``n`` next, ``p`` back, a number jumps, ``q`` quits; EOF ends."""
    try:
        model = ReplayModel(str(path))
    except RecordError as exc:
        stdout.write(f"cannot replay {path}: {exc}\n")
        return 2
    if not model.final.ok:
        stdout.write(
            f"note: the record stops being legal at action {model.final.index}: "
            f"{model.final.rule}: {model.final.error}\n"
        )
    stdout.write(
        f"Replay of {path}: {model.steps} steps. n = next, p = back, NUMBER = go to step, q = quit.\n"
    )
    state = model.goto(0)
    while True:
        stdout.write(board_text(state) + "\n")
        stdout.write(f"Step {model.step} of {model.steps}. {_last_event(state)}\n> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            stdout.write("\n")
            return 0
        cmd = line.strip().lower()
        if cmd in ("q", "quit", "exit"):
            return 0
        if cmd.isdigit():
            state = model.goto(int(cmd))
        elif cmd in ("p", "prev", "back", "b"):
            state = model.move(-1)
        else:
            state = model.move(1)


def _last_event(state: GameState) -> str:
    history = state.history
    if not history:
        return "The deal."
    text = describe_event(state, history[-1])
    if state.is_terminal():
        text += " " + result_text(state)
    return text
