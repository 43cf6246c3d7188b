"""The screens around a game: new game, pass-the-keyboard, rules, log, save, table talk, result."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from ..config import TEAM_OPTIONS, GameConfig
from .controller import DEFAULT_LEVEL, HUMAN, LEVELS, SIDE_NAMES

MAX_PLAYERS = max(TEAM_OPTIONS)


@dataclass(frozen=True)
class GameSetup:
    """What the new-game screen asks for."""

    players: int = 2
    teams: int | None = None
    draw: str = "auto"
    seed: int | None = None
    seats: tuple[str, ...] = (HUMAN, DEFAULT_LEVEL)


def seat_options() -> list[tuple[str, str]]:
    """A person, or a bot at each level (a level whose bot is not installed falls back, see
    :func:`~sequence_game.tui.controller.bot_for_level`)."""
    return [("Person at this keyboard", HUMAN), *((f"Bot: {level}", level) for level in LEVELS)]


class NewGameScreen(Screen[GameSetup | None]):
    """Players (R2.1), teams where the count allows a choice (R2.2), who plays each seat, draw mode, seed."""

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "cancel", "Back"),
        Binding("ctrl+s", "start", "Start"),
    ]
    DEFAULT_CSS = """
    NewGameScreen { align: center top; }
    #setup { width: 78; max-width: 100%; height: auto; max-height: 100%; padding: 0 1; }
    #setup-title { text-style: bold; color: $accent; padding: 0 0 1 0; }
    .row { height: auto; }
    .row Label { padding: 0 1 0 0; width: auto; }
    .field { width: 1fr; }
    #seats { height: auto; max-height: 12; border: round $primary-darken-2; }
    .seat-row { height: 1; }
    .seat-row Label { width: 16; }
    .seat-row Select { width: 1fr; }
    #buttons { height: 3; align: center middle; }
    #buttons Button { margin: 0 1; }
    #setup-error { color: $error; height: auto; }
    #setup-hint { color: $text-muted; height: auto; }
    """

    def __init__(self, setup: GameSetup | None = None, can_cancel: bool = False) -> None:
        super().__init__()
        self.setup = setup or GameSetup()
        self.can_cancel = can_cancel

    def compose(self) -> ComposeResult:
        s = self.setup
        with Vertical(id="setup"):
            yield Static("Sequence: new game", id="setup-title")
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Select(
                    [(str(n), n) for n in TEAM_OPTIONS],
                    value=s.players,
                    allow_blank=False,
                    compact=True,
                    id="players",
                    classes="field",
                )
                yield Label(" Sides")
                yield Select(
                    self._team_options(s.players),
                    value=s.teams or TEAM_OPTIONS[s.players][0],
                    allow_blank=False,
                    compact=True,
                    id="teams",
                    classes="field",
                )
            with Horizontal(classes="row"):
                yield Label("Draw   ")
                yield Select(
                    [("automatic", "auto"), ("manual (R5.3)", "manual")],
                    value=s.draw,
                    allow_blank=False,
                    compact=True,
                    id="draw",
                    classes="field",
                )
                yield Label(" Seed")
                yield Input(
                    "" if s.seed is None else str(s.seed),
                    placeholder="random",
                    type="integer",
                    compact=True,
                    id="seed",
                    classes="field",
                )
            with VerticalScroll(id="seats"):
                for seat in range(MAX_PLAYERS):
                    level = s.seats[seat] if seat < len(s.seats) else s.seats[-1]
                    with Horizontal(classes="seat-row", id=f"seat-row-{seat}"):
                        yield Label(f"Seat {seat}", id=f"seat-label-{seat}")
                        yield Select(
                            seat_options(),
                            value=level if level in (HUMAN, *LEVELS) else DEFAULT_LEVEL,
                            allow_blank=False,
                            compact=True,
                            id=f"seat-{seat}",
                        )
            yield Static(
                "Seats alternate between sides (R2.3); the dealer is cut for (R4.1) and the next "
                "seat starts. Enter starts the game.",
                id="setup-hint",
            )
            yield Static("", id="setup-error")
            with Horizontal(id="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Quit", id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#teams", Select).disabled = len(TEAM_OPTIONS[self._players()]) == 1
        self._layout_seats()
        self.query_one("#start", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_cancel if action == "cancel" else True

    @staticmethod
    def _team_options(players: int) -> list[tuple[str, int]]:
        return [
            (f"{t} ({'alone' if t == players else f'teams of {players // t}'})", t)
            for t in TEAM_OPTIONS[players]
        ]

    def _players(self) -> int:
        return int(self.query_one("#players", Select).value)  # type: ignore[arg-type]

    def _layout_seats(self) -> None:
        players = self._players()
        teams_select = self.query_one("#teams", Select)
        sides = (
            teams_select.value if teams_select.value in TEAM_OPTIONS[players] else TEAM_OPTIONS[players][0]
        )
        for seat in range(MAX_PLAYERS):
            self.query_one(f"#seat-row-{seat}").display = seat < players
            self.query_one(f"#seat-label-{seat}", Label).update(
                f"Seat {seat} {SIDE_NAMES[seat % int(sides)]}"
            )

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "players":
            players = self._players()
            teams = self.query_one("#teams", Select)
            teams.set_options(self._team_options(players))
            teams.value = TEAM_OPTIONS[players][0]
            teams.disabled = len(TEAM_OPTIONS[players]) == 1
        if event.select.id in ("players", "teams"):
            self._layout_seats()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "quit":
            self.app.exit()

    def read_setup(self) -> GameSetup:
        """The form as a :class:`GameSetup`; raises ``ValueError`` (with its rule) if the table is refused."""
        players = self._players()
        teams = int(self.query_one("#teams", Select).value)  # type: ignore[arg-type]
        draw = str(self.query_one("#draw", Select).value)
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text else None
        seats = tuple(str(self.query_one(f"#seat-{i}", Select).value) for i in range(players))
        GameConfig(players=players, teams=teams, draw=draw)  # type: ignore[arg-type]
        return GameSetup(players, teams, draw, seed, seats)

    def action_start(self) -> None:
        try:
            setup = self.read_setup()
        except ValueError as exc:
            self.query_one("#setup-error", Static).update(str(exc))
            return
        self.dismiss(setup)

    def action_cancel(self) -> None:
        if self.can_cancel:
            self.dismiss(None)


class PassScreen(ModalScreen[None]):
    """Hot-seat: hide the hand until the next person has the keyboard."""

    BINDINGS = [Binding("enter", "ready", "Show my hand")]  # noqa: RUF012
    DEFAULT_CSS = """
    PassScreen { align: center middle; background: $background; }
    #pass { width: 60; height: auto; border: heavy $accent; padding: 1 2; }
    #pass Static { width: 100%; content-align: center middle; }
    #pass Button { width: 100%; margin-top: 1; }
    """

    def __init__(self, label: str, reason: str = "") -> None:
        super().__init__()
        self.label = label
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(f"Pass the keyboard to {self.label}.", id="pass-to")
            if self.reason:
                yield Static(self.reason)
            yield Static("Everyone else: look away. The hand stays hidden until you press Enter.")
            yield Button(f"I am {self.label}: show my hand", variant="primary", id="ready")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_ready()

    def action_ready(self) -> None:
        self.dismiss(None)


class TextScreen(ModalScreen[None]):
    """A scrollable page of text: the rules, the keys, the game log."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "Close")]  # noqa: RUF012
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    #page { width: 100; max-width: 100%; height: 100%; border: round $accent; padding: 0 1; }
    """

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="page") as page:
            page.border_title = self.title_text
            yield Static(self.body, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#page").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class SaveScreen(ModalScreen[str | None]):
    """Ask where to save the game record."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]  # noqa: RUF012
    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    #save { width: 70; height: auto; border: round $accent; padding: 0 1; }
    """

    def __init__(self, default: str | None = None) -> None:
        super().__init__()
        self.default = default or f"sequence-{datetime.now():%Y%m%d-%H%M%S}.json"

    def compose(self) -> ComposeResult:
        with Vertical(id="save"):
            yield Label("Save the game record (resume with: sequence play --resume FILE)")
            yield Input(self.default, id="path")
            yield Static("Enter saves, Escape cancels.")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TalkScreen(ModalScreen[int | None]):
    """The host upholds a table-talk call (R6.1) against one side."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]  # noqa: RUF012
    DEFAULT_CSS = """
    TalkScreen { align: center middle; }
    #talk { width: 64; height: auto; border: round $warning; padding: 0 1; }
    #talk Button { width: 100%; }
    """

    def __init__(self, sides: int) -> None:
        super().__init__()
        self.sides = sides

    def compose(self) -> ComposeResult:
        with Vertical(id="talk"):
            yield Static(
                "R6.1 Table talk: a player alerted or steered a team mate. Uphold the call against "
                "which team? Each of its members then discards a card of their choice, without drawing."
            )
            for side in range(self.sides):
                yield Button(f"{SIDE_NAMES[side]} team", id=f"talk-{side}")
            yield Button("Cancel", id="talk-cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        self.dismiss(None if bid == "talk-cancel" else int(bid.rsplit("-", 1)[1]))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResultScreen(ModalScreen[str]):
    """The end of the game: who won and what next."""

    BINDINGS = [  # noqa: RUF012
        Binding("n", "choose('new')", "New game"),
        Binding("s", "choose('save')", "Save"),
        Binding("escape,b", "choose('board')", "Board"),
        Binding("q", "choose('quit')", "Quit"),
    ]
    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    #result { width: 64; height: auto; border: double $success; padding: 1 2; }
    #result-title { text-style: bold; width: 100%; content-align: center middle; }
    #result Horizontal { height: 3; margin-top: 1; }
    #result Button { margin: 0 1; min-width: 10; }
    """

    def __init__(self, title: str, detail: str) -> None:
        super().__init__()
        self.title_text = title
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="result"):
            yield Static(self.title_text, id="result-title")
            yield Static(self.detail)
            with Horizontal():
                yield Button("New game", variant="primary", id="new")
                yield Button("Save", id="save")
                yield Button("Board", id="board")
                yield Button("Quit", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "board")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
