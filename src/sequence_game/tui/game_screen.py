"""The game table: board, hand, side panel and log; people act by keys or mouse, bots in threads."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..analysis import GameAnalysis
from ..board import COLUMN_LETTERS, LAYOUT, SIZE, cell_name
from ..bots import LEVELS, Limit, make_bot, table_spec
from ..cards import Card, card_label, is_jack, is_one_eyed, is_two_eyed
from ..errors import IllegalActionError
from ..i18n import N_, _, ngettext
from ..views import PlayerView
from .bindings import translate_bindings
from .controller import (
    SIDE_LETTERS,
    GameSession,
    ReplayModel,
    bot_for_level,
    draw_words,
    error_text,
    round_number,
    side_name,
    turn_number,
    turns_played,
    winning_cells,
)
from .hint_text import evaluator_hint
from .rules_text import rules_renderables
from .screens import ConfirmQuitScreen, PassScreen, ResultScreen, SaveScreen, TalkScreen, TextScreen
from .widgets import CHIP_STYLES, BoardPicture, BoardView, HandView

#: The smallest terminal the table fits in (the docs promise 80x24).
MIN_WIDTH, MIN_HEIGHT = 80, 24
#: The hint's search budget: whichever comes first, so the answer comes within about a second.
HINT_LIMIT = Limit(seconds=1.0, simulations=400)
#: Keys that stop working once the game is over (the footer hides them).
PLAYING_ACTIONS = frozenset({"throw", "draw", "talk", "hint"})


def strongest_bot() -> str:
    """The bot behind the strongest level installed (the hint asks it)."""
    return bot_for_level(list(LEVELS)[-1])


class GameScreen(Screen[None]):
    """One game in progress."""

    BINDINGS = [  # noqa: RUF012
        *(Binding(str(i), f"digit({i})", f"Card {i}", show=False) for i in range(10)),
        *(Binding(c, f"column('{c}')", f"Column {c}", show=False) for c in COLUMN_LETTERS if c != "d"),
        Binding("x", "throw", N_("Exchange")),
        Binding("d", "draw", N_("Draw")),
        Binding("d", "column('d')", "Column d", show=False),  # when no draw can be owed (automatic draw)
        Binding("H", "hint", N_("Hint")),
        Binding("t", "talk", N_("Talk")),
        Binding("s", "save", N_("Save")),
        Binding("l", "log", N_("Log")),
        Binding("question_mark", "rules", N_("Rules")),
        Binding("n", "new_game", N_("New")),
        Binding("q", "quit", N_("Quit")),
        Binding("escape", "forget_column", N_("Forget the typed column"), show=False),
    ]
    DEFAULT_CSS = """
    #too-small { dock: top; height: auto; background: $warning; color: $text; text-style: bold;
                 display: none; padding: 0 1; }
    #too-small.shown { display: block; }
    #table { height: 1fr; }
    #left { width: auto; height: 1fr; }
    #side { width: 1fr; min-width: 24; height: 1fr; padding: 0 0 0 1; }
    #status { height: auto; }
    #draw { width: 100%; min-width: 10; height: 1; border: none; margin: 0; display: none; }
    #draw.owed { display: block; }
    #log { height: 1fr; border-top: solid $primary-darken-2; scrollbar-size-vertical: 1; }
    #message { height: 3; width: 54; color: $text; }
    #message.error { color: $error; }
    HandView { width: 54; }
    """

    def __init__(self, session: GameSession, *, bot_delay: float = 0.4, autosave: bool = True) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = session
        self.bot_delay = bot_delay
        self.autosave = autosave
        self.hotseat = len(session.humans) > 1
        self.viewer = session.humans[0] if session.humans else 0
        self.selected: int | None = None
        # Hot-seat: every hand starts hidden, even seat 0's when it plays first (the pass screen shows it).
        self.hand_hidden = self.hotseat
        self.thinking: int | None = None
        self.result_shown = False
        self.column: str | None = None
        """A column letter typed, waiting for its row digit (``e`` then ``4``)."""
        self.orders: dict[int, list[Card]] = {}
        self.fresh: dict[int, Card | None] = {}
        self.hinting = False
        self.saved_to: Path | None = None
        self.analysis: GameAnalysis | None = None
        """The post-game analysis, once made from the result screen's replay."""
        self._token = 0

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static("", id="too-small")
        with Horizontal(id="table"):
            with Vertical(id="left"):
                yield BoardView(id="board")
                yield HandView(id="hand")
                yield Static("", id="message")
            with Vertical(id="side"):
                yield Static("", id="status")
                draw = Button(_("Draw (R5.3)"), id="draw", compact=True, variant="warning")
                draw.can_focus = False  # the keyboard stays on the board (d draws)
                yield draw
                log = VerticalScroll(id="log")
                log.can_focus = False
                with log:
                    yield Static("", id="log-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)
        self.query_one(BoardView).focus()
        self.refresh_table()
        self.call_after_refresh(self.advance)

    def on_resize(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)
        self.call_after_refresh(self.scroll_log)

    def on_screen_resume(self) -> None:
        self.query_one(BoardView).focus()

    def fit(self, width: int, height: int) -> None:
        """Wider cells from 110 columns, spaced rows from 34 lines (the board follows resizes);
        a notice below 80x24, where the side panel cannot fit."""
        cell_width = 7 if width >= 110 else 5
        row_height = 2 if height >= 34 else 1
        board = self.query_one(BoardView)
        board.set_geometry(cell_width, row_height)
        board_width = 2 + 10 * cell_width + 2
        self.query_one(HandView).styles.width = board_width
        self.query_one("#message").styles.width = board_width
        notice = self.query_one("#too-small", Static)
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        notice.set_class(small, "shown")
        if small:
            notice.update(
                _(
                    "Terminal too small ({width}x{height}): the game needs {min_width}x{min_height}. "
                    "Enlarge the window."
                ).format(width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT)
            )

    # ---------------------------------------------------------- drawing

    def hand_of(self, seat: int) -> list[Card]:
        """The seat's cards in a stable order: kept cards stay in place, new ones join at the right.

        The engine hands out sorted hands; keeping the order means a digit picks the same card as
        last turn, and the card drawn last can be marked.
        """
        current = Counter(self.session.state.hand(seat))
        old = self.orders.get(seat)
        if old is None:
            order = sorted(current.elements())
        else:
            order = []
            for card in old:
                if current[card] > 0:
                    order.append(card)
                    current[card] -= 1
            added = sorted(current.elements())
            if added:
                self.fresh[seat] = added[-1]
            order += added
        if self.fresh.get(seat) not in order:
            self.fresh[seat] = None
        self.orders[seat] = order
        return order

    def hand(self) -> list[Card]:
        return self.hand_of(self.viewer)

    def refresh_table(self) -> None:
        s, st = self.session, self.session.state
        viewer = self.viewer
        hand = self.hand()
        if self.selected is not None and self.selected >= len(hand):
            self.selected = None
        card = hand[self.selected] if self.selected is not None else None
        targets: dict[int, int] = {}
        if card is not None and not self.hand_hidden and viewer in st.seats_to_act():
            targets = s.targets(card, viewer)
        self.query_one(BoardView).show(
            BoardPicture(
                chips=tuple(st.chips(side) for side in range(st.config.sides)),
                locked=st.locked,
                targets=frozenset(targets),
                removing=card is not None and is_one_eyed(card),
                last=s.last_move_cell(),
                winning=winning_cells(st),
            )
        )
        caption = (
            _("Hand of {who}").format(who=s.seat_label(viewer)) if not s.single_human else _("Your hand")
        )
        fresh = self.fresh.get(viewer)
        self.query_one(HandView).show(
            hand,
            {c for c in hand if st.is_dead(c)},
            self.selected,
            caption=caption,
            hidden_text=_("hidden until the next player takes the keyboard") if self.hand_hidden else None,
            fresh=hand.index(fresh) if fresh is not None and not self.hand_hidden else None,
        )
        self.query_one("#status", Static).update(self.status_text())
        draw = self.query_one("#draw", Button)
        owed = [] if self.hand_hidden else s.human_draw_seats()
        draw.set_class(bool(owed), "owed")
        if owed:
            who = _("you") if s.single_human else _("seat {n}").format(n=self.draw_seat())
            draw.label = _("Draw ({who}, R5.3) [d]").format(who=who)
        self.query_one("#log-text", Static).update(Text("\n".join(s.log)))
        self.call_after_refresh(self.scroll_log)

    def scroll_log(self) -> None:
        """The newest log line stays in sight, also after a resize re-wraps the lines."""
        self.query_one("#log", VerticalScroll).scroll_end(animate=False)

    def status_text(self) -> Text:
        s, st = self.session, self.session.state
        cfg = st.config
        text = Text(no_wrap=False)
        if st.is_terminal():
            played = turns_played(st)
            text.append(
                ngettext("Game over after {n} turn", "Game over after {n} turns", played).format(n=played)
                + "\n",
                style="bold",
            )
        else:
            mover = st.current_seat
            you = s.single_human and not s.is_bot(mover)
            if st.penalty_due:
                doing = (
                    _("Turn {turn} (round {round}): You pay the R6.1 fine")
                    if you
                    else _("Turn {turn} (round {round}): {who} pays the R6.1 fine")
                )
            else:
                doing = (
                    _("Turn {turn} (round {round}): You to play")
                    if you
                    else _("Turn {turn} (round {round}): {who} to play")
                )
            text.append(
                doing.format(turn=turn_number(st), round=round_number(st), who=s.short_label(mover)),
                style="bold",
            )
            if self.thinking is not None:
                text.append(" …", style="italic")
            text.append("\n")
        counts = st.sequence_counts()
        for side in range(cfg.sides):
            text.append(f" {SIDE_LETTERS[side]} ", style=CHIP_STYLES[side])
            members = " ".join(s.short_label(seat).split()[0] for seat in cfg.seats_of(side))
            text.append(
                _(" {made}/{need} seq: {members}").format(
                    made=counts[side], need=cfg.sequences_to_win, members=members
                )
                + "\n"
            )
        text.append(_("Deck {n}").format(n=st.deck_size), style="bold")
        text.append(_(" · {draw} · discards:").format(draw=draw_words(cfg.draw)) + "\n")
        for seat in range(cfg.players):
            pile = st.discard_pile(seat)
            who = s.short_label(seat).split()[0]
            text.append(f"{who:>3} ", style="bold")
            text.append(f"{st.hand_sizes()[seat]}▮ ")
            for card in pile[-4:]:
                text.append(card_label(card) + " ", style="#ff6b6b" if card % 4 in (1, 2) else "")
            if not pile:
                text.append("-", style="dim")
            text.append("\n")
        return text

    def say(self, message: str, error: bool = False) -> None:
        widget = self.query_one("#message", Static)
        widget.update(Text(message))
        widget.set_class(error, "error")

    # ------------------------------------------------------------ flow

    def advance(self) -> None:
        """After every change: finish, let a bot think, or hand the keyboard to the right person."""
        s = self.session
        if s.state.is_terminal():
            self.thinking = None
            self.column = None
            board = self.query_one(BoardView)
            board.playable = False
            self.hand_hidden = False
            self.refresh_table()
            self.refresh_bindings()
            board.refresh_bindings()
            if not self.result_shown:
                self.result_shown = True
                self.show_result()
            return
        seat = s.bot_to_move()
        if seat is not None:
            if self.thinking is None:
                self.thinking = seat
                self.refresh_table()
                self.think(s.bot_view(seat), seat, self._token)
            return
        person = s.human_to_prompt()
        if person is not None and (person != self.viewer or (self.hotseat and self.hand_hidden)):
            self.selected = None
            self.column = None
            if self.hotseat:
                self.hand_hidden = True
                self.refresh_table()
                self.ask_to_pass(person)
                return
            self.viewer = person
        self.refresh_table()
        if person is not None and not self.hand_hidden:
            self.prompt(person)

    def ask_to_pass(self, person: int) -> None:
        """Hot-seat: the pass screen; ``q`` there asks to quit, and a "no" brings it back."""
        s = self.session
        reason = _("R6.1: you owe a table-talk discard.") if s.state.penalty_due else ""

        def answered(what: str | None) -> None:
            if what == "quit":
                self.confirm_quit(on_cancel=lambda: self.ask_to_pass(person))
            else:
                self.reveal(person)

        self.app.push_screen(PassScreen(s.seat_label(person), reason), answered)

    def reveal(self, seat: int) -> None:
        self.viewer = seat
        self.hand_hidden = False
        self.refresh_table()
        self.prompt(seat)

    def prompt(self, seat: int) -> None:
        st = self.session.state
        acts = st.legal_actions(seat)
        who = _("You") if self.session.single_human else self.session.seat_label(seat)
        if st.penalty_due:
            self.say(
                _("{who}: table talk (R6.1), choose a card to give up (1-9) and press x.").format(who=who)
            )
        elif acts == [DRAW]:
            self.say(_("{who}: draw a card (d) before the next player draws (R5.3).").format(who=who))
        elif all(DISCARD <= a < DRAW or a == DRAW for a in acts):
            self.say(
                _("{who}: no legal play (R5.5). Choose a card to discard (1-9) and press x.").format(who=who)
            )
        elif self.selected is None:
            self.say(
                _("{who}: choose a card (1-9 or click), then a highlighted space (Tab jumps).").format(
                    who=who
                )
            )

    @work(thread=True, exclusive=True, group="bot")
    def think(self, view: PlayerView, seat: int, token: int) -> None:
        """Run the bot off the UI thread (built here on its first move); it sees only its own view."""
        bot = self.session.bot(seat)
        started = time.monotonic()
        action = bot.select_action(view, self.session.limit)
        rest = self.bot_delay - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)
        self.app.call_from_thread(self.bot_done, seat, action, token)

    def bot_done(self, seat: int, action: int, token: int) -> None:
        if token != self._token or not self.is_attached:
            return
        self.thinking = None
        self.session.apply_bot(seat, action)
        self.save_progress()
        self.advance()

    def save_progress(self) -> None:
        """Autosave after every move, for "Continue last game" and after a quit."""
        if self.autosave:
            self.saved_to = self.session.autosave()

    def act(self, action: int, card: Card | None = None, seat: int | None = None) -> bool:
        """A person's action: apply it or explain the rule it breaks."""
        seat = self.viewer if seat is None else seat
        try:
            self.session.apply(action, seat, card)
        except IllegalActionError as exc:
            self.say(error_text(exc, card), error=True)
            return False
        self.selected = None
        self.column = None
        self.say("")
        self.save_progress()
        self.advance()
        return True

    # --------------------------------------------------------- choosing

    def game_over_note(self) -> None:
        self.say(_("The game is over (R7.1): r rematch, p replay, n new game, q quit."))

    def choose_card(self, index: int) -> None:
        if self.session.state.is_terminal():
            self.game_over_note()
            return
        if self.hand_hidden:
            return
        hand = self.hand()
        if not 0 <= index < len(hand):
            self.say(_("There is no card {n} in the hand.").format(n=index + 1), error=True)
            return
        self.selected = index
        card = hand[index]
        st = self.session.state
        targets = self.session.targets(card, self.viewer) if self.viewer in st.seats_to_act() else {}
        board = self.query_one(BoardView)
        if targets and board.cursor not in targets:
            board.cursor = min(targets)
        self.refresh_table()
        self.say(self.card_hint(card, targets))

    def card_hint(self, card: Card, targets: dict[int, int]) -> str:
        s, st = self.session, self.session.state
        label = card_label(card)
        legal = st.legal_actions(self.viewer)
        if DISCARD + card in legal and (st.penalty_due or not any(a < DEAD for a in legal)):
            return _("{card}: press x to discard it.").format(card=label)
        if not is_jack(card) and st.is_dead(card):
            reason = s.explain(DEAD + card, self.viewer)
            return (
                _("{card} is dead (R5.1): both its spaces are taken.").format(card=label)
                + " "
                + (reason or _("Press x to exchange it for a new card."))
            )
        if self.viewer not in st.seats_to_act():
            return _("{card}: wait for your turn (R4.3).").format(card=label)
        if is_two_eyed(card):
            return _(
                "{card} two-eyed jack: a chip on any open space (+). Tab, arrows or a cell (e4), Enter."
            ).format(card=label)
        if is_one_eyed(card):
            if not targets:
                return _(
                    "{card} one-eyed jack: no opponent chip can be removed now (R3.5: locked chips stay)."
                ).format(card=label)
            return _(
                "{card} one-eyed jack: remove an opponent chip (×). Tab, arrows or a cell, Enter."
            ).format(card=label)
        return _(
            "{card}: choose a highlighted space (+): Tab, arrows or type it (e4); Enter or click."
        ).format(card=label)

    def on_hand_view_card_chosen(self, event: HandView.CardChosen) -> None:
        self.choose_card(event.index)

    def on_board_view_cell_chosen(self, event: BoardView.CellChosen) -> None:
        self.play_cell(event.cell)

    def play_cell(self, cell: int) -> None:
        """Play the chosen card on ``cell``; with no card chosen, the card printed there if held."""
        if self.hand_hidden:
            return
        s, st = self.session, self.session.state
        if st.is_terminal():
            self.game_over_note()
            return
        hand = self.hand()
        if self.selected is None:
            # no card chosen: a normal card printed on that space plays at once
            printed = [c for c in hand if not is_jack(c) and cell in s.targets(c, self.viewer)]
            if printed and self.viewer in st.seats_to_act():
                self.act(cell)
                return
            self.say(_("Choose a card first: 1-9 or click it in your hand."), error=True)
            return
        card = hand[self.selected]
        targets = s.targets(card, self.viewer)
        if cell in targets:
            self.act(targets[cell], card if is_jack(card) else None)
            return
        reason = s.explain_cell(card, cell, self.viewer) or s.explain(DEAD + card, self.viewer)
        self.say(reason or _("{card} cannot go there.").format(card=card_label(card)), error=True)

    # ---------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show Draw only in manual-draw games and Talk only where teams exist (R5.3, R6.1); hide the
        playing keys once the game is over."""
        st = self.session.state
        cfg = st.config
        if st.is_terminal() and action in PLAYING_ACTIONS:
            return False
        if action == "draw":
            return cfg.draw == "manual"
        if action == "talk":
            return cfg.team_size >= 2
        return True

    def action_digit(self, digit: int) -> None:
        """A digit picks card 1-9, or ends a typed cell (``e`` then ``4``)."""
        if self.column is not None:
            cell = COLUMN_LETTERS.index(self.column) + digit * SIZE
            self.column = None
            self.query_one(BoardView).cursor = cell
            self.play_cell(cell)
            return
        if digit == 0:
            self.say(_("0 is a row: type a column letter first (a-j), then the row (e4)."), error=True)
            return
        self.choose_card(digit - 1)

    def action_column(self, letter: str) -> None:
        """The first half of a typed cell: the column; the row digit plays there."""
        if self.hand_hidden or self.session.state.is_terminal():
            return
        self.column = letter
        self.say(_("Space {column}_: now its row, 0-9 (Escape forgets the column).").format(column=letter))

    def action_forget_column(self) -> None:
        if self.column is not None:
            self.column = None
            self.say("")

    def action_throw(self) -> None:
        """Exchange the chosen dead card (R5.1), or discard it (R5.5, R6.1)."""
        self.column = None
        if self.hand_hidden or self.selected is None:
            self.say(_("Choose the card first (1-9), then press x."), error=True)
            return
        card = self.hand()[self.selected]
        options = self.session.card_actions(card, self.viewer)
        if options:
            self.act(options[0])
            return
        st = self.session.state
        if not is_jack(card) and (st.is_dead(card) or any(a < DEAD for a in st.legal_actions(self.viewer))):
            reason = self.session.explain(DEAD + card, self.viewer)
        else:
            reason = self.session.explain(DISCARD + card, self.viewer)
        self.say(reason or _("That card cannot be given up now."), error=True)

    def draw_seat(self) -> int | None:
        owed = self.session.human_draw_seats()
        if not owed:
            return None
        return self.viewer if self.viewer in owed else owed[0]

    def action_draw(self) -> None:
        """``d`` draws when a draw is owed (R5.3); otherwise it is column d of a typed cell."""
        seat = self.draw_seat()
        if seat is None:
            if not self.hand_hidden and not self.session.state.is_terminal():
                self.action_column("d")
            return
        self.column = None
        self.act(DRAW, seat=seat)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "draw":
            self.action_draw()

    def action_hint(self) -> None:
        """Ask the strongest bot what it would play from this seat's view (it sees only that view)."""
        st = self.session.state
        if self.hand_hidden or st.is_terminal():
            return
        if self.viewer not in st.seats_to_act():
            self.say(_("A hint is for your own turn (R4.3)."), error=True)
            return
        if self.hinting:
            return
        self.hinting = True
        self.say(_("Hint: thinking…"))
        self.find_hint(self.viewer, st.view(self.viewer), len(st.history), self._token)

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, seat: int, view: PlayerView, moment: int, token: int) -> None:
        """The hint, off the UI thread so the table stays responsive: the evaluator's best play
        and why (docs/evaluator.md); the strongest bot's play where NumPy is missing."""
        found = evaluator_hint(view, moment)
        why: str | None = None
        if found is None:
            action = make_bot(table_spec(strongest_bot()), seed=moment).select_action(view, HINT_LIMIT)
        else:
            action, why = found
        self.app.call_from_thread(self.show_hint, seat, action, moment, token, why)

    def show_hint(self, seat: int, action: int, moment: int, token: int, why: str | None = None) -> None:
        self.hinting = False
        st = self.session.state
        if token != self._token or not self.is_attached or moment != len(st.history) or seat != self.viewer:
            return  # the table moved on while the bot thought
        hand = self.hand()
        card: Card | None
        cell: int | None = None
        if action < WILD:
            card, cell = LAYOUT[action], action
        elif action < DEAD:
            jacks = [c for c in hand if (is_two_eyed(c) if action < REMOVE else is_one_eyed(c))]
            card, cell = (jacks[0] if jacks else None), action % 100
        elif action < DISCARD:
            card = action - DEAD
        elif action < DRAW:
            card = action - DISCARD
        else:
            card = None
        if card is not None and card in hand:
            self.choose_card(hand.index(card))
        board = self.query_one(BoardView)
        who = _("evaluator") if why is not None else strongest_bot()
        text = ""
        if action == DRAW:
            text = _("Hint ({bot}): draw a card (d).").format(bot=who)
        elif cell is not None and card is not None:
            board.cursor = cell
            if REMOVE <= action < DEAD:
                hint = _("Hint ({bot}): {card}, remove the chip on {cell}. Enter does it.")
            else:
                hint = _("Hint ({bot}): {card}, play it on {cell}. Enter does it.")
            text = hint.format(bot=who, card=card_label(card), cell=cell_name(cell))
        elif card is not None:
            if action < DISCARD:
                hint = _("Hint ({bot}): exchange the dead {card} (x).")
            else:
                hint = _("Hint ({bot}): discard {card} (x).")
            text = hint.format(bot=who, card=card_label(card))
        if text:
            self.say(text if why is None else f"{text} {why}")

    def action_talk(self) -> None:
        st = self.session.state
        if st.config.team_size < 2:
            self.say(_("R6.1: the table-talk penalty applies only to teams of two or more."), error=True)
            return

        def chosen(side: int | None) -> None:
            if side is None:
                return
            try:
                self.session.call_table_talk(side)
            except IllegalActionError as exc:
                self.say(error_text(exc), error=True)
                return
            self.selected = None
            self.save_progress()
            self.advance()

        self.app.push_screen(TalkScreen(st.config.sides), chosen)

    def action_save(self) -> None:
        def chosen(path: str | None) -> None:
            if not path:
                return
            try:
                saved = self.session.save(path)
            except OSError as exc:
                self.say(_("Cannot save: {error}").format(error=exc), error=True)
                return
            self.say(
                _("Saved to {path}. Resume with: sequence play --resume {file}").format(
                    path=saved, file=Path(path)
                )
            )
            self.refresh_table()

        self.app.push_screen(SaveScreen(), chosen)

    def action_log(self) -> None:
        self.app.push_screen(TextScreen(_("Game log"), "\n".join(self.session.log)))

    def action_rules(self) -> None:
        self.app.push_screen(TextScreen(_("Rules, keys and marks"), rules_renderables()))

    def action_new_game(self) -> None:
        self._token += 1
        self.app.action_new_game()  # type: ignore[attr-defined]

    def action_quit(self) -> None:
        """Quit at once when the game is over; in a game, ask first (it is saved for Continue)."""
        if self.session.state.is_terminal():
            self.leave()
            return
        self.confirm_quit()

    def confirm_quit(self, on_cancel: Callable[[], None] | None = None) -> None:
        """Save, then ask; ``on_cancel`` runs when the person keeps playing (the pass screen returns)."""
        self.save_progress()

        def answered(quit_game: bool | None) -> None:
            if quit_game:
                self.leave()
            elif on_cancel is not None:
                on_cancel()

        self.app.push_screen(ConfirmQuitScreen(self.saved_to), answered)

    def leave(self) -> None:
        self._token += 1
        self.app.exit()

    def rematch(self) -> None:
        self._token += 1
        self.app.start_session(self.session.rematch())  # type: ignore[attr-defined]

    def replay_this_game(self, analyse: bool = False) -> None:
        """The replay of the game just ended; with ``analyse`` its analysis starts at once. An
        analysis made there is kept, so the replay opened again shows it without a new run."""
        from .replay_screen import ReplayScreen

        model = ReplayModel(json.loads(self.session.record_text()))
        screen = ReplayScreen(
            model,
            _("this game"),
            closes_app=False,
            budget=self.app.analysis_budget,  # type: ignore[attr-defined]
            analysis=self.analysis,
            analyse=analyse,
        )

        def back(analysis: GameAnalysis | None) -> None:
            self.analysis = analysis or self.analysis
            self.show_result()

        self.app.push_screen(screen, back)

    def show_result(self) -> None:
        s = self.session
        outcome = s.state.outcome()
        assert outcome is not None
        if outcome.winner is None:
            title = _("Drawn game")
        else:
            mine = {s.state.config.side_of(h) for h in s.humans}
            winner = side_name(outcome.winner)
            if s.single_human and outcome.winner in mine:
                title = _("You win! ({side})").format(side=winner)
            else:
                title = _("{side} wins").format(side=winner)
        played = turns_played(s.state)
        rounds = -(-played // s.state.players)
        detail = (
            s.result_text()
            + "\n"
            + _("After {turns} turns ({rounds} rounds).").format(turns=played, rounds=rounds)
        )
        if outcome.winner is not None:
            detail += " " + _("The winning fives are lit up on the board.")

        def chosen(what: str | None) -> None:
            if what == "new":
                self.action_new_game()
            elif what == "rematch":
                self.rematch()
            elif what == "replay":
                self.replay_this_game()
            elif what == "analyse":
                self.replay_this_game(analyse=True)
            elif what == "save":
                self.action_save()
            elif what == "quit":
                self.leave()

        against_bots = len(s.humans) < s.state.players
        self.app.push_screen(ResultScreen(title, detail, can_analyse=against_bots), chosen)
