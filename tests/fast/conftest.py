"""The fast engine's tests need its extra (Numba); without it they are skipped, not failed."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")
pytest.importorskip("numpy")
