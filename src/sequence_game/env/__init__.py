"""The research environment: PettingZoo, Gymnasium and a batch stepper over the rules engine.

Needs the ``env`` extra (numpy, gymnasium, pettingzoo). Everything here is an adapter: the rules
live in the engine (``GameState``), the observation planes in ``sequence_game.features``.

- ``sequence_game.env.sequence_v0``: ``env()``/``raw_env`` (PettingZoo AEC), every table of R2.
- ``sequence_game.env.gymnasium``: ``SequenceEnv``, one seat against bots; importing this package
  registers it as ``gymnasium.make("sequence_game/Sequence-v0")``.
- ``sequence_game.env.vector``: ``SequenceVectorEnv``, many games stepped with numpy arrays.
- ``PolicyBot``, the trained baseline network (numpy only), lives with the bots
  (``sequence_game.bots.policy``) and is re-exported here.

>>> from sequence_game.env import env
>>> env(players=3).metadata["name"]
'sequence_v0'
"""

from __future__ import annotations

from ..bots.policy import PolicyBot
from ..features.planes import DEFAULT_MAX_TURNS
from . import sequence_v0
from .gymnasium import ENV_ID, SequenceEnv
from .observation import (
    NUM_PLANES,
    OBS_SHAPE,
    PLANES,
    STATE_PLANES,
    STATE_SHAPE,
    encode,
    encode_batch,
    encode_state_batch,
    encode_view,
)
from .pettingzoo import env, raw_env
from .table import DEFAULT_BOT_LIMIT
from .vector import Batch, SequenceVectorEnv

__all__ = [
    "DEFAULT_BOT_LIMIT",
    "DEFAULT_MAX_TURNS",
    "ENV_ID",
    "NUM_PLANES",
    "OBS_SHAPE",
    "PLANES",
    "STATE_PLANES",
    "STATE_SHAPE",
    "Batch",
    "PolicyBot",
    "SequenceEnv",
    "SequenceVectorEnv",
    "encode",
    "encode_batch",
    "encode_state_batch",
    "encode_view",
    "env",
    "raw_env",
    "sequence_v0",
]
