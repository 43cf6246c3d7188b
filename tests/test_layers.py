"""The architecture holds (docs/architecture.md): layers only point down, the rules engine needs
only the standard library, and no source file grows past a reader's patience."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import sequence_game

PACKAGE = Path(sequence_game.__file__).parent
#: The optional stacks: the engine and the bots must import none of them (each is an extra).
HEAVY = ("numpy", "numba", "textual", "rich", "fastapi", "starlette", "uvicorn", "sqlalchemy")
HEAVY_ENV = ("gymnasium", "pettingzoo", "torch")
MAX_LINES = 800


#: The layers above the rules engine (docs/architecture.md); everything else in the package's root
#: is the engine, but for the command line's entry points.
HIGHER = (
    "features",
    "fast",
    "evaluator",
    "bots",
    "analysis",
    "env",
    "tui",
    "server",
    "commands",
    "cli",
    "__main__",
)


def engine_modules() -> list[str]:
    """The rules engine: the package's root modules and the ``state`` package."""
    return sorted(
        f"sequence_game.{m.name}" for m in pkgutil.iter_modules([str(PACKAGE)]) if m.name not in HIGHER
    )


def imported_after(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after ``statement``."""
    code = f"import sys\n{statement}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_the_engine_imports_only_the_standard_library() -> None:
    modules = engine_modules()
    assert "sequence_game.state" in modules and "sequence_game.records" in modules
    loaded = imported_after("\n".join(f"import {m}" for m in modules))
    assert not [m for m in HEAVY + HEAVY_ENV if m in loaded]
    higher = {m.split(".")[1] for m in loaded if m.startswith("sequence_game.")} & set(HIGHER)
    assert not higher, f"the rules engine imported higher layers: {sorted(higher)}"


@pytest.mark.parametrize(
    "statement", ["import sequence_game.bots", "import sequence_game.cli", "import sequence_game.analysis"]
)
def test_bots_and_the_command_line_start_without_the_optional_stacks(statement: str) -> None:
    loaded = imported_after(statement + "\nfrom sequence_game.bots import make_bot; make_bot('hard')")
    assert not [m for m in HEAVY + HEAVY_ENV if m in loaded]


def test_the_import_contracts_hold() -> None:
    """import-linter's contracts of pyproject.toml: the layers, the engine's imports, no circles."""
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed (the test extra brings it)")
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([str(lint), "--no-cache"], check=False, cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_no_source_file_is_over_800_lines() -> None:
    sources = [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")]
    long = {
        str(p.relative_to(PACKAGE)): n for p in sources if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"split these along their concepts: {long}"
