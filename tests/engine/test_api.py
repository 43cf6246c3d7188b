"""The engine's public surface: small, typed, and free of heavy dependencies."""

import subprocess
import sys

import sequence_game


def test_public_names() -> None:
    for name in sequence_game.__all__:
        assert hasattr(sequence_game, name)


def test_the_engine_imports_no_heavy_dependency() -> None:
    code = (
        "import sys, sequence_game, sequence_game.state, sequence_game.records, sequence_game.worlds;"
        "heavy = [m for m in ('numpy', 'fastapi', 'textual', 'sqlalchemy', 'torch', 'sequence_game.server',"
        " 'sequence_game.tui', 'sequence_game.env') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_cli_help_lists_every_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "sequence_game", "--help"], capture_output=True, text=True, check=True
    )
    for command in ("play", "serve", "tournament", "validate", "bench"):
        assert command in out.stdout


def test_cli_bench_json() -> None:
    import json

    out = subprocess.run(
        [sys.executable, "-m", "sequence_game", "bench", "--games", "20", "--players", "4", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["games"] == 20 and data["games_per_second"] > 0 and data["turns_per_game"] > 0
    assert sum(data["wins_by_side"]) + data["draws"] + data["truncated"] == 20


def test_imports_flow_one_way_below_the_state() -> None:
    """``state`` builds on ``views`` and ``notation``; they, and the modules under them, never import
    ``state`` back, not even for type checking (the developers' guide: imports flow one way)."""
    import ast
    from pathlib import Path

    package = Path(sequence_game.__file__).parent
    below = ("actions", "board", "cards", "config", "errors", "notation", "sequences", "views")
    for name in below:
        tree = ast.parse((package / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = "." * node.level + (node.module or "")
                names = {alias.name for alias in node.names}
                assert target not in (".state", "sequence_game.state"), f"{name} imports state"
                assert not (target == "." and "state" in names), f"{name} imports state"
            elif isinstance(node, ast.Import):
                assert all(a.name != "sequence_game.state" for a in node.names), f"{name} imports state"
