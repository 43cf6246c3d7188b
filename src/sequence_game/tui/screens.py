"""The screens around a game: new game, pass-the-keyboard, rules, log, save, table talk, result."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.console import Group, RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DirectoryTree, Footer, Input, Label, Select, Static

from ..config import TEAM_OPTIONS, GameConfig
from ..i18n import N_, _, engine_message
from .bindings import translate_bindings
from .controller import DEFAULT_LEVEL, HUMAN, LEVELS, level_word, side_name, unfinished_autosave

MAX_PLAYERS = max(TEAM_OPTIONS)


@dataclass(frozen=True)
class GameSetup:
    """What the new-game screen asks for."""

    players: int = 2
    teams: int | None = None
    draw: str = "auto"
    seed: int | None = None
    seats: tuple[str, ...] = (HUMAN, DEFAULT_LEVEL)


@dataclass(frozen=True)
class ContinueGame:
    """The start screen's answer "continue the autosaved game"."""

    path: Path


@dataclass(frozen=True)
class OpenReplay:
    """The start screen's answer "step through this record"."""

    path: Path


def seat_options() -> list[tuple[str, str]]:
    """A person, or a bot at each level (a level whose bot is not installed falls back, see
    :func:`~sequence_game.tui.controller.bot_for_level`)."""
    return [
        (_("Person at this keyboard"), HUMAN),
        *((_("Bot: {level}").format(level=level_word(level)), level) for level in LEVELS),
    ]


class NewGameScreen(Screen[GameSetup | ContinueGame | OpenReplay | None]):
    """Players (R2.1), teams where the count allows a choice (R2.2), who plays each seat, draw mode, seed;
    or continue the last game, or open a replay."""

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "cancel", N_("Back")),
        Binding("ctrl+s", "start", N_("Start")),
        Binding("ctrl+o", "open_replay", N_("Open replay")),
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
    NewGameScreen Select:focus > SelectCurrent { background: $accent; color: $text; text-style: bold; }
    NewGameScreen Input:focus { background: $accent; color: $text; text-style: bold; }
    NewGameScreen Button:focus { background: $accent; color: $text; text-style: bold reverse; }
    NewGameScreen #seats:focus { border: double $accent; }
    #setup-error { color: $error; height: auto; }
    #setup-hint { color: $text-muted; height: auto; }
    """

    def __init__(self, setup: GameSetup | None = None, can_cancel: bool = False) -> None:
        super().__init__()
        translate_bindings(self)
        self.setup = setup or GameSetup()
        self.can_cancel = can_cancel
        self.saved = unfinished_autosave()

    def compose(self) -> ComposeResult:
        s = self.setup
        with Vertical(id="setup"):
            yield Static(_("Sequence: new game"), id="setup-title")
            with Horizontal(classes="row"):
                yield Label(_("Players"))
                yield Select(
                    [(str(n), n) for n in TEAM_OPTIONS],
                    value=s.players,
                    allow_blank=False,
                    compact=True,
                    id="players",
                    classes="field",
                )
                yield Label(" " + _("Sides"))
                yield Select(
                    self._team_options(s.players),
                    value=s.teams or TEAM_OPTIONS[s.players][0],
                    allow_blank=False,
                    compact=True,
                    id="teams",
                    classes="field",
                )
            with Horizontal(classes="row"):
                yield Label(_("Draw").ljust(len(_("Players"))))
                yield Select(
                    [(_("automatic"), "auto"), (_("manual (R5.3)"), "manual")],
                    value=s.draw,
                    allow_blank=False,
                    compact=True,
                    id="draw",
                    classes="field",
                )
                yield Label(" " + _("Seed"))
                yield Input(
                    "" if s.seed is None else str(s.seed),
                    placeholder=_("random"),
                    type="integer",
                    compact=True,
                    id="seed",
                    classes="field",
                )
            with VerticalScroll(id="seats"):
                for seat in range(MAX_PLAYERS):
                    level = s.seats[seat] if seat < len(s.seats) else s.seats[-1]
                    with Horizontal(classes="seat-row", id=f"seat-row-{seat}"):
                        yield Label(_("Seat {n}").format(n=seat), id=f"seat-label-{seat}")
                        yield Select(
                            seat_options(),
                            value=level if level in (HUMAN, *LEVELS) else DEFAULT_LEVEL,
                            allow_blank=False,
                            compact=True,
                            id=f"seat-{seat}",
                        )
            yield Static(
                _(
                    "Seats alternate between sides (R2.3); the dealer is cut for (R4.1) and the next "
                    "seat starts. Enter starts the game."
                ),
                id="setup-hint",
            )
            yield Static("", id="setup-error")
            with Horizontal(id="buttons"):
                if self.saved is not None:
                    yield Button(_("Continue last game"), variant="success", id="continue")
                yield Button(_("Start"), variant="primary", id="start")
                yield Button(_("Replay…"), id="replay")
                yield Button(_("Quit"), id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#teams", Select).disabled = len(TEAM_OPTIONS[self._players()]) == 1
        self._layout_seats()
        self.query_one("#continue" if self.saved is not None else "#start", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_cancel if action == "cancel" else True

    @staticmethod
    def _team_options(players: int) -> list[tuple[str, int]]:
        return [
            (
                _("{sides} (alone)").format(sides=t)
                if t == players
                else _("{sides} (teams of {size})").format(sides=t, size=players // t),
                t,
            )
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
                _("Seat {n} {side}").format(n=seat, side=side_name(seat % int(sides)))
            )

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "players":
            players = self._players()
            teams = self.query_one("#teams", Select)
            teams.set_options(self._team_options(players))
            teams.value = TEAM_OPTIONS[players][0]
            # set_options keeps the old label when the value stays the same (4 players read
            # "2 (alone)"): run the value's watcher again so the label follows the new options.
            teams.mutate_reactive(Select.value)  # type: ignore[misc]
            teams.disabled = len(TEAM_OPTIONS[players]) == 1
        if event.select.id in ("players", "teams"):
            self._layout_seats()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "continue" and self.saved is not None:
            self.dismiss(ContinueGame(self.saved))
        elif event.button.id == "replay":
            self.action_open_replay()
        elif event.button.id == "quit":
            self.app.exit()

    def action_open_replay(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self.dismiss(OpenReplay(path))

        self.app.push_screen(ReplayPicker(), chosen)

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

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the Seed field starts the game, as the hint under the form says."""
        event.stop()
        self.action_start()

    def action_start(self) -> None:
        try:
            setup = self.read_setup()
        except ValueError as exc:
            self.query_one("#setup-error", Static).update(engine_message(exc))
            return
        self.dismiss(setup)

    def action_cancel(self) -> None:
        if self.can_cancel:
            self.dismiss(None)


