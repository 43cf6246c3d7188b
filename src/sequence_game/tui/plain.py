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
from ..analysis import AnalysisError, Budget, analyze_record, format_text
from ..board import COLUMN_LETTERS, LAYOUT, SIZE, parse_cell
from ..cards import card_name, is_one_eyed, is_two_eyed, parse_card
from ..errors import IllegalActionError
from ..i18n import N_, _, engine_message, ngettext
from ..record_messages import record_message, replay_message
from ..records import RecordError, path_text
from ..state import GameState
from .controller import (
    SIDE_LETTERS,
    SIDE_NAMES,
    GameSession,
    ReplayModel,
    describe_event,
    error_text,
    group_moves,
    result_text,
    round_number,
    side_name,
    turn_number,
    turns_played,
)
from .plain_words import drawn_cards, space_text, threats_text, wrapped_moves
from .rules_text import rules_plain

#: Lines in a row that make no move (unreadable, refused, empty, ``help``...) after which a script
#: (stdin not a terminal) is stopped: ``yes '' | sequence play --plain`` must end.
MAX_BAD_LINES = 20
#: Blank lines that push the last hand off a screen that cannot be cleared (hot-seat).
HIDE_LINES = 40

#: The notation and the commands are the same in every language (they are what the player types).
HELP = N_(
    "Moves (one a line): 7h@e4 plays the 7 of hearts on e4 (column e, row 4); jd@e4 or jc@e4 puts a\n"
    "chip anywhere open (two-eyed jack); js@e4 or jh@e4 removes that chip (one-eyed jack);\n"
    "'dead 7h' exchanges a dead card (R5.1); 'discard 7h' when no play is possible (R5.5) or for a\n"
    "table-talk fine (R6.1); 'draw' in manual-draw mode (R5.3).\n"
    "Commands: board, hand, moves, discards, log, rules, space e4 (one space in words), threats\n"
    "(where a chip would make a sequence), talk SIDE (uphold a table-talk call, R6.1), save FILE,\n"
    "help, quit."
)


def board_text(state: GameState | None = None, chips: tuple[int, ...] = (), locked: int = 0) -> str:
    """The board as text: each space is its card code, then the chip (``.`` for none, ``B`` ``G``
    ``R``), then ``*`` when the chip is locked in a sequence; corners read ``free``."""
    if state is not None:
        chips = tuple(state.chips(s) for s in range(state.config.sides))
        locked = state.locked
    lines = ["   " + "".join(f"{c:<5}" for c in COLUMN_LETTERS).rstrip()]
    # TRANSLATORS: a corner space in the plain mode's board; at most 4 characters
    free = _("free")[:4].ljust(4)
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            cell = row * SIZE + col
            if LAYOUT[cell] < 0:
                cells.append(free)
                continue
            mark = "."
            for side, mask in enumerate(chips):
                if mask >> cell & 1:
                    mark = SIDE_LETTERS[side]
            cells.append(card_name(LAYOUT[cell]) + mark + ("*" if locked >> cell & 1 else " "))
        lines.append(f"{row}  " + " ".join(cells).rstrip())
    return "\n".join(lines)


LEGEND = N_("Chips: B blue, G green, R red; * = locked in a sequence (R3.5); free = corner (R1.1).")


