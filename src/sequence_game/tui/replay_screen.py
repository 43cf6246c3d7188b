"""``sequence play --replay FILE``: step through a game record forwards and backwards."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..cards import card_label
from ..state import GameState
from .controller import SIDE_LETTERS, SIDE_NAMES, ReplayModel, describe_event, last_move_cell, result_text
from .widgets import CHIP_STYLES, BoardPicture, BoardView


class ReplayScreen(Screen[None]):
    """The board after each step of a record; every hand is shown (a record hides nothing)."""

    BINDINGS = [  # noqa: RUF012
        Binding("right,n,space", "step(1)", "Next"),
        Binding("left,p", "step(-1)", "Back"),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("q,escape", "quit", "Quit"),
    ]
    DEFAULT_CSS = """
    #replay-side { width: 1fr; padding: 0 0 0 1; }
    #replay-status { height: auto; }
    #replay-hands { height: auto; }
    """

    def __init__(self, model: ReplayModel, name: str = "record") -> None:
        super().__init__()
        self.model = model
        self.record_name = name

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield BoardView(id="board")
            with Vertical(id="replay-side"):
                yield Static("", id="replay-status")
                yield Static("", id="replay-hands")
        yield Footer()

    def on_mount(self) -> None:
        board = self.query_one(BoardView)
        board.can_focus = False  # arrows step through the record here, not the cursor
        board.blur()
        self.show(self.model.goto(0))

    def action_step(self, delta: int) -> None:
        self.show(self.model.move(delta))

    def action_jump(self, step: int) -> None:
        self.show(self.model.goto(self.model.steps if step < 0 else step))

    def action_quit(self) -> None:
        self.app.exit()

    def show(self, state: GameState) -> None:
        board = self.query_one(BoardView)
        board.cursor = -1  # no cursor in a replay
        board.show(
            BoardPicture(
                chips=tuple(state.chips(s) for s in range(state.config.sides)),
                locked=state.locked,
                last=last_move_cell(state),
            )
        )
        m = self.model
        text = Text()
        text.append(f"Replay of {self.record_name}\n", style="bold")
        text.append(f"Step {m.step} of {m.steps}\n")
        history = state.history
        text.append((describe_event(state, history[-1]) if history else "The deal.") + "\n")
        if state.is_terminal():
            text.append(result_text(state) + "\n", style="bold")
        elif m.step == m.steps and not m.final.ok:
            text.append(f"The record stops here: {m.final.rule}: {m.final.error}\n", style="bold red")
        counts = state.sequence_counts()
        for side in range(state.config.sides):
            text.append(f" {SIDE_LETTERS[side]} ", style=CHIP_STYLES[side])
            text.append(f" {SIDE_NAMES[side]} {counts[side]}/{state.config.sequences_to_win}\n")
        text.append(f"Draw pile {state.deck_size}\n")
        self.query_one("#replay-status", Static).update(text)
        hands = Text()
        for seat in range(state.players):
            hands.append(f"S{seat} ", style="bold")
            hands.append(" ".join(card_label(c) for c in state.hand(seat)) + "\n")
        self.query_one("#replay-hands", Static).update(hands)
