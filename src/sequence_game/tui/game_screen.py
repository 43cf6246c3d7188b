"""The game table: board, hand, side panel and log; people act by keys or mouse, bots in threads."""

from __future__ import annotations

import time
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, RichLog, Static

from ..actions import DEAD, DISCARD, DRAW
from ..bots import Bot
from ..cards import Card, card_label, is_jack, is_one_eyed, is_two_eyed
from ..errors import IllegalActionError
from ..views import PlayerView
from .controller import SIDE_LETTERS, SIDE_NAMES, GameSession
from .rules_text import KEYS_HELP, RULES_SUMMARY
from .screens import PassScreen, ResultScreen, SaveScreen, TalkScreen, TextScreen
from .widgets import CHIP_STYLES, BoardPicture, BoardView, HandView


class GameScreen(Screen[None]):
    """One game in progress."""

    BINDINGS = [  # noqa: RUF012
        *(Binding(str(i), f"pick({i - 1})", f"Card {i}", show=False) for i in range(1, 10)),
        Binding("x", "throw", "Exchange"),
        Binding("d", "draw", "Draw"),
        Binding("t", "talk", "Talk"),
        Binding("s", "save", "Save"),
        Binding("l", "log", "Log"),
        Binding("question_mark", "rules", "Rules"),
        Binding("n", "new_game", "New"),
        Binding("q", "quit", "Quit"),
    ]
    DEFAULT_CSS = """
    #table { height: 1fr; }
    #left { width: auto; height: 1fr; }
    #side { width: 1fr; min-width: 24; height: 1fr; padding: 0 0 0 1; }
    #status { height: auto; }
    #draw { width: 100%; min-width: 10; height: 1; border: none; margin: 0; display: none; }
    #draw.owed { display: block; }
    #log { height: 1fr; border-top: solid $primary-darken-2; scrollbar-size-vertical: 1; }
    #message { height: 2; width: 54; color: $text; }
    #message.error { color: $error; }
    HandView { width: 54; }
    """

    def __init__(self, session: GameSession, *, bot_delay: float = 0.4) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.viewer = session.humans[0] if session.humans else 0
        self.selected: int | None = None
        self.hand_hidden = False
        self.thinking: int | None = None
        self.result_shown = False
        self._token = 0
        self._logged = 0

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="table"):
            with Vertical(id="left"):
                yield BoardView(id="board")
                yield HandView(id="hand")
                yield Static("", id="message")
            with Vertical(id="side"):
                yield Static("", id="status")
                yield Button("Draw (R5.3)", id="draw", compact=True, variant="warning")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)
        self.query_one(BoardView).focus()
        self.refresh_table()
        self.call_after_refresh(self.advance)

    def on_resize(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)

    def fit(self, width: int, height: int) -> None:
        """Wider cells from 110 columns, spaced rows from 34 lines (the board follows resizes)."""
        cell_width = 7 if width >= 110 else 5
        row_height = 2 if height >= 34 else 1
        board = self.query_one(BoardView)
        board.set_geometry(cell_width, row_height)
        board_width = 2 + 10 * cell_width + 2
        self.query_one(HandView).styles.width = board_width
        self.query_one("#message").styles.width = board_width

    # ---------------------------------------------------------- drawing

    def refresh_table(self) -> None:
        s, st = self.session, self.session.state
        viewer = self.viewer
        hand = st.hand(viewer)
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
            )
        )
        caption = f"Hand of {s.seat_label(viewer)}" if not s.single_human else "Your hand"
        self.query_one(HandView).show(
            hand,
            {c for c in hand if st.is_dead(c)},
            self.selected,
            caption=caption,
            hidden_text="hidden until the next player takes the keyboard" if self.hand_hidden else None,
        )
        self.query_one("#status", Static).update(self.status_text())
        draw = self.query_one("#draw", Button)
        owed = [] if self.hand_hidden else s.human_draw_seats()
        draw.set_class(bool(owed), "owed")
        if owed:
            who = "you" if s.single_human else f"seat {self.draw_seat()}"
            draw.label = f"Draw ({who}, R5.3) [d]"
        log = self.query_one(RichLog)
        for line in s.log[self._logged :]:
            log.write(line)
        self._logged = len(s.log)

    def status_text(self) -> Text:
        s, st = self.session, self.session.state
        cfg = st.config
        text = Text(no_wrap=False)
        if st.is_terminal():
            text.append("Game over\n", style="bold")
        else:
            mover = st.current_seat
            doing = "pays the R6.1 fine" if st.penalty_due else "to play"
            who = "You" if s.single_human and not s.is_bot(mover) else s.short_label(mover)
            text.append(f"Turn {st.turn + 1}: {who} {doing}", style="bold")
            if self.thinking is not None:
                text.append(" …", style="italic")
            text.append("\n")
        counts = st.sequence_counts()
        for side in range(cfg.sides):
            text.append(f" {SIDE_LETTERS[side]} ", style=CHIP_STYLES[side])
            members = " ".join(s.short_label(seat).split()[0] for seat in cfg.seats_of(side))
            text.append(f" {counts[side]}/{cfg.sequences_to_win} seq: {members}\n")
        text.append(f"Deck {st.deck_size}", style="bold")
        text.append(f" · {cfg.draw} draw · discards:\n")
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
        widget.update(message)
        widget.set_class(error, "error")

    # ------------------------------------------------------------ flow

    def advance(self) -> None:
        """After every change: finish, let a bot think, or hand the keyboard to the right person."""
        s = self.session
        if s.state.is_terminal():
            self.thinking = None
            self.refresh_table()
            if not self.result_shown:
                self.result_shown = True
                self.show_result()
            return
        seat = s.bot_to_move()
        if seat is not None:
            if self.thinking is None:
                self.thinking = seat
                self.refresh_table()
                self.think(s.bots[seat], s.bot_view(seat), seat, self._token)
            return
        person = s.human_to_prompt()
        if person is not None and person != self.viewer:
            self.selected = None
            if len(s.humans) > 1:
                self.hand_hidden = True
                self.refresh_table()
                reason = "R6.1: you owe a table-talk discard." if s.state.penalty_due else ""
                self.app.push_screen(PassScreen(s.seat_label(person), reason), lambda _: self.reveal(person))
                return
            self.viewer = person
        self.refresh_table()
        if person is not None and not self.hand_hidden:
            self.prompt(person)

    def reveal(self, seat: int) -> None:
        self.viewer = seat
        self.hand_hidden = False
        self.refresh_table()
        self.prompt(seat)

    def prompt(self, seat: int) -> None:
        st = self.session.state
        acts = st.legal_actions(seat)
        who = "You" if self.session.single_human else self.session.seat_label(seat)
        if st.penalty_due:
            self.say(f"{who}: table talk (R6.1), choose a card to give up (1-9) and press x.")
        elif acts == [DRAW]:
            self.say(f"{who}: draw a card (d) before the next player draws (R5.3).")
        elif all(DISCARD <= a < DRAW or a == DRAW for a in acts):
            self.say(f"{who}: no legal play (R5.5). Choose a card to discard (1-9) and press x.")
        elif self.selected is None:
            self.say(f"{who}: choose a card (1-9 or click), then a highlighted space.")

    @work(thread=True, exclusive=True, group="bot")
    def think(self, bot: Bot, view: PlayerView, seat: int, token: int) -> None:
        """Run the bot off the UI thread; it sees only its own view."""
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
        self.advance()

    def act(self, action: int, card: Card | None = None, seat: int | None = None) -> bool:
        """A person's action: apply it or explain the rule it breaks."""
        seat = self.viewer if seat is None else seat
        try:
            self.session.apply(action, seat, card)
        except IllegalActionError as exc:
            self.say(str(exc), error=True)
            return False
        self.selected = None
        self.say("")
        self.advance()
        return True

    # --------------------------------------------------------- choosing

    def hand(self) -> list[Card]:
        return self.session.state.hand(self.viewer)

    def choose_card(self, index: int) -> None:
        if self.hand_hidden:
            return
        hand = self.hand()
        if not 0 <= index < len(hand):
            self.say(f"There is no card {index + 1} in the hand.", error=True)
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
            return f"{label}: press x to discard it."
        if not is_jack(card) and st.is_dead(card):
            reason = s.explain(DEAD + card, self.viewer)
            return f"{label} is dead (R5.1): both its spaces are taken. " + (
                reason or "Press x to exchange it for a new card."
            )
        if self.viewer not in st.seats_to_act():
            return f"{label}: wait for your turn (R4.3)."
        if is_two_eyed(card):
            return f"{label} two-eyed jack: a chip on any open space (+). Arrows/Enter or click."
        if is_one_eyed(card):
            if not targets:
                return (
                    f"{label} one-eyed jack: no opponent chip can be removed now (R3.5: locked chips stay)."
                )
            return f"{label} one-eyed jack: remove an opponent chip (×). Arrows/Enter or click."
        return f"{label}: choose a highlighted space (+), Enter or click."

    def on_hand_view_card_chosen(self, event: HandView.CardChosen) -> None:
        self.choose_card(event.index)

    def on_board_view_cell_chosen(self, event: BoardView.CellChosen) -> None:
        if self.hand_hidden:
            return
        s, st = self.session, self.session.state
        cell = event.cell
        hand = self.hand()
        if self.selected is None:
            # no card chosen: a normal card printed on that space plays at once
            printed = [c for c in hand if not is_jack(c) and cell in s.targets(c, self.viewer)]
            if printed and self.viewer in st.seats_to_act():
                self.act(printed[0])
                return
            self.say("Choose a card first: 1-9 or click it in your hand.", error=True)
            return
        card = hand[self.selected]
        targets = s.targets(card, self.viewer)
        if cell in targets:
            self.act(targets[cell], card if is_jack(card) else None)
            return
        reason = s.explain_cell(card, cell, self.viewer) or s.explain(DEAD + card, self.viewer)
        self.say(reason or f"{card_label(card)} cannot go there.", error=True)

    # ---------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show Draw only in manual-draw games and Talk only where teams exist (R5.3, R6.1)."""
        cfg = self.session.state.config
        if action == "draw":
            return cfg.draw == "manual"
        if action == "talk":
            return cfg.team_size >= 2
        return True

    def action_pick(self, index: int) -> None:
        self.choose_card(index)

    def action_throw(self) -> None:
        """Exchange the chosen dead card (R5.1), or discard it (R5.5, R6.1)."""
        if self.hand_hidden or self.selected is None:
            self.say("Choose the card first (1-9), then press x.", error=True)
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
        self.say(reason or "That card cannot be given up now.", error=True)

    def draw_seat(self) -> int | None:
        owed = self.session.human_draw_seats()
        if not owed:
            return None
        return self.viewer if self.viewer in owed else owed[0]

    def action_draw(self) -> None:
        seat = self.draw_seat()
        if seat is None:
            if self.session.state.config.draw != "manual":
                self.say("R5.3: draws are automatic in this game.", error=True)
            else:
                self.say("R5.3: nobody here owes a draw.", error=True)
            return
        self.act(DRAW, seat=seat)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "draw":
            self.action_draw()

    def action_talk(self) -> None:
        st = self.session.state
        if st.config.team_size < 2:
            self.say("R6.1: the table-talk penalty applies only to teams of two or more.", error=True)
            return

        def chosen(side: int | None) -> None:
            if side is None:
                return
            try:
                self.session.call_table_talk(side)
            except IllegalActionError as exc:
                self.say(str(exc), error=True)
                return
            self.selected = None
            self.advance()

        self.app.push_screen(TalkScreen(st.config.sides), chosen)

    def action_save(self) -> None:
        def chosen(path: str | None) -> None:
            if not path:
                return
            try:
                saved = self.session.save(path)
            except OSError as exc:
                self.say(f"Cannot save: {exc}", error=True)
                return
            self.say(f"Saved to {saved}. Resume with: sequence play --resume {Path(path)}")
            self.refresh_table()

        self.app.push_screen(SaveScreen(), chosen)

    def action_log(self) -> None:
        self.app.push_screen(TextScreen("Game log", "\n".join(self.session.log)))

    def action_rules(self) -> None:
        self.app.push_screen(TextScreen("Rules and keys", RULES_SUMMARY + "\n" + KEYS_HELP))

    def action_new_game(self) -> None:
        self._token += 1
        self.app.action_new_game()  # type: ignore[attr-defined]

    def action_quit(self) -> None:
        self._token += 1
        self.app.exit()

    def show_result(self) -> None:
        s = self.session
        outcome = s.state.outcome()
        assert outcome is not None
        if outcome.winner is None:
            title = "Drawn game"
        else:
            mine = {s.state.config.side_of(h) for h in s.humans}
            winner = SIDE_NAMES[outcome.winner]
            if s.single_human:
                title = f"You win! ({winner})" if outcome.winner in mine else f"{winner} wins"
            else:
                title = f"{winner} wins"
        detail = f"{s.result_text()}\nAfter {s.state.turn} turns."

        def chosen(what: str | None) -> None:
            if what == "new":
                self.action_new_game()
            elif what == "save":
                self.action_save()
            elif what == "quit":
                self.action_quit()

        self.app.push_screen(ResultScreen(title, detail), chosen)
