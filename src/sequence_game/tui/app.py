"""The Textual application of ``sequence play``: a new-game screen, the game, replays."""

from __future__ import annotations

import threading
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from ..analysis import Budget
from ..bots import Limit, level_bot, warm_up
from ..i18n import N_, _, engine_message
from ..record_messages import record_message
from ..records import RecordError, path_text
from .bindings import translate_bindings
from .controller import GameSession, ReplayModel
from .game_screen import GameScreen
from .replay_screen import ReplayScreen
from .screens import ContinueGame, GameSetup, NewGameScreen, OpenReplay, TextScreen


class SequenceApp(App[None]):
    """Sequence in the terminal. Give it a ``session`` to start playing at once, a ``replay`` path to
    step through a record, or nothing for the new-game screen."""

    TITLE = "Sequence"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), show=False)]  # noqa: RUF012

    def __init__(
        self,
        session: GameSession | None = None,
        *,
        replay: str | Path | None = None,
        think: float = 1.0,
        bot_delay: float = 0.4,
        setup: GameSetup | None = None,
        autosave: bool = True,
        analysis_budget: Budget | None = None,
    ) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = session
        self.replay_path = replay
        self.limit = Limit(seconds=think)
        self.bot_delay = bot_delay
        self.setup = setup or GameSetup()
        self.autosave = autosave
        """Save the game after every move (``controller.autosave_path``), for "Continue last game"."""
        self.analysis_budget = analysis_budget or Budget()
        """What the replay's "Analyse" spends (``analysis.Budget``; the default about 90 s a game)."""

    def on_mount(self) -> None:
        if not self.is_headless:  # the expert's kernels load while the player sets up the game
            threading.Thread(target=warm_up, args=(level_bot("expert"),), daemon=True).start()
        if self.replay_path is not None:
            try:
                model = ReplayModel(str(self.replay_path))
            except RecordError as exc:
                self.exit(
                    return_code=2,
                    message=_("cannot replay {path}: {error}").format(
                        path=path_text(self.replay_path), error=exc
                    ),
                )
                return
            self.push_screen(ReplayScreen(model, Path(self.replay_path).name, budget=self.analysis_budget))
        elif self.session is not None:
            self.push_screen(self.game_screen(self.session))
        else:
            self.action_new_game()

    def game_screen(self, session: GameSession) -> GameScreen:
        return GameScreen(session, bot_delay=self.bot_delay, autosave=self.autosave)

    def action_new_game(self) -> None:
        """Open the new-game screen; its answer starts a game (or quits if it is the first screen)."""
        first = self.session is None

        def start(setup: GameSetup | ContinueGame | OpenReplay | None) -> None:
            if setup is None:
                return
            if isinstance(setup, ContinueGame):
                self.continue_game(setup.path, first)
                return
            if isinstance(setup, OpenReplay):
                self.open_replay(setup.path, first)
                return
            self.setup = setup
            try:
                session = GameSession.new(
                    players=setup.players,
                    teams=setup.teams,
                    draw=setup.draw,
                    seed=setup.seed,
                    seats=setup.seats,
                    limit=self.limit,
                )
            except ValueError as exc:  # the form validates first; belt and braces
                self.push_screen(TextScreen(_("Cannot start"), engine_message(exc)))
                return
            self.start_session(session)

        self.push_screen(NewGameScreen(self.setup, can_cancel=not first), start)

    def continue_game(self, path: Path, first: bool) -> None:
        """The start screen's "Continue last game": the autosave, with its people, bots and log."""
        try:
            session = GameSession.resume(path, limit=self.limit)
        except RecordError as exc:
            self.push_screen(
                TextScreen(_("Cannot continue"), record_message(exc)),
                lambda _answer: self.back_to_start(first),
            )
            return
        self.start_session(session)

    def open_replay(self, path: Path, first: bool) -> None:
        """A record chosen in the start screen's file picker; leaving the replay comes back here."""
        try:
            model = ReplayModel(str(path))
        except RecordError as exc:
            self.push_screen(
                TextScreen(_("Cannot replay"), f"{path}: {record_message(exc)}"),
                lambda _answer: self.back_to_start(first),
            )
            return
        self.push_screen(
            ReplayScreen(model, path.name, closes_app=False, budget=self.analysis_budget),
            lambda _answer: self.back_to_start(first),
        )

    def back_to_start(self, first: bool) -> None:
        if first or self.session is None:
            self.action_new_game()

    def start_session(self, session: GameSession) -> None:
        self.session = session
        self.switch_to_game(session)

    def switch_to_game(self, session: GameSession) -> None:
        """Replace whatever is on the stack with a fresh game screen."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(self.game_screen(session))
