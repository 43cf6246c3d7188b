"""``sequence play --plain``: a script plays through standard input and output."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from sequence_game.actions import action_name
from sequence_game.cli import main
from sequence_game.tui.controller import GameSession
from sequence_game.tui.plain import board_text, run_plain, run_plain_replay


class FirstLegalMove(io.StringIO):
    """A script on standard input: always the first legal move of the seat asked."""

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self.lines = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.lines += 1
        seat = self.session.human_to_prompt()
        assert seat is not None
        return action_name(self.session.state.legal_actions(seat)[0]) + "\n"


def play(session: GameSession, text: str) -> str:
    out = io.StringIO()
    assert run_plain(session, io.StringIO(text), out) == 0
    return out.getvalue()


def test_board_text_shows_cards_chips_and_corners() -> None:
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"])
    text = board_text(session.state)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghij")
    assert lines[1].startswith("0  free 2s.  3s.")
    assert len(lines) == 11


def test_r5_2_illegal_move_explained_then_prompt_again() -> None:
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"])
    out = play(session, "7h@a1\nnonsense\n")
    assert "R5.2: a1 shows" in out or "R5.2:" in out
    assert "R5.2: cannot read action 'nonsense'" in out
    assert out.count("seat 0> ") == 3  # asked again after each refusal, then EOF
    assert out.rstrip().endswith("End of input: the game is left unfinished.")


def test_legal_moves_listed_in_notation() -> None:
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"])
    out = play(session, "")
    assert "Legal moves:" in out
    first = session.state.legal_actions(0)[0]
    card, _, cell = action_name(first).partition("@")
    assert any(line.strip().startswith(f"{card}@") and cell in line for line in out.splitlines())


def test_a_script_plays_a_whole_game_against_a_bot() -> None:
    session = GameSession.new(players=2, seed=3, seats=["human", "easy"])
    stdin = FirstLegalMove(session)
    out = io.StringIO()
    assert run_plain(session, stdin, out) == 0
    assert session.state.is_terminal()
    assert stdin.lines > 10
    assert "(R7." in out.getvalue().splitlines()[-1]


def test_manual_draw_and_commands() -> None:
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"], draw="manual")
    session.step_bots()
    move = action_name(session.state.legal_actions(0)[0])
    out = play(session, f"help\nboard\ndiscards\n{move}\ndraw\ndraw\nquit\n")
    assert "Moves (one a line)" in out
    assert "R5.3: seat 0 owes no draw" in out
    assert "Game abandoned." in out


def test_talk_command_needs_teams() -> None:
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"])
    out = play(session, "talk blue\n")
    assert "R6.1: the table-talk penalty applies only to teams" in out


def test_save_then_resume_from_the_command_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"])
    session.step_bots()
    path = tmp_path / "saved.json"
    play(session, f"{action_name(session.state.legal_actions(0)[0])}\nsave {path}\n")
    assert json.loads(path.read_text())["format"] == "sequence-record/1"
    sys_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        assert main(["play", "--plain", "--resume", str(path), "--bots", "easy"]) == 0
    finally:
        sys.stdin = sys_stdin
    assert "Resumed saved.json at turn 3." in capsys.readouterr().out


def test_replay_steps_back_and_forth(tmp_path: Path) -> None:
    session = GameSession.new(players=2, seed=2, seats=["easy"])
    session.step_bots()
    path = tmp_path / "game.json"
    session.save(path)
    out = io.StringIO()
    assert run_plain_replay(path, io.StringIO("n\nn\np\n5\nq\n"), out) == 0
    text = out.getvalue()
    for step in (0, 1, 2, 1, 5):
        assert f"Step {step} of" in text


def test_non_tty_stdin_falls_back_to_plain() -> None:
    """``sequence play`` in a pipe plays in line mode and ends cleanly on EOF."""
    proc = subprocess.run(
        [sys.executable, "-m", "sequence_game", "play", "--seed", "1", "--bots", "easy"],
        input="zz\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "R5.2: cannot read action 'zz'" in proc.stdout
    assert "End of input" in proc.stdout


def test_bad_table_is_refused_with_the_rule() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sequence_game", "play", "--plain", "--players", "5"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "R2.1" in proc.stderr
