"""The game table: board, hand, side panel and log; people act by keys or mouse, bots in threads."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Static

from ..actions import DEAD, DISCARD, DRAW
from ..analysis import GameAnalysis
from ..board import COLUMN_LETTERS, SIZE, cell_name
from ..bots import LEVELS, Limit, is_warm, make_bot, table_spec, warm_up
from ..cards import Card, card_label, is_jack, is_one_eyed, is_two_eyed
from ..errors import IllegalActionError
from ..i18n import N_, _
from ..views import PlayerView
from .bindings import translate_bindings
from .controller import (
    GameSession,
    ReplayModel,
    bot_for_level,
    error_text,
    side_name,
    turns_played,
    winning_cells,
)
from .hint_text import explained_hint, hint_parts
from .rules_text import rules_renderables
from .screens import ConfirmQuitScreen, PassScreen, ResultScreen, SaveScreen, TalkScreen, TextScreen
from .status_panel import status_panel
from .widgets import BoardPicture, BoardView, HandView

#: The smallest terminal the table fits in (the docs promise 80x24).
MIN_WIDTH, MIN_HEIGHT = 80, 24
#: The hint's search budget: whichever comes first, so the answer comes within about a second.
HINT_LIMIT = Limit(seconds=1.0, simulations=400)
#: Keys that stop working once the game is over (the footer hides them).
PLAYING_ACTIONS = frozenset({"throw", "draw", "talk", "hint"})
#: Keys that work only once the game is over (what the result box offers, also after it is closed).
ENDED_ACTIONS = frozenset({"rematch", "replay", "analyse", "result"})


def strongest_bot() -> str:
    """The bot behind the strongest level installed (the hint asks it)."""
    return bot_for_level(list(LEVELS)[-1])


class GameScreen(Screen[None]):
    """One game in progress."""

    BINDINGS = [  # noqa: RUF012
        *(Binding(str(i), f"digit({i})", f"Card {i}", show=False) for i in range(10)),
        # once the game is over (check_action): before the column keys, which then do nothing
        Binding("r", "rematch", N_("Rematch")),
        Binding("p", "replay", N_("Replay")),
        Binding("a", "analyse", N_("Analyse")),
        Binding("o", "result", N_("Result")),
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
        Binding("escape", "forget", N_("Forget the typed column or the chosen card"), show=False),
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
        self.hinting = False
        self._loading_timer: Timer | None = None
        self.passing = False
        """Hot-seat: the pass screen is up (or its quit box), waiting for the next person."""
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
        self.refresh_table()  # the game starts from on_screen_resume, which a new screen gets too

    def on_resize(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)
        self.show_status()
        self.call_after_refresh(self.scroll_log)

    def on_screen_resume(self) -> None:
        """Back from a box on top (new game, save, rules...): catch up with what happened beneath."""
        self.query_one(BoardView).focus()
        self.call_after_refresh(self.advance)

    def fit(self, width: int, height: int) -> None:
        """Wider cells from 110 columns, spaced rows from 34 lines (the board follows resizes);
        a notice below 80x24, where the side panel cannot fit."""
        board = self.query_one(BoardView)
        board.fit_terminal(width, height)
        board_width = 2 + 10 * board.cell_width + 2
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
        """The seat's cards in a stable order (``hand_order``): a digit picks the same card as last
        turn, and the card drawn last can be marked."""
        return self.session.hands.of(self.session.state, seat)

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
        fresh = s.hands.fresh(viewer)
        self.query_one(HandView).show(
            hand,
            {c for c in hand if st.is_dead(c)},
            self.selected,
            caption=caption,
            hidden_text=_("hidden until the next player takes the keyboard") if self.hand_hidden else None,
            fresh=hand.index(fresh) if fresh is not None and not self.hand_hidden else None,
        )
        self.show_status()
        draw = self.query_one("#draw", Button)
        owed = [] if self.hand_hidden else s.human_draw_seats()
        draw.set_class(bool(owed), "owed")
        if owed:
            who = _("you") if s.single_human else _("seat {n}").format(n=self.draw_seat())
            draw.label = _("Draw ({who}, R5.3) [d]").format(who=who)
        self.query_one("#log-text", Static).update(Text("\n".join(s.log)))
        self.call_after_refresh(self.scroll_log)

    def show_status(self) -> None:
        """The side panel; two seats a line on a short terminal with more than 6 players."""
        compact = self.app.size.height < 34 and self.session.state.config.players > 6
        self.query_one("#status", Static).update(
            status_panel(self.session, thinking=self.thinking is not None, compact=compact)
        )

    def scroll_log(self) -> None:
        """The newest log line stays in sight, also after a resize re-wraps the lines."""
        self.query_one("#log", VerticalScroll).scroll_end(animate=False)

    def say(self, message: str, error: bool = False) -> None:
        widget = self.query_one("#message", Static)
        widget.update(Text(message))
        widget.set_class(error, "error")

    # ------------------------------------------------------------ flow

    def advance(self) -> None:
        """After every change: finish, let a bot think, or hand the keyboard to the right person.

        While a box covers the table (the new-game screen, the rules...) nothing new is asked or
        shown: the table catches up when the box closes (:meth:`on_screen_resume`)."""
        if not self.is_current:
            return
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
                # after the table (and its footer, now without the playing keys) is painted: the
                # table stays visible beneath the result box as it was last painted
                self.call_after_refresh(self.show_result)
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
                if not self.passing:  # not again while the pass screen (or its quit box) is up
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
        self.passing = True

        def answered(what: str | None) -> None:
            if what == "quit":
                self.confirm_quit(on_cancel=lambda: self.ask_to_pass(person))
            else:
                self.reveal(person)

        self.app.push_screen(PassScreen(s.seat_label(person), reason), answered)

    def reveal(self, seat: int) -> None:
        self.passing = False
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
        """Run the bot off the UI thread (built here on its first move); it sees only its own view.

        A bot whose compiled engine is not loaded yet (the expert's first move on a machine: about
        a minute of compiling, seconds from the cache after) says so while it waits."""
        name = self.session.seats[seat].bot_name or ""
        if not is_warm(name):
            self.app.call_from_thread(self.show_loading, seat, time.monotonic())
            warm_up(name)
            self.app.call_from_thread(self.show_loading, None, 0.0)
        bot = self.session.bot(seat)
        started = time.monotonic()
        action = bot.select_action(view, self.session.limit)
        rest = self.bot_delay - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)
        self.app.call_from_thread(self.bot_done, seat, action, token)

    def show_loading(self, seat: int | None, since: float) -> None:
        """Say, and count the seconds, while a bot's compiled engine loads; ``None`` ends it."""
        if self._loading_timer is not None:
            self._loading_timer.stop()
            self._loading_timer = None
        if seat is None:
            self.say("")
            return
        who = self.session.short_label(seat)

        def tick() -> None:
            self.say(
                _(
                    "{who} is loading its compiled engine: about a minute on this machine's first "
                    "game, seconds after that ({seconds} s)…"
                ).format(who=who, seconds=int(time.monotonic() - since))
            )

        tick()
        self._loading_timer = self.set_interval(1.0, tick)

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
        if self.against_bots:
            note = _("The game is over: r rematch, p replay, a analyse, o result, n new game, q quit.")
        else:
            note = _("The game is over: r rematch, p replay, o result, n new game, q quit.")
        self.say(note)

    @property
    def against_bots(self) -> bool:
        """A bot sits at the table: the analysis is offered (friends among people may not want it)."""
        return len(self.session.humans) < self.session.state.players

    def action_rematch(self) -> None:
        self.rematch()

    def action_replay(self) -> None:
        self.replay_this_game()

    def action_analyse(self) -> None:
        self.replay_this_game(analyse=True)

    def action_result(self) -> None:
        """Bring back the result box closed with Board (b or Escape)."""
        self.show_result()

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
        if event.index == self.selected and not self.session.state.is_terminal():
            self.action_forget()  # a click on the chosen card puts it back
            return
        self.choose_card(event.index)

    def on_board_view_cell_chosen(self, event: BoardView.CellChosen) -> None:
        self.play_cell(event.cell, by_key=event.by_key)

    def play_cell(self, cell: int, by_key: bool = False) -> None:
        """Play the chosen card on ``cell``. With no card chosen, a click plays the card printed
        there if it is held; Enter only chooses that card (a second Enter plays it), so a key
        pressed once too often (after the pass screen, say) never plays a card nobody chose."""
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
                if not by_key:
                    self.act(cell)
                    return
                self.choose_card(hand.index(printed[0]))
                self.query_one(BoardView).cursor = cell
                self.say(
                    _("{card} chosen: Enter plays it on {cell}; Escape or another card changes it.").format(
                        card=card_label(printed[0]), cell=cell_name(cell)
                    )
                )
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
        if action in ENDED_ACTIONS:
            if not st.is_terminal():
                return False
            return action != "analyse" or self.against_bots
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
        if digit - 1 == self.selected and not self.session.state.is_terminal():
            self.action_forget()  # the chosen card's digit again puts it back
            return
        self.choose_card(digit - 1)

    def action_column(self, letter: str) -> None:
        """The first half of a typed cell: the column; the row digit plays there."""
        if self.hand_hidden or self.session.state.is_terminal():
            return
        self.column = letter
        self.say(_("Space {column}_: now its row, 0-9 (Escape forgets the column).").format(column=letter))

    def action_forget(self) -> None:
        """Escape: forget a typed column, else put the chosen card back (nothing chosen)."""
        if self.column is not None:
            self.column = None
            self.say("")
        elif self.selected is not None:
            self.selected = None
            self.refresh_table()
            self.say(_("No card chosen."))

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
        """The hint, off the UI thread so the table stays responsive: the expert's play and why
        (:mod:`sequence_game.analysis.hint`); the strongest bot's play where NumPy is missing."""
        found = explained_hint(view, moment)
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
        hint = hint_parts(action, hand)
        if hint.card is not None and hint.card in hand:
            self.choose_card(hand.index(hint.card))
        if hint.cell is not None:
            self.query_one(BoardView).cursor = hint.cell
        if hint.text:
            self.say(hint.text if why is None else f"{hint.text} {why}")

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
        """The new-game screen on top of this game. The game goes on beneath it (a bot thinking
        finishes its move), so cancelling comes back to a live table; starting a new game replaces
        this screen, and a bot's late answer then finds it detached and is dropped."""
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

        self.app.push_screen(ResultScreen(title, detail, can_analyse=self.against_bots), chosen)
