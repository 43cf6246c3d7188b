"""The Textual application of ``sequence play``: a new-game screen, the game, replays."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.binding import Binding

from ..bots import Limit
from ..records import RecordError
from .controller import GameSession, ReplayModel
from .game_screen import GameScreen
from .replay_screen import ReplayScreen
from .screens import GameSetup, NewGameScreen, TextScreen


class SequenceApp(App[None]):
    """Sequence in the terminal. Give it a ``session`` to start playing at once, a ``replay`` path to
    step through a record, or nothing for the new-game screen."""

    TITLE = "Sequence"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False)]  # noqa: RUF012

    def __init__(
        self,
        session: GameSession | None = None,
        *,
        replay: str | Path | None = None,
        think: float = 1.0,
        bot_delay: float = 0.4,
        setup: GameSetup | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.replay_path = replay
        self.limit = Limit(seconds=think)
        self.bot_delay = bot_delay
        self.setup = setup or GameSetup()

    def on_mount(self) -> None:
        if self.replay_path is not None:
            try:
                model = ReplayModel(str(self.replay_path))
            except RecordError as exc:
                self.exit(return_code=2, message=f"cannot replay {self.replay_path}: {exc}")
                return
            self.push_screen(ReplayScreen(model, Path(self.replay_path).name))
        elif self.session is not None:
            self.push_screen(GameScreen(self.session, bot_delay=self.bot_delay))
        else:
            self.action_new_game()

    def action_new_game(self) -> None:
        """Open the new-game screen; its answer starts a game (or quits if it is the first screen)."""
        first = self.session is None

        def start(setup: GameSetup | None) -> None:
            if setup is None:
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
                self.push_screen(TextScreen("Cannot start", str(exc)))
                return
            self.session = session
            self.switch_to_game(session)

        self.push_screen(NewGameScreen(self.setup, can_cancel=not first), start)

    def switch_to_game(self, session: GameSession) -> None:
        """Replace whatever is on the stack with a fresh game screen."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(GameScreen(session, bot_delay=self.bot_delay))