def status_text(session: GameSession, seat: int) -> str:
    """Everything ``seat`` may see besides the board: whose turn, hand, piles, sequences."""
    st = session.state
    view = st.view(seat)
    need = st.config.sequences_to_win
    seqs = ", ".join(f"{side_name(s)} {n}/{need}" for s, n in enumerate(st.sequence_counts()))
    hand = []
    for card in view.hand:
        tag = ""
        if is_two_eyed(card):
            tag = _("(wild)")
        elif is_one_eyed(card):
            tag = _("(remove)")
        elif st.is_dead(card):
            tag = _("(dead)")
        hand.append(card_name(card) + tag)
    sizes = " ".join(f"{s}:{n}" for s, n in enumerate(view.hand_sizes))
    mover = st.seat_to_play
    lines = [
        _(
            "Turn {turn} (round {round}). Seat {seat} ({side}) to play. Deck {deck}. Sequences: {sequences}."
        ).format(
            turn=turn_number(st),
            round=round_number(st),
            seat=mover,
            side=side_name(st.config.side_of(mover)),
            deck=st.deck_size,
            sequences=seqs,
        ),
        _("Seat {seat} ({side}) hand: {cards}").format(
            seat=seat, side=side_name(st.config.side_of(seat)), cards=" ".join(hand) or _("(empty)")
        ),
        _("Cards in hands: {sizes}").format(sizes=sizes),
    ]
    if st.penalty_due:
        lines.append(
            _("Table-talk fine (R6.1): seat {seat} must discard a card.").format(seat=st.penalty_due[0])
        )
    return "\n".join(lines)


def discards_text(state: GameState, last: int = 6) -> str:
    """Each seat's discard pile, newest last (R5.2: face up)."""
    rows = []
    for seat in range(state.players):
        pile = state.discard_pile(seat)
        shown = " ".join(card_name(c) for c in pile[-last:])
        more = f"(+{len(pile) - last}) " if len(pile) > last else ""
        rows.append(_("seat {n}").format(n=seat) + f": {more}{shown or '-'}")
    return _("Discards: {piles}").format(piles="; ".join(rows))


