"""The research tools need their extras (pyarrow, OpenSkill, Numba); without them they are skipped."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")
pytest.importorskip("pyarrow")
pytest.importorskip("openskill")
