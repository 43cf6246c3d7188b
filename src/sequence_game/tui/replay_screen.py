"""``sequence play --replay FILE``: step through a game record forwards and backwards, and analyse it.

The analysis (``docs/analysis.md``) is CPU-bound for up to about a minute and a half, so it runs in a
child process (:mod:`.analysis_job`); a timer on the interface's side reads its progress and result
without waiting, so the interface never waits on it, and stopping it is immediate.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, ProgressBar, Static

from ..analysis import Budget, GameAnalysis, MoveAnalysis, format_text
from ..cards import card_label
from ..i18n import N_, _, ngettext
from ..record_messages import replay_message
from ..state import GameState
from .analysis_job import AnalysisJob
from .analysis_view import ChanceChart, move_line, summary_text
from .bindings import translate_bindings
from .controller import (
    SIDE_LETTERS,
    ReplayModel,
    describe_event,
    last_move_cell,
    result_text,
    side_name,
    turns_played,
    winning_cells,
)
from .screens import TextScreen
from .widgets import CHIP_STYLES, BoardPicture, BoardView

#: How often the interface looks at the analysis' progress, in seconds.
POLL_SECONDS = 0.1
#: The analysis is repeatable: the same record always gets the same figures (at a budget without time).
ANALYSIS_SEED = 0


class ReplayScreen(Screen[GameAnalysis | None]):
    """The board after each step of a record; every hand is shown (a record hides nothing).

    Opened from the command line, ``q`` ends the program; opened from inside the app (the start
    screen's file picker, or "Replay" at the end of a game), it goes back, answering the analysis
    if one was made, so that reopening the replay does not run it again.
    """

    BINDINGS = [  # noqa: RUF012
        Binding("right,n,space", "step(1)", N_("Next")),
        Binding("left,p", "step(-1)", N_("Back")),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home", "jump(0)", N_("Start"), show=False),
        Binding("end", "jump(-1)", N_("End"), show=False),
        Binding("a", "analyse", N_("Analyse")),
        Binding("a", "stop_analysis", N_("Stop analysis")),
        Binding("right_square_bracket", "labelled(1)", N_("Next label")),
        Binding("left_square_bracket", "labelled(-1)", N_("Prev label")),
        Binding("r", "report", N_("Report")),
        Binding("q,escape", "quit", N_("Quit")),
    ]
    DEFAULT_CSS = """
    #replay-side { width: 1fr; padding: 0 0 0 1; scrollbar-size-vertical: 1; }
    #replay-status { height: auto; }
    #replay-hands { height: auto; }
    #analysis { height: auto; display: none; border-top: solid $primary-darken-2; }
    #analysis.shown { display: block; }
    #analysis-title { height: auto; text-style: bold; }
    #analysis-progress { height: 1; }
    #analysis-progress Bar { width: 1fr; }
    #analysis-move { height: auto; }
    #analysis-summary { height: auto; }
    """

    def __init__(
        self,
        model: ReplayModel,
        name: str = "",
        closes_app: bool = True,
        *,
        budget: Budget | None = None,
        analysis: GameAnalysis | None = None,
        analyse: bool = False,
    ) -> None:
        super().__init__()
        translate_bindings(self)
        self.model = model
        self.record_name = name or _("record")
        self.closes_app = closes_app
        self.budget = budget or Budget()
        """The analysis' budget (``analysis.Budget``: the default spends about 90 s on a game)."""
        self.analysis = analysis
        self.analyse_at_once = analyse
        self.by_index: dict[int, MoveAnalysis] = {}
        self.job: AnalysisJob | None = None
        """The analysis running, if any."""
        self.poller: Timer | None = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield BoardView(id="board")
            with VerticalScroll(id="replay-side"):
                yield Static("", id="replay-status")
                yield Static("", id="replay-hands")
                with Vertical(id="analysis"):
                    yield Static("", id="analysis-title")
                    yield ProgressBar(total=None, show_eta=False, id="analysis-progress")
                    yield Static("", id="analysis-move")
                    yield ChanceChart(id="analysis-chart")
                    yield Static("", id="analysis-summary")
        yield Footer()

    def on_mount(self) -> None:
        board = self.query_one(BoardView)
        board.can_focus = False  # arrows step through the record here, not the cursor
        board.playable = False
        board.blur()
        board.fit_terminal(self.app.size.width, self.app.size.height)
        self.query_one("#replay-side").can_focus = False
        if self.analysis is not None:
            self.show_analysis(self.analysis)
        self.show(self.model.goto(0))
        if self.analyse_at_once and self.analysis is None:
            self.action_analyse()

    def on_resize(self) -> None:
        """The board grows with the terminal, as the game's does (it stayed narrow at 120x40)."""
        self.query_one(BoardView).fit_terminal(self.app.size.width, self.app.size.height)

    # ------------------------------------------------------------ stepping

    def action_step(self, delta: int) -> None:
        self.show(self.model.move(delta))

    def action_jump(self, step: int) -> None:
        self.show(self.model.goto(self.model.steps if step < 0 else step))

    def labelled_steps(self) -> list[int]:
        """The replay steps that show a labelled move (a mistake, a blunder, a missed win or block)."""
        if self.analysis is None:
            return []
        steps = {self.model.step_of_entry(m.index) for m in self.analysis.moves if m.label}
        return sorted(s for s in steps if s is not None)

    def action_labelled(self, direction: int) -> None:
        """Jump to the next (or previous) step whose move is labelled."""
        here = self.model.step
        steps = self.labelled_steps()
        later = [s for s in steps if s > here] if direction > 0 else [s for s in steps if s < here][::-1]
        if not later:
            self.notify(
                _("No labelled move after this step.")
                if direction > 0
                else _("No labelled move before this step.")
            )
            return
        self.show(self.model.goto(later[0]))

    def action_quit(self) -> None:
        self.stop_job()
        if self.closes_app:
            self.app.exit()
        else:
            self.dismiss(self.analysis)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers Analyse before, Stop while it runs, the labels and Report after."""
        running = self.job is not None
        if action == "analyse":
            return not running and self.analysis is None
        if action == "stop_analysis":
            return running
        if action in ("labelled", "report"):
            return self.analysis is not None
        return True

    # ------------------------------------------------------------ the analysis

    def action_analyse(self) -> None:
        """Start the analysis of the whole record in a child process, with a progress bar."""
        if self.job is not None or self.analysis is not None:
            return
        self.query_one("#analysis").add_class("shown")
        self.query_one("#analysis-title", Static).update(Text(_("Analysing… (a stops)")))
        bar = self.query_one("#analysis-progress", ProgressBar)
        bar.display = True
        bar.update(total=None, progress=0)
        self.job = AnalysisJob(self.model.data, self.budget, ANALYSIS_SEED)
        self.poller = self.set_interval(POLL_SECONDS, self.poll_analysis)
        self.refresh_bindings()

    def poll_analysis(self) -> None:
        """Move the progress bar; show the analysis once the child has it."""
        job = self.job
        if job is None:
            return
        job.poll()
        done, total = job.progress
        if total:
            self.query_one("#analysis-progress", ProgressBar).update(total=total, progress=done)
            self.query_one("#analysis-title", Static).update(
                Text(_("Analysing… {done}/{total} moves").format(done=done, total=total))
            )
        outcome = job.result
        if outcome is None:
            return
        self.end_job()
        if isinstance(outcome, str):
            self.query_one("#analysis-title", Static).update(
                Text(_("Cannot analyse this record: {error}").format(error=outcome))
            )
            self.query_one("#analysis-progress", ProgressBar).display = False
            return
        self.show_analysis(outcome)
        self.show(self.model.state_at(self.model.step))

    def action_stop_analysis(self) -> None:
        self.stop_job()
        self.query_one("#analysis-title", Static).update(Text(_("Analysis stopped (a starts it again).")))
        self.query_one("#analysis-progress", ProgressBar).display = False

    def stop_job(self) -> None:
        if self.job is not None:
            self.job.stop()
        self.end_job()

    def end_job(self) -> None:
        if self.poller is not None:
            self.poller.stop()
        self.job, self.poller = None, None
        self.refresh_bindings()

    def on_unmount(self) -> None:
        if self.job is not None:
            self.job.stop()  # leaving the replay (or the program) ends its analysis

    def show_analysis(self, analysis: GameAnalysis) -> None:
        self.analysis = analysis
        self.by_index = {m.index: m for m in analysis.moves}
        self.query_one("#analysis").add_class("shown")
        labelled = len(self.labelled_steps())
        self.query_one("#analysis-title", Static).update(
            Text(_("Analysis ({n} labelled)").format(n=labelled))
        )
        self.query_one("#analysis-progress", ProgressBar).display = False
        self.query_one(ChanceChart).show(analysis)
        self.query_one("#analysis-summary", Static).update(summary_text(analysis, self.model.step_of_entry))
        self.refresh_bindings()

    def action_report(self) -> None:
        if self.analysis is not None:
            self.app.push_screen(
                TextScreen(_("Analysis of {name}").format(name=self.record_name), format_text(self.analysis))
            )

    # ------------------------------------------------------------ drawing

    def show(self, state: GameState) -> None:
        board = self.query_one(BoardView)
        board.cursor = -1  # no cursor in a replay
        board.show(
            BoardPicture(
                chips=tuple(state.chips(s) for s in range(state.config.sides)),
                locked=state.locked,
                last=last_move_cell(state),
                winning=winning_cells(state),
            )
        )
        m = self.model
        text = Text()
        text.append(_("Replay of {name}").format(name=self.record_name) + "\n", style="bold")
        played = turns_played(state)
        text.append(
            ngettext(
                "Step {step} of {steps} ({n} turn played)",
                "Step {step} of {steps} ({n} turns played)",
                played,
            ).format(step=m.step, steps=m.steps, n=played)
            + "\n"
        )
        history = state.history
        text.append((describe_event(state, history[-1]) if history else _("The deal.")) + "\n")
        if state.is_terminal():
            text.append(result_text(state) + "\n", style="bold")
        elif m.step == m.steps and not m.final.ok:
            error = replay_message(m.final.rule, m.final.error)
            text.append(_("The record stops here: {error}").format(error=error) + "\n", style="bold red")
        counts = state.sequence_counts()
        for side in range(state.config.sides):
            text.append(f" {SIDE_LETTERS[side]} ", style=CHIP_STYLES[side])
            text.append(f" {side_name(side)} {counts[side]}/{state.config.sequences_to_win}\n")
        text.append(_("Draw pile {n}").format(n=state.deck_size) + "\n")
        self.query_one("#replay-status", Static).update(text)
        hands = Text()
        for seat in range(state.players):
            hands.append(f"S{seat} ", style="bold")
            hands.append(" ".join(card_label(c) for c in state.hand(seat)) + "\n")
        hands.rstrip()
        self.query_one("#replay-hands", Static).update(hands)
        self.show_move_analysis()

    def show_move_analysis(self) -> None:
        """The analysed move of this step (its label and swing), and the chart's current column."""
        if self.analysis is None:
            return
        entry = self.model.first_entry(self.model.step)
        move = self.by_index.get(entry) if entry is not None else None
        self.query_one(ChanceChart).current = entry
        self.query_one("#analysis-move", Static).update(
            move_line(move) if move is not None else Text(_("No move analysed at this step."), style="dim")
        )