class PlainGame:
    """The read-eval-print loop of the line mode.

    ``max_bad_lines`` stops a script that keeps sending lines that cannot be played (``yes garbage |
    sequence play --plain`` would otherwise loop for ever); ``None`` (a person at a terminal) never stops.
    """

    def __init__(
        self, session: GameSession, stdin: TextIO, stdout: TextIO, max_bad_lines: int | None = MAX_BAD_LINES
    ) -> None:
        self.session = session
        self.stdin = stdin
        self.stdout = stdout
        self.max_bad_lines = max_bad_lines
        self.bad_lines = 0
        self.ok = True
        """Whether the last line was understood and accepted."""

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def show(self, seat: int) -> None:
        st = self.session.state
        self.say(board_text(st))
        self.say(status_text(self.session, seat))
        self.say_moves(seat)

    def say_moves(self, seat: int) -> None:
        st = self.session.state
        self.say(_("Legal moves:"))
        for line in group_moves(st.legal_actions(seat), st.hand(seat)):
            for part in wrapped_moves(line):
                self.say("  " + part)

    def hide_hand(self) -> None:
        """Hot-seat: take the last hand off the screen before the next person sits down (a
        terminal is cleared, scrollback too; a pipe gets a screenful of blank lines)."""
        if getattr(self.stdout, "isatty", lambda: False)():
            self.stdout.write("\033[H\033[2J\033[3J")
        else:
            self.say("\n" * HIDE_LINES)

    def pass_keyboard(self, seat: int) -> bool:
        """Hot-seat: ask the next person to take the keyboard before their hand is printed.

        Returns ``False`` at the end of input.
        """
        s = self.session
        reason = " " + _("(R6.1: a table-talk discard is owed)") if s.state.penalty_due else ""
        self.hide_hand()
        self.say(
            _("Pass the keyboard to {who}{reason}. Everyone else: look away.").format(
                who=s.seat_label(seat), reason=reason
            )
        )
        self.stdout.write(_("{who}: press Enter to see your hand.").format(who=s.seat_label(seat)) + " ")
        self.stdout.flush()
        if not self.stdin.readline():
            self.say("")
            self.say(_("End of input: the game is left unfinished."))
            return False
        return True

    def run(self) -> int:
        s = self.session
        cfg = s.state.config
        people = ", ".join(_("seat {n}").format(n=p) for p in s.humans)
        self.say(
            ngettext(
                "Sequence: {players} players, {sides} sides; people at {people}; {n} sequence to win. "
                "Type 'help' for the notation.",
                "Sequence: {players} players, {sides} sides; people at {people}; {n} sequences to win. "
                "Type 'help' for the notation.",
                cfg.sequences_to_win,
            ).format(players=cfg.players, sides=cfg.sides, people=people, n=cfg.sequences_to_win)
        )
        self.say(_(LEGEND))
        for line in s.log:
            self.say(line)
        self._echo(s.step_bots())
        shown: tuple[int, int] | None = None
        holder: int | None = None  # hot-seat: who has the keyboard now
        while not s.state.is_terminal():
            seat = s.human_to_prompt()
            if seat is None:  # only bots can act: let them
                self._echo(s.step_bots())
                continue
            if len(s.humans) > 1 and seat != holder:
                if not self.pass_keyboard(seat):
                    return 0
                holder = seat
            key = (seat, len(s.state.history))
            if key != shown:
                self.show(seat)
                shown = key
            self.stdout.write(_("seat {n}").format(n=seat) + "> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("")
                self.say(_("End of input: the game is left unfinished."))
                return 0
            self.ok = True
            moments = len(s.state.history)
            if self.command(line.strip(), seat) == "quit":
                self.say(_("Game abandoned."))
                return 0
            self.bad_lines = 0 if len(s.state.history) > moments else self.bad_lines + 1
            if self.max_bad_lines is not None and self.bad_lines >= self.max_bad_lines:
                self.say(
                    _(
                        "Stopped: {n} lines in a row made no move, and the input is "
                        "not a terminal. The game is left unfinished."
                    ).format(n=self.bad_lines)
                )
                return 1
        self.say(board_text(s.state))
        self.say(s.result_text())
        played = turns_played(s.state)
        self.say(ngettext("After {n} turn.", "After {n} turns.", played).format(n=played))
        return 0

    def _echo(self, lines: list[str]) -> None:
        for line in lines:
            self.say(line)

    def command(self, text: str, seat: int) -> str | None:
        """Run one line; returns ``"quit"`` to stop."""
        s = self.session
        word, _sep, rest = text.partition(" ")
        word = word.lower()
        if not text:
            return None
        if word in ("quit", "exit", "q"):
            return "quit"
        if word in ("help", "?"):
            self.say(_(HELP))
        elif word == "board":
            self.say(board_text(s.state))
        elif word == "hand":
            self.say(status_text(s, seat))
        elif word == "moves":
            self.say_moves(seat)
        elif word in ("space", "at"):
            try:
                self.say(space_text(s.state, seat, parse_cell(rest.strip())))
            except ValueError:
                self.say(_("usage: space CELL (a column a-j, then a row 0-9: e4)"))
                self.ok = False
        elif word == "threats":
            self.say(threats_text(s.state))
        elif word == "discards":
            self.say(discards_text(s.state))
        elif word == "log":
            for line in s.log[-20:]:
                self.say(line)
        elif word == "rules":
            self.say(rules_plain())
        elif word == "save":
            if not rest.strip():
                self.say(_("usage: save FILE"))
                self.ok = False
            else:
                try:
                    self.say(_("Saved to {path}").format(path=s.save(rest.strip())))
                except OSError as exc:
                    self.say(_("cannot save: {error}").format(error=exc))
                    self.ok = False
        elif word == "talk":
            self._talk(rest)
        else:
            self._move(text, seat)
        return None

    def _talk(self, rest: str) -> None:
        s = self.session
        sides = range(s.state.config.sides)
        names = [side_name(i).lower() for i in sides]
        english = [SIDE_NAMES[i].lower() for i in sides]  # the English names work in every language
        arg = rest.strip().lower()
        side = (
            names.index(arg)
            if arg in names
            else english.index(arg)
            if arg in english
            else int(arg)
            if arg.isdigit()
            else None
        )
        if side is None:
            self.say(_("usage: talk SIDE (one of {names} or a number)").format(names=", ".join(names)))
            self.ok = False
            return
        try:
            self._echo(s.call_table_talk(side))
        except IllegalActionError as exc:
            self.say(error_text(exc))
            self.ok = False
            return
        self._echo(s.step_bots())

    def _move(self, text: str, seat: int) -> None:
        s = self.session
        try:
            action = Action.parse(text)
        except ValueError as exc:
            self.say(self._unreadable(text, seat, exc))
            self.ok = False
            return
        card = action.card if action.kind in ("wild", "remove") else None
        before, since = s.state.hand(seat), len(s.state.history)
        try:
            self._echo(s.apply(int(action), seat, card))
        except IllegalActionError as exc:
            self.say(error_text(exc, card))
            self.ok = False
            return
        drawn = drawn_cards(before, s.state, seat, since)
        if drawn:  # the person who moved still has the keyboard: only they see it
            self.say(_("You drew {cards}.").format(cards=" ".join(card_name(c) for c in drawn)))
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
        return _("{error} (type 'help' for the notation)").format(error=engine_message(exc))


def run_plain(session: GameSession, stdin: TextIO, stdout: TextIO) -> int:
    """Play ``session`` through text streams; returns the exit status (1 when a script was stopped
    for sending too many lines that could not be played)."""
    at_terminal = bool(getattr(stdin, "isatty", lambda: False)())
    return PlainGame(session, stdin, stdout, None if at_terminal else MAX_BAD_LINES).run()


def run_plain_replay(path: str | Path, stdin: TextIO, stdout: TextIO, budget: Budget | None = None) -> int:
    """Step through a record: ``n`` next, ``p`` back, a number jumps, ``a`` prints the analysis
    (``docs/analysis.md``, spending ``budget``), ``q`` quits; EOF ends."""
    try:
        model = ReplayModel(str(path))
    except RecordError as exc:
        stdout.write(
            _("cannot replay {path}: {error}").format(path=path_text(path), error=record_message(exc)) + "\n"
        )
        return 2
    if not model.final.ok:
        error = replay_message(model.final.rule, model.final.error)
        stdout.write(
            _("note: the record stops being legal at action {n}: {error}").format(
                n=model.final.index, error=error
            )
            + "\n"
        )
    stdout.write(
        _(
            "Replay of {path}: {steps} steps. n = next, p = back, NUMBER = go to step, "
            "a = analyse the game, q = quit."
        ).format(path=path, steps=model.steps)
        + "\n"
    )
    state = model.goto(0)
    while True:
        stdout.write(board_text(state) + "\n")
        step = _("Step {step} of {steps}.").format(step=model.step, steps=model.steps)
        stdout.write(f"{step} {_last_event(state)}\n> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            stdout.write("\n")
            return 0
        cmd = line.strip().lower()
        if cmd in ("q", "quit", "exit"):
            return 0
        if cmd in ("a", "analyse", "analyze"):
            _print_analysis(model, stdout, budget or Budget())
            continue
        if cmd.isdigit():
            state = model.goto(int(cmd))
        elif cmd in ("p", "prev", "back", "b"):
            state = model.move(-1)
        else:
            state = model.move(1)


def _print_analysis(model: ReplayModel, stdout: TextIO, budget: Budget) -> None:
    """The text report of ``sequence analyze``, with a progress line every tenth of the game (it
    takes up to about a minute and a half; a line interface may wait, with news)."""
    stdout.write(_("Analysing the game (each move judged from its mover's view)…") + "\n")
    stdout.flush()
    shown = [0]

    def progress(done: int, total: int) -> None:
        if done * 10 // total > shown[0] or done == total:
            shown[0] = done * 10 // total
            stdout.write("  " + _("{done}/{total} moves").format(done=done, total=total) + "\n")
            stdout.flush()

    try:
        analysis = analyze_record(model.data, budget, progress=progress)
    except AnalysisError as exc:
        stdout.write(_("cannot analyse this record: {error}").format(error=exc) + "\n")
        return
    except KeyboardInterrupt:
        stdout.write(_("analysis stopped") + "\n")
        return
    stdout.write(format_text(analysis) + "\n")


def _last_event(state: GameState) -> str:
    history = state.history
    if not history:
        return _("The deal.")
    text = describe_event(state, history[-1])
    if state.is_terminal():
        text += " " + result_text(state)
    return text
