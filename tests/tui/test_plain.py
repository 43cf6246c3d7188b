"""``sequence play --plain``: a script plays through standard input and output."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sequence_game.actions import action_name
from sequence_game.cli import main
from sequence_game.tui.controller import GameSession, turns_played
from sequence_game.tui.plain import HIDE_LINES, MAX_BAD_LINES, board_text, run_plain, run_plain_replay


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
    assert "cannot read action 'nonsense'" in out
    assert "R5.2: cannot read" not in out  # a typing slip breaks no rule
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
    last = out.getvalue().splitlines()
    assert "(R7." in last[-2]
    assert last[-1] == f"After {turns_played(session.state)} turns."


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
    assert "Resumed saved.json at turn 4." in capsys.readouterr().out  # turn 4 is the one in progress


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
    assert "cannot read action 'zz'" in proc.stdout
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


def test_a_script_of_garbage_is_stopped() -> None:
    """``yes garbage | sequence play --plain`` once looped for ever; off a terminal it now stops."""
    proc = subprocess.run(
        [sys.executable, "-m", "sequence_game", "play", "--plain", "--seed", "1", "--bots", "easy"],
        input="garbage\n" * 10_000,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.count("cannot read action 'garbage'") == MAX_BAD_LINES
    assert "Stopped: 20 lines in a row made no move" in proc.stdout


def test_a_move_resets_the_count_of_lines_without_one() -> None:
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"])
    session.step_bots()
    move = action_name(session.state.legal_actions(0)[0])
    out = play(session, "zz\n" * (MAX_BAD_LINES - 1) + move + "\n" + "board\n" * (MAX_BAD_LINES - 1))
    assert "Stopped" not in out and "End of input" in out


@pytest.mark.parametrize("line", ["", "help", "board", "space e4"])
def test_issue_45_bug_6_lines_that_make_no_move_stop_a_script(line: str) -> None:
    """``yes '' | sequence play --plain`` printed 98,514 prompts in 3 s: an empty line or ``help``
    never counted towards the stop."""
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"])
    stream = io.StringIO()
    assert run_plain(session, io.StringIO((line + "\n") * 10_000), stream) == 1
    out = stream.getvalue()
    assert f"Stopped: {MAX_BAD_LINES} lines in a row made no move" in out
    assert out.count("seat 0> ") == MAX_BAD_LINES


def test_hot_seat_plain_mode_passes_the_keyboard() -> None:
    session = GameSession.new(players=2, seed=3, seats=["human", "human"])
    move = action_name(session.state.legal_actions(0)[0])
    out = play(session, f"\n{move}\n\n")
    first_pass = out.index("Pass the keyboard to Seat 0 (Blue)")
    assert first_pass < out.index("Seat 0 (Blue) hand:")  # seat 0's hand waits too
    second_pass = out.index("Pass the keyboard to Seat 1 (Green)")
    assert out.index("Seat 0 (Blue) hand:") < second_pass < out.index("Seat 1 (Green) hand:")


def test_turns_count_from_one() -> None:
    session = GameSession.new(players=2, seed=3, seats=["human", "easy"])
    out = play(session, "")
    assert "Turn 1 (round 1). Seat 0 (Blue) to play." in out


def test_plain_play_needs_no_server_library() -> None:
    """``sequence play`` with only the ``[tui]`` extra: the play path imports no web-server library."""
    code = (
        "import sys, io; sys.stdin = io.StringIO('');"
        "from sequence_game.cli import main; rc = main(['play', '--plain', '--seed', '1']);"
        "heavy = sorted(m for m in ('fastapi', 'uvicorn', 'sqlalchemy', 'pydantic', 'starlette', 'alembic',"
        " 'numpy') if m in sys.modules); print('HEAVY', heavy); sys.exit(rc)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "HEAVY []" in proc.stdout


def test_resume_a_hot_seat_save_keeps_everyone_a_person(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    session = GameSession.new(players=2, seed=1, seats=["human", "human"])
    path = session.save(tmp_path / "friends.json")
    sys_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        assert main(["play", "--plain", "--resume", str(path)]) == 0  # no --hotseat given
    finally:
        sys.stdin = sys_stdin
    out = capsys.readouterr().out
    assert "people at seat 0, seat 1" in out
    assert "New game: 2 players" in out  # the earlier log came back with the save


def test_issue_45_bug_4_hot_seat_hides_the_last_hand_before_the_next_player_sits_down() -> None:
    session = GameSession.new(players=2, seed=3, seats=["human", "human"])
    move = action_name(session.state.legal_actions(0)[0])
    out = play(session, f"\n{move}\n\n")
    hand_0 = out.index("Seat 0 (Blue) hand:")
    pass_1 = out.index("Pass the keyboard to Seat 1 (Green)")
    assert "\n" * HIDE_LINES in out[hand_0:pass_1]  # the hand scrolled away before the call
    assert "\n" * HIDE_LINES not in out[pass_1 : out.index("Seat 1 (Green) hand:")]


#: Run the line mode with the optional stacks hidden, as after ``pip install .`` (the engine alone).
WITHOUT_EXTRAS = """
import sys
from importlib.machinery import PathFinder