class PassScreen(ModalScreen[str]):
    """Hot-seat: hide the hand until the next person has the keyboard; answers ``"ready"`` or ``"quit"``."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter", "ready", N_("Show my hand")),
        Binding("q", "quit", N_("Quit")),
    ]
    DEFAULT_CSS = """
    PassScreen { align: center middle; background: $background; }
    #pass { width: 60; height: auto; border: heavy $accent; padding: 1 2; }
    #pass Static { width: 100%; content-align: center middle; }
    #pass Button { width: 100%; margin-top: 1; }
    """

    def __init__(self, label: str, reason: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.label = label
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(_("Pass the keyboard to {who}.").format(who=self.label), id="pass-to")
            if self.reason:
                yield Static(self.reason)
            yield Static(
                _(
                    "Everyone else: look away. The hand stays hidden until you press Enter (q quits, "
                    "after asking)."
                )
            )
            yield Button(_("I am {who}: show my hand").format(who=self.label), variant="primary", id="ready")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_ready()

    def action_ready(self) -> None:
        self.dismiss("ready")

    def action_quit(self) -> None:
        self.dismiss("quit")


class TextScreen(ModalScreen[None]):
    """A scrollable page of text: the rules, the keys, the game log."""

    BINDINGS = [Binding("escape,q,question_mark", "close", N_("Close"))]  # noqa: RUF012
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    #page { width: 100; max-width: 100%; height: 100%; border: round $accent; padding: 0 1; }
    """

    def __init__(self, title: str, body: str | Iterable[RenderableType]) -> None:
        super().__init__()
        translate_bindings(self)
        self.title_text = title
        self.body: RenderableType = body if isinstance(body, str) else Group(*body)

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

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]  # noqa: RUF012
    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    #save { width: 70; height: auto; border: round $accent; padding: 0 1; }
    """

    def __init__(self, default: str | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.default = default or f"sequence-{datetime.now():%Y%m%d-%H%M%S}.json"

    def compose(self) -> ComposeResult:
        with Vertical(id="save"):
            yield Label(_("Save the game record (resume with: sequence play --resume FILE)"))
            yield Input(self.default, id="path")
            yield Static(_("Enter saves, Escape cancels."))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TalkScreen(ModalScreen[int | None]):
    """The host upholds a table-talk call (R6.1) against one side."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]  # noqa: RUF012
    DEFAULT_CSS = """
    TalkScreen { align: center middle; }
    #talk { width: 64; height: auto; border: round $warning; padding: 0 1; }
    #talk Button { width: 100%; }
    """

    def __init__(self, sides: int) -> None:
        super().__init__()
        translate_bindings(self)
        self.sides = sides

    def compose(self) -> ComposeResult:
        with Vertical(id="talk"):
            yield Static(
                _(
                    "R6.1 Table talk: a player alerted or steered a team mate. Uphold the call against "
                    "which team? Each of its members then discards a card of their choice, without drawing."
                )
            )
            for side in range(self.sides):
                yield Button(_("{side} team").format(side=side_name(side)), id=f"talk-{side}")
            yield Button(_("Cancel"), id="talk-cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        self.dismiss(None if bid == "talk-cancel" else int(bid.rsplit("-", 1)[1]))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmQuitScreen(ModalScreen[bool]):
    """``q`` in a game: ask first, and say where the game was saved."""

    BINDINGS = [  # noqa: RUF012
        Binding("y,q", "answer(True)", N_("Quit")),
        Binding("n,escape", "answer(False)", N_("Keep playing")),
    ]
    DEFAULT_CSS = """
    ConfirmQuitScreen { align: center middle; }
    #confirm { width: 64; max-width: 100%; height: auto; border: heavy $warning; padding: 0 1; }
    #confirm Horizontal { height: 3; align: center middle; }
    #confirm Button { margin: 0 1; }
    """

    def __init__(self, saved: Path | None) -> None:
        super().__init__()
        translate_bindings(self)
        self.saved = saved

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(_("Quit this game?"), classes="title")
            if self.saved is not None:
                yield Static(
                    _(
                        "It is saved: choose Continue on the start screen, or run sequence play --resume {path}"
                    ).format(path=self.saved),
                    markup=False,
                )
            else:
                yield Static(_("It could not be saved automatically: press n, then s to save it."))
            with Horizontal():
                yield Button(_("Quit (y)"), variant="error", id="yes")
                yield Button(_("Keep playing (n)"), variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, quit_game: bool) -> None:
        self.dismiss(quit_game)


class RecordTree(DirectoryTree):
    """Folders and JSON files only: the records a replay can open."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and (p.is_dir() or p.suffix == ".json")]


class ReplayPicker(ModalScreen[Path | None]):
    """Choose a game record to replay: browse the folders, or type a path."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]  # noqa: RUF012
    DEFAULT_CSS = """
    ReplayPicker { align: center middle; }
    #picker { width: 90; max-width: 100%; height: 90%; border: round $accent; padding: 0 1; }
    #picker RecordTree { height: 1fr; }
    #picker-error { color: $error; height: auto; }
    """

    def __init__(self, folder: Path | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.folder = folder or Path.cwd()

    def compose(self) -> ComposeResult:
        with Vertical(id="picker") as box:
            box.border_title = _("Open a game record to replay")
            yield Input(str(self.folder), id="picker-path")
            yield RecordTree(self.folder, id="picker-tree")
            yield Static(_("Enter on a .json file (or a typed path) opens it; Escape cancels."), markup=False)
            yield Static("", id="picker-error")

    def on_mount(self) -> None:
        self.query_one(RecordTree).focus()

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        self.dismiss(Path(event.path))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip()).expanduser()
        if path.is_file():
            self.dismiss(path)
        elif path.is_dir():
            self.query_one(RecordTree).path = path
        else:
            self.query_one("#picker-error", Static).update(_("No such file: {path}").format(path=path))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResultScreen(ModalScreen[str]):
    """The end of the game: who won and what next (a rematch, the replay, a new table...)."""

    BINDINGS = [  # noqa: RUF012
        Binding("r", "choose('rematch')", N_("Rematch")),
        Binding("p", "choose('replay')", N_("Replay")),
        Binding("a", "choose('analyse')", N_("Analyse")),
        Binding("n", "choose('new')", N_("New game")),
        Binding("s", "choose('save')", N_("Save")),
        Binding("escape,b", "choose('board')", N_("Board")),
        Binding("q", "choose('quit')", N_("Quit")),
    ]
    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    #result { width: 70; max-width: 100%; height: auto; border: double $success; padding: 0 1; }
    #result-title { text-style: bold; width: 100%; content-align: center middle; }
    #result Horizontal { height: 3; }
    #result Button { margin: 0 1 0 0; min-width: 10; }
    """

    def __init__(self, title: str, detail: str, can_analyse: bool = False) -> None:
        super().__init__()
        translate_bindings(self)
        self.title_text = title
        self.detail = detail
        self.can_analyse = can_analyse
        """Offer the post-game analysis (a game against bots: people among friends may not want it)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="result"):
            yield Static(self.title_text, id="result-title")
            yield Static(self.detail, markup=False)
            with Horizontal():
                yield Button(_("Rematch (r)"), variant="primary", id="rematch")
                yield Button(_("Replay (p)"), id="replay")
                if self.can_analyse:
                    yield Button(_("Analyse (a)"), id="analyse")
                yield Button(_("New game (n)"), id="new")
            with Horizontal():
                yield Button(_("Save (s)"), id="save")
                yield Button(_("Board (b)"), id="board")
                yield Button(_("Quit (q)"), id="quit")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_analyse or parameters != ("analyse",)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "board")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
