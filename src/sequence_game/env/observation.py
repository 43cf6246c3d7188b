"""The Gymnasium spaces of the observation planes (:mod:`sequence_game.features.planes`), and the
encoder itself re-exported, so that an environment user finds everything in one place.

>>> observation_space()["observation"].shape
(10, 10, 24)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..actions import NUM_ACTIONS
from ..features.planes import (
    HIDDEN_PLANES,
    MAX_PLAYERS,
    MAX_SIDES,
    NUM_PLANES,
    OBS_SHAPE,
    PLANES,
    QUANTUM,
    STATE_PLANES,
    STATE_SHAPE,
    encode,
    encode_batch,
    encode_state_batch,
    encode_view,
    quantize,
    recent_cells,
)

__all__ = [
    "HIDDEN_PLANES",
    "MAX_PLAYERS",
    "MAX_SIDES",
    "NUM_PLANES",
    "OBS_SHAPE",
    "PLANES",
    "QUANTUM",
    "STATE_PLANES",
    "STATE_SHAPE",
    "action_space",
    "encode",
    "encode_batch",
    "encode_state_batch",
    "encode_view",
    "observation_space",
    "quantize",
    "recent_cells",
    "state_space",
]


def observation_space(dtype: npt.DTypeLike = np.float32) -> spaces.Dict:
    """The space of one observation: planes plus action mask (a new object each call); the planes
    as ``float32`` in ``[0, 1]`` or, with ``dtype=np.uint8``, as :func:`quantize` writes them."""
    planes: spaces.Box
    if np.dtype(dtype) == np.uint8:
        planes = spaces.Box(0, QUANTUM, OBS_SHAPE, dtype=np.uint8)
    elif np.dtype(dtype) == np.float32:
        planes = spaces.Box(0.0, 1.0, OBS_SHAPE, dtype=np.float32)
    else:
        raise ValueError(f"observation planes are float32 or uint8, not {np.dtype(dtype)}")
    return spaces.Dict(
        {"observation": planes, "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)}
    )


def state_space() -> spaces.Box:
    """The space of :func:`encode_state_batch`'s planes (PettingZoo's ``state_space``)."""
    return spaces.Box(0.0, 1.0, STATE_SHAPE, dtype=np.float32)


def action_space() -> spaces.Discrete:  # type: ignore[type-arg, unused-ignore]  # generic in some gymnasium releases
    """The engine's fixed action space (``NUM_ACTIONS`` ids, decoded by ``Action.decode``)."""
    return spaces.Discrete(NUM_ACTIONS)