HIDDEN = {"rich", "textual", "numpy", "numba", "fastapi", "uvicorn", "sqlalchemy", "threadpoolctl"}

class Hide(PathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            return None
        return PathFinder.find_spec(name, path, target)

sys.meta_path[:] = [Hide if f is PathFinder else f for f in sys.meta_path]
for name in list(sys.modules):
    if name.split(".")[0] in HIDDEN:
        del sys.modules[name]
from sequence_game.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_issue_45_bug_8_the_line_mode_plays_without_any_extra(tmp_path: Path) -> None:
    """``pip install .`` then ``sequence play --plain`` ended in ``No module named 'rich'``."""
    session = GameSession.new(players=2, seed=5, seats=["human", "easy"])
    script = FirstLegalMove(session)
    lines = []
    while not session.state.is_terminal():
        session.step_bots()
        if session.state.is_terminal():
            break
        line = script.readline()
        lines.append(line)
        session.apply(session.state.legal_actions(0)[0], 0)
    runner = tmp_path / "bare.py"
    runner.write_text(WITHOUT_EXTRAS)
    proc = subprocess.run(
        [sys.executable, str(runner), "play", "--plain", "--seed", "5", "--bots", "easy"],
        input="".join(lines),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "wins" in proc.stdout or "Drawn" in proc.stdout, proc.stdout[-500:]
    proc = subprocess.run(
        [sys.executable, str(runner), "play", "--plain", "--bots", "expert"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in proc.stderr


def test_issue_45_bug_9_options_after_the_command_include_the_language() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sequence_game", "play", "--lang", "es", "--plain", "--seed", "1"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Jugadas legales" in proc.stdout or "legales" in proc.stdout, proc.stdout[-300:]


def test_screen_reader_commands_space_threats_and_the_card_drawn() -> None:
    session = GameSession.new(players=2, seed=1, seats=["human", "easy"])
    session.step_bots()
    move = session.state.legal_actions(0)[0]
    out = play(session, f"space e4\nthreats\nspace z9\n{action_name(move)}\n")
    assert "e4: " in out and "Threats: none" in out
    assert "usage: space CELL" in out
    assert "You drew " in out


def test_a_two_eyed_jack_lists_its_spaces_on_short_lines() -> None:
    from sequence_game.tui.plain_words import CELLS_A_LINE, wrapped_moves

    line = "jd@ " + " ".join(f"{c}{r}" for c in "abcdefghij" for r in range(1, 7))
    parts = wrapped_moves(line)
    assert len(parts) == 5 and all(len(p.split()) <= CELLS_A_LINE + 1 for p in parts)
    assert " ".join(parts).split() == line.split()
